"""Fantasy súboj computer players (core :class:`~app.games.core.rules.Bot`), easiest first.

Each bot sees only its seat's observation (:func:`.observe.observe`: every army is public, the
deck order is not) and its legal actions.

* :class:`RandomBot`: a uniformly random legal action but ``back`` (the easy level).
* :class:`HeuristicBot`: picks attacker and target together by the exact odds of every allowed
  pair (:func:`.combat.odds`, the same rules the engine plays: Taunt, Tactics, hiding, Tracking,
  poison, Healer, Doom, support) and the value of what is won or risked (:meth:`Table.score`):
  the prisoner, the defensive worth taken off an enemy table (a unit that repels attacks earns
  its owner points; an active Taunt unit draws every enemy's attack), a point given to a leading
  enemy weighing more than one given to a trailing one, the own attacker's worth against a random
  replacement, survivors once the deck is empty; recruits a defeated unit when it is worth more
  than its own weakest unit; always takes its cards (declining them with Tactics measured worse).

Strength (``python -m bench.fantasy_duel_strength``): one heuristic seat against three random
seats wins about 57 games in 100 outright (the fair share is 25); a seat that knew the dice of
its own attack before choosing wins about 59. See ``docs/fantasy_duel_bots.md``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .abilities import allowed_targets, has_tactics
from .actions import Attacker, Back, Draw, FantasyAction, Imprison, Recruit, Target
from .combat import matchup, odds
from .data import UNIT_BY_ID, UNITS, UnitDef

JSON = Any


class RandomBot:
    """Plays a uniformly random legal action (the easy level), but never ``back``: taking back
    an attacker only makes the table wait."""

    name: ClassVar[str] = "random"

    def choose(
        self, observation: Mapping[str, JSON], legal: Sequence[FantasyAction], rng: random.Random, budget_ms: int = 50
    ) -> FantasyAction:
        """:returns: one element of ``legal``. :raises IndexError: ``legal`` is empty."""
        options = [a for a in legal if not isinstance(a, Back)] or legal
        return options[rng.randrange(len(options))]


def _pack_worths() -> tuple[dict[str, float], dict[str, float]]:
    """Per unit id, against every unit of the main pack in turn (no abilities of other army
    members): its defensive worth, the mean of P(an attack on it is repelled) - P(it is defeated),
    and its attacking worth, the mean of P(its attack wins) - P(it is defeated); exact odds
    (:func:`.combat.odds`)."""
    defence: dict[str, float] = {}
    attack: dict[str, float] = {}
    for unit in UNITS:
        d = a = 0.0
        for other in UNITS:
            received = odds(matchup(other, [other], unit, [unit], False))
            d += received.lose - received.win
            made = odds(matchup(unit, [unit], other, [other], False))
            a += made.win - made.lose
        defence[unit.id] = d / len(UNITS)
        attack[unit.id] = a / len(UNITS)
    return defence, attack


#: unit id -> defensive worth, attacking worth, each in -1..1 (:func:`_pack_worths`)
DEFENCE_WORTH, ATTACK_WORTH = _pack_worths()
#: the mean defensive worth of a unit of the pack (what a replacement drawn at random is worth)
MEAN_DEFENCE = sum(DEFENCE_WORTH.values()) / len(DEFENCE_WORTH)
#: how many more attacks an active Taunt unit draws than an ordinary one (every enemy without
#: Tactics must attack it; about one enemy seat in three would otherwise)
TAUNT_ATTENTION = 3.0
#: weights of the heuristic's score (chosen by measurement: ``bench/fantasy_duel_strength.py``)
DENY = 0.6  #: per unit of defensive worth removed from an enemy table by a win
KEEP = 0.5  #: per unit of defensive worth of the own attacker lost by a defeat
FAR_RIVAL = 0.6  #: weight of a point given to a seat more than 1 point behind the best enemy score
POISON = 0.3  #: worth of poisoning the target (it cannot attack, its Taunt and fire stop)


def unit_value(unit: UnitDef) -> float:
    """A unit's worth on its owner's table, about -1 to 1.5: its defensive worth (an army earns a
    point whenever an attack on it is repelled and gives one whenever a unit is defeated, spec
    4.5-4.6) plus half its attacking worth (:data:`DEFENCE_WORTH`, :data:`ATTACK_WORTH`)."""
    return DEFENCE_WORTH[unit.id] + 0.5 * ATTACK_WORTH[unit.id]


#: the mean :func:`unit_value` of the pack (a replacement drawn at random)
MEAN_VALUE = sum(unit_value(u) for u in UNITS) / len(UNITS)


class Table:
    """The table as a bot reads it from an observation (:func:`.observe.observe`): armies, owners,
    poisoned cards, scores, whether the deck is empty; :meth:`score` rates an attack."""

    def __init__(self, observation: Mapping[str, JSON]) -> None:
        self.seat: int = observation["seat"]
        self.teams: list[int] = observation["teams"]
        self.ignore_fire: bool = bool(observation["options"]["poison_attacker_ignores_taunt_and_fire"])
        self.armies: list[list[tuple[int, UnitDef, bool]]] = [
            [(u["card"], UNIT_BY_ID[u["unit"]], bool(u["poisoned"])) for u in army] for army in observation["armies"]
        ]
        self.owner = {card: s for s, army in enumerate(self.armies) for card, _u, _p in army}
        self.unit = {card: unit for army in self.armies for card, unit, _p in army}
        self.poisoned = {card for army in self.armies for card, _u, p in army if p}
        self.scores: list[int] = list(observation["scores"])
        mine = self.teams[self.seat]
        enemy_scores = [x for s, x in enumerate(self.scores) if self.teams[s] != mine]
        self.best_enemy = max(enemy_scores, default=0)
        self.deck_empty = observation["deck_count"] == 0
        self.own_units = self.army_units(self.seat)
        self.weakest = min((unit_value(u) for u in self.own_units), default=0.0)

    def army_units(self, seat: int) -> list[UnitDef]:
        return [unit for _c, unit, _p in self.armies[seat]]

    def targets(self, attacker: int) -> list[int]:
        """Allowed targets of ``attacker`` (the engine's rule, :func:`.abilities.allowed_targets`)."""
        mine = self.teams[self.seat]
        enemies = [entry for s, army in enumerate(self.armies) if self.teams[s] != mine for entry in army]
        taunting = [card for card, unit, poisoned in enemies if unit.taunt and not poisoned]
        ignore = self.ignore_fire and self.unit[attacker].poison
        return list(allowed_targets([card for card, _u, _p in enemies], taunting, has_tactics(self.own_units), ignore))

    def score(self, attacker: int, target: int) -> float:
        """Expected points of attacking ``target`` with ``attacker``, relative to the enemies.

        A win is a prisoner (+1), plus the defensive worth it takes off the enemy's table
        (:data:`DENY`; three times for an active Taunt unit, which draws the attacks of every
        enemy seat), plus, with the recruit choice, the gain over the own weakest unit; once the
        deck is empty the enemy also loses a survivor. A defeat gives the target's owner a point
        (full weight when it is within a point of the best enemy score, :data:`FAR_RIVAL`
        otherwise) and loses the attacker for a random replacement (or, the deck empty, a
        survivor). Poisoning is worth a little (:data:`POISON`).
        """
        a, t = self.unit[attacker], self.unit[target]
        owner = self.owner[target]
        o = odds(matchup(a, self.own_units, t, self.army_units(owner), target in self.poisoned, self.ignore_fire))
        rival = 1.0 if self.scores[owner] >= self.best_enemy - 1 else FAR_RIVAL
        t_attention = TAUNT_ATTENTION if t.taunt and target not in self.poisoned else 1.0
        a_attention = TAUNT_ATTENTION if a.taunt else 1.0
        deny = DENY * (DEFENCE_WORTH[t.id] - MEAN_DEFENCE) * t_attention
        keep = KEEP * (DEFENCE_WORTH[a.id] - MEAN_DEFENCE) * a_attention
        if self.deck_empty:
            gain = 1.0 + rival
            loss = rival + 1.0 + unit_value(a)
        else:
            gain = 1.0
            loss = rival + unit_value(a) - MEAN_VALUE
        recruit = o.big_win * max(0.0, unit_value(t) - self.weakest)
        return o.win * (gain + deny) - o.lose * (loss + keep) + POISON * o.poison * (1 + max(0.0, deny)) + recruit


class HeuristicBot:
    """Attacks where the exact odds are best (the strong level); see the module docstring."""

    name: ClassVar[str] = "heuristic"

    def choose(
        self, observation: Mapping[str, JSON], legal: Sequence[FantasyAction], rng: random.Random, budget_ms: int = 50
    ) -> FantasyAction:
        """:returns: one element of ``legal``. :raises IndexError: ``legal`` is empty."""
        first = legal[0]
        if isinstance(first, Attacker):
            table = Table(observation)
            best = max(
                (
                    (table.score(a.card, t), rng.random(), a)
                    for a in legal
                    if isinstance(a, Attacker)
                    for t in table.targets(a.card)
                ),
                key=lambda x: (x[0], x[1]),
            )
            return best[2]
        if isinstance(first, Target):
            table = Table(observation)
            attacker = observation["attack"]["attacker"]
            scored = [(table.score(attacker, t.card), rng.random(), t) for t in legal if isinstance(t, Target)]
            return max(scored, key=lambda x: (x[0], x[1]))[2]
        if isinstance(first, Imprison):
            return self._spoils(observation, legal)
        for action in legal:
            if isinstance(action, Draw):
                return action
        return legal[rng.randrange(len(legal))]

    @staticmethod
    def _spoils(observation: Mapping[str, JSON], legal: Sequence[FantasyAction]) -> FantasyAction:
        """Recruit the defeated unit in place of the weakest own unit when it is worth more (by
        :func:`unit_value`); when the swapped unit goes to the loser's prison (a point for the
        loser), only when it is worth 0.8 more."""
        spoils = observation["spoils"]
        gained = unit_value(UNIT_BY_ID[spoils["unit"]])
        units = {u["card"]: UNIT_BY_ID[u["unit"]] for u in observation["armies"][observation["seat"]]}
        recruits = [a for a in legal if isinstance(a, Recruit) and a.card in units]
        if not recruits:
            return legal[0]
        weakest = min(recruits, key=lambda a: unit_value(units[a.card]))
        needed = 0.0 if observation["options"]["recruit_swap_prison"] == "winner" else 0.8
        if gained - unit_value(units[weakest.card]) > needed:
            return weakest
        return legal[0]
