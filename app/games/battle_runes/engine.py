"""Battle Runes rules engine (``rules/battle_runes.md``), on the core contract of DESIGN.md section 2.

Flow of a match:

1. The initial state is a chance node; its outcome shuffles both decks
   (``{"shuffle": {"0": [30 ids], "1": [30 ids]}}``, spec section 2) and 5 runes are dealt to each
   seat.
2. Both seats choose 3 of their 5 runes at the same time (``to_act == {0, 1}``; an action is a
   :data:`Pick`, JSON ``{"runes": [3 ids]}``). Both hands are public.
3. :meth:`BattleRunes.apply` resolves the turn (``resolve.py``, spec section 5), checks the end
   (section 4), then cleans up and deals 3 to each seat (sections 3.5-3.6).
4. When a deck cannot complete a deal the seat takes what is left and the state becomes a chance
   node whose outcome is the new order of that seat's discard (``{"shuffle": {"<seat>": [...]}}``);
   applying it turns the discard into the deck and completes the deal. The runes played this
   turn are still on the table while this happens, so they are not reshuffled (golden case 24:
   the new deck holds 22); they reach the discard once the deal is complete.

Hands are kept sorted in catalog order (``runes.yaml``), so a pick is the sorted tuple of its rune
ids whatever order a client sends them in.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, ClassVar

from ..core.base import BaseRules
from ..core.errors import BadAction, BadOptions, GameOver, IllegalAction
from ..core.rules import CHANCE, Event, Outcome
from .data import DECK, RUNE_IDS, RUNE_INDEX, catalog_entries
from .resolve import Resolution, ResolveOptions, resolve_turn

JSON = Any

HAND_SIZE = 5  #: runes in a hand (spec section 2)
PICK_SIZE = 3  #: runes played per turn (spec section 3.1)
DEAL_SIZE = 3  #: runes dealt at each clean-up (spec section 3.5)
NUM_SEATS = 2

#: A seat's choice: 3 rune ids sorted in catalog order (a hand's order).
Pick = tuple[str, ...]

SHUFFLE = "shuffle"  #: phase: chance deals the opening decks
RESHUFFLE = "reshuffle"  #: phase: chance reorders the discard of each seat in ``owed``
CHOOSE = "choose"  #: phase: both seats pick 3 runes
OVER = "over"  #: phase: the game has ended
_PHASES = (SHUFFLE, RESHUFFLE, CHOOSE, OVER)

_TO_ACT = {SHUFFLE: frozenset({CHANCE}), RESHUFFLE: frozenset({CHANCE}), CHOOSE: frozenset({0, 1}),
           OVER: frozenset()}


def _rune_key(rune: str) -> int:
    return RUNE_INDEX[rune]


def sort_runes(runes: Sequence[str]) -> tuple[str, ...]:
    """Runes in catalog order (the order of a hand and of a :data:`Pick`).

    :raises KeyError: an unknown rune id.
    """
    return tuple(sorted(runes, key=_rune_key))


_FIVE_CHOOSE_THREE = tuple(itertools.combinations(range(HAND_SIZE), PICK_SIZE))


@lru_cache(maxsize=16384)
def hand_picks(hand: tuple[str, ...]) -> tuple[Pick, ...]:
    """Every distinct choice of 3 runes from ``hand``, in hand order (10 for 5 distinct runes).

    Each pick is sorted in catalog order (already true when ``hand`` is, as the engine keeps it).
    """
    keys = [RUNE_INDEX[r] for r in hand]
    if len(hand) == HAND_SIZE and keys == sorted(keys):
        picks = tuple((hand[i], hand[j], hand[k]) for i, j, k in _FIVE_CHOOSE_THREE)
    else:
        picks = tuple(sort_runes(c) for c in itertools.combinations(hand, PICK_SIZE))
    return picks if len(set(hand)) == len(hand) else tuple(dict.fromkeys(picks))


@lru_cache(maxsize=16384)
def _pick_set(hand: tuple[str, ...]) -> frozenset[Pick]:
    return frozenset(hand_picks(hand))


def _remove(hand: tuple[str, ...], pick: Pick) -> tuple[str, ...]:
    rest = list(hand)
    for rune in pick:
        rest.remove(rune)
    return tuple(rest)


@dataclass(frozen=True, slots=True)
class Shuffle:
    """A chance outcome: the new deck order (top first) of some seats.

    JSON: ``{"shuffle": {"0": [ids], "1": [ids]}}``. ``orders`` is sorted by seat.
    """

    orders: tuple[tuple[int, tuple[str, ...]], ...]

    def as_dict(self) -> dict[int, tuple[str, ...]]:
        """Seat -> new deck order."""
        return dict(self.orders)


@dataclass(frozen=True, slots=True)
class Config:
    """The match options a state carries (see :attr:`BattleRunes.default_options`)."""

    r2p5_bonus_kind: str = "destruction"
    zero_blocks_swap_all: bool = True
    max_turns: int = 0
    start_score: int = 25
    win_score: int = 50
    resolve_options: ResolveOptions = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "resolve_options", ResolveOptions(self.r2p5_bonus_kind, self.zero_blocks_swap_all))

    def to_json(self) -> dict[str, JSON]:
        """The options as a JSON object."""
        return {"r2p5_bonus_kind": self.r2p5_bonus_kind, "zero_blocks_swap_all": self.zero_blocks_swap_all,
                "max_turns": self.max_turns, "start_score": self.start_score, "win_score": self.win_score}


@dataclass(frozen=True, slots=True)
class BattleRunesState:
    """An immutable Battle Runes position. Pairs are indexed by seat (0 = spec's A, 1 = B).

    :param config: the match options.
    :param phase: ``"shuffle"`` | ``"reshuffle"`` | ``"choose"`` | ``"over"``.
    :param turn: turns resolved so far.
    :param scores: both scores.
    :param hands: runes in each hand, catalog order (public).
    :param decks: each deck, top first (secret from everyone).
    :param discards: each discard pile, oldest first.
    :param table: runes played this turn that wait for a reshuffle to finish before they reach
        the discard (empty outside the ``"reshuffle"`` phase).
    :param owed: runes each seat still has to be dealt after its reshuffle.
    :param last: the last turn's :class:`Resolution` (``None`` before the first).
    :param outcome: the result once over.
    """

    config: Config
    phase: str
    turn: int
    scores: tuple[int, int]
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    decks: tuple[tuple[str, ...], tuple[str, ...]]
    discards: tuple[tuple[str, ...], tuple[str, ...]]
    table: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    owed: tuple[int, int] = (0, 0)
    last: Resolution | None = None
    outcome: Outcome | None = None


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


class BattleRunes(BaseRules):
    """The Battle Runes rules (``rules/battle_runes.md``): 2 seats, simultaneous picks of 3 runes.

    Actions: a :data:`Pick` (``{"runes": [3 ids]}``) for a seat; a :class:`Shuffle` for chance.
    Events: ``hands_dealt``, ``turn_resolved``, ``deck_reshuffled``, ``game_over`` (all public:
    hands are public in this game; deck orders never appear).
    """

    name: ClassVar[str] = "battle_runes"
    title: ClassVar[str] = "Battle Runes"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_options: ClassVar[Mapping[str, JSON]] = {
        "r2p5_bonus_kind": "destruction",
        "zero_blocks_swap_all": True,
        "max_turns": 0,
        "start_score": 25,
        "win_score": 50,
    }
    option_choices: ClassVar[Mapping[str, tuple[JSON, ...]]] = {"r2p5_bonus_kind": ("destruction", "construction")}
    option_ranges: ClassVar[Mapping[str, tuple[float, float]]] = {
        "max_turns": (0, 1000), "start_score": (1, 10_000), "win_score": (1, 10_000),
    }
    #: the bot level that plays a seat whose clock ran out: the spec's default policy (AMBIGUITY 14).
    timeout_bot_level: ClassVar[str] = "greedy"

    # ------------------------------------------------------------------ setup

    def normalize_options(self, options: Mapping[str, JSON]) -> dict[str, JSON]:
        """Fill defaults and check the options (section 4, AMBIGUITIES 3, 5, 13).

        :raises BadOptions: unknown key, wrong type, ``max_turns`` < 0, ``win_score`` < 1, or
            ``start_score`` outside 1..``win_score``-1.
        """
        out = super().normalize_options(options)
        for key in ("max_turns", "start_score", "win_score"):
            out[key] = int(out[key])
        if out["max_turns"] < 0:
            raise BadOptions(f"{self.name}: max_turns must be >= 0 (0 = no cap), got {out['max_turns']}")
        if out["win_score"] < 1:
            raise BadOptions(f"{self.name}: win_score must be >= 1, got {out['win_score']}")
        if not 0 < out["start_score"] < out["win_score"]:
            raise BadOptions(
                f"{self.name}: start_score must be between 1 and win_score - 1, got {out['start_score']}"
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
        new_hands, new_decks, new_discards = [], [], []
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
            config, CHOOSE, turn, (int(scores[0]), int(scores[1])), (new_hands[0], new_hands[1]),
            (new_decks[0], new_decks[1]), (new_discards[0], new_discards[1]),
        )

    # ------------------------------------------------------------------ queries

    def to_act(self, state: BattleRunesState) -> frozenset[int]:
        """``{CHANCE}`` at a (re)shuffle, ``{0, 1}`` while choosing, empty when over."""
        return _TO_ACT[state.phase]

    def legal_actions(self, state: BattleRunesState, seat: int) -> Sequence[Pick]:
        """The distinct 3-rune picks of ``seat``'s hand in hand order (10 for 5 distinct runes);
        empty when ``seat`` is not choosing (chance outcomes are drawn by :meth:`sample_chance`)."""
        if state.phase != CHOOSE or seat not in (0, 1):
            return ()
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
        self, state: BattleRunesState, actions: Mapping[int, Pick | Shuffle]
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
        if set(actions) != to_act:
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
        orders = shuffle.as_dict()
        if set(orders) != {0, 1}:
            raise IllegalAction(f"{self.name}: the opening shuffle orders both decks, got seats {sorted(orders)}")
        full = sorted(DECK, key=_rune_key)
        for seat, order in orders.items():
            if sorted(order, key=_rune_key) != full:
                raise IllegalAction(f"{self.name}: seat {seat}'s shuffled deck is not the full deck")
        hands = (sort_runes(orders[0][:HAND_SIZE]), sort_runes(orders[1][:HAND_SIZE]))
        decks = (orders[0][HAND_SIZE:], orders[1][HAND_SIZE:])
        new = BattleRunesState(state.config, CHOOSE, 0, state.scores, hands, decks, ((), ()))
        return new, [_hands_event(new)]

    def _reshuffle(self, state: BattleRunesState, shuffle: Shuffle) -> tuple[BattleRunesState, list[Event]]:
        orders = shuffle.as_dict()
        owing = {p for p in (0, 1) if state.owed[p]}
        if set(orders) != owing:
            raise IllegalAction(
                f"{self.name}: expected new deck orders for seats {sorted(owing)}, got {sorted(orders)}"
            )
        hands, decks, discards = list(state.hands), list(state.decks), list(state.discards)
        events: list[Event] = []
        for seat, order in sorted(orders.items()):
            if sorted(order, key=_rune_key) != sorted(state.discards[seat], key=_rune_key):
                raise IllegalAction(f"{self.name}: seat {seat}'s new deck is not a permutation of its discard")
            need = state.owed[seat]
            hands[seat] = sort_runes(hands[seat] + order[:need])
            decks[seat] = order[need:]
            discards[seat] = state.table[seat]
            events.append(Event("deck_reshuffled", {
                "seat": seat, "reshuffled": len(order), "deck_size": len(decks[seat]),
            }))
        new = BattleRunesState(
            state.config, CHOOSE, state.turn, state.scores, (hands[0], hands[1]), (decks[0], decks[1]),
            (discards[0], discards[1]), ((), ()), (0, 0), state.last, None,
        )
        events.append(_hands_event(new))
        return new, events

    def _play_turn(self, state: BattleRunesState, pick_a: Any, pick_b: Any) -> tuple[BattleRunesState, list[Event]]:
        picks = (pick_a, pick_b)
        for seat in (0, 1):
            if not isinstance(picks[seat], tuple) or picks[seat] not in _pick_set(state.hands[seat]):
                raise IllegalAction(
                    f"{self.name}: seat {seat} must play 3 runes of its hand {list(state.hands[seat])}, "
                    f"not {picks[seat]!r}"
                )
        config = state.config
        res = resolve_turn((pick_a, pick_b), state.scores, config.resolve_options)
        turn = state.turn + 1
        scores = res.scores_after
        outcome = end_check(scores, config.win_score, turn, config.max_turns)
        events = [Event("turn_resolved", {"turn": turn, "scores": list(scores), **res.to_json()})]
        rest = (_remove(state.hands[0], pick_a), _remove(state.hands[1], pick_b))
        if outcome is not None:
            # Clean up (the played runes leave the table); nothing more is dealt.
            new = BattleRunesState(
                config, OVER, turn, scores, rest, state.decks,
                (state.discards[0] + pick_a, state.discards[1] + pick_b), ((), ()), (0, 0), res, outcome,
            )
            events.append(Event("game_over", outcome.to_json()))
            return new, events
        hands, decks, discards, table, owed = [], [], [], [], []
        for seat in (0, 1):
            deck = state.decks[seat]
            taken = deck[:DEAL_SIZE]
            hands.append(sort_runes(rest[seat] + taken) if taken else rest[seat])
            decks.append(deck[len(taken):])
            short = DEAL_SIZE - len(taken)
            owed.append(short)
            if short:  # reshuffle pending: this turn's runes stay on the table meanwhile
                discards.append(state.discards[seat])
                table.append(picks[seat])
            else:
                discards.append(state.discards[seat] + picks[seat])
                table.append(())
        phase = RESHUFFLE if any(owed) else CHOOSE
        new = BattleRunesState(
            config, phase, turn, scores, (hands[0], hands[1]), (decks[0], decks[1]),
            (discards[0], discards[1]), (table[0], table[1]), (owed[0], owed[1]), res, None,
        )
        if phase == CHOOSE:
            events.append(_hands_event(new))
        return new, events

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
            "discard_sizes": [len(state.discards[0]) + len(state.table[0]),
                              len(state.discards[1]) + len(state.table[1])],
            "last": None if state.last is None else state.last.to_json(),
            "over": state.phase == OVER,
            "outcome": None if state.outcome is None else state.outcome.to_json(),
            "options": state.config.to_json(),
        }

    def secrets(self, state: BattleRunesState, viewer: int | None) -> list[str]:
        """JSON fragments that must never appear in ``viewer``'s serialised observation: each
        seat's remaining deck order (``json.dumps(list(deck))``) when it holds 2 runes or more.
        Nobody knows a deck's order, its owner included."""
        return [json.dumps(list(deck)) for deck in state.decks if len(deck) >= 2]

    def timeout_action(self, state: BattleRunesState, seat: int, rng: random.Random) -> Pick:
        """The spec's default fallback (AMBIGUITY 14): the ``greedy`` bot, from ``seat``'s view."""
        from ..core.registry import make_bot

        bot = make_bot(self.name, self.timeout_bot_level)
        return bot.choose(self.bot_observation(state, seat), self.legal_actions(state, seat), rng)

    def catalog(self) -> dict[str, JSON]:
        """The rune list for the rules pages: ``{"runes": [{"id", "name", "name_ru", "kind",
        "order", "text", "copies"}]}`` in catalog order."""
        return {"runes": catalog_entries()}

    # ------------------------------------------------------------------ JSON

    def encode_action(self, action: Pick | Shuffle) -> JSON:
        """``{"runes": [ids]}`` for a pick; ``{"shuffle": {"<seat>": [ids]}}`` for a shuffle."""
        if isinstance(action, Shuffle):
            return {"shuffle": {str(seat): list(order) for seat, order in action.orders}}
        return {"runes": list(action)}

    def decode_action(self, obj: JSON) -> Pick | Shuffle:
        """Parse a pick (any order of the 3 ids; normalised to catalog order) or a shuffle.

        :raises BadAction: not an object, not exactly one of the keys ``runes``/``shuffle``, not a
            list of 3 strings, an unknown rune id, or a malformed shuffle.
        """
        if not isinstance(obj, dict) or len(obj) != 1:
            raise BadAction(f"{self.name}: an action is {{'runes': [3 rune ids]}}, got {obj!r}")
        if "runes" in obj:
            runes = obj["runes"]
            if not isinstance(runes, list | tuple) or len(runes) != PICK_SIZE:
                raise BadAction(f"{self.name}: 'runes' must be a list of {PICK_SIZE} rune ids, got {runes!r}")
            return sort_runes(_rune_ids(self.name, runes))
        if "shuffle" in obj:
            orders = obj["shuffle"]
            if not isinstance(orders, dict) or not orders:
                raise BadAction(f"{self.name}: 'shuffle' maps seats to deck orders, got {orders!r}")
            parsed = []
            for key, order in orders.items():
                if key not in ("0", "1"):
                    raise BadAction(f"{self.name}: shuffle seat must be '0' or '1', got {key!r}")
                if not isinstance(order, list | tuple):
                    raise BadAction(f"{self.name}: shuffle order must be a list of rune ids, got {order!r}")
                parsed.append((int(key), _rune_ids(self.name, order)))
            return Shuffle(tuple(sorted(parsed)))
        raise BadAction(f"{self.name}: unknown action key {next(iter(obj))!r}; expected 'runes'")

    def encode_state(self, state: BattleRunesState) -> JSON:
        """The whole state as JSON (holds the secret deck orders: storage only)."""
        return {
            "config": state.config.to_json(),
            "phase": state.phase,
            "turn": state.turn,
            "scores": list(state.scores),
            "hands": [list(h) for h in state.hands],
            "decks": [list(d) for d in state.decks],
            "discards": [list(d) for d in state.discards],
            "table": [list(t) for t in state.table],
            "owed": list(state.owed),
            "last": None if state.last is None else state.last.to_json(),
            "outcome": None if state.outcome is None else state.outcome.to_json(),
        }

    def decode_state(self, obj: JSON) -> BattleRunesState:
        """Inverse of :meth:`encode_state`.

        :raises ValueError: a malformed snapshot.
        """
        if obj.get("phase") not in _PHASES:
            raise ValueError(f"{self.name}: unknown phase {obj.get('phase')!r}")

        def pair(key: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
            return (tuple(obj[key][0]), tuple(obj[key][1]))

        return BattleRunesState(
            config=Config(**obj["config"]),
            phase=obj["phase"],
            turn=int(obj["turn"]),
            scores=(int(obj["scores"][0]), int(obj["scores"][1])),
            hands=pair("hands"),
            decks=pair("decks"),
            discards=pair("discards"),
            table=pair("table"),
            owed=(int(obj["owed"][0]), int(obj["owed"][1])),
            last=None if obj["last"] is None else Resolution.from_json(obj["last"]),
            outcome=None if obj["outcome"] is None else Outcome.from_json(obj["outcome"]),
        )


def _rune_ids(game: str, values: Sequence[Any]) -> tuple[str, ...]:
    for value in values:
        if not isinstance(value, str):
            raise BadAction(f"{game}: rune ids are strings, got {value!r}")
        if value not in RUNE_INDEX:
            raise BadAction(f"{game}: unknown rune id {value!r}")
    return tuple(values)


def _hands_event(state: BattleRunesState) -> Event:
    return Event("hands_dealt", {
        "turn": state.turn,
        "hands": [list(state.hands[0]), list(state.hands[1])],
        "deck_sizes": [len(state.decks[0]), len(state.decks[1])],
    })
