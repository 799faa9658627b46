// The Scratch Wars loadout builder: pick a hero and 1-5 weapons, no two with the same name (rule
// 3.1 from level 2: "kind" is the weapon's name, not its type; two different axes are fine). Used by the
// loadout editor (/decks/scratch_wars) and by the match page's loadout phase ("Build one").
// The server has the last word (validate_deck / is_legal); this only keeps the choice sensible.

import { el } from "/static/js/api.js";
import { say } from "/static/js/messages.js";
import { heroCard, icon, kindName, TYPES, typesName, weaponCard, weaponLabel } from "/static/js/scratch_wars_cards.js";

export const MAX_WEAPONS = 5;

/** Energy to spin `w` for hero `h` (its cost, +1 off-type), as the engine counts it. */
export function spinCost(h, w) {
  return w.energy_cost + (h && !h.weapon_types.includes(w.type) ? 1 : 0);
}

/**
 * A builder. opts: {hero, weapons, onChange(value), idPrefix}.
 * Returns {node, value(), set({hero, weapons})}; value() is {hero, weapons} (hero may be null).
 */
export function loadoutBuilder(cat, opts = {}) {
  const prefix = opts.idPrefix || "sw";
  const state = { hero: opts.hero || null, weapons: [...(opts.weapons || [])], filter: "hero", hint: "" };
  const node = el("div", { class: "sw-builder", id: `${prefix}-builder` });

  function changed() {
    draw();
    if (opts.onChange) opts.onChange(value());
  }

  function value() {
    return { hero: state.hero, weapons: [...state.weapons] };
  }

  function toggleWeapon(code) {
    const w = cat.weapon[code];
    if (state.weapons.includes(code)) {
      state.weapons = state.weapons.filter((c) => c !== code);
      state.hint = "";
    } else if (state.weapons.length >= MAX_WEAPONS) {
      state.hint = say("sw.builder.too_many", { count: MAX_WEAPONS });
    } else if (state.weapons.some((c) => cat.weapon[c].name === w.name)) {
      state.hint = say("sw.builder.same_name", { weapon: weaponLabel(w) });
    } else {
      state.weapons = [...state.weapons, code];
      state.hint = "";
    }
    changed();
  }

  function draw() {
    const hero = state.hero ? cat.hero[state.hero] : null;
    // summary: the chosen hero and weapons in slot order
    const chosen = state.weapons.map((code, i) => {
      const w = cat.weapon[code];
      const cost = spinCost(hero, w);
      return el("li", { class: "sw-chosen-weapon", dataset: { code } },
        el("span", { class: "sw-slot-no", text: String(i + 1) }),
        icon(w.type),
        el("span", { class: "sw-chosen-name", text: weaponLabel(w) }),
        el("span", { class: `sw-chip-cost${cost > w.energy_cost ? " sw-cost-extra" : ""}`, title: say("sw.card.cost", { cost, count: cost }) }, icon("energy", { title: "" }), String(cost)),
        el("button", { type: "button", class: "btn btn-small btn-ghost sw-remove", "aria-label": say("sw.builder.take_off", { weapon: weaponLabel(w) }), text: "×",
          onclick: () => toggleWeapon(code) }));
    });
    const summary = el("div", { class: "sw-builder-summary", id: `${prefix}-summary` },
      el("div", { class: "sw-summary-hero" }, el("strong", { text: `${say("sw.builder.hero")} ` }),
        el("span", { id: `${prefix}-chosen-hero`, text: hero ? `${hero.name} (${kindName(hero)})` : say("sw.builder.no_hero") })),
      el("div", { class: "sw-summary-count", id: `${prefix}-weapon-count`, text: say("sw.builder.count", { count: state.weapons.length, max: MAX_WEAPONS }) }),
      chosen.length ? el("ol", { class: "sw-chosen-list" }, ...chosen) : el("p", { class: "muted small", text: say("sw.builder.no_weapon", { max: MAX_WEAPONS }) }),
      el("p", { class: "hint", id: `${prefix}-builder-hint`, text: state.hint }));

    const heroes = el("div", { class: "sw-pick-grid sw-pick-heroes" }, ...cat.heroes.map((h) => heroCard(h, {
      compact: true, selectable: true, selected: h.code === state.hero,
      onClick: () => {
        state.hero = h.code;
        state.hint = "";
        changed();
      },
    })));
    const preview = hero ? el("div", { class: "sw-hero-preview" }, heroCard(hero)) : null;

    const filters = [["hero", say("sw.builder.hero_types")], ["all", say("sw.builder.all")], ...Object.entries(TYPES)];
    const filterBar = el("div", { class: "sw-filters", role: "toolbar", "aria-label": say("sw.builder.weapon_types") },
      ...filters.filter(([f]) => f !== "hero" || hero).map(([f, label]) => el("button", {
        type: "button", class: `btn btn-small${state.filter === f || (f === "all" && state.filter === "hero" && !hero) ? "" : " btn-ghost"}`,
        dataset: { filter: f }, "aria-pressed": state.filter === f ? "true" : "false",
        onclick: () => { state.filter = f; draw(); },
      }, f === "hero" || f === "all" ? label : el("span", {}, icon(f, { title: "" }), ` ${typesName(f)}`))));
    const shown = cat.weapons.filter((w) => {
      if (state.filter === "all" || (state.filter === "hero" && !hero)) return true;
      if (state.filter === "hero") return hero.weapon_types.includes(w.type) || state.weapons.includes(w.code);
      return w.type === state.filter;
    });
    const weapons = el("div", { class: "sw-pick-grid sw-pick-weapons" }, ...shown.map((w) => weaponCard(w, {
      compact: true, selectable: true, hero, selected: state.weapons.includes(w.code),
      onClick: () => toggleWeapon(w.code),
    })));

    node.replaceChildren(summary,
      el("section", { class: "sw-builder-step" }, el("h3", { text: say("sw.builder.step_hero") }), heroes, preview),
      el("section", { class: "sw-builder-step" }, el("h3", { text: say("sw.builder.step_weapons", { max: MAX_WEAPONS }) }),
        el("p", { class: "muted small", id: `${prefix}-name-rule`, text: say("sw.builder.name_rule") }),
        el("p", { class: "muted small", text: say("sw.builder.cost_rule") }),
        filterBar, weapons));
  }

  draw();
  return {
    node,
    value,
    set(v) {
      state.hero = v.hero || null;
      state.weapons = [...(v.weapons || [])];
      state.hint = "";
      draw();
    },
  };
}

/** A one-line description of a loadout: "Bramwell Cogsworth · Velký meč Železná kůra (Ironbark Greatsword), Solná šavle (Salt Cutlass)"
 * (each weapon's translation beside its original name on a page in another language). */
export function loadoutLine(cat, data) {
  const hero = cat.hero[data.hero];
  const names = (data.weapons || []).map((c) => (cat.weapon[c] ? weaponLabel(cat.weapon[c]) : c));
  return `${hero ? hero.name : data.hero} · ${names.join(", ")}`;
}
