"""Reading matches: public info, per-viewer snapshots and events, replays, results.

:class:`MatchReads` is a part of :class:`~app.matches.service.MatchService`; it never writes. A
match's state is decoded with its variant's rules (:func:`~app.matches.write.match_rules`).
Snapshots and viewer seats come from this process's live match (:mod:`app.matches.live`): no
database work unless the match is not cached, a newer version was announced, or a ``hello``
asks for events older than the cached tail.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.errors import DomainError, busy
from app.matches.clock import Clock
from app.matches.live import TAIL_EVENTS, LiveMatch, LiveMatches, StoredEvent
from app.matches.models import ACTIVE, FINISHED, WAITING, Match, MatchEvent, MatchResult, MatchSeat
from app.matches.views import event_views, live_info, match_info, result_view, seat_of
from app.matches.write import game_options, match_rules, replay_rows


class MatchReads:
    """The reading half of the match service (one short session per call)."""

    sessionmaker: async_sessionmaker[AsyncSession]
    clock: Clock
    live: LiveMatches

    async def get_match(self, match_id: int) -> dict[str, Any]:
        """Public info of a match (no hidden information), from the live match.

        :raises DomainError: ``not_found``.
        """
        live = await self.live_match(match_id)
        return match_info(live.record, self.clock.now())

    async def list_matches(
        self, status: str | None = WAITING, game: str | None = None, user_id: int | None = None, limit: int = 50
    ) -> list[dict[str, Any]]:
        """Matches by status (default: waiting for players), newest first; ``user_id`` keeps
        those where that user holds a seat."""
        stmt = select(Match).order_by(Match.id.desc()).limit(limit)
        if status:
            stmt = stmt.where(Match.status == status)
        if game:
            stmt = stmt.where(Match.game == game)
        if user_id is not None:
            stmt = stmt.where(Match.seats.any(MatchSeat.user_id == user_id))
        async with self.sessionmaker() as session:
            now = self.clock.now()
            return [match_info(m, now) for m in (await session.execute(stmt)).scalars().all()]

    async def live_matches(self, game: str | None = None, limit: int = 20) -> list[dict[str, Any]]:
        """Active matches anybody may watch (option ``spectators`` not false), newest first, as
        :func:`app.matches.views.live_info` (public: no state, no seed, no pending choice)."""
        stmt = (
            select(Match)
            .where(Match.status == ACTIVE, Match.options["spectators"].as_boolean().is_not(False))
            .order_by(Match.id.desc())
            .limit(limit)
        )
        if game:
            stmt = stmt.where(Match.game == game)
        async with self.sessionmaker() as session:
            return [live_info(m) for m in (await session.execute(stmt)).scalars().all()]

    async def viewer_seat(self, match_id: int, user_id: int | None) -> tuple[int | None, bool]:
        """``(seat, spectators_allowed)`` for ``user_id`` in a match (from the live match).

        :raises DomainError: ``not_found``.
        """
        live = await self.live_match(match_id)
        return live.seat_of(user_id), live.spectators

    async def live_match(self, match_id: int) -> LiveMatch:
        """The match as it is now: this process's :class:`~app.matches.live.LiveMatch`, read from
        the database when it has none or has heard of a newer version.

        :raises DomainError: ``not_found``.
        """
        try:
            return await self.live.load(match_id, lambda: self._load_live(match_id))
        except SQLAlchemyTimeoutError:
            raise busy("every database connection is in use") from None

    async def _load_live(self, match_id: int) -> LiveMatch:
        async with self.sessionmaker() as session:
            m = await session.get(Match, match_id)
            if m is None:
                raise DomainError("not_found", f"no match {match_id}")
            # the row was read first: events another process committed since are not in its version
            rows = [
                r
                for r in await self._rows(session, match_id, max(0, m.version - TAIL_EVENTS))
                if r.version <= m.version
            ]
            rules = match_rules(m)
            state = rules.decode_state(m.state) if m.state is not None else None
            pending = {int(k): rules.decode_action(v) for k, v in (m.pending or {}).items()}
            return LiveMatch(m, state, pending, [StoredEvent.of(r) for r in rows])

    async def events(self, match_id: int, viewer: int | None, since: int = 0) -> list[dict[str, Any]]:
        """The events after version ``since`` as ``viewer`` may see them (see
        :func:`app.matches.views.event_views`)."""
        async with self.sessionmaker() as session:
            m = await session.get(Match, match_id)
            if m is None:
                raise DomainError("not_found", f"no match {match_id}")
            rows = await self._rows(session, match_id, since)
            return event_views(rows, viewer, m.status == FINISHED)

    async def _rows(self, session: AsyncSession, match_id: int, since: int = 0) -> Sequence[MatchEvent]:
        stmt = (
            select(MatchEvent)
            .where(MatchEvent.match_id == match_id, MatchEvent.version > since)
            .order_by(MatchEvent.version)
        )
        return (await session.execute(stmt)).scalars().all()

    async def snapshot(self, match_id: int, viewer: int | None, since: int = 0) -> dict[str, Any]:
        """The ``snapshot`` frame of DESIGN.md section 4 for ``viewer`` (a seat or ``None``).

        :returns: ``{"type": "snapshot", "match_id", "version", "seat", "status", "view", "to_act",
            "chosen", "legal", "clock", "events", "result", "seed_hash", "seed"?, "seats"}`` (the
            caller's own copy).
        :raises DomainError: ``not_found``.
        """
        live, rows = await self._live_since(match_id, since)
        return live.frame(viewer, since, self.clock.now(), rows)

    async def snapshot_text(self, match_id: int, viewer: int | None, since: int = 0) -> tuple[int, str]:
        """``(version, JSON text)`` of :meth:`snapshot`, as it goes on the wire: built once per
        version, viewer and ``since`` and shared by every connection that asks (see
        :meth:`~app.matches.live.LiveMatch.frame_text`).

        :raises DomainError: ``not_found``.
        """
        live, rows = await self._live_since(match_id, since)
        return live.version, live.frame_text(viewer, since, self.clock.now(), rows)

    async def _live_since(self, match_id: int, since: int) -> tuple[LiveMatch, list[MatchEvent] | None]:
        """The live match, and the stored events after ``since`` when it does not hold them all
        (read here), else ``None``."""
        live = await self.live_match(match_id)
        if live.has_events_since(since):
            return live, None
        try:
            async with self.sessionmaker() as session:  # older events than the live match keeps
                rows = [r for r in await self._rows(session, match_id, since) if r.version <= live.version]
        except SQLAlchemyTimeoutError:
            raise busy("every database connection is in use") from None
        return live, rows

    async def replay(self, match_id: int, user_id: int | None = None) -> dict[str, Any]:
        """Every step of a match, one per stored input (step ``n`` is version ``n``), each with
        the board after it: ``{"match", "seat", "complete", "steps": [{"version", "kind", "seat",
        "action", "hidden", "events", "at", "view"}]}``.

        A finished match reveals everything to everybody (``observe_finished``, every action and
        event shown; ``seat`` null, ``complete`` true). A running match is shown to ``user_id``
        exactly as it was shown live: its seat's view at each step (``observe``; a spectator's
        when it holds no seat) and the events and actions that seat may see (hidden choices of
        the others stay hidden), so going back never reveals what the table did not
        (``complete`` false, ``seat`` the viewer's seat or null).

        :raises DomainError: ``not_found``; ``not_started`` for a match that waits for players or
            never started (aborted); ``forbidden`` for a spectator of a running match without
            spectators.
        """
        async with self.sessionmaker() as session:
            m = await session.get(Match, match_id)
            if m is None:
                raise DomainError("not_found", f"no match {match_id}")
            if m.status not in (ACTIVE, FINISHED):
                raise DomainError("not_started", "nothing was played in this match, so there is nothing to replay")
            complete = m.status == FINISHED
            seat = None if complete else seat_of(m, user_id)
            if not complete and seat is None and not m.options.get("spectators", True):
                raise DomainError("forbidden", "this match has no spectators")
            rows = await self._rows(session, match_id)
            info = match_info(m, self.clock.now())
        rules = match_rules(m)
        views = event_views(rows, seat, complete)
        observe = rules.observe_finished if complete else rules.observe
        steps = [
            {**view, "view": observe(state, seat)}
            for view, (state, _) in zip(views, replay_rows(m, rows), strict=False)
        ]
        return {"match": info, "seat": seat, "complete": complete, "steps": steps}

    async def rebuild(self, match_id: int) -> Any:
        """Rebuild the engine state by replaying ``match_events`` (needs no RNG).

        :returns: ``(state, pending)`` as game values; equal to the stored snapshot.
        :raises DomainError: ``not_found``.
        """
        async with self.sessionmaker() as session:
            m = await session.get(Match, match_id)
            if m is None:
                raise DomainError("not_found", f"no match {match_id}")
            rows = await self._rows(session, match_id)
        last: tuple[Any, dict[int, Any]] = (match_rules(m).initial_state(m.num_players, game_options(m)), {})
        for last in replay_rows(m, rows):  # noqa: B007 (the last step is the answer)
            pass
        return last

    async def results(self, match_id: int) -> list[dict[str, Any]]:
        """The ``match_results`` rows of a match, by seat (empty until it has finished):
        ``[{"seat", "user_id", "team", "rank", "result", "reason", "score", "computer_finished"}]``.

        :raises DomainError: ``not_found``.
        """
        async with self.sessionmaker() as session:
            if await session.get(Match, match_id) is None:
                raise DomainError("not_found", f"no match {match_id}")
            rows = (
                (
                    await session.execute(
                        select(MatchResult).where(MatchResult.match_id == match_id).order_by(MatchResult.seat)
                    )
                )
                .scalars()
                .all()
            )
            return [result_view(r) for r in rows]
