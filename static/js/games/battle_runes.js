// Battle Runes: draws a snapshot (scores, both public hands, the last turn's breakdown, the history,
// the result) and lets a player pick exactly 3 runes and confirm. See rules/battle_runes.md.
//
// Module contract (static/js/match_client.js): setup(client), render(root, snapshot, client),
// describeEvent(event, entry, client), describeInput(entry, client).

import { el, loadGameData, steadyText } from "/static/js/api.js";
import { dropDraft, readDraft, saveDraft } from "/static/js/drafts.js";
import { abortedNotice, cancelButton, formatDuration, joinButton } from "/static/js/match_client.js";
import { knows, say } from "/static/js/messages.js";

// Every word a player reads comes from static/js/messages.js (`br.*`, in the page's language). A
// rune keeps its original Russian name (`name_ru` of the catalog) on its card; the page's language's
// name (`br.rune.<id>`) is beside it in the card's title, with its rule text (`br.text.<id>`).
const PICK = 3;

/** The legend of the number in a rune's corner: when it applies in the turn. */
export function orderLegend() {
  return say("br.order.legend");
}

/** The tooltip of a rune's corner number. */
export function orderTitle(order) {
  return say("br.order.title", { order, what: say(`br.order.${order}`, {}, say("br.kind.modifier")) });
}

let catalog = null; // id -> {id, name, name_ru, kind, order, text}
let faces = {}; // id -> face ("S1+5", "×2 S"), derived on the server (app/web/games/battle_runes.py)
const uiState = new WeakMap(); // root -> {selected: [], turn, lastShownTurn, hint}

// ------------------------------------------------------------------ data

/** Load the rune catalog and faces once, from the page's game-data (or /api/games/battle_runes). */
export async function setup() {
  if (catalog) return;
  try {
    const game = await loadGameData("battle_runes");
    const list = Array.isArray(game.catalog) ? game.catalog : (game.catalog && game.catalog.runes) || [];
    catalog = Object.fromEntries(list.map((r) => [r.id, r]));
    faces = game.labels || {};
  } catch (err) {
    catalog = {};
  }
}

function rune(id) {
  if (catalog && catalog[id]) return catalog[id];
  const kind = /^S\d/.test(id) ? "build" : /^R\d/.test(id) ? "destroy" : "modifier";
  return { id, name: id, kind, order: null, text: "" };
}

/** A rune's original (Russian) name, as printed on its card. */
function originalName(r) {
  return r.name_ru || r.name;
}

/** A rune's name in the page's language (the catalog's English name if the words lack it). */
function localName(r) {
  return say(`br.rune.${r.id}`, {}, r.name);
}

/** A rune's rule text in the page's language. */
function localText(r) {
  return r.text ? say(`br.text.${r.id}`, {}, r.text) : "";
}

/** A card's tooltip: the original name, the page's language's name beside it, and the rule. */
function runeTitle(r) {
  const local = localName(r);
  const name = local && local !== originalName(r) ? `${originalName(r)} (${local})` : originalName(r);
  const text = localText(r);
  return text ? `${name}: ${text}` : name;
}

/** Short face label ("S1+5", "R1+S", "×2 S", "Fire"), as the server derives it, in the page's
 * language where it has words (`br.face.<id>`); the id if unknown. */
export function shortLabel(id) {
  return say(`br.face.${id}`, {}, faces[id] || id);
}

/** The words of one resolution step: the engine's {code, params} through static/js/messages.js
 * (a `seat` param is named), or, for a turn_resolved event stored before steps carried codes, its
 * English `note` sentence (with "seat 0"/"seat 1" named). */
export function stepText(st, nm) {
  if (st.code && knows(`br.step.${st.code}`)) {
    const p = { ...(st.params || {}) };
    if (p.seat !== undefined && p.seat !== null) p.who = nm[p.seat];
    for (const key of ["what", "bonus_what", "source"]) if (p[key] !== undefined) p[key] = say(`br.what.${p[key]}`, {}, p[key]);
    if (p.condition !== undefined) p.condition = say(`br.condition.${p.condition}`, {}, p.condition);
    return say(`br.step.${st.code}`, p, st.note || st.code);
  }
  return (st.note || "").replace(/\bseat ([01])\b/g, (_, s) => nm[Number(s)]);
}

