// Stratego Junior (Quest and Victory): the match page module, and the castle pictures, the board
// and the placement editor that the "My setups" page (static/js/stratego_setups.js) and the rules
// page share. See rules/stratego_junior.md and app/games/stratego_junior/ (observe.py, actions.py) for the JSON.
//
// Module contract (static/js/match_client.js): setup(client), render(root, snapshot, client),
// describeEvent(event, entry, client), describeInput(entry, client).
//
// Words: every line is a key "sj.*" of WORDS (static/js/messages.js), shown with say(). A castle's
// ORIGINAL name (Hungarian, the seed rulebook's: the server's game-data `labels`) is shown where a
// castle is introduced (the tray, tooltips, the die), with the page language's rulebook word beside
// it (sj.piece.*: "Király (King)"); running sentences (status, battle, log) use the page's word.
//
// The board is always drawn with the viewer's own side at the bottom: red (seat 0) sees it as the
// engine numbers it (row 0, blue's back row, at the top), blue sees it turned round, and
// spectators see red at the bottom. A saved setup ({towers, rows}) is in its owner's orientation:
// rows front row first, each from the owner's left to right, which is exactly how the owner's half
// looks on the screen, so the placement editor does not need to know the colour.

import { api, el, loadGameData, steadyText } from "/static/js/api.js";
import { deckErrorText, errorText, knows, pageLocale, say } from "/static/js/messages.js";
import { dropDraft, readDraft, saveDraft } from "/static/js/drafts.js";
import { abortedNotice, cancelButton, formatDuration, joinButton } from "/static/js/match_client.js";

export const GAME = "stratego_junior";
const SVG_NS = "http://www.w3.org/2000/svg";
const COLOURS = ["red", "blue"];

/** "Red" / "Blue" in the page's language. */
function colourName(seat) {
  return say(`sj.colour.${COLOURS[seat] || "red"}`);
}

/** What each castle does besides its strength (the tray and the tooltips): the key sj.note.<id>
 * when WORDS has one. The strengths, counts and which castles are big come from the server's catalog. */
function note(id) {
  return knows(`sj.note.${id}`) ? say(`sj.note.${id}`) : "";
}

/** `items` joined as a list in the page's language: "A, B and C" (`type` "disjunction": "A, B or C"). */
function listText(items, type = "conjunction") {
  try {
    return new Intl.ListFormat(pageLocale(), { type }).format(items);
  } catch (err) {
    return items.join(", ");
  }
}

/** The words of `key` as nodes, the parameter `slot` replaced by `node` (a <strong> in a sentence). */
function sayWith(key, params, slot, node) {
  const marker = "\u0001";
  const [before, after = ""] = say(key, { ...params, [slot]: marker }).split(marker);
  return [before, node, after].filter((x) => x !== "");
}

/** The castles ({id, strength, count, big, movable, beats}) and the board of the server's rules
 * (app/games/stratego_junior: catalog() and geometry(), served in the page's game-data or by
 * /api/games/stratego_junior), and the castle names derived there. Filled by loadCatalog(). */
let pieces = [];
let pieceNames = {};
let boardGeometry = null;

/** Why a game ended, in words (sj.reason.*; another reason as the server sent it). */
function reasonText(reason) {
  return say(`sj.reason.${reason}`, {}, reason || "");
}

// ================================================================== data

/** Load the castles and the board once (from the page's game-data, or /api/games/stratego_junior). */
export async function loadCatalog() {
  if (boardGeometry) return pieces;
  const game = await loadGameData(GAME);
  pieces = (game.catalog && game.catalog.pieces) || [];
  pieceNames = game.labels || {};
  boardGeometry = game.geometry || null;
  return pieces;
}

/** The board of the server's rules ({rows, columns, middle_rows, formation_rows, back_rows, towers}). */
export function geometry() {
  return boardGeometry;
}

/** The stylesheet, for pages that did not link it (the match and replay pages do). */
function ensureCss() {
  if (typeof document === "undefined" || document.querySelector('link[href="/static/css/stratego.css"]')) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/css/stratego.css" }));
}

export async function setup() {
  ensureCss();
  await loadCatalog();
}

function info(id) {
  return pieces.find((p) => p.id === id) || { id, strength: null, big: false };
}

