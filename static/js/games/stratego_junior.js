// Stratego Junior (Quest and Victory): the match page module, and the castle pictures, the board
// and the placement editor that the "My setups" page (static/js/stratego_setups.js) and the rules
// page share. See rules/stratego_junior.md and app/games/stratego_junior/ (observe.py, actions.py) for the JSON.
//
// Module contract (static/js/match_client.js): setup(client), render(root, snapshot, client),
// describeEvent(event, entry, client), describeInput(entry, client).
//
// The board is always drawn with the viewer's own side at the bottom: red (seat 0) sees it as the
// engine numbers it (row 0, blue's back row, at the top), blue sees it turned round, and
// spectators see red at the bottom. A saved setup ({towers, rows}) is in its owner's orientation:
// rows front row first, each from the owner's left to right, which is exactly how the owner's half
// looks on the screen, so the placement editor does not need to know the colour.

import { api, el, loadGameData } from "/static/js/api.js";
import { deckErrorText, errorText, say } from "/static/js/messages.js";
import { dropDraft, readDraft, saveDraft } from "/static/js/drafts.js";
import { abortedNotice, cancelButton, formatDuration, joinButton } from "/static/js/match_client.js";

export const GAME = "stratego_junior";
const SVG_NS = "http://www.w3.org/2000/svg";
const COLOURS = ["red", "blue"];
const COLOUR_NAMES = ["Red", "Blue"];

/** What each castle does besides its strength (the rules page, the tray and the tooltips). The
 * strengths, counts and which castles are big come from the server's catalog. */
const NOTES = {
  king: "The strongest, but the Wizard beats him.",
  dwarf: "The only castle that beats a Dragon.",
  wizard: "Loses to everyone, except that he beats the King.",
  dragon: "Never moves. Every attacker loses against it, except a Dwarf. Quest: it never falls.",
  flag: "Big castle. If it is found, you lose the game!",
  black_knight: "Big castle. Victory: he takes the attacker with him. Quest: all your taken castles come back.",
  jester: "Big castle. Just a joke: he leaves the game.",
};

/** The castles ({id, strength, count, big, movable, beats}) and the board of the server's rules
 * (app/games/stratego_junior: catalog() and geometry(), served in the page's game-data or by
 * /api/games/stratego_junior), and the castle names derived there. Filled by loadCatalog(). */
let pieces = [];
let pieceNames = {};
let boardGeometry = null;

const REASONS = {
  flag_captured: "the flag was found",
  no_legal_action: "one player had no move left",
  move_cap: "the turn limit was reached",
  resigned: "a player resigned",
  abandoned: "the match was abandoned",
};

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

export function pieceName(id) {
  return pieceNames[id] || String(id || "castle").replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
}

function strength(id) {
  const s = info(id).strength;
  return s === null || s === undefined ? null : s;
}

/** "Strength 4. Beats ..." : one friendly line about a castle (its strength from the catalog). */
export function helpText(id) {
  const s = strength(id);
  return [s === null ? "" : `Strength ${s}.`, NOTES[id] || ""].filter(Boolean).join(" ");
}

/** "Knight (4)" / "Dragon". */
function label(id) {
  const s = strength(id);
  return s === null ? pieceName(id) : `${pieceName(id)} (${s})`;
}

