"""Build Fantasy súboj positions from unit ids, for tests, golden cases and tools.

Example::

    state = position([["rytier", "sedliak", "zombie"], ["kostej", "zombie", "duch"]], deck=["vila"])
    kostej = card_of(state, 1, "kostej")

Cards are numbered as in a real deck (:mod:`.data`): the k-th copy of a unit in the position is
card ``index + k * PACK_SIZE``, and the position has as many packs as its most repeated unit needs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..core.rules import Event
from ..core.state import evolve
from .data import PACK_SIZE, UNIT_BY_ID, unit_of
from .rules import FantasyDuel
from .state import ATTACKER, FantasyState, Round
from .turns import end_turn, start_turn


def position(
    armies: Sequence[Sequence[str]],
    *,
    deck: Sequence[str] = (),
    prisons: Sequence[Sequence[str]] | None = None,
    poisoned: Iterable[tuple[int, str]] = (),
    active: int = 0,
    first: int = 0,
    options: Mapping[str, Any] | None = None,
) -> FantasyState:
    """A state in phase ``attacker`` of round 1 with ``active`` to attack, ``first`` beginning
    rounds, and exactly the given armies, prisons and deck (top first), by unit id.

    :param poisoned: ``(seat, unit id)`` pairs: that seat's (first) unit of the id is poisoned.
    :param options: match options (``teams``, ...), checked as a match's would be.
    :raises KeyError: an unknown unit id. :raises BadOptions: bad options.
    """
    rules = FantasyDuel()
    seen: dict[str, int] = {}

    def cards(ids: Sequence[str]) -> tuple[int, ...]:
        out = []
        for uid in ids:
            k = seen.get(uid, 0)
            seen[uid] = k + 1
            out.append(UNIT_BY_ID[uid].index + k * PACK_SIZE)
        return tuple(out)

    table = tuple(cards(a) for a in armies)
    jail = tuple(cards(p) for p in (prisons or [[] for _ in armies]))
    pile = cards(deck)
    packs = max([1, *seen.values()])
    opts = {**(options or {}), "packs": max(packs, int((options or {}).get("packs", 1)))}
    state = rules.initial_state(len(armies), opts)
    state = evolve(
        state, phase=ATTACKER, deck=pile, armies=table, prisons=jail, active=active, round=Round(number=1, first=first)
    )
    sick = frozenset(card_of(state, seat, uid) for seat, uid in poisoned)
    return evolve(state, poisoned=sick)


def card_of(state: FantasyState, seat: int, unit: str) -> int:
    """The first card of ``unit`` in ``seat``'s army.

    :raises ValueError: ``seat`` has no such unit on the table.
    """
    for card in state.armies[seat]:
        if unit_of(card).id == unit:
            return card
    raise ValueError(f"seat {seat} has no {unit!r} on the table: {[unit_of(c).id for c in state.armies[seat]]}")


def begin_turn(state: FantasyState, seat: int) -> tuple[FantasyState, list[Event]]:
    """Start ``seat``'s turn as the engine does (spec 3): a Tactics muster, the attack, or a turn
    that passes (then play moves on to the next decision)."""
    events: list[Event] = []
    state, decided = start_turn(state, seat, events)
    if not decided:
        state = end_turn(state, events)
    return state, events
