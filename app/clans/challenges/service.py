"""Clan challenges (issue 13, item 3): every change a player makes to a challenge, each checked on
the server, each in one transaction that also writes a ``clan_history`` row in both clans.

Like :mod:`app.clans.service`, every function takes an open session (it commits on success and
rolls back on any error, so a refused request changes nothing), the acting player's id
(``actor``), and ``now``. Who may do what (roles are checked by the clans service's ``_role_in``,
so whatever it lets through, an administrator included once it does, is let through here):

================================  ============================================================
propose (another clan, a game     the challenger clan's leader or an officer
and its options, boards, deadline)
accept / decline                  the challenged clan's leader or an officer, while proposed and
                                  before the deadline
withdraw                          the challenger clan's leader or an officer, while proposed
name a player for a board         that side's leader or an officer; the player must be in that
                                  clan; while accepted, before the deadline, and only until both
                                  players of the board are named (then its match starts)
sign up for a board               a player of either clan, for their own clan's empty seat
================================  ============================================================

A player may play several boards of one series (a small clan could not field a long series
otherwise). Once both players of a board are named, its match is created at once
(:mod:`app.clans.challenges.matches`); the boards' results come from their matches
(:mod:`app.clans.challenges.results`) and the deadline forfeits what was not played
(:mod:`app.clans.challenges.deadlines`).

Errors (:class:`app.errors.DomainError`): ``not_found`` (``tag``; ``reason`` ``challenge`` with
``challenge_id``, ``board`` with ``board``, ``member`` with ``name``: that player is not in the
side's clan), ``forbidden`` (``not_member``, ``not_officer``), ``conflict`` (``reason``:
``same_clan``, ``too_many_challenges`` with ``limit``, ``not_proposed``, ``not_accepted``,
``deadline_passed``, ``board_started``, ``seat_taken``), ``bad_options`` (``reason``: the match
service's own check of the game and its options, :meth:`~app.matches.service.MatchService.
check_options`, two seats included; ``untimed``: a challenge's boards must be timed, by a time bank or a turn clock),
``validation_error`` (``field``: ``boards`` or ``deadline``).

Concurrency: a proposal locks both clans' rows (in the order of their tags, so two proposals
between the same clans never wait on each other in opposite orders), so the limit of open
challenges between two clans holds; every other change locks the challenge's row (PostgreSQL
``SELECT ... FOR UPDATE``; SQLite's one write lock), as the result consumer and the deadline job
do.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.clans.challenges.models import (
    MAX_BOARDS,
    MIN_BOARDS,
    OPEN_STATUSES,
    Challenge,
    ChallengeBoard,
    ChallengeStatus,
    Side,
)
from app.clans.models import Clan, ClanHistory, Role
from app.clans.service import _bad, _conflict, _role_in, _transaction, lock_clan, membership
from app.db.base import utcnow
from app.errors import DomainError, ErrorCode
from app.matches.time_control import TimeControl
from app.users.models import User
from app.users.names import name_key

#: how soon and how late a challenge's deadline may be
MIN_DEADLINE = timedelta(hours=1)
MAX_DEADLINE = timedelta(days=30)
#: seats of every board (two players, one per clan)
SEATS = 2


class OptionsCheck(Protocol):
    """What checks a board's match options: :meth:`app.matches.service.MatchService.check_options`."""

    def check_options(
        self, game: str, options: Mapping[str, Any] | None, *, players: int | None = None, has_bots: bool = False
    ) -> tuple[int, dict[str, Any]]: ...


def clan_ref(clan: Clan) -> dict[str, Any]:
    """``{"id", "tag", "name"}`` of a clan, as history rows and reads name it."""
    return {"id": clan.id, "tag": clan.tag, "name": clan.name}


def _bad_options(reason: str, message: str) -> DomainError:
    """The ``bad_options`` error whose ``params`` are ``{"reason": reason}``."""
    return DomainError(ErrorCode.BAD_OPTIONS, message, params={"reason": reason})


def _is_sqlite(session: AsyncSession) -> bool:
    return session.get_bind().dialect.name == "sqlite"


