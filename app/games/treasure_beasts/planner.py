"""The planning computer player (issue 11, item 4): :class:`PlannerBot`.

It sees only its seat's observation. In its own main phase it rebuilds a position from that view
(:func:`from_observation`: its own hand as seen; every hidden card, the other hands and the deck,
replaced by a plain stand-in card), then tries each legal action: apply it, finish the rest of its
own turn with :class:`~.bots.GreedyBot`'s choices, and score the position reached
(:func:`evaluate`: treasure, the field, the hand, a win or a loss). It plays the action with the
best score. Everywhere else (draft, attack building, losses, discards) it plays as GreedyBot.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..core.errors import GameError
from ..core.rules import CHANCE
from .actions import TBAction
from .bots import GreedyBot
from .data import CENTER, ZONE_INDEX, CardBook
from .rules import BOOK, TreasureBeasts
from .state import MAIN, NO_HOST, UNLIMITED, USED_NAMES, Config, Creature, Player, State

JSON = Any
MAX_CANDIDATES = 24  #: legal actions tried per decision (the greedy order decides which)
MAX_DEPTH = 10  #: greedy steps to finish the turn after a candidate


def _stand_in(book: CardBook) -> str:
    """A card with no abilities and no properties, standing in for cards the bot cannot see."""
    plain = [
        c
        for c in book.card_set.cards
        if not c.personal_abilities and not c.properties and c.attach_option is None and c.alternative_use is None
    ]
    return (plain or list(book.card_set.cards))[0].id


def from_observation(book: CardBook, obs: Mapping[str, JSON]) -> State:
    """A position consistent with seat ``obs["seat"]``'s main-phase observation, hidden cards
    replaced by a stand-in.

    :raises KeyError, ValueError: ``obs`` is not a Treasure Beasts seat observation.
    """
    me = obs["seat"]
    filler = _stand_in(book)
    cfg = obs["config"]
    config = Config(
        center_treasure=UNLIMITED if cfg["center_treasure"] is None else int(cfg["center_treasure"]),
        turn_ends_at_zero_ap=bool(cfg["turn_ends_at_zero_ap"]),
        one_total=cfg["creature_actions"] == "one_total",
        threat_global=cfg["threat_scope"] == "global",
        max_rounds=int(cfg["max_rounds"]),
    )
    players = []
    for p in obs["players"]:
        hand = tuple(obs["hand"]["cards"]) if p["seat"] == me else (filler,) * int(p["hand_size"])
        players.append(Player(int(p["treasury"]), hand, (), obs["turn"] if p["eliminated"] else 0))
    bits = dict(USED_NAMES)
    creatures = tuple(
        Creature(
            int(c["uid"]),
            c["card"],
            int(c["owner"]),
            ZONE_INDEX[c["zone"]],
            bool(c["ready"]),
            bool(c["fresh"]),
            int(c["moves"]),
            sum(bits[u] for u in c["used"]),
            NO_HOST if c["host"] is None else int(c["host"]),
            bool(c["reattached"]),
        )
        for c in obs["creatures"]
    )
    return State(
        config,
        len(players),
        obs["phase"],
        tuple(players),
        creatures,
        deck=(filler,) * int(obs["deck_size"]),
        discard=tuple(obs["discard"]),
        center=UNLIMITED if obs["center"] is None else int(obs["center"]),
        active=int(obs["active"]),
        ap=int(obs["ap"]),
        turn=int(obs["turn"]),
        next_uid=max((c.uid for c in creatures), default=0) + 1,
    )


def evaluate(book: CardBook, state: State, me: int) -> float:
    """How good ``state`` is for seat ``me``: a win or a loss first, then its treasure against the
    richest opponent's, its creatures (strength, in Center, ready) and its hand."""
    if state.outcome is not None:
        return 1000.0 if me in state.outcome.winners else -1000.0
    treasure = state.players[me].treasury
    rivals = [p.treasury for s, p in enumerate(state.players) if s != me and not p.eliminated]
    score = 3.0 * treasure - 1.5 * max(rivals, default=0) + 0.4 * len(state.players[me].hand)
    for c in state.creatures:
        if c.host != NO_HOST:
            value = 1.0
        else:
            value = 0.6 * book.cards[c.card].strength + (1.2 if c.zone == CENTER else 0.3 * c.zone)
            value += 0.3 if c.ready else 0.0
        score += value if c.owner == me else -0.5 * value
    return score


class PlannerBot:
    """Tries each legal action of its main phase to the end of its turn (module docstring)."""

    name: ClassVar[str] = "planner"

    def __init__(self) -> None:
        self.rules = TreasureBeasts(BOOK)
        self.greedy = GreedyBot()

    def choose(
        self, observation: Mapping[str, JSON], legal: Sequence[TBAction], rng: random.Random, budget_ms: int = 50
    ) -> TBAction:
        """The legal action whose greedy continuation of the turn scores best."""
        if observation["phase"] != MAIN or len(legal) == 1 or observation["active"] != observation["seat"]:
            return self.greedy.choose(observation, legal, rng, budget_ms)
        me = int(observation["seat"])
        state = from_observation(self.rules.book, observation)
        ranked = sorted(legal, key=self.greedy.ranker(observation), reverse=True)[:MAX_CANDIDATES]
        best, best_score = ranked[0], float("-inf")
        for action in ranked:
            score = self._try(state, me, action, rng)
            if score > best_score:
                best, best_score = action, score
        return best

    def _try(self, state: State, me: int, action: TBAction, rng: random.Random) -> float:
        rules = self.rules
        try:
            state, _ = rules.apply(state, {me: action})
            for _ in range(MAX_DEPTH):
                to_act = rules.to_act(state)
                if len(to_act) != 1 or CHANCE in to_act or state.active != me:
                    break
                (seat,) = to_act
                step = self.greedy.choose(rules.observe(state, seat), rules.legal_actions(state, seat), rng)
                state, _ = rules.apply(state, {seat: step})
        except GameError:  # a stand-in card made the line impossible: judge it by where it stopped
            pass
        return evaluate(rules.book, state, me)
