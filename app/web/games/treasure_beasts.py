"""Treasure Beasts pages: ``static/js/games/treasure_beasts.js`` draws a match of 2 to 6 seats
(the draft: your pack, your picks so far, the packs passing; then every seat's three zones with
its creatures drawn as cards, the treasures in the centre and in every treasury, your hand, the
action points left, the legal actions as controls, attacks built step by step and the defender's
choice of losses); the rules page (``games/treasure_beasts.html``) explains a turn and lists the
card set from the engine's catalog.

A card's short label (its name) is derived here from the catalog and reaches the match page in
``game-data.labels``: the card's own, Ukrainian name (the game's language); the catalog's ``names``
give its translation, shown beside it (docs/i18n.md). Abilities are drawn on the match page from
the effect codes of the catalog (``static/js/messages.js``, ``tb.eff.*``); the rules page shows the
card set's own card text, translated through the gettext catalogs (:data:`CARD_TEXTS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.i18n.jinja import N_
from app.web.games import GameWeb

GAME = "treasure_beasts"

#: the groups, zones, properties and triggers as the rules page names them (the Ukrainian
#: rulebook's terms in each language's catalog: Пацифісти, Кущі, Політ, ...)
GROUP_NAMES = {
    "pacifists": N_("Pacifists"),
    "birds": N_("Birds"),
    "bloodthirsty": N_("Bloodthirsty"),
    "felines": N_("Felines"),
    "attachers": N_("Attachers"),
}
ZONE_NAMES = {"start": N_("Start"), "bushes": N_("Bushes"), "center": N_("Center")}
PROPERTY_NAMES = {
    "flight": N_("Flight"),
    "jump": N_("Jump"),
    "threat": N_("Threat"),
    "interception": N_("Interception"),
    "theft": N_("Theft"),
    "carrying_capacity": N_("Carrying capacity"),
    "peacefulness": N_("Peacefulness"),
    "aggressiveness": N_("Aggressiveness"),
    "stealth": N_("Stealth"),
    "attentiveness": N_("Attentiveness"),
}
TRIGGER_NAMES = {
    "on_enter": N_("On enter"),
    "activated": N_("Tire"),
    "on_leave": N_("On leave"),
    "passive": N_("Passive"),
}
ATTACH_NAMES = {"own": N_("Attach to yours"), "opponent": N_("Attach to an enemy"), "any": N_("Attach to any")}
GROUP_LINE = N_("Group (%(count)s)")
ALTERNATIVE_LINE = N_("Alternative use")

#: the rule texts and flavour lines of the shipped card set (cards.yaml), marked for the catalogs:
#: the rules page shows each in the page's language (a test checks this list against the set)
CARD_TEXTS = (
    N_("Anything shiny."),
    N_("Attach to an opponent's creature: it gets -1 strength."),
    N_("Attach to an opponent's creature: it gets -2 strength."),
    N_("Attach to an opponent's creature: it has Peacefulness."),
    N_("Attach to any creature: it loses Flight."),
    N_("Attach to your creature: it gets +2 strength and Jump."),
    N_("Attach to your creature: it gets +2 strength."),
    N_("Attach to your creature: it has Attentiveness."),
    N_("Attach to your creature: it has Interception."),
    N_("Attach to your creature: it takes 2 more treasures each time."),
    N_("Eats the grass around the gold, and then the gold."),
    N_("Enemy creatures get -1 strength."),
    N_("Instead (1 AP and 1 treasure): destroy the weakest enemy creature, if its strength is 2 or less."),
    N_("Instead (2 AP): put the newest other creature card of the discard onto your field."),
    N_("Instead: draw 2 cards."),
    N_("Instead: each opponent discards the card it drew last."),
    N_("Instead: each opponent loses 1 treasure to the center."),
    N_("Instead: ready your strongest tired creature."),
    N_("Instead: steal 1 treasure from the richest opponent."),
    N_("Instead: steal 2 treasures from the richest opponent."),
    N_("It may move twice each turn."),
    N_("Three attachers: all your creatures get +1 strength."),
    N_("Three birds: your birds take 1 more treasure each time."),
    N_("Three felines: every player's felines get +1 strength."),
    N_("Three pacifists: your pacifists get +1 strength."),
    N_("Tire: destroy the weakest enemy creature it may target, if its strength is 1 or less."),
    N_("Tire: draw 1 card."),
    N_("Tire: the strongest enemy creature it may target moves one zone back."),
    N_("Tire: tire the strongest ready enemy creature it may target."),
    N_("Two bloodthirsty: your bloodthirsty get +1 strength."),
    N_("Two felines: your felines have Jump."),
    N_("When it enters: destroy the weakest enemy creature it may target, if its strength is 2 or less."),
    N_("When it enters: draw 1 card."),
    N_("When it enters: get 1 action point."),
    N_("When it enters: it moves one zone towards the Center."),
    N_("When it enters: steal 1 treasure from the richest opponent."),
    N_("When it enters: tire the strongest ready enemy creature it may target."),
    N_("When it leaves the field: draw 1 card."),
    N_("When it leaves the field: steal 1 treasure from the richest opponent."),
    N_("When it leaves the field: take 1 treasure."),
    N_("Your creatures have Attentiveness."),
)


def cards(catalog: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The card list of the catalog (``{"cards": [...]}``, catalog order)."""
    return list(catalog.get("cards", []))


