"""Battle Runes actions and their codec (``rules/battle_runes.md`` sections 2, 3.1 and 3.6).

Two kinds, each a frozen dataclass with its wire key (:mod:`app.games.core.actions`):

* :class:`Pick`, a seat's 3 runes of its hand (section 3.1): ``{"runes": ["S1", "R2", "FIRE"]}``;
* :class:`Shuffle`, a chance outcome, new deck orders top first (sections 2 and 3.6):
  ``{"shuffle": {"0": [ids], "1": [ids]}}``.

A pick's runes are kept in catalog order (``runes.yaml``), whatever order a client sends them in,
so equal choices are equal values. Every possible pick is made once, at import, in :data:`_PICKS`
(a table like the rune table, not a cache): :meth:`Pick.of`, :func:`hand_picks` and decoding hand out
those values, so the driver's legality check usually succeeds on identity.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ..core.actions import Action, ActionCodec
from ..core.errors import BadAction
from .data import RUNE_IDS, RUNE_INDEX
from .state import HAND_SIZE, NUM_SEATS, PICK_SIZE, Runes

JSON = Any


def sort_runes(runes: Sequence[str]) -> Runes:
    """Runes in catalog order (the order of a hand and of a :class:`Pick`).

    :raises KeyError: an unknown rune id.
    """
    return tuple(sorted(runes, key=RUNE_INDEX.__getitem__))


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """A seat's choice for the turn: 3 runes of its hand, in catalog order (section 3.1).

    JSON: ``{"runes": [3 rune ids]}`` (any order on input; catalog order on output). Build one with
    :meth:`of`, which puts the runes in order; the constructor takes them as they are.
    """

    key: ClassVar[str] = "runes"

    runes: Runes

    @classmethod
    def of(cls, *runes: str) -> Pick:
        """The pick of these 3 runes (in any order).

        :raises BadAction: not 3 runes, or an id that is not a string or not in the rune table.
        """
        if len(runes) != PICK_SIZE:
            raise BadAction(f"'runes' must be a list of {PICK_SIZE} rune ids, got {list(runes)!r}")
        for rune in runes:
            if not isinstance(rune, str):
                raise BadAction(f"rune ids are strings, got {rune!r}")
            if rune not in RUNE_INDEX:
                raise BadAction(f"unknown rune id {rune!r}")
        return _PICKS[sort_runes(runes)]

    def to_value(self) -> JSON:
        """``[3 rune ids]`` in catalog order."""
        return list(self.runes)

    @classmethod
    def from_value(cls, value: JSON) -> Pick:
        """Parse the list under ``"runes"``.

        :raises BadAction: not a list of 3 known rune ids.
        """
        if not isinstance(value, list | tuple) or len(value) != PICK_SIZE:
            raise BadAction(f"'runes' must be a list of {PICK_SIZE} rune ids, got {value!r}")
        return cls.of(*value)


@dataclass(frozen=True, slots=True)
class Shuffle(Action):
    """A chance outcome: the new deck order (top first) of some seats (sections 2 and 3.6).

    JSON: ``{"shuffle": {"0": [ids], "1": [ids]}}``. ``orders`` is sorted by seat.
    """

    key: ClassVar[str] = "shuffle"

    orders: tuple[tuple[int, Runes], ...]

    def as_dict(self) -> dict[int, Runes]:
        """Seat -> new deck order."""
        return dict(self.orders)

    def to_value(self) -> JSON:
        """``{"<seat>": [rune ids, top first]}``."""
        return {str(seat): list(order) for seat, order in self.orders}

    @classmethod
    def from_value(cls, value: JSON) -> Shuffle:
        """Parse the object under ``"shuffle"``.

        :raises BadAction: not a non-empty object of seats ``"0"``/``"1"`` to lists of known rune
            ids. (Whether the orders are the right cards is the rules' check, at apply.)
        """
        if not isinstance(value, dict) or not value:
            raise BadAction(f"'shuffle' maps seats to deck orders, got {value!r}")
        parsed = []
        for seat, order in value.items():
            if seat not in _SEAT_KEYS:
                raise BadAction(f"shuffle seat must be '0' or '1', got {seat!r}")
            if not isinstance(order, list | tuple):
                raise BadAction(f"shuffle order must be a list of rune ids, got {order!r}")
            for rune in order:
                if not isinstance(rune, str) or rune not in RUNE_INDEX:
                    raise BadAction(f"unknown rune id {rune!r} in a shuffle")
            parsed.append((int(seat), tuple(order)))
        return cls(tuple(sorted(parsed)))


#: Either kind: what ``BattleRunes.apply`` takes.
BattleRunesAction = Pick | Shuffle

#: The game's codec (``BattleRunes.actions``).
CODEC: ActionCodec[BattleRunesAction] = ActionCodec("battle_runes", Pick, Shuffle)

_SEAT_KEYS = frozenset(str(seat) for seat in range(NUM_SEATS))

#: Every pick there can be (3 rune ids in catalog order, repeats allowed for decks with copies), made
#: once; :meth:`Pick.of` and :func:`hand_picks` hand these values out.
_PICKS: dict[Runes, Pick] = {
    runes: Pick(runes) for runes in itertools.combinations_with_replacement(RUNE_IDS, PICK_SIZE)
}


def hand_picks(hand: Runes) -> tuple[Pick, ...]:
    """Every distinct choice of 3 runes from ``hand``, in hand order (10 for 5 distinct runes).

    A pure function of the hand, memoised per process (:data:`_HAND_PICKS`, bounded: a full table
    is a few thousand hands of a few hundred bytes each, and random playouts ask for the same hands
    again and again).

    :param hand: rune ids; the engine keeps hands in catalog order (then each pick lists its runes
        in hand order), but any order works.
    :raises BadAction: an unknown rune id.
    """
    picks = _HAND_PICKS.get(hand)
    if picks is None:
        picks = _hand_picks(hand)
        if len(_HAND_PICKS) < _HAND_PICKS_MAX:
            _HAND_PICKS[hand] = picks
    return picks


#: hand -> its picks (see :func:`hand_picks`); filled up to :data:`_HAND_PICKS_MAX` hands
_HAND_PICKS: dict[Runes, tuple[Pick, ...]] = {}
_HAND_PICKS_MAX = 20_000


def _hand_picks(hand: Runes) -> tuple[Pick, ...]:
    if len(hand) == HAND_SIZE:
        a, b, c, d, e = hand
        if a != b != c != d != e:  # distinct when in catalog order (else a lookup below fails)
            picks = _PICKS
            try:
                return (
                    picks[a, b, c],
                    picks[a, b, d],
                    picks[a, b, e],
                    picks[a, c, d],
                    picks[a, c, e],
                    picks[a, d, e],
                    picks[b, c, d],
                    picks[b, c, e],
                    picks[b, d, e],
                    picks[c, d, e],
                )
            except KeyError:  # not in catalog order (every pick is stored with its runes sorted)
                pass
    return tuple(dict.fromkeys(Pick.of(*runes) for runes in itertools.combinations(hand, PICK_SIZE)))


def pick_rest(hand: Runes, pick: Pick) -> Runes | None:
    """What stays in ``hand`` after playing ``pick``, or ``None`` when ``pick`` is not 3 runes of
    ``hand`` in catalog order (the legality check of section 3.1)."""
    if type(pick.runes) is not tuple or _PICKS.get(pick.runes) is None:
        return None
    rest = list(hand)
    try:
        for rune in pick.runes:
            rest.remove(rune)
    except ValueError:
        return None
    return tuple(rest)
