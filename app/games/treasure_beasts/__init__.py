"""Treasure Beasts (our name for the untitled Ukrainian creature game): the rules engine, the first
card set and the bots (``rules/treasure_beasts.md``, issue 11).

Importing the package registers the game with its bots, easiest first.

=================  ===============================================================================
``data.py``        card schema, effect vocabulary, loading and set checks; the set is ``cards.yaml``
``state.py``       the immutable state and its JSON
``actions.py``     one frozen dataclass per action kind and the codec
``rules.py``       :class:`TreasureBeasts`, the contract facade
``draft.py``       the deal and the simultaneous draft (3.4-3.6)
``turns.py``       turn start, AP, draws, hand limit, elimination, victory, reshuffles (4, 12, 13)
``play.py``        hand actions and free creature activity (5, 6, 10)
``attacks.py``     attacks built step by step and their resolution (9)
``zones.py``       entering, leaving, moving, attaching (5.1, 5.2, 6)
``properties.py``  current strength and properties, reach, Threat (8, 10, 11.2)
``abilities.py``   one-shot abilities and the trigger queue (11.1, 13)
``legality.py``    the direct legality check of one action
``observe.py``     observations and secrets (AMBIGUITY 21)
``bots.py``        random and greedy computer players
``planner.py``     the planning computer player (tries each action to the end of its turn)
=================  ===============================================================================

Decisions where the spec is silent or open (each also noted in its module):

* Players 2-6 (the draft needs 6 cards a seat; 52 cards in the deck). Seat 0 plays first
  (lobby order); the draft passes from seat ``i`` to seat ``i + 1``.
* Turn cap: option ``max_rounds`` (default 40 rounds; 0 = none). The spec's end can stall (a
  finite central pool emptied, every creature Peaceful or out of reach); at the cap the richest
  seats still playing win, reason ``turn_cap``. Other options follow the spec's configs:
  ``center_treasure`` (``"unlimited"`` or a number), ``turn_ends_at_zero_ap``,
  ``creature_actions`` (``per_kind`` | ``one_total``), ``threat_scope`` (``owner`` | ``global``).
* Ability targets are chosen by rule (strongest / weakest enemy it may target, ...), never by a
  player, and simultaneous triggers resolve in a fixed order (active seat first, then turn order,
  then by creature id): every decision stays a short list.
* An attack once declared is carried out (no withdrawing); the defender picks losses one at a time
  and forced picks are made for it.
* Attached creatures are neither attacked nor targeted, do not count for Threat, and do not take
  treasure or attack; their passive and activated abilities work. A re-attach obeys the same host
  rules as the attach.
* The same group ability (same card) counts once per owner; strength never falls below 0; a
  removed property beats a granted one.
* ``discard`` effects take the cards an opponent drew last (hands are kept in draw order).
* Resigning: two seats, the other wins; more seats, the game goes on and the computer plays the
  seat (the kit's default).
"""

from ..core.registry import register
from .bots import GreedyBot, RandomBot
from .planner import PlannerBot
from .rules import BOOK, TreasureBeasts
from .state import State

RULES = register(TreasureBeasts(), bots={"random": RandomBot, "greedy": GreedyBot, "planner": PlannerBot})

__all__ = ["BOOK", "RULES", "GreedyBot", "PlannerBot", "RandomBot", "State", "TreasureBeasts"]
