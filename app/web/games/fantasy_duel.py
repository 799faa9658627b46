"""Fantasy súboj pages: ``static/js/games/fantasy_duel.js`` draws a match of 2 to 8 seats (every
army, the prisons, the deck, the dice, the choices of the current step); the rules page
(``games/fantasy_duel.html``) lists the 36 units of the main pack from the engine's catalog, with
their names, numbers and abilities.

Units keep their original Slovak names (the seed rulebook's, :func:`display_name`: "Rytier"), in
every language; the page's language shows its translation beside it: the rules page on a second
line, the board in the unit's ``title``. The translations are the browser's catalog entries
``fd.unit.<id>`` (``static/js/messages.js`` in English, ``static/i18n/<locale>.json``), which the
rules page reads too (:func:`unit_translation`), so each name is translated in one place. The
labels of ``game-data`` are the original names. The words of abilities on the match page come from
``static/js/messages.js`` (``fd.ability.*``), on the rules page from :func:`ability_message`
(gettext msgids marked here).

Team mode (spec 8): the engine takes ``teams`` (one team number per seat). The lobby offers
free-for-all and the layouts of :data:`TEAM_MODES` that fit the chosen number of seats; teammates
sit apart, so that turns alternate between the teams (seat 1 team 1, seat 2 team 2, seat 3 team 1,
...). A listed match shows each seat's team, and the match page its team badges and scores.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.i18n.catalogs import browser_word
from app.i18n.jinja import N_
from app.web.games import GameWeb

GAME = "fantasy_duel"

#: the factions as the cards print them ("človek – impérium"), in English for the catalogs
FACTION_NAMES = {
    "human-empire": N_("Humans: the empire"),
    "human-barbarian": N_("Humans: the barbarians"),
    "elf": N_("Elves"),
    "undead": N_("Undead"),
}
#: an ability's sentence per kind of unit it names (a language bends the kind in its sentence)
BONUS_VS = {
    "mounted": N_("+%(attack)s attack against mounted units"),
    "undead": N_("+%(attack)s attack against undead units"),
    "living": N_("+%(attack)s attack against living units"),
}
DEFENSE_BONUS_VS = {
    "mounted": N_("+%(defense)s defence against mounted attackers"),
    "undead": N_("+%(defense)s defence against undead attackers"),
    "living": N_("+%(defense)s defence against living attackers"),
}
ABILITIES = {
    "hiding": N_("Hiding: an attack that would win misses on an even dice sum"),
    "tracking": N_("Tracking: the targets of this army cannot hide"),
    "poison": N_("Poison: a failed attack on a living unit poisons it instead"),
    "healer": N_("Healer: no unit of this army can be poisoned"),
    "taunt": N_("Taunt: while it stands unpoisoned, enemies must attack a Taunt unit"),
    "tactics": N_("Tactics: ignores Taunt and may draw cards when it chooses"),
    "defensive_fire": N_("Defensive fire: + the attacker's lowest die to its defence"),
    "doom_vs_living": N_("Doom: defeats any living unit that does not hide"),
    "ally_support": N_(
        "Ally support: +%(extra_dice_per_ally)s die per other unit of its faction (at most +%(max_extra_dice)s)"
    ),
}


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


def display_name(unit: Mapping[str, Any]) -> str:
    """A unit's original name as a sentence writes it: the card's capitals ``RYTIER SMRTI`` become
    ``Rytier smrti`` (``Gúl`` stays)."""
    name = str(unit["name_sk"])
    return name[:1] + name[1:].lower()


def labels(catalog: Mapping[str, Any]) -> dict[str, str]:
    """Unit id -> its original (Slovak) name, for every unit of the catalog."""
    return {u["id"]: display_name(u) for u in units(catalog)}


def unit_translation(unit_id: str, locale: str) -> str:
    """The translation of a unit's name into ``locale`` (``fd.unit.<id>`` of the browser's
    catalogs; English when the language lacks it), or ``""`` for an unknown unit."""
    return browser_word(locale, f"fd.unit.{unit_id}")


def ability_message(ability: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """One ability of a catalog unit (spec section 5) as an English msgid and its parameters, for
    the page to translate: ``("+%(attack)s attack against mounted units", {"attack": 4, ...})``."""
    kind = ability["id"]
    params = {k: v for k, v in ability.items() if k != "id"}
    if kind == "bonus_vs" and ability["target"] in BONUS_VS:
        return BONUS_VS[ability["target"]], params
    if kind == "defense_bonus_vs" and ability["attacker"] in DEFENSE_BONUS_VS:
        return DEFENSE_BONUS_VS[ability["attacker"]], params
    if kind in ABILITIES:
        return ABILITIES[kind], params
    return kind.replace("_", " "), {}


def ability_text(ability: Mapping[str, Any]) -> str:
    """One ability of a catalog unit in English: ``+4 attack against mounted units``."""
    message, params = ability_message(ability)
    return message % params if params else message


def _rules_context(rules: Any) -> dict[str, Any]:
    catalog = rules.catalog()
    table = []
    for unit in units(catalog):
        table.append(
            {
                **unit,
                "name": display_name(unit),
                "faction_name": FACTION_NAMES.get(unit["faction"], unit["faction"]),
                "ability_messages": [ability_message(a) for a in unit["abilities"]],
            }
        )
    return {"units": table, "factions": FACTION_NAMES, "unit_translation": unit_translation}


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