def labels(catalog: Mapping[str, Any]) -> dict[str, str]:
    """Card id -> its own name (Ukrainian, the game's language), for every card of the catalog;
    the translations beside it are the catalog's ``names``."""
    return {c["id"]: c["name"] for c in cards(catalog)}


def card_lines(card: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The rule lines printed on ``card`` (catalog JSON), in card order: personal abilities with
    their trigger, the group ability with its required count, the alternative use, the attach
    option with its hosts. Each line is ``{"label", "params", "text"}``: English msgids the rules
    page translates (``_(label, **params)``: ``_(text)``)."""
    out = [
        {"label": TRIGGER_NAMES[a["trigger"]], "params": {}, "text": a["text"]}
        for a in card.get("personal_abilities", ())
    ]
    group = card.get("group_ability")
    if group:
        out.append({"label": GROUP_LINE, "params": {"count": group["required_count"]}, "text": group["text"]})
    alt = card.get("alternative_use")
    if alt:
        out.append({"label": ALTERNATIVE_LINE, "params": {}, "text": alt["text"]})
    attach = card.get("attach_option")
    if attach:
        out.append({"label": ATTACH_NAMES[attach["hosts"]], "params": {}, "text": attach["text"]})
    return out


def _rules_context(rules: Any) -> dict[str, Any]:
    table = []
    for card in cards(rules.catalog()):
        table.append(
            {
                **card,
                "group_name": GROUP_NAMES.get(card["group"], card["group"]),
                "zone_name": ZONE_NAMES.get(card["start_position"], card["start_position"]),
                "property_names": [PROPERTY_NAMES.get(p, p) for p in card.get("properties", ())],
                "lines": card_lines(card),
            }
        )
    return {
        "cards": table,
        "deck_size": sum(c.get("copies", 1) for c in table),
        "groups": GROUP_NAMES,
        "property_names": PROPERTY_NAMES,
    }


WEB = GameWeb(
    game=GAME,
    module="/static/js/games/treasure_beasts.js",
    css=("/static/css/treasure_beasts.css",),
    rules_template="games/treasure_beasts.html",
    summary=N_(
        "2 to 6 players draft creatures, send them from Start through the Bushes to the Center, "
        "and take, steal and fight over treasure: the first to hold 12 wins."
    ),
    # the texts are msgids (N_), translated where shown (translated_options, option_text)
    lobby_options={
        "max_rounds": {
            "label": N_("Rounds before the richest player wins (0: no limit)"),
            "type": "number",
            "min": 0,
        },
        "creature_actions": {
            "label": N_("Creature actions per turn"),
            "type": "select",
            "choices": [["per_kind", N_("one of each kind")], ["one_total", N_("one in all")]],
        },
        "threat_scope": {
            "label": N_("Threat protects"),
            "type": "select",
            "choices": [["owner", N_("its owner only")], ["global", N_("against everything")]],
        },
        "turn_ends_at_zero_ap": {
            "label": N_("The turn ends when the last action point is spent"),
            "type": "checkbox",
        },
    },
    option_tags={
        "max_rounds": {"values": {"0": N_("no round limit")}, "else": N_("round limit: {value}")},
        "creature_actions": {"values": {"one_total": N_("one creature action a turn")}},
        "threat_scope": {"values": {"global": N_("global Threat")}},
        "turn_ends_at_zero_ap": {"values": {"false": N_("pass to end a turn")}},
        "center_treasure": {
            "values": {"unlimited": N_("treasure in the centre: no limit")},
            "else": N_("treasure in the centre: {value}"),
        },
    },
    labels=labels,
    rules_context=_rules_context,
)
