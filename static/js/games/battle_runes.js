// Battle Runes: draws a snapshot (scores, both public hands, the last turn's breakdown, the history,
// the result) and lets a player pick exactly 3 runes and confirm. See rules/battle_runes.md.
//
// Module contract (static/js/match_client.js): setup(client), render(root, snapshot, client),
// describeEvent(event, entry, client), describeInput(entry, client).

import { el, loadGameData } from "/static/js/api.js";
import { dropDraft, readDraft, saveDraft } from "/static/js/drafts.js";
import { abortedNotice, cancelButton, formatDuration, joinButton } from "/static/js/match_client.js";
import { knows, say } from "/static/js/messages.js";

const PICK = 3;
const KIND_LABEL = { build: "Construction", destroy: "Destruction", modifier: "Modifier" };
/** What the number in a rune's corner means: when it applies in the turn. */
const ORDER_TEXT = {
  1: "construction", 2: "destruction", 3: "doubles", 4: "differences", 5: "own/opponent swaps", 6: "other swaps",
};
export const ORDER_LEGEND = "The corner number is when the rune applies: 1 construction, 2 destruction, "
  + "3 doubles, 4 differences, 5 own/opponent swaps, 6 other swaps. Fire, Water and Zero have none.";

/** The tooltip of a rune's corner number. */
export function orderTitle(order) {
  return `Applies ${["", "1st", "2nd", "3rd", "4th", "5th", "6th"][order] || `at ${order}`} in the turn (${ORDER_TEXT[order] || "modifier"}). `
    + "Order: 1 construction, 2 destruction, 3 doubles, 4 differences, 5 own/opponent swaps, 6 other swaps.";
}

const REASONS = {
  score_50: "reached the winning score",
  score_0: "brought the opponent down to 0",
  both_50: "both reached the winning score",
  both_0: "both dropped to 0",
  turn_cap: "the turn limit was reached",
};

let catalog = null; // id -> {id, name, kind, order, text}
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

/** Short face label ("S1+5", "R1+S", "×2 S", "Fire"), as the server derives it; the id if unknown. */
export function shortLabel(id) {
  return faces[id] || id;
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
  const name = (seat) => (client && client.seatName ? client.seatName(seat) : `Player ${seat + 1}`);
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
    title: `${r.name}: ${r.text}`,
  };
  if (opts.selectable) {
    attrs.type = "button";
    attrs["aria-pressed"] = opts.selected ? "true" : "false";
    attrs.disabled = !!opts.disabled;
    attrs.onclick = opts.onClick;
  }
  const children = [
    el("div", { class: "rune-head" }, icon(id), el("span", { class: "rune-code", text: shortLabel(id) })),
    el("div", { class: "rune-name", text: r.name }),
  ];
  if (!opts.small) children.push(el("div", { class: "rune-text", text: r.text }));
  children.push(el("div", { class: "rune-kind", text: KIND_LABEL[r.kind] || r.kind }));
  if (r.order !== null && r.order !== undefined) {
    children.push(el("div", { class: "rune-order", title: orderTitle(r.order), "aria-label": `order ${r.order}`, text: String(r.order) }));
  }
  if (opts.selected && opts.selectable) children.push(el("div", { class: "rune-check", "aria-hidden": "true", text: "✓" }));
  return el(tag, attrs, ...children);
}