/** The castle's ORIGINAL name (the Hungarian rulebook's, from the server's labels). */
export function originalName(id) {
  return pieceNames[id] || String(id || "castle").replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

/** The castle's name in the page's language (the rulebooks' words), for sentences. */
export function pieceName(id) {
  return say(`sj.piece.${id}`, {}, originalName(id));
}

/** The original name with the page's word beside it: "Király (King)"; just "Király" in Hungarian. */
export function fullName(id) {
  const original = originalName(id);
  const here = pieceName(id);
  return here.toLowerCase() === original.toLowerCase() ? original : `${original} (${here})`;
}

function strength(id) {
  const s = info(id).strength;
  return s === null || s === undefined ? null : s;
}

/** "Strength 4. Beats ..." : one friendly line about a castle (its strength from the catalog). */
export function helpText(id) {
  const s = strength(id);
  return [s === null ? "" : say("sj.help.strength", { strength: s }), note(id)].filter(Boolean).join(" ");
}

/** "Knight (4)" / "Dragon". */
function label(id) {
  const s = strength(id);
  return s === null ? pieceName(id) : `${pieceName(id)} (${s})`;
}


/** Small castles of one side as a multiset {id: count}, and the big ones as a list. */
export function sidePieces() {
  const small = {};
  const big = [];
  for (const p of pieces) {
    if (p.big) big.push(p.id);
    else if (p.count) small[p.id] = p.count;
  }
  return { small, big };
}

/** The big castles' names as a list: "Flag, Black Knight and Jester" (or "... or Jester"). */
function bigNamesText(type = "conjunction") {
  return listText(sidePieces().big.map(pieceName), type);
}

/** "Put your big castles (Flag, Black Knight and Jester) in your towers, and the 16 small castles
 * on your squares. Red starts.", counted from the catalog. */
function placeHint() {
  const { small } = sidePieces();
  const count = Object.values(small).reduce((n, c) => n + c, 0);
  return say("sj.setup.place_hint", { big: bigNamesText(), count });
}

/** How many castles one side places (small and big). */
export function castleCount() {
  return pieces.reduce((n, p) => n + (p.big ? 1 : p.count || 0), 0);
}

// ================================================================== pictures

const FACE = (cy = 36, r = 13) => `
  <circle cx="32" cy="${cy}" r="${r}" fill="#f8d3b0" stroke="#c98d63" stroke-width="1.2"/>
  <circle cx="27" cy="${cy - 1}" r="1.8" fill="#2b2b2b"/><circle cx="37" cy="${cy - 1}" r="1.8" fill="#2b2b2b"/>
  <circle cx="24" cy="${cy + 4}" r="2.2" fill="#f4a3a3" opacity=".7"/><circle cx="40" cy="${cy + 4}" r="2.2" fill="#f4a3a3" opacity=".7"/>`;
const SMILE = (y = 41) => `<path d="M27 ${y} q5 4 10 0" stroke="#7a3b2e" stroke-width="1.8" fill="none" stroke-linecap="round"/>`;

const ICONS = {
  king: `${FACE(37, 13)}
    <path d="M21 44 q11 16 22 0 q-3 9 -11 9 q-8 0 -11 -9z" fill="#8b5a2b"/>${SMILE(43)}
    <path d="M18 27 L19 11 L25.5 19 L32 8 L38.5 19 L45 11 L46 27 Z" fill="#f7c948" stroke="#b7791f" stroke-width="1.6" stroke-linejoin="round"/>
    <circle cx="32" cy="21" r="2.4" fill="#e53e3e"/><circle cx="23.5" cy="23" r="1.7" fill="#3182ce"/><circle cx="40.5" cy="23" r="1.7" fill="#38a169"/>`,
  princess: `<path d="M17 38 q-1 -22 15 -22 q16 0 15 22 l3 20 h-9 l-3 -12 h-12 l-3 12 h-9z" fill="#f6c453" stroke="#c99a2e" stroke-width="1.2"/>
    ${FACE(36, 12)}<path d="M28 41 q4 3 8 0" stroke="#d53f8c" stroke-width="2" fill="none" stroke-linecap="round"/>
    <path d="M24 25 l2 -8 l6 5 l6 -5 l2 8z" fill="#f7c948" stroke="#b7791f" stroke-width="1.2" stroke-linejoin="round"/>
    <circle cx="32" cy="21" r="2" fill="#ed64a6"/>`,
  knight: `<path d="M32 13 q9 -10 19 -4 q-9 1 -14 9z" fill="#e53e3e"/>
    <path d="M16 54 V32 a16 16 0 0 1 32 0 V54 z" fill="#cbd5e0" stroke="#4a5568" stroke-width="2"/>
    <rect x="19" y="33" width="26" height="5" rx="2.5" fill="#2d3748"/><rect x="30.5" y="30" width="3" height="20" rx="1.5" fill="#718096"/>
    <circle cx="22" cy="46" r="1.4" fill="#4a5568"/><circle cx="42" cy="46" r="1.4" fill="#4a5568"/>`,
  unicorn: `<path d="M45 58 L45 42 Q48 27 40 19 L43 10 L36 16 Q29 15 23 21 L12 33 Q9 38 14 41 L21 41 Q26 39 30 39 L27 58 Z" fill="#ffffff" stroke="#805ad5" stroke-width="2" stroke-linejoin="round"/>
    <path d="M40 19 q9 4 7 12 q6 5 2 12 q5 5 1 15 L45 58 L45 42 Q48 27 40 19z" fill="#d6bcfa" stroke="#805ad5" stroke-width="1.5"/>
    <path d="M31 17 L36 1 L37 18 Z" fill="#f6e05e" stroke="#b7791f" stroke-width="1.2" stroke-linejoin="round"/>
    <circle cx="28" cy="25" r="2" fill="#2b2b2b"/><circle cx="15.5" cy="36" r="1.3" fill="#805ad5"/>`,
  dwarf: `<path d="M18 29 L32 3 L46 29 Z" fill="#e53e3e" stroke="#9b2c2c" stroke-width="1.5" stroke-linejoin="round"/>
    <circle cx="32" cy="4" r="3" fill="#fff"/>
    ${FACE(35, 11)}
    <path d="M20 35 q-1 25 12 25 q13 0 12 -25 q-4 7 -12 7 q-8 0 -12 -7z" fill="#edf2f7" stroke="#a0aec0" stroke-width="1.3"/>
    <circle cx="32" cy="38" r="3.4" fill="#f5a97f"/>`,
  wizard: `<path d="M12 27 h40 l-5 -4 L36 3 L21 23z" fill="#4c51bf" stroke="#2a2f7c" stroke-width="1.5" stroke-linejoin="round"/>
    <path d="M31 11 l1.3 2.7 3 .4 -2.2 2 .6 3 -2.7 -1.5 -2.7 1.5 .6 -3 -2.2 -2 3 -.4z" fill="#f6e05e"/>
    <circle cx="40" cy="19" r="1.3" fill="#f6e05e"/>
    ${FACE(35, 11)}
    <path d="M21 37 q2 26 11 26 q9 0 11 -26 q-4 6 -11 6 q-7 0 -11 -6z" fill="#f7fafc" stroke="#a0aec0" stroke-width="1.3"/>`,
  dragon: `<path d="M19 22 L14 7 L26 17 Z M45 22 L50 7 L38 17 Z" fill="#f6e05e" stroke="#b7791f" stroke-width="1.2" stroke-linejoin="round"/>
    <ellipse cx="32" cy="35" rx="19" ry="17" fill="#48bb78" stroke="#276749" stroke-width="2"/>
    <path d="M23 15 l3 6 l3 -6 l3 6 l3 -6 l3 6 l3 -6" fill="none" stroke="#276749" stroke-width="1.5"/>
    <ellipse cx="24" cy="31" rx="4.5" ry="5" fill="#fff"/><ellipse cx="40" cy="31" rx="4.5" ry="5" fill="#fff"/>
    <ellipse cx="25" cy="32" rx="1.6" ry="3.4" fill="#1a202c"/><ellipse cx="39" cy="32" rx="1.6" ry="3.4" fill="#1a202c"/>
    <ellipse cx="32" cy="44" rx="11" ry="6" fill="#9ae6b4" stroke="#276749" stroke-width="1.2"/>
    <circle cx="28" cy="42" r="1.3" fill="#276749"/><circle cx="36" cy="42" r="1.3" fill="#276749"/>
    <path d="M25 48 l2 3 l2 -3 M35 48 l2 3 l2 -3" fill="#fff" stroke="#276749" stroke-width=".8"/>`,
  flag: `<rect x="14" y="8" width="4.5" height="52" rx="2" fill="#8b5a2b"/><circle cx="16.2" cy="7" r="4" fill="#f7c948" stroke="#b7791f"/>
    <path d="M18.5 11 q10 -5 19 2 q9 6 19 0 v22 q-10 6 -19 0 q-9 -7 -19 -2z" fill="#f7c948" stroke="#b7791f" stroke-width="1.5"/>
    <path d="M36 16 l2.2 4.6 5 .7 -3.6 3.5 .9 5 -4.5 -2.4 -4.5 2.4 .9 -5 -3.6 -3.5 5 -.7z" fill="#e53e3e"/>`,
  black_knight: `<path d="M32 13 q-9 -10 -19 -4 q9 1 14 9z" fill="#1a202c"/>
    <path d="M16 54 V32 a16 16 0 0 1 32 0 V54 z" fill="#2d3748" stroke="#000" stroke-width="2"/>
    <rect x="19" y="33" width="26" height="5" rx="2.5" fill="#000"/>
    <circle cx="26" cy="35.5" r="1.8" fill="#fc8181"/><circle cx="38" cy="35.5" r="1.8" fill="#fc8181"/>
    <path d="M22 44 h20 M24 49 h16" stroke="#4a5568" stroke-width="2" stroke-linecap="round"/>`,
  jester: `<path d="M18 30 Q12 12 4 16 Q14 18 21 27 Z" fill="#e53e3e" stroke="#9b2c2c" stroke-width="1.2"/>
    <path d="M46 30 Q52 12 60 16 Q50 18 43 27 Z" fill="#805ad5" stroke="#553c9a" stroke-width="1.2"/>
    <path d="M21 28 Q32 -2 43 28 Z" fill="#38a169" stroke="#276749" stroke-width="1.2"/>
    <circle cx="4.5" cy="16" r="3" fill="#f6e05e"/><circle cx="59.5" cy="16" r="3" fill="#f6e05e"/><circle cx="32" cy="6" r="3" fill="#f6e05e"/>
    ${FACE(39, 12)}<path d="M25 43 q7 8 14 0" stroke="#7a3b2e" stroke-width="1.8" fill="#fff" stroke-linecap="round"/>
    <circle cx="32" cy="40" r="2.6" fill="#e53e3e"/>`,
};
/** The back of a castle: a shield with a little tower (the opponent's, hidden). */
const CREST = `<path d="M32 6 L54 14 V30 Q54 50 32 60 Q10 50 10 30 V14 Z" fill="currentColor" opacity=".28"/>
  <path d="M32 6 L54 14 V30 Q54 50 32 60 Q10 50 10 30 V14 Z" fill="none" stroke="currentColor" stroke-width="3"/>
  <path d="M22 44 V26 h4 v4 h4 v-4 h4 v4 h4 v-4 h4 V44 Z" fill="currentColor"/>`;

function svg(markup, cls) {
  const node = document.createElementNS(SVG_NS, "svg");
  node.setAttribute("viewBox", "0 0 64 64");
  node.setAttribute("class", cls);
  node.setAttribute("aria-hidden", "true");
  node.innerHTML = markup; // constant markup from this file only
  return node;
}

/** Small inline pictures for buttons and notes (emoji are missing on some systems). */
const GLYPHS = {
  die: `<rect x="3" y="3" width="18" height="18" rx="4" fill="none" stroke="currentColor" stroke-width="2"/>
    <circle cx="8" cy="8" r="1.7" fill="currentColor"/><circle cx="16" cy="16" r="1.7" fill="currentColor"/><circle cx="12" cy="12" r="1.7" fill="currentColor"/>
    <circle cx="16" cy="8" r="1.7" fill="currentColor"/><circle cx="8" cy="16" r="1.7" fill="currentColor"/>`,
  eye: `<path d="M2 12 Q12 3 22 12 Q12 21 2 12 Z" fill="#fff" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="12" r="3.4" fill="currentColor"/>`,
  lock: `<rect x="4" y="10" width="16" height="11" rx="2.5" fill="currentColor"/><path d="M8 10 V7 a4 4 0 0 1 8 0 v3" fill="none" stroke="currentColor" stroke-width="2.4"/>
    <circle cx="12" cy="15.5" r="1.8" fill="#fff"/>`,
  noentry: `<circle cx="12" cy="12" r="9.5" fill="#e53e3e"/><rect x="6" y="10.2" width="12" height="3.6" rx="1" fill="#fff"/>`,
  swords: `<path d="M4 4 L15 15 M20 4 L9 15" stroke="currentColor" stroke-width="2.6" stroke-linecap="round"/>
    <path d="M12.5 17.5 L17.5 12.5 M6.5 12.5 L11.5 17.5 M16 16 L20 20 M8 16 L4 20" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>`,
  star: `<path d="M12 2.5 l2.8 5.9 6.4 .8 -4.7 4.4 1.2 6.4 -5.7 -3.1 -5.7 3.1 1.2 -6.4 -4.7 -4.4 6.4 -.8z" fill="#f7c948" stroke="#b7791f" stroke-width="1.2"/>`,
};

/** A small inline picture (see GLYPHS). */
export function glyph(name, cls = "") {
  const node = document.createElementNS(SVG_NS, "svg");
  node.setAttribute("viewBox", "0 0 24 24");
  node.setAttribute("class", `sj-glyph sj-glyph-${name}${cls ? ` ${cls}` : ""}`);
  node.setAttribute("aria-hidden", "true");
  node.innerHTML = GLYPHS[name] || "";
  return node;
}

/** The picture of a castle kind as an SVG element. */
export function pieceIcon(id, cls = "") {
  return svg(ICONS[id] || CREST, `sj-icon sj-icon-${id || "back"}${cls ? ` ${cls}` : ""}`);
}

/** Fill every [data-sj-icon] placeholder of `root` with its picture (server-rendered pages). */
export function fillIcons(root = document) {
  for (const node of root.querySelectorAll("[data-sj-icon]")) {
    if (!node.querySelector("svg")) node.prepend(pieceIcon(node.dataset.sjIcon));
  }
}

/**
 * A castle tile. `piece` null draws the back (the opponent's hidden castle).
 * opts: {owner (0 red / 1 blue), big, known (the other side has seen it), seen (an opponent's
 * castle you have seen: memory aid), moved, ghost (placed but not shown to others yet), title}
 */
export function castleTile(piece, opts = {}) {
  const owner = opts.owner ?? 0;
  const colour = COLOURS[owner] || "red";
  const cls = ["sj-castle", `sj-${colour}`, piece ? "sj-face" : "sj-back"];
  if (opts.big) cls.push("sj-big");
  if (opts.seen) cls.push("sj-seen");
  if (opts.ghost) cls.push("sj-ghost");
  const s = piece ? strength(piece) : null;
  let title = opts.title;
  if (!title) {
    const parts = [piece ? say("sj.tile.face", { colour: colourName(owner), name: fullName(piece), help: helpText(piece) })
      : say("sj.tile.hidden", { colour: colourName(owner) })];
    if (opts.seen) parts.push(say("sj.tile.seen"));
    if (opts.known) parts.push(say("sj.tile.known"));
    if (opts.moved && !piece) parts.push(say("sj.tile.moved"));
    title = parts.join(" ");
  }
  const children = [piece ? pieceIcon(piece) : svg(CREST, "sj-icon sj-crest")];
  if (piece && s !== null) children.push(el("span", { class: "sj-strength", text: String(s) }));
  if (opts.seen) children.push(el("span", { class: "sj-badge sj-badge-seen", "aria-hidden": "true" }, glyph("eye")));
  else if (opts.known && piece) children.push(el("span", { class: "sj-badge sj-badge-known", "aria-hidden": "true" }, glyph("eye")));
  if (opts.moved && !piece) children.push(el("span", { class: "sj-badge sj-badge-moved", "aria-hidden": "true" }));
  return el("span", {
    class: cls.join(" "), title, "aria-label": title,
    dataset: { piece: piece || "", owner, testid: "castle" },
  }, ...children);
}

// ================================================================== the board

/** {rows, columns, depth (formation rows per side), towers, middle: Set of rows} of a geometry
 * (a match view's ``geometry``, else the server's board loaded by loadCatalog()). */
export function shape(geo) {
  const g = geo || boardGeometry;
  if (!g) throw new Error("the board's geometry is not loaded: await setup() first");
  const depth = g.formation_rows[0].length;
  return { rows: g.rows, columns: g.columns, depth, towers: g.towers, middle: new Set(g.middle_rows || []), lakes: g.lakes || [] };
}

function range(n) {
  return Array.from({ length: n }, (_, i) => i);
}

/**
 * The board grid, in screen coordinates: display rows from the top, columns from the left (by
 * the server's geometry); the top and bottom tower walls hold the tower slots.
 *
 * @param {object} o
 * @param {function(number, number): object} o.cell  (drow, dcol) -> {content, cls: [], data: {}, onClick, drop}
 * @param {function(string, number): object} o.tower  ("top" | "bottom", position) -> same shape
 * @param {object} [o.geo]  the view's geometry (default: the server's board)
 * @param {boolean} [o.ownHalf]  draw only the last middle row and the bottom side (the setups page)
 * @param {string} [o.topLabel] [o.bottomLabel]  captions of the walls
 */
export function boardGrid(o) {
  const g = shape(o.geo);
  const fromRow = o.ownHalf ? g.rows - g.depth - 1 : 0;
  const rows = g.rows - fromRow;
  const board = el("div", {
    class: "sj-board", style: `--rows: ${rows}; --cols: ${g.columns}`, role: "grid", "aria-label": o.ariaLabel || say("sj.board.aria"),
  });
  const wall = (where) => {
    const slots = range(g.towers).map((pos) => square(o.tower(where, pos) || {}, "sj-tower"));
    return el("div", { class: `sj-wall sj-wall-${where}` },
      o[`${where}Label`] ? el("span", { class: "sj-wall-label", text: o[`${where}Label`] }) : null,
      el("div", { class: "sj-towers" }, ...slots));
  };
  if (fromRow === 0) board.append(wall("top"));
  for (let dr = fromRow; dr < g.rows; dr += 1) {
    const middle = dr >= g.depth && dr < g.rows - g.depth;
    const rowKind = dr < g.depth ? "top" : middle ? "middle" : "bottom";
    if (middle) board.append(el("div", { class: "sj-lake sj-lake-left", style: `grid-row: ${dr - fromRow + 2}`, title: say("sj.board.lake"), "aria-hidden": "true" }));
    for (let dc = 0; dc < g.columns; dc += 1) {
      const spec = o.cell(dr, dc) || {};
      const node = square(spec, `sj-sq sj-${rowKind}${(dr + dc) % 2 ? " sj-alt" : ""}`);
      node.style.gridRow = String(dr - fromRow + 2);
      node.style.gridColumn = String(dc + 2);
      board.append(node);
    }
    if (middle) board.append(el("div", { class: "sj-lake sj-lake-right", style: `grid-row: ${dr - fromRow + 2}; grid-column: ${g.columns + 2}`, title: say("sj.board.lake"), "aria-hidden": "true" }));
  }
  board.append(wall("bottom"));
  return el("div", { class: "sj-board-wrap" }, board);
}

function square(spec, base) {
  const cls = [base, ...(spec.cls || [])];
  const node = el("div", { class: cls.join(" "), dataset: spec.data || {}, title: spec.title, "aria-label": spec.onClick ? spec.title : null });
  if (spec.content) node.append(spec.content);
  if (spec.marker) node.append(el("span", { class: `sj-marker sj-marker-${spec.marker}`, "aria-hidden": "true" }));
  if (spec.onClick) {
    node.setAttribute("role", "button");
    node.tabIndex = 0;
    node.addEventListener("click", spec.onClick);
    node.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        spec.onClick(e);
      }
    });
  } else {
    node.setAttribute("role", "gridcell");
  }
  if (spec.drag) {
    node.draggable = true;
    node.addEventListener("dragstart", (e) => {
      e.dataTransfer.setData("text/plain", "castle");
      e.dataTransfer.effectAllowed = "move";
      spec.drag();
    });
  }
  if (spec.drop) {
    node.addEventListener("dragover", (e) => {
      e.preventDefault();
      node.classList.add("sj-dragover");
    });
    node.addEventListener("dragleave", () => node.classList.remove("sj-dragover"));
    node.addEventListener("drop", (e) => {
      e.preventDefault();
      node.classList.remove("sj-dragover");
      spec.drop();
    });
  }
  return node;
}

