"""Applying finished matches to ratings and ladder points, exactly once: the ``"ratings"`` consumer
of ``match_results`` (:mod:`app.matches.results`).

What counts (issue 12, item 1): a match created as rated (``matches.origin == "rated"``, or a clan
challenge's or tournament's match with its ``rated`` option on: :func:`is_rated`), in a pool
(:func:`app.ratings.pools.pool_of`), whose every seat is held by a person. A match with a computer
seat is never rated. A seat the computer finished for a player who left (away, or resigned while the
game went on) counts as that player's result, as on BGA.

Exactly once: :func:`apply_results` applies whole matches. It first locks every ``ratings`` row its
matches need (created first when missing; ``FOR UPDATE`` in one order, pool then user, on
PostgreSQL; the database write lock on SQLite), then for each match looks for its ``rating_changes``: if
they exist, another transaction applied the match and nothing is done; otherwise it rates the match
and inserts one ``rating_changes`` row per seat, whose unique ``(match_id, seat)`` refuses any second
application that the locks did not stop. A handler given only some seats of a match (a claim cut by
its ``limit``, or two claimers that took different seats) reads the other seats itself; the later
delivery of those seats finds the match applied. So a match changes each rating once, whatever the
number of processes, deliveries, restarts and crashes (``tests/ratings/test_exactly_once.py``).

The same transaction keeps ``rating_counts`` (players per rating value per pool, the ladder's
histogram): the changes of a whole batch are summed and written at its end, after every ``ratings``
lock and in ``(pool, rating)`` order, so two transactions never wait on each other's counts in
opposite orders.

The consumer's handler, :func:`handle`, also adds each row to the player's record per game
(:func:`count_records`, ``player_records``), once per row as the claim delivers it.

:func:`start` runs the consumer beside the match service (``consume_forever`` on the background
pool, woken by the "match finished" notice, so ratings appear within a moment of the end).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import case, exists, false, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import aliased

from app.logging import get_logger
from app.matches.hub import LocalHub
from app.matches.models import CHALLENGE, RATED, TOURNAMENT, Match, MatchResult
from app.matches.results import consume_forever
from app.ratings import skill
from app.ratings.models import LadderPoints, PlayerRecord, Rating, RatingChange, RatingCount, RatingPool
from app.ratings.pools import pool_of

log = get_logger(__name__)

#: the consumer's name in ``result_deliveries``
CONSUMER = "ratings"

#: players gained (+) or lost (-) per ``(pool, rating)`` by a transaction, written to
#: ``rating_counts`` at its end (:func:`_write_counts`)
CountDeltas = Counter[tuple[str, int]]


def season_of(at: datetime) -> str:
    """The season (a UTC calendar month) a match that ended at ``at`` counts for: ``"2026-11"``."""
    return f"{at.year:04d}-{at.month:02d}"


def is_rated(m: Match) -> bool:
    """Whether ``m`` was created rated: origin ``rated``, or a clan challenge's or tournament's
    match whose ``rated`` option is on (those features decide it, :mod:`app.clans.challenges.service`)."""
    return m.origin == RATED or (m.origin in (CHALLENGE, TOURNAMENT) and m.options.get("rated") is True)


async def apply_results(session: AsyncSession, rows: Sequence[MatchResult]) -> None:
    """Rate every match that ``rows`` belong to (see the module docstring). Idempotent: a match
    applied before (by this or another transaction) is skipped.

    Every ``ratings`` row the batch needs is locked first, in one global order (pool, then user),
    so two transactions applying overlapping players never deadlock.

    :param session: an open session inside a transaction (the claim's); nothing is committed here.
    :param rows: ``match_results`` rows, of any matches and seats.
    :raises sqlalchemy.exc.IntegrityError: a second application slipped past the locks (the
        transaction must then be rolled back; the claim does so and offers the rows again).
    """
    if session.get_bind().dialect.name != "postgresql":  # SQLite: the write lock before reading
        await session.execute(update(Rating).where(false()).values(mu=Rating.mu))
    counted = await rated_matches(session, (r.match_id for r in rows))
    plans = [counted[match_id] for match_id in sorted(counted)]
    needed: dict[str, set[int]] = {}
    for _m, pool, results in plans:
        needed.setdefault(pool, set()).update(r.user_id for r in results if r.user_id is not None)
    deltas: CountDeltas = Counter()
    for pool in sorted(needed):
        await _lock_ratings(session, pool, sorted(needed[pool]), deltas)
    for m, pool, results in plans:
        await _apply(session, m, pool, results, deltas)
    await _write_counts(session, deltas)


async def handle(session: AsyncSession, rows: Sequence[MatchResult]) -> None:
    """The ``ratings`` consumer's handler: :func:`apply_results`, then each row's result added to
    its player's record per game (:func:`count_records`; exactly once because the claim delivers
    each row once)."""
    await apply_results(session, rows)
    await count_records(session, rows)


async def count_records(session: AsyncSession, rows: Sequence[MatchResult]) -> None:
    """Add each row's result to ``player_records`` (rows of computer seats are skipped). Not
    idempotent: call it once per row, as the claim does."""
    games = dict(
        (await session.execute(select(Match.id, Match.game).where(Match.id.in_({r.match_id for r in rows})))).all()
    )
    tally: dict[tuple[int, str], list[int]] = {}
    for r in rows:
        if r.user_id is None or r.match_id not in games:
            continue
        counts = tally.setdefault((r.user_id, games[r.match_id]), [0, 0, 0])
        counts[{"win": 0, "loss": 1}.get(r.result, 2)] += 1
    if tally:
        await session.execute(
            _COUNT_RECORDS[session.get_bind().dialect.name],
            [
                {"user_id": user_id, "game": game, "wins": w, "losses": lo, "draws": d}
                for (user_id, game), (w, lo, d) in sorted(tally.items())
            ],
        )


def _count_records_statement(insert: Any) -> Any:
    """``INSERT INTO player_records ... ON CONFLICT (user_id, game) DO UPDATE`` adding the new
    counts to the stored ones; executed with one parameter set per player and game."""
    stmt = insert(PlayerRecord)
    return stmt.on_conflict_do_update(
        index_elements=["user_id", "game"],
        set_={
            "wins": PlayerRecord.wins + stmt.excluded.wins,
            "losses": PlayerRecord.losses + stmt.excluded.losses,
            "draws": PlayerRecord.draws + stmt.excluded.draws,
        },
    )


#: :func:`count_records`'s statement by dialect, built once (a batch of a hundred finished matches
#: built and ran one statement per player before: a tenth of the result consumers' time)
_COUNT_RECORDS = {
    "postgresql": _count_records_statement(postgresql.insert),
    "sqlite": _count_records_statement(sqlite.insert),
}


async def apply_match(session: AsyncSession, match_id: int) -> list[RatingChange]:
    """Rate one finished match, unless it does not count or was applied already.

    :returns: the ``rating_changes`` rows added (empty when the match does not count or was
        applied before).
    """
    plan = (await rated_matches(session, [match_id])).get(match_id)
    if plan is None:
        return []
    deltas: CountDeltas = Counter()
    changes = await _apply(session, *plan, deltas)
    await _write_counts(session, deltas)
    return changes


#: a match that counts, as :func:`rated_matches` gives it: the match, its pool's key, its results
#: by seat
Counted = tuple[Match, str, list[MatchResult]]


async def rated_matches(session: AsyncSession, match_ids: Iterable[int]) -> dict[int, Counted]:
    """Which of the finished matches ``match_ids`` count as rated (the rule of the module
    docstring: created rated, in a pool, every seat a different person), each with its pool's key
    and its results by seat; the others are left out. Two statements whatever the number of
    matches (the matches created rated, then their results), so a consumer applying a batch of
    finished matches, most of them casual, loads no casual match at all. Every consumer that
    rewards rated play (ratings here, player points in :mod:`app.points.consumer`) asks this
    function, so that "rated" means one thing."""
    ids = sorted(set(match_ids))
    if not ids:
        return {}
    created_rated = or_(Match.origin == RATED, Match.origin.in_((CHALLENGE, TOURNAMENT)))
    matches = [
        m for m in (await session.scalars(select(Match).where(Match.id.in_(ids), created_rated))).all() if is_rated(m)
    ]
    if not matches:
        return {}
    by_match: dict[int, list[MatchResult]] = {m.id: [] for m in matches}
    for r in await session.scalars(
        select(MatchResult).where(MatchResult.match_id.in_(by_match)).order_by(MatchResult.match_id, MatchResult.seat)
    ):
        by_match[r.match_id].append(r)
    counted: dict[int, Counted] = {}
    for m in matches:
        pool, results = pool_of(m.game, m.options), by_match[m.id]
        users = [r.user_id for r in results]
        if (
            pool is None
            or len(results) != m.num_players
            or len(results) < 2
            or any(u is None for u in users)
            or any(s.bot_level for s in m.seats)
            or len(set(users)) != len(users)
        ):
            continue
        counted[m.id] = (m, pool.key, results)
    return counted


async def _apply(
    session: AsyncSession, m: Match, pool: str, results: list[MatchResult], deltas: CountDeltas
) -> list[RatingChange]:
    """Rate a counted match under the locks of its players' ratings, unless already applied; each
    seat's move from its stored rating to the new one is added to ``deltas``."""
    match_id = m.id
    locked = await _lock_ratings(session, pool, sorted(r.user_id for r in results if r.user_id is not None), deltas)
    skills = {u: s for u, (s, _stored) in locked.items()}
    if await session.scalar(select(exists().where(RatingChange.match_id == match_id))):
        return []  # applied by another transaction, which committed while we waited for the locks
    at = m.finished_at or results[0].created_at
    before = {r.seat: skills[r.user_id] for r in results if r.user_id is not None}
    after = _rate(results, before)
    points = await _points(session, pool, results, before, at)
    season = season_of(at)
    changes = []
    for r in results:
        assert r.user_id is not None
        old, new = before[r.seat], after[r.seat]
        stored = locked[r.user_id][1]
        if stored != new.rating:
            deltas[(pool, stored)] -= 1
            deltas[(pool, new.rating)] += 1
        changes.append(
            RatingChange(
                match_id=match_id,
                seat=r.seat,
                user_id=r.user_id,
                pool=pool,
                result=r.result,
                rank=r.rank,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=new.mu,
                sigma_after=new.sigma,
                rating_before=old.rating,
                rating_after=new.rating,
                points=points.get(r.seat, 0),
                season=season,
                at=at,
            )
        )
        counts = {"wins": Rating.wins, "losses": Rating.losses, "draws": Rating.draws}
        column = {"win": "wins", "loss": "losses"}.get(r.result, "draws")
        await session.execute(
            update(Rating)
            .where(Rating.user_id == r.user_id, Rating.pool == pool)
            .values(
                mu=new.mu,
                sigma=new.sigma,
                rating=new.rating,
                games=Rating.games + 1,
                last_played_at=case((Rating.last_played_at > at, Rating.last_played_at), else_=at),
                **{column: counts[column] + 1},
            )
        )
    session.add_all(changes)
    await session.flush()  # the unique (match_id, seat) refuses a second application here
    for r in results:
        if points.get(r.seat):
            await _add_points(session, pool, season, r.user_id, points[r.seat])
    return changes


