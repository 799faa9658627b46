// Fantasy súboj: draws a snapshot of 2 to 8 seats (every army with its units' numbers, abilities and
// poisoned state, the prisons, the deck, the scores and teams, whose turn it is, the dice of the
// last attack, the result) and offers the current step's legal actions as buttons and clickable
// units. See rules/fantasy_duel.md and app/games/fantasy_duel/observe.py for the view.
//
// Module contract (static/js/match_client.js): setup(client), render(root, snapshot, client),
// describeEvent(event, entry, client), describeInput(entry, client). Every word comes from
// static/js/messages.js ("fd.*").

import { el, loadGameData } from "/static/js/api.js";
import { abortedNotice, cancelButton, formatDuration, joinButton, resignedLines } from "/static/js/match_client.js";
import { formatNumber, knows, pageLocale, say } from "/static/js/messages.js";

let units = []; // catalog units in table order: card c shows units[c % units.length]
let byId = {}; // unit id -> catalog unit
let labels = {}; // unit id -> its original Slovak name (app/web/games/fantasy_duel.py)

/** Load the unit catalog once, from the page's game-data (or /api/games/fantasy_duel). */
export async function setup() {
  if (units.length) return;
  try {
    const game = await loadGameData("fantasy_duel");
    units = (game.catalog && game.catalog.units) || [];
    byId = Object.fromEntries(units.map((u) => [u.id, u]));
    labels = game.labels || {};
  } catch (err) {
    units = [];
  }
}

// ------------------------------------------------------------------ small helpers

function unitOfCard(card) {
  return units.length ? units[card % units.length] : null;
}

/** A unit's name: the original (Slovak) one, as the rulebook prints it. */
function unitName(id) {
  return labels[id] || (byId[id] && byId[id].name_sk) || id || "?";
}

/** The original name with its translation beside it ("Rytier (Knight)", "Rytier – česky Rytíř"); a Slovak
 * page needs none. */
function unitNameWithTranslation(id) {
  const name = unitName(id);
  if (pageLocale() === "sk" || !knows(`fd.unit.${id}`)) return name;
  return say("fd.unit.named", { name, translation: say(`fd.unit.${id}`) });
}

function cardName(card) {
  const u = unitOfCard(card);
  return u ? unitName(u.id) : `#${card}`;
}

function pct(p) {
  if (p === undefined || p === null) return "–";
  const v = p * 100;
  const percent = (x) => formatNumber(x / 100, { style: "percent", maximumFractionDigits: 0 });
  if (v > 0 && v < 1) return `<${percent(1)}`;
  if (v < 100 && v > 99) return `>${percent(99)}`;
  return percent(Math.round(v));
}

/** seat -> display name, as the seat cards say it (match_client.js seatName: two computers of one
 * level also say their seat number); "Seat 3" without a client. */
function namer(client) {
  return (seat) => (client && client.seatName ? client.seatName(seat) : say("fd.seat", { n: seat + 1 }));
}

/** The kind of unit an ability names ("mounted", "undead", "living"), or "". */
function abilityKind(a) {
  return a.target || a.attacker || "";
}

function abilityShort(a) {
  const p = { ...a, target: say(`fd.kind.${a.target}`, {}, a.target), attacker: say(`fd.kind.${a.attacker}`, {}, a.attacker) };
  return say(`fd.ability.${a.id}.${abilityKind(a)}`, p, say(`fd.ability.${a.id}`, p, a.id.replace(/_/g, " ")));
}

function abilityLong(a) {
  const p = { ...a, target: say(`fd.kind.${a.target}`, {}, a.target), attacker: say(`fd.kind.${a.attacker}`, {}, a.attacker) };
  return say(`fd.ability_long.${a.id}.${abilityKind(a)}`, p, say(`fd.ability_long.${a.id}`, p, ""));
}

/** The JSON of an action, as the buttons carry it (data-action). */
function actionKey(action) {
  return JSON.stringify(action);
}

function teamMode(view) {
  const teams = view.teams || [];
  return new Set(teams).size < teams.length;
}

// ------------------------------------------------------------------ a unit card

/**
 * One unit on the table. opts: {card, poisoned, action (legal action the click sends), client,
 * roles: Set of "attacker" | "target" | "last-attacker" | "last-target" | "spoils", odds}
 */
