"""Fantasy súboj computer players (core :class:`~app.games.core.rules.Bot`), easiest first.

Each bot sees only its seat's observation (:func:`.observe.observe`: every army is public, the
deck order is not) and its legal actions.

* :class:`RandomBot`: a uniformly random legal action but ``back`` (the easy level).
* :class:`HeuristicBot`: picks attacker and target together by the exact odds of every allowed
  pair (:func:`.combat.odds`, the same rules the engine plays: Taunt, Tactics, hiding, Tracking,
  poison, Healer, Doom, support) and the value of what is won or risked; recruits a defeated unit
  when it is better than its own weakest unit; always takes its cards (no deferral).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .abilities import allowed_targets, has_tactics
from .actions import Attacker, Back, Draw, FantasyAction, Imprison, Recruit, Target
from .combat import matchup, odds
from .data import UNIT_BY_ID, UnitDef

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


def unit_value(unit: UnitDef) -> float:
    """A rough worth of a unit on the table, about 0.3 to 1: its average attack and its defence
    (the card's informational average, spec 1) plus a little for abilities."""
    ability = 0.0
    if unit.taunt or unit.tactics or unit.healer or unit.doom:
        ability += 0.1
    if unit.hiding or unit.defensive_fire or unit.poison or unit.tracking:
        ability += 0.05
    return (unit.attack + 3.5 * unit.dice + unit.defense) / 40 + ability


class _Table:
    """The table as a bot reads it from an observation."""

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

    def army_units(self, seat: int) -> list[UnitDef]:
        return [unit for _c, unit, _p in self.armies[seat]]

    def targets(self, attacker: int) -> list[int]:
        """Allowed targets of ``attacker`` (the engine's rule, :func:`.abilities.allowed_targets`)."""
        mine = self.teams[self.seat]
        enemies = [entry for s, army in enumerate(self.armies) if self.teams[s] != mine for entry in army]
        taunting = [card for card, unit, poisoned in enemies if unit.taunt and not poisoned]
        ignore = self.ignore_fire and self.unit[attacker].poison
        return list(
            allowed_targets(
                [card for card, _u, _p in enemies], taunting, has_tactics(self.army_units(self.seat)), ignore
            )
        )

    def score(self, attacker: int, target: int) -> float:
        """Expected worth of attacking ``target`` with ``attacker``: won unit minus risked unit."""
        a, t = self.unit[attacker], self.unit[target]
        m = matchup(
            a,
            self.army_units(self.seat),
            t,
            self.army_units(self.owner[target]),
            target in self.poisoned,
            self.ignore_fire,
        )
        o = odds(m)
        return (
            o.win * (1.0 + 0.3 * unit_value(t))
            + 0.1 * o.big_win
            - o.lose * (1.0 + 0.3 * unit_value(a))
            - 0.1 * o.big_loss
            + 0.25 * o.poison
        )


class HeuristicBot:
    """Attacks where the exact odds are best (the strong level); see the module docstring."""

    name: ClassVar[str] = "heuristic"

    def choose(
        self, observation: Mapping[str, JSON], legal: Sequence[FantasyAction], rng: random.Random, budget_ms: int = 50
    ) -> FantasyAction:
        """:returns: one element of ``legal``. :raises IndexError: ``legal`` is empty."""
        first = legal[0]
        if isinstance(first, Attacker):
            table = _Table(observation)
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
            table = _Table(observation)
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
        """Recruit the defeated unit in place of the weakest own unit when it is better (when the
        swapped unit goes to the loser's prison, only when it is much better)."""
        spoils = observation["spoils"]
        gained = unit_value(UNIT_BY_ID[spoils["unit"]])
        units = {u["card"]: UNIT_BY_ID[u["unit"]] for u in observation["armies"][observation["seat"]]}
        recruits = [a for a in legal if isinstance(a, Recruit) and a.card in units]
        if not recruits:
            return legal[0]
        weakest = min(recruits, key=lambda a: unit_value(units[a.card]))
        needed = 0.05 if observation["options"]["recruit_swap_prison"] == "winner" else 0.5
        if gained - unit_value(units[weakest.card]) > needed:
            return weakest
        return legal[0]
