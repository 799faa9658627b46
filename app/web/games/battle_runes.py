"""Battle Runes pages: ``static/js/games/battle_runes.js`` draws a match; the rules page lists
the 30 runes. A rune's face (``S1+5``, ``×2 S``) is derived here from the catalog, once, and
reaches the page in ``game-data.labels``; the JS does not keep its own copy.

Words (issue 15, docs/i18n.md): a rune keeps its original Russian name (``name_ru`` of
``app/games/battle_runes/runes.yaml``), shown on every page with the page's language's name beside
it; the English names and rule texts of runes.yaml are marked here (:data:`RUNE_WORDS`) for the
rules page's gettext catalogs, and the board takes the same texts from ``br.rune.*`` / ``br.text.*``
of static/js/messages.js (tests/i18n/test_no_english_battle_runes.py checks all three agree).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.i18n.jinja import N_
from app.web.games import GameWeb

#: faces of the runes whose id does not spell their face (the modifiers); those with words are
#: marked for the catalogs (the board has them as ``br.face.<id>``)
MODIFIER_FACES = {
    "FIRE": N_("Fire"),
    "WATER": N_("Water"),
    "ZERO": N_("Zero"),
    "DOUBLE_S": "×2 S",
    "DOUBLE_R": "×2 R",
    "DIFF_S": "Δ S",
    "DIFF_R": "Δ R",
    "SWAP_SELF": "S ⇄ R",
    "SWAP_OPP": N_("S ⇄ R opp"),
    "SWAP_S": "S ⇄ S",
    "SWAP_R": "R ⇄ R",
    "SWAP_ALL": N_("Total ⇄"),
}

#: rune id -> (English name, English rule text), as in runes.yaml: marked for the catalogs; the
#: rules page translates ``name`` and ``text`` of the catalog with them
RUNE_WORDS: dict[str, tuple[str, str]] = {
    "S1": (N_("Construction 1"), N_("+1 construction.")),
    "S2": (N_("Construction 2"), N_("+2 construction.")),
    "S3": (N_("Construction 3"), N_("+3 construction.")),
    "S1P5": (N_("Construction 1+5"), N_("+1 construction. +5 more if either player plays the Water Rune this turn.")),
    "S1P8": (N_("Construction 1+8"), N_("+1 construction. +8 more if you play the Water Rune this turn.")),
    "S1P11": (
        N_("Construction 1+11"),
        N_("+1 construction. +11 more if your opponent plays the Water Rune this turn."),
    ),
    "S1P9": (
        N_("Construction 1+9"),
        N_(
            "+1 construction. +9 more if your opponent plays no modifier rune this turn (Fire, Water and Zero are modifiers)."
        ),
    ),
    "S2P5": (
        N_("Construction 2+5"),
        N_("+2 construction. +5 more if your opponent plays no destruction rune this turn."),
    ),
    "S1PR": (
        N_("Construction 1+R"),
        N_("+1 construction, plus your destruction from destruction runes this turn (before modifiers)."),
    ),
    "R1": (N_("Destruction 1"), N_("+1 destruction.")),
    "R2": (N_("Destruction 2"), N_("+2 destruction.")),
    "R3": (N_("Destruction 3"), N_("+3 destruction.")),
    "R1P5": (N_("Destruction 1+5"), N_("+1 destruction. +5 more if either player plays the Fire Rune this turn.")),
    "R1P8": (N_("Destruction 1+8"), N_("+1 destruction. +8 more if you play the Fire Rune this turn.")),
    "R1P11": (N_("Destruction 1+11"), N_("+1 destruction. +11 more if your opponent plays the Fire Rune this turn.")),
    "R1P9": (
        N_("Destruction 1+9"),
        N_(
            "+1 destruction. +9 more if your opponent plays no modifier rune this turn (Fire, Water and Zero are modifiers)."
        ),
    ),
    "R2P5": (
        N_("Destruction 2+5"),
        N_(
            "+2 destruction. +5 more destruction if your opponent plays no construction rune this turn (the original card reads +5 construction; a match option selects that reading)."
        ),
    ),
    "R1PS": (
        N_("Destruction 1+S"),
        N_("+1 destruction, plus your construction from construction runes this turn (before modifiers)."),
    ),
    "FIRE": (N_("Fire Rune"), N_("No effect by itself. Powers Destruction 1+5, 1+8 and 1+11, Zero and Total Swap.")),
    "WATER": (N_("Water Rune"), N_("No effect by itself. Powers Construction 1+5, 1+8 and 1+11, Zero and Total Swap.")),
    "ZERO": (
        N_("Zero"),
        N_(
            "If either player plays the Fire Rune or the Water Rune this turn, the turn is annulled: nobody gains or loses anything."
        ),
    ),
    "DOUBLE_S": (N_("Double Construction"), N_("Doubles your construction.")),
    "DOUBLE_R": (N_("Double Destruction"), N_("Doubles your destruction.")),
    "DIFF_S": (
        N_("Construction Difference"),
        N_("Whoever has more construction (it may be your opponent) gets twice the difference as extra construction."),
    ),
    "DIFF_R": (
        N_("Destruction Difference"),
        N_("Whoever has more destruction (it may be your opponent) gets twice the difference as extra destruction."),
    ),
    "SWAP_SELF": (N_("Own Swap"), N_("Swaps your construction and your destruction.")),
    "SWAP_OPP": (N_("Opponent Swap"), N_("Swaps your opponent's construction and destruction.")),
    "SWAP_S": (N_("Construction Swap"), N_("You and your opponent swap construction. Two Construction Swaps cancel.")),
    "SWAP_R": (N_("Destruction Swap"), N_("You and your opponent swap destruction. Two Destruction Swaps cancel.")),
    "SWAP_ALL": (
        N_("Total Swap"),
        N_(
            "If the Fire Rune and the Water Rune are both played this turn (by anyone), the players swap their whole scores after this turn's points. Two Total Swaps cancel."
        ),
    ),
}
#: the rune kinds' names (card colours)
KIND_NAMES = {"build": N_("Construction"), "destroy": N_("Destruction"), "modifier": N_("Modifier")}


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
    return {"catalog": runes(catalog), "faces": faces(catalog), "kind_names": KIND_NAMES}


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
