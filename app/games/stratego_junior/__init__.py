"""Stratego Junior, variants Quest and Victory: the rules engine, castle data and bots
(``rules/stratego_junior.md``).

Importing the package registers the game with the core registry, with its bots easiest first.
"""

from ..core.registry import register
from .bots import QuestBot, RandomBot, SearchBot, StrategoBot
from .data import DATA, GameData, PiecesDataError, load_pieces, parse_pieces
from .engine import SETUPS, StrategoJunior, StrategoState, random_setup, sensible_setup

RULES = register(StrategoJunior(), bots={"random": RandomBot, "expert": StrategoBot})

__all__ = [
    "DATA", "RULES", "SETUPS", "GameData", "PiecesDataError", "QuestBot", "RandomBot", "SearchBot",
    "StrategoBot", "StrategoJunior", "StrategoState", "load_pieces", "parse_pieces", "random_setup",
    "sensible_setup",
]
