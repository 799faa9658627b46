"""What each match looks like now, kept by each server process (issue 9): snapshots without the
database.

A :class:`LiveMatch` is one committed version of one match as this process knows it: the public
match info, the seats, the decoded engine state and pending choices, and the tail of its stored
events. It is immutable once built, except for its memo of built snapshot frames: each viewer's
frame (``observe``, legal actions, events since a version, serialised once) is made once per
version and handed to every connection of that viewer (every spectator shares one), instead of
re-reading the match, its seats, users and events and re-decoding the state per connection per
change.

:class:`LiveMatches` holds the latest :class:`LiveMatch` per match (bounded, least recently used
first out), with the highest version the hub has announced for each. Correctness never rests on
it: the single writer (:meth:`~app.matches.service.MatchService._write`) still locks the row and
compares versions, and uses the cached state only when the row's version is the cached one. The
writer puts the version it committed (:meth:`LiveMatches.put`) before publishing it; a version
written by another process arrives as a hub notice (:meth:`LiveMatches.heard`), which makes the
cached one stale, and the next read loads the match once (one load per match at a time, shared by
every reader waiting for it).

So several server processes on one database need the Redis hub (``REDIS_URL``), as their
connections already did to hear of each other's changes: without it a process would keep serving
the version it last saw until it writes to that match itself.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.games.core import CHANCE
from app.jsontext import dumps
from app.matches.models import ABORTED, ACTIVE, FINISHED, Match
from app.matches.store import AnyEvent, MatchRecord, without_state
from app.matches.views import clock_of, event_views, seats_info
from app.matches.write import match_rules

#: stored events a :class:`LiveMatch` keeps (a ``hello`` asking for older ones reads the database)
TAIL_EVENTS = 16
#: seconds (of the service clock) a built frame is reused: its clock (milliseconds left) was right
#: when it was built
FRAME_REUSE_SECONDS = 0.5
#: built frames one version keeps (viewers times the ``since`` they asked from)
MAX_FRAMES = 32


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """A ``match_events`` row, detached from its session (the attributes
    :func:`~app.matches.views.event_views` reads)."""

    version: int
    seat: int | None
    kind: str
    payload: dict[str, Any]
    created_at: datetime

    @classmethod
    def of(cls, row: AnyEvent) -> StoredEvent:
        """A copy of ``row``."""
        return cls(row.version, row.seat, row.kind, row.payload, row.created_at)


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat of a :class:`LiveMatch` (the ``match_seats`` columns the frames read, and the
    holder's name and bot-account mark)."""

    seat: int
    user_id: int | None
    user_name: str | None
    #: whether the holder is a bot account (``users.is_bot``)
    user_is_bot: bool
    #: the holder's rank (``users.rank``) when the match was loaded, or None for no holder
    user_rank: str | None
    bot_level: str | None
    away: bool
    resigned: bool
    result: str | None
    deadline_at: datetime | None
    #: a time bank match's stopped bank (``match_seats.bank_ms``)
    bank_ms: int | None = None