async def lock_challenge(session: AsyncSession, challenge_id: int, *, skip_locked: bool = False) -> Challenge | None:
    """Challenge ``challenge_id`` read fresh, its row locked until the transaction ends
    (PostgreSQL ``FOR UPDATE``, ``SKIP LOCKED`` when ``skip_locked``; SQLite: a no-op ``UPDATE``
    that takes the write lock). None when there is no such challenge (or, with ``skip_locked``,
    another transaction holds it)."""
    stmt = select(Challenge).where(Challenge.id == challenge_id)
    if _is_sqlite(session):
        await session.execute(update(Challenge).where(Challenge.id == challenge_id).values(id=Challenge.id))
    else:
        stmt = stmt.with_for_update(skip_locked=skip_locked)
    return await session.scalar(stmt.execution_options(populate_existing=True))


async def _challenge(session: AsyncSession, challenge_id: int) -> Challenge:
    ch = await lock_challenge(session, challenge_id)
    if ch is None:
        raise DomainError(
            ErrorCode.NOT_FOUND,
            f"there is no challenge {challenge_id}",
            params={"reason": "challenge", "challenge_id": challenge_id},
        )
    return ch


async def clans_of(session: AsyncSession, ch: Challenge) -> dict[Side, Clan]:
    """Both clans of ``ch`` (read fresh; a disbanded clan's row is kept), by side."""
    challenger = await session.get(Clan, ch.challenger_id, populate_existing=True)
    challenged = await session.get(Clan, ch.challenged_id, populate_existing=True)
    assert challenger is not None and challenged is not None  # rows are kept when disbanded
    return {Side.CHALLENGER: challenger, Side.CHALLENGED: challenged}


async def boards_of(session: AsyncSession, challenge_id: int) -> list[ChallengeBoard]:
    """The challenge's boards, by number, read fresh."""
    stmt = (
        select(ChallengeBoard)
        .where(ChallengeBoard.challenge_id == challenge_id)
        .order_by(ChallengeBoard.board)
        .execution_options(populate_existing=True)
    )
    return list(await session.scalars(stmt))


def history_both(
    session: AsyncSession,
    ch: Challenge,
    clans: Mapping[Side, Clan],
    actor: int | None,
    code: str,
    now: datetime,
    per_side: Mapping[Side, Mapping[str, Any]] | None = None,
    **params: Any,
) -> None:
    """A ``clan_history`` row ``code`` in each clan of ``ch``: ``params`` with ``challenge`` (id),
    ``clan`` (the other clan) and ``side`` (this clan's), and ``per_side[side]`` for that clan."""
    for side, clan in clans.items():
        extra = dict(per_side[side]) if per_side else {}
        row = {"challenge": ch.id, "clan": clan_ref(clans[side.other]), "side": side.value, **params, **extra}
        session.add(ClanHistory(clan_id=clan.id, actor_id=actor, code=code, params=row, at=now))