/** Screen (drow, dcol) -> board (row, col) for the seat at the bottom (blue: turned round). A
 * tower slot t sits at screen position t, or (towers - 1 - t) when blue is at the bottom. */
function toBoard(dr, dc, bottom, g) {
  return bottom === 1 ? [g.rows - 1 - dr, g.columns - 1 - dc] : [dr, dc];
}

// ================================================================== the placement editor

/** An empty placement: {towers: [towers], rows: [[columns] x depth]} of piece ids or null. */
export function emptyDraft(geo) {
  const g = shape(geo);
  return { towers: range(g.towers).map(() => null), rows: range(g.depth).map(() => range(g.columns).map(() => null)) };
}

/** A copy of a saved setup / setup action payload as a draft. */
export function draftFrom(data, geo) {
  const d = emptyDraft(geo);
  if (!data) return d;
  (data.towers || []).slice(0, d.towers.length).forEach((p, i) => { d.towers[i] = p || null; });
  (data.rows || []).slice(0, d.rows.length).forEach((row, i) => (row || []).slice(0, d.rows[i].length).forEach((p, j) => { d.rows[i][j] = p || null; }));
  return d;
}

/** A uniformly random complete placement. */
export function randomDraft(geo) {
  const g = shape(geo);
  const { small, big } = sidePieces();
  const pool = Object.entries(small).flatMap(([id, n]) => Array(n).fill(id));
  const shuffle = (xs) => {
    for (let i = xs.length - 1; i > 0; i -= 1) {
      const j = Math.floor(Math.random() * (i + 1));
      [xs[i], xs[j]] = [xs[j], xs[i]];
    }
    return xs;
  };
  shuffle(pool);
  const towers = shuffle([...big]);
  return { towers, rows: range(g.depth).map((i) => pool.slice(i * g.columns, (i + 1) * g.columns)) };
}

/** {id: how many are still in the tray}. */
export function trayCounts(draft) {
  const { small, big } = sidePieces();
  const left = { ...small };
  for (const id of big) left[id] = 1;
  for (const id of [...draft.towers, ...draft.rows.flat()]) if (id && left[id] !== undefined) left[id] -= 1;
  return left;
}

export function isComplete(draft) {
  return draft.towers.every(Boolean) && draft.rows.every((row) => row.every(Boolean));
}

/** The setup payload of a complete draft. */
export function draftPayload(draft) {
  return { towers: [...draft.towers], rows: draft.rows.map((row) => [...row]) };
}

function isBig(id) {
  return !!info(id).big;
}

function getAt(draft, where) {
  return where.kind === "tower" ? draft.towers[where.i] : draft.rows[where.i][where.j];
}

function setAt(draft, where, id) {
  if (where.kind === "tower") draft.towers[where.i] = id;
  else draft.rows[where.i][where.j] = id;
}

function sameSpot(x, y) {
  return x && y && x.kind === y.kind && x.i === y.i && (x.kind === "tower" || x.j === y.j);
}

/**
 * The editor's state machine: select a castle in the tray or on the board, then a square or a
 * tower; two placed castles swap; a placed castle dropped on the tray goes back to it.
 * `st` holds {draft, sel, hint}; returns true when something changed.
 */
