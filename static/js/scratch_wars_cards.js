// Scratch Wars card drawing, shared by the card gallery, the loadout editor and the match page:
// effect / weapon-type / time-of-day icons (SVG), a weapon's 9-segment wheel, hero and weapon
// cards (full and compact), bonus chips and the rulebook's rarity check.
// See rules/scratch_wars.md section 2 (card anatomy) and app/games/scratch_wars/data.py (catalog).

import { api, el } from "/static/js/api.js";
import { say } from "/static/js/messages.js";

const SVG_NS = "http://www.w3.org/2000/svg";

// ------------------------------------------------------------------ vocabulary

/** Effects: display name, one-line meaning, deferred or not (rules section 6). */
export const EFFECTS = {
  energy: { name: "Energy", text: "Gain this much energy (level 3; at most 12). At level 2 an empty action.", deferred: false },
  attack_hero: { name: "Attack hero", text: "The opponent's hero loses this many lives.", deferred: false },
  attack_weapon: { name: "Attack weapon", text: "Break an opponent weapon, or cancel an effect it holds, with durability up to this value.", deferred: false },
  universal_attack: { name: "Universal attack", text: "Attack the hero, a weapon or a held effect: your choice.", deferred: false },
  heal: { name: "Heal", text: "Your hero gets back this many lives (never above the maximum).", deferred: false },
  permanent_attack: { name: "Permanent attack", text: "Held on the weapon: attacks the opponent's hero at the end of each of your turns.", deferred: true },
  shield: { name: "Shield", text: "Held on the weapon: spend it in the opponent's turn to weaken one attack.", deferred: true },
  combo: { name: "Combo", text: "Held on the weapon: detonate 2 or more together at the end of your turn for one big attack.", deferred: true },
};
export const EFFECT_ORDER = Object.keys(EFFECTS);

export const FIELDS = {
  green: { name: "Green", text: "continue: use it (or not) and play on" },
  orange: { name: "Orange", text: "decide: use it and end your turn, or skip it and play on" },
  red: { name: "Red", text: "stop: your turn ends after this spin" },
};

export const TYPES = { sword: "Sword", axe: "Axe", bow: "Bow", wand: "Wand" };

export const TIMES = ["morning", "noon", "evening", "night"];
export const TIME_NAMES = { morning: "Morning", noon: "Noon", evening: "Evening", night: "Night" };

export const BONUS_KINDS = {
  effect: { name: "Effect bonus", text: "Adds to that exact effect when you use it." },
  blessing: { name: "Blessing", text: "Adds to any one-shot effect (attacks, energy, heal)." },
  combo_bonus: { name: "Combo bonus", text: "Adds to a detonation of 2 or more combos." },
  combo_detonator: { name: "Combo detonator", text: "Lets you detonate even a single combo; its value is added." },
};

// ------------------------------------------------------------------ icons

