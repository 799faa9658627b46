// The clan wall on a clan page (templates/_clan_ladder.html): post and remove through
// /api/clans/{tag}/wall (app/api/clan_ladder.py), then show the page again as the server
// renders it (every post escaped there). A refusal is shown in the words of static/js/messages.js.
// Nothing here puts text a player wrote into HTML.
import { api, showError } from "/static/js/api.js";
import { errorText, say } from "/static/js/messages.js";

const wallBox = document.getElementById("clan-wall");
const errorBox = document.getElementById("wall-error");
const tag = wallBox ? wallBox.dataset.tag : null;
const wallPath = (...rest) => ["/api/clans", encodeURIComponent(tag), "wall", ...rest.map((p) => encodeURIComponent(String(p)))].join("/");

async function act(control, call) {
  showError(errorBox, "");
  control.disabled = true;
  try {
    await call();
    window.location.reload();
  } catch (err) {
    showError(errorBox, errorText(err));
    control.disabled = false;
  }
}

const form = document.getElementById("wall-form");
if (form) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = form.elements.text.value.trim();
    if (!text) return showError(errorBox, say("clan.wall.empty"));
    act(document.getElementById("wall-submit"), () => api("POST", wallPath(), { text }));
  });
}

if (wallBox) {
  wallBox.addEventListener("click", (event) => {
    const button = event.target.closest("button.wall-remove");
    if (!button) return;
    if (!window.confirm(say("clan.confirm.wall_remove"))) return;
    act(button, () => api("POST", wallPath(button.dataset.post, "remove")));
  });
}
