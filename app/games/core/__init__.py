"""The engine core: the rules contract, errors, registry and pure driver (DESIGN.md section 2)."""

from .base import BaseRules
from .driver import Record, Step, chance_rng, play_out, replay, submit
from .errors import BadAction, BadOptions, GameError, GameOver, IllegalAction, NotYourTurn
from .registry import all_games, bot_levels, get_rules, make_bot, register
from .rules import CHANCE, Bot, Event, Outcome, Rules

__all__ = [
    "CHANCE", "BadAction", "BadOptions", "BaseRules", "Bot", "Event", "GameError", "GameOver",
    "IllegalAction", "NotYourTurn", "Outcome", "Record", "Rules", "Step", "all_games", "bot_levels",
    "chance_rng", "get_rules", "make_bot", "play_out", "register", "replay", "submit",
]