// Each icon: shapes in a 24×24 box. {d} filled, {d, s: width} stroked, {c: [cx, cy, r]} a circle.
const ICONS = {
  energy: [{ d: "M14 1.5 4.5 13.2h6.3L9 22.5l10.5-12.3h-6.4L14 1.5z" }],
  attack_hero: [
    { d: "M21.5 2.5 20.6 7 10.4 17.2l-3.6-3.6L17 3.4z" },
    { d: "M4.4 12.6l7 7", s: 2.6 },
    { d: "M7.2 16.8 2.8 21.2", s: 3 },
  ],
  attack_weapon: [
    { d: "M12.2 6.4 16 2.6l6 6-3.8 3.8z" },
    { d: "M15.4 9.2 3 21.6", s: 3.2 },
    { d: "M3.5 5.5l3 1.2M5 2.5l1.6 2.8M2.2 9.2l3.2-.2", s: 1.6 },
  ],
  universal_attack: [
    { c: [12, 12, 7.2], s: 2.4 },
    { c: [12, 12, 2.6] },
    { d: "M12 1.5v5M12 17.5v5M1.5 12h5M17.5 12h5", s: 2.4 },
  ],
  heal: [{ d: "M9.4 2.5h5.2v6.9h6.9v5.2h-6.9v6.9H9.4v-6.9H2.5V9.4h6.9z" }],
  permanent_attack: [
    { d: "M19.2 13.5A7.4 7.4 0 1 1 16.6 6", s: 2.6 },
    { d: "M21 2.2v8.2h-8.2z" },
    { d: "M12 8.6l3.4 3.4-3.4 3.4-3.4-3.4z" },
  ],
  shield: [{ d: "M12 1.8 3.8 5v6.2c0 5.2 3.4 9.6 8.2 11 4.8-1.4 8.2-5.8 8.2-11V5z" }],
  combo: [
    { c: [10, 14.5, 7] },
    { d: "M14.6 9.4l3.4-3.4", s: 2.4 },
    { d: "M20.2 1.4l.8 2 2 .8-2 .8-.8 2-.8-2-2-.8 2-.8z" },
  ],
  // bonus kinds
  blessing: [{ d: "M12 1.5l2.4 8.1 8.1 2.4-8.1 2.4L12 22.5l-2.4-8.1L1.5 12l8.1-2.4z" }],
  combo_bonus: [
    { c: [9, 15, 6.5] },
    { d: "M13.4 10.4l2.6-2.6", s: 2.2 },
    { d: "M19 1.5v8M15 5.5h8", s: 2.4 },
  ],
  combo_detonator: [{ d: "M12 1.8c1.2 4.4 6 6.6 6 12a6 6 0 0 1-12 0c0-2.4 1.2-4.6 2.4-5.8 0 2.4 1.2 3.6 2.4 3.6 0-3.6-1.2-6.6 1.2-9.8z" }],
  // weapon types
  sword: [
    { d: "M10.8 1.5h2.4l1 12.5h-4.4z" },
    { d: "M6.5 14.2h11v2.2h-11z" },
    { d: "M10.9 16.4h2.2v4h-2.2z" },
    { c: [12, 21.4, 1.6] },
  ],
  axe: [
    { d: "M10.8 2h2.4v20.5h-2.4z" },
    { d: "M13.2 3.5c5.2.4 8.6 3.4 8.6 7s-3.4 6.6-8.6 7z" },
    { d: "M10.8 5.5c-2.6.3-4.3 1.8-4.3 3.6s1.7 3.3 4.3 3.6z" },
  ],
  bow: [
    { d: "M7 1.8c9.2 4.6 9.2 15.8 0 20.4", s: 2.4 },
    { d: "M7 1.8v20.4", s: 1 },
    { d: "M2.5 12h16", s: 1.8 },
    { d: "M22.5 12l-5-3v6z" },
  ],
  wand: [
    { d: "M3.5 20.5l11-11", s: 2.8 },
    { d: "M18 1.5l1.3 3.2 3.2 1.3-3.2 1.3L18 10.5l-1.3-3.2-3.2-1.3 3.2-1.3z" },
  ],
  // times of day
  morning: [
    { d: "M4.5 17a7.5 7.5 0 0 1 15 0z" },
    { d: "M1.5 20h21", s: 2 },
    { d: "M12 3.5v3M4.6 7.2l2 2M19.4 7.2l-2 2", s: 2 },
  ],
  noon: [
    { c: [12, 12, 5] },
    { d: "M12 1.5v3M12 19.5v3M1.5 12h3M19.5 12h3M4.6 4.6l2.1 2.1M17.3 17.3l2.1 2.1M4.6 19.4l2.1-2.1M17.3 6.7l2.1-2.1", s: 2 },
  ],
  evening: [
    { d: "M5.5 15a6.5 6.5 0 0 1 13 0z" },
    { d: "M1.5 18h21M5 21.5h14", s: 2 },
    { d: "M12 3v5M9.6 5.8 12 8.3l2.4-2.5", s: 1.8 },
  ],
  night: [
    { d: "M15.5 2.5a9.5 9.5 0 1 0 6 15.8A8 8 0 0 1 15.5 2.5z" },
    { d: "M19 4.5l.6 1.4 1.4.6-1.4.6-.6 1.4-.6-1.4-1.4-.6 1.4-.6z" },
  ],
  // misc
  heart: [{ d: "M12 21.3S2.8 15.6 2.8 9.2A5 5 0 0 1 12 6.4a5 5 0 0 1 9.2 2.8c0 6.4-9.2 12.1-9.2 12.1z" }],
  durability: [{ d: "M12 1.8l8.8 5.1v10.2L12 22.2l-8.8-5.1V6.9z" }],
  flag: [{ d: "M5 1.8v20.4", s: 2.2 }, { d: "M6 2.5h13l-3.4 4.6L19 11.8H6z" }],
  broken: [{ d: "M4 20 9.5 14.5M14.5 9.5 20 4", s: 3 }, { d: "M8 9l2.5 1.2L9 13l3-.3M16 15l-2.5-1.2L15 11l-3 .3", s: 1.6 }],
  dice: [
    { d: "M5.5 2.5h13a3 3 0 0 1 3 3v13a3 3 0 0 1-3 3h-13a3 3 0 0 1-3-3v-13a3 3 0 0 1 3-3z", s: 2 },
    { c: [8, 8, 1.8] }, { c: [16, 8, 1.8] }, { c: [12, 12, 1.8] }, { c: [8, 16, 1.8] }, { c: [16, 16, 1.8] },
  ],
  repair: [{ d: "M20.5 6.5a5 5 0 0 1-6.6 6.3L6 20.7a2.1 2.1 0 0 1-3-3l7.9-7.9a5 5 0 0 1 6.3-6.6l-3.3 3.3.6 2.6 2.6.6z" }],
};

