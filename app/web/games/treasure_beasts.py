"""Treasure Beasts pages: ``static/js/games/treasure_beasts.js`` draws a match of 2 to 6 seats
(the draft: your pack, your picks so far, the packs passing; then every seat's three zones with
its creatures drawn as cards, the treasures in the centre and in every treasury, your hand, the
action points left, the legal actions as controls, attacks built step by step and the defender's
choice of losses); the rules page (``games/treasure_beasts.html``) explains a turn and lists the
card set from the engine's catalog.

A card's short label (its name) is derived here from the catalog and reaches the match page in
``game-data.labels``. Abilities are drawn on the match page from the effect codes of the catalog
(``static/js/messages.js``, ``tb.eff.*``); the rules page shows the card set's own card text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.i18n.jinja import N_
from app.web.games import GameWeb

GAME = "treasure_beasts"

GROUP_NAMES = {
    "pacifists": "Pacifists",
    "birds": "Birds",
    "bloodthirsty": "Bloodthirsty",
    "felines": "Felines",
    "attachers": "Attachers",
}
ZONE_NAMES = {"start": "Start", "bushes": "Bushes", "center": "Center"}
PROPERTY_NAMES = {
    "flight": "Flight",
    "jump": "Jump",
    "threat": "Threat",
    "interception": "Interception",
    "theft": "Theft",
    "carrying_capacity": "Carrying capacity",
    "peacefulness": "Peacefulness",
    "aggressiveness": "Aggressiveness",
    "stealth": "Stealth",
    "attentiveness": "Attentiveness",
}
TRIGGER_NAMES = {"on_enter": "On enter", "activated": "Tire", "on_leave": "On leave", "passive": "Passive"}


def cards(catalog: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The card list of the catalog (``{"cards": [...]}``, catalog order)."""
    return list(catalog.get("cards", []))


def labels(catalog: Mapping[str, Any]) -> dict[str, str]:
    """Card id -> its name, for every card of the catalog."""
    return {c["id"]: c["name"] for c in cards(catalog)}


def card_lines(card: Mapping[str, Any]) -> list[str]:
    """The rule lines printed on ``card`` (catalog JSON), in card order: personal abilities with
    their trigger, the group ability with its required count, the alternative use with its cost,
    the attach option with its hosts."""
    out = [f"{TRIGGER_NAMES[a['trigger']]}: {a['text']}" for a in card.get("personal_abilities", ())]
    group = card.get("group_ability")
    if group:
        out.append(f"Group ({group['required_count']}): {group['text']}")
    alt = card.get("alternative_use")
    if alt:
        out.append(f"Alternative use: {alt['text']}")
    attach = card.get("attach_option")
    if attach:
        out.append(f"Attach ({attach['hosts']}): {attach['text']}")
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
