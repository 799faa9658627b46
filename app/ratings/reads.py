"""The reads behind the ladder and profile pages and their JSON twins (issue 12, items 4 and 5).

Every function takes an open session and returns JSON-safe dicts (times as ISO 8601 strings, UTC).
They are the "real query code" the large-database timings measure (``scripts/seed_ratings.py``,
docs/performance.md): each is a few index range scans, whatever the number of players and matches.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import and_, case, func, or_, select, union_all
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.errors import DomainError, ErrorCode
from app.matches.models import Match, MatchResult
from app.ratings.apply import season_of
from app.ratings.models import LadderPoints, PlayerRecord, Rating, RatingChange, RatingPool
from app.ratings.pools import Pool, all_pools, get_pool, pool_of
from app.ratings.skill import SCALE, is_provisional
from app.users.models import User
from app.users.security import name_key

#: rows of a ladder page
PAGE_ROWS = 50
#: a profile's recent matches
RECENT_MATCHES = 20
#: points of a rating-history chart per pool (the latest ones)
HISTORY_POINTS = 200


def _iso(at: datetime | None) -> str | None:
    return at.isoformat() if at is not None else None


def pool_json(pool: Pool) -> dict[str, Any]:
    """``{"key", "game", "part"}``: the pages name the pool from the game and its part."""
    return {"key": pool.key, "game": pool.game, "part": dict(pool.part)}


def require_pool(key: str) -> Pool:
    """The pool ``key``. :raises DomainError: ``not_found`` (``params``: ``{"pool"}``)."""
    pool = get_pool(key)
    if pool is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"there is no rating pool {key!r}", params={"pool": key[:60]})
    return pool


def _rating_json(mu: float, sigma: float, rating: int) -> dict[str, Any]:
    return {"rating": rating, "deviation": round(SCALE * sigma), "provisional": is_provisional(sigma)}


async def ladder(
    session: AsyncSession,
    key: str,
    page: int = 1,
    viewer_id: int | None = None,
    now: datetime | None = None,
    *,
    find_viewer: bool = False,
) -> dict[str, Any]:
    """One page of a pool's ladder, best rating first (ties: the later account first).

    :param page: 1-based; a page past the end has no rows.
    :param find_viewer: show the page the viewer is on instead of ``page`` (their rank is counted:
        a scan of the index up to their place, so it is asked for, not done for every page).
    :returns: ``{"pool", "season", "page", "pages", "per_page", "total", "rows": [row], "viewer": row
        | null}``, a row being ``{"rank", "user": {"id", "name"}, "rating", "deviation",
        "provisional", "games", "wins", "losses", "draws", "last_played_at", "season_points"}``;
        ``viewer`` is the viewer's own row when they are rated in the pool (its ``rank`` is null
        when it is not on the page and ``find_viewer`` was not asked).
    :raises DomainError: ``not_found`` for an unknown pool.
    """
    pool = require_pool(key)
    season = season_of(now or datetime.now().astimezone())
    total = int(await session.scalar(select(RatingPool.players).where(RatingPool.pool == pool.key)) or 0)
    viewer = None
    if viewer_id is not None:
        stmt = _row_select(pool.key, season).where(Rating.pool == pool.key, Rating.user_id == viewer_id)
        if find_viewer:  # the rows ahead of the viewer, counted on the index
            ahead = aliased(Rating)
            rank = (
                select(func.count() + 1)
                .select_from(ahead)
                .where(
                    ahead.pool == pool.key,
                    or_(
                        ahead.rating > Rating.rating,
                        and_(ahead.rating == Rating.rating, ahead.user_id > Rating.user_id),
                    ),
                )
                .scalar_subquery()
            )
            stmt = stmt.add_columns(rank.label("rank"))
        found = (await session.execute(stmt)).first()
        if found is not None:
            viewer = _row(found, int(found.rank) if find_viewer else None)
            if find_viewer:
                page = (int(found.rank) - 1) // PAGE_ROWS + 1
    offset = (page - 1) * PAGE_ROWS
    # the page's players first, from the index (pool, rating, user_id) alone; then their rows
    page_ids = (
        select(Rating.user_id.label("uid"))
        .where(Rating.pool == pool.key)
        .order_by(Rating.rating.desc(), Rating.user_id.desc())
        .offset(offset)
        .limit(PAGE_ROWS)
        .subquery()
    )
    stmt = (
        _row_select(pool.key, season)
        .join(page_ids, page_ids.c.uid == Rating.user_id)
        .where(Rating.pool == pool.key)
        .order_by(Rating.rating.desc(), Rating.user_id.desc())
    )
    rows = [_row(r, offset + i + 1) for i, r in enumerate((await session.execute(stmt)).all())]
    viewer = next((r for r in rows if r["user"]["id"] == viewer_id), viewer)
    return {
        "pool": pool_json(pool),
        "season": season,
        "page": page,
        "pages": max(1, -(-total // PAGE_ROWS)),
        "per_page": PAGE_ROWS,
        "total": total,
        "rows": rows,
        "viewer": viewer,
    }


def _row_select(pool: str, season: str) -> Any:
    return (
        select(
            Rating.user_id,
            User.name,
            Rating.mu,
            Rating.sigma,
            Rating.rating,
            Rating.games,
            Rating.wins,
            Rating.losses,
            Rating.draws,
            Rating.last_played_at,
            func.coalesce(LadderPoints.points, 0).label("season_points"),
        )
        .join(User, User.id == Rating.user_id)
        .outerjoin(
            LadderPoints,
            and_(LadderPoints.pool == pool, LadderPoints.season == season, LadderPoints.user_id == Rating.user_id),
        )
    )


def _row(r: Any, rank: int | None) -> dict[str, Any]:
    return {
        "rank": rank,
        "user": {"id": r.user_id, "name": r.name},
        **_rating_json(r.mu, r.sigma, r.rating),
        "games": r.games,
        "wins": r.wins,
        "losses": r.losses,
        "draws": r.draws,
        "last_played_at": _iso(r.last_played_at),
        "season_points": int(r.season_points),
    }


async def profile(
    session: AsyncSession, name: str, viewer_id: int | None = None, now: datetime | None = None
) -> dict[str, Any]:
    """A player's profile.

    :returns: ``{"user": {"id", "name", "created_at"}, "ratings": [{"pool", "rating", "deviation",
        "provisional", "games", "wins", "losses", "draws", "last_played_at", "season_points",
        "history": [{"at", "rating", "match_id"}]}], "records": [{"game", "wins", "losses",
        "draws"}], "recent": [{"match_id", "game", "pool", "finished_at", "result", "opponents":
        [{"id", "name"} | null], "rating_before", "rating_after", "replay"}], "head_to_head":
        {"viewer": {"id", "name"}, "wins", "losses", "draws"} | null}``; ``records`` count every
        finished match against people or the computer, ``head_to_head`` the profile owner's
        results in matches with the viewer (absent when the viewer is the owner or a visitor).
    :raises DomainError: ``not_found`` (``params``: ``{"name"}``) when there is no such player.
    """
    user = (
        await session.execute(select(User.id, User.name, User.created_at).where(User.name_key == name_key(name)))
    ).first()
    if user is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"there is no player {name!r}", params={"name": name[:60]})
    season = season_of(now or datetime.now().astimezone())
    return {
        "user": {"id": user.id, "name": user.name, "created_at": _iso(user.created_at)},
        "ratings": await _ratings(session, user.id, season),
        "records": await _records(session, user.id),
        "recent": await _recent(session, user.id),
        "head_to_head": await _head_to_head(session, user.id, viewer_id),
    }


async def _ratings(session: AsyncSession, user_id: int, season: str) -> list[dict[str, Any]]:
    """The player's rating in each pool played (in :func:`all_pools` order), with the season's
    points and the latest :data:`HISTORY_POINTS` points of its history (two queries)."""
    stmt = (
        select(
            Rating.pool,
            Rating.mu,
            Rating.sigma,
            Rating.rating,
            Rating.games,
            Rating.wins,
            Rating.losses,
            Rating.draws,
            Rating.last_played_at,
            func.coalesce(LadderPoints.points, 0).label("points"),
        )
        .outerjoin(
            LadderPoints,
            and_(LadderPoints.pool == Rating.pool, LadderPoints.season == season, LadderPoints.user_id == user_id),
        )
        .where(Rating.user_id == user_id)
    )
    rows = (await session.execute(stmt)).all()
    if not rows:
        return []
    # every pool's latest points in one statement: per pool, the index (user_id, pool, at) read
    # backwards up to HISTORY_POINTS entries
    per_pool = [
        select(RatingChange.pool, RatingChange.at, RatingChange.rating_after, RatingChange.match_id)
        .where(RatingChange.user_id == user_id, RatingChange.pool == r.pool)
        .order_by(RatingChange.at.desc())
        .limit(HISTORY_POINTS)
        .subquery()
        .select()
        for r in rows
    ]
    history: dict[str, list[dict[str, Any]]] = {}
    for pool_key, at, rating, match_id in (await session.execute(union_all(*per_pool))).all():
        history.setdefault(pool_key, []).append({"at": _iso(at), "rating": rating, "match_id": match_id})
    for points in history.values():
        points.sort(key=lambda p: p["at"])
    order = {p.key: i for i, p in enumerate(all_pools())}
    out = []
    for r in sorted(rows, key=lambda r: order.get(r.pool, len(order))):
        pool = get_pool(r.pool)
        out.append(
            {
                "pool": pool_json(pool) if pool else {"key": r.pool, "game": r.pool.split(".")[0], "part": {}},
                **_rating_json(r.mu, r.sigma, r.rating),
                "games": r.games,
                "wins": r.wins,
                "losses": r.losses,
                "draws": r.draws,
                "last_played_at": _iso(r.last_played_at),
                "season_points": int(r.points),
                "history": history.get(r.pool, []),
            }
        )
    return out


def _tally(result: Any) -> tuple[Any, Any, Any]:
    return (
        func.sum(case((result == "win", 1), else_=0)),
        func.sum(case((result == "loss", 1), else_=0)),
        func.sum(case((result == "draw", 1), else_=0)),
    )


async def _records(session: AsyncSession, user_id: int) -> list[dict[str, Any]]:
    """Wins, losses and draws per game, over every finished match of the player (its
    ``player_records`` rows, kept by the ratings consumer)."""
    stmt = (
        select(PlayerRecord.game, PlayerRecord.wins, PlayerRecord.losses, PlayerRecord.draws)
        .where(PlayerRecord.user_id == user_id)
        .order_by(PlayerRecord.game)
    )
    return [{"game": g, "wins": w, "losses": lo, "draws": d} for g, w, lo, d in (await session.execute(stmt)).all()]


async def _recent(session: AsyncSession, user_id: int) -> list[dict[str, Any]]:
    """The latest :data:`RECENT_MATCHES` finished matches of the player (newest first), each with
    its opponents and the rating change (one query)."""
    mine = (
        select(MatchResult.id, MatchResult.match_id, MatchResult.seat, MatchResult.team, MatchResult.result)
        .where(MatchResult.user_id == user_id)
        .order_by(MatchResult.id.desc())
        .limit(RECENT_MATCHES)
        .subquery()
    )
    other = aliased(MatchResult)
    stmt = (
        select(
            mine.c.id,
            mine.c.match_id,
            mine.c.result,
            Match.game,
            Match.options,
            Match.finished_at,
            RatingChange.pool,
            RatingChange.rating_before,
            RatingChange.rating_after,
            other.user_id.label("opponent_id"),
            User.name.label("opponent_name"),
        )
        .join(Match, Match.id == mine.c.match_id)
        .outerjoin(RatingChange, and_(RatingChange.match_id == mine.c.match_id, RatingChange.seat == mine.c.seat))
        .outerjoin(other, and_(other.match_id == mine.c.match_id, other.team != mine.c.team))
        .outerjoin(User, User.id == other.user_id)
        .order_by(mine.c.id.desc(), other.seat)
    )
    out: dict[int, dict[str, Any]] = {}
    for r in (await session.execute(stmt)).all():
        entry = out.get(r.id)
        if entry is None:
            pool = pool_of(r.game, r.options or {})
            entry = out[r.id] = {
                "match_id": r.match_id,
                "game": r.game,
                "pool": r.pool or (pool.key if pool else None),
                "finished_at": _iso(r.finished_at),
                "result": r.result,
                "opponents": [],
                "rating_before": r.rating_before,
                "rating_after": r.rating_after,
                "replay": f"/matches/{r.match_id}/replay",
            }
        entry["opponents"].append({"id": r.opponent_id, "name": r.opponent_name} if r.opponent_id else None)
    return list(out.values())


async def _head_to_head(session: AsyncSession, user_id: int, viewer_id: int | None) -> dict[str, Any] | None:
    """The owner's wins, losses and draws in finished matches where the viewer also sat (one query)."""
    if viewer_id is None or viewer_id == user_id:
        return None
    theirs = aliased(MatchResult)
    viewer_name = select(User.name).where(User.id == viewer_id).scalar_subquery()
    row = (
        await session.execute(
            select(viewer_name, *_tally(MatchResult.result))
            .select_from(MatchResult)
            .join(theirs, and_(theirs.match_id == MatchResult.match_id, theirs.user_id == viewer_id))
            .where(MatchResult.user_id == user_id)
        )
    ).one()
    name, w, lo, d = row
    if name is None:  # no such viewer (any more)
        return None
    return {
        "viewer": {"id": viewer_id, "name": name},
        "wins": int(w or 0),
        "losses": int(lo or 0),
        "draws": int(d or 0),
    }


