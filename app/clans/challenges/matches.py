"""Starting a challenge board's match (issue 13, item 3) once both its players are named.

The match is the match service's own (:meth:`MatchService.create_match` with origin ``challenge``
and ``origin_ref`` ``"<challenge id>:<board>"``, then :meth:`MatchService.join` for each player in
seat order, :func:`app.clans.challenges.models.challenger_seat`), so it is created, started,
timed, rated and ended like any match. It is rated when the challenge's ``rated`` option is on
and both players are people (no bot account), as a rated lobby match between them would be.

The service's transactions are its own, so starting a board takes several commits; each step can
be repeated, and a process that dies between them leaves a state the next pass finishes:

1. take the board's lease (``starting_until``; a conditional ``UPDATE``, so one starter at a
   time, across processes);
2. find the board's match by its ``origin_ref`` (one that a dead starter created), else create it;
3. seat each player who holds no seat yet, in seat order (``already_joined`` means done);
4. link the match to the board (only if no match is linked yet) and end the lease.

:func:`start_boards` is called right after a change that completes a board (the routes), and by the
deadline job's every pass (:mod:`app.clans.challenges.deadlines`) for boards whose start was cut
short (their lease ended).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clans.challenges.models import Challenge, ChallengeBoard, ChallengeStatus, challenger_seat
from app.errors import DomainError
from app.logging import get_logger
from app.matches.models import ABORTED, CHALLENGE, Match
from app.matches.service import MatchService
from app.users.models import User

log = get_logger(__name__)

#: how long one starter holds a board before another may finish its start
LEASE = timedelta(seconds=60)


def board_ref(challenge_id: int, board: int) -> str:
    """The ``matches.origin_ref`` of a challenge board's match: ``"<challenge id>:<board>"``."""
    return f"{challenge_id}:{board}"


def parse_ref(ref: str | None) -> tuple[int, int] | None:
    """``(challenge id, board)`` from a board's ``origin_ref``; None when it is not one."""
    try:
        challenge_id, board = (ref or "").split(":")
        return int(challenge_id), int(board)
    except ValueError:
        return None


async def start_boards(
    sessionmaker: async_sessionmaker[AsyncSession],
    matches: MatchService,
    *,
    challenge_id: int | None = None,
    now: datetime | None = None,
) -> list[int]:
    """Start the match of every board (of ``challenge_id``, or of every accepted challenge) whose
    two players are named and which has no match yet and no lease running.

    A failure on one board is logged and left to a later pass; the others go on.

    :returns: the ids of the matches linked to boards by this call.
    """
    now = now or matches.clock.now()
    stmt = (
        select(ChallengeBoard.id)
        .join(Challenge, Challenge.id == ChallengeBoard.challenge_id)
        .where(
            Challenge.status == ChallengeStatus.ACCEPTED.value,
            ChallengeBoard.match_id.is_(None),
            ChallengeBoard.winner.is_(None),
            ChallengeBoard.challenger_player_id.is_not(None),
            ChallengeBoard.challenged_player_id.is_not(None),
            or_(ChallengeBoard.starting_until.is_(None), ChallengeBoard.starting_until < now),
        )
        .order_by(ChallengeBoard.id)
        .limit(100)
    )
    if challenge_id is not None:
        stmt = stmt.where(Challenge.id == challenge_id)
    async with sessionmaker() as session:
        ids = list(await session.scalars(stmt))
    started = []
    for board_id in ids:
        try:
            match_id = await _start_one(sessionmaker, matches, board_id, now)
        except Exception:  # the lease ends, and a later pass tries again
            log.exception("starting a challenge board failed", board_id=board_id)
            continue
        if match_id is not None:
            started.append(match_id)
    return started


async def _start_one(
    sessionmaker: async_sessionmaker[AsyncSession], matches: MatchService, board_id: int, now: datetime
) -> int | None:
    async with sessionmaker() as session, session.begin():
        taken = await session.execute(
            update(ChallengeBoard)
            .where(
                ChallengeBoard.id == board_id,
                ChallengeBoard.match_id.is_(None),
                ChallengeBoard.winner.is_(None),
                or_(ChallengeBoard.starting_until.is_(None), ChallengeBoard.starting_until < now),
            )
            .values(starting_until=now + LEASE)
        )
        if taken.rowcount != 1:  # type: ignore[attr-defined]
            return None  # another starter holds it, or it is started or decided
        row = await session.get(ChallengeBoard, board_id)
        assert row is not None
        ch = await session.get(Challenge, row.challenge_id)
        assert ch is not None and row.challenger_player_id is not None and row.challenged_player_id is not None
        first = challenger_seat(row.board)
        by_seat = [row.challenger_player_id, row.challenged_player_id]
        if first == 1:
            by_seat.reverse()
        bots = set(await session.scalars(select(User.id).where(User.id.in_(by_seat), User.is_bot.is_(True))))
        ref = board_ref(ch.id, row.board)
        game, options = ch.game, {**ch.options, "rated": bool(ch.options.get("rated")) and not bots}
    async with sessionmaker() as session:
        match_id = await session.scalar(
            select(Match.id)
            .where(Match.origin == CHALLENGE, Match.origin_ref == ref, Match.status != ABORTED)
            .order_by(Match.id)
            .limit(1)
        )
    if match_id is None:
        info = await matches.create_match(None, game, options, players=2, origin=CHALLENGE, origin_ref=ref)
        match_id = int(info["id"])
    for user_id in by_seat:
        try:
            await matches.join(match_id, user_id)
        except DomainError as exc:
            if exc.code not in ("already_joined", "not_waiting"):
                raise
    async with sessionmaker() as session, session.begin():
        await session.execute(
            update(ChallengeBoard)
            .where(ChallengeBoard.id == board_id, ChallengeBoard.match_id.is_(None))
            .values(match_id=match_id, starting_until=None)
        )
    log.info("challenge_board_started", board_id=board_id, match_id=match_id)
    return match_id
