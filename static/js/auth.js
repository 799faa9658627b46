// The sign-up and log-in forms: call the JSON API and show its errors, then go on to `next`.
import { api, showError } from "/static/js/api.js";
import { errorText, say } from "/static/js/messages.js";

const form = document.getElementById("auth-form");
const errorBox = document.getElementById("auth-error");
const submit = document.getElementById("auth-submit");
const mode = form.dataset.mode;
// the server already refuses foreign targets; check again here that we stay on this site
const next = (() => {
  try {
    const url = new URL(form.dataset.next || "/lobby", window.location.href);
    return url.origin === window.location.origin ? url.pathname + url.search + url.hash : "/lobby";
  } catch (err) {
    return "/lobby";
  }
})();

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError(errorBox, "");
  const name = form.elements.name.value.trim();
  const password = form.elements.password.value;
  if (!name) return showError(errorBox, say("form.enter_name"));
  if (!password) return showError(errorBox, say("form.enter_password"));
  if (mode === "signup" && form.elements.password2.value !== password) {
    return showError(errorBox, say("form.passwords_differ"));
  }
  submit.disabled = true;
  try {
    await api("POST", mode === "signup" ? "/api/auth/register" : "/api/auth/login", { name, password });
    window.location.assign(next);
  } catch (err) {
    showError(errorBox, errorText(err));
    submit.disabled = false;
  }
});
