"""One write to one locked match (the state, pending choices, event rows, deadlines, and the
``match_results`` rows when it ends), and the replay of stored events. The match service's single
writer (:meth:`MatchService._write`) locks the row with :func:`lock_match`, makes a
:class:`WriteContext`, lets a request change it, and stores it.

A match plays by its variant's rules: ``get_rules(m.game, game_options(m))`` everywhere its state
is decoded, changed or replayed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.errors import DomainError
from app.games.core import CHANCE, Event, GameError, Outcome, chance_rng, get_rules, submit
from app.games.core.registry import AnyRules
from app.matches.models import ABORTED, ACTIVE, FINISHED, Match, MatchEvent, MatchResult
from app.matches.results import result_rows
from app.matches.store import AnyEvent, EventRecord, MatchRecord
from app.matches.time_control import TIME_OPTIONS, TimeControl
from app.settings import Settings

if TYPE_CHECKING:
    from app.matches.live import LiveMatch

#: options handled by the service itself, with defaults; every other key goes to the game's
#: ``normalize_options``. ``rated``: the creator asks for a rated match (``matches.origin``); the
#: clock's options are :data:`app.matches.time_control.TIME_OPTIONS`.
SERVICE_OPTIONS = {**TIME_OPTIONS, "spectators": True, "rated": False}
#: input kinds that carry an engine action (replayed by :func:`replay_rows`)
ACTION_KINDS = frozenset({"action", "chance", "timeout", "bot"})


#: what the writer works on: an ORM match or its plain record (:mod:`app.matches.store`)
AnyMatch = Match | MatchRecord


def game_options(m: AnyMatch) -> dict[str, Any]:
    """The match's options for the game itself (the service's own removed)."""
    return {k: v for k, v in m.options.items() if k not in SERVICE_OPTIONS}


def match_rules(m: AnyMatch) -> AnyRules:
    """The rules ``m`` plays by (its variant's, where the game has variants).

    :raises BadOptions: the stored options name a variant the game no longer has.
    """
    return get_rules(m.game, game_options(m))


async def lock_match(
    session: AsyncSession, match_id: int, *, postgres: bool, skip_locked: bool = False
) -> Match | None:
    """Load match ``match_id`` for writing in ``session``'s transaction: ``FOR UPDATE`` on
    PostgreSQL (``SKIP LOCKED`` when ``skip_locked``), the database write lock on SQLite.

    :returns: the match, or ``None`` when there is none (or, with ``skip_locked``, another
        transaction holds it).
    """
    stmt = select(Match).where(Match.id == match_id)
    if postgres:
        stmt = stmt.with_for_update(skip_locked=skip_locked)
    else:  # SQLite has no row locks: take the database write lock before reading
        await session.execute(update(Match).where(Match.id == match_id).values(deadline_at=Match.deadline_at))
    return (await session.execute(stmt)).scalar_one_or_none()


def replay_rows(m: Match, rows: Sequence[MatchEvent]) -> Iterator[tuple[Any, dict[int, Any]]]:
    """Re-apply stored events from the initial state (no RNG needed).

    :returns: after each row, ``(state, pending)`` as game values.
    :raises IllegalAction: the stored log does not fit the rules.
    """
    rules = match_rules(m)
    state = rules.initial_state(m.num_players, game_options(m))
    pending: dict[int, Any] = {}
    for row in rows:
        if row.kind in ACTION_KINDS:
            seat = CHANCE if row.seat is None else row.seat
            step = submit(rules, state, pending, seat, rules.decode_action(row.payload["action"]))
            state, pending = step.state, step.pending
        yield state, pending


class WriteContext:
    """What one write does to one locked match: the decoded state, pending choices, new event rows
    and the bookkeeping of deadlines. Made and stored only by
    :meth:`app.matches.service.MatchService._write`, the single writer.

    :param m: the locked match row.
    :param now: the service clock's time for this write.
    :param settings: bot delay and abandonment time.
    :param cached: this process's :class:`~app.matches.live.LiveMatch` of ``m`` at ``m.version``
        (its decoded state and pending choices are used instead of decoding the stored ones);
        ``None`` to decode.
    """

    def __init__(self, m: AnyMatch, now: datetime, settings: Settings, cached: LiveMatch | None = None) -> None:
        self.m, self.settings = m, settings
        self.now = now
        self.state: Any
        self.pending: dict[int, Any]
        if cached is not None and cached.version == m.version:
            self.rules = cached.rules
            self.state, self.pending = cached.state, dict(cached.pending)
        else:
            self.rules = match_rules(m)
            self.state = self.rules.decode_state(m.state) if m.state is not None else None
            self.pending = {int(k): self.rules.decode_action(v) for k, v in (m.pending or {}).items()}
        #: the new ``match_events`` rows: plain records on a :class:`MatchRecord`, mapped rows on
        #: a :class:`Match` (the session adds them)
        self.rows: list[AnyEvent] = []
        #: the ``match_results`` rows, when this write ends the match
        self.results: list[MatchResult] = []
        self.state_changed = False
        self.next_deadline: datetime | None = None
        #: an end decided outside the engine's ``outcome`` (a resignation that ends the game, as
        #: ``rules.resign`` says; abandonment)
        self.forced_outcome: Outcome | None = None
        self.time_control = TimeControl.of(m.options)
        #: seats that acted in this write (their time bank stops: see :meth:`_set_bank_deadlines`)
        self.acted: set[int] = set()
        #: the deadline of each seat whose time bank was running when this write began
        self.bank_running: dict[int, datetime] = self._running_banks() if self.time_control.is_bank else {}

    def _clock_runs(self, ms: Any) -> bool:
        """Whether seat ``ms``'s own clock runs now: a person's seat (not away, not resigned) of an
        active match that must act and has not chosen yet."""
        if self.state is None or self.m.status != ACTIVE or ms.bot_level or ms.away or ms.resigned:
            return False
        return ms.seat in self.rules.to_act(self.state) and ms.seat not in self.pending

    def _running_banks(self) -> dict[int, datetime]:
        return {ms.seat: ms.deadline_at for ms in self.m.seats if ms.deadline_at is not None and self._clock_runs(ms)}

    @property
    def changed(self) -> bool:
        """Whether this write has anything to store."""
        return bool(self.rows) or self.state_changed

    @property
    def finished(self) -> bool:
        """Whether this write ended the match (its results are among the rows to store)."""
        return bool(self.results)

    def abort(self, reason: str) -> None:
        """End a match that never started: status ``aborted`` with ``reason`` (no results)."""
        m = self.m
        m.status = ABORTED
        m.finished_at = self.now
        m.result = {"reason": reason, "results": [], "scores": [], "ranks": []}
        self.record(None, "end", None, None, [], extra={"result": m.result})

    def abandoned(self) -> bool:
        """Every person still playing has been away for ``abandon_after_seconds`` (and there is
        one; seats whose players resigned do not count)."""
        humans = [ms for ms in self.m.seats if not ms.bot_level and not ms.resigned]
        limit = timedelta(seconds=self.settings.abandon_after_seconds)
        return bool(humans) and all(
            ms.away and ms.away_since is not None and self.now - ms.away_since >= limit for ms in humans
        )

    def decode(self, action: Any) -> Any:
        """The game value of a JSON action.

        :raises DomainError: ``bad_message`` when it is not the shape of any action of the game.
        """
        try:
            return self.rules.decode_action(action)
        except GameError as exc:
            raise DomainError("bad_message", str(exc)) from None

    def record(
        self,
        seat: int | None,
        kind: str,
        action: Any,
        visible_to: frozenset[int] | None,
        events: Sequence[Event],
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        """Append the ``match_events`` row of one input at the next version.

        :param seat: the acting seat, :data:`CHANCE`, or ``None`` for the service's own rows.
        :param kind: the row kind (see :class:`~app.matches.models.MatchEvent`).
        :param action: the game value of the action, or ``None``.
        :param visible_to: who may see ``action`` before the end (``None``: everyone).
        """
        self.m.version += 1
        payload = {
            "action": None if action is None else self.rules.encode_action(action),
            "visible_to": None if visible_to is None else sorted(visible_to),
            "events": [e.to_json() for e in events],
            **(extra or {}),
        }
        m = self.m
        if isinstance(m, MatchRecord):
            self.rows.append(EventRecord(m.id, m.version, seat, kind, payload, self.now))
        else:
            self.rows.append(
                MatchEvent(match_id=m.id, version=m.version, seat=seat, kind=kind, payload=payload, created_at=self.now)
            )

    def apply(self, seat: int, action: Any, kind: str) -> int:
        """Submit ``seat``'s action through the driver and record it; then let chance act.

        :returns: the version of the recorded action.
        :raises DomainError: mapped from the engine's error (its ``code``).
        """
        rules = self.rules
        try:
            visible_to = rules.action_visible_to(self.state, seat, action)
            step = submit(rules, self.state, self.pending, seat, action)
        except GameError as exc:
            raise DomainError(exc.code, str(exc)) from None
        self.record(seat, kind, action, visible_to, step.events)
        self.acted.add(seat)
        version = self.m.version
        self.state, self.pending = step.state, step.pending
        self.state_changed |= step.applied
        if step.applied:
            self.m.state_version = version
        self.run_chance()
        return version

    def run_chance(self) -> None:
        """Draw and apply chance outcomes until a seat must act or the game is over."""
        rules = self.rules
        while rules.outcome(self.state) is None and rules.to_act(self.state) == frozenset({CHANCE}):
            rng = chance_rng(self.m.seed, self.m.version + 1)
            action = rules.sample_chance(self.state, rng)
            visible_to = rules.action_visible_to(self.state, CHANCE, action)
            step = submit(rules, self.state, {}, CHANCE, action)
            self.record(CHANCE, "chance", action, visible_to, step.events)
            self.state = step.state
            self.state_changed = True
            self.m.state_version = self.m.version

    def due_seat(self) -> tuple[int, str] | None:
        """The first seat the computer must play now, with the event kind: ``bot`` for a computer
        seat or a seat whose player resigned, ``timeout`` for a person's seat whose deadline passed
        (away seats included)."""
        for ms in self.m.seats:
            kind = self.due_kind(ms.seat)
            if kind is not None:
                return ms.seat, kind
        return None

    def due_kind(self, seat: int) -> str | None:
        """The event kind if the computer must play ``seat`` now, else ``None``: the seat must act,
        has not chosen yet, and its deadline has passed."""
        if self.state is None or self.m.status != ACTIVE:
            return None
        ms = self.m.seats[seat]
        if seat not in self.rules.to_act(self.state) or seat in self.pending:
            return None
        if ms.deadline_at is None or ms.deadline_at > self.now:
            return None
        return "bot" if (ms.bot_level or ms.resigned) else "timeout"

    def finish(self) -> None:
        """Store the snapshot, the result and the ``match_results`` rows when over, and every
        seat's deadline."""
        m, rules = self.m, self.rules
        if self.state is not None:
            if self.state_changed:
                self.run_chance()
            m.state = rules.encode_state(self.state)
            m.pending = {str(k): rules.encode_action(v) for k, v in self.pending.items()}
            outcome: Outcome | None = self.forced_outcome or rules.outcome(self.state)
            if outcome is not None and m.status == ACTIVE:
                self._finish_match(outcome)
        self._set_deadlines()

    def _finish_match(self, outcome: Outcome) -> None:
        m = self.m
        resigned = outcome.resigned | {ms.seat for ms in m.seats if ms.resigned}
        if resigned != outcome.resigned:
            outcome = dataclasses.replace(outcome, resigned=frozenset(resigned))
        m.status = FINISHED
        m.finished_at = self.now
        m.result = outcome.to_json()
        for ms in m.seats:
            ms.result = outcome.results[ms.seat]
            ms.score = outcome.scores[ms.seat] if outcome.scores else None
            ms.deadline_at = None
        self.record(None, "end", None, None, [], extra={"result": m.result, "seed": m.seed})
        self.results = result_rows(m, outcome, self.now)

    def _set_deadlines(self) -> None:
        m = self.m
        if self.time_control.is_bank:
            self._set_bank_deadlines()
            return
        turn = timedelta(seconds=m.options.get("turn_seconds", 0))
        delay = timedelta(seconds=self.settings.bot_delay_seconds)
        to_act = self.rules.to_act(self.state) if (self.state is not None and m.status == ACTIVE) else frozenset()
        for ms in m.seats:
            if ms.seat not in to_act or ms.seat in self.pending:
                ms.deadline_at = None
            elif ms.bot_level or ms.away or ms.resigned:
                ms.deadline_at = self.now + delay
            elif turn and (self.state_changed or ms.deadline_at is None):
                ms.deadline_at = self.now + turn
            elif not turn:
                ms.deadline_at = None
        deadlines = [ms.deadline_at for ms in m.seats if ms.deadline_at is not None]
        m.deadline_at = min(deadlines) if deadlines else None
        self.next_deadline = m.deadline_at

    def _set_bank_deadlines(self) -> None:
        """Every seat's deadline under a time bank (:mod:`app.matches.time_control`).

        A seat whose bank was running stops when it acted in this write, no longer must act, or
        is no longer a person's clock (away, resigned): its new bank, the time left plus the
        increment, is stored in ``bank_ms``. A seat whose clock runs after this write keeps its
        deadline if it was running and did not stop, else starts from its bank now. Seats the
        computer plays are due after the bot delay.
        """
        m, tc = self.m, self.time_control
        delay = timedelta(seconds=self.settings.bot_delay_seconds)
        to_act = self.rules.to_act(self.state) if (self.state is not None and m.status == ACTIVE) else frozenset()
        for ms in m.seats:
            runs = self._clock_runs(ms)
            was = self.bank_running.get(ms.seat)
            stopped = was is not None and (ms.seat in self.acted or not runs)
            if stopped:
                assert was is not None
                ms.bank_ms = tc.after_turn(was, self.now)
            if ms.seat not in to_act or ms.seat in self.pending:
                ms.deadline_at = None
            elif not runs:  # the computer plays it: a computer seat, away or resigned
                ms.deadline_at = self.now + delay
            elif was is not None and not stopped:
                ms.deadline_at = was
            else:
                ms.deadline_at = tc.deadline(self.now, tc.bank_of(ms.bank_ms))
        deadlines = [ms.deadline_at for ms in m.seats if ms.deadline_at is not None]
        m.deadline_at = min(deadlines) if deadlines else None
        self.next_deadline = m.deadline_at
