"""What the tournament pages and ``/api/tournaments`` show (JSON-safe dicts; codes, never sentences).

:func:`list_tournaments`: ``{"upcoming": [T], "running": [T], "finished": [T]}`` where ``T`` is
``{"id", "name", "game", "format", "status", "starts_at", "rounds", "current_round", "players",
"max_players", "clan_id", "rated", "turn_seconds"}`` (times ISO 8601 UTC). Cancelled tournaments
are listed with the finished ones.

:func:`tournament_page`: ``T`` and ``"options"``, ``"organiser"`` (``{"id", "name"}``),
``"players"`` (``[{"user": {"id", "name"}, "status", "number", "place"}]``, by starting number,
then registration), ``"round_boards"`` (``[{"round", "started", "finished", "boards": [{"board",
"first", "second", "match_id", "result"}]}]``, ``second`` null for a bye), ``"standings"``
(``[{"place", "user", "number", "points", "buchholz", "sonneborn_berger", "direct", "games",
"wins", "draws", "losses"}]``, empty before the start) and ``"viewer"`` (``{"status", "can":
[...]}``, ``can`` among ``register``, ``check_in``, ``withdraw``, ``start``) or null for a visitor.
Nothing here is hidden information: pairings and results are public.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clans.models import ClanMember
from app.errors import DomainError, ErrorCode
from app.tournaments.models import (
    CANCELLED,
    CHECKED_IN,
    FINISHED,
    PLAYING,
    REGISTERED,
    REGISTERING,
    RUNNING,
    Tournament,
    TournamentBoard,
    TournamentPlayer,
    TournamentRound,
)
from app.tournaments.service import CHECKIN_OPENS, may_organise
from app.tournaments.table import Field, standings
from app.users.models import User

#: tournaments per list section
LIST_LIMIT = 50


def _iso(at: datetime | None) -> str | None:
    return at.isoformat() if at is not None else None


def _summary(t: Tournament, players: int) -> dict[str, Any]:
    return {
        "id": t.id,
        "name": t.name,
        "game": t.game,
        "format": t.format,
        "status": t.status,
        "starts_at": _iso(t.starts_at),
        "rounds": t.rounds,
        "current_round": t.current_round,
        "players": players,
        "max_players": t.max_players,
        "clan_id": t.clan_id,
        "rated": t.rated,
        "turn_seconds": t.options.get("turn_seconds"),
    }


async def list_tournaments(session: AsyncSession) -> dict[str, list[dict[str, Any]]]:
    """The tournament list: upcoming (soonest first), running, finished (latest first)."""
    counts = (
        select(TournamentPlayer.tournament_id, func.count().label("n"))
        .where(TournamentPlayer.status.not_in(("no_show",)))
        .group_by(TournamentPlayer.tournament_id)
        .subquery()
    )
    out: dict[str, list[dict[str, Any]]] = {}
    for key, statuses, order in (
        ("upcoming", (REGISTERING,), Tournament.starts_at.asc()),
        ("running", (RUNNING,), Tournament.starts_at.asc()),
        ("finished", (FINISHED, CANCELLED), Tournament.finished_at.desc()),
    ):
        rows = await session.execute(
            select(Tournament, func.coalesce(counts.c.n, 0))
            .outerjoin(counts, counts.c.tournament_id == Tournament.id)
            .where(Tournament.status.in_(statuses))
            .order_by(order, Tournament.id.desc())
            .limit(LIST_LIMIT)
        )
        out[key] = [_summary(t, n) for t, n in rows.all()]
    return out


async def tournament_page(
    session: AsyncSession, tournament_id: int, viewer_id: int | None, now: datetime
) -> dict[str, Any]:
    """One tournament as its page shows it (see the module docstring).

    :raises DomainError: ``not_found``.
    """
    t = await session.get(Tournament, tournament_id)
    if t is None:
        raise DomainError(ErrorCode.NOT_FOUND, "no such tournament", params={"tournament_id": tournament_id})
    players = list(
        (await session.execute(select(TournamentPlayer).where(TournamentPlayer.tournament_id == tournament_id)))
        .scalars()
        .all()
    )
    boards = list(
        (
            await session.execute(
                select(TournamentBoard)
                .where(TournamentBoard.tournament_id == tournament_id)
                .order_by(TournamentBoard.round, TournamentBoard.board)
            )
        )
        .scalars()
        .all()
    )
    rounds = {
        r.round: r
        for r in (await session.execute(select(TournamentRound).where(TournamentRound.tournament_id == tournament_id)))
        .scalars()
        .all()
    }
    ids = {p.user_id for p in players} | {t.created_by or 0}
    names = dict((await session.execute(select(User.id, User.name).where(User.id.in_(ids)))).all())

    def user(uid: int | None) -> dict[str, Any] | None:
        return {"id": uid, "name": names.get(uid, "?")} if uid is not None else None

    field = Field.of(players)
    table = standings(t, field, boards) if field.size else []
    page = _summary(t, sum(1 for p in players if p.status != "no_show"))
    page["options"] = {k: v for k, v in t.options.items() if k not in ("turn_seconds", "rated", "spectators")}
    page["organiser"] = user(t.created_by)
    page["finished_at"] = _iso(t.finished_at)
    page["players"] = [
        {"user": user(p.user_id), "status": p.status, "number": p.number, "place": p.place}
        for p in sorted(players, key=lambda p: (p.number is None, p.number or 0, p.registered_at))
    ]
    page["round_boards"] = [
        {
            "round": n,
            "started": rounds[n].started_at is not None if n in rounds else False,
            "finished": rounds[n].finished_at is not None if n in rounds else False,
            "boards": [
                {
                    "board": b.board,
                    "first": user(b.first_user_id),
                    "second": user(b.second_user_id),
                    "match_id": b.match_id,
                    "result": b.result,
                }
                for b in boards
                if b.round == n
            ],
        }
        for n in sorted({b.round for b in boards})
    ]
    page["standings"] = [
        {
            "place": s.place,
            "user": user(field.user_of[s.number]),
            "number": s.number,
            "points": s.points,
            "buchholz": s.buchholz,
            "sonneborn_berger": s.sonneborn_berger,
            "direct": s.direct,
            "games": s.games,
            "wins": s.wins,
            "draws": s.draws,
            "losses": s.losses,
        }
        for s in table
    ]
    page["checkin_opens_at"] = _iso(t.starts_at - CHECKIN_OPENS)
    page["viewer"] = await _viewer(session, t, players, viewer_id, now) if viewer_id is not None else None
    return page


async def _viewer(
    session: AsyncSession, t: Tournament, players: list[TournamentPlayer], viewer_id: int, now: datetime
) -> dict[str, Any]:
    mine = next((p for p in players if p.user_id == viewer_id), None)
    can: list[str] = []
    if t.status == REGISTERING:
        if mine is None:
            clan_ok = (
                t.clan_id is None
                or (await session.scalar(select(ClanMember.clan_id).where(ClanMember.user_id == viewer_id)))
                == t.clan_id
            )
            if clan_ok and sum(1 for _ in players) < t.max_players:
                can.append("register")
        else:
            if mine.status == REGISTERED and now >= t.starts_at - CHECKIN_OPENS:
                can.append("check_in")
            can.append("withdraw")
        admin = bool(await session.scalar(select(User.is_admin).where(User.id == viewer_id)))
        if t.created_by == viewer_id or admin:
            can.append("start")
    elif t.status == RUNNING and mine is not None and mine.status == PLAYING:
        can.append("withdraw")
    return {
        "status": mine.status if mine else None,
        "checked_in": mine is not None and mine.status in (CHECKED_IN, PLAYING),
        "can": can,
        "may_organise": await may_organise(session, viewer_id),
    }


async def may_create(session: AsyncSession, viewer_id: int | None) -> bool:
    """Whether the viewer sees the form to create a tournament."""
    return viewer_id is not None and await may_organise(session, viewer_id)
