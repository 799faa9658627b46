"""Clan ladders (issue 13, item 4): a clan's score in a month and the monthly standings, per region
and overall; the trophies of a month and of a clan. JSON-safe dicts, as :mod:`app.clans.reads`.

**Score.** A clan's score in a month (``"YYYY-MM"``, UTC) is the sum of its ``clan_points`` rows of
that month (won challenges, the previous month's trophy bonus, adjustments: :mod:`app.clans.points`)
plus the ladder points its players earned that month in every pool (``ladder_points`` rows whose
``season`` is the month: rated wins, :mod:`app.ratings`). The players counted are the clan's
players **now**, not those of the month: a player who joins brings their month's points with them,
one who leaves takes theirs away, and a past month's standings are read the same way (its trophies
stay as the close awarded them). Counting "who was a member on which day" would need a membership
history per day; the clan history has the joins and leaves but reading standings from it would
cost a replay per page.

**Order.** Best score first; a tie goes to the clan founded first (``clans.created_at``, then
``clans.id``), so places are never shared and the month close has one clan per place. Only clans
with a score above 0 are listed (a clan that earned nothing this month is not on the ladder yet);
disbanded clans are not listed.

**Cost.** One query per page: the clan points and the players' ladder points are each summed per
clan in a grouped subquery (``ix_clan_points_month_clan_id``; ``ix_ladder_points_season_user`` joined
from ``clan_members``), joined to ``clans`` with the month's trophies, and the total comes with the
rows (``count(*) over ()``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, func, or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.clans.ladder_models import ClanTrophy, LadderMonth
from app.clans.models import Clan, ClanMember, ClanPoints
from app.clans.months import previous_month
from app.clans.points import month_of
from app.clans.service import check_region
from app.db.base import utcnow
from app.ratings.models import LadderPoints

#: clans per page of a ladder
PAGE_ROWS = 50
#: months a ladder's month picker offers: this one and the 11 before
PICKER_MONTHS = 12


def _clan_ref(row: Any) -> dict[str, Any]:
    return {"id": row.id, "name": row.name, "tag": row.tag, "region": row.region, "colour": row.colour}


def _scored(month: str, region: str | None = None) -> Select[Any]:
    """Every clan (not disbanded; of ``region`` when given) with its points of ``month``: columns
    ``id, name, tag, region, colour, created_at, clan_points, member_points, score``."""
    cp = (
        select(ClanPoints.clan_id.label("clan_id"), func.sum(ClanPoints.points).label("pts"))
        .where(ClanPoints.month == month)
        .group_by(ClanPoints.clan_id)
        .subquery("cp")
    )
    lp = (
        select(ClanMember.clan_id.label("clan_id"), func.sum(LadderPoints.points).label("pts"))
        .join(LadderPoints, LadderPoints.user_id == ClanMember.user_id)
        .where(LadderPoints.season == month)
        .group_by(ClanMember.clan_id)
        .subquery("lp")
    )
    clan_points = func.coalesce(cp.c.pts, 0)
    member_points = func.coalesce(lp.c.pts, 0)
    stmt = (
        select(
            Clan.id,
            Clan.name,
            Clan.tag,
            Clan.region,
            Clan.colour,
            Clan.created_at,
            clan_points.label("clan_points"),
            member_points.label("member_points"),
            (clan_points + member_points).label("score"),
        )
        .outerjoin(cp, cp.c.clan_id == Clan.id)
        .outerjoin(lp, lp.c.clan_id == Clan.id)
        .where(Clan.disbanded_at.is_(None))
    )
    if region is not None:
        stmt = stmt.where(Clan.region == region)
    return stmt


def _ranked(month: str, region: str | None) -> tuple[Any, Select[Any]]:
    """:func:`_scored` limited to clans with a score above 0, as a subquery."""
    scored = _scored(month, region).subquery("scored")
    return scored, select(scored).where(scored.c.score > 0)


def _best_first(scored: Any) -> tuple[Any, ...]:
    return (scored.c.score.desc(), scored.c.created_at, scored.c.id)


async def podium(session: AsyncSession, month: str, region: str, places: int = 3) -> list[dict[str, Any]]:
    """The best ``places`` clans of ``region`` in ``month`` with a score above 0, best first:
    ``[{"clan": {"id", "name", "tag", "region", "colour"}, "score"}]`` (fewer when fewer scored)."""
    scored, stmt = _ranked(month, region)
    rows = (await session.execute(stmt.order_by(*_best_first(scored)).limit(places))).all()
    return [{"clan": _clan_ref(r), "score": int(r.score)} for r in rows]


def months_before(current: str, count: int = PICKER_MONTHS) -> list[str]:
    """``current`` and the ``count - 1`` months before it, newest first."""
    months = [current]
    while len(months) < count:
        months.append(previous_month(months[-1]))
    return months


async def closed_months(session: AsyncSession, months: list[str]) -> set[str]:
    """Which of ``months`` the month close has finished."""
    rows = await session.scalars(
        select(LadderMonth.month).where(LadderMonth.month.in_(months), LadderMonth.closed_at.is_not(None))
    )
    return set(rows)


async def standings(
    session: AsyncSession,
    month: str | None = None,
    region: str | None = None,
    page: int = 1,
    now: datetime | None = None,
) -> dict[str, Any]:
    """One page of a month's clan ladder, of one region or overall (see the module docstring).

    :param month: ``"YYYY-MM"``; None: this month (of ``now``, default the wall clock, UTC).
    :param region: a region code, or None for every region together.
    :param page: 1-based, :data:`PAGE_ROWS` a page; past the end gives no rows.
    :returns: ``{"month", "current", "region", "closed", "months": [{"month", "closed"}] (this month
        and the 11 before, newest first), "page", "pages", "per_page", "total", "rows": [{"place",
        "clan": {"id", "name", "tag", "region", "colour"}, "score", "clan_points", "member_points",
        "trophy": 1 | 2 | 3 | null}], "trophies": [trophy]}``; ``trophy`` in a row is the place the
        clan won in its region at this month's close (null before the close), ``trophies`` (as
        :func:`trophy_json`) every trophy of this month (of ``region``, or of every region), by
        region then place, whether or not the clan is still listed.
    :raises DomainError: ``validation_error`` (``field``: ``region``) for an unknown region.
    """
    if region is not None:
        check_region(region)
    current = month_of(now or utcnow())
    month = month or current
    scored, stmt = _ranked(month, region)
    won = (
        select(ClanTrophy.clan_id.label("clan_id"), func.min(ClanTrophy.place).label("place"))
        .where(ClanTrophy.month == month)
        .group_by(ClanTrophy.clan_id)
        .subquery("won")
    )
    offset = (page - 1) * PAGE_ROWS
    page_stmt = (
        select(scored, won.c.place.label("trophy"), func.count().over().label("total"))
        .select_from(scored)
        .outerjoin(won, won.c.clan_id == scored.c.id)
        .where(scored.c.score > 0)
        .order_by(*_best_first(scored))
        .limit(PAGE_ROWS)
        .offset(offset)
    )
    found = (await session.execute(page_stmt)).all()
    if found:
        total = int(found[0].total)
    else:
        total = int(await session.scalar(select(func.count()).select_from(stmt.subquery())) or 0)
    rows = [
        {
            "place": offset + i + 1,
            "clan": _clan_ref(r),
            "score": int(r.score),
            "clan_points": int(r.clan_points),
            "member_points": int(r.member_points),
            "trophy": r.trophy,
        }
        for i, r in enumerate(found)
    ]
    picker = months_before(current)
    closed = await closed_months(session, [*picker, month])
    return {
        "month": month,
        "current": current,
        "region": region,
        "closed": month in closed,
        "months": [{"month": m, "closed": m in closed} for m in picker],
        "page": page,
        "pages": max(1, -(-total // PAGE_ROWS)),
        "per_page": PAGE_ROWS,
        "total": total,
        "rows": rows,
        "trophies": await month_trophies(session, month, region),
    }


def trophy_json(trophy: ClanTrophy, clan: Clan) -> dict[str, Any]:
    """``{"clan": {"id", "name", "tag", "region", "colour"}, "region", "month", "place", "score",
    "bonus", "at"}`` (``region``: where the clan won it; ``bonus``: the clan points it brought)."""
    return {
        "clan": _clan_ref(clan),
        "region": trophy.region,
        "month": trophy.month,
        "place": trophy.place,
        "score": trophy.score,
        "bonus": trophy.bonus,
        "at": trophy.at.isoformat(),
    }


async def month_trophies(session: AsyncSession, month: str, region: str | None = None) -> list[dict[str, Any]]:
    """The trophies awarded for ``month`` (of ``region``, or all), by region then place."""
    stmt = select(ClanTrophy, Clan).join(Clan, Clan.id == ClanTrophy.clan_id).where(ClanTrophy.month == month)
    if region is not None:
        stmt = stmt.where(ClanTrophy.region == region)
    rows = await session.execute(stmt.order_by(ClanTrophy.region, ClanTrophy.place))
    return [trophy_json(t, c) for t, c in rows]


async def clan_trophies(session: AsyncSession, clan_id: int) -> list[dict[str, Any]]:
    """A clan's trophy cabinet: every trophy it won, latest month first (then gold first)."""
    stmt = (
        select(ClanTrophy, Clan)
        .join(Clan, Clan.id == ClanTrophy.clan_id)
        .where(ClanTrophy.clan_id == clan_id)
        .order_by(ClanTrophy.month.desc(), ClanTrophy.place)
    )
    return [trophy_json(t, c) for t, c in await session.execute(stmt)]