/** An icon's name in the page's language (its default title and aria-label). */
function iconTitle(name) {
  if (EFFECTS[name]) return effectName(name);
  if (BONUS_KINDS[name]) return bonusKindName(name);
  if (TYPES[name]) return typeName(name);
  if (TIME_NAMES[name]) return timeName(TIMES.indexOf(name));
  return { heart: say("sw.card.lives"), durability: say("sw.card.durability"), flag: say("sw.card.deferred_effect"),
    broken: say("sw.state.broken"), repair: say("sw.state.repairing") }[name];
}

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  }
  return node;
}

function shapes(name, color) {
  const out = [];
  for (const sh of ICONS[name] || []) {
    let node;
    if (sh.c) node = svg("circle", { cx: sh.c[0], cy: sh.c[1], r: sh.c[2] });
    else node = svg("path", { d: sh.d });
    if (sh.s) {
      node.setAttribute("fill", "none");
      node.setAttribute("stroke", color);
      node.setAttribute("stroke-width", sh.s);
      node.setAttribute("stroke-linecap", "round");
      node.setAttribute("stroke-linejoin", "round");
    } else {
      node.setAttribute("fill", color);
    }
    out.push(node);
  }
  return out;
}

/** An inline SVG icon (effect id, weapon type, time of day, bonus kind, heart, durability, flag…). */
export function icon(name, { cls = "", title = undefined, label = undefined } = {}) {
  const node = svg("svg", { viewBox: "0 0 24 24", class: `sw-icon sw-icon-${name}${cls ? ` ${cls}` : ""}`, focusable: "false" });
  const t = title === undefined ? iconTitle(name) : title;
  if (label || t) {
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", label || t);
    if (t) {
      const tt = svg("title");
      tt.textContent = t;
      node.append(tt);
    }
  } else {
    node.setAttribute("aria-hidden", "true");
  }
  node.append(...shapes(name, "currentColor"));
  return node;
}

// ------------------------------------------------------------------ small helpers

/** "+2", "−1" (a real minus sign), "0". */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

/** 19.5 -> "19.5", 18.0 -> "18". */
export function num(x) {
  return Number.isInteger(x) ? String(x) : String(Math.round(x * 10) / 10);
}

/** An effect's name in the page's language (messages.js "sw.effect.<id>"; English from EFFECTS). */
export function effectName(id) {
  return say(`sw.effect.${id}`, {}, (EFFECTS[id] && EFFECTS[id].name) || String(id || "").replace(/_/g, " "));
}

/** A weapon type ("sword") in the page's language (messages.js "sw.type.<type>"). */
export function typeName(t) {
  return say(`sw.type.${t}`, {}, TYPES[t] || t);
}

/** A weapon type in the plural ("Swords"), as a filter button says it. */
export function typesName(t) {
  return say(`sw.types.${t}`, {}, `${TYPES[t] || t}s`);
}