@_transaction
async def propose(
    session: AsyncSession,
    actor: int,
    tag: str,
    *,
    opponent: str,
    game: str,
    options: Mapping[str, Any],
    boards: int,
    deadline: datetime,
    checker: OptionsCheck,
    open_limit: int,
    now: datetime | None = None,
) -> Challenge:
    """The clan ``tag`` challenges the clan ``opponent`` (a tag) to ``boards`` matches of ``game``.

    :param options: the boards' match options (``turn_seconds`` > 0, ``rated``, ``spectators``,
        the game's own), checked by ``checker`` as the match service checks a new match's, for two
        seats; stored normalised.
    :param deadline: when unplayed boards are forfeited (at least an hour, at most 30 days ahead);
        until then the other clan may answer.
    :param open_limit: open (proposed or accepted) challenges the two clans may have between them.
    :returns: the new challenge (status ``proposed``), with its boards.
    :raises DomainError: ``not_found`` (``tag``), ``forbidden`` (``not_member``,
        ``not_officer``), ``conflict`` (``same_clan``, ``too_many_challenges``), ``bad_options``,
        ``validation_error`` (``boards``, ``deadline``).
    """
    now = now or utcnow()
    first, second = sorted([tag.lower(), opponent.lower()])
    locked = {first: await lock_clan(session, first)}
    if second != first:
        locked[second] = await lock_clan(session, second)
    challenger, challenged = locked[tag.lower()], locked[opponent.lower()]
    await _role_in(session, challenger, actor, Role.LEADER, Role.OFFICER)
    if challenger.id == challenged.id:
        raise _conflict("same_clan", "a clan cannot challenge itself")
    if not MIN_BOARDS <= boards <= MAX_BOARDS:
        raise _bad("boards", f"a series has {MIN_BOARDS} to {MAX_BOARDS} boards")
    if not now + MIN_DEADLINE <= deadline <= now + MAX_DEADLINE:
        raise _bad("deadline", "the deadline is one hour to 30 days ahead")
    _players, opts = checker.check_options(game, options, players=SEATS)
    if not TimeControl.of(opts).timed:
        raise _bad_options(
            "untimed", "a challenge's boards are timed (a time bank, or turn_seconds > 0), so every board ends"
        )
    pair = or_(
        (Challenge.challenger_id == challenger.id) & (Challenge.challenged_id == challenged.id),
        (Challenge.challenger_id == challenged.id) & (Challenge.challenged_id == challenger.id),
    )
    open_count = await session.scalar(
        select(func.count()).select_from(Challenge).where(pair, Challenge.status.in_(OPEN_STATUSES))
    )
    if (open_count or 0) >= open_limit:
        raise _conflict(
            "too_many_challenges", f"{open_count} challenges are open between these clans", limit=open_limit
        )
    ch = Challenge(
        challenger_id=challenger.id,
        challenged_id=challenged.id,
        game=game,
        options=opts,
        boards=boards,
        deadline=deadline,
        status=ChallengeStatus.PROPOSED.value,
        created_by=actor,
        created_at=now,
    )
    session.add(ch)
    await session.flush()
    session.add_all(ChallengeBoard(challenge_id=ch.id, board=k) for k in range(1, boards + 1))
    clans = {Side.CHALLENGER: challenger, Side.CHALLENGED: challenged}
    history_both(session, ch, clans, actor, "challenge_proposed", now, game=game, boards=boards)
    await session.flush()
    return ch


def _must_be(ch: Challenge, status: ChallengeStatus, reason: str) -> None:
    if ch.status != status.value:
        raise _conflict(reason, f"the challenge is {ch.status}", status=ch.status)


def _before_deadline(ch: Challenge, now: datetime) -> None:
    if now >= ch.deadline:
        raise _conflict("deadline_passed", "the challenge's deadline has passed")


@_transaction
async def answer(
    session: AsyncSession, actor: int, challenge_id: int, *, accept: bool, now: datetime | None = None
) -> Challenge:
    """Accept (``accept``) or decline a proposed challenge, for the challenged clan.

    :raises DomainError: ``not_found`` (``challenge``), ``forbidden`` (``not_member``,
        ``not_officer``), ``conflict`` (``not_proposed``, ``deadline_passed``).
    """
    now = now or utcnow()
    ch = await _challenge(session, challenge_id)
    clans = await clans_of(session, ch)
    await _role_in(session, clans[Side.CHALLENGED], actor, Role.LEADER, Role.OFFICER)
    _must_be(ch, ChallengeStatus.PROPOSED, "not_proposed")
    _before_deadline(ch, now)
    ch.status = (ChallengeStatus.ACCEPTED if accept else ChallengeStatus.DECLINED).value
    ch.answered_at = now
    history_both(session, ch, clans, actor, "challenge_accepted" if accept else "challenge_declined", now)
    return ch


@_transaction
async def withdraw(session: AsyncSession, actor: int, challenge_id: int, *, now: datetime | None = None) -> Challenge:
    """Withdraw a challenge the other clan has not answered yet (the challenger clan).

    :raises DomainError: ``not_found`` (``challenge``), ``forbidden`` (``not_member``,
        ``not_officer``), ``conflict`` (``not_proposed``).
    """
    now = now or utcnow()
    ch = await _challenge(session, challenge_id)
    clans = await clans_of(session, ch)
    await _role_in(session, clans[Side.CHALLENGER], actor, Role.LEADER, Role.OFFICER)
    _must_be(ch, ChallengeStatus.PROPOSED, "not_proposed")
    ch.status = ChallengeStatus.WITHDRAWN.value
    ch.answered_at = now
    history_both(session, ch, clans, actor, "challenge_withdrawn", now)
    return ch


