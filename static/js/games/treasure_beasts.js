// Treasure Beasts: draws a snapshot of 2 to 6 seats. During the draft: your pack (click a card to
// keep it), your picks so far, and how many cards each seat's pack holds as the packs pass. Then
// every seat's three zones (Center, Bushes, Start) with its creatures drawn as cards (current
// strength, group, properties, abilities, ready or tired, what is attached to them), the
// treasures in the centre and in every treasury, your hand, the action points left, the attack
// being built and the defender's choice of losses; every legal action is a button (in the action
// panel, and on the card it concerns). See rules/treasure_beasts.md and
// app/games/treasure_beasts/observe.py for the view.
//
// Module contract (static/js/match_client.js): setup(client), render(root, snapshot, client),
// describeEvent(event, entry, client), describeInput(entry, client). Every word comes from
// static/js/messages.js ("tb.*"); card names come from the catalog (game-data): each card keeps
// its own Ukrainian name (the game's language) and shows the page's translation beside it, in
// its tooltip (catalog `names`, docs/i18n.md).

import { el, loadGameData } from "/static/js/api.js";
import { abortedNotice, cancelButton, formatDuration, joinButton, resignedLines } from "/static/js/match_client.js";
import { knows, pageLocale, say } from "/static/js/messages.js";

let byId = {}; // card id -> catalog card
let labels = {}; // card id -> name (app/web/games/treasure_beasts.py)
const uidCard = {}; // creature uid -> card id, from views and "entered"/"left" events

/** Load the card catalog once, from the page's game-data (or /api/games/treasure_beasts). */
export async function setup() {
  if (Object.keys(byId).length) return;
  try {
    const game = await loadGameData("treasure_beasts");
    const cards = (game.catalog && game.catalog.cards) || [];
    byId = Object.fromEntries(cards.map((c) => [c.id, c]));
    labels = game.labels || {};
  } catch (err) {
    byId = {};
  }
}

// ------------------------------------------------------------------ small helpers

function cardName(id) {
  return labels[id] || (byId[id] && byId[id].name) || id || "?";
}

/** The card's name in the page's language, shown beside its own (Ukrainian) name; "" in Ukrainian. */
export function cardTranslation(id) {
  const lang = pageLocale();
  const names = (byId[id] && byId[id].names) || {};
  return lang === "uk" ? "" : names[lang] || names.en || "";
}

function creatureName(uid) {
  const card = uidCard[uid];
  return card ? cardName(card) : say("tb.creature", { uid });
}

function zoneName(zone) {
  return say(`tb.zone.${zone}`, {}, zone);
}

function propName(p) {
  return say(`tb.prop.${p}`, {}, p.replace(/_/g, " "));
}

function groupName(g) {
  return say(`tb.group.${g}`, {}, g);
}

/** seat -> display name, as the seat cards say it (match_client.js seatName: two computers of one
 * level also say their seat number); "Seat 3" without a client. */
function namer(client) {
  return (seat) => (client && client.seatName ? client.seatName(seat) : say("tb.seat", { n: seat + 1 }));
}

function actionKey(action) {
  return JSON.stringify(action);
}

function kindOf(action) {
  return Object.keys(action)[0];
}

// ------------------------------------------------------------------ abilities from effect codes

function targetWords(e, card, scope) {
  const t = e.target || (["strength", "grant", "remove", "extra_move", "take_bonus"].includes(e.do) ? "self" : "");
  if (t === "group") return say(scope === "all" ? "tb.target.group_all" : "tb.target.group", { group: groupName(card.group) });
  return say(`tb.target.${t}`, {}, t);
}

/** One effect of the card vocabulary in words (app/games/treasure_beasts/data.py). */
export function effectText(e, card, scope = "own") {
  const p = {
    amount: e.amount,
    count: e.amount,
    signed: e.amount > 0 ? `+${e.amount}` : String(e.amount),
    target: targetWords(e, card, scope),
    property: e.property ? propName(e.property) : "",
    direction: e.direction ? say(`tb.direction.${e.direction}`) : "",
    max: e.max_strength,
  };
  return say(`tb.eff.${e.do}`, p, e.do);
}

function effectsText(effects, card, scope) {
  return (effects || []).map((e) => effectText(e, card, scope)).join("; ");
}

