"""Battle Runes state: the match options a state carries, the position, and their JSON form
(``rules/battle_runes.md`` sections 2-4).

A state is a frozen slotted dataclass changed only with :func:`app.games.core.evolve`. Every field is
part of the value (compared, hashed, serialised); nothing is cached on it.

The JSON form (:func:`encode_state`) is the match snapshot stored in the database; it holds the
secret deck orders. It is frozen but for one change: a resolution step of ``last`` is written as
``code`` and ``params`` (issue 8 item 7) where snapshots written before held an English ``note``,
which :meth:`~.resolve.Step.from_json` still reads. Snapshots written before the engine kit decode to
states equal to those their logs replay to, and re-encode to the same JSON apart from those steps
(``tests/games/fixtures/battle_runes_replays.json``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.rules import Outcome
from .resolve import Resolution, ResolveOptions

JSON = Any

HAND_SIZE = 5  #: runes in a hand (spec section 2)
PICK_SIZE = 3  #: runes played per turn (spec section 3.1)
DEAL_SIZE = 3  #: runes dealt at each clean-up (spec section 3.5)
NUM_SEATS = 2

SHUFFLE = "shuffle"  #: phase: chance deals the opening decks
RESHUFFLE = "reshuffle"  #: phase: chance reorders the discard of each seat in ``owed``
CHOOSE = "choose"  #: phase: both seats pick 3 runes
OVER = "over"  #: phase: the game has ended
PHASES = (SHUFFLE, RESHUFFLE, CHOOSE, OVER)

Runes = tuple[str, ...]
Pair = tuple[Runes, Runes]


@dataclass(frozen=True, slots=True)
class Config:
    """The match options a state carries (see ``BattleRunes.default_options``; sections 4 and 7,
    AMBIGUITIES 3, 5, 13)."""

    r2p5_bonus_kind: str = "destruction"
    zero_blocks_swap_all: bool = True
    max_turns: int = 0
    start_score: int = 25
    win_score: int = 50

    @property
    def resolve_options(self) -> ResolveOptions:
        """The options that change turn resolution (``resolve.py``)."""
        return ResolveOptions(self.r2p5_bonus_kind, self.zero_blocks_swap_all)

    def to_json(self) -> dict[str, JSON]:
        """The options as a JSON object (the keys of ``BattleRunes.default_options``)."""
        return {
            "r2p5_bonus_kind": self.r2p5_bonus_kind,
            "zero_blocks_swap_all": self.zero_blocks_swap_all,
            "max_turns": self.max_turns,
            "start_score": self.start_score,
            "win_score": self.win_score,
        }


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
    hands: Pair
    decks: Pair
    discards: Pair
    table: Pair = ((), ())
    owed: tuple[int, int] = (0, 0)
    last: Resolution | None = None
    outcome: Outcome | None = None


def encode_state(state: BattleRunesState) -> dict[str, JSON]:
    """The whole state as JSON (holds the secret deck orders: storage only).

    ``{"config", "phase", "turn", "scores", "hands", "decks", "discards", "table", "owed", "last",
    "outcome"}``.
    """
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


def decode_state(obj: Mapping[str, JSON]) -> BattleRunesState:
    """Inverse of :func:`encode_state`.

    :raises ValueError: an unknown phase, or a value of the wrong type.
    :raises KeyError: a missing key.
    """
    if obj.get("phase") not in PHASES:
        raise ValueError(f"battle_runes: unknown phase {obj.get('phase')!r}")

    def pair(key: str) -> Pair:
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