def _insert(session: AsyncSession, table: type) -> postgresql.Insert | sqlite.Insert:
    dialect = session.get_bind().dialect.name
    return (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)


async def _lock_ratings(
    session: AsyncSession, pool: str, user_ids: list[int], deltas: CountDeltas
) -> dict[int, tuple[skill.Skill, int]]:
    """Create the missing ``ratings`` rows of ``user_ids`` in ``pool`` (counting them in
    ``rating_pools`` at once and in ``deltas`` at their starting rating) and lock them all, in user
    order. :returns: each user's skill and stored displayed rating."""
    created = (
        await session.execute(
            _insert(session, Rating)
            .values([{"user_id": u, "pool": pool} for u in user_ids])
            .on_conflict_do_nothing(index_elements=["user_id", "pool"])
            .returning(Rating.user_id, Rating.rating)
        )
    ).all()
    for _user_id, rating in created:
        deltas[(pool, rating)] += 1
    if created:
        await session.execute(
            _insert(session, RatingPool)
            .values(pool=pool, players=len(created))
            .on_conflict_do_update(index_elements=["pool"], set_={"players": RatingPool.players + len(created)})
        )
    stmt = (
        select(Rating.user_id, Rating.mu, Rating.sigma, Rating.rating)
        .where(Rating.pool == pool, Rating.user_id.in_(user_ids))
        .order_by(Rating.user_id)
        .with_for_update()
    )
    return {u: (skill.Skill(mu, sigma), r) for u, mu, sigma, r in (await session.execute(stmt)).all()}