/** An effect's meaning in one line (the legend). */
export function effectText(id) {
  return say(`sw.effect_text.${id}`, {}, (EFFECTS[id] && EFFECTS[id].text) || "");
}

/** A bonus kind's name ("Blessing"). */
export function bonusKindName(kind) {
  return say(`sw.bonus.${kind}`, {}, (BONUS_KINDS[kind] && BONUS_KINDS[kind].name) || kind);
}

function slug(text) {
  return String(text || "").toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");
}

/** A hero's kind ("Tinker Knight") in the page's language (messages.js "sw.kind.<kind>"). */
export function kindName(h) {
  return h ? say(`sw.kind.${slug(h.kind)}`, {}, h.kind) : "";
}

/** A card's flavour line in the page's language (messages.js "sw.flavour.<code>"). */
export function flavourText(card) {
  return card && card.flavour ? say(`sw.flavour.${card.code}`, {}, card.flavour) : "";
}

/**
 * A weapon's name in the page's language, or "" when it is the original (Czech pages): the cards
 * keep their own Czech names, the set's language, and show this beside them (docs/i18n.md, "names").
 */
export function weaponTranslation(w) {
  if (!w || !w.code) return "";
  const local = say(`sw.weapon.${w.code}`, {}, w.name);
  return local && local !== w.name ? local : "";
}

/** "Plechový krátký meč (Tin Shortsword)": the original name with its translation beside it. */
export function weaponLabel(w) {
  if (!w) return "";
  const local = weaponTranslation(w);
  return local ? `${w.name} (${local})` : w.name;
}

/** A time of day (0 morning .. 3 night) in the page's language (messages.js "sw.time.<name>"). */
export function timeName(i) {
  return say(`sw.time.${TIMES[i]}`, {}, TIME_NAMES[TIMES[i]] || String(i + 1));
}

/** The rulebook's rarity check as text: "20 vs 19.5: above average (rare)". */
export function rarityText(card) {
  const r = card.rarity || {};
  const verdict = r.strength > r.average ? "above" : r.strength < r.average ? "below" : "exact";
  return say(`sw.rarity.${verdict}`, { strength: r.strength, average: num(r.average) });
}

/** " ✦ rare" after a rare card's rarity check. */
function rareMark(card) {
  return card.rarity && card.rarity.rare ? el("span", { class: "sw-rare-mark", text: ` ✦ ${say("sw.card.rare")}` }) : null;
}

function stars(n, max = 4) {
  return el("span", { class: "sw-stars", title: say("sw.card.stars_title", { count: n, max }), "aria-label": say("sw.card.stars", { count: n, max }) },
    el("span", { class: "sw-stars-on", text: "★".repeat(n) }), el("span", { class: "sw-stars-off", text: "★".repeat(Math.max(0, max - n)) }));
}

/** What a bonus does, as a sentence: "+2 to Attack hero (deferred effect)". */
export function bonusText(b) {
  const v = signed(b.value);
  if (b.kind === "effect") {
    const text = say("sw.bonus_line.effect", { value: v, effect: effectName(b.effect) });
    const flag = b.flag ? ` ${say("sw.bonus_line.flag")}` : "";
    return `${text}${flag}${b.value < 0 ? ` — ${say("sw.bonus_line.penalty")}` : ""}`;
  }
  if (b.kind === "blessing") return `${say("sw.bonus_line.blessing", { value: v })}${b.value < 0 ? ` — ${say("sw.bonus_line.mandatory")}` : ""}`;
  if (b.kind === "combo_bonus") return say("sw.bonus_line.combo_bonus", { value: v });
  return say("sw.bonus_line.combo_detonator", { value: v });
}

/** A hero bonus: icon + signed value; negative bonuses red, deferred ones with the flag marker. */
export function bonusChip(b, { used = false, usable = false } = {}) {
  const name = b.kind === "effect" ? b.effect : b.kind;
  const cls = ["sw-bonus", b.value < 0 ? "sw-bonus-neg" : "sw-bonus-pos", `sw-bonus-${b.kind}`];
  if (used) cls.push("sw-bonus-used");
  if (usable) cls.push("sw-bonus-usable");
  return el("span", { class: cls.join(" "), title: `${bonusText(b)}${used ? ` ${say("sw.bonus_line.used")}` : ""}`, dataset: { kind: b.kind } },
    b.flag ? icon("flag", { cls: "sw-flag" }) : null,
    icon(name, { title: "" }),
    el("span", { class: "sw-bonus-value", text: signed(b.value) }));
}

