// Challenge pages (templates/challenge.html and the clan page's section, _clan_challenges.html):
// every button and form calls /api/challenges or /api/clans/{tag}/challenges
// (app/clans/challenges/routes.py) and, when it worked, shows the page again as the server now
// renders it; a refusal is shown in the words of static/js/messages.js. While a challenge is open,
// its page asks the API every few seconds and shows itself again when a board changed (a player
// named, a match started or ended), so the score follows the live matches.
import { api, el, pageData, showError } from "/static/js/api.js";
import { errorText } from "/static/js/messages.js";

const POLL_MS = 3000;
const errorBox = document.getElementById("challenge-error");
const page = document.getElementById("challenge");
const challengeId = page ? page.dataset.challenge : null;
const base = challengeId ? `/api/challenges/${encodeURIComponent(challengeId)}` : null;

/** Run `call`; when it worked go to `next` (a function of the answer giving a path; none: this
 * page again), else show the refusal and let the control be used again. */
async function act(control, call, next) {
  showError(errorBox, "");
  if (control) control.disabled = true;
  try {
    const answer = await call();
    const target = next ? next(answer) : null;
    if (target) window.location.assign(target);
    else window.location.reload();
  } catch (err) {
    showError(errorBox, errorText(err));
    if (control) control.disabled = false;
  }
}

/** The same stamp as templates/challenge.html's data-stamp: what a reload would change. */
function stamp(data) {
  const id = (x) => (x ? x.id : "");
  const boards = data.boards
    .map((b) => `${id(b.challenger)}-${id(b.challenged)}-${id(b.match)}-${b.match ? b.match.status : ""}-${b.winner || ""};`)
    .join("");
  return `${data.challenge.status}|${boards}`;
}

async function poll() {
  try {
    const data = await api("GET", base);
    if (stamp(data) !== page.dataset.stamp) {
      window.location.reload();
      return;
    }
    if (data.challenge.status !== "proposed" && data.challenge.status !== "accepted") return;
  } catch (err) {
    // offline for a moment: ask again later
  }
  window.setTimeout(poll, POLL_MS);
}

if (page) {
  document.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button) return;
    const { action, board } = button.dataset;
    const calls = {
      accept: () => act(button, () => api("POST", `${base}/accept`)),
      decline: () => act(button, () => api("POST", `${base}/decline`)),
      withdraw: () => act(button, () => api("POST", `${base}/withdraw`)),
      signup: () => act(button, () => api("POST", `${base}/boards/${encodeURIComponent(board)}/signup`)),
    };
    if (calls[action]) calls[action]();
  });
  document.addEventListener("submit", (event) => {
    const form = event.target.closest("form[data-action='name']");
    if (!form) return;
    event.preventDefault();
    const { board, side } = form.dataset;
    const body = { side, name: form.elements.name.value };
    act(form.querySelector("button"), () => api("POST", `${base}/boards/${encodeURIComponent(board)}/player`, body));
  });
  if (page.dataset.status === "proposed" || page.dataset.status === "accepted") window.setTimeout(poll, POLL_MS);
}

// ---------------------------------------------------------------- the clan page's challenge form

const form = document.getElementById("challenge-form");
if (form) {
  const games = Object.fromEntries(pageData("challenge-games").map((g) => [g.id, g]));
  const gameSelect = form.elements.game;
  const optionsBox = document.getElementById("challenge-options");

  const renderOptions = () => {
    const game = games[gameSelect.value];
    optionsBox.replaceChildren(
      ...game.options.map((o) =>
        el("label", {}, o.label,
          el("select", { name: `opt_${o.key}`, dataset: { option: o.key, default: JSON.stringify(o.default) } },
            ...o.choices.map(([value, text]) => el("option", { value, text, selected: value === o.default })))),
      ),
    );
  };
  gameSelect.addEventListener("change", renderOptions);
  renderOptions();

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const f = form.elements;
    const options = { turn_seconds: Number(f.turn_seconds.value), rated: f.rated.checked };
    for (const select of optionsBox.querySelectorAll("select[data-option]")) {
      const numeric = typeof JSON.parse(select.dataset.default || "null") === "number";
      options[select.dataset.option] = numeric ? Number(select.value) : select.value;
    }
    const body = {
      opponent: form.dataset.opponent,
      game: gameSelect.value,
      options,
      boards: Number(f.boards.value),
      deadline_hours: Number(f.deadline_days.value) * 24,
    };
    act(
      document.getElementById("challenge-submit"),
      () => api("POST", `/api/clans/${encodeURIComponent(form.dataset.from)}/challenges`, body),
      (answer) => `/challenges/${answer.challenge.id}`,
    );
  });
}