async def _write_counts(session: AsyncSession, deltas: CountDeltas) -> None:
    """Add ``deltas`` to ``rating_counts``, in ``(pool, rating)`` order (zero deltas skipped)."""
    for (pool, rating), delta in sorted(deltas.items()):
        if delta == 0:
            continue
        stmt = _insert(session, RatingCount).values(pool=pool, rating=rating, players=delta)
        await session.execute(
            stmt.on_conflict_do_update(index_elements=["pool", "rating"], set_={"players": RatingCount.players + delta})
        )


def _rate(results: Sequence[MatchResult], before: dict[int, skill.Skill]) -> dict[int, skill.Skill]:
    """New skill per seat: the seats grouped by team, each team ranked by its seats' rank."""
    teams: dict[int, list[MatchResult]] = {}
    for r in results:
        teams.setdefault(r.team, []).append(r)
    order = sorted(teams)
    new = skill.rate(
        [[before[r.seat] for r in teams[t]] for t in order], [min(r.rank for r in teams[t]) for t in order]
    )
    return {r.seat: s for t, team in zip(order, new, strict=True) for r, s in zip(teams[t], team, strict=True)}


async def _points(
    session: AsyncSession,
    pool: str,
    results: Sequence[MatchResult],
    before: dict[int, skill.Skill],
    at: datetime,
) -> dict[int, int]:
    """Season ladder points per winning seat: the mean of :func:`skill.win_points` over the seats
    it finished ahead of (other teams), each counting the earlier wins over that player today."""
    day = at.replace(hour=0, minute=0, second=0, microsecond=0)
    points: dict[int, int] = {}
    for r in results:
        if r.result != "win":
            continue
        beaten = [o for o in results if o.team != r.team and o.rank > r.rank]
        if not beaten:
            continue
        total = 0
        for o in beaten:
            earlier = await _wins_today(session, pool, r.user_id, o.user_id, day, at)
            total += skill.win_points(skill.win_probability(before[r.seat], before[o.seat]), earlier)
        points[r.seat] = max(1, round(total / len(beaten)))
    return points