class LiveMatch:
    """One committed version of a match (see the module docstring).

    :param m: the match row with its seats and their users loaded (in a session or just
        committed), or its :class:`~app.matches.store.MatchRecord` (then kept as it is: nobody
        may change it afterwards).
    :param state: the decoded engine state at ``m.version`` (``None`` before the start).
    :param pending: the decoded hidden choices at ``m.version``.
    :param tail: the stored events up to ``m.version``, contiguous and in order (maybe empty);
        the last :data:`TAIL_EVENTS` are kept.
    """

    __slots__ = (
        "_frames",
        "game",
        "match_id",
        "num_players",
        "options",
        "pending",
        "record",
        "result",
        "rules",
        "seats",
        "seed",
        "seed_hash",
        "state",
        "state_version",
        "status",
        "tail",
        "tail_from",
        "version",
    )

    def __init__(
        self, m: Match | MatchRecord, state: Any, pending: dict[int, Any], tail: Sequence[StoredEvent]
    ) -> None:
        #: the match's columns, for the writer's fast path (:mod:`app.matches.store`); never changed.
        #: Its ``state`` is :data:`~app.matches.store.STATE_NOT_KEPT`: :attr:`state` is the state
        self.record = without_state(m if isinstance(m, MatchRecord) else MatchRecord.of(m))
        self.match_id: int = m.id
        self.version: int = m.version
        self.state_version: int = m.state_version
        self.status: str = m.status
        self.game: str = m.game
        self.num_players: int = m.num_players
        self.options: dict[str, Any] = self.record.options  # (JSON columns are replaced, never changed)
        self.result: dict[str, Any] | None = m.result
        self.seed: str = m.seed
        self.seed_hash: str = m.seed_hash
        self.rules = match_rules(m)
        self.state = state
        self.pending = pending
        self.seats = tuple(
            SeatInfo(
                s.seat,
                s.user_id,
                s.user.name if s.user is not None else None,
                bool(s.user.is_bot) if s.user is not None else False,
                s.user.rank if s.user is not None else None,
                s.bot_level,
                s.away,
                s.resigned,
                s.result,
                s.deadline_at,
                s.bank_ms,
            )
            for s in m.seats
        )
        kept = tuple(tail[-TAIL_EVENTS:])
        #: the first version :attr:`tail` holds; events after ``tail_from - 1`` are all here
        self.tail_from = kept[0].version if kept else self.version + 1
        self.tail = kept
        self._frames: dict[tuple[int | None, int], tuple[datetime, str]] = {}

    def seat_of(self, user_id: int | None) -> int | None:
        """The seat ``user_id`` holds, or ``None``."""
        if user_id is None:
            return None
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    @property
    def spectators(self) -> bool:
        """Whether people without a seat may watch."""
        return bool(self.options.get("spectators", True))

    def has_events_since(self, since: int) -> bool:
        """Whether :attr:`tail` holds every event after version ``since``."""
        return since >= self.tail_from - 1

    def frame_text(self, viewer: int | None, since: int, now: datetime, rows: Iterable[Any] | None = None) -> str:
        """The JSON text of the ``snapshot`` frame for ``viewer`` (a seat or ``None``) with the
        events after ``since``: built once per viewer and ``since`` and reused for
        :data:`FRAME_REUSE_SECONDS` by every connection that asks.

        Only the text is kept, never the frame's dicts and lists: a match waits seconds between
        versions, and kept containers would outlive the young generation, so every collection of
        the older ones would walk them (a frame is a few hundred of them; at 5,000 sockets that
        was most of what a full collection walked, ``docs/performance.md``).

        :param rows: the stored events after ``since`` when :meth:`has_events_since` is false
            (read from the database by the caller); such a frame is not kept.
        """
        key = (viewer, since)
        if rows is None:
            hit = self._frames.get(key)
            if hit is not None and 0 <= (now - hit[0]).total_seconds() < FRAME_REUSE_SECONDS:
                return hit[1]
        text = encode_frame(self.frame(viewer, since, now, rows))
        if self.has_events_since(since):
            if len(self._frames) >= MAX_FRAMES:
                self._frames.clear()
            self._frames[key] = (now, text)
        return text

    def frame(self, viewer: int | None, since: int, now: datetime, rows: Iterable[Any] | None = None) -> dict[str, Any]:
        """The ``snapshot`` frame of :meth:`frame_text` as a new dict (built each call: the
        REST snapshot's path; sockets take the shared text).

        :param rows: as :meth:`frame_text`.
        """
        return self._build(viewer, [e for e in self.tail if e.version > since] if rows is None else rows, now)

    def _build(self, viewer: int | None, rows: Iterable[Any], now: datetime) -> dict[str, Any]:
        rules = self.rules
        frame: dict[str, Any] = {
            "type": "snapshot",
            "match_id": self.match_id,
            "game": self.game,
            "version": self.version,
            "seat": viewer,
            "status": self.status,
            "view": None,
            "to_act": [],
            "chosen": [],
            "legal": [],
            "clock": clock_of(self.status, self.options, self.seats, now),
            "events": event_views(rows, viewer, self.status == FINISHED),
            "result": self.result,
            "seed_hash": self.seed_hash,
            "seats": seats_info(self.seats, lambda s: s.user_name, lambda s: s.user_is_bot, lambda s: s.user_rank),
        }
        if self.status == FINISHED:
            frame["seed"] = self.seed
        state = self.state
        if state is not None:
            finished = self.status == FINISHED  # everything may be revealed, whatever ended it
            frame["view"] = rules.observe_finished(state, viewer) if finished else rules.observe(state, viewer)
            if self.status == ACTIVE:
                to_act = sorted(s for s in rules.to_act(state) if s != CHANCE)
                chosen = sorted(self.pending)
                frame["to_act"], frame["chosen"] = to_act, chosen
                playing = viewer is not None and not self.seats[viewer].resigned
                if playing and viewer in to_act and viewer not in chosen:
                    frame["legal"] = [rules.encode_action(a) for a in rules.legal_actions(state, viewer)]
        return frame


