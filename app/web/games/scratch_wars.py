"""Scratch Wars pages besides the match page (``static/js/games/scratch_wars.js``):

=============================  ===========================================================
``/games/scratch_wars/cards``  the card gallery: every hero and weapon drawn as a card
``/decks/scratch_wars``        the loadout editor (``decks/scratch_wars.html``,
                               ``static/js/scratch_wars_loadouts.js``)
``/games/scratch_wars``        the rules page (``games/scratch_wars.html``)
=============================  ===========================================================

The cards are drawn in the browser by ``static/js/scratch_wars_cards.js`` (shared with the match
page and the loadout editor); the server renders each card's facts as plain HTML first, so the
page reads without JavaScript, and embeds the catalog as JSON.
"""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.games.core import all_games, bot_levels
from app.i18n.catalogs import browser_word
from app.i18n.jinja import N_, Language
from app.i18n.locales import DEFAULT_LOCALE
from app.users.deps import OptionalUser
from app.web.games import DeckEditor, GameWeb, Link
from app.web.pages import render_page, request_language, user_json

GAME = "scratch_wars"
TIME_KEYS = ("morning", "noon", "evening", "night")
TYPE_KEYS = ("sword", "axe", "bow", "wand")

router = APIRouter(include_in_schema=False)


def catalog() -> dict[str, Any]:
    """The Scratch Wars card set (``ScratchWars.catalog()``: heroes, weapons, wheel_segments, ...)."""
    return dict(all_games()[GAME].catalog())


def number(x: float) -> str:
    """``19.5`` -> ``19.5``, ``18.0`` -> ``18``."""
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def say(lang: Language | None, key: str, default: str = "", **params: Any) -> str:
    """The browser's word ``key`` (``WORDS`` of static/js/messages.js, translated in
    ``static/i18n/<locale>.json``) in ``lang``, its ``{name}`` placeholders filled: the card words
    (kinds, flavour lines, weapon names' translations, effects, rarity check) are kept once, for the
    cards the browser draws and for the plain HTML the server renders before them. A plural entry
    is chosen by ``params["count"]`` with the language's CLDR rule; an unknown key gives
    ``default``."""
    return browser_word(lang.code if lang is not None else DEFAULT_LOCALE, key, default, **params)


def kind_name(lang: Language | None, hero: dict[str, Any]) -> str:
    """A hero's kind ("Tinker Knight") in ``lang``."""
    slug = re.sub(r"[^a-z0-9]+", "_", str(hero["kind"]).lower()).strip("_")
    return say(lang, f"sw.kind.{slug}", hero["kind"])


def flavour(lang: Language | None, card: dict[str, Any]) -> str:
    """A card's flavour line in ``lang``."""
    return say(lang, f"sw.flavour.{card['code']}", card.get("flavour") or "") if card.get("flavour") else ""


def weapon_translation(lang: Language | None, weapon: dict[str, Any]) -> str:
    """A weapon's name translated into ``lang``, or "" on a Czech page: the cards keep their own
    Czech names (the set's language, like its rulebook's) and show the translation beside them,
    English included (docs/i18n.md, "names")."""
    local = say(lang, f"sw.weapon.{weapon['code']}", weapon["name"])
    return "" if local == weapon["name"] else local


def time_name(lang: Language | None, index: int) -> str:
    """A time of day (0 morning .. 3 night) in ``lang``."""
    return say(lang, f"sw.time.{TIME_KEYS[index]}", TIME_KEYS[index])


def type_name(lang: Language | None, weapon_type: str, plural: bool = False) -> str:
    """A weapon type ("Sword"; ``plural``: "Swords") in ``lang``."""
    return say(lang, f"sw.{'types' if plural else 'type'}.{weapon_type}", weapon_type)


def effect_name(lang: Language | None, effect: str) -> str:
    """An effect's name ("Attack hero") in ``lang``."""
    return say(lang, f"sw.effect.{effect}", effect.replace("_", " "))


def rarity_text(card: dict[str, Any], lang: Language | None = None) -> str:
    """The rulebook's rarity check as the cards show it: ``20 vs 19.5: above average``."""
    r = card["rarity"]
    verdict = "above" if r["strength"] > r["average"] else "below" if r["strength"] < r["average"] else "exact"
    return say(lang, f"sw.rarity.{verdict}", strength=r["strength"], average=number(r["average"]))