export function editorClick(st, target) {
  const { draft } = st;
  st.hint = "";
  if (target.kind === "tray") {
    if (st.sel && st.sel.kind !== "tray") { // put a placed castle back
      setAt(draft, st.sel, null);
      st.sel = null;
      return true;
    }
    st.sel = st.sel && st.sel.kind === "tray" && st.sel.piece === target.piece ? null : { kind: "tray", piece: target.piece };
    return true;
  }
  const here = getAt(draft, target);
  const wantBig = target.kind === "tower";
  if (!st.sel) {
    if (here) st.sel = { ...target };
    else st.hint = wantBig ? say("sj.hint.choose_big", { names: bigNamesText("disjunction") }) : say("sj.hint.choose_first");
    return true;
  }
  if (st.sel.kind === "tray") {
    const piece = st.sel.piece;
    if (isBig(piece) !== wantBig) {
      const g = shape(st.geo);
      st.hint = isBig(piece) ? say("sj.hint.big_goes_tower", { name: pieceName(piece) })
        : say("sj.hint.small_goes_square", { name: pieceName(piece), count: g.depth * g.columns });
      return true;
    }
    setAt(draft, target, piece); // whatever was here goes back to the tray
    const left = trayCounts(draft)[piece];
    if (!left) st.sel = null;
    return true;
  }
  if (sameSpot(st.sel, target)) {
    st.sel = null;
    return true;
  }
  if ((st.sel.kind === "tower") !== wantBig) {
    st.hint = wantBig ? say("sj.hint.only_big") : say("sj.hint.big_stay");
    st.sel = here ? { ...target } : null;
    return true;
  }
  const moving = getAt(draft, st.sel);
  setAt(draft, st.sel, here);
  setAt(draft, target, moving);
  st.sel = null;
  return true;
}

/** The tray of castles still to place. */
function trayView(st, redraw, { disabled = false } = {}) {
  const left = trayCounts(st.draft);
  const { small, big } = sidePieces();
  const items = [...Object.keys(small), ...big].filter((id) => left[id] > 0).map((id) => {
    const selected = st.sel && st.sel.kind === "tray" && st.sel.piece === id;
    const button = el("button", {
      type: "button", class: `sj-tray-item${selected ? " selected" : ""}${isBig(id) ? " sj-tray-big" : ""}`,
      dataset: { trayPiece: id }, "aria-pressed": selected ? "true" : "false", disabled,
      title: `${fullName(id)}: ${helpText(id)}`, draggable: disabled ? null : "true",
    }, castleTile(id, { owner: st.colour ?? 0, big: isBig(id), title: fullName(id) }),
    el("span", { class: "sj-tray-name", lang: "hu", text: originalName(id) }),
    originalName(id).toLowerCase() === pieceName(id).toLowerCase() ? null : el("span", { class: "sj-tray-here", text: pieceName(id) }),
    left[id] > 1 ? el("span", { class: "sj-tray-count", text: `×${left[id]}` }) : null);
    button.addEventListener("click", () => {
      editorClick(st, { kind: "tray", piece: id });
      redraw();
    });
    button.addEventListener("dragstart", (e) => {
      e.dataTransfer.setData("text/plain", id);
      st.sel = { kind: "tray", piece: id };
    });
    return button;
  });
  const tray = el("div", { class: `sj-tray${items.length ? "" : " sj-tray-empty"}`, id: "sj-tray", dataset: { testid: "tray" } },
    ...(items.length ? items : [el("p", { class: "sj-tray-done", text: say("sj.tray.done") })]));
  tray.addEventListener("dragover", (e) => e.preventDefault());
  tray.addEventListener("drop", (e) => {
    e.preventDefault();
    if (st.sel && st.sel.kind !== "tray") {
      editorClick(st, { kind: "tray", piece: null });
      redraw();
    }
  });
  return tray;
}

/**
 * The board with the editable own side (formation and towers at the bottom; `st.geo` is the
 * geometry). In a match the top side shows the opponent's backs once they are ready; the setups
 * page draws only the own side (`ownHalf`).
 */
function editorBoard(st, redraw, { ownHalf = false, opponentReady = false, disabled = false, oppColour = 1 } = {}) {
  const g = shape(st.geo);
  const own = g.rows - g.depth;
  const spot = (where) => {
    const id = getAt(st.draft, where);
    const selected = sameSpot(st.sel, where);
    const cls = ["sj-editable"];
    if (selected) cls.push("sj-selected");
    const wantBig = where.kind === "tower";
    if (st.sel && !selected) {
      const moving = st.sel.kind === "tray" ? st.sel.piece : getAt(st.draft, st.sel);
      if (moving && isBig(moving) === wantBig) cls.push("sj-drop-ok");
    }
    const data = where.kind === "tower" ? { setupTower: String(where.i) } : { setupCell: `${where.i},${where.j}` };
    return {
      content: id ? castleTile(id, { owner: st.colour ?? 0, big: wantBig }) : where.kind === "tower" ? el("span", { class: "sj-empty-tower", text: say("sj.board.tower") }) : null,
      cls, data,
      onClick: disabled ? null : () => { editorClick(st, where); redraw(); },
      drag: disabled || !id ? null : () => { st.sel = { ...where }; },
      drop: disabled ? null : () => { if (st.sel && !sameSpot(st.sel, where)) { editorClick(st, where); redraw(); } },
    };
  };
  return boardGrid({
    geo: st.geo,
    ownHalf,
    ariaLabel: say("sj.board.your_castles"),
    cell: (dr, dc) => {
      if (dr >= own) return spot({ kind: "cell", i: dr - own, j: dc });
      if (dr < g.depth && opponentReady) return { content: castleTile(null, { owner: oppColour }), cls: ["sj-dim"] };
      return { cls: dr < g.depth ? ["sj-dim"] : [] };
    },
    tower: (where, pos) => (where === "bottom" ? spot({ kind: "tower", i: pos })
      : { content: opponentReady ? castleTile(null, { owner: oppColour, big: true }) : el("span", { class: "sj-empty-tower", text: "" }), cls: ["sj-dim"] }),
    bottomLabel: say("sj.board.your_towers_big", { names: bigNamesText() }),
    topLabel: ownHalf ? null : say("sj.board.opp_towers"),
  });
}

/**
 * The whole editor: board, tray, Random / Clear, Load setup…, Save as…, and the caller's extra
 * buttons (Confirm). `st`: {draft, sel, hint, colour, decks, saveName, saveMsg}.
 * opts: {redraw, withSaved (bool), extra (Node), ownHalf, opponentReady, disabled, onLoaded}
 */
export function placementEditor(st, opts) {
  const redraw = opts.redraw;
  const disabled = !!opts.disabled;
  const complete = isComplete(st.draft);
  const tools = el("div", { class: "sj-tools" });
  const random = el("button", { type: "button", class: "btn btn-ghost", id: "sj-random", disabled, title: say("sj.editor.random_title") }, glyph("die"), say("sj.editor.random"));
  random.addEventListener("click", () => {
    st.draft = randomDraft(st.geo);
    st.sel = null;
    st.hint = "";
    redraw();
  });
  const clear = el("button", { type: "button", class: "btn btn-ghost", id: "sj-clear", disabled: disabled || isEmptyDraft(st.draft) }, say("sj.editor.clear"));
  clear.addEventListener("click", () => {
    st.draft = emptyDraft(st.geo);
    st.sel = null;
    st.hint = "";
    redraw();
  });
  tools.append(random, clear);
  if (opts.withSaved) tools.append(loadControl(st, redraw, disabled, opts.onLoaded));
  const parts = [
    el("div", { class: "sj-editor-board" }, editorBoard(st, redraw, opts)),
    el("div", { class: "sj-editor-side" },
      el("p", { class: "sj-help", text: say("sj.editor.help") }),
      trayView(st, redraw, { disabled }),
      el("p", { class: "hint", id: "sj-hint", "aria-live": "polite", text: st.hint || "" }),
      tools,
      opts.withSaved ? saveControl(st, redraw, disabled || !complete) : null,
      opts.extra || null),
  ];
  return el("div", { class: "sj-editor", dataset: { complete: complete ? "true" : "false" } }, ...parts);
}

function isEmptyDraft(draft) {
  return !draft.towers.some(Boolean) && !draft.rows.some((row) => row.some(Boolean));
}

/** Your saved setups, loaded once per editor state. */
export async function loadDecks(st, redraw) {
  if (st.decksLoading) return;
  st.decksLoading = true;
  try {
    const res = await api("GET", `/api/decks?game=${GAME}`);
    st.decks = res.decks || [];
    st.decksError = "";
  } catch (err) {
    st.decks = [];
    st.decksError = err.status === 401 ? say("deck.login_first") : errorText(err);
  }
  st.decksLoading = false;
  redraw();
}

function loadControl(st, redraw, disabled, onLoaded) {
  if (st.decks === undefined) loadDecks(st, redraw);
  const decks = st.decks || [];
  const select = el("select", { id: "sj-load", "aria-label": say("sj.load.aria"), disabled: disabled || !decks.length },
    el("option", { value: "", text: st.decks === undefined ? say("sj.load.loading") : decks.length ? say("sj.load.choose") : say("sj.load.none") }),
    ...decks.map((d) => el("option", { value: String(d.id), text: d.name })));
  select.addEventListener("change", () => {
    const deck = decks.find((d) => String(d.id) === select.value);
    if (!deck) return;
    st.draft = draftFrom(deck.data, st.geo);
    st.sel = null;
    st.hint = say("sj.load.loaded", { name: deck.name });
    st.loadedName = deck.name;
    if (onLoaded) onLoaded(deck);
    redraw();
  });
  return el("label", { class: "sj-load" }, select);
}