function chip(id) {
  const r = rune(id);
  return el("span", { class: `chip chip-${r.kind}`, title: `${r.name}: ${r.text}`, dataset: { rune: id } }, shortLabel(id));
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
    el("div", { class: "score-name" }, name, me ? el("span", { class: "badge badge-you", text: "you" }) : null),
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
  if (!res) return el("p", { class: "muted", text: "No turn has been played yet." });
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
      ball("blue", bs[seat], "base construction (blue ball)"),
      ball("black", brr[seat], "base destruction (black ball)"),
      el("span", { class: "muted small", text: "base S / R" })));

  const stepRows = (res.steps || []).map((st, i) => el("tr", {},
    el("td", { class: "num", text: String(i + 1) }),
    el("td", {}, chip(st.rune)),
    el("td", { text: nm[st.seat] }),
    el("td", { class: "num", text: st.order === null || st.order === undefined ? "–" : String(st.order) }),
    el("td", { class: "note", text: stepText(st, nm) }),
    el("td", { class: "num", text: `${st.S[0]} : ${st.S[1]}` }),
    el("td", { class: "num", text: `${st.R[0]} : ${st.R[1]}` })));
  const steps = el("table", { class: "steps-table" },
    el("thead", {}, el("tr", {},
      el("th", { text: "#" }), el("th", { text: "Rune" }), el("th", { text: "Played by" }), el("th", { text: "Order" }),
      el("th", { text: "Effect" }), el("th", { class: "num", text: "S" }), el("th", { class: "num", text: "R" }))),
    el("tbody", {}, ...stepRows));

  const settle = (seat) => {
    const other = 1 - seat;
    return el("li", { dataset: { seat } },
      el("strong", { text: nm[seat] }),
      `: ${before[seat]} + ${fs[seat]} construction − ${fr[other]} destruction from ${nm[other]} = `,
      el("strong", { text: String(settled[seat]) }),
      el("span", { class: `score-delta ${settled[seat] - before[seat] > 0 ? "up" : settled[seat] - before[seat] < 0 ? "down" : ""}`, text: ` (${signed(settled[seat] - before[seat])})` }));
  };
  const notes = [];
  if (res.annulled) notes.push(el("p", { class: "note-strong", text: "Zero met Fire or Water: the turn is annulled. Nobody gains or loses anything." }));
  if (res.swap_all_applied) {
    notes.push(el("p", { class: "note-strong", text: res.swap_all_applied % 2
      ? `Total Swap: the whole scores are swapped, ${settled[0]} : ${settled[1]} → ${after[0]} : ${after[1]}.`
      : "Two Total Swaps cancel each other." }));
  }
  return el("div", { class: "breakdown", dataset: { turn: turn ?? "" } },
    el("div", { class: "reveal-picks" }, side(0), el("div", { class: "vs", text: "vs" }), side(1)),
    el("details", { class: "steps-details", open: true }, el("summary", { text: "Step by step" }),
      el("p", { class: "muted small", text: `S = construction, R = destruction, shown as ${a} : ${b} after each step.` }),
      el("div", { class: "table-scroll" }, steps)),
    el("div", { class: "finals" },
      el("div", {}, el("span", { class: "muted", text: "Final construction S: " }), `${a} ${fs[0]} · ${b} ${fs[1]}`),
      el("div", {}, el("span", { class: "muted", text: "Final destruction R: " }), `${a} ${fr[0]} · ${b} ${fr[1]}`)),
    el("ul", { class: "settlement" }, settle(0), settle(1)),
    ...notes,
    el("p", { class: "score-change" }, "Scores: ", el("strong", { text: `${before[0]} : ${before[1]}` }), " → ",
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
    parts.push(who.filter((s) => s === 0 || s === 1).map((s) => (s === seat ? "You resigned." : `${nm[s]} resigned.`)).join(" "));
  }
  if (typeof scores[0] === "number" && typeof scores[1] === "number") parts.push(`${nm[0]} ${scores[0]} : ${scores[1]} ${nm[1]}`);
  if (REASONS[outcome.reason]) parts.push(REASONS[outcome.reason]);
  return parts.join(" · ");
}

function resultBanner(outcome, seat, nm) {
  const results = outcome.results || [];
  let headline;
  let mood;
  if (results[0] === "win" && results[1] === "win") {
    headline = "Both players win!";
    mood = "win";
  } else if (results[0] === "loss" && results[1] === "loss") {
    headline = "Both players lose.";
    mood = "loss";
  } else if (results[0] === "draw") {
    headline = "A draw.";
    mood = "draw";
  } else {
    const winner = results.indexOf("win");
    if (seat === null || seat === undefined) {
      headline = `${nm[winner]} wins!`;
      mood = "win";
    } else {
      headline = winner === seat ? "You win!" : "You lose.";
      mood = winner === seat ? "win" : "loss";
    }
  }
  if (seat !== null && seat !== undefined && results[0] === results[1] && results[0] !== "draw") {
    headline = results[0] === "win" ? "Both win: you win too!" : "Both lose: you lose too.";
  }
  const scores = outcome.scores || [];
  return el("div", { class: `result result-${mood}`, id: "result", dataset: { testid: "result", results: results.join(",") } },
    el("div", { class: "result-headline", text: headline }),
    el("div", { class: "result-detail", text: resultDetail(outcome, seat, nm, scores) }),
    el("div", { class: "result-links" },
      el("a", { class: "btn", href: "/lobby", text: "Back to the lobby" }),
      snapshot_match_id ? el("a", { class: "btn btn-ghost", href: `/matches/${snapshot_match_id}/replay`, id: "watch-replay", text: "Watch the replay" }) : null),
    el("p", { class: "muted small", text: "The match's seed is now revealed under Fair play, with its SHA-256 check." }));
}