/** The rule lines of a catalog card: [{kind, text}] (abilities, group, alternative use, attach). */
function cardLines(card) {
  const out = [];
  for (const a of card.personal_abilities || []) {
    out.push({ kind: a.trigger, text: `${say(`tb.trigger.${a.trigger}`)}: ${effectsText(a.effects, card)}` });
  }
  if (card.group_ability) {
    const g = card.group_ability;
    out.push({ kind: "group", text: `${say("tb.line.group", { count: g.required_count, group: groupName(card.group) })}: ${effectsText(g.effects, card, g.scope)}` });
  }
  if (card.alternative_use) {
    const alt = card.alternative_use;
    const cost = alt.extra_cost || {};
    out.push({ kind: "alt", text: `${say("tb.line.alt", { ap: 1 + (cost.ap || 0), treasure: cost.treasure || undefined })}: ${effectsText(alt.effects, card)}` });
  }
  if (card.attach_option) {
    const at = card.attach_option;
    out.push({ kind: "attach", text: `${say(`tb.line.attach.${at.hosts}`)}: ${effectsText(at.effects, card)}` });
  }
  return out;
}

// ------------------------------------------------------------------ cards

function cardBody(card, { strength = null, props = null } = {}) {
  const base = card.strength;
  const now = strength === null ? base : strength;
  const shown = props === null ? card.properties || [] : props;
  const strengthCls = now > base ? " tb-up" : now < base ? " tb-down" : "";
  const lines = cardLines(card);
  return [
    el("div", { class: "tb-card-head" },
      el("span", { class: "tb-card-name", lang: "uk", title: cardTranslation(card.id) || undefined, text: cardName(card.id) }),
      el("span", { class: `tb-strength${strengthCls}`, title: say("tb.strength"), dataset: { strength: now }, text: String(now) })),
    el("div", { class: "tb-card-meta", text: `${groupName(card.group)} · ${zoneName(card.start_position)}` }),
    shown.length ? el("div", { class: "tb-chips" }, ...shown.map((p) => el("span", { class: `tb-chip tb-chip-${p}`, dataset: { prop: p }, text: propName(p) }))) : null,
    lines.length ? el("ul", { class: "tb-lines" }, ...lines.map((l) => el("li", { class: `tb-line-${l.kind}`, text: l.text }))) : null,
  ];
}

function miniButton(action, client, text) {
  return el("button", {
    type: "button", class: `btn btn-small tb-card-act tb-act-${kindOf(action)}`, dataset: { action: actionKey(action), kind: kindOf(action) },
    text, onclick: (ev) => { ev.stopPropagation(); if (client) client.act(action); },
  });
}

/** A card in a hand or a pack; `actions` are the legal actions naming it. */
function handCard(cardId, actions, client, ctx) {
  const card = byId[cardId] || { id: cardId, group: "", start_position: "", strength: "?", properties: [] };
  return el("div", { class: `tb-card tb-hand-card tb-group-${card.group}`, dataset: { card: cardId } },
    ...cardBody(card),
    actions.length ? el("div", { class: "tb-card-acts" }, ...actions.map((a) => miniButton(a, client, actionText(a, ctx)))) : null);
}

/** A creature on the field, with whatever is attached to it. */
function creatureCard(c, attached, actions, client, ctx) {
  const card = byId[c.card] || { id: c.card, group: "", start_position: "", strength: c.strength, properties: [] };
  const cls = ["tb-card", "tb-creature", `tb-group-${card.group}`, c.ready ? "tb-ready" : "tb-tired"];
  const attack = ctx.view.attack;
  if (attack && attack.target === c.uid) cls.push("tb-role-target");
  if (attack && attack.attackers.includes(c.uid)) cls.push("tb-role-attacker");
  if (attack && attack.lost.includes(c.uid)) cls.push("tb-role-lost");
  const flags = [say(c.ready ? "tb.ready" : "tb.tired")];
  if (c.fresh) flags.push(say("tb.fresh"));
  for (const u of c.used) flags.push(say(`tb.used.${u}`, {}, u));
  return el("div", { class: cls.join(" "), dataset: { uid: c.uid, card: c.card, ready: c.ready ? "true" : "false" } },
    ...cardBody(card, { strength: c.strength, props: c.properties }),
    el("div", { class: "tb-state", text: flags.join(" · ") }),
    attached.length ? el("div", { class: "tb-attached" }, el("div", { class: "tb-attached-head", text: say("tb.attached") }),
      ...attached.map((a) => creatureCard(a, [], ctx.actionsFor(a.uid), client, ctx))) : null,
    actions.length ? el("div", { class: "tb-card-acts" }, ...actions.map((a) => miniButton(a, client, actionText(a, ctx)))) : null);
}

