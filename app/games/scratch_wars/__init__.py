"""Scratch Wars duel, levels 1-3 (``rules/scratch_wars.md``): rules, card set and bots.

==================  ===========================================================================
``rules.py``        :class:`ScratchWars`, the rules facade (whose turn, choices, apply by type)
``actions.py``      one frozen dataclass per action kind and the game's codec
``state.py``        :class:`State` and its parts, the state's JSON form
``loadout.py``      loadouts, saved decks, the random draw (section 3.1)
``start.py``        who starts: start weapons, start spin, the starter's choice (3.3-3.4)
``turn.py``         rounds, turns, spins, use/skip, repair, cancel, end of turn, combos (4-7)
``attack.py``       targets, shields, hits (section 8)
``effects.py``      which bonuses, targets and shields are allowed; energy rules
``observe.py``      what a seat sees, and the state behind a view (the bots')
``events.py``       event kinds and their data
``data.py``         the card set (``cards/*.yaml``), its schema and lookup tables
``bots.py``         the computer players
==================  ===========================================================================

Importing the package registers the game with the core registry, with its bots easiest first.
"""

from ..core.registry import register
from .actions import (
    AddCombo,
    Cancel,
    Detonate,
    DrawnLoadouts,
    EndTurn,
    KeepCombos,
    Loadout,
    RandomLoadout,
    Repair,
    ScratchAction,
    Segment,
    Skip,
    SpendShield,
    SpinWeapon,
    Starter,
    StartSpin,
    StartWeapon,
    TakeHit,
    Target,
    Use,
)
from .bots import ExpectimaxBot, GreedyBot, RandomBot
from .data import BOOK, CARD_SET, CardBook, CardSetError, load_card_set, parse_card_set, rarity_check
from .events import EVENT_KINDS
from .rules import ScratchWars
from .state import Attack, Config, Seat, Slot, Spin, State

RULES = register(ScratchWars(), bots={"random": RandomBot, "greedy": GreedyBot, "expectimax": ExpectimaxBot})

__all__ = [
    "BOOK",
    "CARD_SET",
    "EVENT_KINDS",
    "RULES",
    "AddCombo",
    "Attack",
    "Cancel",
    "CardBook",
    "CardSetError",
    "Config",
    "Detonate",
    "DrawnLoadouts",
    "EndTurn",
    "ExpectimaxBot",
    "GreedyBot",
    "KeepCombos",
    "Loadout",
    "RandomBot",
    "RandomLoadout",
    "Repair",
    "ScratchAction",
    "ScratchWars",
    "Seat",
    "Segment",
    "Skip",
    "Slot",
    "SpendShield",
    "Spin",
    "SpinWeapon",
    "StartSpin",
    "StartWeapon",
    "Starter",
    "State",
    "TakeHit",
    "Target",
    "Use",
    "load_card_set",
    "parse_card_set",
    "rarity_check",
]