function unitCard(entry, opts = {}) {
  const u = byId[entry.unit] || unitOfCard(entry.card) || { id: entry.unit, name_sk: entry.unit, abilities: [] };
  const roles = opts.roles || new Set();
  const cls = ["fd-unit", `fd-faction-${u.faction || "unknown"}`];
  if (entry.poisoned) cls.push("fd-poisoned");
  for (const r of roles) cls.push(`fd-role-${r}`);
  const clickable = !!opts.action;
  if (clickable) cls.push("fd-clickable");
  const abilities = u.abilities || [];
  const title = [unitNameWithTranslation(u.id), ...abilities.map((a) => `${abilityShort(a)}: ${abilityLong(a)}`)]
    .join("\n");
  const children = [
    el("div", { class: "fd-unit-head" },
      el("span", { class: "fd-unit-name", lang: "sk", text: unitName(u.id) }),
      u.mounted ? el("span", { class: "fd-mounted", title: say("fd.unit.mounted"), text: "♞" }) : null),
    el("div", { class: "fd-unit-stats" },
      el("span", { class: "fd-attack", title: say("fd.unit.attack_title"), text: `⚔ ${u.attack ?? "?"}+${u.dice ?? "?"}${say("fd.unit.d6")}` }),
      el("span", { class: "fd-defence", title: say("fd.unit.defence_title"), text: say("fd.unit.defence", { defense: u.defense ?? "?" }) })),
  ];
  if (abilities.length) {
    children.push(el("div", { class: "fd-chips" }, ...abilities.map((a) => el("span", {
      class: `fd-chip fd-chip-${a.id}`, title: abilityLong(a), text: abilityShort(a),
    }))));
  }
  if (entry.poisoned) children.push(el("div", { class: "fd-state fd-state-poisoned", text: `☠ ${say("fd.unit.poisoned")}` }));
  if (opts.odds) children.push(el("div", { class: "fd-unit-odds" }, ...oddsLine(opts.odds)));
  const attrs = {
    class: cls.join(" "), title,
    dataset: { card: entry.card, unit: u.id, poisoned: entry.poisoned ? "true" : "false" },
  };
  if (clickable) {
    attrs.type = "button";
    attrs.dataset.action = actionKey(opts.action);
    attrs.onclick = () => opts.client && opts.client.act(opts.action);
    return el("button", attrs, ...children);
  }
  return el("div", attrs, ...children);
}

function oddsParams(o) {
  return {
    win: pct(o.win), tie: pct(o.tie), lose: pct(o.lose), hide: pct(o.hide), poison: pct(o.poison),
    big_win: pct(o.big_win), big_loss: pct(o.big_loss),
  };
}

/** The outcomes of an attack that add up to 1, in the order a player reads them: every part of
 * the exact odds the server sends (ODDS_PARTS of app/games/fantasy_duel/combat.py; a test keeps the
 * two lists equal). big_win and big_loss are shares of win and lose, not parts of their own. */
const ODDS_PARTS = ["win", "tie", "lose", "hide", "poison"];

/**
 * The parts of odds `o` a player reads, for a unit card and an attack button alike: win always,
 * every other part when it can happen (not 0), so the shown parts add up to 100 %.
 * @returns {{part: string, text: string}[]}
 */
function oddsParts(o) {
  const params = oddsParams(o);
  return ODDS_PARTS.filter((part) => part === "win" || o[part] > 0)
    .map((part) => ({ part, text: say(`fd.odds.${part}`, params) }));
}

/** The nodes of the odds line of `o`: one span per part, spaces between them (the "·" after each
 * but the last comes from fantasy_duel.css, so a line breaks after a "·", not before one). */
function oddsLine(o) {
  return oddsParts(o).flatMap(({ part, text }, i) => [i ? " " : null, el("span", { class: "fd-odds-part", dataset: { part }, text })]);
}

// ------------------------------------------------------------------ dice

function die(value) {
  return el("span", { class: "fd-die", "aria-label": say("fd.die", { value }), text: String(value) });
}

