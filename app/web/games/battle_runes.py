"""Battle Runes pages: ``static/js/games/battle_runes.js`` draws a match; the rules page lists
the 30 runes. A rune's face (``S1+5``, ``×2 S``) is derived here from the catalog, once, and
reaches the page in ``game-data.labels``; the JS does not keep its own copy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.i18n.jinja import N_
from app.web.games import GameWeb

#: faces of the runes whose id does not spell their face (the modifiers)
MODIFIER_FACES = {
    "FIRE": "Fire",
    "WATER": "Water",
    "ZERO": "Zero",
    "DOUBLE_S": "×2 S",
    "DOUBLE_R": "×2 R",
    "DIFF_S": "Δ S",
    "DIFF_R": "Δ R",
    "SWAP_SELF": "S ⇄ R",
    "SWAP_OPP": "S ⇄ R opp",
    "SWAP_S": "S ⇄ S",
    "SWAP_R": "R ⇄ R",
    "SWAP_ALL": "Total ⇄",
}


def rune_face(rune_id: str) -> str:
    """The short face of a rune: ``S1P5`` -> ``S1+5``, ``S1PR`` -> ``S1+R``, ``DOUBLE_S`` -> ``×2 S``,
    an unknown modifier id -> the id itself."""
    if rune_id in MODIFIER_FACES:
        return MODIFIER_FACES[rune_id]
    head, _, bonus = rune_id.partition("P")
    return f"{head}+{bonus}" if bonus else head


def runes(catalog: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The rune list of the catalog (``{"runes": [{"id", "name", "kind", "order", "text"}, ...]}``)."""
    return list(catalog.get("runes", []))


def faces(catalog: Mapping[str, Any]) -> dict[str, str]:
    """Rune id -> face, for every rune of the catalog."""
    return {r["id"]: rune_face(r["id"]) for r in runes(catalog)}


def _rules_context(rules: Any) -> dict[str, Any]:
    catalog = rules.catalog()
    return {"catalog": runes(catalog), "faces": faces(catalog)}


WEB = GameWeb(
    game="battle_runes",
    module="/static/js/games/battle_runes.js",
    rules_template="games/battle_runes.html",
    summary=N_(
        "Both players secretly pick 3 of their 5 runes, then both picks are revealed and resolved together. "
        "Build your score to 50, or knock your opponent's down to 0."
    ),
    # the texts are msgids (N_), translated where shown (translated_options, option_text)
    lobby_options={
        "win_score": {"label": N_("Winning score"), "type": "number", "min": 1},
        "start_score": {"label": N_("Starting score"), "type": "number", "min": 1},
    },
    option_tags={
        "win_score": N_("first to {value}"),
        "start_score": N_("start at {value}"),
        "max_turns": {"values": {"0": N_("no turn limit")}, "else": N_("turn limit: {value}")},
        "r2p5_bonus_kind": {
            "values": {"destruction": N_("R2+5 bonus: destruction"), "construction": N_("R2+5 bonus: construction")}
        },
        "zero_blocks_swap_all": {
            "values": {"true": N_("Zero blocks Total Swap"), "false": N_("Zero does not block Total Swap")}
        },
    },
    labels=faces,
    rules_context=_rules_context,
)