// ------------------------------------------------------------------ the wheel

const FIELD_FILL = { green: "#3a9a4c", orange: "#ee8a21", red: "#d23b30" };
const FIELD_EDGE = { green: "#2a7338", orange: "#b9650f", red: "#9e2720" };

function polar(cx, cy, r, deg) {
  const a = (deg * Math.PI) / 180;
  return [cx + r * Math.sin(a), cy - r * Math.cos(a)];
}

/** Degrees to turn a wheel by so that segment `i` of `n` sits under the pointer at the top. */
export function landingAngle(i, n) {
  return -((i + 0.5) * 360) / n;
}

/**
 * A weapon's wheel: n equal segments clockwise from 12 o'clock, each in its field colour with
 * the effect icon and value. opts: {size (px), highlight (segment index), type (hub icon)}.
 */
export function wheelSvg(weapon, { size = 160, highlight = null, hub = true, labels = true } = {}) {
  const wheel = weapon.wheel || [];
  const n = wheel.length || 1;
  const c = 100;
  const r = 97;
  const node = svg("svg", { viewBox: "0 0 200 200", width: size, height: size, class: "sw-wheel", role: "img",
    "aria-label": say("sw.card.wheel_label", { weapon: weaponLabel(weapon),
      segments: wheel.map((s) => `${say(`sw.field.${s.field}`, {}, s.field)} ${effectName(s.effect)} ${s.value}`).join(", ") }) });
  node.append(svg("circle", { cx: c, cy: c, r: r + 2, fill: "#2a2320" }));
  wheel.forEach((seg, i) => {
    const a0 = (i * 360) / n;
    const a1 = ((i + 1) * 360) / n;
    const [x0, y0] = polar(c, c, r, a0);
    const [x1, y1] = polar(c, c, r, a1);
    const g = svg("g", { class: `sw-seg sw-seg-${seg.field}${highlight === i ? " sw-seg-hit" : ""}`, "data-segment": i });
    g.append(svg("path", {
      d: `M${c},${c} L${x0.toFixed(2)},${y0.toFixed(2)} A${r},${r} 0 0 1 ${x1.toFixed(2)},${y1.toFixed(2)} Z`,
      fill: FIELD_FILL[seg.field] || "#888", stroke: "#fdf8ec", "stroke-width": 2,
    }));
    if (labels) {
      const mid = (a0 + a1) / 2;
      const [ix, iy] = polar(c, c, r * 0.57, mid);
      const ig = svg("g", { transform: `translate(${(ix - 11).toFixed(2)},${(iy - 11).toFixed(2)}) scale(${22 / 24})` });
      ig.append(...shapes(seg.effect, "#fff"));
      if (EFFECTS[seg.effect] && EFFECTS[seg.effect].deferred) {
        // the deferred-effect marker: a small pennant beside the icon
        const fg = svg("g", { transform: `translate(${(ix + 6).toFixed(2)},${(iy - 15).toFixed(2)}) scale(0.42)` });
        fg.append(...shapes("flag", "#fff"));
        g.append(fg);
      }
      const [tx, ty] = polar(c, c, r * 0.83, mid);
      const text = svg("text", { x: tx.toFixed(2), y: (ty + 6).toFixed(2), "text-anchor": "middle", class: "sw-seg-value",
        fill: "#fff", stroke: FIELD_EDGE[seg.field] || "#444", "stroke-width": 3, "paint-order": "stroke" });
      text.textContent = String(seg.value);
      g.append(ig, text);
    }
    node.append(g);
  });
  if (hub) {
    node.append(svg("circle", { cx: c, cy: c, r: 19, fill: "#fdf8ec", stroke: "#2a2320", "stroke-width": 3 }));
    const hg = svg("g", { transform: `translate(${c - 11},${c - 11}) scale(${22 / 24})` });
    hg.append(...shapes(weapon.type || "sword", "#2a2320"));
    node.append(hg);
  }
  return node;
}