function saveControl(st, redraw, disabled) {
  const input = el("input", {
    type: "text", id: "sj-save-name", maxlength: "60", placeholder: say("sj.save.name"),
    value: st.saveName || "", "aria-label": say("sj.save.name"),
  });
  input.addEventListener("input", () => { st.saveName = input.value; });
  const button = el("button", { type: "button", class: "btn btn-ghost", id: "sj-save", disabled }, say("sj.save.as"));
  const msg = el("p", { class: `sj-save-msg${st.saveOk ? " ok" : st.saveMsg ? " bad" : ""}`, id: "sj-save-msg", role: "status", text: st.saveMsg || "" });
  const save = async () => {
    const name = (st.saveName || "").trim();
    if (!name) {
      st.saveMsg = say("sj.save.need_name");
      st.saveOk = false;
      redraw();
      return;
    }
    try {
      const deck = await api("POST", "/api/decks", { game: GAME, name, data: draftPayload(st.draft) });
      st.saveMsg = say("sj.save.saved_as", { name: deck.name });
      st.saveOk = true;
      st.decks = [...(st.decks || []), deck].sort((x, y) => x.name.localeCompare(y.name));
    } catch (err) {
      st.saveMsg = deckErrorText(err, { name });
      st.saveOk = false;
    }
    redraw();
  };
  button.addEventListener("click", save);
  input.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); if (!disabled) save(); } });
  return el("div", { class: "sj-save" }, el("div", { class: "sj-save-row" }, input, button), msg);
}

// ================================================================== match page: state

const uiState = new WeakMap();

function stateFor(root) {
  let st = uiState.get(root);
  if (!st) {
    st = { draft: null, sel: null, hint: "", pick: null, animated: 0, turnKey: null }; // draft: set by renderSetup
    uiState.set(root, st);
  }
  return st;
}

function names(client) {
  const name = (s) => (client && client.seatName ? client.seatName(s) : colourName(s));
  return [name(0), name(1)];
}

function sqKey(sq) {
  return `${sq[0]},${sq[1]}`;
}

function colourDot(seat) {
  return el("span", { class: `sj-dot sj-dot-${COLOURS[seat]}`, "aria-hidden": "true" });
}

/** The own setup this seat sent (from the event log), for the "waiting" board. */
function mySetup(client, seat) {
  for (const entry of [...((client && client.events) || [])].reverse()) {
    if (entry.seat === seat && entry.action && entry.action.setup) return entry.action.setup;
  }
  return null;
}

/** The latest event worth a picture: combat, flip, die, tower attack, returns, or a move. */
function latestNotable(client) {
  const entries = (client && client.events) || [];
  const order = ["game_over", "tower_attacked", "combat", "flip", "castles_returning", "castles_returned", "return_declined", "die_rolled", "moved", "setup_done"];
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const evs = entries[i].events || [];
    for (const kind of order) {
      const ev = evs.find((e) => e.kind === kind);
      if (ev && kind !== "game_over") return { entry: entries[i], ev, all: evs };
      if (ev && kind === "game_over" && evs.length > 1) continue;
    }
  }
  return null;
}

// ================================================================== match page: render

/** Draw `snapshot` into `root` (see the module comment). */
export function render(root, snapshot, client) {
  ensureCss();
  const st = stateFor(root);
  if (snapshot.status === "aborted") {
    root.replaceChildren(abortedNotice(snapshot, { expirySeconds: client && client.expirySeconds }));
    return;
  }
  const view = snapshot.view;
  const nm = names(client);
  if (snapshot.status === "waiting" || !view) {
    root.replaceChildren(waitingForPlayers(snapshot, nm, client));
    return;
  }
  const focus = rememberFocus(root);
  const redraw = () => render(root, (client && client.snapshot) || snapshot, client);
  const seat = snapshot.seat === 0 || snapshot.seat === 1 ? snapshot.seat : null;
  const node = view.phase === "setup" && snapshot.status !== "finished"
    ? renderSetup(st, snapshot, view, seat, nm, client, redraw)
    : renderPlay(st, snapshot, view, seat, nm, client, redraw);
  root.replaceChildren(node);
  restoreFocus(root, focus);
}

function rememberFocus(root) {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return null;
  return { id: active.id, sq: active.dataset && (active.dataset.sq || active.dataset.setupCell || active.dataset.setupTower || active.dataset.trayPiece),
    start: active.selectionStart, end: active.selectionEnd };
}

function restoreFocus(root, focus) {
  if (!focus) return;
  let node = focus.id ? root.querySelector(`#${CSS.escape(focus.id)}`) : null;
  if (!node && focus.sq) {
    node = root.querySelector(`[data-sq="${focus.sq}"], [data-setup-cell="${focus.sq}"], [data-setup-tower="${focus.sq}"], [data-tray-piece="${focus.sq}"]`);
  }
  if (!node) return;
  node.focus({ preventScroll: true });
  if (focus.start !== undefined && focus.start !== null && node.setSelectionRange) {
    try { node.setSelectionRange(focus.start, focus.end); } catch (err) { /* not a text field */ }
  }
}

function variantBadge(view) {
  const quest = view.variant === "quest";
  return el("span", { class: `sj-variant sj-variant-${view.variant}`, id: "sj-variant", title: quest ? say("sj.variant.quest_title") : say("sj.variant.victory_title") },
    quest ? glyph("die") : glyph("swords"), quest ? say("sj.variant.quest") : say("sj.variant.victory"));
}

function youAre(seat) {
  if (seat === null) return el("span", { class: "sj-youare muted", text: say("sj.youare.watching") });
  return el("span", { class: `sj-youare sj-youare-${COLOURS[seat]}`, id: "sj-youare" }, colourDot(seat), say(`sj.youare.${COLOURS[seat]}`));
}

// ------------------------------------------------------------------ setup phase

function renderSetup(st, snapshot, view, seat, nm, client, redraw) {
  const chosen = new Set(snapshot.chosen || []);
  const legal = snapshot.legal || [];
  const pending = client && client.pending;
  const player = seat !== null;
  const opp = player ? 1 - seat : 1;
  st.colour = player ? seat : 0;
  const viewGeo = view.geometry || boardGeometry;
  if (!st.geo || JSON.stringify(st.geo) !== JSON.stringify(viewGeo)) {
    st.geo = viewGeo;
    st.draft = emptyDraft(st.geo);
  }
  const head = el("div", { class: "sj-head" }, variantBadge(view), youAre(seat));
  const status = el("div", { class: "sj-status", id: "sj-status", "aria-live": "polite" });
  const lock = el("p", { class: "sj-secret", id: "sj-secret" },
    glyph("lock", "sj-lock"),
    ` ${say("sj.setup.secret")}`);

  if (!player) {
    status.dataset.state = "spectating";
    status.append(`${say("sj.setup.both_placing")} `,
      ...[0, 1].map((s) => el("span", { class: `who-state${chosen.has(s) ? " done" : ""}`, dataset: { seat: s } }, colourDot(s),
        ` ${say(chosen.has(s) ? "sj.setup.seat_ready" : "sj.setup.seat_placing", { who: nm[s] })} `)));
    const board = boardGrid({
      geo: view.geometry,
      cell: (dr) => ({ cls: dr < shape(view.geometry).depth || dr >= view.geometry.rows - shape(view.geometry).depth ? ["sj-dim"] : [] }),
      tower: () => ({ cls: ["sj-dim"] }),
    });
    return el("div", { class: "sj", dataset: { phase: "setup", variant: view.variant } }, head, status, board);
  }

  const waiting = chosen.has(seat) || (pending && pending.action && pending.action.setup);
  const matchId = snapshot.match_id ?? (client && client.matchId);
  if (waiting) dropDraft(matchId, seat);
  else if (client) {
    if (!st.draftRead) { // the castles placed before a reload of the page
      st.draftRead = true;
      const saved = readDraft(matchId, seat, "setup");
      if (saved) st.draft = draftFrom(saved, st.geo);
    }
    saveDraft(matchId, seat, "setup", snapshot.version, isEmptyDraft(st.draft) ? null : draftPayload(st.draft));
  }
  if (waiting) {
    const placed = (pending && pending.action && pending.action.setup) || mySetup(client, seat);
    if (placed) st.draft = draftFrom(placed, st.geo);
    status.dataset.state = "waiting-setup";
    status.append(el("strong", { text: `${say(pending ? "sj.setup.sending" : "sj.setup.placed")} ` }),
      chosen.has(opp) ? say("sj.setup.opp_ready_too", { who: nm[opp] }) : say("sj.setup.waiting_opp", { who: nm[opp] }));
    const board = editorBoard({ ...st, sel: null }, () => {}, { disabled: true, opponentReady: chosen.has(opp), oppColour: opp });
    return el("div", { class: "sj sj-setup", dataset: { phase: "setup", variant: view.variant } }, head, status, lock,
      el("div", { class: "sj-setup-layout" }, board, el("div", { class: "sj-panel" }, opponentLine(chosen, opp, nm), rulesReminder(view))));
  }

  status.dataset.state = "setup";
  status.append(el("strong", { text: `${say("sj.setup.place")} ` }),
    placeHint());
  const complete = isComplete(st.draft);
  const confirm = el("button", {
    type: "button", class: "btn btn-big btn-confirm", id: "sj-confirm", disabled: !(complete && legal.length && !pending),
  }, complete ? say("sj.setup.confirm") : say("sj.setup.confirm_count", { placed: placedCount(st.draft), total: st.draft.towers.length + st.draft.rows.flat().length }));
  confirm.addEventListener("click", () => {
    if (!isComplete(st.draft) || !client) return;
    client.act({ setup: draftPayload(st.draft) });
  });
  const clock = el("span", { class: "seat-clock inline-clock", dataset: { clockSeat: seat } }, client && client.clockText ? client.clockText(seat) : "");
  const editor = placementEditor(st, {
    redraw, withSaved: true, opponentReady: chosen.has(opp), oppColour: opp,
    extra: el("div", { class: "sj-confirm-row" }, clock, confirm),
  });
  return el("div", { class: "sj sj-setup", dataset: { phase: "setup", variant: view.variant } }, head, status, lock, opponentLine(chosen, opp, nm), editor);
}

