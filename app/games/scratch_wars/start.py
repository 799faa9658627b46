"""Who starts (``rules/scratch_wars.md`` sections 3.3-3.4, AMBIGUITIES 9 and 20).

``start_weapon``: each seat with more than one weapon picks the weapon for the start spin (at the
same time, hidden until both chose). ``start_spin`` (chance) spins both; on a tie they spin again.
``start_choice``: the seat with the higher number names the starting seat, which loses 2 lives at
once; then round 1 begins (:mod:`.turn`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from ..core.errors import IllegalAction
from . import turn
from .actions import START_WEAPON as START_WEAPON_ACTIONS
from .actions import STARTER, ScratchAction, Starter, StartSpin, StartWeapon
from .data import CardBook
from .events import Events, emit
from .state import GAME, START_CHOICE, START_PENALTY, START_SPIN, State, evolve, set_seat


def weapon_choices(book: CardBook, st: State, seat: int) -> list[ScratchAction]:
    """The start-weapon choices of ``seat``: each of its weapon slots."""
    return list(START_WEAPON_ACTIONS[: len(st.seat(seat).slots)])


def starter_choices(book: CardBook, st: State, seat: int) -> list[ScratchAction]:
    """The winner of the start spin may start or let the other seat start."""
    return list(STARTER)


def choose_weapons(book: CardBook, st: State, actions: Mapping[int, ScratchAction], ev: Events) -> State:
    """The start weapons of the seats with a choice (slot 0 for a seat with one weapon).

    :raises IllegalAction: a choice that is not one of the seat's slots.
    """
    chosen = [0, 0]
    for seat, action in actions.items():
        if not (isinstance(action, StartWeapon) and 0 <= action.slot < len(st.seat(seat).slots)):
            raise IllegalAction(f"{GAME}: {action!r} is not a start weapon of seat {seat}")
        chosen[seat] = action.slot
    if ev is not None:
        emit(ev, "start_weapons", slots=chosen, weapons=[st.seat(i).slots[chosen[i]].weapon for i in (0, 1)])
    return evolve(st, phase=START_SPIN, start=(chosen[0], chosen[1], -1, -1))


def _wheel_sizes(book: CardBook, st: State) -> tuple[int, int]:
    rows = book.weapon_rows
    return (
        len(rows[st.seat(0).slots[st.start[0]].weapon].wheel),
        len(rows[st.seat(1).slots[st.start[1]].weapon].wheel),
    )


def spin(book: CardBook, rng: random.Random, st: State) -> StartSpin:
    """Chance: a uniform segment of each start weapon (seat 0's drawn first)."""
    n0, n1 = _wheel_sizes(book, st)
    return StartSpin(rng.randrange(n0), rng.randrange(n1))


def spun(book: CardBook, st: State, action: StartSpin, ev: Events) -> State:
    """Compare the two start spins: the higher value names the starter; a tie spins again.

    :raises IllegalAction: a segment not on that seat's wheel.
    """
    values = []
    for seat, i in ((0, action.first), (1, action.second)):
        wheel = book.weapon_rows[st.seat(seat).slots[st.start[seat]].weapon].wheel
        if not 0 <= i < len(wheel):
            raise IllegalAction(f"{GAME}: start segment {i!r} is not on seat {seat}'s wheel")
        values.append(wheel[i][1])
    winner = None if values[0] == values[1] else (0 if values[0] > values[1] else 1)
    if ev is not None:
        emit(ev, "start_spin", segments=[action.first, action.second], values=values, winner=winner)
    start = (st.start[0], st.start[1], action.first, action.second)
    if winner is None:  # AMBIGUITY 9: spin again
        return evolve(st, start=start)
    return evolve(st, phase=START_CHOICE, start=start, active=winner)


def choose_starter(book: CardBook, st: State, action: Starter, ev: Events) -> State:
    """The starter loses 2 lives at once (section 3.4); round 1 begins."""
    starter = action.seat
    seat = st.seat(starter)
    lives = seat.lives - START_PENALTY
    st = evolve(st, seats=set_seat(st.seats, starter, evolve(seat, lives=lives)), starter=starter)
    if ev is not None:
        emit(ev, "starter_chosen", chooser=st.active, starter=starter, lives=lives)
    return turn.begin_round(book, st, ev)
