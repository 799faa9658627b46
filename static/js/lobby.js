// The lobby: open matches to join, your matches, and the "create a match" form.
//
// The form offers what /api/games says about the chosen game: the number of players
// (min_players..max_players), the computer levels, and the game's own options as its web parts
// declare them (lobby_options, app/web/games/<game>.py). The creator picks their own seat and,
// for every other seat, a person or the computer at a level: "A person" and "The computer" set
// every other seat at once, "Choose for each seat" shows one choice per seat. "Rated" sends
// options.rated = true. A game with team layouts (team_modes, app/web/games/<game>.py) offers
// "Teams": free-for-all or a layout with one team per seat of the chosen number of players, sent as
// options.teams; every seat choice and the plan under them then name the seat's team, and a listed
// match groups its seats by team. Players' names link to their profiles.
//
// "Live now" lists the running matches open to spectators (/api/matches/live) with a Watch link.
// Cancelling your waiting match asks first, in the page ("Cancel this match?" Yes / No), and the
// question survives the lists' refresh. A visitor who is not logged in sees the lists read only:
// no form, no "Your matches", and "Sign up to join" instead of Join (templates/lobby.html).
import { api, el, formatTimeControl, levelName, levelTitle, pageData, playerLink, showError } from "/static/js/api.js";
import { errorText, say } from "/static/js/messages.js";

const data = pageData("lobby-data");
const me = data.user;
const games = Object.fromEntries((data.games || []).map((g) => [g.id, g]));
const gameDetails = {}; // id -> /api/games/{id} (options with defaults)

const form = document.getElementById("create-form");
const gameSelect = document.getElementById("create-game");
const playersLabel = document.getElementById("players-label");
const playersSelect = document.getElementById("create-players");
const levelLabel = document.getElementById("level-label");
const levelSelect = document.getElementById("create-level");
const seatSelect = document.getElementById("create-seat");
const seatChoices = document.getElementById("seat-choices");
const teamsLabel = document.getElementById("teams-label");
const teamsSelect = document.getElementById("create-teams");
const teamPlan = document.getElementById("team-plan");
const clockSelect = document.getElementById("create-clock");
const turnLabel = document.getElementById("turn-label");
const turnSelect = document.getElementById("create-turn");
const bankBox = document.getElementById("bank-choice");
const bankSelect = document.getElementById("create-bank");
const incrementSelect = document.getElementById("create-increment");
const turnHint = document.getElementById("turn-hint");
const optionsBox = document.getElementById("game-options");
const ratedBox = document.getElementById("create-rated");
const createError = document.getElementById("create-error");
const lobbyError = document.getElementById("lobby-error");

function opponent() {
  return form.elements.opponent.value;
}

function currentGame() {
  return games[gameSelect.value] || { bot_levels: [], min_players: 2, max_players: 2, lobby_options: {} };
}

