// Scratch Wars duel: draws a snapshot (both heroes with lives, energy, time of day and their
// weapons, the last spin turning to its segment, the attack being resolved, the result) and
// offers exactly the choices in `legal` as buttons. See rules/scratch_wars.md and the engine's
// docstrings (app/games/scratch_wars/observe.py, actions.py and events.py) for the view, the actions and the events.
//
// Module contract (static/js/match_client.js): setup(client), render(root, snapshot, client),
// describeEvent(event, entry, client), describeInput(entry, client).

import { api, el } from "/static/js/api.js";
import { errorText, formatNumber, say as t } from "/static/js/messages.js";
import { dropDraft, readDraft, saveDraft } from "/static/js/drafts.js";
import { abortedNotice, cancelButton, joinButton } from "/static/js/match_client.js";
import { loadoutBuilder, loadoutLine, MAX_WEAPONS } from "/static/js/scratch_wars_builder.js";
import {
  bonusChip, bonusKindName, effectName, EFFECTS, ensureStyles, icon, kindName, landingAngle, legend, loadCatalog, signed,
  timeColumn, timeName, timeRow, TIMES, typeName, typesName, weaponLabel, weaponTranslation, wheelSvg,
} from "/static/js/scratch_wars_cards.js";

const SPIN_MS = 1600;
const MAX_ENERGY = 12;
const ACTIONS = 4;
// the log and result lines are messages.js's "sw.*" entries (translated in static/i18n/<locale>.json)
const REASONS = new Set(["defeated", "day3_penalty"]);
const END_REASONS = new Set(["voluntary", "actions", "field", "energy"]);

let cat = null;
let decks = null; // the player's saved loadouts, or null while unknown
let decksError = "";
const uiState = new WeakMap(); // root -> {tab, builder, spins: {key -> startedAt}, firstRender}

// ------------------------------------------------------------------ data

/** Load the card set (and the player's saved loadouts) before the first render. */
export async function setup(client) {
  ensureStyles();
  try {
    cat = await loadCatalog();
  } catch (err) {
    cat = { heroes: [], weapons: [], hero: {}, weapon: {} };
  }
  if (client && client.user && isSeat(client.seat)) await loadDecks(null);
}

let decksLoading = false;

async function loadDecks(client) {
  decksLoading = true;
  try {
    decks = (await api("GET", "/api/decks?game=scratch_wars")).decks;
    decksError = "";
  } catch (err) {
    decks = [];
    decksError = errorText(err);
  }
  decksLoading = false;
  if (client && client.render) client.render();
}

/** Saved loadouts again (the player may have saved one in another tab meanwhile). */
function reloadDecks(client) {
  decks = null;
  loadDecks(client);
}

function weaponOf(code) {
  return (cat && cat.weapon[code]) || { code, name: code, type: "sword", wheel: [], energy_cost: 1, durability: 1 };
}

function heroOf(code) {
  return (cat && cat.hero[code]) || null;
}

function nameOf(client, seat) {
  return client && client.seatName ? client.seatName(seat) : t("sw.board.player", { number: seat + 1 });
}

function isSeat(seat) {
  return seat === 0 || seat === 1;
}

function effectValue(effect, value) {
  return `${effectName(effect)} ${value}`;
}

// ------------------------------------------------------------------ spins

/** The latest spin_result / start_spin event the client has, with a key (version:index). */
function lastSpins(client) {
  let spin = null;
  let start = null;
  for (const entry of (client && client.events) || []) {
    (entry.events || []).forEach((ev, i) => {
      if (ev.kind === "spin_result") spin = { ...ev, key: `${entry.version}:${i}` };
      else if (ev.kind === "start_spin") start = { ...ev, key: `${entry.version}:${i}` };
    });
  }
  return { spin, start };
}

function jitter(key, n) {
  let h = 0;
  for (const ch of key) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  const width = 360 / n;
  return ((h % 1000) / 1000 - 0.5) * width * 0.55;
}