// ------------------------------------------------------------------ actions in words

function actionText(action, ctx) {
  const kind = kindOf(action);
  const v = action[kind];
  const nm = ctx.nm;
  switch (kind) {
    case "pick": return say("tb.act.pick", { card: cardName(v) });
    case "deploy": return say("tb.act.deploy", { card: cardName(v), zone: zoneName((byId[v] || {}).start_position || "") });
    case "alt_use": {
      const cost = ((byId[v] || {}).alternative_use || {}).extra_cost || {};
      return say("tb.act.alt_use", { card: cardName(v), ap: 1 + (cost.ap || 0), treasure: cost.treasure || undefined });
    }
    case "discard": return say("tb.act.discard", { card: cardName(v) });
    case "attach": {
      const host = ctx.creatures[v.host];
      return say("tb.act.attach", { card: cardName(v.card), host: creatureName(v.host), who: host ? nm(host.owner) : "" });
    }
    case "move": return say("tb.act.move", { creature: creatureName(v.creature), zone: zoneName(v.zone) });
    case "reattach": return say("tb.act.reattach", { creature: creatureName(v.creature), host: creatureName(v.host) });
    case "take": return say("tb.act.take", { creature: creatureName(v), amount: ctx.takeAmount(v) });
    case "steal": return say("tb.act.steal", { creature: creatureName(v.creature), whom: nm(v.victim) });
    case "activate": return say("tb.act.activate", { creature: creatureName(v) });
    case "target": {
      const t = ctx.creatures[v];
      return say("tb.act.target", { creature: creatureName(v), strength: t ? t.strength : "?", who: t ? nm(t.owner) : "" });
    }
    case "join": {
      const c = ctx.creatures[v];
      return say("tb.act.join", { creature: creatureName(v), strength: c ? c.strength : "?" });
    }
    case "strike": return say("tb.act.strike", ctx.attackSums());
    case "lose": {
      const c = ctx.creatures[v];
      return say("tb.act.lose", { creature: creatureName(v), strength: c ? c.strength : "?" });
    }
    case "pass": return say("tb.act.pass");
    default: return kind;
  }
}

/** The subject of an action: the card id (hand actions) or the creature uid it concerns. */
function subjectOf(action) {
  const kind = kindOf(action);
  const v = action[kind];
  if (["pick", "deploy", "alt_use", "discard"].includes(kind)) return { card: v };
  if (kind === "attach") return { card: v.card };
  if (["move", "reattach", "steal"].includes(kind)) return { uid: v.creature };
  if (["take", "activate", "target", "join", "lose"].includes(kind)) return { uid: v };
  return {};
}

// the panel's groups; picking, deploying, alternative uses and discards are buttons on the
// cards of the pack or hand (attaching is on both the panel and the host)
const PANEL_GROUPS = [
  ["attack", ["target", "join", "strike", "lose"]],
  ["creatures", ["take", "steal", "activate", "move", "reattach"]],
  ["hand", ["attach"]],
  ["turn", ["pass"]],
];

/** The legal actions as buttons, grouped (attack, creatures, attaching, end of turn). */
function actionPanel(snapshot, ctx, client) {
  const legal = snapshot.legal || [];
  if (!legal.length || (client && client.pending) || ctx.view.phase === "over") return null;
  const groups = [];
  if (legal.some((a) => ["pick", "deploy", "alt_use", "discard"].includes(kindOf(a)))) {
    groups.push(el("p", { class: "tb-act-hint muted small", text: say(ctx.view.phase === "draft" ? "tb.hint.pack" : "tb.hint.hand") }));
  }
  for (const [name, kinds] of PANEL_GROUPS) {
    const mine = legal.filter((a) => kinds.includes(kindOf(a)));
    if (!mine.length) continue;
    groups.push(el("div", { class: `tb-act-group tb-act-group-${name}` },
      el("div", { class: "tb-act-group-head", text: say(`tb.panel.${name}`) }),
      el("div", { class: "tb-act-buttons" }, ...mine.map((a) => el("button", {
        type: "button", class: `btn tb-act tb-act-${kindOf(a)}${kindOf(a) === "pass" ? " btn-ghost" : ""}`,
        dataset: { action: actionKey(a), kind: kindOf(a) }, text: actionText(a, ctx),
        onclick: () => client && client.act(a),
      })))));
  }
  if (!groups.length) return null;
  return el("div", { class: "tb-actions", id: "tb-actions", dataset: { phase: ctx.view.phase } }, ...groups);
}