async def _open_board(session: AsyncSession, ch: Challenge, board: int, now: datetime) -> ChallengeBoard:
    """Board ``board`` of an accepted challenge before its deadline, whose players may still be named."""
    _must_be(ch, ChallengeStatus.ACCEPTED, "not_accepted")
    _before_deadline(ch, now)
    row = await session.scalar(
        select(ChallengeBoard)
        .where(ChallengeBoard.challenge_id == ch.id, ChallengeBoard.board == board)
        .execution_options(populate_existing=True)
    )
    if row is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"there is no board {board}", params={"reason": "board", "board": board})
    if row.challenger_player_id is not None and row.challenged_player_id is not None:
        raise _conflict("board_started", "both players of this board are named; its match has started", board=board)
    return row


@_transaction
async def name_player(
    session: AsyncSession,
    actor: int,
    challenge_id: int,
    board: int,
    *,
    side: Side,
    player: str,
    now: datetime | None = None,
) -> ChallengeBoard:
    """Name the player called ``player`` (any case; a player of ``side``'s clan) for ``side`` on
    ``board``, replacing an earlier choice while the other side's player is not named yet.

    :returns: the board (both players named: its match is to be started,
        :func:`app.clans.challenges.matches.start_boards`).
    :raises DomainError: ``not_found`` (``challenge``, ``board``, ``member`` with ``name``),
        ``forbidden`` (``not_member``, ``not_officer``), ``conflict`` (``not_accepted``,
        ``deadline_passed``, ``board_started``).
    """
    now = now or utcnow()
    ch = await _challenge(session, challenge_id)
    clans = await clans_of(session, ch)
    await _role_in(session, clans[side], actor, Role.LEADER, Role.OFFICER)
    row = await _open_board(session, ch, board, now)
    user = await session.scalar(select(User).where(User.name_key == name_key(player)))
    member = await membership(session, user.id) if user is not None else None
    if user is None or member is None or member.clan_id != clans[side].id:
        raise DomainError(
            ErrorCode.NOT_FOUND,
            f"{player[:40]!r} is not a player of this clan",
            params={"reason": "member", "name": player[:40]},
        )
    _place(session, ch, clans, row, side, user, actor, now)
    return row


@_transaction
async def sign_up(
    session: AsyncSession, actor: int, challenge_id: int, board: int, *, now: datetime | None = None
) -> ChallengeBoard:
    """Sign up to play ``board`` for one's own clan, whose seat on it nobody holds yet.

    :raises DomainError: ``not_found`` (``challenge``, ``board``), ``forbidden``
        (``not_member``: in neither clan), ``conflict`` (``not_accepted``, ``deadline_passed``,
        ``board_started``, ``seat_taken``).
    """
    now = now or utcnow()
    ch = await _challenge(session, challenge_id)
    clans = await clans_of(session, ch)
    member = await membership(session, actor)
    side = next((s for s, c in clans.items() if member is not None and member.clan_id == c.id), None)
    if side is None:
        raise DomainError(ErrorCode.FORBIDDEN, "you are in neither clan", params={"reason": "not_member"})
    row = await _open_board(session, ch, board, now)
    if row.player(side) is not None:
        raise _conflict("seat_taken", "your clan has named a player for this board", board=board)
    user = await session.get(User, actor)
    assert user is not None
    _place(session, ch, clans, row, side, user, actor, now)
    return row


def _place(
    session: AsyncSession,
    ch: Challenge,
    clans: Mapping[Side, Clan],
    row: ChallengeBoard,
    side: Side,
    user: User,
    actor: int,
    now: datetime,
) -> None:
    """Seat ``user`` for ``side`` on ``row`` and say so in both clans' histories."""
    row.set_player(side, user.id)
    history_both(
        session,
        ch,
        clans,
        actor,
        "challenge_player",
        now,
        board=row.board,
        user={"id": user.id, "name": user.name},
        player_side=side.value,
    )