/** "a Knight" / "an Unicorn" -> English articles for the log. */
function a(id) {
  const name = pieceName(id);
  return `${/^[AEIOU]/.test(name) && id !== "unicorn" ? "an" : "a"} ${name}`;
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

/** "Put the Flag, the Black Knight and the Jester in your 3 towers, and the 16 small castles on
 * your squares. Red starts.", counted from the catalog. */
function placeHint() {
  const { small, big } = sidePieces();
  const bigNames = big.map((id) => `the ${pieceName(id)}`);
  const list = bigNames.length > 1 ? `${bigNames.slice(0, -1).join(", ")} and ${bigNames[bigNames.length - 1]}` : bigNames.join("");
  const smallCount = Object.values(small).reduce((n, c) => n + c, 0);
  return `Put ${list} in your ${shape().towers} towers, and the ${smallCount} small castles on your squares. Red starts.`;
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
    title = piece ? `${COLOUR_NAMES[owner]} ${label(piece)}: ${helpText(piece)}` : `${COLOUR_NAMES[owner]} castle (hidden)`;
    if (opts.seen) title += " You saw it when it was revealed.";
    if (opts.known) title += " Your opponent has seen this one.";
    if (opts.moved && !piece) title += " It has moved, so it is not a dragon.";
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
    class: "sj-board", style: `--rows: ${rows}; --cols: ${g.columns}`, role: "grid", "aria-label": o.ariaLabel || "The board",
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
    if (middle) board.append(el("div", { class: "sj-lake sj-lake-left", style: `grid-row: ${dr - fromRow + 2}`, title: "A lake", "aria-hidden": "true" }));
    for (let dc = 0; dc < g.columns; dc += 1) {
      const spec = o.cell(dr, dc) || {};
      const node = square(spec, `sj-sq sj-${rowKind}${(dr + dc) % 2 ? " sj-alt" : ""}`);
      node.style.gridRow = String(dr - fromRow + 2);
      node.style.gridColumn = String(dc + 2);
      board.append(node);
    }
    if (middle) board.append(el("div", { class: "sj-lake sj-lake-right", style: `grid-row: ${dr - fromRow + 2}; grid-column: ${g.columns + 2}`, title: "A lake", "aria-hidden": "true" }));
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
    else st.hint = wantBig ? "Choose a big castle (Flag, Black Knight or Jester) in the tray first." : "Choose a castle in the tray first, then click here.";
    return true;
  }
  if (st.sel.kind === "tray") {
    const piece = st.sel.piece;
    if (isBig(piece) !== wantBig) {
      st.hint = isBig(piece) ? `The ${pieceName(piece)} goes in one of the three towers.` : `The ${pieceName(piece)} goes on one of the 16 squares, not in a tower.`;
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
    st.hint = wantBig ? "Only big castles go in the towers." : "Big castles stay in the towers.";
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
      title: `${label(id)}: ${helpText(id)}`, draggable: disabled ? null : "true",
    }, castleTile(id, { owner: st.colour ?? 0, big: isBig(id), title: label(id) }),
    el("span", { class: "sj-tray-name", text: pieceName(id) }),
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
    ...(items.length ? items : [el("p", { class: "sj-tray-done", text: "✓ Every castle is placed." })]));
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
      content: id ? castleTile(id, { owner: st.colour ?? 0, big: wantBig }) : where.kind === "tower" ? el("span", { class: "sj-empty-tower", text: "tower" }) : null,
      cls, data,
      onClick: disabled ? null : () => { editorClick(st, where); redraw(); },
      drag: disabled || !id ? null : () => { st.sel = { ...where }; },
      drop: disabled ? null : () => { if (st.sel && !sameSpot(st.sel, where)) { editorClick(st, where); redraw(); } },
    };
  };
  return boardGrid({
    geo: st.geo,
    ownHalf,
    ariaLabel: "Your castles",
    cell: (dr, dc) => {
      if (dr >= own) return spot({ kind: "cell", i: dr - own, j: dc });
      if (dr < g.depth && opponentReady) return { content: castleTile(null, { owner: oppColour }), cls: ["sj-dim"] };
      return { cls: dr < g.depth ? ["sj-dim"] : [] };
    },
    tower: (where, pos) => (where === "bottom" ? spot({ kind: "tower", i: pos })
      : { content: opponentReady ? castleTile(null, { owner: oppColour, big: true }) : el("span", { class: "sj-empty-tower", text: "" }), cls: ["sj-dim"] }),
    bottomLabel: "Your towers: Flag, Black Knight and Jester",
    topLabel: ownHalf ? null : "Opponent's towers",
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
  const random = el("button", { type: "button", class: "btn btn-ghost", id: "sj-random", disabled, title: "Put every castle on a random square" }, glyph("die"), "Random");
  random.addEventListener("click", () => {
    st.draft = randomDraft(st.geo);
    st.sel = null;
    st.hint = "";
    redraw();
  });
  const clear = el("button", { type: "button", class: "btn btn-ghost", id: "sj-clear", disabled: disabled || isEmptyDraft(st.draft) }, "Clear");
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
      el("p", { class: "sj-help", text: "Click a castle in the tray, then a square. Click two placed castles to swap them. You can also drag them." }),
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
    st.decksError = err.status === 401 ? say("deck.login_first", { items: "setups" }) : errorText(err);
  }
  st.decksLoading = false;
  redraw();
}

