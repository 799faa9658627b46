"""The reads behind the ladder and profile pages and their JSON twins (issue 12, items 4 and 5).

Every function takes an open session and returns JSON-safe dicts (times as ISO 8601 strings, UTC).
They are the "real query code" the large-database timings measure (``scripts/seed_ratings.py``,
docs/performance.md): each is a few index range scans, whatever the number of players and matches.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any

from sqlalchemy import BigInteger, Integer, String, and_, bindparam, case, cast, func, or_, select, tuple_
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.errors import DomainError, ErrorCode
from app.matches.models import Match, MatchResult
from app.ratings.apply import is_rated, season_of
from app.ratings.models import LadderPoints, PlayerRecord, Rating, RatingChange, RatingCount, RatingPool
from app.ratings.pools import Pool, all_pools, get_pool, pool_of
from app.ratings.skill import SCALE, is_provisional
from app.users.models import User
from app.users.names import name_key

#: rows of a ladder page
PAGE_ROWS = 50
#: a profile's recent matches
RECENT_MATCHES = 20
#: the runs of a downsampled rating-history chart (:func:`_history`): each keeps its first, last,
#: lowest and highest point, so a chart has at most ``4 * HISTORY_BUCKETS`` points
HISTORY_BUCKETS = 40
#: the most points a chart has (a pool of more rated matches is downsampled)
HISTORY_POINTS = 4 * HISTORY_BUCKETS
#: the runs of all of a profile's charts together: a player rated in more than three pools gets
#: fewer runs per chart (15 each in eight pools), so a profile carries at most 480 points
PROFILE_HISTORY_BUCKETS = 120
#: (:func:`_history`) ratings are shifted by this to be positive, and match numbers stay below
#: the other constant, so ``(rating + shift) * limit + n`` orders by rating, then by ``n``
_RATING_SHIFT, _N_LIMIT = 1_000_000, 1_000_000_000


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
    :param find_viewer: show the page the viewer is on instead of ``page``, with the viewer's rank.
    :returns: ``{"pool", "season", "page", "pages", "per_page", "total", "rows": [row], "viewer": row
        | null}``, a row being ``{"rank", "user": {"id", "name", "rank"}, "rating", "deviation",
        "provisional", "games", "wins", "losses", "draws", "last_played_at", "season_points"}``;
        ``viewer`` is the viewer's own row, with its rank, when they are rated in the pool.
    :raises DomainError: ``not_found`` for an unknown pool.

    Neither the page nor the rank skips the index entries of the players above: both start from
    ``rating_counts`` (players per rating value, about a thousand rows per pool), so page 1,788
    costs what page 1 does (docs/performance.md, "Ladders and profiles").
    """
    pool = require_pool(key)
    season = season_of(now or datetime.now().astimezone())
    total = int(await session.scalar(select(RatingPool.players).where(RatingPool.pool == pool.key)) or 0)
    viewer = None
    params: dict[str, Any] = {"pool": pool.key, "season": season}
    if viewer_id is not None:
        found = (await session.execute(_viewer_stmt(), {**params, "viewer_id": viewer_id})).first()
        if found is not None:
            viewer = _row(found, int(found.rank))
            if find_viewer:
                page = (int(found.rank) - 1) // PAGE_ROWS + 1
    offset = (page - 1) * PAGE_ROWS
    rows: list[dict[str, Any]] = []
    start = await _page_start(session, pool.key, offset)
    if start is not None:
        start_rating, above = start
        found_rows = (
            await session.execute(_page_stmt(), {**params, "start_rating": start_rating, "skip": offset - above})
        ).all()
        rows = [_row(r, offset + i + 1) for i, r in enumerate(found_rows)]
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


#: the seasons a season's standings page offers: the current month and the ones before it
SEASONS_OFFERED = 12


