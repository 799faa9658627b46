"""Stratego Junior pages: ``static/js/games/stratego_junior.js`` draws a match (Quest and
Victory) and holds the placement editor that ``/decks/stratego_junior`` (the saved setups,
``static/js/stratego_setups.js``) shares. The board's geometry and the castles come from the
rules (``geometry()``, ``catalog()``) through ``game-data``; the castle names are derived here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.i18n.jinja import N_
from app.web.games import DeckEditor, GameWeb, Link


def pieces(catalog: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The castle list of the catalog (``{"pieces": [{"id", "strength", "count", "big", ...}]}``)."""
    return list(catalog.get("pieces", []))


def piece_name(piece_id: str) -> str:
    """``black_knight`` -> ``Black Knight``."""
    return piece_id.replace("_", " ").title()


def names(catalog: Mapping[str, Any]) -> dict[str, str]:
    """Castle id -> name, for every castle of the catalog."""
    return {p["id"]: piece_name(p["id"]) for p in pieces(catalog)}


def _rules_context(rules: Any) -> dict[str, Any]:
    catalog = rules.catalog()
    side = pieces(catalog)
    geometry = rules.geometry()
    return {
        "catalog": side,
        "names": names(catalog),
        "geometry": geometry,
        "small_count": sum(p["count"] for p in side if not p["big"]),
        "big_names": [piece_name(p["id"]) for p in side if p["big"]],
        "depth": len(geometry["formation_rows"][0]),
    }


WEB = GameWeb(
    game="stratego_junior",
    module="/static/js/games/stratego_junior.js",
    css=("/static/css/stratego.css",),
    rules_template="games/stratego_junior.html",
    deck_editor=DeckEditor(title="Stratego Junior setups", item="setup", template="decks/stratego_junior.html"),
    links=(Link(N_("Your setups"), "/decks/stratego_junior", "home-sj-setups"),),
    summary=N_(
        "Hidden castles on a little board, for children and their parents: roll the die and turn castles "
        "round (Quest), or move and attack (Victory). Find the other side's Flag to win."
    ),
    # the texts are msgids (N_), translated where shown (translated_options, option_text)
    lobby_options={
        "variant": {
            "label": N_("Quest or Victory"),
            "type": "select",
            "choices": [["victory", N_("Victory: move and attack")], ["quest", N_("Quest: dice, castles never move")]],
        },
        "memory_aid": {"label": N_("Memory aid: castles you have seen stay shown"), "type": "checkbox"},
        "move_cap": {"label": N_("Turn limit (0 = none; a draw when reached)"), "type": "number", "min": 0},
    },
    option_tags={
        "variant": {"values": {"quest": N_("Quest (dice)"), "victory": N_("Victory (moves)")}, "always": True},
        "memory_aid": {"values": {"true": N_("memory aid"), "false": N_("no memory aid")}},
        "move_cap": {"values": {"0": N_("no move limit")}, "else": N_("move limit: {value}")},
        "black_knight_returns_jester": {
            "values": {
                "true": N_("the Black Knight returns the Jester"),
                "false": N_("the Black Knight returns nobody"),
            }
        },
        "black_knight_return_optional": {
            "values": {"true": N_("returning is optional"), "false": N_("returning is a must")}
        },
    },
    labels=names,
    rules_context=_rules_context,
)