// ------------------------------------------------------------------ status, result

function statusLine(snapshot, view, seat, nm, client) {
  const phase = view.phase;
  const legal = snapshot.legal || [];
  const mine = seat !== null && seat !== undefined && legal.length > 0;
  let key;
  let state;
  const p = { who: view.active >= 0 ? nm(view.active) : "", ap: view.ap, round: view.draft_round + 1 };
  if (view.attack) {
    const t = view.attack.target;
    p.creature = creatureName(t);
    const target = (view.creatures || []).find((c) => c.uid === t);
    p.defender = target ? nm(target.owner) : "";
    p.budget = view.attack.budget;
  }
  if (phase === "over" || snapshot.status === "finished") {
    key = "tb.phase.over";
    state = "over";
  } else if (client && client.pending) {
    key = "tb.you.sending";
    state = "sending";
  } else if (phase === "deal" || phase === "reshuffle") {
    key = `tb.phase.${phase}`;
    state = "chance";
  } else if (mine) {
    key = `tb.you.${phase}`;
    state = "yours";
  } else if (phase === "draft" && seat !== null && seat !== undefined) {
    key = "tb.wait.draft_picked";
    state = "waiting";
  } else {
    key = phase === "losses" ? "tb.wait.losses" : `tb.wait.${phase}`;
    state = "waiting";
  }
  const clock = mine ? el("span", { class: "seat-clock inline-clock", dataset: { clockSeat: seat } },
    client && client.clockText ? client.clockText(seat) : "") : null;
  return el("div", { class: "tb-status", id: "tb-status", "aria-live": "polite", dataset: { phase, state } },
    el("span", { text: say(key, p, phase) }), clock);
}

function resultBanner(snapshot, view, seat, nm, client) {
  const outcome = snapshot.result || view.outcome;
  if (!outcome || !(outcome.results || []).length) return null;
  const results = outcome.results;
  const ranks = outcome.ranks || results.map((r) => (r === "win" ? 1 : 2));
  const winners = results.map((r, s) => (r === "win" ? nm(s) : null)).filter(Boolean);
  let headline;
  let mood;
  if (seat !== null && seat !== undefined && results[seat]) {
    mood = results[seat];
    headline = say(`tb.outcome.${mood}`, {}, mood);
  } else {
    mood = "win";
    headline = say("tb.outcome.spectator", { winners: winners.join(", ") });
  }
  const order = results.map((_, s) => s).sort((a, b) => (ranks[a] - ranks[b]) || (a - b));
  return el("div", { class: `result result-${mood}`, id: "result", dataset: { testid: "result", results: results.join(",") } },
    el("div", { class: "result-headline", text: headline }),
    el("div", { class: "result-detail", text: [outcome.reason === "resigned" ? "" : say(`tb.reason.${outcome.reason}`, {}, outcome.reason || ""),
      ...resignedLines(outcome, seat, nm)].filter(Boolean).join(" ") }),
    el("ul", { class: "tb-ranking" }, ...order.map((s) => el("li", { dataset: { seat: s, rank: ranks[s] } },
      el("span", { text: `${ranks[s]}. ` }), el("strong", { text: nm(s) }),
      el("span", { class: "tb-rank-score", text: ` ${say("tb.treasures", { count: view.players[s] ? view.players[s].treasury : "" })}` }),
      el("span", { class: `tb-rank-result tb-rank-${results[s]}`, text: ` ${say(`tb.result.${results[s]}`, {}, results[s])}` })))),
    el("div", { class: "result-links" },
      el("a", { class: "btn", href: "/lobby", text: say("tb.back_to_lobby") }),
      snapshot.match_id && !(client && client.replay) ? el("a", { class: "btn btn-ghost", href: `/matches/${snapshot.match_id}/replay`, id: "watch-replay", text: say("tb.watch_replay") }) : null));
}