function sameSet(a, b) {
  if (a.length !== b.length) return false;
  const sa = [...a].sort();
  const sb = [...b].sort();
  return sa.every((x, i) => x === sb[i]);
}

function names(snapshot, client) {
  const name = (seat) => (client && client.seatName ? client.seatName(seat) : say("br.player", { n: seat + 1 }));
  return [name(0), name(1)];
}

/** Every turn_resolved event the client has seen, by turn (oldest first). */
function resolvedTurns(client) {
  const byTurn = new Map();
  for (const entry of (client && client.events) || []) {
    for (const ev of entry.events || []) {
      if (ev.kind === "turn_resolved" && !ev.redacted) byTurn.set(ev.turn, { ...ev, version: entry.version });
    }
  }
  return [...byTurn.values()].sort((a, b) => a.turn - b.turn);
}

/** A seat's pick for the current turn as far as the event log shows it (one's own pick, or any
 * pick in a replay, where everything is revealed). */
function myLockedPick(client, seat) {
  let lastResolved = 0;
  let pick = null;
  for (const entry of (client && client.events) || []) {
    if ((entry.events || []).some((e) => e.kind === "turn_resolved")) {
      lastResolved = entry.version;
      pick = null;
    } else if (entry.seat === seat && entry.action && entry.action.runes && entry.version > lastResolved) {
      pick = entry.action.runes;
    }
  }
  return pick;
}

// ------------------------------------------------------------------ drawing helpers

const SVG_NS = "http://www.w3.org/2000/svg";

function icon(id) {
  const paths = {
    FIRE: "M12 2c1 4 5 6 5 11a5 5 0 0 1-10 0c0-2 1-4 2-5 0 2 1 3 2 3 0-3-1-6 1-9z",
    WATER: "M12 2c3 5 6 8 6 12a6 6 0 0 1-12 0c0-4 3-7 6-12z",
    ZERO: "M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18zm0 3a6 6 0 0 1 4.9 9.4L8.6 7.1A6 6 0 0 1 12 6zm-4.9 2.6l8.3 8.3A6 6 0 0 1 7.1 8.6z",
  };
  if (!paths[id]) return null;
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("class", `rune-icon icon-${id.toLowerCase()}`);
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", paths[id]);
  svg.append(path);
  return svg;
}

/**
 * A rune card. opts: {selectable, selected, disabled, onClick, small, dimmed}
 */
export function runeCard(id, opts = {}) {
  const r = rune(id);
  const tag = opts.selectable ? "button" : "div";
  const cls = ["rune", `rune-${r.kind}`];
  if (opts.small) cls.push("rune-small");
  if (opts.selected) cls.push("selected");
  if (opts.dimmed) cls.push("dimmed");
  if (opts.selectable) cls.push("selectable");
  const attrs = {
    class: cls.join(" "),
    dataset: { rune: id, kind: r.kind },
    title: runeTitle(r),
  };
  if (opts.selectable) {
    attrs.type = "button";
    attrs["aria-pressed"] = opts.selected ? "true" : "false";
    attrs.disabled = !!opts.disabled;
    attrs.onclick = opts.onClick;
  }
  const children = [
    el("div", { class: "rune-head" }, icon(id), el("span", { class: "rune-code", text: shortLabel(id) })),
    el("div", { class: "rune-name", lang: r.name_ru ? "ru" : null, text: originalName(r) }),
  ];
  if (!opts.small) children.push(el("div", { class: "rune-text", text: localText(r) }));
  children.push(el("div", { class: "rune-kind", text: say(`br.kind.${r.kind}`, {}, r.kind) }));
  if (r.order !== null && r.order !== undefined) {
    children.push(el("div", { class: "rune-order", title: orderTitle(r.order), "aria-label": say("br.order.aria", { order: r.order }), text: String(r.order) }));
  }
  if (opts.selected && opts.selectable) children.push(el("div", { class: "rune-check", "aria-hidden": "true", text: "✓" }));
  return el(tag, attrs, ...children);
}