def seasons_before(season: str, count: int = SEASONS_OFFERED) -> list[str]:
    """``season`` (``"2026-11"``) and the ``count - 1`` months before it, newest first."""
    year, month = int(season[:4]), int(season[5:7])
    out = []
    for _ in range(count):
        out.append(f"{year:04d}-{month:02d}")
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return out


async def season_standings(
    session: AsyncSession,
    key: str,
    season: str | None = None,
    page: int = 1,
    viewer_id: int | None = None,
    now: datetime | None = None,
    *,
    find_viewer: bool = False,
) -> dict[str, Any]:
    """One page of a pool's season standings: the players by ladder points earned in ``season``
    (a UTC month, ``"2026-11"``; the current one when ``None``), most first (ties: more wins
    first, then the later account).

    :param page: 1-based; a page past the end has no rows.
    :param find_viewer: show the page the viewer is on instead of ``page``.
    :returns: ``{"pool", "season", "current", "seasons": [the current season and the 11 before,
        newest first], "page", "pages", "per_page", "total", "rows": [{"rank", "user": {"id",
        "name", "rank"}, "points", "wins"}], "viewer": the viewer's row (with its rank) | null}``;
        ``total`` is the number of players with points in that season.
    :raises DomainError: ``not_found`` for an unknown pool.
    """
    pool = require_pool(key)
    current = season_of(now or datetime.now().astimezone())
    season = season or current
    params: dict[str, Any] = {"pool": pool.key, "season": season}
    total = int(await session.scalar(_season_total_stmt(), params) or 0)
    viewer = None
    if viewer_id is not None:
        found = (await session.execute(_season_viewer_stmt(), {**params, "viewer_id": viewer_id})).first()
        if found is not None:
            viewer = _season_row(found, int(found.rank))
            if find_viewer:
                page = (int(found.rank) - 1) // PAGE_ROWS + 1
    offset = (page - 1) * PAGE_ROWS
    found_rows = (await session.execute(_season_page_stmt(), {**params, "skip": offset})).all()
    rows = [_season_row(r, offset + i + 1) for i, r in enumerate(found_rows)]
    viewer = next((r for r in rows if r["user"]["id"] == viewer_id), viewer)
    return {
        "pool": pool_json(pool),
        "season": season,
        "current": current,
        "seasons": seasons_before(current),
        "page": page,
        "pages": max(1, -(-total // PAGE_ROWS)),
        "per_page": PAGE_ROWS,
        "total": total,
        "rows": rows,
        "viewer": viewer,
    }


def _season_row(r: Any, rank: int) -> dict[str, Any]:
    user = {"id": r.user_id, "name": r.name, "rank": r.user_rank}
    return {"rank": rank, "user": user, "points": r.points, "wins": r.wins}


def _season_order() -> tuple[Any, ...]:
    return (LadderPoints.points.desc(), LadderPoints.wins.desc(), LadderPoints.user_id.desc())


def _in_season(table: Any = LadderPoints) -> Any:
    return and_(table.pool == _POOL, table.season == bindparam("season", type_=String))


@cache
def _season_total_stmt() -> Any:
    """The number of players with points in a season; parameters ``pool``, ``season``."""
    return select(func.count()).select_from(LadderPoints).where(_in_season())


@cache
def _season_page_stmt() -> Any:
    """A season's page: its players first, from the index ``(pool, season, points, wins,
    user_id)`` alone read backwards, then their names; parameters ``pool``, ``season``, ``skip``."""
    page = (
        select(LadderPoints.user_id, LadderPoints.points, LadderPoints.wins)
        .where(_in_season())
        .order_by(*_season_order())
        .offset(bindparam("skip", type_=Integer))
        .limit(PAGE_ROWS)
        .subquery()
    )
    return (
        select(page.c.user_id, User.name, User.rank.label("user_rank"), page.c.points, page.c.wins)
        .join(User, User.id == page.c.user_id)
        .order_by(page.c.points.desc(), page.c.wins.desc(), page.c.user_id.desc())
    )


@cache
def _season_viewer_stmt() -> Any:
    """The viewer's season row with its rank: 1 + the players with more points + those with as many
    points who sort first (more wins, then the later account): two index-only ranges of ``(pool,
    season, points, wins, user_id)``; parameters ``pool``, ``season``, ``viewer_id``."""
    ahead = aliased(LadderPoints)
    more = (
        select(func.count())
        .select_from(ahead)
        .where(_in_season(ahead), ahead.points > LadderPoints.points)
        .scalar_subquery()
    )
    tied = aliased(LadderPoints)
    tied_first = (
        select(func.count())
        .select_from(tied)
        .where(
            _in_season(tied),
            tied.points == LadderPoints.points,
            tuple_(tied.wins, tied.user_id) > tuple_(LadderPoints.wins, LadderPoints.user_id),
        )
        .scalar_subquery()
    )
    rank = 1 + more + tied_first
    return (
        select(
            LadderPoints.user_id,
            User.name,
            User.rank.label("user_rank"),
            LadderPoints.points,
            LadderPoints.wins,
            rank.label("rank"),
        )
        .join(User, User.id == LadderPoints.user_id)
        .where(_in_season(), LadderPoints.user_id == bindparam("viewer_id", type_=Integer))
    )


async def _page_start(session: AsyncSession, pool: str, offset: int) -> tuple[int, int] | None:
    """Where the ladder row at 0-based position ``offset`` is: ``(rating, players above that
    rating)``, from ``rating_counts`` (a running sum over the pool's ratings, best first). Past the
    end it is the lowest rating (the page then has no rows); ``None`` when the pool has no players."""
    row = (await session.execute(_page_start_stmt(), {"pool": pool, "offset": offset})).first()
    return None if row is None else (int(row.rating), int(row.above))


# The ladder's statements are built once, with parameters (``pool``, ``season``, ...): building
# them costs more CPU than the database spends on them.
_POOL = bindparam("pool", type_=String)


@cache
def _page_start_stmt() -> Any:
    """:func:`_page_start`'s statement; parameters ``pool``, ``offset``."""
    above = func.sum(RatingCount.players).over(order_by=RatingCount.rating.desc()) - RatingCount.players
    counts = (
        select(RatingCount.rating, above.label("above"))
        .where(RatingCount.pool == _POOL, RatingCount.players > 0)
        .subquery()
    )
    return (
        select(counts.c.rating, counts.c.above)
        .where(counts.c.above <= bindparam("offset", type_=Integer))
        .order_by(counts.c.rating.asc())
        .limit(1)
    )


@cache
def _page_stmt() -> Any:
    """A ladder page's rows: its players first, from the index ``(pool, rating, user_id)`` alone,
    starting at the rating of its first row and skipping only that rating's players before it;
    then their rows. Parameters ``pool``, ``season``, ``start_rating``, ``skip``."""
    page_ids = (
        select(Rating.user_id.label("uid"))
        .where(Rating.pool == _POOL, Rating.rating <= bindparam("start_rating", type_=Integer))
        .order_by(Rating.rating.desc(), Rating.user_id.desc())
        .offset(bindparam("skip", type_=Integer))
        .limit(PAGE_ROWS)
        .subquery()
    )
    return (
        _row_select()
        .join(page_ids, page_ids.c.uid == Rating.user_id)
        .where(Rating.pool == _POOL)
        .order_by(Rating.rating.desc(), Rating.user_id.desc())
    )


@cache
def _viewer_stmt() -> Any:
    """The viewer's ladder row with its rank; parameters ``pool``, ``season``, ``viewer_id``."""
    return (
        _row_select()
        .add_columns(_rank_of().label("rank"))
        .where(Rating.pool == _POOL, Rating.user_id == bindparam("viewer_id", type_=Integer))
    )


def _rank_of() -> Any:
    """The rank of the ``Rating`` row of the enclosing query in the pool ``pool`` (a parameter):
    1 + the players at higher ratings (``rating_counts``) + the players at the same rating that
    sort first (the later accounts: a short range of the index)."""
    higher = (
        select(func.coalesce(func.sum(RatingCount.players), 0))
        .where(RatingCount.pool == _POOL, RatingCount.rating > Rating.rating)
        .scalar_subquery()
    )
    tied = aliased(Rating)
    ahead = (
        select(func.count())
        .select_from(tied)
        .where(tied.pool == _POOL, tied.rating == Rating.rating, tied.user_id > Rating.user_id)
        .scalar_subquery()
    )
    return 1 + higher + ahead


def _row_select() -> Any:
    """Ladder rows with the season's points; parameters ``pool``, ``season``."""
    return (
        select(
            Rating.user_id,
            User.name,
            User.rank.label("user_rank"),
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
            and_(
                LadderPoints.pool == _POOL,
                LadderPoints.season == bindparam("season", type_=String),
                LadderPoints.user_id == Rating.user_id,
            ),
        )
    )


def _row(r: Any, rank: int | None) -> dict[str, Any]:
    return {
        "rank": rank,
        "user": {"id": r.user_id, "name": r.name, "rank": r.user_rank},
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

    :returns: ``{"user": {"id", "name", "rank", "created_at"}, "ratings": [{"pool", "rating", "deviation",
        "provisional", "games", "wins", "losses", "draws", "last_played_at", "season_points",
        "history": [{"at", "rating", "match_id", "game"}]}], "records": [{"game", "wins", "losses",
        "draws"}], "recent": [{"match_id", "game", "pool", "finished_at", "result", "opponents":
        [{"id", "name", "rank"} | null], "rating_before", "rating_after", "replay"}], "head_to_head":
        {"viewer": {"id", "name", "rank"}, "wins", "losses", "draws"} | null}``; ``records`` count every
        finished match against people or the computer, ``head_to_head`` the profile owner's
        results in matches with the viewer (absent when the viewer is the owner or a visitor);
        ``history`` is the rating after each rated match in the pool, oldest first (``game``: the
        match's number in the pool, from 1), downsampled by :func:`_history` (at most
        :data:`HISTORY_POINTS` points per pool, 480 in all).
    :raises DomainError: ``not_found`` (``params``: ``{"name"}``) when there is no such player.
    """
    user = (
        await session.execute(
            select(User.id, User.name, User.rank, User.created_at).where(User.name_key == name_key(name))
        )
    ).first()
    if user is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"there is no player {name!r}", params={"name": name[:60]})
    season = season_of(now or datetime.now().astimezone())
    return {
        "user": {"id": user.id, "name": user.name, "rank": user.rank, "created_at": _iso(user.created_at)},
        "ratings": await _ratings(session, user.id, season),
        "records": await _records(session, user.id),
        "recent": await _recent(session, user.id),
        "head_to_head": await _head_to_head(session, user.id, viewer_id),
    }


async def _ratings(session: AsyncSession, user_id: int, season: str) -> list[dict[str, Any]]:
    """The player's rating in each pool played (in :func:`all_pools` order), with the season's
    points and its history chart (:func:`_history`; two queries)."""
    rows = (await session.execute(_ratings_stmt(), {"user_id": user_id, "season": season})).all()
    if not rows:
        return []
    buckets = max(1, min(HISTORY_BUCKETS, PROFILE_HISTORY_BUCKETS // len(rows)))
    history = await _history(session, user_id, buckets)
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


@cache
def _ratings_stmt() -> Any:
    """The statement of :func:`_ratings`, built once; parameters ``user_id``, ``season``."""
    user_id = bindparam("user_id", type_=Integer)
    return (
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
            and_(
                LadderPoints.pool == Rating.pool,
                LadderPoints.season == bindparam("season", type_=String),
                LadderPoints.user_id == user_id,
            ),
        )
        .where(Rating.user_id == user_id)
    )


async def _history(
    session: AsyncSession, user_id: int, buckets: int = HISTORY_BUCKETS
) -> dict[str, list[dict[str, Any]]]:
    """The player's rating-history chart per pool, downsampled in the database (one statement).

    A pool of at most ``4 * buckets`` rated matches keeps every point. A longer one is cut into
    ``buckets`` runs of consecutive matches (as equal as whole matches allow), and each run keeps
    its first and last point and its lowest and highest rating (the earliest of equal ones), so
    peaks, dips and the latest rating survive: at most ``4 * buckets`` points per pool whatever the
    number of matches. On PostgreSQL the player's changes come in order from the
    index ``ix_rating_changes_history`` alone; the runs need one more window, with no sort by rating.

    :returns: ``{pool key: [{"at": ISO 8601, "rating": displayed rating after the match,
        "match_id", "game": the match's number in the pool, from 1}]}``, oldest first.
    """
    params = {"user_id": user_id, "buckets": buckets, "points": 4 * buckets}
    history: dict[str, list[dict[str, Any]]] = {}
    for pool_key, at, rating, match_id, game in (await session.execute(_history_stmt(), params)).all():
        history.setdefault(pool_key, []).append({"at": _iso(at), "rating": rating, "match_id": match_id, "game": game})
    return history


@cache
def _history_stmt() -> Any:
    """The statement of :func:`_history`, built once (its construction costs more CPU than the
    database spends on a typical player): parameters ``user_id``, ``buckets``, ``points``."""
    buckets = bindparam("buckets", type_=Integer)
    n = func.row_number().over(partition_by=RatingChange.pool, order_by=(RatingChange.at, RatingChange.match_id))
    total = func.count().over(partition_by=RatingChange.pool)
    numbered = (
        select(
            RatingChange.pool,
            RatingChange.at,
            RatingChange.rating_after.label("rating"),
            RatingChange.match_id,
            n.label("n"),
            total.label("total"),
            # the run of the match: 0 .. buckets - 1 (integer division)
            ((n - 1) * buckets // total).label("bucket"),
        )
        .where(RatingChange.user_id == bindparam("user_id", type_=Integer))
        .subquery()
    )
    c = numbered.c
    # the earliest lowest and highest points of a run as one number each: the min/max of a key
    # that orders by rating, then by match number (earliest first), and carries the match number
    key = cast(c.rating + _RATING_SHIFT, BigInteger) * _N_LIMIT
    run = (c.pool, c.bucket)
    picked = select(
        numbered,
        func.min(c.n).over(partition_by=run).label("first"),
        func.max(c.n).over(partition_by=run).label("last"),
        func.min(key + c.n).over(partition_by=run).label("low"),
        func.max(key + _N_LIMIT - c.n).over(partition_by=run).label("high"),
    ).subquery()
    p = picked.c
    return (
        select(p.pool, p.at, p.rating, p.match_id, p.n)
        .where(
            or_(
                p.total <= bindparam("points", type_=Integer),
                p.n == p.first,
                p.n == p.last,
                p.n == p.low % _N_LIMIT,
                p.n == _N_LIMIT - p.high % _N_LIMIT,
            )
        )
        .order_by(p.pool, p.n)
    )


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
    out: dict[int, dict[str, Any]] = {}
    for r in (await session.execute(_recent_stmt(), {"user_id": user_id})).all():
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
        entry["opponents"].append(
            {"id": r.opponent_id, "name": r.opponent_name, "rank": r.opponent_rank} if r.opponent_id else None
        )
    return list(out.values())


@cache
def _recent_stmt() -> Any:
    """The statement of :func:`_recent`, built once; parameter ``user_id``."""
    mine = (
        select(MatchResult.id, MatchResult.match_id, MatchResult.seat, MatchResult.team, MatchResult.result)
        .where(MatchResult.user_id == bindparam("user_id", type_=Integer))
        .order_by(MatchResult.id.desc())
        .limit(RECENT_MATCHES)
        .subquery()
    )
    other = aliased(MatchResult)
    return (
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
            User.rank.label("opponent_rank"),
        )
        .join(Match, Match.id == mine.c.match_id)
        .outerjoin(RatingChange, and_(RatingChange.match_id == mine.c.match_id, RatingChange.seat == mine.c.seat))
        .outerjoin(other, and_(other.match_id == mine.c.match_id, other.team != mine.c.team))
        .outerjoin(User, User.id == other.user_id)
        .order_by(mine.c.id.desc(), other.seat)
    )


async def _head_to_head(session: AsyncSession, user_id: int, viewer_id: int | None) -> dict[str, Any] | None:
    """The owner's wins, losses and draws in finished matches where the viewer also sat (one query)."""
    if viewer_id is None or viewer_id == user_id:
        return None
    row = (await session.execute(_head_to_head_stmt(), {"user_id": user_id, "viewer_id": viewer_id})).one()
    name, viewer_rank, w, lo, d = row
    if name is None:  # no such viewer (any more)
        return None
    return {
        "viewer": {"id": viewer_id, "name": name, "rank": viewer_rank},
        "wins": int(w or 0),
        "losses": int(lo or 0),
        "draws": int(d or 0),
    }


@cache
def _head_to_head_stmt() -> Any:
    """The statement of :func:`_head_to_head`, built once; parameters ``user_id``, ``viewer_id``."""
    viewer_id = bindparam("viewer_id", type_=Integer)
    theirs = aliased(MatchResult)
    viewer_name = select(User.name).where(User.id == viewer_id).scalar_subquery()
    viewer_rank = select(User.rank).where(User.id == viewer_id).scalar_subquery()
    return (
        select(viewer_name, viewer_rank, *_tally(MatchResult.result))
        .select_from(MatchResult)
        .join(theirs, and_(theirs.match_id == MatchResult.match_id, theirs.user_id == viewer_id))
        .where(MatchResult.user_id == bindparam("user_id", type_=Integer))
    )


async def match_ratings(session: AsyncSession, match_id: int) -> dict[str, Any]:
    """What a finished match did to its seats' ratings (the match page's result screen).

    :returns: ``{"match_id", "rated": whether it was created rated, "counts": whether it counts for
        the ratings (rated, in a pool, no computer seat), "applied": whether its changes exist yet,
        "pool": key | null, "changes": [{"seat", "user": {"id", "name", "rank"}, "rating_before",
        "rating_after", "delta", "provisional", "points"}]}``.
    :raises DomainError: ``not_found`` (``params``: ``{"match_id"}``).
    """
    m = await session.get(Match, match_id)
    if m is None:
        raise DomainError(ErrorCode.NOT_FOUND, f"there is no match {match_id}", params={"match_id": match_id})
    rows = (
        await session.execute(
            select(RatingChange, User.name, User.rank)
            .join(User, User.id == RatingChange.user_id)
            .where(RatingChange.match_id == match_id)
            .order_by(RatingChange.seat)
        )
    ).all()
    pool = pool_of(m.game, m.options or {})
    return {
        "match_id": match_id,
        "rated": is_rated(m),
        "counts": is_rated(m) and pool is not None and not any(s.bot_level for s in m.seats),
        "applied": bool(rows),
        "pool": rows[0][0].pool if rows else (pool.key if pool else None),
        "changes": [
            {
                "seat": c.seat,
                "user": {"id": c.user_id, "name": name, "rank": rank},
                "rating_before": c.rating_before,
                "rating_after": c.rating_after,
                "delta": c.rating_after - c.rating_before,
                "provisional": is_provisional(c.sigma_after),
                "points": c.points,
            }
            for c, name, rank in rows
        ],
    }
