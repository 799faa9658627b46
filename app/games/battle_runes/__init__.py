"""Battle Runes ("Боевые руны"): the rules engine, rune data and bots (``rules/battle_runes.md``).

Importing the package registers the game with the core registry, with its bots easiest first.
"""

from ..core.registry import register
from .bots import GreedyBot, NashBot, RandomBot
from .engine import BattleRunes, BattleRunesState, Pick, Shuffle, end_check
from .resolve import Resolution, ResolveOptions, Step, resolve_turn, settle_scores

RULES = register(BattleRunes(), bots={"random": RandomBot, "greedy": GreedyBot, "nash": NashBot})

__all__ = [
    "RULES", "BattleRunes", "BattleRunesState", "GreedyBot", "NashBot", "Pick", "RandomBot", "Resolution",
    "ResolveOptions", "Shuffle", "Step", "end_check", "resolve_turn", "settle_scores",
]