/** The last resolved attack: the dice, totals and result. */
function lastAttackPanel(view, nm) {
  const la = view.last_attack;
  if (!la) return null;
  const p = {
    unit: cardName(la.attacker), target_unit: cardName(la.target), who: nm(la.seat), whom: nm(la.target_seat),
  };
  const result = la.doom && la.result === "defeated" ? say("fd.ev.attack_resolved.doom", { ...p, dice: la.dice.join(" ") })
    : say(`fd.result.${la.result}`, p, la.result);
  return el("section", { class: "fd-last", id: "fd-last-attack", dataset: { result: la.result } },
    el("div", { class: "fd-last-who" },
      el("strong", { text: `${p.who}: ${p.unit}` }), " → ", el("strong", { text: `${p.whom}: ${p.target_unit}` })),
    el("div", { class: "fd-dice-row", id: "fd-dice", dataset: { dice: la.dice.join(",") } }, ...la.dice.map(die),
      el("span", { class: "fd-total", text: say("fd.last.total", { total: la.total, defence: la.defence }) })),
    el("div", { class: `fd-result fd-result-${la.result}`, text: result }));
}

// ------------------------------------------------------------------ the result

function resultBanner(snapshot, view, seat, nm, client) {
  const outcome = snapshot.result || view.outcome;
  if (!outcome || !(outcome.results || []).length) return null;
  const results = outcome.results;
  const scores = outcome.scores || view.scores || [];
  const ranks = outcome.ranks || results.map((r) => (r === "loss" ? 2 : 1));
  const winners = results.map((r, s) => (r !== "loss" ? nm(s) : null)).filter(Boolean);
  let headline;
  let mood;
  if (seat !== null && seat !== undefined && results[seat]) {
    mood = results[seat];
    headline = say(`fd.outcome.${mood}`);
  } else {
    mood = results.includes("win") ? "win" : "draw";
    headline = say(results.includes("win") ? "fd.outcome.spectator" : "fd.outcome.spectator_draw", { winners: winners.join(", "), count: winners.length });
  }
  let reason = "";
  if (outcome.reason === "stalemate") reason = say("fd.reason.stalemate", { rounds: (view.options && view.options.stalemate_rounds) || "" });
  else if (outcome.reason !== "resigned") {
    reason = say(`fd.reason.${outcome.reason}`, {}, knows(`reason.${outcome.reason}`) ? say(`reason.${outcome.reason}`) : "");
  }
  reason = [reason, ...resignedLines(outcome, seat, nm)].filter(Boolean).join(" ");
  const order = results.map((_, s) => s).sort((a, b) => (ranks[a] - ranks[b]) || (scores[b] - scores[a]) || (a - b));
  const teams = teamMode(view) ? (outcome.teams || view.teams) : null;
  return el("div", { class: `result result-${mood}`, id: "result", dataset: { testid: "result", results: results.join(",") } },
    el("div", { class: "result-headline", text: headline }),
    el("div", { class: "result-detail", text: reason }),
    el("ol", { class: "fd-ranking" }, ...order.map((s) => el("li", { dataset: { seat: s, rank: ranks[s] } },
      el("span", { class: "fd-rank", text: `${ranks[s]}.` }), " ", el("strong", { text: nm(s) }),
      teams ? el("span", { class: "badge", text: say("fd.team", { team: teams[s] + 1 }) }) : null,
      el("span", { class: "fd-rank-score", text: ` ${say("fd.points", { count: scores[s] ?? 0 })}` }),
      el("span", { class: `fd-rank-result fd-rank-${results[s]}`, text: ` ${say(`fd.rank.${results[s]}`, {}, results[s])}` })))),
    el("div", { class: "result-links" },
      el("a", { class: "btn", href: "/lobby", text: say("fd.links.lobby") }),
      snapshot.match_id && !(client && client.replay) ? el("a", { class: "btn btn-ghost", href: `/matches/${snapshot.match_id}/replay`, id: "watch-replay", text: say("fd.links.replay") }) : null));
}

// ------------------------------------------------------------------ status and actions