// ------------------------------------------------------------------ cards

const COST_CLASS = { 1: "sw-cost-1", 2: "sw-cost-2", 3: "sw-cost-3" };

function costBadge(cost, { base = null, title = null } = {}) {
  const extra = base !== null && cost > base;
  return el("span", {
    class: `sw-cost-badge${extra ? " sw-cost-extra" : ""}`,
    title: title || (extra ? say("sw.card.cost_extra", { cost, base, count: cost }) : say("sw.card.cost", { cost, count: cost })),
  }, icon("energy", { title: "" }), el("span", { text: String(cost) }));
}

function durabilityBadge(d) {
  return el("span", { class: "sw-dur-badge", title: say("sw.card.durability_title", { value: d }) },
    icon("durability", { title: "" }), el("span", { class: "sw-dur-value", text: String(d) }),
    el("span", { class: "sw-dur-word", text: say("sw.card.durability_word") }));
}

/**
 * A weapon card. opts:
 *  compact: small tile (mini wheel, no flavour);
 *  hero: a hero card (to show this hero's spin cost, +1 off-type);
 *  spinCost: the cost to show instead;
 *  selectable / selected / onClick / disabled: a toggle button (loadout editor);
 *  wheelSize.
 */
export function weaponCard(w, opts = {}) {
  const compact = !!opts.compact;
  let spinCost = opts.spinCost ?? w.energy_cost;
  if (opts.hero && !opts.hero.weapon_types.includes(w.type)) spinCost = w.energy_cost + 1;
  const tag = opts.selectable ? "button" : "article";
  const cls = ["sw-card", "sw-weapon", COST_CLASS[w.energy_cost] || "", compact ? "sw-compact" : "sw-full"];
  if (opts.selected) cls.push("sw-selected");
  if (opts.selectable) cls.push("sw-selectable");
  if (opts.extraClass) cls.push(opts.extraClass);
  const attrs = { class: cls.join(" "), dataset: { code: w.code, type: w.type, testid: `weapon-${w.code}` } };
  if (opts.selectable) {
    attrs.type = "button";
    attrs["aria-pressed"] = opts.selected ? "true" : "false";
    attrs.disabled = !!opts.disabled;
    attrs.onclick = opts.onClick;
    attrs.title = say(opts.selected ? "sw.card.take_off" : "sw.card.equip", { weapon: weaponLabel(w) });
  }
  const head = el("div", { class: "sw-card-head" },
    el("div", { class: "sw-card-title" },
      el("span", { class: "sw-card-name", lang: "cs", text: w.name }),
      weaponTranslation(w) ? el("span", { class: "sw-card-local", lang: document.documentElement.lang, text: weaponTranslation(w) }) : null,
      el("span", { class: "sw-card-code", text: w.code })),
    costBadge(spinCost, { base: w.energy_cost }));
  const meta = el("div", { class: "sw-card-meta" },
    el("span", { class: "sw-type", title: `${typeName(w.type)}${opts.hero && spinCost > w.energy_cost ? ` ${say("sw.card.off_type")}` : ""}` },
      icon(w.type, { title: "" }), typeName(w.type)),
    durabilityBadge(w.durability),
    compact ? null : stars(w.rarity_stars));
  const wheelBox = el("div", { class: "sw-wheel-box" }, wheelSvg(w, { size: opts.wheelSize || (compact ? 104 : 176) }));
  const parts = [head, meta, wheelBox];
  if (!compact) {
    parts.push(el("div", { class: `sw-rarity${w.rarity && w.rarity.rare ? " sw-rare" : ""}`, title: say("sw.card.rarity_weapon_title") },
      el("span", { class: "muted", text: `${say("sw.card.wheel_sum")} ` }), rarityText(w), rareMark(w)));
    if (w.flavour) parts.push(el("p", { class: "sw-flavour", text: flavourText(w) }));
  }
  if (opts.selected && opts.selectable) parts.push(el("span", { class: "sw-check", "aria-hidden": "true", text: "✓" }));
  return el(tag, attrs, ...parts);
}