def bonus_text(b: dict[str, Any], lang: Language | None = None) -> str:
    """A hero bonus in words, for the plain-HTML card: ``+2 to Attack hero``."""
    value = f"+{b['value']}" if b["value"] > 0 else f"−{-b['value']}"
    if b["kind"] == "effect":
        text = say(lang, "sw.bonus_line.effect", value=value, effect=effect_name(lang, b["effect"] or ""))
        return f"{text} {say(lang, 'sw.bonus_line.flag')}" if b.get("flag") else text
    return say(lang, f"sw.bonus_line.{b['kind']}", value=value)


def words(lang: Language | None) -> dict[str, Any]:
    """The card words of the plain-HTML pages, bound to the page's language."""
    return {
        "kind_name": partial(kind_name, lang),
        "flavour": partial(flavour, lang),
        "weapon_translation": partial(weapon_translation, lang),
        "time_name": partial(time_name, lang),
        "type_name": partial(type_name, lang),
        "types_text": lambda hero: ", ".join(type_name(lang, t, plural=True) for t in hero["weapon_types"]),
        "rarity_text": lambda card: rarity_text(card, lang),
        "bonus_text": lambda b: bonus_text(b, lang),
        "sw_say": partial(say, lang),
    }


def _context(request: Request, user: Any) -> dict[str, Any]:
    cards = catalog()
    return {
        "catalog": cards,
        "type_keys": TYPE_KEYS,
        "bot_levels": bot_levels(GAME),
        "page_data": {"catalog": cards, "user": user_json(user)},
        **words(request_language(request, user)),
    }


def rules_context(rules: Any) -> dict[str, Any]:
    """The rules page's card words: functions of the page's language (``i18n``), as the template
    calls them (``sw_words(i18n).kind_name(hero)``)."""
    return {"sw_words": words}


@router.get("/games/scratch_wars/cards", response_class=HTMLResponse)
async def cards_page(request: Request, user: OptionalUser) -> HTMLResponse:
    """Every hero and weapon of the shipped set, drawn as cards."""
    return render_page(
        request, "scratch_wars/cards.html", user, title=N_("Scratch Wars cards"), **_context(request, user)
    )


WEB = GameWeb(
    game=GAME,
    module="/static/js/games/scratch_wars.js",
    css=("/static/css/scratch_wars.css",),
    rules_template="games/scratch_wars.html",
    deck_editor=DeckEditor(title=N_("Scratch Wars loadouts"), item="loadout", template="decks/scratch_wars.html"),
    rules_context=rules_context,
    router=router,
    links=(
        Link(N_("The cards"), "/games/scratch_wars/cards", "home-sw-cards"),
        Link(N_("Your loadouts"), "/decks/scratch_wars"),
    ),
    summary=N_(
        "A duel of heroes with spinning weapons: each spin lands on an attack, a heal, energy or a shield. "
        "Bring the other hero's lives to 0."
    ),
    lobby_options={
        "level": {
            "label": N_("Rules level"),
            "type": "select",
            "choices": [
                [1, N_("Level 1: every segment attacks the hero")],
                [2, N_("Level 2: times of day and hero bonuses")],
                [3, N_("Level 3: the full duel, with energy")],
            ],
        },
        "effects": {
            "label": N_("Effects at level 2"),
            "type": "select",
            "show_if": {"level": 2},
            "choices": [
                ["distinguished", N_("Distinguished (2b): each icon does its own thing")],
                ["every_effect_attacks", N_("Every effect attacks the hero (2a)")],
            ],
        },
        "random_loadouts": {"label": N_("Random heroes and weapons for both (no loadout choice)"), "type": "checkbox"},
    },
    option_tags={
        "level": N_("level {value}"),
        "effects": {
            "values": {
                "every_effect_attacks": N_("every effect attacks (2a)"),
                "distinguished": N_("effects distinguished (2b)"),
            }
        },
        "random_loadouts": {"values": {"true": N_("random loadouts"), "false": N_("loadouts chosen")}},
        "permanent_order": {
            "values": {
                "choose": N_("the owner orders permanent attacks"),
                "loadout": N_("permanent attacks in loadout order"),
            }
        },
    },
)