function statusLine(snapshot, view, seat, nm, client) {
  const phase = view.phase;
  const actor = (view.to_act || [])[0];
  const mine = actor === seat && seat !== null && seat !== undefined && (snapshot.legal || []).length > 0;
  const attack = view.attack;
  const spoils = view.spoils;
  const p = {
    who: actor >= 0 ? nm(actor) : "",
    unit: attack ? cardName(attack.attacker) : spoils ? cardName(spoils.card) : "",
    margin: spoils ? spoils.margin : "",
    dice: attack && attack.dice ? attack.dice : "",
  };
  let text;
  let state;
  if (view.over || snapshot.status === "finished") {
    text = say("fd.phase.over");
    state = "over";
  } else if (client && client.pending) {
    text = say("fd.you.sending");
    state = "sending";
  } else if (phase === "shuffle" || phase === "start_roll") {
    text = say(`fd.phase.${phase}`);
    state = "chance";
  } else if (phase === "roll") {
    text = say("fd.phase.roll", { ...p, who: nm(view.active) });
    state = "chance";
  } else if (mine) {
    text = say(`fd.you.${phase}`, p, phase);
    state = "yours";
  } else {
    text = say(`fd.wait.${phase}`, p, phase);
    state = "waiting";
  }
  const clock = mine ? el("span", { class: "seat-clock inline-clock", dataset: { clockSeat: seat } },
    client && client.clockText ? client.clockText(seat) : "") : null;
  return el("div", { class: "fd-status", id: "fd-status", "aria-live": "polite", dataset: { phase, state } },
    el("span", { text }), clock);
}

/** The buttons of every legal action (the units are clickable too). */
function actionButtons(snapshot, view, client, nm) {
  const legal = snapshot.legal || [];
  if (!legal.length || (client && client.pending) || view.over) return null;
  const oddsByCard = Object.fromEntries((view.odds || []).map((o) => [o.target, o]));
  const buttons = legal.map((action) => {
    const kind = Object.keys(action)[0];
    const value = action[kind];
    let text;
    let detail = null;
    if (kind === "attacker") {
      text = say("fd.act.attacker", { unit: cardName(value) });
    } else if (kind === "target") {
      const o = oddsByCard[value];
      const owner = o ? o.target_seat : view.armies.findIndex((a) => a.some((e) => e.card === value));
      text = say("fd.act.target", { unit: cardName(value), who: nm(owner) });
      if (o) {
        // the parts of the target's card, then (a share of the win) the recruit chance
        detail = el("span", { class: "fd-act-odds" }, `${o.dice}${say("fd.unit.d6")}\u00a0· `, ...oddsLine(o),
          o.big_win > 0 ? " " : null,
          o.big_win > 0 ? el("span", { class: "fd-odds-big", text: say("fd.odds.big", oddsParams(o)) }) : null);
      }
    } else if (kind === "recruit") {
      text = say("fd.act.recruit", { unit: view.spoils ? cardName(view.spoils.card) : "", own: cardName(value) });
    } else if (kind === "imprison") {
      text = say("fd.act.imprison", { unit: view.spoils ? cardName(view.spoils.card) : "" });
    } else if (kind === "defer" && view.phase === "muster") {
      text = say("fd.act.defer.muster");
    } else {
      text = say(`fd.act.${kind}`, {}, kind);
    }
    return el("button", {
      type: "button", class: `btn fd-act fd-act-${kind}${kind === "back" || kind === "defer" ? " btn-ghost" : ""}`,
      dataset: { action: actionKey(action), kind },
      onclick: () => client && client.act(action),
    }, el("span", { class: "fd-act-text", text }), detail);
  });
  return el("div", { class: "fd-actions", id: "fd-actions", dataset: { phase: view.phase } }, ...buttons);
}

// ------------------------------------------------------------------ one seat