function loadControl(st, redraw, disabled, onLoaded) {
  if (st.decks === undefined) loadDecks(st, redraw);
  const decks = st.decks || [];
  const select = el("select", { id: "sj-load", "aria-label": "Load a saved setup", disabled: disabled || !decks.length },
    el("option", { value: "", text: st.decks === undefined ? "Loading setups…" : decks.length ? "Load setup…" : "No saved setups yet" }),
    ...decks.map((d) => el("option", { value: String(d.id), text: d.name })));
  select.addEventListener("change", () => {
    const deck = decks.find((d) => String(d.id) === select.value);
    if (!deck) return;
    st.draft = draftFrom(deck.data, st.geo);
    st.sel = null;
    st.hint = `Loaded “${deck.name}”.`;
    st.loadedName = deck.name;
    if (onLoaded) onLoaded(deck);
    redraw();
  });
  return el("label", { class: "sj-load" }, select);
}

function saveControl(st, redraw, disabled) {
  const input = el("input", {
    type: "text", id: "sj-save-name", maxlength: "60", placeholder: "Name of this setup",
    value: st.saveName || "", "aria-label": "Name of this setup",
  });
  input.addEventListener("input", () => { st.saveName = input.value; });
  const button = el("button", { type: "button", class: "btn btn-ghost", id: "sj-save", disabled }, "Save as…");
  const msg = el("p", { class: `sj-save-msg${st.saveOk ? " ok" : st.saveMsg ? " bad" : ""}`, id: "sj-save-msg", role: "status", text: st.saveMsg || "" });
  const save = async () => {
    const name = (st.saveName || "").trim();
    if (!name) {
      st.saveMsg = "Give the setup a name first.";
      st.saveOk = false;
      redraw();
      return;
    }
    try {
      const deck = await api("POST", "/api/decks", { game: GAME, name, data: draftPayload(st.draft) });
      st.saveMsg = `Saved as “${deck.name}”.`;
      st.saveOk = true;
      st.decks = [...(st.decks || []), deck].sort((x, y) => x.name.localeCompare(y.name));
    } catch (err) {
      st.saveMsg = deckErrorText(err, { item: "setup", name });
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
  const name = (s) => (client && client.seatName ? client.seatName(s) : COLOUR_NAMES[s]);
  return [name(0), name(1)];
}

function sqKey(sq) {
  return `${sq[0]},${sq[1]}`;
}

function colourDot(seat) {
  return el("span", { class: `sj-dot sj-dot-${COLOURS[seat]}`, "aria-hidden": "true" });
}

function whoText(seat, me, nm) {
  if (seat === me) return "You";
  return nm[seat];
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
  return el("span", { class: `sj-variant sj-variant-${view.variant}`, id: "sj-variant", title: quest ? "Quest: roll the die and flip castles; castles never move." : "Victory: move your castles and attack." },
    quest ? glyph("die") : glyph("swords"), quest ? "Quest" : "Victory");
}

function youAre(seat) {
  if (seat === null) return el("span", { class: "sj-youare muted", text: "You are watching. Red is at the bottom." });
  return el("span", { class: `sj-youare sj-youare-${COLOURS[seat]}`, id: "sj-youare" }, colourDot(seat), `You are ${COLOUR_NAMES[seat]}: your castles are at the bottom.`);
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
    " Only you can see your pictures. Your opponent sees just the backs of your castles, and nobody sees where you put them until the game starts.");

  if (!player) {
    status.dataset.state = "spectating";
    status.append("Both players are placing their castles… ",
      ...[0, 1].map((s) => el("span", { class: `who-state${chosen.has(s) ? " done" : ""}`, dataset: { seat: s } }, colourDot(s), ` ${nm[s]} ${chosen.has(s) ? "is ready ✓" : "is placing…"} `)));
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
    status.append(el("strong", { text: pending ? "Sending your setup… " : "Your castles are placed. " }),
      chosen.has(opp) ? `${nm[opp]} is ready too.` : `Waiting for the opponent (${nm[opp]}) to place their castles…`);
    const board = editorBoard({ ...st, sel: null }, () => {}, { disabled: true, opponentReady: chosen.has(opp), oppColour: opp });
    return el("div", { class: "sj sj-setup", dataset: { phase: "setup", variant: view.variant } }, head, status, lock,
      el("div", { class: "sj-setup-layout" }, board, el("div", { class: "sj-panel" }, opponentLine(chosen, opp, nm), rulesReminder(view))));
  }

  status.dataset.state = "setup";
  status.append(el("strong", { text: "Place your castles. " }),
    placeHint());
  const complete = isComplete(st.draft);
  const confirm = el("button", {
    type: "button", class: "btn btn-big btn-confirm", id: "sj-confirm", disabled: !(complete && legal.length && !pending),
  }, complete ? "Confirm my setup" : `Confirm (${placedCount(st.draft)} of ${st.draft.towers.length + st.draft.rows.flat().length} placed)`);
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

function opponentLine(chosen, opp, nm) {
  return el("p", { class: `sj-opp-state${chosen.has(opp) ? " done" : ""}`, id: "sj-opp-state" }, colourDot(opp),
    chosen.has(opp) ? ` ${nm[opp]} has placed their castles ✓` : ` ${nm[opp]} is placing their castles…`);
}

function rulesReminder(view) {
  const quest = view.variant === "quest";
  return el("div", { class: "sj-reminder" },
    el("h3", { text: quest ? "Quest in a nutshell" : "Victory in a nutshell" }),
    quest
      ? el("ul", {}, el("li", { text: "Castles never move. On your turn the die is rolled, then you turn round one of the opponent's castles." }),
        el("li", { text: "If it shows the picture on the die, it falls. Dragons never fall!" }),
        el("li", { text: "Clear a way to the back row, then attack a big castle on your next turn: find the Flag to win." }))
      : el("ul", {}, el("li", { text: "Move one castle one square (not diagonally), or attack a castle next to it." }),
        el("li", { text: "The stronger one wins. The Wizard beats the King; only a Dwarf beats a Dragon; Dragons never move." }),
        el("li", { text: "Stand on the opponent's back row, then attack a big castle on your next turn: find the Flag to win." })));
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
    if (lakes.has(k)) return { cls: ["sj-lake-sq"], title: "A lake: nobody can go there", data: { sq: k } };
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
      content = castleTile(s.piece, { owner: s.owner, ghost: true, title: `${pieceName(s.piece)}, put back (the others see it when all are placed)` });
    }
    const target = targets.get(k);
    if (target) {
      cls.push(`sj-target-${target.kind}`);
      marker = target.kind;
      title = { move: "Move here", attack: "Attack this castle", flip: "Turn this castle round", place: "Put the castle back here" }[target.kind];
    } else if (quest && attackable.has(k) && !over && ["play", "roll", "flip"].includes(view.phase)) {
      cls.push("sj-attackable");
    }
    if (lastSquares.has(k)) cls.push("sj-last");
    if (restricted && sqKey(restricted.to) === k && !castle) {
      cls.push("sj-restricted");
      if (!target) marker = "restricted";
      title = "Back-and-forth rule: the castle that just went there and back may not go here again this turn.";
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
      st.hint = castle.piece === "dragon" ? "Dragons never move." : "This castle cannot move now: no free square or enemy next to it.";
    } else if (quest && view.phase === "flip") {
      st.hint = "Pick one of the glowing castles: only those can be reached.";
    } else {
      st.pick = null;
      st.hint = !quest && fromMap.size ? "First click one of your glowing castles." : "";
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
        : el("span", { class: "sj-empty-tower", text: "empty" });
      cls.push("sj-tower-empty");
    } else {
      content = castleTile(slot.piece || null, { owner, big: true });
    }
    const action = towerTargets.get(k);
    if (action) cls.push(action.place ? "sj-target-place" : "sj-target-tower");
    return {
      content, cls, marker: action ? (action.place ? "place" : "attack") : null,
      data: { tower: k },
      title: action && !action.place ? "Attack this big castle!" : undefined,
      onClick: action ? () => act(action) : null,
    };
  };

  const board = boardGrid({
    geo: view.geometry, cell, tower,
    topLabel: `${nm[top]}'s towers`,
    bottomLabel: player ? "Your towers" : `${nm[bottom]}'s towers`,
    ariaLabel: "The board",
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
    view.memory_aid ? el("span", { class: "sj-memory", title: "Castles you have seen stay shown, with an eye" }, glyph("eye"), "memory aid") : null),
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
    status.textContent = "The game is over. Every castle is shown now.";
    return status;
  }
  if (pending) {
    status.dataset.state = "sending";
    status.textContent = "Sending…";
    return status;
  }
  const clock = player ? el("span", { class: "seat-clock inline-clock", dataset: { clockSeat: seat } }, client && client.clockText ? client.clockText(seat) : "") : null;
  if (myTurn) {
    status.dataset.state = "my-turn";
    status.classList.add(`sj-status-${COLOURS[seat]}`);
    const strong = el("strong", { class: "sj-yourturn", text: "Your turn! " });
    if (view.phase === "return") {
      const r = view.returning || {};
      status.append(strong, "Your Black Knight was found, so your taken castles come back. ",
        el("span", {}, "Now place your ", el("strong", { text: pieceName(r.next) }), ` (${(r.placed || 0) + 1} of ${r.count}): click a glowing ${isBig(r.next) ? "tower" : "square"}.`));
      if (decline) {
        const b = el("button", { type: "button", class: "btn btn-small btn-ghost", id: "sj-decline", text: "Don't put them back" });
        b.addEventListener("click", () => act(decline));
        status.append(" ", b);
      }
    } else if (quest && view.phase === "flip") {
      status.append(strong, "The die shows ", el("strong", { text: pieceName(view.die) }),
        `. Click one of ${nm[opp]}'s glowing castles to turn it round: if it is ${a(view.die)}, it falls!`);
    } else if (quest) {
      status.append(strong, "You have reached the back row! ");
      const towers = legal.some((x) => x.attack_tower);
      if (towers) status.append("Click one of the opponent's big castles to attack it", roll ? ", or roll the die. " : ". ");
      if (roll) {
        const b = el("button", { type: "button", class: "btn btn-small", id: "sj-roll" }, glyph("die"), "Roll the die");
        b.addEventListener("click", () => act(roll));
        status.append(b);
      }
    } else {
      const towers = legal.some((x) => x.attack_tower);
      status.append(strong, towers ? "Your castle is on the back row: click it, then one of the opponent's big castles to attack it! Or move as usual. "
        : "Click one of your glowing castles, then a square: ● to move there, ⚔ to attack.");
      if (restrictedMine) {
        status.append(" ", el("span", { class: "sj-restricted-note", id: "sj-restricted-note" },
          glyph("noentry"), " Back-and-forth rule: the castle that went there and back may not make that move again now."));
      }
      if (!fromMap.size) status.append(" (No move is possible.)");
    }
    if (clock) status.append(" ", clock);
    return status;
  }
  status.dataset.state = player ? "their-turn" : "spectating";
  if (mover === null) {
    status.textContent = "Waiting…";
    return status;
  }
  const name = player && mover !== seat ? nm[mover] : `${nm[mover]} (${COLOUR_NAMES[mover]})`;
  status.append(colourDot(mover), " ");
  const moverClock = el("span", { class: "seat-clock inline-clock", dataset: { clockSeat: mover } }, client && client.clockText ? client.clockText(mover) : "");
  if (view.phase === "return") {
    const r = view.returning || {};
    status.append(`The Black Knight was found! ${name} is putting ${r.count || "the"} taken castles back (${r.placed || 0} placed so far)…`);
  } else if (view.phase === "roll") {
    status.append(`${name}: rolling the die…`);
  } else if (quest && view.phase === "flip") {
    status.append(`${name} rolled ${a(view.die)} and is choosing a castle to turn round…`);
  } else {
    status.append(player && mover !== seat ? `${name}'s turn. Waiting for them…` : `${name}'s turn.`);
  }
  status.append(" ", moverClock);
  return status;
}

