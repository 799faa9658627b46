"""The reads behind the challenge page, the clan page's challenges section and their JSON twins.
JSON-safe dicts: times as ISO 8601 strings (UTC), players as ``{"id", "name"}``, clans as
``{"id", "tag", "name"}``; statuses, sides and results as codes (the templates say them in words).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clans.challenges.models import (
    OPEN_STATUSES,
    Challenge,
    ChallengeBoard,
    ChallengeStatus,
    Side,
    challenger_seat,
)
from app.clans.challenges.service import clan_ref
from app.clans.models import Clan, ClanMember, ClanPoints, Role
from app.clans.points import month_of
from app.errors import DomainError, ErrorCode
from app.matches.models import Match
from app.users.models import User

#: past challenges the clan page lists (the latest)
PAST_ROWS = 20
_OFFICERS = (Role.LEADER.value, Role.OFFICER.value)


def _iso(at: datetime | None) -> str | None:
    return at.isoformat() if at is not None else None


def _user(u: User | None) -> dict[str, Any] | None:
    return {"id": u.id, "name": u.name, "is_bot": u.is_bot} if u is not None else None


async def _users(session: AsyncSession, ids: set[int | None]) -> dict[int, User]:
    wanted = {i for i in ids if i is not None}
    if not wanted:
        return {}
    return {u.id: u for u in await session.scalars(select(User).where(User.id.in_(wanted)))}


async def _clan(session: AsyncSession, clan_id: int) -> Clan:
    clan = await session.get(Clan, clan_id)
    assert clan is not None  # a disbanded clan keeps its row
    return clan


def summary_json(ch: Challenge, clans: dict[int, Clan], live: dict[int, dict[Side, int]]) -> dict[str, Any]:
    """``{"id", "game", "boards", "status", "deadline", "created_at", "finished_at",
    "challenger": clan, "challenged": clan, "score": {"challenger", "challenged"}, "result"}``:
    one challenge in a list (``score`` counts the boards won so far; ``result`` is the
    challenger's once finished)."""
    wins = live.get(ch.id, {Side.CHALLENGER: 0, Side.CHALLENGED: 0})
    return {
        "id": ch.id,
        "game": ch.game,
        "boards": ch.boards,
        "status": ch.status,
        "deadline": _iso(ch.deadline),
        "created_at": _iso(ch.created_at),
        "finished_at": _iso(ch.finished_at),
        "challenger": clan_ref(clans[ch.challenger_id]),
        "challenged": clan_ref(clans[ch.challenged_id]),
        "score": {"challenger": wins[Side.CHALLENGER], "challenged": wins[Side.CHALLENGED]},
        "result": ch.result,
    }


async def _scores(session: AsyncSession, ids: list[int]) -> dict[int, dict[Side, int]]:
    """Boards won so far per side, per challenge."""
    out: dict[int, dict[Side, int]] = {i: {Side.CHALLENGER: 0, Side.CHALLENGED: 0} for i in ids}
    if not ids:
        return out
    rows = await session.execute(
        select(ChallengeBoard.challenge_id, ChallengeBoard.winner, func.count())
        .where(ChallengeBoard.challenge_id.in_(ids), ChallengeBoard.winner.in_([s.value for s in Side]))
        .group_by(ChallengeBoard.challenge_id, ChallengeBoard.winner)
    )
    for challenge_id, winner, n in rows:
        out[challenge_id][Side(str(winner))] = n
    return out


async def ladder_points(session: AsyncSession, clan_id: int, month: str) -> int:
    """The clan's ladder points in ``month`` (``"YYYY-MM"``): the sum of its ``clan_points`` rows."""
    total = await session.scalar(
        select(func.coalesce(func.sum(ClanPoints.points), 0)).where(
            ClanPoints.clan_id == clan_id, ClanPoints.month == month
        )
    )
    return int(total or 0)


async def clan_section(session: AsyncSession, clan_id: int, viewer_id: int | None, now: datetime) -> dict[str, Any]:
    """The clan page's challenges section.

    :returns: ``{"month", "ladder_points", "current": [summary], "past": [summary] (the latest
        20), "challenge_from": clan | null}``; ``challenge_from`` is the viewer's clan when they
        may challenge this one (its leader or an officer, of another clan).
    """
    involved = or_(Challenge.challenger_id == clan_id, Challenge.challenged_id == clan_id)
    current = list(
        await session.scalars(
            select(Challenge).where(involved, Challenge.status.in_(OPEN_STATUSES)).order_by(Challenge.id.desc())
        )
    )
    past = list(
        await session.scalars(
            select(Challenge)
            .where(involved, Challenge.status.not_in(OPEN_STATUSES))
            .order_by(Challenge.id.desc())
            .limit(PAST_ROWS)
        )
    )
    clan_ids = {clan_id} | {c for ch in current + past for c in (ch.challenger_id, ch.challenged_id)}
    clans = {c.id: c for c in await session.scalars(select(Clan).where(Clan.id.in_(clan_ids)))}
    live = await _scores(session, [ch.id for ch in current + past])
    challenge_from = None
    if viewer_id is not None:
        member = await session.scalar(select(ClanMember).where(ClanMember.user_id == viewer_id))
        if member is not None and member.clan_id != clan_id and member.role in _OFFICERS:
            challenge_from = clan_ref(await _clan(session, member.clan_id))
    month = month_of(now)
    return {
        "month": month,
        "ladder_points": await ladder_points(session, clan_id, month),
        "current": [summary_json(ch, clans, live) for ch in current],
        "past": [summary_json(ch, clans, live) for ch in past],
        "challenge_from": challenge_from,
    }


async def clan_challenges(session: AsyncSession, tag: str, viewer_id: int | None, now: datetime) -> dict[str, Any]:
    """:func:`clan_section` of the clan ``tag``, with the clan: ``{"clan": clan, ...}``.

    :raises DomainError: ``not_found`` (``tag``), also for a disbanded clan.
    """
    clan = await session.scalar(select(Clan).where(Clan.tag_key == tag.lower()))
    if clan is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"there is no clan {tag[:20]!r}", params={"tag": tag[:20]})
    return {"clan": clan_ref(clan), **await clan_section(session, clan.id, viewer_id, now)}