function reducedMotion() {
  return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * A wheel under a pointer, turned so that `segment` is under it. The first time a key is drawn
 * after the page has started, the wheel turns there (several full turns, slowing down); a re-render
 * during the turn continues the same motion (Web Animations with the elapsed time).
 */
function spinningWheel(st, key, weapon, segment, { size = 200, label = "" } = {}) {
  const n = (weapon.wheel || []).length || 1;
  const final = landingAngle(segment, n) + jitter(key, n);
  if (!(key in st.spins)) st.spins[key] = st.firstRender || reducedMotion() ? -Infinity : performance.now();
  const elapsed = performance.now() - st.spins[key];
  const wheel = wheelSvg(weapon, { size, highlight: segment });
  wheel.classList.add("sw-spinning-wheel");
  wheel.style.transform = `rotate(${final}deg)`;
  const box = el("div", { class: "sw-spinner", dataset: { segment, key, testid: "spinner" } },
    wheel, el("div", { class: "sw-pointer", "aria-hidden": "true" }));
  if (elapsed < SPIN_MS && wheel.animate) {
    const from = final - 360 * 4 - 90;
    const anim = wheel.animate([{ transform: `rotate(${from}deg)` }, { transform: `rotate(${final}deg)` }],
      { duration: SPIN_MS, easing: "cubic-bezier(0.12, 0.75, 0.2, 1)", fill: "both" });
    anim.currentTime = Math.max(0, elapsed);
    box.classList.add("sw-turning");
  }
  if (label) box.append(el("div", { class: "sw-spinner-label", text: label }));
  return { box, elapsed };
}

/** The caption under a wheel, faded in as the wheel stops. */
function reveal(node, elapsed) {
  if (elapsed < SPIN_MS && node.animate) {
    const anim = node.animate([{ opacity: 0 }, { opacity: 0, offset: 0.8 }, { opacity: 1 }], { duration: SPIN_MS, fill: "both" });
    anim.currentTime = Math.max(0, elapsed);
  }
  return node;
}

function segmentBadge(seg) {
  return el("span", { class: `sw-seg-badge sw-seg-badge-${seg.field}` }, icon(seg.effect), el("strong", { text: String(seg.value) }),
    el("span", { class: "sw-seg-badge-field", text: t(`sw.field.${seg.field}`, {}, seg.field) }));
}

// ------------------------------------------------------------------ the heroes

function livesBar(h) {
  const pct = Math.max(0, Math.min(100, (h.lives / h.max_lives) * 100));
  const low = h.lives <= Math.max(5, h.max_lives * 0.25);
  return el("div", { class: `sw-lives${low ? " sw-low" : ""}`, title: t("sw.board.lives_title", { lives: h.lives, max: h.max_lives }) },
    el("span", { class: "sw-lives-icon" }, icon("heart", { title: "" })),
    el("span", { class: "sw-lives-num", dataset: { testid: `lives-${h.seat}` }, text: String(h.lives) }),
    el("span", { class: "sw-lives-max", text: `/ ${h.max_lives}` }),
    el("span", { class: "sw-bar" }, el("span", { class: "sw-bar-fill", style: `width: ${pct}%` })));
}

function energyMeter(h) {
  const pips = [];
  for (let i = 0; i < MAX_ENERGY; i += 1) pips.push(el("span", { class: `sw-pip${i < h.energy ? " on" : ""}` }));
  return el("div", { class: "sw-energy", title: t("sw.board.energy_title", { energy: h.energy, max: MAX_ENERGY }) },
    icon("energy", { title: "" }),
    el("span", { class: "sw-energy-num", dataset: { testid: `energy-${h.seat}` }, text: String(h.energy) }),
    el("span", { class: "sw-pips", "aria-hidden": "true" }, ...pips));
}

/** A weapon's state ("ready", "broken", "repairing", "holding") in the page's language. */
function stateText(state) {
  return t(`sw.state.${state}`, {}, state);
}

function weaponTile(w, h, view, marks) {
  const card = weaponOf(w.code);
  const cls = ["sw-card", "sw-weapon", "sw-compact", "sw-tile", `sw-cost-${w.cost}`, `sw-state-${w.state}`];
  if (marks.spinning === w.slot) cls.push("sw-is-spinning");
  if (marks.target === w.slot) cls.push("sw-is-target");
  if (marks.shield && marks.shield.includes(w.slot)) cls.push("sw-is-shield");
  if (marks.combo && marks.combo.includes(w.slot)) cls.push("sw-is-combo");
  const extra = w.spin_cost > w.cost;
  const state = w.state === "holding" && w.effect
    ? el("div", { class: `sw-tile-state sw-held sw-held-${w.effect.effect}`, title: t("sw.board.holds_title", { effect: effectName(w.effect.effect), value: w.effect.value }) },
      icon("flag", { title: "" }), icon(w.effect.effect, { title: "" }), el("span", { text: `${effectName(w.effect.effect)} ${w.effect.value}` }))
    : el("div", { class: "sw-tile-state", title: w.state === "repairing" ? t("sw.board.repairing_title") : stateText(w.state) },
      w.state === "broken" ? icon("broken", { title: "" }) : w.state === "repairing" ? icon("repair", { title: "" }) : null,
      stateText(w.state));
  return el("div", { class: cls.join(" "), dataset: { slot: w.slot, code: w.code, state: w.state, testid: `weapon-${h.seat}-${w.slot}` } },
    el("div", { class: "sw-card-head" },
      el("div", { class: "sw-card-title" }, el("span", { class: "sw-card-name", lang: "cs", text: w.name, title: weaponTranslation(card) || null }))),
    el("div", { class: "sw-card-meta" },
      el("span", { class: "sw-type", title: typeName(w.type) }, icon(w.type, { title: "" })),
      el("span", { class: "sw-dur-badge", title: t("sw.card.durability_title", { value: w.durability }) },
        icon("durability", { title: "" }), el("span", { class: "sw-dur-value", text: String(w.durability) })),
      view.level === 3 ? el("span", {
        class: `sw-cost-badge${extra ? " sw-cost-extra" : ""}`,
        title: extra ? t("sw.board.cost_extra", { cost: w.spin_cost, count: w.spin_cost, base: w.cost, hero: heroName(h) }) : t("sw.board.cost", { cost: w.spin_cost, count: w.spin_cost }),
      }, icon("energy", { title: "" }), el("span", { text: String(w.spin_cost) })) : null),
    el("div", { class: "sw-wheel-box" }, wheelSvg(card, { size: 84 })),
    state);
}

function heroName(h) {
  return h ? h.name : "";
}

function heroPanel(view, h, { me, active, name, marks, client }) {
  const card = heroOf(h.hero);
  const level = view.level;
  const turn = view.active === h.seat && !view.over && view.round > 0;
  const head = el("div", { class: "sw-side-head" },
    el("div", { class: "sw-side-names" },
      el("span", { class: "sw-side-player" }, name, me ? el("span", { class: "badge badge-you", text: t("sw.board.you") }) : null,
        turn ? el("span", { class: "badge sw-badge-turn", text: t("sw.board.turn") }) : null,
        view.starter === h.seat ? el("span", { class: "badge", title: t("sw.board.starts_title"), text: t("sw.board.starts") }) : null),
      el("span", { class: "sw-side-hero" }, el("strong", { text: h.name }), card ? el("span", { class: "muted", text: ` · ${kindName(card)}` }) : null,
        el("span", { class: "sw-hero-types" }, ...h.weapon_types.map((type) => el("span", { class: "sw-type", title: t("sw.board.uses_type", { types: typesName(type) }) }, icon(type, { title: "" })))))),
    el("div", { class: "sw-side-stats" }, livesBar(h), level === 3 ? energyMeter(h) : null));
  const parts = [head];
  if (level >= 2 && card) {
    const tod = view.time_of_day;
    const used = new Set(((h.column && h.column.bonuses) || []).filter((b) => b.used).map((b) => b.index));
    parts.push(timeRow("sw-tods sw-tods-small",
      card.times_of_day.map((col, t) => timeColumn(col, t, { current: tod === t, used: tod === t ? used : null, energy: level === 3 }))));
  }
  parts.push(el("div", { class: "sw-tiles" }, ...h.weapons.map((w) => weaponTile(w, h, view, marks))));
  return el("section", {
    class: `sw-side${me ? " sw-side-me" : ""}${turn ? " sw-side-turn" : ""}${marks.heroTarget ? " sw-is-target" : ""}`,
    dataset: { seat: h.seat, testid: `side-${h.seat}` },
  }, ...parts);
}

// ------------------------------------------------------------------ the centre: round, spin, attack

function roundLine(view) {
  const parts = [];
  if (view.round > 0) {
    if (view.level >= 2 && view.time_of_day !== null && view.time_of_day !== undefined) {
      const key = TIMES[view.time_of_day];
      parts.push(el("span", { class: `sw-round-tod sw-tod-${key}` }, icon(key, { title: "" }), ` ${t("sw.board.day", { day: view.day, time: timeName(view.time_of_day) })}`));
      if (view.day >= 3) parts.push(el("span", { class: "sw-day3", title: t("sw.board.day3_title"), text: t("sw.board.day3") }));
      else if (view.day === 2 && view.time_of_day === 3) parts.push(el("span", { class: "sw-day3 sw-day3-soon", text: t("sw.board.day3_next") }));
    }
    parts.push(el("span", { class: "sw-round-no", text: t("sw.board.round", { round: view.round }) }));
    if (!view.over && ["main", "decide", "target", "shield", "spin"].includes(view.phase)) {
      const pips = [];
      for (let i = 0; i < ACTIONS; i += 1) pips.push(el("span", { class: `sw-action-pip${i < view.actions ? " on" : ""}` }));
      parts.push(el("span", { class: "sw-actions", title: t("sw.board.actions_title", { count: view.actions, max: ACTIONS }), dataset: { testid: "actions" } },
        el("span", { class: "sw-actions-label", text: t("sw.board.actions") }), ...pips));
    }
  }
  return parts.length ? el("div", { class: "sw-round", id: "sw-round" }, ...parts) : null;
}

function spinStage(view, client, st) {
  const { spin, start } = lastSpins(client);
  if (["start_weapon", "start_spin", "start_choice"].includes(view.phase) || (view.round === 0 && start)) {
    if (!view.start || !view.start.segments) {
      return el("div", { class: "sw-stage sw-stage-empty", id: "sw-stage" },
        el("p", { class: "muted", text: t("sw.board.start_empty") }));
    }
    const wheels = [0, 1].map((s) => {
      const w = weaponOf(view.start.weapons[s]);
      const seg = view.start.segments[s];
      const { box, elapsed } = spinningWheel(st, `${start ? start.key : "start"}:${s}`, w, seg, { size: 150, label: nameOf(client, s) });
      box.append(reveal(el("div", { class: "sw-spinner-value", text: String(view.start.values[s]) }), elapsed));
      return { box, elapsed };
    });
    const winner = view.start.winner;
    const caption = winner === null || winner === undefined ? t("sw.board.start_tie")
      : t("sw.board.start_winner", { who: nameOf(client, winner) });
    return el("div", { class: "sw-stage sw-stage-start", id: "sw-stage" },
      el("div", { class: "sw-stage-wheels" }, wheels[0].box, el("span", { class: "vs", text: t("sw.board.vs") }), wheels[1].box),
      reveal(el("p", { class: "sw-stage-caption", text: caption }), Math.max(wheels[0].elapsed, wheels[1].elapsed)));
  }
  if (view.spin && (view.spin.segment === null || view.spin.segment === undefined)) { // the wheel is turning
    const w = weaponOf(view.spin.weapon);
    const wheel = wheelSvg(w, { size: 200 });
    wheel.classList.add("sw-spinning-wheel", "sw-turning-loop");
    return el("div", { class: "sw-stage", id: "sw-stage" },
      el("div", { class: "sw-spinner" }, wheel, el("div", { class: "sw-pointer", "aria-hidden": "true" })),
      el("p", { class: "sw-stage-who" }, t("sw.board.spinning", { who: nameOf(client, view.spin.seat), weapon: weaponLabel(w) })));
  }
  const current = view.spin && view.spin.segment !== null && view.spin.segment !== undefined ? view.spin : null;
  const shown = current ? { ...current, key: spin && spin.seat === current.seat && spin.slot === current.slot ? spin.key : `v${client && client.snapshot ? client.snapshot.version : 0}` } : spin;
  if (!shown) {
    return el("div", { class: "sw-stage sw-stage-empty", id: "sw-stage" },
      el("p", { class: "muted", text: t("sw.board.no_spin") }));
  }
  const w = weaponOf(shown.weapon);
  const seg = { effect: shown.effect, value: shown.value, field: shown.field };
  const { box, elapsed } = spinningWheel(st, shown.key, w, shown.segment, { size: 200 });
  const who = nameOf(client, shown.seat);
  const counts = shown.resolves_as && shown.resolves_as !== shown.effect ? ` ${t("sw.board.counts_as", { effect: effectName(shown.resolves_as) })}` : "";
  const caption = el("div", { class: "sw-stage-text" },
    el("p", { class: "sw-stage-who" }, t(current ? "sw.board.spun" : "sw.board.last_spin", { who, weapon: weaponLabel(w) })),
    el("p", { class: "sw-stage-result" }, segmentBadge(seg), el("span", { text: ` ${effectName(seg.effect)} ${seg.value}${counts}` })),
    el("p", { class: "muted small", text: fieldHint(seg.field, view) }));
  return el("div", { class: `sw-stage sw-stage-${seg.field}`, id: "sw-stage", dataset: { field: seg.field, segment: shown.segment } },
    box, reveal(caption, elapsed));
}

function fieldHint(field, view) {
  if (field === "green") return view.level >= 2 ? t("sw.hint.green") : t("sw.hint.green_level1");
  if (field === "orange") return t("sw.hint.orange");
  return t("sw.hint.red");
}

/** The target of an attack in words: "Bob's hero", "your Plechový krátký meč (Tin Shortsword)", "the Shield 2 held on Bob's ...". */
function targetText(view, target, client, { yours = false } = {}) {
  if (!target) return "";
  const who = nameOf(client, target.seat);
  const mine = yours ? "your" : "other";
  if (target.kind === "hero") return t(`sw.target.${mine}_hero`, { who });
  const h = view.heroes[target.seat];
  const w = h && h.weapons[target.slot];
  const weapon = weaponLabel(weaponOf(w ? w.code : target.weapon));
  if (target.kind === "weapon") return t(`sw.target.${mine}_weapon`, { who, weapon });
  if (w && w.effect) return t(`sw.target.${mine}_held`, { who, weapon, effect: effectValue(w.effect.effect, w.effect.value) });
  return t(`sw.target.${mine}_held_effect`, { who, weapon });
}

function attackBox(view, client) {
  const a = view.attack;
  if (!a) return null;
  const source = a.source === "combo" || a.source === "permanent_attack" ? effectName(a.source) : effectName(a.effect);
  const shields = a.shields && a.shields.length ? ` ${t("sw.board.shields_spent", { count: a.shields.length, value: a.value })}` : "";
  return el("div", { class: "sw-attack", id: "sw-attack", dataset: { value: a.value } },
    icon(a.source === "combo" ? "combo" : a.source === "permanent_attack" ? "permanent_attack" : a.effect, { title: "" }),
    el("span", {}, el("strong", { text: `${nameOf(client, a.seat)}: ${source} ${a.declared}` }),
      ` ${a.target ? t("sw.board.attack_on", { target: targetText(view, a.target, client) }) : t("sw.board.choosing_target")}`, shields));
}

// ------------------------------------------------------------------ choices (from `legal`)

function bonusFrom(view, index) {
  const h = view.heroes[view.active];
  if (index === null || index === undefined || !h || !h.column) return null;
  return h.column.bonuses.find((b) => b.index === index) || null;
}

function useLabel(view, action) {
  const s = view.spin;
  const w = view.heroes[view.active].weapons[s.slot];
  const b = bonusFrom(view, action.use.bonus);
  const value = Math.max(0, s.value + (b ? b.value : 0));
  const kind = s.resolves_as;
  let verb;
  if (EFFECTS[kind] && EFFECTS[kind].deferred) verb = t("sw.choice.defer", { effect: effectName(kind), value, weapon: weaponLabel(weaponOf(w.code)) });
  else if (kind === "energy") verb = view.level === 3 ? t("sw.choice.gain_energy", { value, count: value }) : t("sw.choice.use_energy_empty");
  else if (kind === "heal") verb = t("sw.choice.heal", { value });
  else verb = t("sw.choice.use", { effect: effectName(kind), value });
  const sub = [];
  if (b) sub.push(b.value < 0 ? t("sw.choice.penalty", { value: signed(b.value) }) : t("sw.choice.with_bonus", { bonus: bonusName(b), value: signed(b.value) }));
  if (s.field === "orange") sub.push(t("sw.choice.ends_turn"));
  if (s.field === "red") sub.push(t("sw.choice.turn_ends"));
  return { title: verb, sub: sub.join(" · "), chip: b ? bonusChip(b) : null, primary: true };
}

function bonusName(b) {
  if (b.kind === "effect") return t("sw.choice.effect_bonus", { effect: effectName(b.effect) });
  return bonusKindName(b.kind);
}

function skipLabel(view) {
  const f = view.spin && view.spin.field;
  if (f === "red") return { title: t("sw.choice.skip"), sub: t("sw.choice.skip_red") };
  return { title: t("sw.choice.skip"), sub: t("sw.choice.skip_sub") };
}

function comboSum(view) {
  const h = view.heroes[view.active];
  return (view.combo_selection || []).reduce((sum, j) => sum + ((h.weapons[j].effect && h.weapons[j].effect.value) || 0), 0);
}

/** Button text for one legal action: {title, sub, primary, danger, chip}. */
function describeChoice(view, action, client) {
  const me = view.heroes[client && isSeat(client.seat) ? client.seat : view.active];
  const actor = view.heroes[view.active];
  const opp = view.heroes[1 - view.active];
  const key = Object.keys(action)[0];
  const energyNote = (cost) => (view.level === 3 ? `${t("sw.choice.energy", { cost, count: cost })} · ` : "");
  const label = (w) => weaponLabel(weaponOf(w.code));
  switch (key) {
    case "spin": {
      const w = actor.weapons[action.spin];
      return { title: t("sw.choice.spin", { weapon: label(w) }), sub: `${energyNote(w.spin_cost)}${t("sw.choice.one_action")}`, primary: true, icon: w.type };
    }
    case "repair": {
      const w = actor.weapons[action.repair];
      return { title: t("sw.choice.repair", { weapon: label(w) }), sub: `${energyNote(w.spin_cost)}${t("sw.choice.one_action")} · ${t("sw.choice.usable_next")}`, icon: "repair" };
    }
    case "cancel": {
      const w = actor.weapons[action.cancel];
      return { title: t("sw.choice.cancel", { effect: effectValue(w.effect.effect, w.effect.value), weapon: label(w) }), sub: t("sw.choice.cancel_sub"), icon: w.effect.effect };
    }
    case "end_turn":
      return { title: t("sw.choice.end_turn"), sub: view.ending ? "" : t("sw.choice.unused", { count: view.actions }), icon: null };
    case "use":
      return useLabel(view, action);
    case "skip":
      return skipLabel(view);
    case "target": {
      const v = view.attack ? view.attack.value : 0;
      if (action.target === "hero") return { title: t("sw.choice.hit_hero", { who: nameOf(client, opp.seat) }), sub: t("sw.choice.hit_hero_sub", { value: v, count: v, lives: opp.lives }), primary: true, icon: "heart" };
      const w = opp.weapons[action.slot];
      const sub = t("sw.choice.durability", { durability: w.durability, value: v });
      if (action.target === "weapon") return { title: t("sw.choice.break", { weapon: label(w) }), sub, primary: true, icon: "broken" };
      return { title: t("sw.choice.cancel_held", { effect: effectValue(w.effect.effect, w.effect.value), weapon: label(w) }), sub, primary: true, icon: w.effect.effect };
    }
    case "shield": {
      const w = me.weapons[action.shield];
      const v = view.attack ? view.attack.value : 0;
      return { title: t("sw.choice.shield", { value: w.effect.value, weapon: label(w) }), sub: t("sw.choice.shield_sub", { value: Math.max(0, v - w.effect.value) }), primary: true, icon: "shield" };
    }
    case "take_hit": {
      const v = view.attack ? view.attack.value : 0;
      const target = view.attack && view.attack.target;
      const on = targetText(view, target, client, { yours: !!target && target.seat === me.seat });
      return { title: view.attack && view.attack.shields.length ? t("sw.choice.no_more_shields") : t("sw.choice.take_hit"), sub: t("sw.choice.take_hit_sub", { value: v, target: on }), danger: true, icon: null };
    }
    case "fire": {
      const w = actor.weapons[action.fire];
      const rest = (view.permanent_queue || []).filter((j) => j !== action.fire).length;
      return { title: t("sw.choice.fire", { weapon: label(w), value: w.effect.value }), sub: t("sw.choice.fire_sub", { who: nameOf(client, opp.seat), count: rest }), primary: true, icon: "permanent_attack" };
    }
    case "combo": {
      const w = actor.weapons[action.combo];
      return { title: t("sw.choice.combo", { value: w.effect.value, weapon: label(w) }), sub: t("sw.choice.combo_sub"), icon: "combo" };
    }
    case "detonate": {
      const b = bonusFrom(view, action.detonate.bonus);
      const sum = comboSum(view);
      const total = Math.max(0, sum + (b ? b.value : 0));
      const n = (view.combo_selection || []).length;
      return { title: t("sw.choice.detonate", { value: total }), sub: `${t("sw.choice.combos", { count: n })}${b ? ` ${signed(b.value)} ${bonusName(b).toLocaleLowerCase()}` : ""}`, primary: true, icon: "combo", chip: b ? bonusChip(b) : null };
    }
    case "keep_combos":
      return { title: t("sw.choice.keep_combos"), sub: t("sw.choice.keep_combos_sub") };
    case "start_weapon": {
      const w = me.weapons[action.start_weapon];
      const vals = weaponOf(w.code).wheel.map((s) => s.value);
      const avg = vals.length ? vals.reduce((a, b) => a + b, 0) / vals.length : 0;
      return { title: t("sw.choice.spin", { weapon: label(w) }), sub: t("sw.choice.start_values", { min: Math.min(...vals), max: Math.max(...vals), average: formatNumber(avg, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) }), primary: true, icon: w.type };
    }
    case "starter":
      if (action.starter === (client && client.seat)) return { title: t("sw.choice.i_start"), sub: t("sw.choice.i_start_sub"), primary: true };
      return { title: t("sw.choice.other_starts", { who: nameOf(client, action.starter) }), sub: t("sw.choice.other_starts_sub") };
    default:
      return { title: JSON.stringify(action) };
  }
}

const PROMPTS = {
  main: (view) => t(view.level === 3 ? "sw.prompt.main_energy" : "sw.prompt.main"),
  decide: () => t("sw.prompt.decide"),
  target: (view) => t("sw.prompt.target", { value: view.attack ? view.attack.value : "" }),
  shield: () => t("sw.prompt.shield"),
  combo: () => t("sw.prompt.combo"),
  order: () => t("sw.prompt.order"),
  start_weapon: () => t("sw.prompt.start_weapon"),
  start_choice: () => t("sw.prompt.start_choice"),
};

/** The order the choices are listed in (the engine's order within a kind). */
const CHOICE_ORDER = ["spin", "use", "target", "shield", "fire", "detonate", "combo", "start_weapon", "starter", "repair", "cancel",
  "skip", "take_hit", "keep_combos", "end_turn"];

function choicesPanel(view, snapshot, client) {
  const rank = (a) => { const i = CHOICE_ORDER.indexOf(Object.keys(a)[0]); return i < 0 ? CHOICE_ORDER.length : i; };
  const legal = [...(snapshot.legal || [])].sort((x, y) => rank(x) - rank(y));
  const pending = client && client.pending;
  const buttons = legal.map((action) => {
    const d = describeChoice(view, action, client);
    const kind = Object.keys(action)[0];
    return el("button", {
      type: "button", class: `btn sw-choice${d.primary ? "" : " btn-ghost"}${d.danger ? " sw-choice-danger" : ""}`,
      dataset: { kind, action: JSON.stringify(action) }, disabled: !!pending,
      onclick: () => { if (client && !client.pending) client.act(action); },
    }, d.icon ? icon(d.icon, { title: "" }) : null,
    el("span", { class: "sw-choice-text" }, el("span", { class: "sw-choice-title", text: d.title }), d.sub ? el("span", { class: "sw-choice-sub", text: d.sub }) : null),
    d.chip || null);
  });
  const prompt = PROMPTS[view.phase] ? PROMPTS[view.phase](view) : t("sw.prompt.other");
  return el("div", { class: "sw-choices", id: "sw-choices", dataset: { phase: view.phase, pending: pending ? "true" : "false" } },
    el("p", { class: "sw-prompt", text: pending ? t("sw.prompt.sending") : prompt }),
    el("div", { class: "sw-choice-list" }, ...buttons));
}

function waitingLine(view, snapshot, client) {
  const toAct = snapshot.to_act || [];
  if (!toAct.length) return null;
  const who = toAct.map((s) => nameOf(client, s)).join(", ");
  const phase = ["main", "decide", "target", "shield", "combo", "order", "start_weapon", "start_choice"].includes(view.phase) ? view.phase : "other";
  return el("div", { class: "sw-choices sw-waiting", id: "sw-choices", dataset: { phase: view.phase, waiting: "true" } },
    el("p", { class: "sw-prompt" }, el("span", { class: "sw-dots", "aria-hidden": "true" }), t(`sw.wait.${phase}`, { who })));
}

// ------------------------------------------------------------------ the loadout phase

function myLoadout(client, seat) {
  if (client && client.pending && client.pending.action && client.pending.action.loadout) return client.pending.action.loadout;
  let chosen = null;
  for (const entry of (client && client.events) || []) {
    if (entry.seat === seat && entry.action && entry.action.loadout) chosen = entry.action.loadout;
  }
  return chosen;
}

function loadoutChoice(data) {
  return { loadout: { hero: data.hero, weapons: [...data.weapons] } };
}

function loadoutRow(title, line, action, client, { id = null, disabled = false, testid = null } = {}) {
  return el("li", { class: "sw-loadout-row", dataset: { testid: testid || "" } },
    el("div", { class: "sw-loadout-text" }, el("strong", { text: title }), el("span", { class: "muted small", text: line })),
    el("button", { type: "button", class: "btn btn-small sw-use-loadout", id, disabled: disabled || !!(client && client.pending),
      dataset: { action: JSON.stringify(action) }, onclick: () => client && client.act(action), text: t("sw.loadout.use") }));
}

function loadoutPhase(view, snapshot, client, st) {
  const seat = snapshot.seat;
  const player = isSeat(seat);
  const chosen = new Set(snapshot.chosen || []);
  const legal = snapshot.legal || [];
  const opp = player ? 1 - seat : null;
  const parts = [el("h2", { text: t("sw.loadout.title") })];
  const who = (s) => el("span", { class: `who-state${chosen.has(s) ? " done" : ""}`, dataset: { seat: s, testid: `loadout-state-${s}` } },
    t(chosen.has(s) ? "sw.loadout.has_chosen" : "sw.loadout.choosing", { who: nameOf(client, s) }));
  const opts = view.options || {};
  const level = view.level === 2 ? t(opts.effects === "every_effect_attacks" ? "sw.loadout.level_2a" : "sw.loadout.level_2b") : t("sw.loadout.level", { level: view.level });
  parts.push(el("p", { class: "muted", text: `${level} ${t("sw.loadout.secret")}` }));
  if (!player) {
    parts.push(el("p", { class: "sw-loadout-status" }, who(0), " ", who(1)));
    return el("section", { class: "sw-loadout panel", id: "sw-loadout" }, ...parts);
  }
  const mine = myLoadout(client, seat);
  const matchId = snapshot.match_id ?? (client && client.matchId);
  if (chosen.has(seat) || (client && client.pending)) {
    dropDraft(matchId, seat);
    parts.push(el("div", { class: "sw-locked", id: "sw-loadout-locked" },
      el("p", {}, el("strong", { text: `${t("sw.loadout.locked")} ` }),
        mine === "random" ? t("sw.loadout.locked_random") : mine ? `${loadoutLine(cat, mine)}.` : ""),
      el("p", { dataset: { testid: "opponent-loadout" } }, who(opp),
        el("span", { class: "muted", text: chosen.has(opp) ? "" : ` ${t("sw.loadout.hidden")}` }))));
    return el("section", { class: "sw-loadout panel", id: "sw-loadout", dataset: { state: "waiting" } }, ...parts);
  }
  parts.push(el("p", { class: "sw-loadout-status", dataset: { testid: "opponent-loadout" } }, who(opp)));
  if (!st.draftRead) { // the loadout being built before a reload of the page
    st.draftRead = true;
    const saved = readDraft(matchId, seat, "loadout");
    if (saved && !st.builder) { // only cards of this catalogue
      const hero = saved.hero && cat.hero[saved.hero] ? saved.hero : null;
      const weapons = (saved.weapons || []).filter((c) => cat.weapon[c]).slice(0, MAX_WEAPONS);
      st.tab = ["saved", "suggested", "build"].includes(saved.tab) ? saved.tab : "build";
      st.builder = loadoutBuilder(cat, { idPrefix: "sw-match", hero, weapons, onChange: () => client.render() });
    }
  }
  const random = legal.find((a) => a.loadout === "random");
  const tabs = [["saved", t("sw.loadout.tab_saved")], ["suggested", t("sw.loadout.tab_suggested")], ["build", t("sw.loadout.tab_build")]];
  const tabBar = el("div", { class: "sw-tabs", role: "tablist" },
    ...tabs.map(([k, label]) => el("button", {
      type: "button", role: "tab", class: `sw-tab${st.tab === k ? " on" : ""}`, "aria-selected": st.tab === k ? "true" : "false",
      dataset: { tab: k }, onclick: () => { st.tab = k; client.render(); }, text: label,
    })),
    random ? el("button", { type: "button", class: "btn sw-random", id: "sw-quick-random", disabled: !!client.pending,
      dataset: { action: JSON.stringify(random) }, onclick: () => client.act(random) }, icon("dice", { title: "" }), ` ${t("sw.loadout.random")}`) : null);
  let body;
  if (st.tab === "saved") {
    if (decks === null) {
      if (!decksLoading) loadDecks(client);
      body = el("p", { class: "muted", text: t("sw.loadout.loading") });
    } else {
      const again = el("button", { type: "button", class: "btn btn-small btn-ghost", id: "sw-reload-decks", text: t("sw.loadout.reload"),
        onclick: () => reloadDecks(client) });
      body = !decks.length
        ? el("p", { class: "muted" }, `${decksError || t("sw.loadout.none")} `,
          el("a", { href: "/decks/scratch_wars", target: "_blank", text: t("sw.loadout.none_link") }), ` ${t("sw.loadout.none_then")} `, again,
          ` ${t("sw.loadout.none_or", { tab: t("sw.loadout.tab_build") })}`)
        : el("div", {},
          el("ul", { class: "sw-loadout-list", id: "sw-saved-loadouts" }, ...decks.map((d) => loadoutRow(d.name, loadoutLine(cat, d.data), loadoutChoice(d.data), client,
            { testid: `deck-${d.id}` }))),
          el("p", { class: "muted small" }, el("a", { href: "/decks/scratch_wars", target: "_blank", text: t("sw.loadout.edit_link") }), ` ${t("sw.loadout.new_tab")} · `, again));
    }
  } else if (st.tab === "suggested") {
    body = el("ul", { class: "sw-loadout-list", id: "sw-suggested" }, ...legal.filter((a) => a.loadout && a.loadout !== "random").map((a) => {
      const h = heroOf(a.loadout.hero);
      return loadoutRow(h ? `${h.name} (${kindName(h)})` : a.loadout.hero, loadoutLine(cat, a.loadout).split(" · ")[1] || "", a, client);
    }));
  } else {
    if (!st.builder) st.builder = loadoutBuilder(cat, { idPrefix: "sw-match", onChange: () => client.render() });
    const v = st.builder.value();
    const ok = !!v.hero && v.weapons.length >= 1 && v.weapons.length <= MAX_WEAPONS;
    body = el("div", { class: "sw-build" },
      el("button", { type: "button", class: "btn btn-big", id: "sw-use-built", disabled: !ok || !!client.pending,
        onclick: () => client.act(loadoutChoice(st.builder.value())), text: ok ? t("sw.loadout.use_built") : t("sw.loadout.pick_first", { max: MAX_WEAPONS }) }),
      st.builder.node);
  }
  parts.push(tabBar, el("div", { class: "sw-tab-body" }, body));
  const built = st.builder ? st.builder.value() : null;
  saveDraft(matchId, seat, "loadout", snapshot.version,
    built && (built.hero || built.weapons.length) ? { tab: st.tab, hero: built.hero, weapons: built.weapons } : null);
  return el("section", { class: "sw-loadout panel", id: "sw-loadout", dataset: { state: "choosing" } }, ...parts);
}

// ------------------------------------------------------------------ waiting, result

function optionsText(opts) {
  if (!opts) return "";
  const parts = [t("sw.options.level", { level: opts.level ?? 3 })];
  if ((opts.level ?? 3) === 2) parts.push(t(opts.effects === "every_effect_attacks" ? "sw.options.every_effect_attacks" : "sw.options.distinguished"));
  if (opts.random_loadouts) parts.push(t("sw.options.random_loadouts"));
  return parts.join(", ");
}

/** Whole seconds in the largest unit that divides them, in the page's language ("10 minut"). */
function durationText(seconds) {
  for (const [size, unit] of [[86400, "day"], [3600, "hour"], [60, "minute"], [1, "second"]]) {
    if (seconds % size === 0) return formatNumber(seconds / size, { style: "unit", unit, unitDisplay: "long" });
  }
  return String(seconds);
}

function waitingForPlayers(snapshot, client) {
  const url = window.location.href.replace(/\/replay$/, "");
  const cancel = cancelButton(client, snapshot);
  const expiry = client && client.expirySeconds;
  const players = (snapshot.seats || []).filter((s) => s.user || s.bot).map((s) => nameOf(client, s.seat));
  return el("div", { class: "sw-match sw-waiting-players panel", id: "waiting-for-players" },
    el("h2", { text: t("sw.waiting.title") }),
    joinButton(snapshot, client),
    el("p", { text: t("sw.waiting.link") }),
    el("p", {}, el("code", { class: "hash", text: url })),
    el("p", { class: "muted", text: players.length ? t("sw.waiting.players", { names: players.join(", ") }) : t("sw.waiting.no_players") }),
    client && client.options ? el("p", { class: "muted", id: "match-rules", text: t("sw.waiting.rules", { rules: optionsText(client.options) }) }) : null,
    el("p", {}, `${t("sw.waiting.meanwhile")} `, el("a", { href: "/decks/scratch_wars", target: "_blank", text: t("sw.waiting.prepare") }), " · ",
      el("a", { href: "/games/scratch_wars/cards", target: "_blank", text: t("sw.waiting.browse") })),
    cancel ? el("p", { class: "waiting-cancel" }, cancel,
      el("span", { class: "muted small", text: expiry ? ` ${t("sw.waiting.expiry", { time: durationText(expiry) })}` : "" })) : null);
}

/** The result's second line, from the outcome's codes: who resigned ("You resigned." for the
 * resigning seat), the heroes' lives when the duel had begun (scores, else the view's heroes),
 * and the reason. */
function resultDetail(outcome, snapshot, client) {
  const seat = snapshot.seat;
  const view = snapshot.view || {};
  const parts = [];
  if (outcome.reason === "resigned") {
    const who = (outcome.resigned && outcome.resigned.length ? outcome.resigned : [(outcome.results || []).indexOf("loss")]).filter(isSeat);
    parts.push(who.map((s) => (s === seat ? t("sw.result.you_resigned") : t("sw.result.resigned", { who: nameOf(client, s) }))).join(" "));
  }
  const scores = outcome.scores || [];
  const heroes = view.heroes || [];
  const lives = [0, 1].map((s) => (typeof scores[s] === "number" ? scores[s] : heroes[s] ? heroes[s].lives : null));
  if (lives.every((v) => typeof v === "number")) {
    parts.push([0, 1].map((s) => t("sw.result.lives", { who: nameOf(client, s), count: lives[s] })).join(" · "));
  }
  if (REASONS.has(outcome.reason)) parts.push(t(`sw.reason.${outcome.reason}`));
  return parts.join(" · ");
}

function resultBanner(outcome, snapshot, client) {
  const seat = snapshot.seat;
  const results = outcome.results || [];
  let headline;
  let mood;
  if (results[0] === "draw") {
    headline = t("sw.result.draw");
    mood = "draw";
  } else {
    const winner = results.indexOf("win");
    if (!isSeat(seat)) {
      headline = t("sw.result.spectator", { who: nameOf(client, winner) });
      mood = "win";
    } else {
      headline = winner === seat ? t("sw.result.win") : t("sw.result.loss");
      mood = winner === seat ? "win" : "loss";
    }
  }
  const id = snapshot.match_id ?? (client && client.matchId);
  return el("div", { class: `result result-${mood}`, id: "result", dataset: { testid: "result", results: results.join(","), reason: outcome.reason || "" } },
    el("div", { class: "result-headline", text: headline }),
    el("div", { class: "result-detail", text: resultDetail(outcome, snapshot, client) }),
    el("div", { class: "result-links" },
      el("a", { class: "btn", href: "/lobby", text: t("sw.result.back_to_lobby") }),
      id && !client.showPicks ? el("a", { class: "btn btn-ghost", href: `/matches/${id}/replay`, id: "watch-replay", text: t("sw.result.watch_replay") }) : null));
}

// ------------------------------------------------------------------ render

/** Draw `snapshot` into `root`; the seat to act gets its legal choices as buttons. */
export function render(root, snapshot, client) {
  let st = uiState.get(root);
  if (!st) {
    st = { tab: null, builder: null, spins: {}, firstRender: true };
    uiState.set(root, st);
  }
  try {
    draw(root, snapshot, client, st);
  } finally {
    st.firstRender = false;
  }
}

function draw(root, snapshot, client, st) {
  if (snapshot.status === "aborted") {
    root.replaceChildren(abortedNotice(snapshot, { expirySeconds: client && client.expirySeconds }));
    return;
  }
  const view = snapshot.view;
  if (snapshot.status === "waiting" || !view) {
    root.replaceChildren(waitingForPlayers(snapshot, client));
    return;
  }
  if (!cat) cat = { heroes: [], weapons: [], hero: {}, weapon: {} };
  if (st.tab === null) st.tab = decks && decks.length ? "saved" : "suggested";
  const seat = snapshot.seat;
  const player = isSeat(seat);
  const over = snapshot.status === "finished" || view.over;
  const legal = snapshot.legal || [];
  const parts = [];
  const outcome = over ? (snapshot.result && snapshot.result.results ? snapshot.result : view.outcome) : null;
  if (outcome) parts.push(resultBanner(outcome, snapshot, client));

  if (!view.heroes[0] || !view.heroes[1]) { // the loadout phase
    parts.push(over ? el("p", { class: "muted", id: "sw-loadout-over", text: t("sw.board.ended_early") })
      : loadoutPhase(view, snapshot, client, st));
    root.replaceChildren(el("div", { class: "sw-match", id: "sw-match", dataset: { phase: view.phase, over: over ? "true" : "false" } }, ...parts));
    return;
  }

  const bottom = player ? seat : 0;
  const top = 1 - bottom;
  const a = view.attack;
  const marks = [0, 1].map(() => ({}));
  if (view.spin) marks[view.spin.seat].spinning = view.spin.slot;
  if (a && a.target) {
    if (a.target.kind === "hero") marks[a.target.seat].heroTarget = true;
    else marks[a.target.seat].target = a.target.slot;
  }
  if (view.phase === "combo") marks[view.active].combo = view.combo_selection || [];
  if (view.phase === "shield") {
    marks[1 - view.active].shield = view.heroes[1 - view.active].weapons.filter((w) => w.effect && w.effect.effect === "shield").map((w) => w.slot);
  }
  const toAct = snapshot.to_act || [];
  const myMove = player && legal.length > 0 && !over;

  const status = el("div", { class: "sw-status", id: "sw-status", dataset: { state: over ? "over" : myMove ? "choose" : "wait" } },
    statusText(view, snapshot, client, { over, myMove }));

  const centre = el("div", { class: "sw-centre" },
    spinStage(view, client, st),
    el("div", { class: "sw-centre-side" },
      attackBox(view, client),
      over ? null : myMove ? choicesPanel(view, snapshot, client) : waitingLine(view, snapshot, client)));

  parts.push(status, roundLine(view), scoreboard(view, client, bottom, top),
    heroPanel(view, view.heroes[top], { me: top === seat, name: nameOf(client, top), marks: marks[top], client }),
    centre,
    heroPanel(view, view.heroes[bottom], { me: bottom === seat, name: nameOf(client, bottom), marks: marks[bottom], client }),
    el("details", { class: "sw-legend-box panel" }, el("summary", { text: t("sw.board.legend") }), legend({ compact: true })));
  root.replaceChildren(el("div", {
    class: `sw-match${player ? " sw-as-player" : ""}`, id: "sw-match",
    dataset: { phase: view.phase, over: over ? "true" : "false", round: view.round, active: view.active },
  }, ...parts.filter(Boolean)));
}

/** The line at the top: whose turn it is, in a few words (the choices panel says what to do). */
function statusText(view, snapshot, client, { over, myMove }) {
  if (over) return t("sw.status.over");
  const seat = snapshot.seat;
  if (myMove) {
    if (view.phase === "shield") return t("sw.status.defend");
    if (view.phase === "start_weapon" || view.phase === "start_choice") return t("sw.status.start_spin");
    return view.round ? t("sw.status.your_turn_round", { round: view.round }) : t("sw.status.your_turn");
  }
  const toAct = (snapshot.to_act && snapshot.to_act.length ? snapshot.to_act : view.to_act || []).filter(isSeat);
  if (!toAct.length) return view.phase === "spin" || view.phase === "start_spin" ? t("sw.status.wheel") : "…";
  if (view.phase === "start_weapon") return t("sw.status.start_weapon");
  const who = nameOf(client, toAct[0]);
  if (view.phase === "shield") return t("sw.status.shield", { who });
  if (view.phase === "start_choice") return t("sw.status.start_choice", { who });
  if (isSeat(seat) && view.active !== seat) return t("sw.status.watch", { who: nameOf(client, view.active) });
  return t("sw.status.turn", { who: nameOf(client, view.active) });
}

/** Both heroes' lives and energy in one line (shown on phones, where the two sides are far apart). */
function scoreboard(view, client, bottom, top) {
  const cell = (s) => {
    const h = view.heroes[s];
    return el("div", { class: `sw-score${s === view.active && !view.over ? " sw-score-turn" : ""}`, dataset: { seat: s } },
      el("span", { class: "sw-score-name", text: nameOf(client, s) }),
      el("span", { class: "sw-score-lives" }, icon("heart", { title: t("sw.card.lives") }), String(h.lives)),
      view.level === 3 ? el("span", { class: "sw-score-energy" }, icon("energy", { title: t("sw.effect.energy") }), String(h.energy)) : null);
  };
  return el("div", { class: "sw-scoreboard", "aria-hidden": "true" }, cell(bottom), el("span", { class: "vs", text: t("sw.board.vs") }), cell(top));
}

// ------------------------------------------------------------------ the log

/** One log line for an input, or null to leave it out (the events say what happened). */
export function describeInput(entry, client) {
  const who = client.seatName(entry.seat);
  const loadout = entry.action && entry.action.loadout;
  switch (entry.kind) {
    case "action":
    case "bot":
      if (entry.hidden) return t("sw.input.hidden", { who });
      if (loadout && entry.seat === client.seat) {
        return loadout === "random" ? t("sw.input.random_loadout")
          : t("sw.input.loadout", { loadout: loadoutLine(cat || { hero: {}, weapon: {} }, loadout) });
      }
      return null;
    case "chance":
      return null;
    default:
      return undefined;
  }
}

function wname(code) {
  return weaponOf(code).name;
}

/** An effect's name in lower case, as a log line says it mid-sentence ("the permanent attack"). */
function sourceName(source, effect) {
  if (source === "combo" || source === "permanent_attack") return t(`sw.source.${source}`);
  return effectName(effect).toLocaleLowerCase();
}

/** One log line for an engine event (its kind and parameters through messages.js's "sw.ev.*"). */
export function describeEvent(ev, entry, client) {
  const nm = (s) => client.seatName(s);
  switch (ev.kind) {
    case "loadouts_revealed": {
      const random = new Set(ev.random || []);
      const sides = [0, 1].map((s) => t(random.has(s) ? "sw.ev.loadout_random" : "sw.ev.loadout", {
        who: nm(s), hero: heroOf(ev.heroes[s]) ? heroOf(ev.heroes[s]).name : ev.heroes[s], weapons: ev.weapons[s].map(wname).join(", "),
      }));
      return t("sw.ev.loadouts_revealed", { list: sides.join("; ") });
    }
    case "start_weapons":
      return t("sw.ev.start_weapons", { who0: nm(0), weapon0: wname(ev.weapons[0]), who1: nm(1), weapon1: wname(ev.weapons[1]) });
    case "start_spin": {
      const p = { who0: nm(0), value0: ev.values[0], who1: nm(1), value1: ev.values[1] };
      return ev.winner === null || ev.winner === undefined ? t("sw.ev.start_spin_tie", p) : t("sw.ev.start_spin", { ...p, who: nm(ev.winner) });
    }
    case "starter_chosen":
      return t("sw.ev.starter_chosen", { who: nm(ev.starter), count: ev.lives });
    case "round_started":
      return ev.day ? t("sw.ev.round_started_day", { round: ev.round, day: ev.day, time: timeName(ev.time_of_day) }) : t("sw.ev.round_started", { round: ev.round });
    case "day3_penalty":
      return t("sw.ev.day3_penalty", { count: ev.amount, who0: nm(0), lives0: Math.max(0, ev.lives[0]), who1: nm(1), lives1: Math.max(0, ev.lives[1]) });
    case "turn_started": {
      const bits = [];
      if (ev.energy_gained) bits.push(t("sw.bit.energy", { amount: ev.energy_gained, energy: ev.energy, count: ev.energy_gained }));
      if (ev.repaired && ev.repaired.length) bits.push(t("sw.bit.repaired", { count: ev.repaired.length }));
      return bits.length ? t("sw.ev.turn_started_bits", { who: nm(ev.seat), bits: bits.join(", ") }) : t("sw.ev.turn_started", { who: nm(ev.seat) });
    }
    case "spin_started":
      return ev.cost ? t("sw.ev.spin_started_cost", { who: nm(ev.seat), weapon: wname(ev.weapon), cost: ev.cost, count: ev.cost })
        : t("sw.ev.spin_started", { who: nm(ev.seat), weapon: wname(ev.weapon) });
    case "spin_result": {
      const p = { field: t(`sw.field.${ev.field}`, {}, ev.field), effect: effectName(ev.effect), value: ev.value };
      return ev.resolves_as && ev.resolves_as !== ev.effect ? t("sw.ev.spin_result_counts", { ...p, as: effectName(ev.resolves_as) }) : t("sw.ev.spin_result", p);
    }
    case "effect_skipped":
      return t("sw.ev.effect_skipped", { who: nm(ev.seat) });
    case "effect_used": {
      const p = { who: nm(ev.seat), effect: effectName(ev.effect), base: ev.base };
      return ev.bonus_value ? t("sw.ev.effect_used_bonus", { ...p, bonus: signed(ev.bonus_value), value: ev.value }) : t("sw.ev.effect_used", p);
    }
    case "energy_gained":
      return t("sw.ev.energy_gained", { who: nm(ev.seat), amount: ev.amount, energy: ev.energy, count: ev.amount });
    case "healed":
      return t("sw.ev.healed", { who: nm(ev.seat), amount: ev.amount, count: ev.lives });
    case "effect_deferred":
      return t("sw.ev.effect_deferred", { who: nm(ev.seat), effect: effectName(ev.effect), value: ev.value, weapon: wname(ev.weapon) });
    case "attack_declared": {
      const tg = ev.target || {};
      const p = { who: nm(ev.seat), source: sourceName(ev.source, ev.effect), value: ev.value, whom: nm(tg.seat) };
      if (tg.kind === "hero") return t("sw.ev.attack_hero", p);
      return t(tg.kind === "weapon" ? "sw.ev.attack_weapon" : "sw.ev.attack_held", { ...p, weapon: wname(tg.weapon) });
    }
    case "shield_spent":
      return t("sw.ev.shield_spent", { who: nm(ev.seat), shield: ev.shield, weapon: wname(ev.weapon), value: ev.value });
    case "attack_resolved": {
      const tg = ev.target || {};
      if (tg.kind === "hero") return t("sw.ev.hero_hit", { who: nm(tg.seat), value: ev.value, count: Math.max(0, ev.lives) });
      if (tg.kind === "weapon") return t(ev.broken ? "sw.ev.weapon_broken" : "sw.ev.weapon_holds", { who: nm(tg.seat), weapon: wname(tg.weapon) });
      return ev.cancelled ? "" : t("sw.ev.held_survives", { who: nm(tg.seat), weapon: wname(tg.weapon) });
    }
    case "effect_cancelled":
      return t(ev.by === "owner" ? "sw.ev.effect_cancelled_owner" : "sw.ev.effect_cancelled",
        { who: nm(ev.seat), effect: effectName(ev.effect), value: ev.value, weapon: wname(ev.weapon) });
    case "repair_started":
      return ev.cost ? t("sw.ev.repair_started_cost", { who: nm(ev.seat), weapon: wname(ev.weapon), cost: ev.cost, count: ev.cost })
        : t("sw.ev.repair_started", { who: nm(ev.seat), weapon: wname(ev.weapon) });
    case "main_phase_ended": {
      const reason = END_REASONS.has(ev.reason) ? ev.reason : "voluntary";
      if (reason === "voluntary" && ev.actions_lost) return t("sw.end.voluntary_lost", { who: nm(ev.seat), count: ev.actions_lost });
      return t(`sw.end.${reason}`, { who: nm(ev.seat) });
    }
    case "combo_detonated": {
      const p = { who: nm(ev.seat), values: ev.values.join(" + "), value: ev.value };
      return ev.bonus_value ? t("sw.ev.combo_detonated_bonus", { ...p, bonus: signed(ev.bonus_value) }) : t("sw.ev.combo_detonated", p);
    }
    case "combos_kept":
      return t("sw.ev.combos_kept", { who: nm(ev.seat) });
    case "game_over": {
      const r = ev.results || [];
      if (r[0] === "draw") return t("sw.ev.game_over_draw");
      return t("sw.ev.game_over", { who: nm(r.indexOf("win")) });
    }
    default:
      return null;
  }
}