/** One time-of-day column of a hero card. */
/**
 * The four time-of-day columns of a hero, `cls` "sw-tods" (+ " sw-tods-small" on the board). A
 * label longer than its column in the page's language ("ПОЛУДЕНЬ") makes the whole row use a
 * smaller font ("sw-tods-tight", then "sw-tods-tighter"), checked again whenever the row's width
 * changes; a row that fits (English) keeps its size.
 */
export function timeRow(cls, columns) {
  const row = el("div", { class: cls }, ...columns);
  if (typeof ResizeObserver === "undefined") return row;
  // cut off: a label's icon or words reach past its column's edge (centred, they spill both ways)
  const over = () => [...row.querySelectorAll(".sw-tod-head")].some((h) => {
    const box = h.getBoundingClientRect();
    return [...h.children].some((c) => {
      const r = c.getBoundingClientRect();
      return r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1);
    });
  });
  let width = -1;
  new ResizeObserver(() => {
    if (!row.isConnected || row.clientWidth === width) return;
    width = row.clientWidth;
    row.classList.remove("sw-tods-tight", "sw-tods-tighter");
    if (over()) row.classList.add("sw-tods-tight");
    if (over()) row.classList.add("sw-tods-tighter");
  }).observe(row);
  return row;
}

export function timeColumn(col, t, { current = false, used = null, energy = true } = {}) {
  const key = TIMES[t];
  return el("div", { class: `sw-tod sw-tod-${key}${current ? " sw-tod-now" : ""}`, dataset: { tod: t } },
    el("div", { class: "sw-tod-head", title: timeName(t) }, icon(key, { title: "" }), el("span", { class: "sw-tod-name", text: timeName(t) }),
      current ? el("span", { class: "sw-tod-now-mark", text: say("sw.card.now") }) : null),
    energy ? el("div", { class: "sw-tod-energy", title: say(`sw.card.energy_at.${key}`) },
      icon("energy", { title: "" }), el("span", { text: String(col.energy) })) : null,
    el("div", { class: "sw-tod-bonuses" },
      ...(col.bonuses.length ? col.bonuses.map((b, i) => bonusChip(b, { used: !!(used && used.has(i)) }))
        : [el("span", { class: "sw-bonus-none", text: "—" })])));
}

/**
 * A hero card. opts:
 *  compact: name, lives, types only (loadout editor);
 *  current: the time-of-day index to highlight; used: Set of used bonus indices (of `current`);
 *  selectable / selected / onClick.
 */
export function heroCard(h, opts = {}) {
  const compact = !!opts.compact;
  const tag = opts.selectable ? "button" : "article";
  const cls = ["sw-card", "sw-hero", compact ? "sw-compact" : "sw-full"];
  if (opts.selected) cls.push("sw-selected");
  if (opts.selectable) cls.push("sw-selectable");
  const attrs = { class: cls.join(" "), dataset: { code: h.code, testid: `hero-${h.code}` } };
  if (opts.selectable) {
    attrs.type = "button";
    attrs["aria-pressed"] = opts.selected ? "true" : "false";
    attrs.onclick = opts.onClick;
    attrs.title = say("sw.card.choose_hero", { hero: h.name });
  }
  const types = el("span", { class: "sw-hero-types", title: say("sw.card.uses", { types: h.weapon_types.map(typesName).join(", ") }) },
    ...h.weapon_types.map((t) => el("span", { class: "sw-type" }, icon(t, { title: "" }), typeName(t))));
  const head = el("div", { class: "sw-card-head" },
    el("div", { class: "sw-card-title" },
      el("span", { class: "sw-card-name", text: h.name }),
      el("span", { class: "sw-card-kind", text: compact ? kindName(h) : `${kindName(h)} · ${h.nation}` })),
    el("span", { class: "sw-lives-badge", title: say("sw.card.lives_duel", { count: h.lives_duel }) }, icon("heart", { title: "" }), el("span", { text: String(h.lives_duel) })));
  const parts = [head, el("div", { class: "sw-card-meta" }, types, stars(h.rarity_stars))];
  if (!compact) {
    parts.push(timeRow("sw-tods",
      h.times_of_day.map((col, t) => timeColumn(col, t, { current: opts.current === t, used: opts.current === t ? opts.used : null }))));
    parts.push(el("div", { class: `sw-rarity${h.rarity && h.rarity.rare ? " sw-rare" : ""}`, title: say("sw.card.rarity_hero_title") },
      el("span", { class: "muted", text: `${say("sw.card.energy_bonuses")} ` }), rarityText(h), rareMark(h)));
    if (h.flavour) parts.push(el("p", { class: "sw-flavour", text: flavourText(h) }));
  }
  if (opts.selected && opts.selectable) parts.push(el("span", { class: "sw-check", "aria-hidden": "true", text: "✓" }));
  return el(tag, attrs, ...parts);
}

