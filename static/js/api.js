// Small helpers shared by the pages: JSON calls to /api, and the data the server embeds in pages.
import { errorText, knows, say } from "/static/js/messages.js";

/**
 * An error answered by the API: `code` (stable, e.g. "name_taken"), `params` (the values the words
 * need), `message` (English, for developers), `status`. Show `err.text` (or errorText(err)): the
 * words from static/js/messages.js.
 */
export class ApiError extends Error {
  constructor(status, code, message, body, params = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params || {};
    this.body = body;
  }

  /** The words to show for this error (static/js/messages.js). */
  get text() {
    return errorText(this);
  }
}

/**
 * Call the JSON API. Resolves with the parsed body (null for 204), rejects with ApiError.
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 */
export async function api(method, path, body) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", "fetch failed");
  }
  if (res.status === 204) return null;
  let data = null;
  try {
    data = await res.json();
  } catch (err) {
    data = null;
  }
  if (!res.ok) {
    const e = (data && data.error) || {};
    const params = e.params || (e.code ? {} : { status: res.status });
    throw new ApiError(res.status, e.code || "http", e.message || `HTTP ${res.status}`, data, params);
  }
  return data;
}

/** Create an element: el("div", {class: "x", text: "hi"}, child, ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * An element whose text is one of two that replace each other while a player clicks near it
 * ("choosing…" / "has chosen ✓"): it keeps the size of the wider of the two, whichever shows, so
 * the change moves nothing below it (site.css, .steady-text). Its text content is only `text`.
 * @param {string} tag the element ("span", "p")
 * @param {object} attrs its attributes, as el's (a "class" is added to)
 * @param {string} text the text shown
 * @param {[string, string]} both the two texts it can show (`text` is one of them)
 */
export function steadyText(tag, attrs, text, both) {
  const { class: cls = "", dataset = {}, ...rest } = attrs || {};
  return el(tag, {
    ...rest, class: `${cls} steady-text`.trim(), dataset: { ...dataset, steadyA: both[0], steadyB: both[1] },
  }, el("span", { text }));
}

/**
 * Show a message in an error box (hidden when `message` is empty), scrolled into view when it is
 * not in sight: a refusal answers something the player just did, and a box at the top of a long
 * page (or of a tall form) is out of sight of the button they pressed.
 */
export function showError(box, message) {
  if (!box) return;
  box.textContent = message || "";
  box.hidden = !message;
  if (message && typeof box.scrollIntoView === "function") box.scrollIntoView({ block: "nearest" });
}

/** A computer level as players read it ("Hard", "level.<difficulty>" of messages.js; the
 * algorithm's name, a proper name, only where the level is not one of the three), from the page's
 * embedded levels (app/games/core/levels.py). */
export function levelName(level) {
  const difficulty = pageData("computer-levels")[level];
  return difficulty && knows(`level.${difficulty}`) ? say(`level.${difficulty}`) : level;
}

/** The tooltip of a computer level: what its algorithm does, with its name, "picks any allowed
 * move at random (algorithm: random)" (`level.algo.<name>`; the server's pages use the same words,
 * `level_title` of app/web/pages.py); a level with no description is named alone. */
export function levelTitle(level) {
  return knows(`level.algo.${level}`) ? say("level.algorithm", { name: level, description: say(`level.algo.${level}`) }) : level;
}

/** Data embedded in the page as <script type="application/json" id=...>. */
export function pageData(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : {};
}

const gameDataCache = {};

/**
 * What the server says about a game's pieces: {id, title, catalog, geometry?, labels} (see
 * app/web/games/__init__.py, game_data). The page's embedded <script id="game-data"> when it is
 * about this game, else /api/games/{game} (catalog and geometry; no labels). Rejects with ApiError
 * when neither is available.
 */
export async function loadGameData(game) {
  if (gameDataCache[game]) return gameDataCache[game];
  const embedded = pageData("game-data");
  let data;
  if (embedded && embedded.id === game) data = embedded;
  else data = { labels: {}, ...(await api("GET", `/api/games/${encodeURIComponent(game)}`)) };
  gameDataCache[game] = data;
  return data;
}

/** A turn time as the lobby shows it: "untimed" / "30 s per turn" / "2 min per turn" (a clock per turn, not the match's length). */
export function formatTurn(seconds) {
  if (!seconds) return say("lobby.clock.untimed");
  return say("lobby.clock.per_turn", { time: formatDuration(seconds) });
}

/** A number of seconds in the largest whole unit: "45 s", "2 min", "1 h", "3 days" ("90 s" stays in seconds). */
export function formatDuration(seconds) {
  if (seconds >= 86400 && seconds % 86400 === 0) return say("lobby.unit.day", { count: seconds / 86400 });
  if (seconds >= 3600 && seconds % 3600 === 0) return say("lobby.unit.h", { count: seconds / 3600 });
  if (seconds >= 60 && seconds % 60 === 0) return say("lobby.unit.min", { count: seconds / 60 });
  return say("lobby.unit.s", { count: seconds });
}

/** A match's clock from its options as the lobby shows it: "2 min per turn", "untimed", or a time
 * bank's "10 min + 5 s" (base per seat + increment per move; app/matches/time_control.py). */
export function formatTimeControl(options) {
  const o = options || {};
  if (o.clock === "bank") return `${formatDuration(o.bank_seconds)} + ${formatDuration(o.increment_seconds || 0)}`;
  return formatTurn(o.turn_seconds);
}

/** A player's rank as a small badge ("Knight", "Master", "Lord", "Leader": the words of
 * static/js/messages.js, "rank.<code>"), or null without one. */
export function rankBadge(rank) {
  if (!rank) return null;
  const word = say(`rank.${rank}`, {}, rank);
  return el("span", { class: "rank-badge", dataset: { rank }, title: say("table.rank_title", { rank: word }), text: word });
}

/** A player's name linking to their profile (/users/<name>), a bot account's with the "BOT" mark,
 * and their rank beside it (a badge outside the link): `user` is {id, name, is_bot?, rank?}. */
export function playerLink(user) {
  const mark = user.is_bot ? [el("span", { class: "bot-mark", title: say("table.bot_account"), text: "BOT" }), " "] : [];
  const link = el("a", { class: "player-link", href: `/users/${encodeURIComponent(user.name)}` }, ...mark, user.name);
  const badge = rankBadge(user.rank);
  return badge ? el("span", { class: "player" }, link, " ", badge) : link;
}