function dieBox(face, mover, seat, nm, fresh) {
  return el("div", { class: `sj-die-box${fresh ? " sj-fresh" : ""}`, id: "sj-die", dataset: { face } },
    el("div", { class: "sj-die" }, pieceIcon(face)),
    el("div", {}, el("div", { class: "sj-die-title", text: `The die: ${pieceName(face)}` }),
      el("div", { class: "muted small", text: mover === seat ? `Turn round a castle: if it is ${a(face)}, it falls.` : `${nm[mover]} turns round a castle.` })));
}

function legend(quest, myTurn) {
  const items = quest
    ? [["flip", "can be turned round"], ["place", "put a castle back here"]]
    : [["move", "move here"], ["attack", "attack"], ["restricted", "not allowed (back and forth)"]];
  return el("div", { class: `sj-legend${myTurn ? "" : " muted"}` },
    ...items.map(([kind, text]) => el("span", { class: "sj-legend-item" }, el("span", { class: `sj-marker sj-marker-${kind} sj-marker-inline`, "aria-hidden": "true" }), ` ${text}`)),
    el("span", { class: "sj-legend-item" }, el("span", { class: "sj-badge sj-badge-inline" }, glyph("eye")), " seen"));
}

function takenPanel(view, seat, nm, over) {
  const side = (s) => {
    const list = (view.removed || [[], []])[s] || [];
    return el("div", { class: "sj-taken-side", dataset: { seat: s } },
      el("div", { class: "sj-taken-title" }, colourDot(s), ` ${s === seat ? "Your" : `${nm[s]}'s`} castles out of the game: ${list.length}`),
      el("div", { class: "sj-taken-list" }, ...list.map((p) => castleTile(p.piece || null, { owner: s, big: !!(p.piece && isBig(p.piece)) }))));
  };
  const order = seat === 1 ? [1, 0] : [0, 1];
  return el("div", { class: "sj-taken", id: "sj-taken" }, ...order.map(side));
}

/** "Red's Knight (4) attacks Blue's Unicorn (3): the Knight wins!" with both pictures. */
function lastEventPanel(notable, seat, nm, fresh) {
  const { ev, all } = notable;
  const owner = (s) => (s === seat ? "your" : `${nm[s]}'s`);
  const Owner = (s) => (s === seat ? "Your" : `${nm[s]}'s`);
  const who = (s) => (s === seat ? "You" : nm[s]);
  let pics = [];
  let text = "";
  let mood = "";
  switch (ev.kind) {
    case "combat": {
      const att = ev.attacker.piece;
      const def = ev.defender.piece;
      pics = [castleTile(att, { owner: ev.attacker.owner }), el("span", { class: "sj-vs", text: "⚔" }), castleTile(def, { owner: ev.defender.owner })];
      const result = ev.winner === "attacker" ? `the ${pieceName(att)} wins!`
        : ev.winner === "defender" ? `the ${pieceName(def)} wins!` : "they are equal: both are out!";
      text = `${Owner(ev.attacker.owner)} ${label(att)} attacks ${owner(ev.defender.owner)} ${label(def)}: ${result}`;
      const mine = ev.winner === "attacker" ? ev.attacker.owner : ev.winner === "defender" ? ev.defender.owner : null;
      mood = mine === null ? "even" : seat === null ? "" : mine === seat ? "good" : "bad";
      break;
    }
    case "flip": {
      const p = ev.castle.piece;
      pics = [el("span", { class: "sj-die sj-die-small" }, pieceIcon(ev.die)), el("span", { class: "sj-vs", text: "→" }), castleTile(p, { owner: ev.castle.owner })];
      text = `${who(ev.seat)} rolled ${a(ev.die)} and turned round ${owner(ev.castle.owner)} castle: ${a(p)}. `
        + (ev.falls ? "It matches, so it falls!" : "No match: it is turned back.");
      mood = seat === null ? "" : (ev.falls === (ev.seat === seat)) ? "good" : "bad";
      break;
    }
    case "die_rolled":
      pics = [el("span", { class: "sj-die" }, pieceIcon(ev.face))];
      text = `${who(ev.seat)} rolled ${a(ev.face)}.`;
      break;
    case "tower_attacked": {
      const p = ev.piece;
      pics = [el("span", { class: "sj-vs", text: "⚔" }), castleTile(p, { owner: ev.owner, big: true })];
      text = `${who(ev.seat)} attacked a big castle of ${ev.owner === seat ? "yours" : nm[ev.owner]}: the ${pieceName(p)}! `;
      if (p === "flag") text += "The flag is found: the game is over!";
      else if (p === "jester") text += "The Jester leaves the game.";
      else if (all.some((e) => e.kind === "castles_returning")) text += "The Black Knight leaves, but every castle taken so far comes back!";
      else if (all.some((e) => e.kind === "removed" && (e.castles || []).length > 1)) text += "The Black Knight leaves, and takes the attacker with him!";
      else text += "The Black Knight leaves the game.";
      mood = seat === null ? "" : (p === "black_knight") === (ev.seat === seat) ? "bad" : "good";
      break;
    }
    case "castles_returning":
      pics = ev.pieces.map((p) => castleTile(p, { owner: ev.owner, big: isBig(p) }));
      text = `${who(ev.owner)} ${ev.owner === seat ? "put" : "puts"} back ${ev.count} castle${ev.count === 1 ? "" : "s"}.`;
      break;
    case "castles_returned":
      text = `${who(ev.owner)} put back ${(ev.castles || []).length + (ev.towers || []).length} castles. The way to the back row is closed again.`;
      break;
    case "return_declined":
      text = `${who(ev.owner)} chose not to put castles back.`;
      break;
    case "moved":
      text = `${who(ev.seat)} moved a castle.`;
      break;
    case "setup_done":
      text = "Both sides are ready. Red starts!";
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
    headline = "A draw.";
    mood = "draw";
  } else if (seat === null) {
    headline = `${nm[winner]} (${COLOUR_NAMES[winner]}) wins!`;
    mood = "win";
  } else {
    headline = winner === seat ? "★ You win! ★" : "You lose.";
    mood = winner === seat ? "win" : "loss";
  }
  let detail = REASONS[outcome.reason] || outcome.reason || "";
  if (outcome.reason === "flag_captured" && winner >= 0) {
    detail = winner === seat ? `You found ${nm[loser]}'s Flag!` : loser === seat ? `${nm[winner]} found your Flag.` : `${nm[winner]} found ${nm[loser]}'s Flag.`;
  } else if (outcome.reason === "no_legal_action" && loser >= 0) {
    detail = `${loser === seat ? "You" : nm[loser]} had no castle left that could move.`;
  } else if (outcome.reason === "move_cap") {
    detail = "The turn limit was reached.";
  } else if (outcome.reason === "resigned" && loser >= 0) {
    detail = `${loser === seat ? "You" : nm[loser]} resigned.`;
  }
  const matchId = snapshot.match_id ?? (client && client.matchId);
  return el("div", { class: `result result-${mood}`, id: "result", dataset: { testid: "result", results: results.join(","), reason: outcome.reason || "" } },
    el("div", { class: "result-headline", text: headline }),
    el("div", { class: "result-detail", text: `${detail} Every castle is shown now.` }),
    el("div", { class: "result-links" },
      el("a", { class: "btn", href: "/lobby", text: "Back to the lobby" }),
      matchId && !(client && client.showPicks) ? el("a", { class: "btn btn-ghost", href: `/matches/${matchId}/replay`, id: "watch-replay", text: "Watch the replay" }) : null));
}

function waitingForPlayers(snapshot, nm, client) {
  const url = window.location.href.replace(/\/replay$/, "");
  const copy = el("button", { type: "button", class: "btn btn-small btn-ghost", text: "Copy link" });
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = "Copied";
    } catch (err) {
      copy.textContent = "Select and copy the link";
    }
  });
  const opts = (client && client.options) || {};
  const expiry = client && client.expirySeconds;
  const cancel = cancelButton(client, snapshot);
  const rules = [];
  rules.push(opts.variant === "quest" ? "Quest (dice, castles never move)" : "Victory (move and attack)");
  if (opts.memory_aid) rules.push("memory aid on");
  if (opts.move_cap) rules.push(`a draw after ${opts.move_cap} turns`);
  return el("div", { class: "sj sj-waiting panel", id: "waiting-for-players" },
    el("h2", { text: "Waiting for an opponent to join…" }),
    joinButton(snapshot, client),
    el("p", { class: "muted", id: "match-rules", text: `This match: ${rules.join(", ")}.` }),
    el("p", { text: "The match starts as soon as a second player joins from the lobby. You can also send them this link:" }),
    el("p", {}, el("code", { class: "hash", text: url }), " ", copy),
    el("p", { class: "muted", text: `Players so far: ${(snapshot.seats || []).filter((s) => s.user || s.bot).map((s) => nm[s.seat]).join(", ") || "none"}` }),
    cancel ? el("p", { class: "waiting-cancel" }, cancel,
      el("span", { class: "muted small", text: expiry ? ` If nobody joins within ${formatDuration(expiry)}, it is closed by itself.` : "" })) : null);
}

