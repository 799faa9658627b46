"""Quick chat at a match's table (issue 16): preset phrases only, sent as codes.

A player (a person holding a seat) says one of :data:`PHRASES`; there is no free text, so nothing
needs moderating and every page says it in its own language (``static/js/messages.js``,
``chat.<phrase>``). :meth:`TableChat.say` checks the phrase and the seat, counts the line against
the player's chat budget (``settings.chat_rate_limit``, per user, shared by every process through
Redis when ``REDIS_URL`` is set: :class:`app.ratelimit.RateLimiter`), stores it in ``match_chat``,
commits, and only then publishes it as a table notice (``{"chat": <line>}``, see
:meth:`app.matches.hub.LocalHub.publish_table`) to every viewer of the match, players and
spectators, on every process. Spectators read the chat but do not write in it.

Lines are stored so that a reloaded page (or a reconnected socket) gets the recent conversation:
:meth:`TableChat.recent`. A line is public: ``{"id", "seat", "phrase", "at"}`` (``id`` grows
with each line of any match, so a client asks for the lines after the last one it has; ``at`` is
ISO 8601 UTC). What a line says is not a move and never changes the match.
"""

from __future__ import annotations

from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.errors import DomainError, ErrorCode, busy
from app.matches.clock import Clock
from app.matches.hub import LocalHub
from app.matches.models import MatchChat
from app.matches.reads import MatchReads
from app.ratelimit import RateLimiter

#: the phrases a player may say, as codes (``static/js/messages.js`` has the words: ``chat.<code>``)
PHRASES: Final[tuple[str, ...]] = ("hello", "good_luck", "well_played", "thanks", "oops")
#: lines sent to a viewer who has none yet (a page just loaded)
CHAT_HISTORY: Final[int] = 30


def line_view(row: MatchChat) -> dict[str, Any]:
    """A stored line as viewers get it: ``{"id", "seat", "phrase", "at"}``."""
    return {"id": row.id, "seat": row.seat, "phrase": row.phrase, "at": row.created_at.isoformat()}


class TableChat:
    """The quick chat of every match (see the module docstring).

    :param sessionmaker: where ``match_chat`` lives.
    :param hub: where a stored line is published (``{"chat": line}`` table notices).
    :param matches: the match service's reads (who holds which seat; ``not_found``).
    :param limiter: the per-user chat budget (``settings.chat_rate_limit``).
    :param clock: the service clock (when a line was said).
    """

    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        hub: LocalHub,
        matches: MatchReads,
        limiter: RateLimiter,
        clock: Clock,
    ) -> None:
        self.sessionmaker, self.hub, self.matches, self.limiter, self.clock = (
            sessionmaker,
            hub,
            matches,
            limiter,
            clock,
        )

    async def say(self, match_id: int, user_id: int, phrase: str) -> dict[str, Any]:
        """Say ``phrase`` at match ``match_id`` as the seat ``user_id`` holds: stored, then sent to
        every viewer of the match.

        :returns: the line, ``{"id", "seat", "phrase", "at"}``.
        :raises DomainError: ``bad_message`` (``reason``: ``unknown_phrase``, ``field``:
            ``phrase``; ``phrases``: the codes allowed) for a phrase not in :data:`PHRASES`;
            ``not_found`` (no such match); ``forbidden`` (``reason``: ``players_only``) when the
            user holds no seat; ``rate_limited`` (``retry_after``: seconds) past the budget;
            ``busy``. Nothing is stored or sent when it raises.
        """
        if phrase not in PHRASES:
            raise DomainError(
                ErrorCode.BAD_MESSAGE,
                f"unknown chat phrase {phrase!r}",
                params={"reason": "unknown_phrase", "field": "phrase", "phrases": list(PHRASES)},
            )
        seat, _ = await self.matches.viewer_seat(match_id, user_id)
        if seat is None:
            raise DomainError(
                ErrorCode.FORBIDDEN, "only the players of a match may chat", params={"reason": "players_only"}
            )
        key = f"user:{user_id}"
        if not await self.limiter.ahit(key):
            wait = await self.limiter.aretry_after(key)
            raise DomainError(
                ErrorCode.RATE_LIMITED, "too many chat lines; wait a little", params={"retry_after": max(1, wait)}
            )
        try:
            async with self.sessionmaker() as session, session.begin():
                row = MatchChat(
                    match_id=match_id, seat=seat, user_id=user_id, phrase=phrase, created_at=self.clock.now()
                )
                session.add(row)
                await session.flush()
                line = line_view(row)
        except SQLAlchemyTimeoutError:
            raise busy("every database connection is in use") from None
        await self.hub.publish_table(match_id, {"chat": line})
        return line

    async def recent(self, match_id: int, after: int = 0, limit: int = CHAT_HISTORY) -> list[dict[str, Any]]:
        """The last ``limit`` lines of ``match_id`` with an ``id`` above ``after``, oldest first.

        :raises DomainError: ``busy``.
        """
        stmt = (
            select(MatchChat)
            .where(MatchChat.match_id == match_id, MatchChat.id > after)
            .order_by(MatchChat.id.desc())
            .limit(limit)
        )
        try:
            async with self.sessionmaker() as session:
                rows = (await session.execute(stmt)).scalars().all()
        except SQLAlchemyTimeoutError:
            raise busy("every database connection is in use") from None
        return [line_view(r) for r in reversed(rows)]