async def match_ratings(session: AsyncSession, match_id: int) -> dict[str, Any]:
    """What a finished match did to its seats' ratings (the match page's result screen).

    :returns: ``{"match_id", "rated": whether it was created rated, "counts": whether it counts for
        the ratings (rated, in a pool, no computer seat), "applied": whether its changes exist yet,
        "pool": key | null, "changes": [{"seat", "user": {"id", "name"}, "rating_before",
        "rating_after", "delta", "provisional", "points"}]}``.
    :raises DomainError: ``not_found`` (``params``: ``{"match_id"}``).
    """
    m = await session.get(Match, match_id)
    if m is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"there is no match {match_id}", params={"match_id": match_id})
    rows = (
        await session.execute(
            select(RatingChange, User.name)
            .join(User, User.id == RatingChange.user_id)
            .where(RatingChange.match_id == match_id)
            .order_by(RatingChange.seat)
        )
    ).all()
    pool = pool_of(m.game, m.options or {})
    return {
        "match_id": match_id,
        "rated": m.origin == "rated",
        "counts": m.origin == "rated" and pool is not None and not any(s.bot_level for s in m.seats),
        "applied": bool(rows),
        "pool": rows[0][0].pool if rows else (pool.key if pool else None),
        "changes": [
            {
                "seat": c.seat,
                "user": {"id": c.user_id, "name": name},
                "rating_before": c.rating_before,
                "rating_after": c.rating_after,
                "delta": c.rating_after - c.rating_before,
                "provisional": is_provisional(c.sigma_after),
                "points": c.points,
            }
            for c, name in rows
        ],
    }