function range(from, to) {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

/** Replace a select's options by `choices` ([value, text]), keeping its value when still offered. */
function fillSelect(select, choices, preferred) {
  const keep = select.value;
  select.replaceChildren(...choices.map(([value, text]) => el("option", { value, text })));
  const values = choices.map(([value]) => String(value));
  if (values.includes(keep)) select.value = keep;
  else if (preferred !== undefined && values.includes(String(preferred))) select.value = String(preferred);
}

function players() {
  return Number(playersSelect.value) || currentGame().min_players || 2;
}

function mySeat() {
  return Number(seatSelect.value) || 0;
}

/** The game's team layouts that have one team per seat of `players()`: [[id, {label, teams}]]. */
function fittingTeamModes() {
  const game = currentGame();
  const modes = game.team_modes || {};
  const order = game.team_mode_order || Object.keys(modes);
  return order.filter((id) => modes[id] && modes[id].teams.length === players()).map((id) => [id, modes[id]]);
}

/** The chosen team of every seat, or null for free-for-all. */
function chosenTeams() {
  const mode = teamsLabel.hidden ? null : (currentGame().team_modes || {})[teamsSelect.value];
  return mode && mode.teams.length === players() ? mode.teams : null;
}

/** "Seat 2", or "Seat 2 · team 1" in a team match. */
function seatText(seat) {
  const teams = chosenTeams();
  return teams ? say("lobby.seat_team", { n: seat + 1, team: teams[seat] + 1 }) : say("lobby.seat", { n: seat + 1 });
}

/** Who holds `seat` by the plan, in words ("you", "a person", "computer (Easy)"). */
function holderText(kind) {
  if (kind === "me") return say("lobby.holder.you");
  if (kind === "person") return say("lobby.holder.person");
  return say("lobby.holder.computer", { level: kind ? levelName(kind) : say("level.medium") });
}

/** Under the seat choices, in a team match, one line per team: "Team 1: seat 1 (you), seat 3 (a person)". */
function drawTeamPlan() {
  const teams = chosenTeams();
  teamPlan.hidden = !teams;
  if (!teams) {
    teamPlan.replaceChildren();
    return;
  }
  const plan = seatPlan();
  const count = Math.max(...teams) + 1;
  teamPlan.replaceChildren(...range(0, count - 1).map((t) => el("span", { class: "team-plan-team", dataset: { team: t } },
    say("lobby.team_plan", { team: t + 1, seats: range(0, teams.length - 1).filter((s) => teams[s] === t)
      .map((s) => say("lobby.team_plan.seat", { n: s + 1, holder: holderText(plan[s]) })).join(", ") }))));
}

/** What each seat holds: seat -> "me" | "person" | level name (a computer seat). */
function seatPlan() {
  const plan = {};
  for (let s = 0; s < players(); s += 1) {
    if (s === mySeat()) plan[s] = "me";
    else if (opponent() === "computer") plan[s] = levelSelect.value || "";
    else if (opponent() === "custom") {
      const choice = document.getElementById(`seat-kind-${s}`);
      plan[s] = choice ? choice.value : "person";
    } else plan[s] = "person";
  }
  return plan;
}

function hasComputer() {
  return Object.values(seatPlan()).some((v) => v !== "me" && v !== "person");
}

/** A computer level's <option>: its difficulty ("Hard") with the algorithm's name as a tooltip. */
function levelOption(level, prefix = "") {
  return el("option", { value: level, text: prefix ? say(prefix, { level: levelName(level) }) : levelName(level), title: levelTitle(level) });
}

/** The level a new match offers first: the middle one (Medium), not the strongest. */
function defaultLevel(levels) {
  return levels[Math.floor((levels.length - 1) / 2)];
}

/** One row per other seat: a person or the computer at a level (kept across redraws). */
function drawSeatChoices() {
  const levels = currentGame().bot_levels || [];
  const before = {};
  for (const node of seatChoices.querySelectorAll("select[data-seat]")) before[node.dataset.seat] = node.value;
  const rows = [];
  for (let s = 0; s < players(); s += 1) {
    if (s === mySeat()) continue;
    const select = el("select", { id: `seat-kind-${s}`, name: `seat_kind_${s}`, dataset: { seat: s } },
      el("option", { value: "person", text: say("lobby.opponent.person") }),
      ...levels.map((lv) => levelOption(lv, "lobby.seat_computer")));
    if (before[s] !== undefined && [...select.options].some((o) => o.value === before[s])) select.value = before[s];
    rows.push(el("label", { class: "seat-choice" }, el("span", { class: "seat-name", text: seatText(s) }), select));
  }
  seatChoices.replaceChildren(...rows);
}

function updateForm() {
  const game = currentGame();
  const levels = game.bot_levels || [];
  const min = game.min_players || 2;
  const max = game.max_players || min;
  fillSelect(playersSelect, range(min, max).map((n) => [n, say("lobby.players", { count: n })]), min);
  playersLabel.hidden = min === max;
  const modes = fittingTeamModes();
  fillSelect(teamsSelect, [["", say("lobby.free_for_all")], ...modes.map(([id, mode]) => [id, mode.label])], "");
  teamsLabel.hidden = modes.length === 0;
  fillSelect(seatSelect, range(0, players() - 1).map((s) => [s, seatText(s)]), 0);
  const two = players() === 2;
  document.getElementById("opponent-legend").textContent = say(two ? "lobby.opponent" : "lobby.opponents");
  document.getElementById("opponent-person-text").textContent = say(two ? "lobby.opponent.person" : "lobby.opponent.people");
  document.getElementById("opponent-computer-text").textContent = say(two ? "lobby.opponent.computer" : "lobby.opponent.computer_all");
  const computerRadio = form.querySelector('input[name="opponent"][value="computer"]');
  const customRadio = form.querySelector('input[name="opponent"][value="custom"]');
  computerRadio.disabled = customRadio.disabled = levels.length === 0;
  if (levels.length === 0 && opponent() !== "person") form.querySelector('input[name="opponent"][value="person"]').checked = true;
  levelLabel.hidden = opponent() !== "computer";
  const keep = levelSelect.value;
  levelSelect.replaceChildren(...levels.map((lv) => levelOption(lv)));
  levelSelect.value = levels.includes(keep) ? keep : defaultLevel(levels);
  seatChoices.hidden = opponent() !== "custom";
  drawSeatChoices();
  drawTeamPlan();
  // the clock: per turn, or a time bank (base + increment); untimed only against people: the
  // computer must be able to take over a seat
  const bank = clockSelect.value === "bank";
  turnLabel.hidden = bank;
  bankBox.hidden = !bank;
  const computer = hasComputer();
  const untimed = turnSelect.querySelector('option[value="0"]');
  untimed.disabled = untimed.hidden = computer;
  if (computer && turnSelect.value === "0") turnSelect.value = "60";
  if (bank) {
    turnHint.textContent = say("lobby.hint.bank", { clock: formatTimeControl(clockOptions()) });
  } else {
    // (against the computer "Untimed" is not offered: say why, where the choice was)
    const hint = turnSelect.value === "0" ? "lobby.hint.untimed" : computer ? "lobby.hint.turn_computer" : "lobby.hint.turn";
    turnHint.textContent = say(hint);
  }
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

/** The game's own options the lobby offers (declared by its web parts, shown if the game has them). */
function offeredOptions(id) {
  const game = games[id] || {};
  const specs = game.lobby_options || {};
  const order = game.lobby_option_order || Object.keys(specs);
  return Object.fromEntries(order.filter((key) => specs[key]).map((key) => [key, specs[key]]));
}

function renderGameOptions() {
  const id = gameSelect.value;
  const details = gameDetails[id];
  optionsBox.replaceChildren();
  if (!details) return;
  for (const [key, spec] of Object.entries(offeredOptions(id))) {
    if (!(key in (details.options || {}))) continue;
    const value = details.options[key];
    const dataset = { option: key, default: JSON.stringify(value), label: spec.label };
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

/** Show an option only while the options in its spec's `show_if` ({key: value}) have those values. */
function updateOptionVisibility() {
  for (const [key, spec] of Object.entries(offeredOptions(gameSelect.value))) {
    const input = document.getElementById(`opt-${key}`);
    if (!spec.show_if || !input) continue;
    const show = Object.entries(spec.show_if).every(([other, wanted]) => {
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

form?.addEventListener("change", (event) => {
  if (event.target !== gameSelect) updateForm();
  updateOptionVisibility();
});
gameSelect?.addEventListener("change", async () => {
  await loadGame(gameSelect.value);
  updateForm();
  renderGameOptions();
});

/** The clock's options the form describes: {turn_seconds} or {clock: "bank", bank_seconds, increment_seconds}. */
function clockOptions() {
  if (clockSelect.value !== "bank") return { turn_seconds: Number(turnSelect.value) };
  return { clock: "bank", bank_seconds: Number(bankSelect.value), increment_seconds: Number(incrementSelect.value) };
}

/** The POST /api/matches body the form describes. */
function createBody() {
  const body = { game: gameSelect.value, players: players(), seat: mySeat(), options: clockOptions() };
  for (const input of optionsBox.querySelectorAll("[data-option]")) {
    const value = optionValue(input);
    if (input.disabled || value === null || JSON.stringify(value) === input.dataset.default) continue;
    body.options[input.dataset.option] = value;
  }
  if (ratedBox && ratedBox.checked) body.options.rated = true;
  const teams = chosenTeams();
  if (teams) body.options.teams = teams;
  const computer = Object.entries(seatPlan())
    .filter(([, v]) => v !== "me" && v !== "person")
    .map(([seat, level]) => ({ seat: Number(seat), level: level || null }));
  if (computer.length) body.computer = computer;
  return body;
}

form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError(createError, "");
  for (const field of optionsBox.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid");
  // a number box holding what is not a number ("1e", "--") gives "" as its value, which would
  // quietly mean the game's default: say so instead, as the server says a wrong kind of value
  const unreadable = [...optionsBox.querySelectorAll("input[type=number][data-option]")]
    .find((input) => !input.disabled && input.validity.badInput);
  if (unreadable) {
    showCreateError({ code: "bad_options", params: { reason: "option_type", option: unreadable.dataset.option } });
    return;
  }
  const button = document.getElementById("create-submit");
  button.disabled = true;
  try {
    const match = await api("POST", "/api/matches", createBody());
    window.location.assign(`/matches/${match.id}`);
  } catch (err) {
    showCreateError(err);
    button.disabled = false;
  }
});

/** A refused create, where the player looks: the words (an option's own label before them, and
 * that field marked, when the refusal names one of the form's options), scrolled into view. */
function showCreateError(err) {
  let text = err.code === "too_many_matches" ? `${errorText(err)} ${say("lobby.too_many.hint")}` : errorText(err);
  const option = err.params && err.params.option;
  const field = typeof option === "string"
    ? [...optionsBox.querySelectorAll("[data-option]")].find((input) => input.dataset.option === option)
    : undefined;
  if (field) {
    if (field.dataset.label) text = `${field.dataset.label}: ${text}`;
    field.setAttribute("aria-invalid", "true");
    field.focus({ preventScroll: true });
  }
  showError(createError, text);
  createError.scrollIntoView({ block: "center" });
}

// ---------------------------------------------------------------- match lists

/** How the service's own options read in a match list; a game's own options read as its web parts
 * declare them (option_tags, app/web/games/<game>.py). */
const SERVICE_TAGS = { spectators: { values: { true: say("lobby.tag.spectators"), false: say("lobby.tag.no_spectators") } } };
/** The clock's options: a listed match shows them as one text (formatTimeControl), not as tags. */
const CLOCK_OPTIONS = new Set(["clock", "turn_seconds", "bank_seconds", "increment_seconds"]);

/** The text of option `key` = `value` by its tag spec ("first to {value}" or {values, else}: the
 * server sends them in the page's language, app/web/games/__init__.py's ``translated_options``); an
 * option without a spec reads "key: value" (a code: the game's web parts name every option they offer). */
function optionText(key, value, spec) {
  const fill = (template) => template.replace(/\{value\}/g, String(value));
  if (typeof spec === "string") return fill(spec);
  if (spec && spec.values && spec.values[String(value)] !== undefined) return spec.values[String(value)];
  if (spec && spec.else) return fill(spec.else);
  const name = key.replace(/_/g, " ");
  if (value === true) return name;
  if (value === false) return say("lobby.tag.no", { name });
  return `${name}: ${String(value).replace(/_/g, " ")}`;
}

/** The options of `match` that differ from its game's defaults (or are always shown), as short
 * texts in the order the game declares them (turn time and rated apart). */
function optionDifferences(match) {
  const game = games[match.game] || {};
  const defaults = game.options || {};
  const tags = { ...(game.option_tags || {}), ...SERVICE_TAGS };
  const first = [...(game.option_tag_order || []), ...Object.keys(SERVICE_TAGS)]; // "first to 40" before "start at 10"
  const rank = (key) => (first.includes(key) ? first.indexOf(key) : first.length);
  const always = (key) => !!(tags[key] && tags[key].always);
  return Object.entries(match.options || {})
    .filter(([key, value]) => !CLOCK_OPTIONS.has(key) && key !== "rated" && key in defaults
      && (always(key) || JSON.stringify(defaults[key]) !== JSON.stringify(value)))
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([key, value]) => optionText(key, value, tags[key]));
}

function seatLabel(seat) {
  if (seat.user) return seat.user.is_bot ? `BOT ${seat.user.name}` : seat.user.name;
  if (seat.bot) return say("lobby.holder.computer", { level: levelName(seat.bot) });
  return say("lobby.free_seat");
}

/** A seat as a node: its player's name linking to the profile, or the computer or a free seat. */
function seatNode(seat) {
  return seat.user ? playerLink(seat.user) : seatLabel(seat);
}

/** `items` with `separator` between them (nodes and strings, for el's children). */
function joined(items, separator) {
  return items.flatMap((item, i) => (i ? [separator, item] : [item]));
}

/** Who plays `match`, as nodes: "ann vs free seat", or by team "team 1: ann, free seat vs team 2: ...". */
function playersNodes(match) {
  const teams = (match.options && match.options.teams) || [];
  const versus = ` ${say("lobby.versus")} `;
  if (!teams.length || new Set(teams).size === teams.length) return joined(match.seats.map(seatNode), versus);
  const order = [...new Set(teams)];
  return joined(order.map((t, i) => [`${say("lobby.team", { team: i + 1 })}: `,
    ...joined(match.seats.filter((s) => teams[s.seat] === t).map(seatNode), ", ")]), versus).flat();
}

function isMine(match) {
  return !!me && match.seats.some((s) => s.user && s.user.id === me.id);
}

function resultText(match) {
  const mine = match.seats.find((s) => s.user && me && s.user.id === me.id);
  if (!mine || !mine.result) return "";
  const results = match.seats.map((s) => s.result);
  if (mine.result === "win") return say(results.every((r) => r === "win") ? "lobby.result.all_won" : "lobby.result.won");
  if (mine.result === "loss") return say(results.every((r) => r === "loss") ? "lobby.result.all_lost" : "lobby.result.lost");
  return say("lobby.result.draw");
}

/** Is `match` rated (its origin, or the create option)? */
function isRated(match) {
  return match.origin === "rated" || !!(match.options && match.options.rated);
}

function matchItem(match, kind) {
  const title = (games[match.game] && games[match.game].title) || match.game;
  const players = playersNodes(match);
  const differences = optionDifferences(match);
  const info = el("div", { class: "match-info" },
    el("strong", { text: `${title} #${match.id}` }),
    isRated(match) ? el("span", { class: "tag tag-rated", text: say("lobby.rated"), dataset: { testid: "rated" } }) : null,
    el("span", { class: "muted" }, " · ", ...players, " · ",
      el("span", { class: "match-clock", text: formatTimeControl(match.options), dataset: { testid: "match-clock" } })),
    differences.length ? el("span", { class: "match-options", dataset: { testid: "match-options" } },
      ...differences.map((text) => el("span", { class: "option-tag", text }))) : null);
  const actions = el("div", { class: "match-actions" });
  if (kind === "open" && !me) {
    actions.append(el("a", { class: "btn btn-small", href: `/signup?next=${encodeURIComponent("/lobby")}`,
      text: say("lobby.sign_up_to_join"), dataset: { action: "signup" } }));
  } else if (kind === "open") {
    const join = el("button", { type: "button", class: "btn btn-small", text: say("lobby.join"), dataset: { matchId: match.id } });
    join.addEventListener("click", () => joinMatch(match.id, join));
    actions.append(join);
  } else if (kind === "live") {
    actions.append(el("span", { class: "tag", dataset: { testid: "live-spectators", count: match.spectators },
      text: say("spectators.count", { count: match.spectators }) }),
    el("a", { class: "btn btn-small", href: `/matches/${match.id}`, text: say("lobby.live.watch"), dataset: { action: "watch" } }));
  } else if (kind === "mine") {
    if (match.status === "waiting" && me && match.created_by === me.id) {
      actions.append(el("span", { class: "tag", text: say("lobby.mine.waiting") }),
        el("a", { class: "btn btn-small btn-ghost", href: `/matches/${match.id}`, text: say("lobby.open") }),
        confirming.has(match.id) ? cancelQuestion(match, title) : cancelButtonFor(match, title));
    } else {
      actions.append(el("span", { class: "tag", text: say("lobby.mine.in_play") }),
        el("a", { class: "btn btn-small", href: `/matches/${match.id}`, text: say("lobby.play") }));
    }
  } else {
    actions.append(el("span", { class: "tag", text: resultText(match) }),
      el("a", { class: "btn btn-small btn-ghost", href: `/matches/${match.id}/replay`, text: say("lobby.replay") }));
  }
  return el("li", { class: "match-item", dataset: { matchId: match.id, status: match.status } }, info, actions);
}

/** Your waiting matches whose Cancel asks "Cancel this match?" now (kept across refreshes). */
const confirming = new Set();

/** The Cancel button of your waiting `match`: it asks first (cancelQuestion). */
function cancelButtonFor(match, title) {
  const cancel = el("button", {
    type: "button", class: "btn btn-small btn-ghost btn-danger", text: say("lobby.cancel"),
    dataset: { action: "cancel", matchId: match.id }, "aria-label": say("lobby.cancel.label", { title, id: match.id }),
  });
  cancel.addEventListener("click", () => {
    confirming.add(match.id);
    cancel.replaceWith(cancelQuestion(match, title));
  });
  return cancel;
}

/** "Cancel this match? [Yes, cancel it] [No, keep it]", in place of the Cancel button of `match`
 * (No puts the button back at once: keeping a match changes nothing, so it waits for no request). */
function cancelQuestion(match, title) {
  const id = match.id;
  const box = el("span", { class: "confirm-inline", role: "group", dataset: { testid: "confirm-cancel" } },
    el("span", { text: say("lobby.confirm_cancel") }));
  const yes = el("button", { type: "button", class: "btn btn-small btn-danger", text: say("lobby.confirm_cancel.yes"),
    dataset: { action: "confirm-cancel", matchId: id } });
  const no = el("button", { type: "button", class: "btn btn-small btn-ghost", text: say("lobby.confirm_cancel.no"),
    dataset: { action: "keep", matchId: id } });
  yes.addEventListener("click", () => {
    confirming.delete(id);
    cancelMatch(id, yes);
  });
  no.addEventListener("click", () => {
    confirming.delete(id);
    box.replaceWith(cancelButtonFor(match, title));
  });
  box.append(yes, no);
  return box;
}

function fill(list, matches, kind, empty) {
  list.replaceChildren(...(matches.length ? matches.map((m) => matchItem(m, kind)) : [el("li", { class: "muted", text: empty })]));
}

async function joinMatch(id, button) {
  button.disabled = true;
  showError(lobbyError, "");
  try {
    try {
      await api("POST", `/api/matches/${id}/join`);
    } catch (err) {
      // a rated match against a bot account: join only if the player agrees (docs/bots.md)
      if (err.code !== "rated_needs_consent" || !window.confirm(errorText(err))) throw err;
      await api("POST", `/api/matches/${id}/join`, { accept_rated: true });
    }
    window.location.assign(`/matches/${id}`);
  } catch (err) {
    showError(lobbyError, errorText(err));
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
    showError(lobbyError, errorText(err));
    button.disabled = false;
  }
  showError(createError, "");
  refresh();
}

/** A running match of the "Live now" list (/api/matches/live) in the shape matchItem reads. */
function liveMatch(m) {
  return { ...m, status: "active", options: { turn_seconds: m.turn_seconds, ...(m.options || {}) } }; // the clock only
}

async function refresh() {
  try {
    const none = Promise.resolve({ matches: [] });
    const [open, live, active, waiting, finished] = await Promise.all([
      api("GET", "/api/matches?status=waiting"),
      api("GET", "/api/matches/live"),
      me ? api("GET", "/api/matches?status=active&mine=true") : none,
      me ? api("GET", "/api/matches?status=waiting&mine=true") : none,
      me ? api("GET", "/api/matches?status=finished&mine=true&limit=10") : none,
    ]);
    const others = open.matches.filter((m) => !isMine(m));
    // a visitor cannot create a match: no "Create one!" for them
    fill(document.getElementById("open-matches"), others, "open", say(me ? "lobby.open.empty" : "lobby.open.empty_visitor"));
    fill(document.getElementById("live-matches"), live.matches.map(liveMatch), "live", say("lobby.live.empty"));
    if (!me) return;
    fill(document.getElementById("my-matches"), [...active.matches, ...waiting.matches], "mine", say("lobby.mine.empty"));
    fill(document.getElementById("my-finished"), finished.matches, "finished", say("lobby.finished.empty"));
  } catch (err) {
    showError(lobbyError, errorText(err));
  }
}

document.getElementById("refresh-button").addEventListener("click", refresh);
setInterval(() => { if (!document.hidden) refresh(); }, 5000);

if (form) {
  loadGame(gameSelect.value).then(() => {
    updateForm();
    renderGameOptions();
  });
  updateForm();
}
refresh();