// ================================================================== the log

/** One log line for an input, or null to let the events speak. */
export function describeInput(entry, client) {
  const who = entry.seat === client.seat ? "You" : client.seatName(entry.seat);
  const evs = (entry.events || []).map((e) => e.kind);
  const setup = (entry.action && entry.action.setup) || (entry.hidden && !evs.some((k) => k.startsWith("castle")));
  switch (entry.kind) {
    case "commit":
    case "action":
    case "bot":
      if (setup) return entry.seat === client.seat ? "You placed your castles." : `${who} has placed their castles (hidden).`;
      return null;
    case "timeout":
      return `${who === "You" ? "Your" : `${who}'s`} time ran out: the computer played${setup ? " (placed the castles)" : ""}.`;
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
  const who = (s) => (s === me ? "You" : nm[s]);
  const whose = (s) => (s === me ? "your" : `${nm[s]}'s`);
  switch (ev.kind) {
    case "setup_done":
      return "Both players have placed their castles. Red starts!";
    case "die_rolled":
      return `${who(ev.seat)} rolled the die: ${pieceName(ev.face)}.`;
    case "flip":
      return `${who(ev.seat)} turned round ${whose(ev.castle.owner)} castle: ${a(ev.castle.piece)}. ${ev.falls ? "It falls!" : "No match."}`;
    case "moved":
      return `${who(ev.seat)} moved a castle.`;
    case "combat": {
      const att = ev.attacker.piece;
      const def = ev.defender.piece;
      const res = ev.winner === "attacker" ? `the ${pieceName(att)} wins` : ev.winner === "defender" ? `the ${pieceName(def)} wins` : "both are out";
      const Whose = whose(ev.attacker.owner);
      return `${Whose[0].toUpperCase()}${Whose.slice(1)} ${label(att)} attacked ${whose(ev.defender.owner)} ${label(def)}: ${res}.`;
    }
    case "tower_attacked":
      return `${who(ev.seat)} attacked a big castle of ${ev.owner === me ? "yours" : nm[ev.owner]}: the ${pieceName(ev.piece)}!`;
    case "removed":
      if (ev.cause === "black_knight" && (ev.castles || []).length > 1) return "The Black Knight takes the attacker with him.";
      return null;
    case "castles_returning":
      return `${who(ev.owner)} ${ev.owner === me ? "put" : "puts"} back ${ev.count} taken castle${ev.count === 1 ? "" : "s"}.`;
    case "castle_placed":
      return ev.piece ? `You put your ${pieceName(ev.piece)} back.` : `${who(ev.owner)} put a castle back.`;
    case "castles_returned":
      return `${who(ev.owner)} put back every taken castle.`;
    case "return_declined":
      return `${who(ev.owner)} chose not to put castles back.`;
    case "game_over": {
      const r = ev.results || [];
      if (r[0] === "draw") return `Game over: a draw (${REASONS[ev.reason] || ev.reason}).`;
      const w = r.indexOf("win");
      if (ev.reason === "flag_captured") return `Game over: ${who(w)} found the Flag and ${w === me ? "win" : "wins"}!`;
      return `Game over: ${who(w)} ${w === me ? "win" : "wins"} (${REASONS[ev.reason] || ev.reason}).`;
    }
    default:
      return null;
  }
}
