"""Scratch Wars duel, levels 1-3 (``rules/scratch_wars.md``): rules engine, card set and bots.

Importing the package registers the game with the core registry, with its bots easiest first.
"""

from ..core.registry import register
from .bots import ExpectimaxBot, GreedyBot, RandomBot
from .data import BOOK, CARD_SET, CardBook, CardSetError, load_card_set, parse_card_set, rarity_check
from .engine import ScratchWars
from .state import Attack, Config, Seat, Slot, Spin, State

RULES = register(ScratchWars(), bots={"random": RandomBot, "expectimax": ExpectimaxBot})

__all__ = [
    "BOOK", "CARD_SET", "RULES", "Attack", "CardBook", "CardSetError", "Config", "ExpectimaxBot", "GreedyBot",
    "RandomBot", "ScratchWars", "Seat", "Slot", "Spin", "State", "load_card_set", "parse_card_set", "rarity_check",
]