/** The legend of icons, field colours and markers (gallery, rules page, match page). */
export function legend({ compact = false } = {}) {
  const effects = EFFECT_ORDER.map((id) => el("li", { class: "sw-legend-item", dataset: { effect: id } },
    el("span", { class: `sw-legend-icon${EFFECTS[id].deferred ? " sw-legend-deferred" : ""}` }, icon(id)),
    el("span", {}, el("strong", { text: effectName(id) }), EFFECTS[id].deferred ? el("span", { class: "sw-tag-deferred", text: say("sw.legend.deferred") }) : null,
      compact ? null : el("span", { class: "muted", text: ` ${effectText(id)}` }))));
  const fields = Object.keys(FIELDS).map((k) => el("li", { class: "sw-legend-item" },
    el("span", { class: `sw-field-swatch sw-field-${k}` }), el("span", {}, el("strong", { text: say(`sw.field_name.${k}`) }), ` ${say(`sw.field_text.${k}`)}`)));
  const kindItem = (chip, kind) => el("li", { class: "sw-legend-item" }, chip,
    el("span", {}, el("strong", { text: bonusKindName(kind) }), compact ? "" : ` ${say(`sw.bonus_text.${kind}`)}`));
  const bonuses = [
    kindItem(bonusChip({ kind: "blessing", value: 1 }), "blessing"),
    kindItem(bonusChip({ kind: "combo_bonus", value: 2 }), "combo_bonus"),
    kindItem(bonusChip({ kind: "combo_detonator", value: 1 }), "combo_detonator"),
    el("li", { class: "sw-legend-item" }, bonusChip({ kind: "effect", effect: "shield", value: 1, flag: true }), el("span", {}, el("strong", { text: say("sw.legend.flag") }), ` ${say("sw.legend.flag_text")}`)),
    el("li", { class: "sw-legend-item" }, bonusChip({ kind: "effect", effect: "heal", value: -1 }), el("span", {}, el("strong", { text: say("sw.legend.negative") }), ` ${say("sw.legend.negative_text")}`)),
  ];
  return el("div", { class: `sw-legend${compact ? " sw-legend-compact" : ""}` },
    el("div", {}, el("h3", { text: say("sw.legend.effects") }), el("ul", {}, ...effects)),
    el("div", {}, el("h3", { text: say("sw.legend.fields") }), el("ul", {}, ...fields),
      el("h3", { text: say("sw.legend.bonuses") }), el("ul", {}, ...bonuses)));
}

// ------------------------------------------------------------------ data and styles

let catalogPromise = null;

/** The card set ({heroes, weapons, wheel_segments, times_of_day}), fetched once. */
export function loadCatalog(embedded = null) {
  if (embedded) catalogPromise = Promise.resolve(index(embedded));
  if (!catalogPromise) {
    catalogPromise = api("GET", "/api/games/scratch_wars").then((g) => index(g.catalog || {}));
  }
  return catalogPromise;
}

function index(catalog) {
  const heroes = catalog.heroes || [];
  const weapons = catalog.weapons || [];
  return {
    ...catalog, heroes, weapons,
    hero: Object.fromEntries(heroes.map((h) => [h.code, h])),
    weapon: Object.fromEntries(weapons.map((w) => [w.code, w])),
  };
}

/** Add the Scratch Wars stylesheet to a page that does not link it (the shared match page). */
export function ensureStyles() {
  if (document.querySelector('link[data-sw-css]')) return;
  if ([...document.querySelectorAll('link[rel="stylesheet"]')].some((l) => l.href.includes("/static/css/scratch_wars.css"))) return;
  document.head.append(el("link", { rel: "stylesheet", href: "/static/css/scratch_wars.css", dataset: { swCss: "1" } }));
}