function infoBar(view, nm) {
  const center = view.center === null || view.center === undefined ? "∞" : String(view.center);
  return el("div", { class: "tb-info", id: "tb-info" },
    el("span", { class: "tb-center", id: "tb-center", dataset: { center }, title: say("tb.center_title") }, say("tb.center", { count: center })),
    view.phase !== "draft" && view.phase !== "deal"
      ? el("span", { class: "tb-ap", id: "tb-ap", dataset: { ap: view.ap } }, say("tb.ap", { who: nm(view.active), ap: view.ap }))
      : el("span", { class: "tb-draft-round", id: "tb-draft-round" }, say("tb.draft_round", { round: Math.min(view.draft_round + 1, 6) })),
    view.round ? el("span", { text: say("tb.round", { round: view.round, max: view.config && view.config.max_rounds ? view.config.max_rounds : "∞" }) }) : null,
    el("span", { class: "tb-deck", id: "tb-deck", dataset: { count: view.deck_size }, text: say("tb.deck", { count: view.deck_size }) }),
    el("details", { class: "tb-discard" }, el("summary", { text: say("tb.discard", { count: view.discard.length }) }),
      el("p", { class: "small muted", text: view.discard.map(cardName).join(", ") || say("tb.empty") })));
}

// ------------------------------------------------------------------ the draft

function draftPanel(snapshot, view, ctx, client) {
  const seat = snapshot.seat;
  const legal = snapshot.legal || [];
  const pending = client && client.pending;
  const pack = (view.pack && view.pack.pack) || [];
  const picks = (view.hand && view.hand.cards) || [];
  const picksOf = (card) => (pending ? [] : legal.filter((a) => a.pick === card));
  const seen = new Set();
  const packCards = pack.filter((c) => !seen.has(c) && seen.add(c));
  const n = view.players.length;
  const parts = [];
  if (seat !== null && seat !== undefined) {
    parts.push(el("section", { class: "tb-pack", id: "tb-pack", dataset: { count: pack.length } },
      el("h3", { text: say("tb.your_pack", { count: pack.length }) }),
      pack.length ? el("div", { class: "tb-cards" }, ...packCards.map((c) => handCard(c, picksOf(c), client, ctx)))
        : el("p", { class: "muted", text: say("tb.pack_empty") })),
    el("section", { class: "tb-picks", id: "tb-picks", dataset: { count: picks.length } },
      el("h3", { text: say("tb.your_picks", { count: picks.length }) }),
      picks.length ? el("div", { class: "tb-cards tb-cards-small" }, ...picks.map((c) => handCard(c, [], client, ctx)))
        : el("p", { class: "muted", text: say("tb.no_picks") })));
  }
  parts.push(el("p", { class: "tb-passing muted", id: "tb-passing" },
    say("tb.passing", { packs: view.players.map((p) => `${ctx.nm(p.seat)} ${p.pack_size}`).join(" · "), next: seat !== null && seat !== undefined ? ctx.nm((seat + 1) % n) : "" })));
  return el("div", { class: "tb-draft", id: "tb-draft" }, ...parts);
}

// ------------------------------------------------------------------ the table

function seatPanel(s, snapshot, view, ctx, client) {
  const seat = snapshot.seat;
  const p = view.players[s];
  const mine = (view.creatures || []).filter((c) => c.owner === s);
  const attachedTo = {};
  for (const c of view.creatures || []) if (c.host !== null && c.host !== undefined) (attachedTo[c.host] ||= []).push(c);
  const zones = ["center", "bushes", "start"].map((z) => {
    const here = mine.filter((c) => c.zone === z && (c.host === null || c.host === undefined));
    return el("div", { class: `tb-zone tb-zone-${z}`, dataset: { zone: z, count: here.length } },
      el("div", { class: "tb-zone-name", text: zoneName(z) }),
      el("div", { class: "tb-zone-cards" }, ...(here.length
        ? here.map((c) => creatureCard(c, attachedTo[c.uid] || [], ctx.actionsFor(c.uid), client, ctx))
        : [el("span", { class: "tb-zone-empty muted small", text: "—" })])));
  });
  const cls = ["tb-seat"];
  if (s === seat) cls.push("tb-seat-me");
  if (view.active === s && view.phase !== "draft") cls.push("tb-seat-active");
  if (p.eliminated) cls.push("tb-seat-out");
  return el("section", { class: cls.join(" "), id: `tb-seat-${s}`, dataset: { seat: s } },
    el("header", { class: "tb-seat-head" },
      el("span", { class: "tb-seat-name", text: ctx.nm(s) }),
      s === seat ? el("span", { class: "badge badge-you", text: say("tb.you") }) : null,
      view.active === s && view.phase !== "draft" && view.phase !== "over" ? el("span", { class: "badge badge-ok", text: say("tb.turn_badge") }) : null,
      p.eliminated ? el("span", { class: "badge", text: say("tb.out") }) : null,
      el("span", { class: "tb-hand-size muted small", text: say("tb.hand_size", { count: p.hand_size }) }),
      el("span", { class: "tb-treasury", id: `tb-treasury-${s}`, dataset: { treasury: p.treasury }, title: say("tb.treasury_title") },
        say("tb.treasures", { count: p.treasury }))),
    el("div", { class: "tb-zones" }, ...zones),
    revealedHand(view, s));
}

