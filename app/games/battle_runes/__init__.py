"""Battle Runes ("Боевые руны"): the rules engine, rune data and bots (``rules/battle_runes.md``).

Importing the package registers the game with the core registry, with its bots easiest first.
"""

from ..core.registry import register
from .actions import CODEC, BattleRunesAction, Pick, Shuffle, hand_picks, sort_runes
from .bots import GreedyBot, NashBot, RandomBot
from .engine import BattleRunes, end_check
from .resolve import Resolution, ResolveOptions, Step, resolve_turn, settle_scores
from .state import BattleRunesState, Config

RULES = register(BattleRunes(), bots={"random": RandomBot, "greedy": GreedyBot, "nash": NashBot})

__all__ = [
    "CODEC",
    "RULES",
    "BattleRunes",
    "BattleRunesAction",
    "BattleRunesState",
    "Config",
    "GreedyBot",
    "NashBot",
    "Pick",
    "RandomBot",
    "Resolution",
    "ResolveOptions",
    "Shuffle",
    "Step",
    "end_check",
    "hand_picks",
    "resolve_turn",
    "settle_scores",
    "sort_runes",
]
