"""A match's time control: the clock its options choose, how those options are checked, and the
time bank's arithmetic.

Two clocks (the match option ``clock``):

- ``turn`` (the default, and every match stored before there was a choice): ``turn_seconds`` per
  turn; each time the engine state changes, every person's seat that must act gets a fresh
  ``turn_seconds`` (``0``: untimed, only without computer seats).
- ``bank``: a time bank, as Lichess's and Board Game Arena's Fischer clocks. Each seat starts with
  ``bank_seconds``; while a person's seat must act its bank runs down; each action of the seat (a
  "turn": a decision, as a per-turn clock counts them) stops it, spends the time taken and adds
  ``increment_seconds``. A seat that still must act afterwards (a turn of several decisions)
  starts again from its new bank. In a simultaneous turn (Battle Runes' picks) every due seat's
  bank runs at once and each stops when that seat chooses. When a bank runs out, the computer
  plays the seat's move as with a per-turn clock (event kind ``timeout``; after two in a row the
  seat is ``away``), and the seat goes on with what the increments give it.

Where the bank lives (so a restart loses nothing): while a seat's clock runs, its bank is
``match_seats.deadline_at - now`` (the deadline is ``start + bank``; the downtime shift of
:mod:`app.matches.heartbeat` moves it, so a server that was down costs nobody time); when the
clock stops, the new bank is stored in ``match_seats.bank_ms`` by the same write that records the
action (null: untouched, the full ``bank_seconds``). Computer seats, away seats and seats whose
player resigned spend no bank (the computer plays them after ``BOT_DELAY_SECONDS``).

Pure: no I/O; the caller passes ``now`` from the service's clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from app.errors import DomainError

TURN, BANK = "turn", "bank"
CLOCKS = (TURN, BANK)

MIN_TURN_SECONDS = 2
MAX_TURN_SECONDS = 7 * 24 * 3600
MIN_BANK_SECONDS = 2
MAX_BANK_SECONDS = 30 * 24 * 3600
MAX_INCREMENT_SECONDS = 24 * 3600
#: what a time bank match gets when the creator names ``clock: "bank"`` alone (10 min + 5 s)
DEFAULT_BANK_SECONDS = 600
DEFAULT_INCREMENT_SECONDS = 5

#: the time-control options of a match, with their defaults (``turn_seconds``' default is the
#: game's ``default_turn_seconds``)
TIME_OPTIONS: dict[str, Any] = {
    "turn_seconds": 60,
    "clock": TURN,
    "bank_seconds": DEFAULT_BANK_SECONDS,
    "increment_seconds": DEFAULT_INCREMENT_SECONDS,
}


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A match's clock, read from its stored options.

    :param clock: ``"turn"`` or ``"bank"``.
    :param turn_seconds: seconds per turn (``turn`` clock; 0: untimed).
    :param bank_seconds: each seat's starting bank, seconds (``bank`` clock).
    :param increment_seconds: seconds added to a seat's bank after each of its actions (``bank``).
    """

    clock: str = TURN
    turn_seconds: int = 0
    bank_seconds: int = 0
    increment_seconds: int = 0

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> TimeControl:
        """The time control of a match's stored ``options`` (no ``clock``: a per-turn clock)."""
        if options.get("clock") == BANK:
            return cls(BANK, 0, int(options["bank_seconds"]), int(options["increment_seconds"]))
        return cls(TURN, int(options.get("turn_seconds", 0)))

    @property
    def is_bank(self) -> bool:
        """Whether this is a time bank."""
        return self.clock == BANK

    @property
    def timed(self) -> bool:
        """Whether a seat's time runs out, so that every match ends: a time bank, or a per-turn
        clock of more than 0 seconds."""
        return self.is_bank or self.turn_seconds > 0

    @property
    def base_ms(self) -> int:
        """A fresh seat's bank, milliseconds."""
        return self.bank_seconds * 1000

    @property
    def increment_ms(self) -> int:
        """The increment, milliseconds."""
        return self.increment_seconds * 1000

    def bank_of(self, stored_ms: int | None) -> int:
        """A seat's bank when its clock is not running: ``match_seats.bank_ms``, or the base when
        it was never stopped (null)."""
        return self.base_ms if stored_ms is None else stored_ms

    def after_turn(self, deadline: datetime, now: datetime) -> int:
        """The bank (ms) of a seat whose running clock stops at ``now``: what was left before
        ``deadline`` (never below zero: an act within the late allowance costs nothing more),
        plus the increment."""
        left = int((deadline - now).total_seconds() * 1000)
        return max(0, left) + self.increment_ms

    def running_left(self, deadline: datetime, now: datetime) -> int:
        """Milliseconds left at ``now`` on a seat whose clock runs until ``deadline`` (>= 0)."""
        return max(0, int((deadline - now).total_seconds() * 1000))

    @staticmethod
    def deadline(now: datetime, bank_ms: int) -> datetime:
        """When a clock started at ``now`` with ``bank_ms`` left runs out."""
        return now + timedelta(milliseconds=bank_ms)


