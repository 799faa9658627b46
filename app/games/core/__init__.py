"""The engine kit: the rules contract, actions and their codec, the state idiom, errors, the
registry and the pure driver (DESIGN.md section 2).

==================  ==========================================================================
``rules.py``        the contract (:class:`Rules`), :class:`Event`, :class:`Outcome`, :data:`CHANCE`
``base.py``         :class:`BaseRules`, the defaults a game inherits
``actions.py``      :class:`Action` (one frozen dataclass per kind) and :class:`ActionCodec`
``state.py``        :func:`evolve`, the one way a state is changed
``errors.py``       the engine's error family, each with its wire code
``registry.py``     games, variants and bots by id
``driver.py``       :func:`submit` (one step), :func:`play_out`, :func:`replay`, :func:`chance_rng`
==================  ==========================================================================
"""

from .actions import Action, ActionCodec
from .base import BaseRules
from .driver import LegalMemo, Record, Step, chance_rng, play_out, replay, submit
from .errors import BadAction, BadOptions, GameError, GameOver, IllegalAction, NotYourTurn
from .registry import all_games, bot_levels, game_variants, get_rules, make_bot, register
from .rules import CHANCE, Bot, Event, Outcome, Rules
from .state import evolve

__all__ = [
    "CHANCE",
    "Action",
    "ActionCodec",
    "BadAction",
    "BadOptions",
    "BaseRules",
    "Bot",
    "Event",
    "GameError",
    "GameOver",
    "IllegalAction",
    "LegalMemo",
    "NotYourTurn",
    "Outcome",
    "Record",
    "Rules",
    "Step",
    "all_games",
    "bot_levels",
    "chance_rng",
    "evolve",
    "game_variants",
    "get_rules",
    "make_bot",
    "play_out",
    "register",
    "replay",
    "submit",
]