async def _wins_today(
    session: AsyncSession, pool: str, winner: int | None, loser: int | None, day: datetime, at: datetime
) -> int:
    """Rated wins of ``winner`` over ``loser`` in ``pool`` from ``day`` (00:00 UTC) up to ``at``."""
    lost = aliased(RatingChange)
    stmt = (
        select(func.count())
        .select_from(RatingChange)
        .join(lost, lost.match_id == RatingChange.match_id)
        .where(
            RatingChange.user_id == winner,
            RatingChange.pool == pool,
            RatingChange.at >= day,
            RatingChange.at <= at,
            RatingChange.result == "win",
            lost.user_id == loser,
            lost.rank > RatingChange.rank,
        )
    )
    return int(await session.scalar(stmt) or 0)


async def _add_points(session: AsyncSession, pool: str, season: str, user_id: int | None, points: int) -> None:
    stmt = _insert(session, LadderPoints).values(pool=pool, season=season, user_id=user_id, points=points, wins=1)
    await session.execute(
        stmt.on_conflict_do_update(
            index_elements=["pool", "season", "user_id"],
            set_={"points": LadderPoints.points + points, "wins": LadderPoints.wins + 1},
        )
    )


async def catch_up(sessionmaker: async_sessionmaker[AsyncSession], limit: int = 100) -> int:
    """Apply every result row not yet delivered to the ratings (tests, scripts). :returns: rows."""
    from app.matches.results import claim

    total = 0
    while (n := await claim(sessionmaker, CONSUMER, handle, limit)) > 0:
        total += n
    return total


def start(
    sessionmaker: async_sessionmaker[AsyncSession], hub: LocalHub, poll_seconds: float = 30.0
) -> asyncio.Task[None]:
    """Start the ratings consumer (:func:`app.matches.results.consume_forever`) as a task; cancel
    it on shutdown."""
    return asyncio.create_task(
        consume_forever(sessionmaker, hub, CONSUMER, handle, poll_seconds=poll_seconds), name="ratings"
    )
