// The lobby: open matches to join, your matches, and the "create a match" form.
import { api, el, formatTurn, pageData, showError } from "/static/js/api.js";

const data = pageData("lobby-data");
const me = data.user;
const games = Object.fromEntries((data.games || []).map((g) => [g.id, g]));
const gameDetails = {}; // id -> /api/games/{id} (options with defaults)

const form = document.getElementById("create-form");
const gameSelect = document.getElementById("create-game");
const levelLabel = document.getElementById("level-label");
const levelSelect = document.getElementById("create-level");
const turnSelect = document.getElementById("create-turn");
const turnHint = document.getElementById("turn-hint");
const optionsBox = document.getElementById("game-options");
const createError = document.getElementById("create-error");
const lobbyError = document.getElementById("lobby-error");

/** Game options the lobby offers, per game: key -> {label, type ("number" | "select" |
 * "checkbox"), min?, choices? ([value, text]), hint?}. Shown only if the game has them. */
const OFFERED_OPTIONS = {
  battle_runes: {
    win_score: { label: "Winning score", type: "number", min: 1 },
    start_score: { label: "Starting score", type: "number", min: 1 },
  },
  stratego_junior: {
    variant: {
      label: "Quest or Victory", type: "select",
      choices: [["victory", "Victory: move and attack"], ["quest", "Quest: dice, castles never move"]],
    },
    memory_aid: { label: "Memory aid: castles you have seen stay shown", type: "checkbox" },
    move_cap: { label: "Turn limit (0 = none; a draw when reached)", type: "number", min: 0 },
  },
  scratch_wars: {
    level: {
      label: "Rules level", type: "select",
      choices: [[1, "Level 1: every segment attacks the hero"], [2, "Level 2: times of day and hero bonuses"],
        [3, "Level 3: the full duel, with energy"]],
    },
    effects: {
      label: "Effects at level 2", type: "select", showIf: { level: 2 },
      choices: [["distinguished", "Distinguished (2b): each icon does its own thing"],
        ["every_effect_attacks", "Every effect attacks the hero (2a)"]],
    },
    random_loadouts: { label: "Random heroes and weapons for both (no loadout choice)", type: "checkbox" },
  },
};

function opponent() {
  return form.elements.opponent.value;
}

function updateForm() {
  const game = games[gameSelect.value] || { bot_levels: [] };
  const vsComputer = opponent() === "computer";
  const levels = game.bot_levels || [];
  const computerRadio = form.querySelector('input[name="opponent"][value="computer"]');
  computerRadio.disabled = levels.length === 0;
  if (levels.length === 0 && vsComputer) form.querySelector('input[name="opponent"][value="person"]').checked = true;
  levelLabel.hidden = opponent() !== "computer";
  const current = levelSelect.value;
  const levelText = (lv, i) => (levels.length > 1 && i === 0 ? `${lv} (easiest)`
    : levels.length > 1 && i === levels.length - 1 ? `${lv} (strongest)` : lv);
  levelSelect.replaceChildren(...levels.map((lv, i) => el("option", { value: lv, text: levelText(lv, i) })));
  if (levels.includes(current)) levelSelect.value = current;
  else if (levels.length) levelSelect.value = levels[levels.length - 1];
  // untimed only against a person: the computer must be able to take over a seat
  const untimed = turnSelect.querySelector('option[value="0"]');
  untimed.disabled = untimed.hidden = opponent() === "computer";
  if (opponent() === "computer" && turnSelect.value === "0") turnSelect.value = "60";
  turnHint.textContent = turnSelect.value === "0"
    ? "No clock: take all the time you need."
    : "When your time runs out, the computer plays your move.";
}

async function loadGame(id) {
  if (!gameDetails[id]) {
    try {
      gameDetails[id] = await api("GET", `/api/games/${encodeURIComponent(id)}`);
    } catch (err) {
      gameDetails[id] = { options: {} };
    }
  }
  return gameDetails[id];
}

function renderGameOptions() {
  const id = gameSelect.value;
  const details = gameDetails[id];
  const offered = OFFERED_OPTIONS[id] || {};
  optionsBox.replaceChildren();
  if (!details) return;
  for (const [key, spec] of Object.entries(offered)) {
    if (!(key in (details.options || {}))) continue;
    const value = details.options[key];
    const dataset = { option: key, default: JSON.stringify(value) };
    if (spec.type === "select") {
      const select = el("select", { name: `opt_${key}`, id: `opt-${key}`, dataset },
        ...spec.choices.map(([v, text]) => el("option", { value: v, text, selected: v === value })));
      optionsBox.append(el("label", {}, spec.label, select));
    } else if (spec.type === "checkbox") {
      const box = el("input", { type: "checkbox", name: `opt_${key}`, id: `opt-${key}`, checked: !!value, dataset });
      optionsBox.append(el("label", { class: "inline" }, box, spec.label));
    } else {
      const input = el("input", { type: spec.type, name: `opt_${key}`, id: `opt-${key}`, value, min: spec.min, dataset });
      optionsBox.append(el("label", {}, spec.label, input));
    }
  }
  updateOptionVisibility();
}