/** A finished match shows every hand (and a draft's packs) to everybody (view.hands / view.packs,
 * app/games/treasure_beasts/observe.py observe_finished); null while the match runs. */
function revealedHand(view, s) {
  const hand = ((view.hands || []).find((h) => h.seat === s) || {}).cards;
  if (!hand) return null;
  const pack = ((view.packs || []).find((p) => p.seat === s) || {}).pack || [];
  return el("p", { class: "tb-revealed muted small", dataset: { testid: `revealed-hand-${s}`, count: hand.length } },
    hand.length ? say("tb.revealed_hand", { cards: hand.map(cardName).join(", ") }) : say("tb.revealed_hand_empty"),
    pack.length ? ` ${say("tb.revealed_pack", { cards: pack.map(cardName).join(", ") })}` : "");
}

function handPanel(snapshot, view, ctx, client) {
  const hand = (view.hand && view.hand.cards) || [];
  const legal = (client && client.pending) ? [] : (snapshot.legal || []);
  const seen = new Set();
  const cards = hand.filter((c) => !seen.has(c) && seen.add(c));
  const count = (c) => hand.filter((x) => x === c).length;
  return el("section", { class: "tb-hand", id: "tb-hand", dataset: { count: hand.length } },
    el("h3", { text: say("tb.your_hand", { count: hand.length }) }),
    cards.length ? el("div", { class: "tb-cards" }, ...cards.map((c) => {
      const node = handCard(c, legal.filter((a) => subjectOf(a).card === c && kindOf(a) !== "attach"), client, ctx);
      if (count(c) > 1) node.querySelector(".tb-card-name").append(el("span", { class: "tb-copies", text: ` ×${count(c)}` }));
      return node;
    })) : el("p", { class: "muted", text: say("tb.hand_empty") }));
}

function attackPanel(view, ctx) {
  const a = view.attack;
  if (!a) return null;
  const target = ctx.creatures[a.target];
  const sum = a.attackers.reduce((acc, u, i) => acc + (a.strengths.length ? a.strengths[i] : ((ctx.creatures[u] || {}).strength || 0)), 0);
  const defence = a.strengths.length ? a.defence : (target ? target.strength : "?");
  return el("section", { class: "tb-attack", id: "tb-attack", dataset: { target: a.target, attackers: a.attackers.join(",") } },
    el("div", { text: say("tb.attack.target", { creature: creatureName(a.target), who: target ? ctx.nm(target.owner) : "", strength: defence }) }),
    el("div", { text: a.attackers.length ? say("tb.attack.attackers", { list: a.attackers.map((u) => creatureName(u)).join(", "), sum }) : say("tb.attack.none") }),
    a.strengths.length ? el("div", { class: "tb-attack-budget", text: say("tb.attack.budget", { budget: a.budget, lost: a.lost.map(creatureName).join(", ") || "—" }) }) : null);
}

// ------------------------------------------------------------------ render