function placedCount(draft) {
  return [...draft.towers, ...draft.rows.flat()].filter(Boolean).length;
}

/** "<who> is placing castles…" / "<who> has placed their castles", kept at one size (steadyText):
 * the line sits above the board the player is filling, which its change must not move. */
function opponentLine(chosen, opp, nm) {
  const both = [say("sj.setup.opp_placed", { who: nm[opp] }), say("sj.setup.opp_placing", { who: nm[opp] })];
  return el("p", { class: `sj-opp-state${chosen.has(opp) ? " done" : ""}`, id: "sj-opp-state" }, colourDot(opp),
    steadyText("span", {}, both[chosen.has(opp) ? 0 : 1], both));
}

function rulesReminder(view) {
  const quest = view.variant === "quest";
  return el("div", { class: "sj-reminder" },
    el("h3", { text: quest ? say("sj.reminder.quest") : say("sj.reminder.victory") }),
    quest
      ? el("ul", {}, el("li", { text: say("sj.reminder.quest.roll") }),
        el("li", { text: say("sj.reminder.quest.falls") }),
        el("li", { text: say("sj.reminder.quest.back_row") }))
      : el("ul", {}, el("li", { text: say("sj.reminder.victory.move") }),
        el("li", { text: say("sj.reminder.victory.stronger") }),
        el("li", { text: say("sj.reminder.victory.back_row") })));
}

// ------------------------------------------------------------------ play

function renderPlay(st, snapshot, view, seat, nm, client, redraw) {
  const over = snapshot.status === "finished" || view.over;
  const legal = over ? [] : snapshot.legal || [];
  const pending = client && client.pending;
  const player = seat !== null;
  const bottom = player ? seat : 0;
  const g = shape(view.geometry);
  const lakes = new Set((g.lakes || []).map(sqKey));
  const top = 1 - bottom;
  const quest = view.variant === "quest";
  const toMove = view.to_move;
  const myTurn = player && !over && toMove === seat && legal.length > 0 && !pending;
  const turnKey = `${snapshot.version}`;
  if (st.turnKey !== turnKey) {
    st.turnKey = turnKey;
    st.hint = "";
    if (!myTurn) st.pick = null;
  }

  // what the legal actions allow, by square
  const fromMap = new Map(); // "r,c" -> [actions] (Victory)
  const targets = new Map(); // "r,c" -> {kind, action}
  const towerTargets = new Map(); // "owner,t" -> action
  let roll = null;
  let decline = null;
  if (myTurn) {
    for (const action of legal) {
      if (action.move || action.attack || (action.attack_tower && action.attack_tower.from)) {
        const from = (action.move || action.attack || action.attack_tower).from;
        const k = sqKey(from);
        if (!fromMap.has(k)) fromMap.set(k, []);
        fromMap.get(k).push(action);
      } else if (action.attack_tower) {
        towerTargets.set(`${1 - seat},${action.attack_tower.tower}`, action);
      } else if (action.flip) {
        targets.set(sqKey(action.flip), { kind: "flip", action });
      } else if (action.roll) {
        roll = action;
      } else if (action.decline_return) {
        decline = action;
      } else if (action.place) {
        if (Array.isArray(action.place)) targets.set(sqKey(action.place), { kind: "place", action });
        else towerTargets.set(`${seat},${action.place.tower}`, action);
      }
    }
    if (st.pick && !fromMap.has(st.pick)) st.pick = null;
    if (!st.pick && fromMap.size === 1 && !quest) st.pick = [...fromMap.keys()][0];
    if (st.pick) {
      for (const action of fromMap.get(st.pick)) {
        if (action.move) targets.set(sqKey(action.move.to), { kind: "move", action });
        else if (action.attack) targets.set(sqKey(action.attack.to), { kind: "attack", action });
        else towerTargets.set(`${1 - seat},${action.attack_tower.tower}`, action);
      }
    }
  }

  const act = (action) => {
    if (!client || !client.act) return;
    st.pick = null;
    client.act(action);
  };

  // the last notable event, and which squares it concerns
  const notable = latestNotable(client);
  const lastSquares = new Set();
  if (notable) {
    const ev = notable.ev;
    if (ev.from) lastSquares.add(sqKey(ev.from));
    if (ev.to) lastSquares.add(sqKey(ev.to));
    if (ev.kind === "flip" && ev.castle && ev.castle.sq) lastSquares.add(sqKey(ev.castle.sq));
  }
  const fresh = notable && notable.entry.version > st.animated && st.animated !== 0;
  if (notable) st.animated = Math.max(st.animated, notable.entry.version);
  else if (st.animated === 0) st.animated = -1;

  // castles by square
  const castles = new Map(view.castles.map((c) => [sqKey(c.sq), c]));
  const staged = new Map();
  const returning = view.returning;
  if (returning && returning.staged) {
    for (const s of returning.staged) if (s.sq) staged.set(sqKey(s.sq), s);
  }
  const attackable = new Set((view.attackable || []).map(sqKey));
  const restricted = !over && view.restricted ? view.restricted : null;
  const restrictedMine = restricted && player && toMove === seat;

  const cell = (dr, dc) => {
    const [r, c] = toBoard(dr, dc, bottom, g);
    const k = `${r},${c}`;
    if (lakes.has(k)) return { cls: ["sj-lake-sq"], title: say("sj.board.lake_square"), data: { sq: k } };
    const castle = castles.get(k);
    const cls = [];
    let content = null;
    let marker = null;
    let title;
    if (castle) {
      const mine = castle.owner === seat;
      const seen = !mine && !!castle.piece && !!castle.known && !over;
      content = castleTile(castle.piece || null, { owner: castle.owner, known: mine && castle.known, seen, moved: castle.moved });
      if (fromMap.has(k)) cls.push("sj-selectable");
      if (st.pick === k) cls.push("sj-selected");
    } else if (staged.has(k)) {
      const s = staged.get(k);
      content = castleTile(s.piece, { owner: s.owner, ghost: true, title: say("sj.tile.staged", { name: fullName(s.piece) }) });
    }
    const target = targets.get(k);
    if (target) {
      cls.push(`sj-target-${target.kind}`);
      marker = target.kind;
      title = say(`sj.target.${target.kind}`);
    } else if (quest && attackable.has(k) && !over && ["play", "roll", "flip"].includes(view.phase)) {
      cls.push("sj-attackable");
    }
    if (lastSquares.has(k)) cls.push("sj-last");
    if (restricted && sqKey(restricted.to) === k && !castle) {
      cls.push("sj-restricted");
      if (!target) marker = "restricted";
      title = say("sj.target.restricted");
    }
    if (restricted && sqKey(restricted.from) === k) cls.push("sj-restricted-from");
    const onClick = myTurn ? () => clickSquare(k, castle) : null;
    return { content, cls, marker, title, data: { sq: k }, onClick };
  };

  const clickSquare = (k, castle) => {
    const target = targets.get(k);
    if (target) {
      act(target.action);
      return;
    }
    if (fromMap.has(k)) {
      st.pick = st.pick === k ? null : k;
      st.hint = "";
    } else if (castle && castle.owner === seat && !quest) {
      st.pick = null;
      st.hint = castle.piece === "dragon" ? say("sj.hint.dragon_never_moves") : say("sj.hint.cannot_move");
    } else if (quest && view.phase === "flip") {
      st.hint = say("sj.hint.pick_glowing");
    } else {
      st.pick = null;
      st.hint = !quest && fromMap.size ? say("sj.hint.first_click") : "";
    }
    redraw();
  };

  const tower = (where, pos) => {
    const owner = where === "top" ? top : bottom;
    const t = bottom === 1 ? g.towers - 1 - pos : pos;
    const slot = (view.towers[owner] || [])[t] || { empty: true };
    const k = `${owner},${t}`;
    const cls = [];
    let content;
    if (slot.empty) {
      const stagedHere = returning && returning.staged && returning.staged.find((s) => s.tower === t && s.owner === owner);
      content = stagedHere ? castleTile(stagedHere.piece, { owner, big: true, ghost: true })
        : el("span", { class: "sj-empty-tower", text: say("sj.board.empty") });
      cls.push("sj-tower-empty");
    } else {
      content = castleTile(slot.piece || null, { owner, big: true });
    }
    const action = towerTargets.get(k);
    if (action) cls.push(action.place ? "sj-target-place" : "sj-target-tower");
    return {
      content, cls, marker: action ? (action.place ? "place" : "attack") : null,
      data: { tower: k },
      title: action && !action.place ? say("sj.target.tower") : undefined,
      onClick: action ? () => act(action) : null,
    };
  };

  const board = boardGrid({
    geo: view.geometry, cell, tower,
    topLabel: say("sj.board.towers_of", { who: nm[top] }),
    bottomLabel: player ? say("sj.board.your_towers") : say("sj.board.towers_of", { who: nm[bottom] }),
    ariaLabel: say("sj.board.aria"),
  });

  // status line
  const status = statusLine({ view, seat, nm, over, myTurn, pending, legal, quest, restrictedMine, roll, decline, act, client, fromMap });
  const hint = el("p", { class: "hint", id: "sj-hint", "aria-live": "polite", text: st.hint || "" });
  const outcome = over ? snapshot.result || view.outcome : null;

  const dieShown = quest && view.die && view.phase === "flip";
  const side = el("div", { class: "sj-panel" },
    notable && !(dieShown && notable.ev.kind === "die_rolled") ? lastEventPanel(notable, seat, nm, fresh) : null,
    dieShown ? dieBox(view.die, toMove, seat, nm, fresh && notable.ev.kind === "die_rolled") : null,
    over ? null : legend(quest, myTurn),
    takenPanel(view, seat, nm, over),
    rulesReminder(view));

  const parts = [];
  if (outcome) parts.push(resultBanner(outcome, seat, nm, snapshot, client));
  parts.push(el("div", { class: "sj-head" }, variantBadge(view), youAre(seat),
    view.memory_aid ? el("span", { class: "sj-memory", title: say("sj.memory.title") }, glyph("eye"), say("sj.memory.badge")) : null),
  status, hint,
  el("div", { class: "sj-layout" }, el("div", { class: "sj-board-col" }, board), side));
  return el("div", {
    class: `sj${over ? " sj-over" : ""}${myTurn ? " sj-myturn" : ""}`,
    dataset: { phase: over ? "over" : view.phase, variant: view.variant, turn: view.turn, toMove: toMove ?? "" },
  }, ...parts);
}