/** Show an option only while the options in its spec's `showIf` ({key: value}) have those values. */
function updateOptionVisibility() {
  for (const [key, spec] of Object.entries(OFFERED_OPTIONS[gameSelect.value] || {})) {
    const input = document.getElementById(`opt-${key}`);
    if (!spec.showIf || !input) continue;
    const show = Object.entries(spec.showIf).every(([other, wanted]) => {
      const control = document.getElementById(`opt-${other}`);
      return !!control && optionValue(control) === wanted;
    });
    input.closest("label").hidden = !show;
    input.disabled = !show;
  }
}

/** The value an option control holds (typed as the game's default). */
function optionValue(input) {
  if (input.type === "checkbox") return input.checked;
  if (input.type === "number") return input.value === "" ? null : Number(input.value);
  if (input.tagName === "SELECT" && typeof JSON.parse(input.dataset.default || "null") === "number") return Number(input.value);
  return input.value;
}

form.addEventListener("change", (event) => {
  if (event.target !== gameSelect) updateForm();
  updateOptionVisibility();
});
gameSelect.addEventListener("change", async () => {
  await loadGame(gameSelect.value);
  updateForm();
  renderGameOptions();
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError(createError, "");
  const body = { game: gameSelect.value, options: { turn_seconds: Number(turnSelect.value) } };
  for (const input of optionsBox.querySelectorAll("[data-option]")) {
    const value = optionValue(input);
    if (input.disabled || value === null || JSON.stringify(value) === input.dataset.default) continue;
    body.options[input.dataset.option] = value;
  }
  if (opponent() === "computer") body.computer = [{ seat: 1, level: levelSelect.value || null }];
  const button = document.getElementById("create-submit");
  button.disabled = true;
  try {
    const match = await api("POST", "/api/matches", body);
    window.location.assign(`/matches/${match.id}`);
  } catch (err) {
    showError(createError, err.code === "too_many_matches"
      ? `${sentence(err.message)} Your waiting matches are under “Your matches”, each with a Cancel button.`
      : err.message);
    button.disabled = false;
  }
});

/** "you already have 5 …; cancel one first" -> "You already have 5 …; cancel one first." */
function sentence(text) {
  const t = String(text || "").trim();
  if (!t) return t;
  return t[0].toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".");
}

// ---------------------------------------------------------------- match lists

/** How an option value reads in a match list ("first to 40"); others: "key: value". */
const OPTION_TEXT = {
  win_score: (v) => `first to ${v}`,
  start_score: (v) => `start at ${v}`,
  max_turns: (v) => (v ? `at most ${v} turns` : "no turn limit"),
  move_cap: (v) => (v ? `at most ${v} moves` : "no move limit"),
  spectators: (v) => (v ? "spectators allowed" : "no spectators"),
  level: (v) => `level ${v}`,
  variant: (v) => ({ quest: "Quest (dice)", victory: "Victory (moves)" }[v] || `variant: ${v}`),
  memory_aid: (v) => (v ? "memory aid" : "no memory aid"),
  effects: (v) => (v === "every_effect_attacks" ? "every effect attacks (2a)" : "effects distinguished (2b)"),
  r2p5_bonus_kind: (v) => `R2+5 bonus: ${v}`,
  zero_blocks_swap_all: (v) => (v ? "Zero blocks Total Swap" : "Zero does not block Total Swap"),
};

function optionText(key, value) {
  if (OPTION_TEXT[key]) return OPTION_TEXT[key](value);
  const name = key.replace(/_/g, " ");
  if (value === true) return name;
  if (value === false) return `no ${name}`;
  return `${name}: ${String(value).replace(/_/g, " ")}`;
}

/** Options shown with every match of a game even when they have the default value. */
const ALWAYS_SHOWN = new Set(["variant"]);

/** The options of `match` that differ from its game's defaults, as short texts (turn time apart). */
function optionDifferences(match) {
  const defaults = (games[match.game] && games[match.game].options) || {};
  const first = Object.keys(OPTION_TEXT); // "first to 40" before "start at 10", ...
  const rank = (key) => (first.includes(key) ? first.indexOf(key) : first.length);
  return Object.entries(match.options || {})
    .filter(([key, value]) => key !== "turn_seconds" && key in defaults
      && (ALWAYS_SHOWN.has(key) || JSON.stringify(defaults[key]) !== JSON.stringify(value)))
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([key, value]) => optionText(key, value));
}

