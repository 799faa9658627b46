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

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from app.games.core import all_games, bot_levels
from app.i18n.jinja import N_
from app.users.deps import OptionalUser
from app.web.games import DeckEditor, GameWeb, Link
from app.web.pages import render_page, user_json

GAME = "scratch_wars"
TIMES = ("Morning", "Noon", "Evening", "Night")
TYPE_NAMES = {"sword": "Sword", "axe": "Axe", "bow": "Bow", "wand": "Wand"}

router = APIRouter(include_in_schema=False)


def catalog() -> dict[str, Any]:
    """The Scratch Wars card set (``ScratchWars.catalog()``: heroes, weapons, wheel_segments, ...)."""
    return dict(all_games()[GAME].catalog())


def number(x: float) -> str:
    """``19.5`` -> ``19.5``, ``18.0`` -> ``18``."""
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def rarity_text(card: dict[str, Any]) -> str:
    """The rulebook's rarity check as the cards show it: ``20 vs 19.5: above average``."""
    r = card["rarity"]
    verdict = (
        "above average"
        if r["strength"] > r["average"]
        else "below average"
        if r["strength"] < r["average"]
        else "exactly average"
    )
    return f"{r['strength']} vs {number(r['average'])}: {verdict}"


def bonus_text(b: dict[str, Any]) -> str:
    """A hero bonus in words, for the plain-HTML card: ``+2 attack hero (flag)``."""
    value = f"+{b['value']}" if b["value"] > 0 else f"−{-b['value']}"
    what = (b["effect"] or "").replace("_", " ") if b["kind"] == "effect" else b["kind"].replace("_", " ")
    return f"{value} {what}{' (flag)' if b.get('flag') else ''}"


def _context(user: Any) -> dict[str, Any]:
    cards = catalog()
    return {
        "catalog": cards,
        "rarity_text": rarity_text,
        "bonus_text": bonus_text,
        "times": TIMES,
        "type_names": TYPE_NAMES,
        "bot_levels": bot_levels(GAME),
        "page_data": {"catalog": cards, "user": user_json(user)},
    }


@router.get("/games/scratch_wars/cards", response_class=HTMLResponse)
async def cards_page(request: Request, user: OptionalUser) -> HTMLResponse:
    """Every hero and weapon of the shipped set, drawn as cards."""
    return render_page(request, "scratch_wars/cards.html", user, title="Scratch Wars cards", **_context(user))


WEB = GameWeb(
    game=GAME,
    module="/static/js/games/scratch_wars.js",
    css=("/static/css/scratch_wars.css",),
    rules_template="games/scratch_wars.html",
    deck_editor=DeckEditor(title="Scratch Wars loadouts", item="loadout", template="decks/scratch_wars.html"),
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
