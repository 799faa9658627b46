"""Stratego Junior pages: ``static/js/games/stratego_junior.js`` draws a match (Quest and
Victory) and holds the placement editor that ``/decks/stratego_junior`` (the saved setups,
``static/js/stratego_setups.js``) shares. The board's geometry and the castles come from the
rules (``geometry()``, ``catalog()``) through ``game-data``; the castle names are derived here.

Names (docs/i18n.md): a castle keeps its ORIGINAL name, the Hungarian rulebook's (seed 004, the first
of its three rulebooks), in every language: :data:`ORIGINAL_NAMES`, the pages' ``labels``. Beside it
stands its name in the page's language, :data:`NAMES` (English, translated by the catalogs into the
Czech and Slovak rulebooks' words); the browser has the same words as ``sj.piece.<id>``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.i18n.jinja import N_
from app.web.games import DeckEditor, GameWeb, Link


def pieces(catalog: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The castle list of the catalog (``{"pieces": [{"id", "strength", "count", "big", ...}]}``)."""
    return list(catalog.get("pieces", []))


#: each castle's original name: the Hungarian rulebook's word, capitalised as a name (shown as it is
#: in every language)
ORIGINAL_NAMES = {
    "king": "Király",
    "princess": "Hercegnő",
    "knight": "Lovag",
    "unicorn": "Unikornis",
    "dwarf": "Törpe",
    "wizard": "Varázsló",
    "dragon": "Sárkány",
    "flag": "Zászló",
    "black_knight": "Fekete lovag",
    "jester": "Udvaribolond",
}
#: each castle's name in the page's language (translate with ``_()`` where shown)
NAMES = {
    "king": N_("King"),
    "princess": N_("Princess"),
    "knight": N_("Knight"),
    "unicorn": N_("Unicorn"),
    "dwarf": N_("Dwarf"),
    "wizard": N_("Wizard"),
    "dragon": N_("Dragon"),
    "flag": N_("Flag"),
    "black_knight": N_("Black Knight"),
    "jester": N_("Jester"),
}


def _from_id(piece_id: str) -> str:
    """``black_knight`` -> ``Black Knight`` (a castle the tables above do not know yet)."""
    return piece_id.replace("_", " ").title()


def piece_name(piece_id: str) -> str:
    """The castle's original name: ``black_knight`` -> ``Fekete lovag``."""
    return ORIGINAL_NAMES.get(piece_id) or _from_id(piece_id)


def english_name(piece_id: str) -> str:
    """The castle's English name, the msgid of its name in the page's language: ``Black Knight``."""
    return NAMES.get(piece_id) or _from_id(piece_id)


def names(catalog: Mapping[str, Any]) -> dict[str, str]:
    """Castle id -> original name, for every castle of the catalog (the pages' ``labels``)."""
    return {p["id"]: piece_name(p["id"]) for p in pieces(catalog)}


def _rules_context(rules: Any) -> dict[str, Any]:
    catalog = rules.catalog()
    side = pieces(catalog)
    geometry = rules.geometry()
    return {
        "catalog": side,
        "names": names(catalog),
        "english_names": {p["id"]: english_name(p["id"]) for p in side},
        "geometry": geometry,
        "small_count": sum(p["count"] for p in side if not p["big"]),
        "big_names": [english_name(p["id"]) for p in side if p["big"]],
        "depth": len(geometry["formation_rows"][0]),
    }


WEB = GameWeb(
    game="stratego_junior",
    module="/static/js/games/stratego_junior.js",
    css=("/static/css/stratego.css",),
    rules_template="games/stratego_junior.html",
    deck_editor=DeckEditor(title=N_("Stratego Junior setups"), item="setup", template="decks/stratego_junior.html"),
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
