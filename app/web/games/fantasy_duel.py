"""Fantasy súboj pages: ``static/js/games/fantasy_duel.js`` draws a match of 2 to 8 seats (every
army, the prisons, the deck, the dice, the choices of the current step); the rules page
(``games/fantasy_duel.html``) lists the 36 units of the main pack from the engine's catalog, with
their Slovak and English names, numbers and abilities.

A unit's short label (its English name) is derived here from the catalog and reaches the match page
in ``game-data.labels``; the words of abilities on the match page come from
``static/js/messages.js`` (``fd.ability.*``), on the rules page from :func:`ability_text`.

Team mode (spec 8): the engine takes ``teams`` (one team number per seat). The lobby offers
free-for-all and the layouts of :data:`TEAM_MODES` that fit the chosen number of seats; teammates
sit apart, so that turns alternate between the teams (seat 1 team 1, seat 2 team 2, seat 3 team 1,
...). A listed match shows each seat's team, and the match page its team badges and scores.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.i18n.jinja import N_
from app.web.games import GameWeb

GAME = "fantasy_duel"

FACTION_NAMES = {
    "human-empire": "Human empire",
    "human-barbarian": "Human barbarians",
    "elf": "Elves",
    "undead": "Undead",
}
KIND_NAMES = {"mounted": "mounted", "undead": "undead", "living": "living"}


def alternating(teams: int, size: int) -> list[int]:
    """The ``teams`` option of ``teams`` teams of ``size`` seats each, teammates apart:
    ``alternating(2, 2) == [0, 1, 0, 1]``."""
    return [seat % teams for seat in range(teams * size)]


#: the team layouts the lobby offers (spec 8 names 2 vs 2; issue 10 asks for these four)
TEAM_MODES = {
    "2v2": {"label": N_("2 vs 2"), "teams": alternating(2, 2)},
    "3v3": {"label": N_("3 vs 3"), "teams": alternating(2, 3)},
    "4v4": {"label": N_("4 vs 4"), "teams": alternating(2, 4)},
    "2v2v2": {"label": N_("2 vs 2 vs 2"), "teams": alternating(3, 2)},
}


def units(catalog: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The unit list of the catalog (``{"units": [...]}``, table order)."""
    return list(catalog.get("units", []))


def labels(catalog: Mapping[str, Any]) -> dict[str, str]:
    """Unit id -> its English name, for every unit of the catalog."""
    return {u["id"]: u["name_en"] for u in units(catalog)}


def ability_text(ability: Mapping[str, Any]) -> str:
    """One ability of a catalog unit in English (spec section 5): ``+4 attack against mounted``."""
    kind = ability["id"]
    if kind == "bonus_vs":
        return f"+{ability['attack']} attack against {KIND_NAMES.get(ability['target'], ability['target'])} units"
    if kind == "defense_bonus_vs":
        return f"+{ability['defense']} defence against {KIND_NAMES.get(ability['attacker'], ability['attacker'])} attackers"
    if kind == "ally_support":
        return (
            f"Ally support: +{ability['extra_dice_per_ally']} die per other unit of its faction "
            f"(at most +{ability['max_extra_dice']})"
        )
    return str(
        {
            "hiding": "Hiding: an attack that would win misses on an even dice sum",
            "tracking": "Tracking: the targets of this army cannot hide",
            "poison": "Poison: a failed attack on a living unit poisons it instead",
            "healer": "Healer: no unit of this army can be poisoned",
            "taunt": "Taunt: while it stands unpoisoned, enemies must attack a Taunt unit",
            "tactics": "Tactics: ignores Taunt and may draw cards when it chooses",
            "defensive_fire": "Defensive fire: + the attacker's lowest die to its defence",
            "doom_vs_living": "Doom: defeats any living unit that does not hide",
        }.get(kind, kind.replace("_", " "))
    )


def _rules_context(rules: Any) -> dict[str, Any]:
    catalog = rules.catalog()
    table = []
    for unit in units(catalog):
        table.append(
            {
                **unit,
                "faction_name": FACTION_NAMES.get(unit["faction"], unit["faction"]),
                "ability_texts": [ability_text(a) for a in unit["abilities"]],
            }
        )
    return {"units": table, "factions": FACTION_NAMES}


WEB = GameWeb(
    game=GAME,
    module="/static/js/games/fantasy_duel.js",
    css=("/static/css/fantasy_duel.css",),
    rules_template="games/fantasy_duel.html",
    summary=N_(
        "2 to 8 players, one shared deck, every army of 3 units face up. Attack with attack + dice "
        "against defence, fill your prison, and score a point for every prisoner and every survivor."
    ),
    # the texts are msgids (N_), translated where shown (translated_options, option_text)
    lobby_options={
        "packs": {"label": N_("Packs of 36 units in the deck"), "type": "number", "min": 1},
        "stalemate_rounds": {
            "label": N_("Quiet rounds that end the game once the deck is empty"),
            "type": "number",
            "min": 1,
        },
        "recruit_swap_prison": {
            "label": N_("After recruiting, the released unit goes to"),
            "type": "select",
            "choices": [["winner", N_("the winner's prison")], ["loser", N_("the loser's prison")]],
        },
        "poison_attacker_ignores_taunt_and_fire": {
            "label": N_("Poison attackers ignore Taunt and Defensive fire"),
            "type": "checkbox",
        },
    },
    option_tags={
        "packs": N_("packs: {value}"),
        "teams": {
            "values": {
                "0,1,0,1": N_("teams 2 vs 2"),
                "0,1,0,1,0,1": N_("teams 3 vs 3"),
                "0,1,0,1,0,1,0,1": N_("teams 4 vs 4"),
                "0,1,2,0,1,2": N_("teams 2 vs 2 vs 2"),
            },
            "else": N_("teams {value}"),
        },
        "stalemate_rounds": N_("quiet rounds to the end: {value}"),
        "recruit_swap_prison": {"values": {"loser": N_("recruit: released unit to the loser")}},
        "poison_attacker_ignores_taunt_and_fire": {"values": {"true": N_("poison ignores Taunt and fire")}},
    },
    team_modes=TEAM_MODES,
    labels=labels,
    rules_context=_rules_context,
)