function seatLabel(seat) {
  if (seat.user) return seat.user.name;
  if (seat.bot) return `computer (${seat.bot})`;
  return "free seat";
}

function isMine(match) {
  return !!me && match.seats.some((s) => s.user && s.user.id === me.id);
}

function resultText(match) {
  const mine = match.seats.find((s) => s.user && me && s.user.id === me.id);
  if (!mine || !mine.result) return "";
  const results = match.seats.map((s) => s.result);
  if (mine.result === "win") return results.every((r) => r === "win") ? "both won" : "you won";
  if (mine.result === "loss") return results.every((r) => r === "loss") ? "both lost" : "you lost";
  return "draw";
}

function matchItem(match, kind) {
  const title = (games[match.game] && games[match.game].title) || match.game;
  const players = match.seats.map(seatLabel).join(" vs ");
  const differences = optionDifferences(match);
  const info = el("div", { class: "match-info" },
    el("strong", { text: `${title} #${match.id}` }),
    el("span", { class: "muted", text: ` · ${players} · ${formatTurn(match.options.turn_seconds)}` }),
    differences.length ? el("span", { class: "match-options", dataset: { testid: "match-options" } },
      ...differences.map((text) => el("span", { class: "option-tag", text }))) : null);
  const actions = el("div", { class: "match-actions" });
  if (kind === "open") {
    const join = el("button", { type: "button", class: "btn btn-small", text: "Join", dataset: { matchId: match.id } });
    join.addEventListener("click", () => joinMatch(match.id, join));
    actions.append(join);
  } else if (kind === "mine") {
    if (match.status === "waiting" && me && match.created_by === me.id) {
      const cancel = el("button", {
        type: "button", class: "btn btn-small btn-ghost btn-danger", text: "Cancel",
        dataset: { action: "cancel", matchId: match.id }, "aria-label": `Cancel ${title} #${match.id}`,
      });
      cancel.addEventListener("click", () => cancelMatch(match.id, cancel));
      actions.append(el("span", { class: "tag", text: "waiting for an opponent" }),
        el("a", { class: "btn btn-small btn-ghost", href: `/matches/${match.id}`, text: "Open" }), cancel);
    } else {
      actions.append(el("span", { class: "tag", text: "in play" }),
        el("a", { class: "btn btn-small", href: `/matches/${match.id}`, text: "Play" }));
    }
  } else {
    actions.append(el("span", { class: "tag", text: resultText(match) }),
      el("a", { class: "btn btn-small btn-ghost", href: `/matches/${match.id}/replay`, text: "Replay" }));
  }
  return el("li", { class: "match-item", dataset: { matchId: match.id, status: match.status } }, info, actions);
}

function fill(list, matches, kind, empty) {
  list.replaceChildren(...(matches.length ? matches.map((m) => matchItem(m, kind)) : [el("li", { class: "muted", text: empty })]));
}

async function joinMatch(id, button) {
  button.disabled = true;
  showError(lobbyError, "");
  try {
    await api("POST", `/api/matches/${id}/join`);
    window.location.assign(`/matches/${id}`);
  } catch (err) {
    showError(lobbyError, err.message);
    button.disabled = false;
    refresh();
  }
}

async function cancelMatch(id, button) {
  button.disabled = true;
  showError(lobbyError, "");
  try {
    await api("POST", `/api/matches/${id}/cancel`);
    const item = button.closest(".match-item");
    if (item) item.remove();
  } catch (err) {
    showError(lobbyError, err.message);
    button.disabled = false;
  }
  showError(createError, "");
  refresh();
}

async function refresh() {
  try {
    const [open, active, waiting, finished] = await Promise.all([
      api("GET", "/api/matches?status=waiting"),
      api("GET", "/api/matches?status=active&mine=true"),
      api("GET", "/api/matches?status=waiting&mine=true"),
      api("GET", "/api/matches?status=finished&mine=true&limit=10"),
    ]);
    const others = open.matches.filter((m) => !isMine(m));
    fill(document.getElementById("open-matches"), others, "open", "No open matches from other players. Create one!");
    fill(document.getElementById("my-matches"), [...active.matches, ...waiting.matches], "mine", "You are in no match right now.");
    fill(document.getElementById("my-finished"), finished.matches, "finished", "None yet.");
  } catch (err) {
    showError(lobbyError, err.message);
  }
}

document.getElementById("refresh-button").addEventListener("click", refresh);
setInterval(() => { if (!document.hidden) refresh(); }, 5000);

loadGame(gameSelect.value).then(() => {
  updateForm();
  renderGameOptions();
});
updateForm();
refresh();
