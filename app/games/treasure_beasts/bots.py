"""Treasure Beasts computer players, easiest first: :class:`RandomBot` and :class:`GreedyBot`.

Both see only their seat's observation (:mod:`.observe`), the legal actions and an injected rng.
:class:`GreedyBot` drafts by a card value (strength, start zone, properties, abilities), then plays
its turn one step at a time by scoring each legal action from the observation: treasure first
(taking, then theft), attacks it wins without loss, moves towards the Center, then the hand actions
(deploy, attach, alternative use) by value, and passes when nothing is worth doing. Free creature
activity scores above every hand action, so it is done before the last action point ends the turn.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from .actions import (
    Activate,
    AltUse,
    Attach,
    Deploy,
    Discard,
    Join,
    Lose,
    Move,
    Pass,
    Pick,
    Steal,
    Strike,
    Take,
    Target,
    TBAction,
)
from .data import ZONE_INDEX, Card, Effect
from .rules import BOOK

JSON = Any

_PROPERTY_VALUE = {
    "flight": 1.5,
    "jump": 0.5,
    "threat": 1.5,
    "interception": 1.0,
    "theft": 1.5,
    "carrying_capacity": 2.0,
    "peacefulness": -0.5,
    "aggressiveness": -0.5,
    "stealth": 1.5,
    "attentiveness": 0.5,
}
_SHOT_VALUE = {
    "gain": 2.5,
    "drain": 1.5,
    "steal": 2.5,
    "draw": 1.2,
    "discard": 0.8,
    "ap": 1.5,
    "destroy": 2.5,
    "return": 2.0,
    "revive": 2.5,
    "move": 0.8,
    "tire": 1.0,
    "ready": 0.8,
}


def _effects_value(effects: Sequence[Effect]) -> float:
    return sum(_SHOT_VALUE.get(e.do, 1.0) * (e.amount if e.do in ("gain", "steal", "draw") else 1) for e in effects)


def card_value(card: Card) -> float:
    """A rough worth of ``card`` for drafting and choosing what to play: strength, a faster start,
    properties and abilities (module docstring)."""
    value = card.strength + 0.8 * ZONE_INDEX[card.start_position]
    value += sum(_PROPERTY_VALUE[p] for p in card.properties)
    if card.group == "pacifists":
        value += 0.5 * card.strength
    for ability in card.personal_abilities:
        value += 1.5 if ability.trigger == "passive" else 0.6 * _effects_value(ability.effects)
    if card.group_ability is not None:
        value += 1.0
    if card.alternative_use is not None:
        value += 0.5
    if card.attach_option is not None:
        value += 1.0
    return value


CARD_VALUE: Mapping[str, float] = {cid: card_value(c) for cid, c in BOOK.cards.items()}


def _amount(c: Mapping[str, JSON]) -> int:
    """Treasure creature ``c`` of the observation brings per take (its take bonus unseen)."""
    return int(c["strength"]) if "carrying_capacity" in c["properties"] else 1


class RandomBot:
    """Uniformly random among the legal actions (the easy level)."""

    name: ClassVar[str] = "random"

    def choose(
        self, observation: Mapping[str, JSON], legal: Sequence[TBAction], rng: random.Random, budget_ms: int = 50
    ) -> TBAction:
        """One legal action, uniformly at random."""
        return rng.choice(list(legal))


class GreedyBot:
    """Scores every legal action from the observation and plays the best (ties: the first listed)."""

    name: ClassVar[str] = "greedy"

    def choose(
        self, observation: Mapping[str, JSON], legal: Sequence[TBAction], rng: random.Random, budget_ms: int = 50
    ) -> TBAction:
        """The legal action with the highest score (module docstring)."""
        view = _View(observation)
        best, best_score = legal[0], float("-inf")
        for action in legal:
            score = view.score(action)
            if score > best_score:
                best, best_score = action, score
        return best

    def ranker(self, observation: Mapping[str, JSON]) -> Callable[[TBAction], float]:
        """The scoring function :meth:`choose` uses on ``observation`` (for bots built on this one)."""
        return _View(observation).score


class _View:
    """The observation, indexed for scoring."""

    def __init__(self, obs: Mapping[str, JSON]) -> None:
        self.obs = obs
        self.seat: int = obs["seat"]
        self.by_uid: dict[int, Mapping[str, JSON]] = {c["uid"]: c for c in obs["creatures"]}
        self.treasury: list[int] = [int(p["treasury"]) for p in obs["players"]]
        self.mine = [c for c in obs["creatures"] if c["owner"] == self.seat]
        self.enemies = [c for c in obs["creatures"] if c["owner"] != self.seat and c["host"] is None]

    def score(self, a: TBAction) -> float:
        """How good ``a`` looks from this observation (higher is better; see the module docstring)."""
        if isinstance(a, Pick):
            return CARD_VALUE[a.card]
        if isinstance(a, Discard):
            return -CARD_VALUE[a.card]
        if isinstance(a, Lose):
            c = self.by_uid[a.creature]
            return float(c["strength"]) + 0.1 * CARD_VALUE[c["card"]]
        if isinstance(a, Take):
            c = self.by_uid[a.creature]
            return 20.0 + 3 * _amount(c)
        if isinstance(a, Steal):
            c = self.by_uid[a.creature]
            return 18.0 + 3 * _amount(c) + 0.2 * self.treasury[a.victim]
        if isinstance(a, Target):
            return self._target(a.creature)
        if isinstance(a, Join):
            return self._join(a.creature)
        if isinstance(a, Strike):
            return 0.0
        if isinstance(a, Move):
            c = self.by_uid[a.creature]
            forward = a.zone > ZONE_INDEX[c["zone"]]
            return 8.0 if forward else -5.0
        if isinstance(a, Activate):
            return self._activate(a.creature)
        if isinstance(a, Deploy):
            card = BOOK.cards[a.card]
            return 3 + CARD_VALUE[a.card] / 3 + (1.5 if card.start_position == "center" else 0)
        if isinstance(a, Attach):
            return self._attach(a.card, a.host)
        if isinstance(a, AltUse):
            alt = BOOK.cards[a.card].alternative_use
            assert alt is not None
            cost = alt.extra_cost.ap * 2.5 + alt.extra_cost.treasure * 2
            return 2 + 1.5 * _effects_value(alt.effects) - cost
        if isinstance(a, Pass):
            return 0.5
        return -1.0  # Reattach, anything else: rarely worth it

    def _reach(self, attacker: Mapping[str, JSON], target: Mapping[str, JSON]) -> bool:
        props, tprops = attacker["properties"], target["properties"]
        if "interception" not in props and (attacker["zone"] != "center" or target["zone"] != "center"):
            return False
        if "stealth" in tprops and "attentiveness" not in props:
            return False
        return "flight" not in tprops or "flight" in props or "jump" in props

    def _can_attack(self, c: Mapping[str, JSON]) -> bool:
        return c["host"] is None and c["ready"] and "attack" not in c["used"] and "peacefulness" not in c["properties"]

    def _target(self, uid: int) -> float:
        t = self.by_uid[uid]
        d = int(t["strength"])
        winners = [c for c in self.mine if self._can_attack(c) and self._reach(c, t) and c["strength"] > d]
        if not winners:
            return -10.0
        leader = 2.0 if self.treasury[t["owner"]] == max(self.treasury) else 0.0
        return 12.0 + d + leader + ("threat" in t["properties"]) * 2

    def _join(self, uid: int) -> float:
        attack = self.obs["attack"]
        t = self.by_uid[attack["target"]]
        have = sum(int(self.by_uid[u]["strength"]) for u in attack["attackers"])
        s = int(self.by_uid[uid]["strength"])
        if have > t["strength"]:
            return -1.0  # already winning: strike
        if have + s > t["strength"]:
            return 10 - s * 0.1  # the smallest creature that wins
        return 1 + s * 0.1

    def _activate(self, uid: int) -> float:
        c = self.by_uid[uid]
        effects = BOOK.cards[c["card"]].abilities("activated")[0].effects
        return 4 + _effects_value(effects)

    def _attach(self, card_id: str, host: int) -> float:
        option = BOOK.cards[card_id].attach_option
        assert option is not None
        h = self.by_uid[host]
        weight = 0.3 * int(h["strength"]) + (1.0 if h["zone"] == "center" else 0.0)
        own = h["owner"] == self.seat
        if option.hosts == "any":  # an option that removes: worth it on an enemy that has the property
            removed = {e.property for e in option.effects if e.do == "remove"}
            return 3 + weight if not own and removed & set(h["properties"]) else -1.0
        return 3 + weight + CARD_VALUE[card_id] / 6