def encode_frame(frame: dict[str, Any]) -> str:
    """A frame as compact JSON text (as :func:`app.gateway.frames.encode` writes it)."""
    return dumps(frame)


class LiveMatches:
    """The latest :class:`LiveMatch` of each match this process has seen (see the module
    docstring).

    :param capacity: matches kept; the least recently used goes first.
    :param ended_capacity: of those, finished or aborted ones kept (their last frames are asked
        for once or twice, then rarely): the least recently ended goes first. Measured: a 5-minute
        run of 2,000 short matches grew a process by 365 MiB while every ended match stayed.
    """

    def __init__(self, capacity: int = 10_000, ended_capacity: int = 256) -> None:
        self.capacity = capacity
        self.ended_capacity = ended_capacity
        self._live: OrderedDict[int, LiveMatch] = OrderedDict()
        #: the ended matches among :attr:`_live`, least recently ended first
        self._ended: OrderedDict[int, None] = OrderedDict()
        #: the highest version announced for a match (by the hub), when above the cached one
        self._heard: dict[int, int] = {}
        self._loading: dict[int, asyncio.Future[LiveMatch]] = {}

    def __len__(self) -> int:
        return len(self._live)

    def get(self, match_id: int) -> LiveMatch | None:
        """The cached match, or ``None`` when there is none or a newer version was announced."""
        live = self._live.get(match_id)
        if live is None:
            return None
        if self._heard.get(match_id, 0) > live.version:
            return None
        self._live.move_to_end(match_id)
        return live

    def put(self, live: LiveMatch) -> None:
        """Keep ``live`` unless a newer version of its match is kept already."""
        match_id = live.match_id
        old = self._live.get(match_id)
        if old is not None and old.version > live.version:
            return
        self._live[match_id] = live
        self._live.move_to_end(match_id)
        if self._heard.get(match_id, 0) <= live.version:
            self._heard.pop(match_id, None)
        if live.status in (FINISHED, ABORTED):
            self._ended[match_id] = None
            self._ended.move_to_end(match_id)
            while len(self._ended) > self.ended_capacity:
                self.forget(next(iter(self._ended)))
        while len(self._live) > self.capacity:
            self.forget(next(iter(self._live)))

    def heard(self, match_id: int, version: int) -> None:
        """A hub notice: ``match_id`` has reached ``version`` (maybe in another process)."""
        live = self._live.get(match_id)
        if live is not None and version > live.version:
            self._heard[match_id] = max(version, self._heard.get(match_id, 0))

    def forget(self, match_id: int) -> None:
        """Drop ``match_id`` (its next read loads it)."""
        self._live.pop(match_id, None)
        self._heard.pop(match_id, None)
        self._ended.pop(match_id, None)

    async def load(self, match_id: int, loader: Callable[[], Awaitable[LiveMatch]]) -> LiveMatch:
        """The cached match, or the one ``loader`` reads (once, however many callers wait for it).

        :raises: whatever ``loader`` raises (every waiting caller gets it).
        """
        while True:
            live = self.get(match_id)
            if live is not None:
                return live
            waiting = self._loading.get(match_id)
            if waiting is None:
                break
            try:
                return await asyncio.shield(waiting)
            except asyncio.CancelledError:
                if not waiting.cancelled():
                    raise  # this caller was cancelled
                # the caller that was loading was cancelled: load again
        future: asyncio.Future[LiveMatch] = asyncio.get_running_loop().create_future()
        self._loading[match_id] = future
        try:
            live = await loader()
        except asyncio.CancelledError:
            future.cancel()
            raise
        except Exception as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning when nobody waited
            raise
        finally:
            self._loading.pop(match_id, None)
        self.put(live)
        future.set_result(live)
        return live
