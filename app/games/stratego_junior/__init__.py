"""Stratego Junior, variants Quest and Victory (``rules/stratego_junior.md``): the rules, castle
data and bots.

==================  ==========================================================================
``data.py``         castles, board numbers and die faces from ``pieces.yaml`` (:data:`DATA`)
``board.py``        squares, neighbours, ``[row, column]``, Quest reachability
``actions.py``      one frozen class per action kind and the game's codec
``state.py``        :class:`StrategoState`, :class:`Config`, who acts, the state's JSON
``setup.py``        checking and making setups, saved setups (decks)
``observe.py``      what each seat may see, and the hidden-information declaration
``rules.py``        :class:`StrategoRules`, what both variants share
``quest.py``        :class:`QuestRules` (section 4)
``victory.py``      :class:`VictoryRules` (section 5)
``bots.py``         the computer players
==================  ==========================================================================

Importing the package registers the game with the core registry: Victory is the default rules,
the match option ``variant`` picks :data:`QUEST_RULES` or :data:`VICTORY_RULES`, and the bots are
listed easiest first.
"""

from ..core.levels import casual
from ..core.registry import register
from .actions import (
    Attack,
    DeclineReturn,
    Die,
    Flip,
    Move,
    Place,
    PlaceTower,
    Roll,
    Setup,
    StrategoAction,
    TowerAttack,
)
from .bots import QuestBot, RandomBot, SearchBot, StrategoBot
from .data import DATA, GameData, PiecesDataError, load_pieces, parse_pieces
from .quest import QuestRules
from .rules import StrategoRules
from .setup import SETUPS, make_setup, random_setup, sensible_setup
from .state import Config, StrategoState
from .victory import VictoryRules

QUEST_RULES = QuestRules()
VICTORY_RULES = VictoryRules()
#: the default rules (Victory), as registered
RULES = register(
    VICTORY_RULES,
    bots={"random": RandomBot, "casual": casual(StrategoBot, "casual"), "expert": StrategoBot},
    variant_option="variant",
    variants={"quest": QUEST_RULES, "victory": VICTORY_RULES},
)

__all__ = [
    "DATA",
    "QUEST_RULES",
    "RULES",
    "SETUPS",
    "VICTORY_RULES",
    "Attack",
    "Config",
    "DeclineReturn",
    "Die",
    "Flip",
    "GameData",
    "Move",
    "PiecesDataError",
    "Place",
    "PlaceTower",
    "QuestBot",
    "QuestRules",
    "RandomBot",
    "Roll",
    "SearchBot",
    "Setup",
    "StrategoAction",
    "StrategoBot",
    "StrategoRules",
    "StrategoState",
    "TowerAttack",
    "VictoryRules",
    "load_pieces",
    "make_setup",
    "parse_pieces",
    "random_setup",
    "sensible_setup",
]