async def clan_standing(
    session: AsyncSession, clan_id: int, month: str | None = None, now: datetime | None = None
) -> dict[str, Any]:
    """A clan's score in ``month`` (default: this month) and its place on its region's ladder.

    :returns: ``{"month", "region", "score", "clan_points", "member_points", "place": int | null}``
        (``place`` null when the score is not above 0, or for a disbanded clan).
    """
    month = month or month_of(now or utcnow())
    scored = _scored(month).subquery("scored")
    mine = (await session.execute(select(scored).where(scored.c.id == clan_id))).first()
    if mine is None:
        region = await session.scalar(select(Clan.region).where(Clan.id == clan_id))
        return {"month": month, "region": region, "score": 0, "clan_points": 0, "member_points": 0, "place": None}
    place = None
    if mine.score > 0:
        ahead = or_(
            scored.c.score > mine.score,
            and_(
                scored.c.score == mine.score,
                or_(
                    scored.c.created_at < mine.created_at,
                    and_(scored.c.created_at == mine.created_at, scored.c.id < mine.id),
                ),
            ),
        )
        before = await session.scalar(
            select(func.count()).select_from(scored).where(scored.c.region == mine.region, scored.c.score > 0, ahead)
        )
        place = int(before or 0) + 1
    return {
        "month": month,
        "region": mine.region,
        "score": int(mine.score),
        "clan_points": int(mine.clan_points),
        "member_points": int(mine.member_points),
        "place": place,
    }