function statusLine({ view, seat, nm, over, myTurn, pending, legal, quest, restrictedMine, roll, decline, act, client, fromMap }) {
  const status = el("div", { class: "sj-status", id: "sj-status", "aria-live": "polite" });
  const toMove = view.to_move;
  const player = seat !== null;
  const opp = player ? 1 - seat : null;
  const mover = toMove === null || toMove === undefined ? null : toMove;
  if (over) {
    status.dataset.state = "over";
    status.textContent = say("sj.status.over");
    return status;
  }
  if (pending) {
    status.dataset.state = "sending";
    status.textContent = say("sj.status.sending");
    return status;
  }
  const clock = player ? el("span", { class: "seat-clock inline-clock", dataset: { clockSeat: seat } }, client && client.clockText ? client.clockText(seat) : "") : null;
  if (myTurn) {
    status.dataset.state = "my-turn";
    status.classList.add(`sj-status-${COLOURS[seat]}`);
    const strong = el("strong", { class: "sj-yourturn", text: `${say("sj.status.your_turn")} ` });
    if (view.phase === "return") {
      const r = view.returning || {};
      status.append(strong, `${say("sj.status.return")} `,
        el("span", {}, ...sayWith(isBig(r.next) ? "sj.status.place_next_tower" : "sj.status.place_next_square",
          { n: (r.placed || 0) + 1, count: r.count }, "name", el("strong", { text: pieceName(r.next) }))));
      if (decline) {
        const b = el("button", { type: "button", class: "btn btn-small btn-ghost", id: "sj-decline", text: say("sj.status.decline") });
        b.addEventListener("click", () => act(decline));
        status.append(" ", b);
      }
    } else if (quest && view.phase === "flip") {
      status.append(strong, ...sayWith("sj.status.flip", { who: nm[opp] }, "name", el("strong", { text: pieceName(view.die) })));
    } else if (quest) {
      status.append(strong, `${say("sj.status.reached_back")} `);
      const towers = legal.some((x) => x.attack_tower);
      if (towers) status.append(`${say(roll ? "sj.status.click_tower_or_roll" : "sj.status.click_tower")} `);
      if (roll) {
        const b = el("button", { type: "button", class: "btn btn-small", id: "sj-roll" }, glyph("die"), say("sj.status.roll"));
        b.addEventListener("click", () => act(roll));
        status.append(b);
      }
    } else {
      const towers = legal.some((x) => x.attack_tower);
      status.append(strong, towers ? `${say("sj.status.victory_tower")} ` : say("sj.status.victory_move"));
      if (restrictedMine) {
        status.append(" ", el("span", { class: "sj-restricted-note", id: "sj-restricted-note" },
          glyph("noentry"), ` ${say("sj.status.restricted")}`));
      }
      if (!fromMap.size) status.append(` ${say("sj.status.no_move")}`);
    }
    if (clock) status.append(" ", clock);
    return status;
  }
  status.dataset.state = player ? "their-turn" : "spectating";
  if (mover === null) {
    status.textContent = say("sj.status.waiting");
    return status;
  }
  const name = player && mover !== seat ? nm[mover] : `${nm[mover]} (${colourName(mover)})`;
  status.append(colourDot(mover), " ");
  const moverClock = el("span", { class: "seat-clock inline-clock", dataset: { clockSeat: mover } }, client && client.clockText ? client.clockText(mover) : "");
  if (view.phase === "return") {
    const r = view.returning || {};
    status.append(r.count ? say("sj.status.returning", { who: name, count: r.count, placed: r.placed || 0 })
      : say("sj.status.returning_some", { who: name, placed: r.placed || 0 }));
  } else if (view.phase === "roll") {
    status.append(say("sj.status.rolling", { who: name }));
  } else if (quest && view.phase === "flip") {
    status.append(say("sj.status.flipping", { who: name, name: pieceName(view.die) }));
  } else {
    status.append(say(player && mover !== seat ? "sj.status.their_turn" : "sj.status.turn", { who: name }));
  }
  status.append(" ", moverClock);
  return status;
}

function dieBox(face, mover, seat, nm, fresh) {
  return el("div", { class: `sj-die-box${fresh ? " sj-fresh" : ""}`, id: "sj-die", dataset: { face } },
    el("div", { class: "sj-die" }, pieceIcon(face)),
    el("div", {}, el("div", { class: "sj-die-title", text: say("sj.die.title", { name: fullName(face) }) }),
      el("div", { class: "muted small", text: mover === seat ? say("sj.die.you") : say("sj.die.other", { who: nm[mover] }) })));
}

function legend(quest, myTurn) {
  const items = quest ? ["flip", "place"] : ["move", "attack", "restricted"];
  return el("div", { class: `sj-legend${myTurn ? "" : " muted"}` },
    ...items.map((kind) => el("span", { class: "sj-legend-item" }, el("span", { class: `sj-marker sj-marker-${kind} sj-marker-inline`, "aria-hidden": "true" }), ` ${say(`sj.legend.${kind}`)}`)),
    el("span", { class: "sj-legend-item" }, el("span", { class: "sj-badge sj-badge-inline" }, glyph("eye")), ` ${say("sj.legend.seen")}`));
}

function takenPanel(view, seat, nm, over) {
  const side = (s) => {
    const list = (view.removed || [[], []])[s] || [];
    return el("div", { class: "sj-taken-side", dataset: { seat: s } },
      el("div", { class: "sj-taken-title" }, colourDot(s), ` ${s === seat ? say("sj.taken.yours", { count: list.length }) : say("sj.taken.theirs", { who: nm[s], count: list.length })}`),
      el("div", { class: "sj-taken-list" }, ...list.map((p) => castleTile(p.piece || null, { owner: s, big: !!(p.piece && isBig(p.piece)) }))));
  };
  const order = seat === 1 ? [1, 0] : [0, 1];
  return el("div", { class: "sj-taken", id: "sj-taken" }, ...order.map(side));
}

/** A line about seat `actor` doing something to the castles of seat `owner`: the key's ".you" form
 * when the viewer acts, ".on_you" when it is done to the viewer's castles, else the key itself. */
function sayAbout(key, actor, owner, me, nm, params = {}) {
  const p = { who: nm[actor], whom: nm[owner], ...params };
  if (actor === me) return say(`${key}.you`, p);
  if (owner === me && knows(`${key}.on_you`)) return say(`${key}.on_you`, p);
  return say(key, p);
}

/** "the Knight wins" / "both are out": the end of a battle line. */
function combatResult(ev) {
  if (ev.winner === "attacker") return say("sj.combat.wins", { name: pieceName(ev.attacker.piece) });
  if (ev.winner === "defender") return say("sj.combat.wins", { name: pieceName(ev.defender.piece) });
  return say("sj.combat.both_out");
}

/** "Your Knight (4) attacked Bob's Unicorn (3): the Knight wins." */
function combatLine(ev, me, nm) {
  return sayAbout("sj.ev.combat", ev.attacker.owner, ev.defender.owner, me, nm, {
    attacker: label(ev.attacker.piece), defender: label(ev.defender.piece), result: combatResult(ev),
  });
}