def _bad_options(reason: str, message: str, **params: Any) -> DomainError:
    """The ``bad_options`` error: ``params`` are ``{"reason": reason, **params}``."""
    return DomainError("bad_options", message, params={"reason": reason, **params})


def _seconds(options: Mapping[str, Any], name: str, default: int, low: int, high: int) -> int:
    """``options[name]`` (or ``default``), a JSON integer in ``low..high``.

    :raises DomainError: ``bad_options``, ``reason`` ``option_range`` with ``option`` (``name``),
        ``low`` and ``high`` (seconds).
    """
    value = options.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad_options(
            "option_range",
            f"{name} must be a whole number of seconds from {low} to {high}",
            option=name,
            low=low,
            high=high,
        )
    return value


def normalize_time_control(options: Mapping[str, Any], *, default_turn: int, has_bots: bool) -> dict[str, Any]:
    """The time-control options to store for a new match, from the creator's ``options`` (the
    other keys are ignored here).

    - no ``clock``, or ``"turn"``: ``{"turn_seconds"}`` (as matches were always stored): 0 for
      untimed, or :data:`MIN_TURN_SECONDS`..:data:`MAX_TURN_SECONDS`; default ``default_turn``.
    - ``"bank"``: ``{"clock": "bank", "bank_seconds", "increment_seconds"}``: the bank
      :data:`MIN_BANK_SECONDS`..:data:`MAX_BANK_SECONDS` (default 600), the increment
      0..:data:`MAX_INCREMENT_SECONDS` (default 5).

    :param has_bots: the match has computer seats (they need a timed match: the computer must be
        able to take a seat over).
    :raises DomainError: ``bad_options`` with ``params.reason``: an unknown clock
        (``option_choice``: ``option`` ``clock``, ``choices``), a value out of range or not a whole
        number (``option_range``: ``option``, ``low``, ``high``; ``turn_seconds`` may also be 0),
        ``turn_seconds`` with a bank (``needs_turn_clock``: ``option``), the bank's options with a
        per-turn clock (``needs_bank_clock``: ``options``), or an untimed match with computer
        seats (``computer_untimed``).
    """
    clock = options.get("clock", TURN)
    if clock not in CLOCKS:
        raise _bad_options(
            "option_choice", f"clock must be one of {list(CLOCKS)}", option="clock", choices=list(CLOCKS)
        )
    if clock == BANK:
        if "turn_seconds" in options:
            raise _bad_options(
                "needs_turn_clock",
                "turn_seconds is for the per-turn clock; a time bank has bank_seconds",
                option="turn_seconds",
            )
        bank = _seconds(options, "bank_seconds", DEFAULT_BANK_SECONDS, MIN_BANK_SECONDS, MAX_BANK_SECONDS)
        increment = _seconds(options, "increment_seconds", DEFAULT_INCREMENT_SECONDS, 0, MAX_INCREMENT_SECONDS)
        return {"clock": BANK, "bank_seconds": bank, "increment_seconds": increment}
    extra = sorted({"bank_seconds", "increment_seconds"} & options.keys())
    if extra:
        raise _bad_options("needs_bank_clock", f"{', '.join(extra)} need clock: bank", options=extra)
    turn = options.get("turn_seconds", default_turn)
    if (
        isinstance(turn, bool)
        or not isinstance(turn, int)
        or not (turn == 0 or MIN_TURN_SECONDS <= turn <= MAX_TURN_SECONDS)
    ):
        raise _bad_options(
            "option_range",
            f"turn_seconds must be 0 (untimed) or from {MIN_TURN_SECONDS} to {MAX_TURN_SECONDS}",
            option="turn_seconds",
            low=MIN_TURN_SECONDS,
            high=MAX_TURN_SECONDS,
        )
    if turn == 0 and has_bots:
        raise _bad_options("computer_untimed", "a match with computer seats must be timed (turn_seconds > 0)")
    return {"turn_seconds": turn}