function context(snapshot, view, client) {
  const nm = namer(client);
  const creatures = Object.fromEntries((view.creatures || []).map((c) => [c.uid, c]));
  for (const c of view.creatures || []) uidCard[c.uid] = c.card;
  const legal = (client && client.pending) ? [] : (snapshot.legal || []);
  const byUid = {};
  for (const a of legal) {
    const { uid } = subjectOf(a);
    if (uid !== undefined) (byUid[uid] ||= []).push(a);
    if (kindOf(a) === "attach") (byUid[a.attach.host] ||= []).push(a);
  }
  return {
    view, nm, creatures,
    actionsFor: (uid) => byUid[uid] || [],
    takeAmount: (uid) => {
      const c = creatures[uid];
      if (!c) return 1;
      return c.properties.includes("carrying_capacity") ? c.strength : 1;
    },
    attackSums: () => {
      const a = view.attack;
      if (!a) return { sum: 0, defence: 0 };
      const t = creatures[a.target];
      return { sum: a.attackers.reduce((acc, u) => acc + ((creatures[u] || {}).strength || 0), 0), defence: t ? t.strength : "?" };
    },
  };
}

/** Draw `snapshot` into `root`; the seat to act gets buttons (client.act). */
export function render(root, snapshot, client) {
  if (snapshot.status === "aborted") {
    root.replaceChildren(abortedNotice(snapshot, { expirySeconds: client && client.expirySeconds }));
    return;
  }
  const view = snapshot.view;
  const nm = namer(client);
  if (snapshot.status === "waiting" || !view) {
    root.replaceChildren(waitingForPlayers(snapshot, nm, client));
    return;
  }
  const ctx = context(snapshot, view, client);
  const seat = snapshot.seat;
  const over = snapshot.status === "finished" || view.phase === "over";
  const parts = [];
  if (over) {
    const banner = resultBanner(snapshot, view, seat, nm, client);
    if (banner) parts.push(banner);
  }
  parts.push(statusLine(snapshot, view, seat, nm, client));
  parts.push(infoBar(view, nm));
  const attack = attackPanel(view, ctx);
  if (attack) parts.push(attack);
  const actions = over ? null : actionPanel(snapshot, ctx, client);
  if (view.phase === "draft" || view.phase === "deal") {
    if (actions) parts.push(actions);
    parts.push(draftPanel(snapshot, view, ctx, client));
  } else {
    if (actions) parts.push(actions);
    if (seat !== null && seat !== undefined) parts.push(handPanel(snapshot, view, ctx, client));
  }
  const n = view.players.length;
  const start = seat !== null && seat !== undefined && seat >= 0 ? seat : 0;
  const order = Array.from({ length: n }, (_, i) => (start + i) % n);
  if (view.phase !== "draft" && view.phase !== "deal") {
    parts.push(el("div", { class: `tb-table tb-n${n}`, id: "tb-table" }, ...order.map((s) => seatPanel(s, snapshot, view, ctx, client))));
  } else {
    parts.push(el("div", { class: "tb-treasuries", id: "tb-table" }, ...order.map((s) => el("span", { class: "tb-treasury", id: `tb-treasury-${s}`, dataset: { treasury: view.players[s].treasury } },
      `${nm(s)}: ${say("tb.treasures", { count: view.players[s].treasury })}`))));
    if (view.hands) { // a match that ended in the draft: every hand and pack, face up
      parts.push(el("div", { class: "tb-revealed-all", id: "tb-revealed" },
        ...order.map((s) => el("div", { class: "tb-revealed-seat" }, el("strong", { text: nm(s) }), revealedHand(view, s)))));
    }
  }
  root.replaceChildren(el("div", { class: "tb", dataset: { phase: view.phase, over: over ? "true" : "false", version: snapshot.version } }, ...parts));
}

function waitingForPlayers(snapshot, nm, client) {
  const expiry = client && client.expirySeconds;
  const cancel = cancelButton(client, snapshot);
  const seats = snapshot.seats || [];
  return el("div", { class: "tb tb-waiting", id: "waiting-for-players" },
    el("h2", { text: say("tb.waiting.title") }),
    joinButton(snapshot, client),
    el("p", { text: say("tb.waiting.seats", { taken: seats.filter((s) => s.user || s.bot).length, total: seats.length }) }),
    el("p", { class: "muted", text: say("tb.waiting.players", { names: seats.filter((s) => s.user || s.bot).map((s) => nm(s.seat)).join(", ") || "—" }) }),
    cancel ? el("p", { class: "waiting-cancel" }, cancel,
      el("span", { class: "muted small", text: expiry ? ` ${say("tb.waiting.expiry", { duration: formatDuration(expiry) })}` : "" })) : null);
}

// ------------------------------------------------------------------ the log

