// The rewards page (templates/rewards.html): buy, show and (administrators) manage rewards through
// /api/rewards (app/rewards/routes.py). A change that worked shows the page again as the server
// now renders it; a refusal is shown in the words of static/js/messages.js.
import { api, showError } from "/static/js/api.js";
import { errorText } from "/static/js/messages.js";

const errorBox = document.getElementById("rewards-error");
const path = (...parts) => ["/api/rewards", ...parts.map((p) => encodeURIComponent(String(p)))].join("/");

/** Run `call` with `control` disabled; reload when it worked, else show why and re-enable it. */
async function act(control, call) {
  showError(errorBox, "");
  if (control) control.disabled = true;
  try {
    await call();
    window.location.reload();
  } catch (err) {
    showError(errorBox, errorText(err));
    if (control) control.disabled = false;
  }
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-action]");
  if (!button) return;
  const { action, code, kind } = button.dataset;
  if (action === "buy") act(button, () => api("POST", path(code, "buy")));
  if (action === "equip") act(button, () => api("POST", "/api/users/me/equipped", { kind, code: code || null }));
});

for (const form of document.querySelectorAll("form.reward-admin")) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const f = form.elements;
    const body = { cost: Number(f.cost.value), active: f.active.checked };
    act(form.querySelector("button"), () => api("PATCH", path(form.dataset.code), body));
  });
}

const createForm = document.getElementById("reward-create-form");
if (createForm) {
  createForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const f = createForm.elements;
    const body = { code: f.code.value.trim(), kind: f.kind.value, cost: Number(f.cost.value) };
    act(createForm.querySelector("button"), () => api("POST", "/api/rewards", body));
  });
}