function seatPanel(s, snapshot, view, client, nm) {
  const seat = snapshot.seat;
  const legal = snapshot.legal || [];
  const legalBy = {};
  for (const a of legal) {
    const kind = Object.keys(a)[0];
    if (kind === "attacker" || kind === "target" || kind === "recruit") legalBy[`${kind}:${a[kind]}`] = a;
  }
  const pending = client && client.pending;
  const oddsByCard = Object.fromEntries((view.odds || []).map((o) => [o.target, o]));
  const attack = view.attack;
  const la = view.last_attack;
  const army = view.armies[s] || [];
  const cards = army.map((entry) => {
    const roles = new Set();
    if (attack && attack.attacker === entry.card) roles.add("attacker");
    if (attack && attack.target === entry.card) roles.add("target");
    if (view.spoils && view.spoils.card === entry.card) roles.add("spoils");
    if (!attack && la && la.attacker === entry.card) roles.add("last-attacker");
    if (!attack && la && la.target === entry.card) roles.add("last-target");
    let action = null;
    if (!pending) action = legalBy[`attacker:${entry.card}`] || legalBy[`target:${entry.card}`] || legalBy[`recruit:${entry.card}`] || null;
    return unitCard(entry, { roles, action, client, odds: oddsByCard[entry.card] });
  });
  const prison = view.prisons[s] || [];
  const toAct = (view.to_act || []).includes(s);
  const teams = teamMode(view) ? view.teams : null;
  const cls = ["fd-seat"];
  if (s === seat) cls.push("fd-seat-me");
  if (toAct) cls.push("fd-seat-active");
  if (!army.length) cls.push("fd-seat-empty");
  if (teams) cls.push(`fd-team-${teams[s]}`);
  return el("section", { class: cls.join(" "), dataset: { seat: s, testid: `fd-seat-${s}` } },
    el("header", { class: "fd-seat-head" },
      el("span", { class: "fd-seat-name", text: nm(s) }),
      s === seat ? el("span", { class: "badge badge-you", text: say("fd.seat.you") }) : null,
      teams ? el("span", { class: `badge fd-team-badge fd-team-badge-${teams[s]}`, text: say("fd.team", { team: teams[s] + 1 }) }) : null,
      view.tactics && view.tactics[s] ? el("span", { class: "badge", title: say("fd.ability_long.tactics"), text: say("fd.ability.tactics") }) : null,
      toAct ? el("span", { class: "badge badge-ok", text: say("fd.seat.to_act") }) : null,
      el("span", { class: "fd-score", dataset: { testid: `fd-score-${s}` }, title: say("fd.seat.score_title"), text: say("fd.points", { count: view.scores[s] }) })),
    el("div", { class: "fd-army" }, ...(cards.length ? cards : [el("p", { class: "muted small", text: say("fd.seat.no_units") })])),
    el("details", { class: "fd-prison", dataset: { count: prison.length } },
      el("summary", { text: say("fd.seat.prison", { count: prison.length }) }),
      prison.length ? el("ul", { class: "fd-prison-list" }, ...prison.map((id) => el("li", { lang: "sk", title: unitNameWithTranslation(id), text: unitName(id) })))
        : el("p", { class: "muted small", text: say("fd.seat.prison_empty") })));
}

// ------------------------------------------------------------------ render

/** Draw `snapshot` into `root`; the seat to act gets buttons and clickable units (client.act). */
export function render(root, snapshot, client) {
  const nm = namer(client);
  if (snapshot.status === "aborted") {
    root.replaceChildren(abortedNotice(snapshot, { expirySeconds: client && client.expirySeconds }));
    return;
  }
  const view = snapshot.view;
  if (snapshot.status === "waiting" || !view) {
    root.replaceChildren(waitingForPlayers(snapshot, nm, client));
    return;
  }
  const seat = snapshot.seat;
  const over = snapshot.status === "finished" || view.over;
  const teams = teamMode(view);
  const parts = [];
  if (over) {
    const banner = resultBanner(snapshot, view, seat, nm, client);
    if (banner) parts.push(banner);
  }
  parts.push(statusLine(snapshot, view, seat, nm, client));
  const actions = over ? null : actionButtons(snapshot, view, client, nm);
  if (actions) parts.push(actions);
  const info = el("div", { class: "fd-info" },
    el("span", { class: "fd-deck", id: "fd-deck", dataset: { count: view.deck_count }, text: say("fd.info.deck", { count: view.deck_count }) }),
    view.round ? el("span", { text: say("fd.info.round", { round: view.round }) }) : null,
    view.first >= 0 ? el("span", { class: "muted", text: say("fd.info.first", { who: nm(view.first) }) }) : null,
    view.quiet_rounds ? el("span", { class: "muted", text: say("fd.info.quiet_rounds", { count: view.quiet_rounds }) }) : null);
  if (teams) {
    info.append(el("span", { class: "fd-team-scores", id: "fd-team-scores" },
      ...(view.team_scores || []).map((score, t) => el("span", { class: `badge fd-team-badge fd-team-badge-${t}`, text: say("fd.info.team_score", { team: t + 1, score }) }))));
  }
  parts.push(info);
  const last = lastAttackPanel(view, nm);
  if (last) parts.push(last);
  // your own seat first, then the others in seat order from you
  const n = view.num_players || view.armies.length;
  const start = seat !== null && seat !== undefined && seat >= 0 ? seat : 0;
  const order = Array.from({ length: n }, (_, i) => (start + i) % n);
  parts.push(el("div", { class: `fd-table fd-n${n}`, id: "fd-table" }, ...order.map((s) => seatPanel(s, snapshot, view, client, nm))));
  root.replaceChildren(el("div", { class: "fd", dataset: { phase: view.phase, over: over ? "true" : "false", version: snapshot.version } }, ...parts));
}

