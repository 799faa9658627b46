// The tournament pages (templates/tournaments.html, tournament.html): the form and every button call
// /api/tournaments (app/tournaments/routes.py) and, when it worked, show the page again as the server
// renders it; a refusal is shown in the words of static/js/messages.js. While a tournament is open or
// running, its page asks the API every few seconds and reloads when something changed (a player, a
// pairing, a result, the status), so the standings are live.
import { api, pageData, showError } from "/static/js/api.js";
import { errorText, say } from "/static/js/messages.js";

const errorBox = document.getElementById("tournament-error");
const box = document.getElementById("tournament");
const id = box ? box.dataset.id : null;
const POLL_MS = 3000;

async function act(control, call, next) {
  showError(errorBox, "");
  if (control) control.disabled = true;
  try {
    const answer = await call();
    const target = typeof next === "function" ? next(answer) : next;
    if (target) window.location.assign(target);
    else window.location.reload();
  } catch (err) {
    showError(errorBox, errorText(err));
    if (control) control.disabled = false;
  }
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-action]");
  if (!button || !id) return;
  const { action, confirm: confirmKey } = button.dataset;
  if (confirmKey && !window.confirm(say(`tournament.confirm.${confirmKey}`))) return;
  act(button, () => api("POST", `/api/tournaments/${encodeURIComponent(id)}/${action}`));
});

const form = document.getElementById("tournament-form");
if (form) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const f = form.elements;
    const options = {};
    const variant = f.variant.value.trim();
    if (variant) {
      if (/^\d+$/.test(variant)) options.level = Number(variant);
      else options.variant = variant;
    }
    const body = {
      name: f.name.value.trim(),
      game: f.game.value,
      format: f.format.value,
      rounds: Number(f.rounds.value || 0),
      max_players: Number(f.max_players.value),
      turn_seconds: Number(f.turn_seconds.value),
      starts_at: new Date(Date.now() + Number(f.starts_in.value) * 60000).toISOString(),
      options,
      clan_only: f.clan_only.checked,
      rated: f.rated.checked,
    };
    act(form.querySelector("button[type=submit]"), () => api("POST", "/api/tournaments", body), (t) => `/tournaments/${t.id}`);
  });
}

/** What, when it changes, makes the page worth drawing again. */
function fingerprint(t) {
  return JSON.stringify([t.status, t.current_round, t.players, t.round_boards, t.viewer && t.viewer.can]);
}

if (box && (box.dataset.status === "registering" || box.dataset.status === "running")) {
  const seen = fingerprint(pageData("tournament-data")); // as the server rendered the page
  const poll = async () => {
    try {
      const t = await api("GET", `/api/tournaments/${encodeURIComponent(id)}`);
      if (fingerprint(t) !== seen) {
        window.location.reload();
        return;
      }
    } catch (err) {
      // a failed poll is tried again at the next tick
    }
    window.setTimeout(poll, POLL_MS);
  };
  window.setTimeout(poll, POLL_MS);
}
