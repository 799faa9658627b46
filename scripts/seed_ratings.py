"""Seed a PostgreSQL database with many players and finished rated matches, then time the ladder
and profile reads through the real query code (:mod:`app.ratings.reads`); issue 12, item 5.

Run from the repository root (the figures go into ``docs/performance.md``, "Ladders and profiles")::

    .venv/bin/python scripts/seed_ratings.py --fresh                 # 100,000 players, 1,000,000 matches
    .venv/bin/python scripts/seed_ratings.py --no-seed --repeat 50   # time again, same database

``--url`` (default ``postgresql+asyncpg://postgres@127.0.0.1:5432/arena_ratings_big``) names the
database; ``--fresh`` drops and re-creates it and runs the migrations first. The rows are made by
PostgreSQL itself (``generate_series``, one ``INSERT ... SELECT`` per table), so a million matches
take minutes, not hours:

* ``users``: ``--players`` accounts ``p1`` .. ``pN``;
* ``matches``: ``--matches`` finished rated two-seat matches spread over the last 365 days, in the
  eight pools in turn; one seat's player is drawn with a skew (``1 + N * r^2``: player ``p1`` plays
  about ``matches / sqrt(N)`` matches, the heavy regular), the other uniformly;
* ``match_seats`` and ``match_results``: two rows per match;
* ``rating_changes``: two per match (synthetic ratings around 1500; 10 season points per win);
* ``ratings``: one per player and pool played, counts from the changes; ``ladder_points`` per pool,
  season and player from the changes; ``rating_pools``, ``rating_counts`` and ``player_records``
  as the consumer keeps them. Then ``VACUUM ANALYZE`` (what autovacuum does on a live database). No ``match_events`` and no ``result_deliveries``: the reads
  timed here never touch them.

Timings: each read runs ``--repeat`` times after two warm-up runs, in one session as a request
would; the report gives the median and 95th percentile of the wall time per call, and this
process's CPU time per call (Python's share; the rest is the database and the round trips).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sqlalchemy import event, text  # noqa: E402
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine  # noqa: E402

from app.db.session import make_engine, make_sessionmaker  # noqa: E402
from app.ratings import reads  # noqa: E402
from app.ratings.apply import season_of  # noqa: E402

DEFAULT_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/arena_ratings_big"

#: the pools the seeded matches are spread over: (game, options, pool key)
POOLS = [
    ("battle_runes", '{"rated": true, "turn_seconds": 60}', "battle_runes"),
    ("stratego_junior", '{"rated": true, "turn_seconds": 60, "variant": "quest"}', "stratego_junior.quest"),
    ("stratego_junior", '{"rated": true, "turn_seconds": 60, "variant": "victory"}', "stratego_junior.victory"),
    ("scratch_wars", '{"rated": true, "turn_seconds": 60, "level": 1}', "scratch_wars.l1"),
    ("scratch_wars", '{"rated": true, "turn_seconds": 60, "level": 2}', "scratch_wars.l2"),
    ("scratch_wars", '{"rated": true, "turn_seconds": 60, "level": 3}', "scratch_wars.l3"),
    ("fantasy_duel", '{"rated": true, "turn_seconds": 60}', "fantasy_duel"),
    ("treasure_beasts", '{"rated": true, "turn_seconds": 60}', "treasure_beasts"),
]

STEPS = [
    (
        "players",
        """INSERT INTO users (id, name, name_key, password_hash, created_at)
           SELECT g, 'p' || g, 'p' || g, 'x', :now - interval '400 days' FROM generate_series(1, :players) g""",
    ),
    (
        "pairs",
        """CREATE TEMP TABLE seed_pairs ON COMMIT DROP AS
           SELECT g AS id, 1 + floor(:players * power(random(), 2))::int AS a,
                  1 + floor(:players * random())::int AS b, g % :pools AS pool_no, random() < 0.5 AS a_wins,
                  :now - (:matches - g) * (interval '365 days' / :matches) AS at
           FROM generate_series(1, :matches) g""",
    ),
    ("distinct seats", "UPDATE seed_pairs SET b = b % :players + 1 WHERE a = b"),
    (
        "matches",
        """INSERT INTO matches (id, game, options, num_players, status, seed, seed_hash, version, state_version,
                                pending, result, created_at, started_at, finished_at, origin)
           SELECT s.id, p.game, p.options, 2, 'finished', md5(s.id::text), md5(s.id::text), 40, 40, '{}'::jsonb,
                  jsonb_build_object('results', CASE WHEN s.a_wins THEN '["win", "loss"]'::jsonb
                                                     ELSE '["loss", "win"]'::jsonb END,
                                     'ranks', CASE WHEN s.a_wins THEN '[1, 2]'::jsonb ELSE '[2, 1]'::jsonb END,
                                     'reason', 'resigned'),
                  s.at - interval '10 minutes', s.at - interval '10 minutes', s.at, 'rated'
           FROM seed_pairs s JOIN seed_pools p USING (pool_no) ORDER BY s.id""",
    ),
    (
        "match_seats",
        """INSERT INTO match_seats (match_id, seat, user_id, joined_at, timeouts_in_row, away, resigned, result)
           SELECT id, seat, CASE WHEN seat = 0 THEN a ELSE b END, at, 0, false, false,
                  CASE WHEN (seat = 0) = a_wins THEN 'win' ELSE 'loss' END
           FROM seed_pairs CROSS JOIN (VALUES (0), (1)) AS seats(seat) ORDER BY id, seat""",
    ),
    (
        "match_results",
        """INSERT INTO match_results (match_id, seat, user_id, team, rank, result, reason, computer_finished, created_at)
           SELECT id, seat, CASE WHEN seat = 0 THEN a ELSE b END, seat,
                  CASE WHEN (seat = 0) = a_wins THEN 1 ELSE 2 END,
                  CASE WHEN (seat = 0) = a_wins THEN 'win' ELSE 'loss' END, 'resigned', false, at
           FROM seed_pairs CROSS JOIN (VALUES (0), (1)) AS seats(seat) ORDER BY id, seat""",
    ),
    (
        "rating_changes",
        """INSERT INTO rating_changes (match_id, seat, user_id, pool, result, rank, mu_before, sigma_before,
                                       mu_after, sigma_after, rating_before, rating_after, points, season, at)
           SELECT x.id, x.seat, x.user_id, p.pool, x.result, x.rank, x.mu, 4.0, x.mu + x.d / 60.0, 3.9,
                  round(1500 + 60 * (x.mu - 25)), round(1500 + 60 * (x.mu - 25)) + x.d,
                  CASE WHEN x.result = 'win' THEN 10 ELSE 0 END, to_char(x.at AT TIME ZONE 'UTC', 'YYYY-MM'), x.at
           FROM (SELECT s.id, seats.seat, s.pool_no, s.at, CASE WHEN seats.seat = 0 THEN s.a ELSE s.b END AS user_id,
                        CASE WHEN (seats.seat = 0) = s.a_wins THEN 'win' ELSE 'loss' END AS result,
                        CASE WHEN (seats.seat = 0) = s.a_wins THEN 1 ELSE 2 END AS rank,
                        20 + 10 * random() AS mu,
                        CASE WHEN (seats.seat = 0) = s.a_wins THEN 1 ELSE -1 END * (4 + floor(20 * random()))::int AS d
                 FROM seed_pairs s CROSS JOIN (VALUES (0), (1)) AS seats(seat)) x
           JOIN seed_pools p USING (pool_no) ORDER BY x.id, x.seat""",
    ),
    (
        "ratings",
        """INSERT INTO ratings (user_id, pool, mu, sigma, rating, games, wins, losses, draws, last_played_at)
           SELECT user_id, pool, mu, sigma, round(1500 + 60 * (mu - 25)), games, wins, losses, 0, last_at
           FROM (SELECT user_id, pool, 15 + 20 * random() AS mu, 2 + 6 * random() AS sigma, count(*) AS games,
                        count(*) FILTER (WHERE result = 'win') AS wins,
                        count(*) FILTER (WHERE result = 'loss') AS losses, max(at) AS last_at
                 FROM rating_changes GROUP BY user_id, pool) r""",
    ),
    (
        "ladder_points",
        """INSERT INTO ladder_points (pool, season, user_id, points, wins)
           SELECT pool, season, user_id, sum(points), count(*) FROM rating_changes WHERE points > 0
           GROUP BY pool, season, user_id""",
    ),
    ("rating_pools", "INSERT INTO rating_pools (pool, players) SELECT pool, count(*) FROM ratings GROUP BY pool"),
    (
        "rating_counts",
        "INSERT INTO rating_counts (pool, rating, players) SELECT pool, rating, count(*) FROM ratings GROUP BY pool, rating",
    ),
    (
        "player_records",
        """INSERT INTO player_records (user_id, game, wins, losses, draws)
           SELECT s.a_or_b, p.game, count(*) FILTER (WHERE s.won), count(*) FILTER (WHERE NOT s.won), 0
           FROM (SELECT CASE WHEN seat = 0 THEN a ELSE b END AS a_or_b, (seat = 0) = a_wins AS won, pool_no
                 FROM seed_pairs CROSS JOIN (VALUES (0), (1)) AS seats(seat)) s
           JOIN seed_pools p USING (pool_no) GROUP BY s.a_or_b, p.game""",
    ),
    (
        "sequences",
        """SELECT setval(pg_get_serial_sequence('users', 'id'), :players),
                  setval(pg_get_serial_sequence('matches', 'id'), :matches)""",
    ),
]


async def recreate(url: str) -> None:
    """Drop and create the database of ``url``, then run the migrations on it."""
    name = url.rsplit("/", 1)[1]
    admin = create_async_engine(url.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await conn.execute(text(f'CREATE DATABASE "{name}"'))
    await admin.dispose()
    from alembic import command
    from alembic.config import Config

    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["database_url"] = url
    cfg.attributes["configure_logger"] = False
    await asyncio.to_thread(command.upgrade, cfg, "head")


async def seed(engine: AsyncEngine, players: int, matches: int, now: datetime, log: Callable[[str], None]) -> None:
    """Fill an empty migrated database (see the module docstring); one transaction, then VACUUM ANALYZE.

    :raises ValueError: fewer than 2 players or 1 match.
    """
    if players < 2 or matches < 1:
        raise ValueError("need at least 2 players and 1 match")
    params = {"players": players, "matches": matches, "now": now, "pools": len(POOLS)}
    async with engine.begin() as conn:
        await conn.execute(text("SET LOCAL synchronous_commit = off"))
        await conn.execute(
            text("CREATE TEMP TABLE seed_pools (pool_no int, game text, options jsonb, pool text) ON COMMIT DROP")
        )
        for i, (game, options, pool) in enumerate(POOLS):
            await conn.execute(
                text("INSERT INTO seed_pools VALUES (:i, :game, CAST(:options AS jsonb), :pool)"),
                {"i": i, "game": game, "options": options, "pool": pool},
            )
        for name, sql in STEPS:
            started = time.perf_counter()
            used = {k: v for k, v in params.items() if f":{k}" in sql}
            for k in used:  # asyncpg wants the types of parameters used in expressions
                sql = sql.replace(f":{k}", f"CAST(:{k} AS {'timestamptz' if k == 'now' else 'integer'})")
            await conn.execute(text(sql), used)
            log(f"  {name}: {time.perf_counter() - started:.1f} s")
    async with engine.connect() as conn:
        await conn.execution_options(isolation_level="AUTOCOMMIT")
        await conn.execute(text("VACUUM ANALYZE"))  # statistics and the visibility map, as autovacuum keeps them


async def _time(fn: Callable[[], Awaitable[Any]], repeat: int) -> dict[str, float]:
    for _ in range(2):
        await fn()
    walls, cpus = [], []
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        await fn()
        walls.append((time.perf_counter() - w) * 1000)
        cpus.append((time.process_time() - c) * 1000)
    walls.sort()
    return {
        "median": statistics.median(walls),
        "p95": walls[min(len(walls) - 1, round(0.95 * (len(walls) - 1)))],
        "cpu": statistics.median(cpus),
    }


async def _db_time(engine: AsyncEngine, sessionmaker: Any, call: Callable[[Any], Awaitable[Any]]) -> float:
    """The database's own execution time (ms) of every statement one call of ``call`` sends:
    each statement captured, then run again under ``EXPLAIN (ANALYZE)``, its "Execution Time"
    summed (what the server spends, apart from the round trips and this process)."""
    captured: list[tuple[str, Any]] = []

    def capture(_conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        captured.append((statement, parameters))

    event.listen(engine.sync_engine, "before_cursor_execute", capture)
    try:
        async with sessionmaker() as session:
            await call(session)
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", capture)
    total = 0.0
    async with engine.connect() as conn:
        for statement, parameters in captured:
            if not statement.lstrip().upper().startswith(("SELECT", "WITH")):  # reads only
                continue
            result = await conn.exec_driver_sql("EXPLAIN (ANALYZE, FORMAT JSON) " + statement, parameters)
            plan = result.scalar_one()
            total += float((json.loads(plan) if isinstance(plan, str) else plan)[0]["Execution Time"])
    return total


async def measure(engine: AsyncEngine, repeat: int, now: datetime) -> list[tuple[str, dict[str, float]]]:
    """Time the ladder and profile reads. :returns: ``[(what, {"median", "p95", "cpu", "db"}),
    ...]`` (ms; ``db``: :func:`_db_time`)."""
    async with engine.connect() as conn:
        players = int(await conn.scalar(text("SELECT count(*) FROM users")) or 0)
        heavy_id, heavy_games = (
            await conn.execute(
                text("SELECT user_id, count(*) FROM match_results GROUP BY user_id ORDER BY 2 DESC LIMIT 1")
            )
        ).one()
        heavy = await conn.scalar(text("SELECT name FROM users WHERE id = :id"), {"id": heavy_id})
        typical_id = max(2, players // 2)
        typical = await conn.scalar(text("SELECT name FROM users WHERE id = :id"), {"id": typical_id})
        typical_games = await conn.scalar(
            text("SELECT count(*) FROM match_results WHERE user_id = :id"), {"id": typical_id}
        )
        total = int(await conn.scalar(text("SELECT count(*) FROM ratings WHERE pool = 'battle_runes'")) or 0)
        # a player in the middle of this month's Battle Runes standings
        season_viewer = await conn.scalar(
            text(
                "SELECT user_id FROM ladder_points WHERE pool = 'battle_runes' AND season = :season "
                "ORDER BY points DESC, wins DESC, user_id DESC "
                "OFFSET (SELECT count(*) / 2 FROM ladder_points WHERE pool = 'battle_runes' AND season = :season) LIMIT 1"
            ),
            {"season": season_of(now)},
        )
    last_page = max(1, -(-total // reads.PAGE_ROWS))
    sessionmaker = make_sessionmaker(engine)
    out = []

    async def run(what: str, call: Callable[[Any], Awaitable[Any]]) -> None:
        async with sessionmaker() as session:
            timing = await _time(lambda: call(session), repeat)
        timing["db"] = await _db_time(engine, sessionmaker, call)
        out.append((what, timing))

    await run("baseline: SELECT 1 through a session (the machine's floor)", lambda s: s.execute(text("SELECT 1")))
    await run("ladder page 1 (visitor)", lambda s: reads.ladder(s, "battle_runes", 1, None, now))
    await run(
        "ladder page 1, with a viewer off the page (their row)",
        lambda s: reads.ladder(s, "battle_runes", 1, typical_id, now),
    )
    await run(
        "ladder, 'show my place' of a mid-table viewer (rank counted)",
        lambda s: reads.ladder(s, "battle_runes", 1, typical_id, now, find_viewer=True),
    )
    middle = max(1, last_page // 2)
    await run(f"ladder page {middle} (the middle)", lambda s: reads.ladder(s, "battle_runes", middle, None, now))
    await run(f"ladder page {last_page} (the last)", lambda s: reads.ladder(s, "battle_runes", last_page, None, now))
    await run("season standings page 1 (this month, visitor)", lambda s: reads.season_standings(s, "battle_runes"))
    await run(
        "season standings, 'show my place' of a mid-table player",
        lambda s: reads.season_standings(s, "battle_runes", None, 1, season_viewer, now, find_viewer=True),
    )
    await run(
        f"profile of a typical player ({typical_games} matches), with head-to-head",
        lambda s: reads.profile(s, typical, heavy_id, now),
    )
    await run(
        f"profile of the busiest player ({heavy_games} matches), with head-to-head",
        lambda s: reads.profile(s, heavy, typical_id, now),
    )
    return out


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default=DEFAULT_URL)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--fresh", action="store_true", help="drop, create and migrate the database first")
    parser.add_argument("--no-seed", action="store_true", help="only time the reads")
    args = parser.parse_args(argv)
    now = datetime.now(UTC)
    if args.fresh:
        await recreate(args.url)
    engine = make_engine(args.url)
    try:
        if not args.no_seed:
            print(f"seeding {args.players:,} players and {args.matches:,} matches into {args.url}")
            started = time.perf_counter()
            await seed(engine, args.players, args.matches, now, print)
            print(f"seeded in {time.perf_counter() - started:.0f} s")
        async with engine.connect() as conn:
            counts = {
                t: await conn.scalar(text(f"SELECT count(*) FROM {t}"))
                for t in (
                    "users",
                    "matches",
                    "match_results",
                    "rating_changes",
                    "ratings",
                    "ladder_points",
                    "player_records",
                )
            }
        print("rows: " + ", ".join(f"{t} {n:,}" for t, n in counts.items()))
        print(f"\n{'read':<70} {'median ms':>10} {'p95 ms':>8} {'cpu ms':>7} {'db ms':>6}")
        for what, t in await measure(engine, args.repeat, now):
            print(f"{what:<70} {t['median']:>10.2f} {t['p95']:>8.2f} {t['cpu']:>7.2f} {t['db']:>6.2f}")
    finally:
        await engine.dispose()
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