function waitingForPlayers(snapshot, nm, client) {
  const expiry = client && client.expirySeconds;
  const cancel = cancelButton(client, snapshot);
  const seats = snapshot.seats || [];
  return el("div", { class: "fd fd-waiting", id: "waiting-for-players" },
    el("h2", { text: say("fd.waiting.title") }),
    joinButton(snapshot, client),
    el("p", { text: say("fd.waiting.seats", { taken: seats.filter((s) => s.user || s.bot).length, count: seats.length }) }),
    el("p", { class: "muted", text: say("fd.waiting.players", { names: seats.filter((s) => s.user || s.bot).map((s) => nm(s.seat)).join(", ") || say("fd.waiting.nobody") }) }),
    cancel ? el("p", { class: "waiting-cancel" }, cancel,
      el("span", { class: "muted small", text: expiry ? ` ${say("fd.waiting.expiry", { time: formatDuration(expiry) })}` : "" })) : null);
}

// ------------------------------------------------------------------ the log

/** One log line for an input, or null when the events of the step say it all. */
export function describeInput(entry, client) {
  const who = namer(client)(entry.seat);
  const action = entry.action || {};
  if (entry.kind === "chance" || entry.kind === "start") return entry.kind === "start" ? undefined : null;
  const kind = Object.keys(action)[0];
  const prefix = entry.kind === "timeout" ? `${say("fd.input.timeout", { who })} ` : "";
  if (kind === "attacker") return prefix + say("fd.input.attacker", { who, unit: cardName(action.attacker) });
  if (kind === "back") return prefix + say("fd.input.back", { who });
  if (!["action", "bot", "timeout"].includes(entry.kind)) return undefined;
  return prefix ? prefix.trim() : null;
}

function cardList(cards) {
  return (cards || []).map(cardName).join(", ");
}

/** One log line for an engine event (codes and parameters through messages.js). */
export function describeEvent(ev, entry, client) {
  const nm = namer(client);
  const p = { ...ev };
  if (ev.seat !== undefined && ev.seat !== null && ev.seat >= 0) p.who = nm(ev.seat);
  if (ev.target_seat !== undefined) p.whom = nm(ev.target_seat);
  if (ev.from_seat !== undefined) p.whom = nm(ev.from_seat);
  if (ev.unit) p.unit = unitName(ev.unit);
  if (ev.target_unit) p.target_unit = unitName(ev.target_unit);
  if (ev.released_unit) p.released_unit = unitName(ev.released_unit);
  switch (ev.kind) {
    case "dealt":
      return null;
    case "start_roll":
      return say("fd.ev.start_roll", { rolls: (ev.seats || []).map((s, i) => `${nm(s)} ${ev.dice[i]}`).join(", ") });
    case "turn_skipped":
      return say(`fd.ev.turn_skipped.${ev.reason}`, p, null);
    case "attack_resolved": {
      const q = { ...p, unit: cardName(ev.attacker), target_unit: cardName(ev.target), dice: (ev.dice || []).join(" ") };
      const key = ev.doom && ev.result === "defeated" ? "fd.ev.attack_resolved.doom" : `fd.ev.attack_resolved.${ev.result}`;
      return say(key, q, ev.result);
    }
    case "drew":
      return say(`fd.ev.drew.${ev.reason}`, p, say("fd.ev.drew.replace", p));
    case "deferred":
      return say(`fd.ev.deferred.${ev.reason}`, p, null);
    case "poisoned":
      return say("fd.ev.poisoned", { ...p, unit: cardName(ev.card) });
    case "cured":
    case "recovered":
      return say(`fd.ev.${ev.kind}`, { ...p, units: cardList(ev.cards) });
    case "game_over": {
      const results = ev.results || [];
      const winners = results.map((r, s) => (r !== "loss" ? nm(s) : null)).filter(Boolean);
      const key = results.includes("win") ? "fd.ev.game_over.win" : "fd.ev.game_over.draw";
      return say(key, { winners: winners.join(", "), count: winners.length });
    }
    default:
      return knows(`fd.ev.${ev.kind}`) ? say(`fd.ev.${ev.kind}`, p, null) : null;
  }
}
