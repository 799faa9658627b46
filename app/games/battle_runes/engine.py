"""Battle Runes rules engine (``rules/battle_runes.md``), on the engine kit of DESIGN.md section 2.

Flow of a match:

1. The initial state is a chance node; its outcome shuffles both decks
   (``{"shuffle": {"0": [30 ids], "1": [30 ids]}}``, spec section 2) and 5 runes are dealt to each
   seat.
2. Both seats choose 3 of their 5 runes at the same time (``to_act == {0, 1}``; an action is a
   :class:`~app.games.battle_runes.actions.Pick`, JSON ``{"runes": [3 ids]}``). Both hands are
   public.
3. :meth:`BattleRunes.apply` resolves the turn (``resolve.py``, spec section 5), checks the end
   (section 4), then cleans up and deals 3 to each seat (sections 3.5-3.6).
4. When a deck cannot complete a deal the seat takes what is left and the state becomes a chance
   node whose outcome is the new order of that seat's discard (``{"shuffle": {"<seat>": [...]}}``);
   applying it turns the discard into the deck and completes the deal. The runes played this
   turn are still on the table while this happens, so they are not reshuffled (golden case 24:
   the new deck holds 22); they reach the discard once the deal is complete.

The state (``state.py``) and the actions with their codec (``actions.py``) live beside this file;
hands are kept sorted in catalog order (``runes.yaml``), so a pick lists its runes in that order
whatever order a client sends them in. The deck orders are the game's hidden information
(:meth:`BattleRunes.secrets`).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..core.actions import ActionCodec
from ..core.base import BaseRules
from ..core.errors import BadOptions, GameOver, IllegalAction
from ..core.rules import CHANCE, Event, Outcome
from ..core.state import evolve
from .actions import CODEC, BattleRunesAction, Pick, Shuffle, hand_picks, pick_rest, sort_runes
from .data import DECK, RUNE_IDS, catalog_entries
from .resolve import resolve_turn
from .state import (
    CHOOSE,
    DEAL_SIZE,
    HAND_SIZE,
    OVER,
    PICK_SIZE,
    RESHUFFLE,
    SHUFFLE,
    BattleRunesState,
    Config,
    Runes,
    decode_state,
    encode_state,
)

JSON = Any

__all__ = [
    "BattleRunes",
    "BattleRunesState",
    "Config",
    "Pick",
    "Shuffle",
    "end_check",
    "hand_picks",
    "sort_runes",
]

_TO_ACT = {SHUFFLE: frozenset({CHANCE}), RESHUFFLE: frozenset({CHANCE}), CHOOSE: frozenset({0, 1}), OVER: frozenset()}
_NO_PICKS: tuple[Pick, ...] = ()
_FULL_DECK = sort_runes(DECK)


def end_check(scores: tuple[int, int], win_score: int, turn: int = 0, max_turns: int = 0) -> Outcome | None:
    """Spec section 4, checked after every resolved turn.

    Both ≥ ``win_score``: both win (``"both_50"``); both ≤ 0: both lose (``"both_0"``); own score
    ≥ ``win_score`` (``"score_50"``) or the opponent's ≤ 0 (``"score_0"``): that seat wins. Else, if
    ``max_turns`` > 0 and ``turn`` ≥ it: a draw (``"turn_cap"``, AMBIGUITY 13). Reasons keep the
    names 50/0 whatever ``win_score`` is.

    :returns: the :class:`Outcome`, or ``None`` when play continues.
    """
    a, b = scores
    if a >= win_score and b >= win_score:
        return Outcome(("win", "win"), (a, b), "both_50")
    if a <= 0 and b <= 0:
        return Outcome(("loss", "loss"), (a, b), "both_0")
    if a >= win_score or b <= 0:
        return Outcome(("win", "loss"), (a, b), "score_50" if a >= win_score else "score_0")
    if b >= win_score or a <= 0:
        return Outcome(("loss", "win"), (a, b), "score_50" if b >= win_score else "score_0")
    if max_turns and turn >= max_turns:
        return Outcome(("draw", "draw"), (a, b), "turn_cap")
    return None


class BattleRunes(BaseRules[BattleRunesState, BattleRunesAction]):
    """The Battle Runes rules (``rules/battle_runes.md``): 2 seats, simultaneous picks of 3 runes.

    Actions: a :class:`Pick` (``{"runes": [3 ids]}``) for a seat; a :class:`Shuffle` for chance.
    Events: ``hands_dealt``, ``turn_resolved``, ``deck_reshuffled``, ``game_over`` (all public:
    hands are public in this game; deck orders never appear). Imperfect information: nobody knows a
    deck's order (:meth:`secrets`), and a seat's pick is hidden until both have chosen.
    """

    name: ClassVar[str] = "battle_runes"
    title: ClassVar[str] = "Battle Runes"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    information: ClassVar[str] = "imperfect"
    actions: ClassVar[ActionCodec[BattleRunesAction]] = CODEC
    default_options: ClassVar[Mapping[str, JSON]] = {
        "r2p5_bonus_kind": "destruction",
        "zero_blocks_swap_all": True,
        "max_turns": 0,
        "start_score": 25,
        "win_score": 50,
    }
    option_choices: ClassVar[Mapping[str, tuple[JSON, ...]]] = {"r2p5_bonus_kind": ("destruction", "construction")}
    option_ranges: ClassVar[Mapping[str, tuple[float, float]]] = {
        "max_turns": (0, 1000),
        "start_score": (1, 10_000),
        "win_score": (1, 10_000),
    }
    #: the bot level that plays a seat whose clock ran out: the spec's default policy (AMBIGUITY 14).
    timeout_bot_level: ClassVar[str] = "greedy"

    # ------------------------------------------------------------------ setup

    def normalize_options(self, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """Fill defaults and check the options (section 4, AMBIGUITIES 3, 5, 13).

        :raises BadOptions: unknown key, wrong type, ``max_turns`` < 0 or ``win_score`` < 1
            (``reason`` ``option_range``, as :meth:`~app.games.core.base.BaseRules.normalize_options`),
            or ``start_score`` outside 1..``win_score``-1 (``start_score``: ``start_score``,
            ``win_score``).
        """
        out = super().normalize_options(options)
        for key in ("max_turns", "start_score", "win_score"):
            out[key] = int(out[key])
        if out["max_turns"] < 0:
            raise BadOptions(
                f"{self.name}: max_turns must be >= 0 (0 = no cap), got {out['max_turns']}",
                reason="option_range",
                params={"option": "max_turns", "low": 0, "high": int(self.option_ranges["max_turns"][1])},
            )
        if out["win_score"] < 1:
            raise BadOptions(
                f"{self.name}: win_score must be >= 1, got {out['win_score']}",
                reason="option_range",
                params={"option": "win_score", "low": 1, "high": int(self.option_ranges["win_score"][1])},
            )
        if not 0 < out["start_score"] < out["win_score"]:
            raise BadOptions(
                f"{self.name}: start_score must be between 1 and win_score - 1, got {out['start_score']}",
                reason="start_score",
                params={"start_score": out["start_score"], "win_score": out["win_score"]},
            )
        return out

    def initial_state(self, num_players: int, options: Mapping[str, JSON]) -> BattleRunesState:
        """The chance node before the opening shuffle (spec section 2).

        :raises BadOptions: ``num_players`` != 2 or bad options.
        """
        self.check_players(num_players)
        config = Config(**self.normalize_options(options))
        start = config.start_score
        return BattleRunesState(config, SHUFFLE, 0, (start, start), ((), ()), ((), ()), ((), ()))

    def position(
        self,
        hands: tuple[Sequence[str], Sequence[str]],
        scores: tuple[int, int] | None = None,
        options: Mapping[str, JSON] | None = None,
        decks: tuple[Sequence[str], Sequence[str]] | None = None,
        turn: int = 0,
    ) -> BattleRunesState:
        """A choosing position with the given hands, for tests, puzzles and analysis.

        :param hands: each seat's hand (normally 5 runes, at least 3; sorted here).
        :param scores: default: both at ``start_score``.
        :param decks: each deck, top first; default: the rest of the seat's deck in catalog order.
            The discards hold whatever the hand and deck leave over.
        :raises BadOptions: bad options.
        :raises IllegalAction: a hand/deck that the seat's deck cannot supply.
        """
        config = Config(**self.normalize_options(options or {}))
        new_hands: list[Runes] = []
        new_decks: list[Runes] = []
        new_discards: list[Runes] = []
        for seat in (0, 1):
            pool = Counter(DECK)
            pool.subtract(hands[seat])
            if decks is not None:
                pool.subtract(decks[seat])
            if any(n < 0 for n in pool.values()):  # also catches unknown rune ids
                raise IllegalAction(f"seat {seat}: this hand and deck are not part of one Battle Runes deck")
            if len(hands[seat]) < PICK_SIZE:
                raise IllegalAction(f"seat {seat}: a hand needs at least {PICK_SIZE} runes")
            rest = tuple(r for r in RUNE_IDS for _ in range(pool[r]))
            new_hands.append(sort_runes(hands[seat]))
            if decks is None:  # the rest of the deck, in catalog order; nothing discarded
                new_decks.append(rest)
                new_discards.append(())
            else:
                new_decks.append(tuple(decks[seat]))
                new_discards.append(rest)
        if scores is None:
            scores = (config.start_score, config.start_score)
        return BattleRunesState(
            config,
            CHOOSE,
            turn,
            (int(scores[0]), int(scores[1])),
            (new_hands[0], new_hands[1]),
            (new_decks[0], new_decks[1]),
            (new_discards[0], new_discards[1]),
        )

    # ------------------------------------------------------------------ queries

    def to_act(self, state: BattleRunesState) -> frozenset[int]:
        """``{CHANCE}`` at a (re)shuffle, ``{0, 1}`` while choosing, empty when over."""
        return _TO_ACT[state.phase]

    def legal_actions(self, state: BattleRunesState, seat: int) -> Sequence[Pick]:
        """The distinct 3-rune picks of ``seat``'s hand in hand order (10 for 5 distinct runes);
        empty when ``seat`` is not choosing (chance outcomes are drawn by :meth:`sample_chance`)."""
        if state.phase != CHOOSE or seat not in (0, 1):
            return _NO_PICKS
        return hand_picks(state.hands[seat])

    def outcome(self, state: BattleRunesState) -> Outcome | None:
        """The result once over (spec section 4), else ``None``."""
        return state.outcome

    def sample_chance(self, state: BattleRunesState, rng: random.Random) -> Shuffle:
        """Shuffle both full decks (opening) or each owing seat's discard (reshuffle) with ``rng``.

        :raises IllegalAction: ``state`` is not a chance node.
        """
        if state.phase == SHUFFLE:
            seats = {0: list(DECK), 1: list(DECK)}
        elif state.phase == RESHUFFLE:
            seats = {p: list(state.discards[p]) for p in (0, 1) if state.owed[p]}
        else:
            raise IllegalAction(f"{self.name}: no chance node in phase {state.phase!r}")
        for cards in seats.values():
            rng.shuffle(cards)
        return Shuffle(tuple((p, tuple(cards)) for p, cards in sorted(seats.items())))

    # ------------------------------------------------------------------ apply

    def apply(
        self, state: BattleRunesState, actions: Mapping[int, BattleRunesAction]
    ) -> tuple[BattleRunesState, list[Event]]:
        """Apply a chance outcome or both seats' picks.

        :returns: the new state and its events (see the class docstring).
        :raises GameOver: the game has ended.
        :raises IllegalAction: the wrong seats, a pick not of 3 runes from the hand, or a shuffle
            that is not a permutation of the cards to shuffle.
        """
        if state.phase == OVER:
            raise GameOver("the game is over")
        to_act = _TO_ACT[state.phase]
        if actions.keys() != to_act:
            raise IllegalAction(f"{self.name}: expected actions of {sorted(to_act)}, got {sorted(actions)}")
        if state.phase == CHOOSE:
            return self._play_turn(state, actions[0], actions[1])
        shuffle = actions[CHANCE]
        if not isinstance(shuffle, Shuffle):
            raise IllegalAction(f"{self.name}: the chance action here is a shuffle, got {shuffle!r}")
        if state.phase == SHUFFLE:
            return self._deal_opening(state, shuffle)
        return self._reshuffle(state, shuffle)

    def _deal_opening(self, state: BattleRunesState, shuffle: Shuffle) -> tuple[BattleRunesState, list[Event]]:
        """Section 2: each seat's shuffled deck, 5 runes dealt from the top."""
        orders = shuffle.as_dict()
        if set(orders) != {0, 1}:
            raise IllegalAction(f"{self.name}: the opening shuffle orders both decks, got seats {sorted(orders)}")
        for seat, order in orders.items():
            if sort_runes(order) != _FULL_DECK:
                raise IllegalAction(f"{self.name}: seat {seat}'s shuffled deck is not the full deck")
        new = evolve(
            state,
            phase=CHOOSE,
            hands=(sort_runes(orders[0][:HAND_SIZE]), sort_runes(orders[1][:HAND_SIZE])),
            decks=(orders[0][HAND_SIZE:], orders[1][HAND_SIZE:]),
        )
        return new, [_hands_event(new)]

    def _reshuffle(self, state: BattleRunesState, shuffle: Shuffle) -> tuple[BattleRunesState, list[Event]]:
        """Section 3.6: each owing seat's discard becomes its deck, and its deal is completed."""
        orders = shuffle.as_dict()
        owing = {p for p in (0, 1) if state.owed[p]}
        if set(orders) != owing:
            raise IllegalAction(
                f"{self.name}: expected new deck orders for seats {sorted(owing)}, got {sorted(orders)}"
            )
        hands, decks, discards = list(state.hands), list(state.decks), list(state.discards)
        events: list[Event] = []
        for seat, order in sorted(orders.items()):
            if sort_runes(order) != sort_runes(state.discards[seat]):
                raise IllegalAction(f"{self.name}: seat {seat}'s new deck is not a permutation of its discard")
            need = state.owed[seat]
            hands[seat] = sort_runes(hands[seat] + order[:need])
            decks[seat] = order[need:]
            discards[seat] = state.table[seat]
            events.append(
                Event(
                    "deck_reshuffled",
                    {
                        "seat": seat,
                        "reshuffled": len(order),
                        "deck_size": len(decks[seat]),
                    },
                )
            )
        new = evolve(
            state,
            phase=CHOOSE,
            hands=(hands[0], hands[1]),
            decks=(decks[0], decks[1]),
            discards=(discards[0], discards[1]),
            table=((), ()),
            owed=(0, 0),
        )
        events.append(_hands_event(new))
        return new, events

    def _play_turn(
        self, state: BattleRunesState, pick_a: BattleRunesAction, pick_b: BattleRunesAction
    ) -> tuple[BattleRunesState, list[Event]]:
        """Sections 3.2-3.6: resolve both picks, check the end, clean up and deal."""
        runes_a, rest_a = self._checked_pick(state, 0, pick_a)
        runes_b, rest_b = self._checked_pick(state, 1, pick_b)
        picks = (runes_a, runes_b)
        config = state.config
        res = resolve_turn(picks, state.scores, config.resolve_options)
        turn = state.turn + 1
        scores = res.scores_after
        outcome = end_check(scores, config.win_score, turn, config.max_turns)
        events = [Event("turn_resolved", {"turn": turn, "scores": list(scores), **res.to_json()})]
        if outcome is not None:
            # Clean up (the played runes leave the table); nothing more is dealt.
            new = evolve(
                state,
                phase=OVER,
                turn=turn,
                scores=scores,
                hands=(rest_a, rest_b),
                discards=(state.discards[0] + picks[0], state.discards[1] + picks[1]),
                table=((), ()),
                owed=(0, 0),
                last=res,
                outcome=outcome,
            )
            events.append(Event("game_over", outcome.to_json()))
            return new, events
        hands: list[Runes] = []
        decks: list[Runes] = []
        discards: list[Runes] = []
        table: list[Runes] = []
        owed: list[int] = []
        for seat, rest in ((0, rest_a), (1, rest_b)):
            deck = state.decks[seat]
            taken = deck[:DEAL_SIZE]
            hands.append(sort_runes(rest + taken) if taken else rest)
            decks.append(deck[len(taken) :])
            short = DEAL_SIZE - len(taken)
            owed.append(short)
            if short:  # reshuffle pending: this turn's runes stay on the table meanwhile
                discards.append(state.discards[seat])
                table.append(picks[seat])
            else:
                discards.append(state.discards[seat] + picks[seat])
                table.append(())
        phase = RESHUFFLE if owed[0] or owed[1] else CHOOSE
        new = evolve(
            state,
            phase=phase,
            turn=turn,
            scores=scores,
            hands=(hands[0], hands[1]),
            decks=(decks[0], decks[1]),
            discards=(discards[0], discards[1]),
            table=(table[0], table[1]),
            owed=(owed[0], owed[1]),
            last=res,
            outcome=None,
        )
        if phase == CHOOSE:
            events.append(_hands_event(new))
        return new, events

    def _checked_pick(self, state: BattleRunesState, seat: int, pick: BattleRunesAction) -> tuple[Runes, Runes]:
        """Section 3.1: ``(the pick's runes, the rest of the hand)``.

        :raises IllegalAction: ``pick`` is not a :class:`Pick` of 3 runes of ``seat``'s hand.
        """
        if isinstance(pick, Pick):
            rest = pick_rest(state.hands[seat], pick)
            if rest is not None:
                return pick.runes, rest
        raise IllegalAction(
            f"{self.name}: seat {seat} must play 3 runes of its hand {list(state.hands[seat])}, not {pick!r}"
        )

    # ------------------------------------------------------------------ views

    def observe(self, state: BattleRunesState, viewer: int | None) -> dict[str, JSON]:
        """What ``viewer`` (seat or ``None``) sees; the same for everyone, as hands are public.

        ``{"seat", "phase", "turn", "scores": [a, b], "hands": [[ids], [ids]], "deck_sizes",
        "discard_sizes", "last": the last turn's breakdown or null, "over": bool, "outcome",
        "options"}``. Never a deck order.
        """
        return {
            "seat": viewer,
            "phase": state.phase,
            "turn": state.turn,
            "scores": list(state.scores),
            "hands": [list(state.hands[0]), list(state.hands[1])],
            "deck_sizes": [len(state.decks[0]), len(state.decks[1])],
            "discard_sizes": [
                len(state.discards[0]) + len(state.table[0]),
                len(state.discards[1]) + len(state.table[1]),
            ],
            "last": None if state.last is None else state.last.to_json(),
            "over": state.phase == OVER,
            "outcome": None if state.outcome is None else state.outcome.to_json(),
            "options": state.config.to_json(),
        }

    def observe_finished(self, state: BattleRunesState, viewer: int | None) -> dict[str, JSON]:
        """:meth:`observe` plus ``"decks": [[ids], [ids]]``, each seat's remaining deck in order
        (top first): the match has ended, so nothing is secret any more (the seed is public too)."""
        return {**self.observe(state, viewer), "decks": [list(state.decks[0]), list(state.decks[1])]}

    def secrets(self, state: BattleRunesState, viewer: int | None) -> list[str]:
        """JSON fragments that must never appear in ``viewer``'s serialised observation: each
        seat's remaining deck order (``json.dumps(list(deck))``) when it holds 2 runes or more.
        Nobody knows a deck's order, its owner included."""
        return [json.dumps(list(deck)) for deck in state.decks if len(deck) >= 2]

    def timeout_action(self, state: BattleRunesState, seat: int, rng: random.Random) -> Pick:
        """The spec's default fallback (AMBIGUITY 14): the ``greedy`` bot, from ``seat``'s view."""
        from ..core.registry import make_bot

        bot = make_bot(self.name, self.timeout_bot_level)
        action: Pick = bot.choose(self.bot_observation(state, seat), self.legal_actions(state, seat), rng)
        return action

    def catalog(self) -> dict[str, JSON]:
        """The rune list for the rules pages: ``{"runes": [{"id", "name", "name_ru", "kind",
        "order", "text", "copies"}]}`` in catalog order."""
        return {"runes": catalog_entries()}

    # ------------------------------------------------------------------ JSON

    def encode_state(self, state: BattleRunesState) -> JSON:
        """The whole state as JSON (:func:`~app.games.battle_runes.state.encode_state`; holds the
        secret deck orders: storage only)."""
        return encode_state(state)

    def decode_state(self, obj: JSON) -> BattleRunesState:
        """Inverse of :meth:`encode_state`.

        :raises ValueError: a malformed snapshot. :raises KeyError: a missing key.
        """
        return decode_state(obj)


def _hands_event(state: BattleRunesState) -> Event:
    return Event(
        "hands_dealt",
        {
            "turn": state.turn,
            "hands": [list(state.hands[0]), list(state.hands[1])],
            "deck_sizes": [len(state.decks[0]), len(state.decks[1])],
        },
    )