def _allowed(
    ch: Challenge, boards: list[ChallengeBoard], side: Side | None, role: str | None, now: datetime
) -> list[str]:
    """What the viewer may do on the challenge page (the same rules as the service)."""
    if side is None:
        return []
    officer = role in _OFFICERS
    can = []
    if ch.status == ChallengeStatus.PROPOSED.value and officer:
        if side is Side.CHALLENGED and now < ch.deadline:
            can += ["accept", "decline"]
        if side is Side.CHALLENGER:
            can.append("withdraw")
    if ch.status == ChallengeStatus.ACCEPTED.value and now < ch.deadline:
        open_boards = [b for b in boards if b.challenger_player_id is None or b.challenged_player_id is None]
        if any(b.player(side) is None for b in open_boards):
            can.append("sign_up")
        if officer and open_boards:
            can.append("name")
    return can


async def challenge_page(
    session: AsyncSession, challenge_id: int, viewer_id: int | None, now: datetime
) -> dict[str, Any]:
    """Everything the challenge page shows.

    :returns: ``{"challenge": summary + {"options", "answered_at", "created_by": user | null},
        "boards": [{"board", "seats": {"challenger": 0 | 1, "challenged": 0 | 1}, "challenger":
        user | null, "challenged": user | null, "match": {"id", "status"} | null, "winner",
        "forfeit"}], "viewer": {"side": str | null, "role": str | null, "can": [str],
        "members": [user]} | null}``; ``members`` are the players the viewer may name (their
        clan's, when they may name players).
    :raises DomainError: ``not_found`` (``reason`` ``challenge``).
    """
    ch = await session.get(Challenge, challenge_id, populate_existing=True)
    if ch is None:
        raise DomainError(
            ErrorCode.NOT_FOUND,
            f"there is no challenge {challenge_id}",
            params={"reason": "challenge", "challenge_id": challenge_id},
        )
    boards = list(
        await session.scalars(
            select(ChallengeBoard).where(ChallengeBoard.challenge_id == ch.id).order_by(ChallengeBoard.board)
        )
    )
    clans = {
        ch.challenger_id: await _clan(session, ch.challenger_id),
        ch.challenged_id: await _clan(session, ch.challenged_id),
    }
    users = await _users(
        session,
        {ch.created_by} | {b.challenger_player_id for b in boards} | {b.challenged_player_id for b in boards},
    )
    match_ids = [b.match_id for b in boards if b.match_id is not None]
    statuses = dict((await session.execute(select(Match.id, Match.status).where(Match.id.in_(match_ids)))).all())
    live = {ch.id: {side: sum(1 for b in boards if b.winner == side.value) for side in Side}}
    board_rows = [
        {
            "board": b.board,
            "seats": {"challenger": challenger_seat(b.board), "challenged": 1 - challenger_seat(b.board)},
            "challenger": _user(users.get(b.challenger_player_id or 0)),
            "challenged": _user(users.get(b.challenged_player_id or 0)),
            "match": {"id": b.match_id, "status": statuses.get(b.match_id)} if b.match_id is not None else None,
            "winner": b.winner,
            "forfeit": b.forfeit,
        }
        for b in boards
    ]
    viewer = None
    if viewer_id is not None:
        member = await session.scalar(select(ClanMember).where(ClanMember.user_id == viewer_id))
        side = None
        if member is not None:
            side = next(
                (
                    s
                    for s, cid in ((Side.CHALLENGER, ch.challenger_id), (Side.CHALLENGED, ch.challenged_id))
                    if cid == member.clan_id
                ),
                None,
            )
        role = member.role if side is not None and member is not None else None
        can = _allowed(ch, boards, side, role, now)
        members: list[dict[str, Any]] = []
        if "name" in can and member is not None:
            rows = await session.scalars(
                select(User)
                .join(ClanMember, ClanMember.user_id == User.id)
                .where(ClanMember.clan_id == member.clan_id)
                .order_by(User.name_key)
            )
            members = [u for u in (_user(r) for r in rows) if u is not None]
        viewer = {"side": side.value if side else None, "role": role, "can": can, "members": members}
    summary = summary_json(ch, clans, live)
    summary.update(
        {
            "options": ch.options,
            "answered_at": _iso(ch.answered_at),
            "created_by": _user(users.get(ch.created_by or 0)),
        }
    )
    return {"challenge": summary, "boards": board_rows, "viewer": viewer}