/** A step's order cell: the rune's order number, or for the "+own R" / "+own S" part of S1+r and
 * R1+s (code "cross") when that part applies: after orders 1 and 2, whose totals it adds (the
 * spec's step 4), which is why the row comes after the destruction rows. */
export function orderCell(st) {
  if (st.code === "cross") {
    return el("td", { class: "num", title: say("br.order.cross_title", { source: st.params?.source ?? "" }), text: say("br.order.cross") });
  }
  return el("td", { class: "num", text: st.order === null || st.order === undefined ? "–" : String(st.order) });
}

function chip(id) {
  const r = rune(id);
  return el("span", { class: `chip chip-${r.kind}`, title: runeTitle(r), dataset: { rune: id } }, shortLabel(id));
}

function ball(kind, value, label) {
  return el("span", { class: `ball ball-${kind}`, title: label, "aria-label": `${label}: ${value}` }, String(value));
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

function scoreTrack(name, score, delta, winScore, { me = false, seat }) {
  const lo = 0;
  const hi = winScore;
  const pct = Math.max(0, Math.min(100, ((score - lo) / (hi - lo)) * 100));
  const marker = el("div", { class: "track-marker", style: `left: ${pct}%` });
  const danger = score <= Math.max(5, winScore * 0.1);
  const close = score >= winScore * 0.8;
  return el("div", { class: `score-row${me ? " score-me" : ""}`, dataset: { seat } },
    el("div", { class: "score-name" }, name, me ? el("span", { class: "badge badge-you", text: say("br.you") }) : null),
    el("div", { class: `score-value${danger ? " danger" : ""}${close ? " close" : ""}`, dataset: { testid: `score-${seat}` } },
      String(score),
      delta !== null && delta !== undefined ? el("span", { class: `score-delta ${delta > 0 ? "up" : delta < 0 ? "down" : ""}`, text: signed(delta) }) : null),
    el("div", { class: "track", "aria-hidden": "true" },
      el("div", { class: "track-fill", style: `width: ${pct}%` }),
      el("span", { class: "track-end track-lose", text: `${lo}` }),
      el("span", { class: "track-end track-win", text: `${hi}` }),
      marker));
}

// ------------------------------------------------------------------ the last turn's breakdown

/** The breakdown of one resolved turn (a turn_resolved event or view.last). */
export function breakdown(res, nm, { turn = null } = {}) {
  if (!res) return el("p", { class: "muted", text: say("br.no_turn_yet") });
  const [a, b] = nm;
  const picks = res.picks || [[], []];
  const before = res.scores_before || [0, 0];
  const after = res.scores_after || res.scores || [0, 0];
  const settled = res.scores_settled || after;
  const fs = res.final_S || [0, 0];
  const fr = res.final_R || [0, 0];
  const bs = res.base_S || [0, 0];
  const brr = res.base_R || [0, 0];

  const side = (seat) => el("div", { class: "reveal-side", dataset: { seat } },
    el("div", { class: "reveal-name", text: nm[seat] }),
    el("div", { class: "reveal-cards" }, ...(picks[seat] || []).map((id) => runeCard(id, { small: true }))),
    el("div", { class: "reveal-balls" },
      ball("blue", bs[seat], say("br.ball.blue")),
      ball("black", brr[seat], say("br.ball.black")),
      el("span", { class: "muted small", text: say("br.ball.legend") })));

  const stepRows = (res.steps || []).map((st, i) => el("tr", {},
    el("td", { class: "num", text: String(i + 1) }),
    el("td", {}, chip(st.rune)),
    el("td", { text: nm[st.seat] }),
    orderCell(st),
    el("td", { class: "note", text: stepText(st, nm) }),
    el("td", { class: "num", text: `${st.S[0]} : ${st.S[1]}` }),
    el("td", { class: "num", text: `${st.R[0]} : ${st.R[1]}` })));
  const steps = el("table", { class: "steps-table" },
    el("thead", {}, el("tr", {},
      el("th", { text: "#" }), el("th", { text: say("br.th.rune") }), el("th", { text: say("br.th.by") }), el("th", { text: say("br.th.order") }),
      el("th", { text: say("br.th.effect") }), el("th", { class: "num", text: "S" }), el("th", { class: "num", text: "R" }))),
    el("tbody", {}, ...stepRows));

  const settle = (seat) => {
    const other = 1 - seat;
    return el("li", { dataset: { seat } },
      el("strong", { text: nm[seat] }),
      `: ${say("br.settle", { before: before[seat], s: fs[seat], r: fr[other], other: nm[other] })} = `,
      el("strong", { text: String(settled[seat]) }),
      el("span", { class: `score-delta ${settled[seat] - before[seat] > 0 ? "up" : settled[seat] - before[seat] < 0 ? "down" : ""}`, text: ` (${signed(settled[seat] - before[seat])})` }));
  };
  const notes = [];
  if (res.annulled) notes.push(el("p", { class: "note-strong", text: say("br.annulled") }));
  if (res.swap_all_applied) {
    notes.push(el("p", { class: "note-strong", text: res.swap_all_applied % 2
      ? say("br.swap_all", { a: settled[0], b: settled[1], c: after[0], d: after[1] })
      : say("br.swap_all_cancel") }));
  }
  return el("div", { class: "breakdown", dataset: { turn: turn ?? "" } },
    el("div", { class: "reveal-picks" }, side(0), el("div", { class: "vs", text: say("br.vs") }), side(1)),
    el("details", { class: "steps-details", open: true }, el("summary", { text: say("br.steps") }),
      el("p", { class: "muted small", text: say("br.steps_legend", { a, b }) }),
      el("div", { class: "table-scroll" }, steps)),
    el("div", { class: "finals" },
      el("div", {}, el("span", { class: "muted", text: `${say("br.final_s")} ` }), `${a} ${fs[0]} · ${b} ${fs[1]}`),
      el("div", {}, el("span", { class: "muted", text: `${say("br.final_r")} ` }), `${a} ${fr[0]} · ${b} ${fr[1]}`)),
    el("ul", { class: "settlement" }, settle(0), settle(1)),
    ...notes,
    el("p", { class: "score-change" }, `${say("br.scores")} `, el("strong", { text: `${before[0]} : ${before[1]}` }), " → ",
      el("strong", { text: `${after[0]} : ${after[1]}` })));
}

// ------------------------------------------------------------------ result

function resultInfo(snapshot) {
  const outcome = snapshot.result || (snapshot.view && snapshot.view.outcome);
  if (!outcome) return null;
  return outcome;
}

/** The result's second line, from the outcome's codes: who resigned ("You resigned." for the
 * resigning seat), the score when there is one, and the reason. */
function resultDetail(outcome, seat, nm, scores) {
  const parts = [];
  if (outcome.reason === "resigned") {
    const who = outcome.resigned && outcome.resigned.length ? outcome.resigned : [(outcome.results || []).indexOf("loss")];
    parts.push(who.filter((s) => s === 0 || s === 1).map((s) => (s === seat ? say("result.you_resigned") : say("result.resigned", { who: nm[s] }))).join(" "));
  }
  if (typeof scores[0] === "number" && typeof scores[1] === "number") parts.push(`${nm[0]} ${scores[0]} : ${scores[1]} ${nm[1]}`);
  if (knows(`br.reason.${outcome.reason}`)) parts.push(say(`br.reason.${outcome.reason}`));
  return parts.join(" · ");
}

function resultBanner(outcome, seat, nm) {
  const results = outcome.results || [];
  let headline;
  let mood;
  if (results[0] === "win" && results[1] === "win") {
    headline = say("br.result.both_win");
    mood = "win";
  } else if (results[0] === "loss" && results[1] === "loss") {
    headline = say("br.result.both_lose");
    mood = "loss";
  } else if (results[0] === "draw") {
    headline = say("br.result.draw");
    mood = "draw";
  } else {
    const winner = results.indexOf("win");
    if (seat === null || seat === undefined) {
      headline = say("br.result.wins", { who: nm[winner] });
      mood = "win";
    } else {
      headline = say(winner === seat ? "br.result.you_win" : "br.result.you_lose");
      mood = winner === seat ? "win" : "loss";
    }
  }
  if (seat !== null && seat !== undefined && results[0] === results[1] && results[0] !== "draw") {
    headline = say(results[0] === "win" ? "br.result.both_win_you" : "br.result.both_lose_you");
  }
  const scores = outcome.scores || [];
  return el("div", { class: `result result-${mood}`, id: "result", dataset: { testid: "result", results: results.join(",") } },
    el("div", { class: "result-headline", text: headline }),
    el("div", { class: "result-detail", text: resultDetail(outcome, seat, nm, scores) }),
    el("div", { class: "result-links" },
      el("a", { class: "btn", href: "/lobby", text: say("br.result.back") }),
      snapshot_match_id && replay_link ? el("a", { class: "btn btn-ghost", href: `/matches/${snapshot_match_id}/replay`, id: "watch-replay", text: say("br.result.replay") }) : null),
    el("p", { class: "muted small", text: say("br.result.seed") }));
}

let snapshot_match_id = null;
/** whether the result may link to the replay (not on the replay page itself: client.replay) */
let replay_link = true;

// ------------------------------------------------------------------ render

/** Draw `snapshot` into `root`; a seated player can pick 3 runes and confirm (client.act). */
/**
 * The "choosing… / has chosen ✓" mark of one seat; it keeps its size when the text changes (api.js,
 * steadyText), so the opponent's choice arriving mid-pick moves none of the player's runes.
 * @param {boolean} done whether the seat has chosen
 * @param {string} who the seat's name
 * @param {object} [attrs] more attributes (an id, a dataset)
 */
function whoState(done, who, attrs = {}) {
  const both = [say("br.who.chosen", { who }), say("br.who.choosing", { who })];
  return steadyText("span", { ...attrs, class: `who-state${done ? " done" : ""}` }, both[done ? 0 : 1], both);
}

export function render(root, snapshot, client) {
  const view = snapshot.view;
  snapshot_match_id = snapshot.match_id || (client && client.matchId) || null;
  replay_link = !(client && client.replay);
  const nm = names(snapshot, client);
  const seat = snapshot.seat;
  const player = seat === 0 || seat === 1;
  let st = uiState.get(root);
  if (!st) {
    st = { selected: [], turn: null, lastShownTurn: null, hint: "" };
    uiState.set(root, st);
  }
  if (snapshot.status === "aborted") {
    root.replaceChildren(abortedNotice(snapshot, { expirySeconds: client && client.expirySeconds }));
    return;
  }
  if (snapshot.status === "waiting" || !view) {
    root.replaceChildren(waitingForPlayers(snapshot, nm, client));
    return;
  }
  const turnNow = view.turn + 1;
  const matchId = snapshot.match_id ?? (client && client.matchId);
  const stamp = `turn:${turnNow}`;
  if (st.turn !== turnNow) {
    st.turn = turnNow;
    // the picks made before a reload of this turn (a draft of another turn is dropped)
    const saved = player && client && !client.showPicks ? readDraft(matchId, seat, stamp) : null;
    st.selected = Array.isArray(saved) ? saved : [];
    st.hint = "";
  }
  const winScore = (view.options && view.options.win_score) || 50;
  const over = snapshot.status === "finished" || view.over;
  const legal = snapshot.legal || [];
  const chosen = new Set(snapshot.chosen || []);
  const pending = client && client.pending;
  const canPick = player && !over && legal.length > 0 && !chosen.has(seat) && !pending;
  // keep only runes still in hand
  const myHand = player ? view.hands[seat] : [];
  st.selected = st.selected.filter((id) => myHand.includes(id));
  if (player && client && !client.showPicks) {
    if (canPick) saveDraft(matchId, seat, stamp, snapshot.version, st.selected.length ? st.selected : null);
    else if (over || chosen.has(seat)) dropDraft(matchId, seat);
  }

  const last = view.last;
  const deltas = last ? [0, 1].map((s) => (last.scores_after || view.scores)[s] - last.scores_before[s]) : [null, null];
  const order = player ? [seat, 1 - seat] : [0, 1];

  // status line
  const status = el("div", { class: "br-status", id: "br-status", "aria-live": "polite" });
  if (over) {
    status.textContent = say("br.status.over");
  } else if (!player) {
    status.append(`${say("br.status.turn", { turn: turnNow })} `, ...[0, 1].map((s) => whoState(chosen.has(s), nm[s], { dataset: { seat: s } })));
    status.dataset.state = "spectating";
  } else if (pending) {
    status.textContent = say("br.status.sending");
    status.dataset.state = "sending";
  } else if (chosen.has(seat)) {
    const opp = 1 - seat;
    status.append(el("strong", { text: `${say("br.status.locked")} ` }),
      say(chosen.has(opp) ? "br.status.opp_chosen" : "br.status.waiting", { who: nm[opp] }));
    status.dataset.state = "waiting";
  } else if (legal.length) {
    const opp = 1 - seat;
    status.append(el("strong", { text: `${say("br.status.pick", { turn: turnNow, n: PICK })} ` }),
      whoState(chosen.has(opp), nm[opp], { id: "opp-state" }));
    status.dataset.state = "picking";
  } else {
    status.textContent = say("br.status.dealing");
  }

  const scores = el("div", { class: "br-scores" },
    ...order.map((s) => scoreTrack(nm[s], view.scores[s], deltas[s], winScore, { me: s === seat, seat: s })),
    el("p", { class: "muted small thresholds" },
      say("br.thresholds", { start: (view.options && view.options.start_score) ?? 25, win: winScore, turn: view.turn })));

  // hands: your own first in the page (phones show it first; wider screens put the opponent's
  // above it, across the table, with CSS); a spectator sees seat 0 then seat 1
  const hands = el("div", { class: `br-hands${player ? " br-hands-player" : ""}` });
  for (const s of order) {
    const mine = s === seat;
    const hand = view.hands[s] || [];
    let lockedPick = null;
    if (mine && chosen.has(seat)) lockedPick = myLockedPick(client, seat) || (pending && pending.action.runes);
    if (mine && pending) lockedPick = pending.action.runes;
    if (!mine && client && client.showPicks && !over) lockedPick = myLockedPick(client, s); // replays only
    const cards = hand.map((id) => {
      if (mine && canPick) {
        const selected = st.selected.includes(id);
        return runeCard(id, {
          selectable: true, selected,
          onClick: () => {
            if (st.selected.includes(id)) {
              st.selected = st.selected.filter((x) => x !== id);
              st.hint = "";
            } else if (st.selected.length >= PICK) {
              st.hint = say("br.hint.only", { n: PICK });
            } else {
              st.selected = [...st.selected, id];
              st.hint = "";
            }
            render(root, snapshot, client);
            const again = root.querySelector(`.br-mine [data-rune="${id}"]`);
            if (again) again.focus();
          },
        });
      }
      if (lockedPick) return runeCard(id, { selected: lockedPick.includes(id), dimmed: !lockedPick.includes(id) });
      return runeCard(id, {});
    });
    const title = mine ? say("br.hand.mine") : say(player ? "br.hand.opponent" : "br.hand.other", { who: nm[s] });
    const sizes = say("br.hand.sizes", { deck: view.deck_sizes ? view.deck_sizes[s] : "?", discard: view.discard_sizes ? view.discard_sizes[s] : "?" });
    const section = el("section", { class: `br-hand${mine ? " br-mine" : " br-other"}`, dataset: { seat: s, testid: mine ? "my-hand" : `hand-${s}` } },
      el("h3", {}, title, " ", el("span", { class: "muted small", text: sizes }),
        // (kept in place while the opponent chooses, only hidden: its arrival must not move the cards
        // the player is clicking)
        !mine && !over ? el("span", { class: `badge badge-ok${chosen.has(s) ? "" : " badge-reserved"}`, "aria-hidden": chosen.has(s) ? null : "true", text: say("br.badge.chosen") }) : null),
      el("div", { class: "rune-row" }, ...cards));
    if (mine && canPick) {
      const match = legal.find((a) => sameSet(a.runes || [], st.selected));
      const confirm = el("button", {
        type: "button", class: "btn btn-big btn-confirm", id: "confirm-pick",
        disabled: !(st.selected.length === PICK && match),
        onclick: () => {
          const action = legal.find((a) => sameSet(a.runes || [], st.selected));
          if (!action || !client) return;
          client.act(action);
        },
      }, st.selected.length === PICK ? say("br.confirm.ready", { n: PICK }) : say("br.confirm.count", { count: st.selected.length, n: PICK }));
      const clear = el("button", {
        type: "button", class: "btn btn-ghost", id: "clear-pick", disabled: st.selected.length === 0,
        onclick: () => { st.selected = []; st.hint = ""; render(root, snapshot, client); },
      }, say("br.clear"));
      const myClock = el("span", { class: "seat-clock inline-clock", dataset: { clockSeat: seat } },
        client && client.clockText ? client.clockText(seat) : "");
      section.append(el("div", { class: "br-actions" },
        el("span", { class: "pick-count", id: "pick-count", text: say("br.pick_count", { count: st.selected.length, n: PICK }) }),
        myClock, clear, confirm),
      el("p", { class: "hint", id: "pick-hint", text: st.hint || "" }));
    } else if (mine && lockedPick && !over) {
      section.append(el("p", { class: "hint", text: say("br.hidden") }));
    }
    hands.append(section);
  }
  hands.append(el("p", { class: "muted small order-legend", id: "order-legend" },
    el("span", { class: "rune-order rune-order-inline", "aria-hidden": "true", text: "1" }), " ", orderLegend()));

  // last turn and history
  const turns = resolvedTurns(client);
  const fresh = last && st.lastShownTurn !== null && st.lastShownTurn !== view.turn;
  st.lastShownTurn = view.turn;
  const reveal = el("section", { class: `br-reveal${fresh ? " fresh" : ""}`, id: "last-turn", dataset: { turn: view.turn } },
    el("h3", { text: last ? say("br.reveal.turn", { turn: view.turn }) : say("br.reveal.title") }),
    last ? breakdown(last, nm, { turn: view.turn }) : el("p", { class: "muted", text: say("br.reveal.empty") }));

  const history = el("section", { class: "br-history", id: "history" }, el("h3", { text: say("br.history") }));
  if (!turns.length) history.append(el("p", { class: "muted", text: say("br.history.empty") }));
  const list = el("ol", { class: "history-list", reversed: true });
  for (const t of [...turns].reverse()) {
    const before = t.scores_before || [0, 0];
    const after = t.scores_after || t.scores || [0, 0];
    list.append(el("li", { class: "history-item", dataset: { turn: t.turn } },
      el("details", {},
        el("summary", {},
          el("span", { class: "history-turn", text: say("br.history.turn", { turn: t.turn }) }),
          el("span", { class: "history-picks" },
            el("span", { class: "muted", text: `${nm[0]}: ` }), ...(t.picks ? t.picks[0] : []).map(chip),
            el("span", { class: "muted", text: ` ${nm[1]}: ` }), ...(t.picks ? t.picks[1] : []).map(chip)),
          el("span", { class: "history-score", text: `${before[0]} : ${before[1]} → ${after[0]} : ${after[1]}` })),
        breakdown(t, nm, { turn: t.turn }))));
  }
  if (turns.length) history.append(list);

  const parts = [];
  const outcome = over ? resultInfo(snapshot) : null;
  if (outcome) parts.push(resultBanner(outcome, seat, nm));
  // a match over before any turn (resigned, timed out) has nothing to reveal: no placeholder then
  parts.push(status, scores, hands);
  if (last || !over) parts.push(reveal);
  parts.push(history);
  root.replaceChildren(el("div", { class: "br", dataset: { turn: view.turn, over: over ? "true" : "false" } }, ...parts));
}

function waitingForPlayers(snapshot, nm, client) {
  const url = window.location.href.replace(/\/replay$/, "");
  const copy = el("button", { type: "button", class: "btn btn-small btn-ghost", text: say("br.waiting.copy") });
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = say("br.waiting.copied");
    } catch (err) {
      copy.textContent = say("br.waiting.copy_failed");
    }
  });
  const expiry = client && client.expirySeconds;
  const cancel = cancelButton(client, snapshot);
  return el("div", { class: "br br-waiting", id: "waiting-for-players" },
    el("h2", { text: say("br.waiting.title") }),
    joinButton(snapshot, client),
    el("p", { text: say("br.waiting.text") }),
    el("p", {}, el("code", { class: "hash", text: url }), " ", copy),
    el("p", { class: "muted", text: say("br.waiting.players", { list: (snapshot.seats || []).filter((s) => s.user || s.bot).map((s) => nm[s.seat]).join(", ") || say("br.waiting.nobody") }) }),
    rulesLine(client),
    cancel ? el("p", { class: "waiting-cancel" }, cancel,
      el("span", { class: "muted small", text: expiry ? ` ${say("br.waiting.expiry", { time: formatDuration(expiry) })}` : "" })) : null);
}