/** One log line for an input, or null when the events of the step say it all. */
export function describeInput(entry, client) {
  if (entry.kind === "timeout") return say("tb.input.timeout", { who: namer(client)(entry.seat) });
  if (["action", "bot", "chance"].includes(entry.kind)) return null;
  return undefined;
}

/** One log line for an engine event (codes and parameters through messages.js). */
export function describeEvent(ev, entry, client) {
  const nm = namer(client);
  if ((ev.kind === "entered" || ev.kind === "left") && ev.uid !== undefined && ev.card) uidCard[ev.uid] = ev.card;
  const p = { ...ev };
  if (ev.seat !== undefined && ev.seat !== null && ev.seat >= 0) p.who = nm(ev.seat);
  if (ev.victim !== undefined) p.whom = nm(ev.victim);
  if (ev.card) p.card = cardName(ev.card);
  if (ev.uid !== undefined) p.creature = creatureName(ev.uid);
  if (ev.target !== undefined) p.target_name = creatureName(ev.target);
  if (ev.zone !== undefined) p.zone = typeof ev.zone === "number" ? zoneName(["start", "bushes", "center"][ev.zone]) : zoneName(ev.zone);
  if (ev.why && byId[ev.why]) p.source = cardName(ev.why);
  // a pack, a pick or a drawn card reaches only its own seat while the match runs, and every seat
  // once it is over (a finished match's log and replay): "Your pack" is the viewer's own seat only
  const own = client && client.seat !== null && client.seat !== undefined && ev.seat === client.seat ? "own" : "seat";
  switch (ev.kind) {
    case "dealt":
      return ev.pack ? say(`tb.ev.dealt.${own}`, { ...p, cards: ev.pack.map(cardName).join(", ") }) : null;
    case "picked":
      return ev.card ? say(`tb.ev.picked.${own}`, p) : null;
    case "drew":
      return ev.cards ? say(`tb.ev.drew.${own}`, { ...p, cards: ev.cards.map(cardName).join(", ") }) : say("tb.ev.drew", p);
    case "entered":
      return say(ev.host !== null && ev.host !== undefined ? "tb.ev.entered.attached" : `tb.ev.entered.${ev.how}`,
        { ...p, host: ev.host !== null && ev.host !== undefined ? creatureName(ev.host) : "" }, null);
    case "left":
      return say(`tb.ev.left.${ev.to}`, { ...p, reason: say(`tb.why.${ev.reason}`, {}, ev.reason) });
    case "moved":
      return say("tb.ev.moved", { ...p, from: zoneName(ev.from), to: zoneName(ev.to) });
    case "reattached":
      return say("tb.ev.reattached", { ...p, host: creatureName(ev.to) });
    case "treasure": {
      const why = p.source || say(`tb.why.${ev.why}`, {}, ev.why);
      return say(ev.amount >= 0 ? "tb.ev.treasure.gain" : "tb.ev.treasure.pay", { ...p, count: Math.abs(ev.amount), why });
    }
    case "stolen":
      return say("tb.ev.stolen", { ...p, count: ev.amount, why: p.source || say(`tb.why.${ev.why}`, {}, ev.why) });
    case "ability":
      return say(`tb.ev.ability.${ev.trigger}`, p, null);
    case "attack_declared":
      return say("tb.ev.attack_declared", p);
    case "attacker_joined":
      return say("tb.ev.attacker_joined", p);
    case "strike":
      return say(ev.target_destroyed ? "tb.ev.strike.destroyed" : "tb.ev.strike.holds", p);
    case "attack_resolved": {
      const lost = (ev.attackers_lost || []).map(creatureName).join(", ");
      return lost ? say("tb.ev.attack_resolved", { ...p, lost }) : say("tb.ev.attack_resolved.none", p);
    }
    case "discarded":
      return say(ev.why === "hand_limit" ? "tb.ev.discarded.limit" : "tb.ev.discarded.effect", { ...p, cards: (ev.cards || []).map(cardName).join(", ") });
    case "pushed":
    case "readied":
    case "tired":
      return say(`tb.ev.${ev.kind}`, p);
    case "eliminated":
      return say("tb.ev.eliminated", p);
    case "game_over":
      return say("tb.ev.game_over", { winners: (ev.winners || []).map(nm).join(", "), reason: say(`tb.reason.${ev.reason}`, {}, ev.reason) });
    default:
      return knows(`tb.ev.${ev.kind}`) ? say(`tb.ev.${ev.kind}`, p, null) : null;
  }
}