let snapshot_match_id = null;

// ------------------------------------------------------------------ render

/** Draw `snapshot` into `root`; a seated player can pick 3 runes and confirm (client.act). */
export function render(root, snapshot, client) {
  const view = snapshot.view;
  snapshot_match_id = snapshot.match_id || (client && client.matchId) || null;
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
    status.textContent = "The match is over.";
  } else if (!player) {
    status.append(`Turn ${turnNow}: `, ...[0, 1].map((s) => el("span", { class: `who-state${chosen.has(s) ? " done" : ""}`, dataset: { seat: s } },
      `${nm[s]} ${chosen.has(s) ? "has chosen ✓" : "is choosing…"}`)));
    status.dataset.state = "spectating";
  } else if (pending) {
    status.textContent = "Sending your choice…";
    status.dataset.state = "sending";
  } else if (chosen.has(seat)) {
    const opp = 1 - seat;
    status.append(el("strong", { text: "Your runes are locked in. " }),
      chosen.has(opp) ? `${nm[opp]} has chosen too.` : `Waiting for the opponent (${nm[opp]}) to choose…`);
    status.dataset.state = "waiting";
  } else if (legal.length) {
    const opp = 1 - seat;
    status.append(el("strong", { text: `Turn ${turnNow}: pick ${PICK} of your runes, then confirm. ` }),
      el("span", { class: `who-state${chosen.has(opp) ? " done" : ""}`, id: "opp-state" },
        chosen.has(opp) ? `${nm[opp]} has chosen ✓` : `${nm[opp]} is choosing…`));
    status.dataset.state = "picking";
  } else {
    status.textContent = "Dealing…";
  }

  const scores = el("div", { class: "br-scores" },
    ...order.map((s) => scoreTrack(nm[s], view.scores[s], deltas[s], winScore, { me: s === seat, seat: s })),
    el("p", { class: "muted small thresholds" },
      `Start ${(view.options && view.options.start_score) ?? 25}. Reach ${winScore} to win; 0 or less loses. Turn ${view.turn} played.`));

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
              st.hint = `You can play only ${PICK} runes: unselect one first.`;
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
    const title = mine ? "Your runes" : player ? `${nm[s]}'s runes (opponent)` : `${nm[s]}'s runes`;
    const sizes = `deck ${view.deck_sizes ? view.deck_sizes[s] : "?"} · discard ${view.discard_sizes ? view.discard_sizes[s] : "?"}`;
    const section = el("section", { class: `br-hand${mine ? " br-mine" : " br-other"}`, dataset: { seat: s, testid: mine ? "my-hand" : `hand-${s}` } },
      el("h3", {}, title, " ", el("span", { class: "muted small", text: sizes }),
        !mine && !over && chosen.has(s) ? el("span", { class: "badge badge-ok", text: "has chosen" }) : null),
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
      }, st.selected.length === PICK ? "Confirm these 3 runes" : `Confirm (${st.selected.length} of ${PICK} chosen)`);
      const clear = el("button", {
        type: "button", class: "btn btn-ghost", id: "clear-pick", disabled: st.selected.length === 0,
        onclick: () => { st.selected = []; st.hint = ""; render(root, snapshot, client); },
      }, "Clear");
      const myClock = el("span", { class: "seat-clock inline-clock", dataset: { clockSeat: seat } },
        client && client.clockText ? client.clockText(seat) : "");
      section.append(el("div", { class: "br-actions" },
        el("span", { class: "pick-count", id: "pick-count", text: `${st.selected.length} / ${PICK} chosen` }),
        myClock, clear, confirm),
      el("p", { class: "hint", id: "pick-hint", text: st.hint || "" }));
    } else if (mine && lockedPick && !over) {
      section.append(el("p", { class: "hint", text: "Your choice is hidden from everyone until both have chosen." }));
    }
    hands.append(section);
  }
  hands.append(el("p", { class: "muted small order-legend", id: "order-legend" },
    el("span", { class: "rune-order rune-order-inline", "aria-hidden": "true", text: "1" }), " ", ORDER_LEGEND));

  // last turn and history
  const turns = resolvedTurns(client);
  const fresh = last && st.lastShownTurn !== null && st.lastShownTurn !== view.turn;
  st.lastShownTurn = view.turn;
  const reveal = el("section", { class: `br-reveal${fresh ? " fresh" : ""}`, id: "last-turn", dataset: { turn: view.turn } },
    el("h3", { text: last ? `Turn ${view.turn} revealed` : "The reveal" }),
    last ? breakdown(last, nm, { turn: view.turn }) : el("p", { class: "muted", text: "Both choices are revealed here once both players have chosen." }));

  const history = el("section", { class: "br-history", id: "history" }, el("h3", { text: "History" }));
  if (!turns.length) history.append(el("p", { class: "muted", text: "No turns yet." }));
  const list = el("ol", { class: "history-list", reversed: true });
  for (const t of [...turns].reverse()) {
    const before = t.scores_before || [0, 0];
    const after = t.scores_after || t.scores || [0, 0];
    list.append(el("li", { class: "history-item", dataset: { turn: t.turn } },
      el("details", {},
        el("summary", {},
          el("span", { class: "history-turn", text: `Turn ${t.turn}` }),
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
  const copy = el("button", { type: "button", class: "btn btn-small btn-ghost", text: "Copy link" });
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      copy.textContent = "Copied";
    } catch (err) {
      copy.textContent = "Select and copy the link";
    }
  });
  const expiry = client && client.expirySeconds;
  const cancel = cancelButton(client, snapshot);
  return el("div", { class: "br br-waiting", id: "waiting-for-players" },
    el("h2", { text: "Waiting for an opponent to join…" }),
    joinButton(snapshot, client),
    el("p", { text: "The match starts as soon as a second player joins from the lobby. You can also send them this link:" }),
    el("p", {}, el("code", { class: "hash", text: url }), " ", copy),
    el("p", { class: "muted", text: `Players so far: ${(snapshot.seats || []).filter((s) => s.user || s.bot).map((s) => nm[s.seat]).join(", ") || "none"}` }),
    rulesLine(client),
    cancel ? el("p", { class: "waiting-cancel" }, cancel,
      el("span", { class: "muted small", text: expiry ? ` If nobody joins within ${formatDuration(expiry)}, it is closed by itself.` : "" })) : null);
}

/** "This match: first to 40, both start at 10.": the scores this match is played with. */
function rulesLine(client) {
  const opts = client && client.options;
  if (!opts) return null;
  const parts = [];
  if (opts.win_score !== undefined) parts.push(`first to ${opts.win_score}`);
  if (opts.start_score !== undefined) parts.push(`both start at ${opts.start_score}`);
  return parts.length ? el("p", { class: "muted", id: "match-rules", text: `This match: ${parts.join(", ")}.` }) : null;
}

// ------------------------------------------------------------------ the log

/** One log line for an input (who chose), or null for the client's default. */
export function describeInput(entry, client) {
  const who = client.seatName(entry.seat);
  const own = entry.seat === client.seat && entry.action && entry.action.runes;
  const ids = own ? ` (${entry.action.runes.map(shortLabel).join(", ")})` : "";
  switch (entry.kind) {
    case "commit":
    case "action":
      return own ? `You chose${ids}.` : `${who} has chosen.`;
    case "timeout":
      return `${who}'s time ran out: the computer chose for them${ids}.`;
    case "bot":
      return `${who} has chosen.`;
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
      return ev.turn === 0 ? "Both decks are shuffled; each player draws 5 runes." : null;
    case "turn_resolved": {
      if (ev.redacted) return `Turn ${ev.turn ?? ""} resolved.`;
      const after = ev.scores_after || ev.scores || [];
      const picks = ev.picks || [[], []];
      return `Turn ${ev.turn} revealed: ${nm[0]} played ${picks[0].map(shortLabel).join(", ")}; `
        + `${nm[1]} played ${picks[1].map(shortLabel).join(", ")}.${ev.annulled ? " Annulled by Zero." : ""} `
        + `Scores ${after[0]} : ${after[1]}.`;
    }
    case "deck_reshuffled":
      return `${nm[ev.seat] || "A player"}'s discard pile is shuffled into a new deck (${ev.deck_size} runes).`;
    case "game_over": {
      const r = ev.results || [];
      if (r[0] === "win" && r[1] === "win") return "Game over: both players win!";
      if (r[0] === "loss" && r[1] === "loss") return "Game over: both players lose.";
      if (r[0] === "draw") return "Game over: a draw.";
      return `Game over: ${nm[r.indexOf("win")]} wins.`;
    }
    default:
      return null;
  }
}