/** "Your Knight (4) attacked Bob's Unicorn (3): the Knight wins." with both pictures. */
function lastEventPanel(notable, seat, nm, fresh) {
  const { ev, all } = notable;
  let pics = [];
  let text = "";
  let mood = "";
  switch (ev.kind) {
    case "combat": {
      const att = ev.attacker.piece;
      const def = ev.defender.piece;
      pics = [castleTile(att, { owner: ev.attacker.owner }), el("span", { class: "sj-vs", text: "⚔" }), castleTile(def, { owner: ev.defender.owner })];
      text = combatLine(ev, seat, nm);
      const mine = ev.winner === "attacker" ? ev.attacker.owner : ev.winner === "defender" ? ev.defender.owner : null;
      mood = mine === null ? "even" : seat === null ? "" : mine === seat ? "good" : "bad";
      break;
    }
    case "flip": {
      const p = ev.castle.piece;
      pics = [el("span", { class: "sj-die sj-die-small" }, pieceIcon(ev.die)), el("span", { class: "sj-vs", text: "→" }), castleTile(p, { owner: ev.castle.owner })];
      text = [
        sayAbout("sj.ev.rolled", ev.seat, ev.seat, seat, nm, { name: pieceName(ev.die) }),
        sayAbout("sj.ev.turned", ev.seat, ev.castle.owner, seat, nm, { name: pieceName(p) }),
        say(ev.falls ? "sj.ev.flip.falls" : "sj.ev.flip.back"),
      ].join(" ");
      mood = seat === null ? "" : (ev.falls === (ev.seat === seat)) ? "good" : "bad";
      break;
    }
    case "die_rolled":
      pics = [el("span", { class: "sj-die" }, pieceIcon(ev.face))];
      text = sayAbout("sj.ev.rolled", ev.seat, ev.seat, seat, nm, { name: pieceName(ev.face) });
      break;
    case "tower_attacked": {
      const p = ev.piece;
      pics = [el("span", { class: "sj-vs", text: "⚔" }), castleTile(p, { owner: ev.owner, big: true })];
      let outcome = "sj.tower.black_knight";
      if (p === "flag") outcome = "sj.tower.flag";
      else if (p === "jester") outcome = "sj.tower.jester";
      else if (all.some((e) => e.kind === "castles_returning")) outcome = "sj.tower.black_knight_returns";
      else if (all.some((e) => e.kind === "removed" && (e.castles || []).length > 1)) outcome = "sj.tower.black_knight_takes";
      text = `${sayAbout("sj.ev.tower", ev.seat, ev.owner, seat, nm, { name: pieceName(p) })} ${say(outcome)}`;
      mood = seat === null ? "" : (p === "black_knight") === (ev.seat === seat) ? "bad" : "good";
      break;
    }
    case "castles_returning":
      pics = ev.pieces.map((p) => castleTile(p, { owner: ev.owner, big: isBig(p) }));
      text = sayAbout("sj.ev.returning", ev.owner, ev.owner, seat, nm, { count: ev.count });
      break;
    case "castles_returned":
      text = sayAbout("sj.last.returned", ev.owner, ev.owner, seat, nm, { count: (ev.castles || []).length + (ev.towers || []).length });
      break;
    case "return_declined":
      text = sayAbout("sj.ev.declined", ev.owner, ev.owner, seat, nm);
      break;
    case "moved":
      text = sayAbout("sj.ev.moved", ev.seat, ev.seat, seat, nm);
      break;
    case "setup_done":
      text = say("sj.last.setup_done");
      break;
    default:
      return null;
  }
  return el("div", { class: `sj-last-event${fresh ? " sj-fresh" : ""}${mood ? ` sj-mood-${mood}` : ""}`, id: "sj-last", dataset: { kind: ev.kind, version: notable.entry.version }, "aria-live": "polite" },
    pics.length ? el("div", { class: "sj-last-pics" }, ...pics) : null,
    el("div", { class: "sj-last-text", text }));
}

function resultBanner(outcome, seat, nm, snapshot, client) {
  const results = outcome.results || [];
  const winner = results.indexOf("win");
  const loser = results.indexOf("loss");
  let headline;
  let mood;
  if (results[0] === "draw" || winner < 0) {
    headline = say("sj.result.draw");
    mood = "draw";
  } else if (seat === null) {
    headline = say("sj.result.spectator", { who: nm[winner], colour: colourName(winner) });
    mood = "win";
  } else {
    headline = winner === seat ? say("sj.result.win") : say("sj.result.loss");
    mood = winner === seat ? "win" : "loss";
  }
  let detail = outcome.reason ? reasonText(outcome.reason) : "";
  if (outcome.reason === "flag_captured" && winner >= 0) {
    detail = winner === seat ? say("sj.result.you_found", { whom: nm[loser] }) : loser === seat ? say("sj.result.found_yours", { who: nm[winner] })
      : say("sj.result.found", { who: nm[winner], whom: nm[loser] });
  } else if (outcome.reason === "no_legal_action" && loser >= 0) {
    detail = loser === seat ? say("sj.result.no_move.you") : say("sj.result.no_move", { who: nm[loser] });
  } else if (outcome.reason === "move_cap") {
    detail = say("sj.result.move_cap");
  } else if (outcome.reason === "resigned" && loser >= 0) {
    detail = loser === seat ? say("result.you_resigned") : say("result.resigned", { who: nm[loser] });
  }
  const matchId = snapshot.match_id ?? (client && client.matchId);
  return el("div", { class: `result result-${mood}`, id: "result", dataset: { testid: "result", results: results.join(","), reason: outcome.reason || "" } },
    el("div", { class: "result-headline", text: headline }),
    el("div", { class: "result-detail", text: [detail, say("sj.result.all_shown")].filter(Boolean).join(" ") }),
    el("div", { class: "result-links" },
      el("a", { class: "btn", href: "/lobby", text: say("sj.result.back_to_lobby") }),
      matchId && !(client && client.showPicks) ? el("a", { class: "btn btn-ghost", href: `/matches/${matchId}/replay`, id: "watch-replay", text: say("sj.result.watch_replay") }) : null));
}

/** "10 minutes" in the page's language (Intl's units), for the waiting panel. */
function durationText(seconds) {
  for (const [size, unit] of [[86400, "day"], [3600, "hour"], [60, "minute"], [1, "second"]]) {
    if (seconds % size !== 0) continue;
    try {
      return new Intl.NumberFormat(pageLocale(), { style: "unit", unit, unitDisplay: "long" }).format(seconds / size);
    } catch (err) {
      break;
    }
  }
  return formatDuration(seconds);
}

function waitingForPlayers(snapshot, nm, client) {
  const url = window.location.href.replace(/\/replay$/, "");
  const copy = el("button", { type: "button", class: "btn btn-small btn-ghost", text: say("sj.waiting.copy") });
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = say("sj.waiting.copied");
    } catch (err) {
      copy.textContent = say("sj.waiting.copy_by_hand");
    }
  });
  const opts = (client && client.options) || {};
  const expiry = client && client.expirySeconds;
  const cancel = cancelButton(client, snapshot);
  const rules = [];
  rules.push(opts.variant === "quest" ? say("sj.waiting.quest") : say("sj.waiting.victory"));
  if (opts.memory_aid) rules.push(say("sj.waiting.memory_aid"));
  if (opts.move_cap) rules.push(say("sj.waiting.move_cap", { count: opts.move_cap }));
  const players = (snapshot.seats || []).filter((s) => s.user || s.bot).map((s) => nm[s.seat]);
  return el("div", { class: "sj sj-waiting panel", id: "waiting-for-players" },
    el("h2", { text: say("sj.waiting.title") }),
    joinButton(snapshot, client),
    el("p", { class: "muted", id: "match-rules", text: say("sj.waiting.rules", { rules: rules.join(", ") }) }),
    el("p", { text: say("sj.waiting.join_hint") }),
    el("p", {}, el("code", { class: "hash", text: url }), " ", copy),
    el("p", { class: "muted", text: say("sj.waiting.players", { names: players.length ? listText(players) : say("sj.waiting.nobody") }) }),
    cancel ? el("p", { class: "waiting-cancel" }, cancel,
      el("span", { class: "muted small", text: expiry ? ` ${say("sj.waiting.expiry", { duration: durationText(expiry) })}` : "" })) : null);
}

// ================================================================== the log

/** One log line for an input, or null to let the events speak. */
export function describeInput(entry, client) {
  const mine = entry.seat === client.seat;
  const who = client.seatName(entry.seat);
  const evs = (entry.events || []).map((e) => e.kind);
  const setup = (entry.action && entry.action.setup) || (entry.hidden && !evs.some((k) => k.startsWith("castle")));
  switch (entry.kind) {
    case "commit":
    case "action":
    case "bot":
      if (setup) return mine ? say("sj.input.placed.you") : say("sj.input.placed", { who });
      return null;
    case "timeout": {
      const key = setup ? "sj.input.timeout_setup" : "sj.input.timeout";
      return mine ? say(`${key}.you`) : say(key, { who });
    }
    case "chance":
      return null;
    default:
      return undefined;
  }
}

/** One log line for an engine event. */
export function describeEvent(ev, entry, client) {
  const me = client ? client.seat : null;
  const nm = [client.seatName(0), client.seatName(1)];
  switch (ev.kind) {
    case "setup_done":
      return say("sj.ev.setup_done");
    case "die_rolled":
      return sayAbout("sj.ev.rolled", ev.seat, ev.seat, me, nm, { name: pieceName(ev.face) });
    case "flip":
      return `${sayAbout("sj.ev.turned", ev.seat, ev.castle.owner, me, nm, { name: pieceName(ev.castle.piece) })} ${say(ev.falls ? "sj.ev.falls" : "sj.ev.no_match")}`;
    case "moved":
      return sayAbout("sj.ev.moved", ev.seat, ev.seat, me, nm);
    case "combat":
      return combatLine(ev, me, nm);
    case "tower_attacked":
      return sayAbout("sj.ev.tower", ev.seat, ev.owner, me, nm, { name: pieceName(ev.piece) });
    case "removed":
      if (ev.cause === "black_knight" && (ev.castles || []).length > 1) return say("sj.ev.black_knight_takes");
      return null;
    case "castles_returning":
      return sayAbout("sj.ev.returning", ev.owner, ev.owner, me, nm, { count: ev.count });
    case "castle_placed":
      return ev.piece ? say("sj.ev.placed.you", { name: pieceName(ev.piece) }) : say("sj.ev.placed", { who: nm[ev.owner] });
    case "castles_returned":
      return sayAbout("sj.ev.returned", ev.owner, ev.owner, me, nm);
    case "return_declined":
      return sayAbout("sj.ev.declined", ev.owner, ev.owner, me, nm);
    case "game_over": {
      const r = ev.results || [];
      const reason = reasonText(ev.reason);
      if (r[0] === "draw") return say("sj.ev.over.draw", { reason });
      const w = r.indexOf("win");
      const key = ev.reason === "flag_captured" ? "sj.ev.over.flag" : "sj.ev.over";
      return w === me ? say(`${key}.you`, { reason }) : say(key, { who: nm[w], reason });
    }
    default:
      return null;
  }
}
