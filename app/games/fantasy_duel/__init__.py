"""Fantasy súboj: the rules engine, unit data and bots (``rules/fantasy_duel.md``).

Importing the package registers the game with the core registry, with its bots easiest first.

==================  ==========================================================================
``units.yaml``      the 36 units of the main pack (spec section 9), checked by ``data.py``
``data.py``         the unit schema, loading, fast unit records, the catalog
``state.py``        options, the position, phases and the JSON form
``actions.py``      one frozen dataclass per action kind, and the codec
``abilities.py``    army-wide abilities and targeting (Taunt, Tactics, Tracking, Healer, support)
``combat.py``       attack resolution and its exact odds
``targeting.py``    targets and matchups read from a state
``deck.py``         drawing, prisons, recruiting, healing
``turns.py``        turns, rounds, top-up, the stalemate guard
``scoring.py``      the end of the game and final scoring
``rules.py``        :class:`FantasyDuel`, the facade
``observe.py``      the table view
``bots.py``         computer players
``positions.py``    build a position from unit ids (tests, tools)
==================  ==========================================================================
"""

from ..core.levels import casual
from ..core.registry import register
from .bots import HeuristicBot, RandomBot
from .rules import FantasyDuel
from .state import FantasyState

RULES = register(
    FantasyDuel(), bots={"random": RandomBot, "casual": casual(HeuristicBot, "casual"), "heuristic": HeuristicBot}
)

__all__ = ["RULES", "FantasyDuel", "FantasyState", "HeuristicBot", "RandomBot"]