/** "This match: first to 40, both start at 10.": the scores this match is played with. */
function rulesLine(client) {
  const opts = client && client.options;
  if (!opts) return null;
  const parts = [];
  if (opts.win_score !== undefined) parts.push(say("br.rules.first_to", { n: opts.win_score }));
  if (opts.start_score !== undefined) parts.push(say("br.rules.start_at", { n: opts.start_score }));
  return parts.length ? el("p", { class: "muted", id: "match-rules", text: say("br.rules.line", { list: parts.join(", ") }) }) : null;
}

// ------------------------------------------------------------------ the log

/** One log line for an input (who chose), or null for the client's default. */
export function describeInput(entry, client) {
  const who = client.seatName(entry.seat);
  const own = entry.seat === client.seat && entry.action && entry.action.runes;
  const runes = own ? entry.action.runes.map(shortLabel).join(", ") : undefined;
  switch (entry.kind) {
    case "commit":
    case "action":
      return own ? say("br.log.you_chose", { runes }) : say("br.log.chosen", { who });
    case "timeout":
      return say("br.log.timeout", { who, runes });
    case "bot":
      return say("br.log.chosen", { who });
    case "chance":
      return null;
    default:
      return undefined;
  }
}

/** One log line for an engine event. */
export function describeEvent(ev, entry, client) {
  const nm = [client.seatName(0), client.seatName(1)];
  switch (ev.kind) {
    case "hands_dealt":
      return ev.turn === 0 ? say("br.log.dealt") : null;
    case "turn_resolved": {
      if (ev.redacted) return say("br.log.resolved", { turn: ev.turn ?? "" });
      const after = ev.scores_after || ev.scores || [];
      const picks = ev.picks || [[], []];
      return [
        say("br.log.revealed", { turn: ev.turn, who0: nm[0], runes0: picks[0].map(shortLabel).join(", "), who1: nm[1], runes1: picks[1].map(shortLabel).join(", ") }),
        ev.annulled ? say("br.log.annulled") : null,
        say("br.log.scores", { a: after[0], b: after[1] }),
      ].filter(Boolean).join(" ");
    }
    case "deck_reshuffled":
      return say("br.log.reshuffled", { who: nm[ev.seat], count: ev.deck_size });
    case "game_over": {
      const r = ev.results || [];
      if (r[0] === "win" && r[1] === "win") return say("br.log.over_both_win");
      if (r[0] === "loss" && r[1] === "loss") return say("br.log.over_both_lose");
      if (r[0] === "draw") return say("br.log.over_draw");
      return say("br.log.over_wins", { who: nm[r.indexOf("win")] });
    }
    default:
      return null;
  }
}
