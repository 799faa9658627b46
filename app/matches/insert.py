"""Where a new match's rows are written on PostgreSQL: the ``matches`` row, its ``match_seats``
and the cap on a player's waiting matches, in one statement (issue 9).

Creating a match through the ORM took seven round trips (``BEGIN``, the creator's row locked,
the waiting matches counted, the match inserted, its seats inserted, the holders' names read,
``COMMIT``) and the unit of work's flush around them. :func:`insert_match` makes it one statement
(CTEs: the count, the match inserted only when the count is under the cap, the seats, and the
holders' names in the answer), after the creator's row is locked when a cap applies. The lock is
a statement of its own on purpose: one statement sees the database as it was when it began, so a
count in the statement that waited for the lock could miss a match another request of the same
player committed meanwhile; the next statement sees it (PostgreSQL's READ COMMITTED). ``BEGIN``
and the lock go in one round trip (two statements of one simple query), so a capped create makes
three (that, the insert, ``COMMIT``) instead of four.

SQLite keeps the ORM's way (:meth:`app.matches.service.MatchService.create_match`).
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import Table

from app.jsontext import dumps
from app.matches.models import WAITING, Match, MatchSeat
from app.matches.store import (
    MATCH_COLUMNS,
    MATCH_JSON_COLUMNS,
    SEAT_COLUMNS,
    UserRef,
    holder_refs,
    pg_type,
    unnest_arrays,
)

_MATCHES = cast(Table, Match.__table__)
_SEATS = cast(Table, MatchSeat.__table__)

#: the columns a new match's rows are inserted with (the ids come from the database)
_MATCH_INSERTED = tuple(name for name in MATCH_COLUMNS if name != "id")
_SEAT_INSERTED = tuple(name for name in SEAT_COLUMNS if name != "match_id")


def _insert_match_sql() -> str:
    """The statement of :func:`insert_match`. Parameters: one per :data:`_MATCH_INSERTED`, then
    the creator whose waiting matches are counted and the cap, then one array per
    :data:`_SEAT_INSERTED`, then the holders' ids. Answers ``open`` (the creator's waiting
    matches before this one), ``id`` (NULL when the cap refused it) and ``holders`` (JSON
    ``[[id, name, is_bot, rank], ...]``)."""
    count = len(_MATCH_INSERTED)
    values = ", ".join(f"${i}::{pg_type(_MATCHES.c[name])}" for i, name in enumerate(_MATCH_INSERTED, start=1))
    creator, cap, first = count + 1, count + 2, count + 3
    holders = first + len(_SEAT_INSERTED)
    seat_names = ", ".join(_SEAT_INSERTED)
    return (
        f"WITH open AS (SELECT count(*) AS n FROM matches WHERE created_by = ${creator} AND status = '{WAITING}'), "
        f"m AS (INSERT INTO matches ({', '.join(_MATCH_INSERTED)}) SELECT {values} "
        f"WHERE (SELECT n FROM open) < ${cap} RETURNING id), "
        f"s AS (INSERT INTO match_seats (match_id, {seat_names}) "
        f"SELECT m.id, {', '.join(f'u.{name}' for name in _SEAT_INSERTED)} "
        f"FROM m, unnest({unnest_arrays(first, _SEATS, _SEAT_INSERTED)}) AS u({seat_names})) "
        "SELECT (SELECT n FROM open) AS open, (SELECT id FROM m) AS id, "
        "(SELECT json_agg(json_build_array(h.id, h.name, h.is_bot, h.rank)) "
        f"FROM users AS h WHERE h.id = ANY(${holders}::integer[])) AS holders"
    )


_INSERT_MATCH = _insert_match_sql()
_BEGIN_LOCK_USER = "BEGIN; SELECT 1 FROM users WHERE id = {user_id} FOR UPDATE"


async def insert_match(
    driver: Any, m: Match, *, capped_by: int | None, cap: int
) -> tuple[int | None, int, dict[int, UserRef]]:
    """Insert the new match ``m`` (built by :func:`app.matches.service.new_match`, not in a
    session) and its seats; set ``m.id`` and the seats' ``match_id``.

    :param driver: an asyncpg connection outside any transaction.
    :param capped_by: the user whose waiting matches are counted (the creator, when the match will
        wait for players); the user's row is locked first, so two requests of one player are
        counted one after the other. ``None``: no cap.
    :param cap: the most waiting matches ``capped_by`` may have (``max_open_matches``).
    :returns: ``(id, open, holders)``: the new match's id, or ``None`` when ``capped_by``
        already had ``open >= cap`` waiting matches (nothing was inserted); the holders of its
        seats by user id.
    :raises asyncpg.exceptions.ForeignKeyViolationError: a seat's user does not exist.
    """
    args: list[Any] = []
    for name in _MATCH_INSERTED:
        value = getattr(m, name)
        args.append(dumps(value) if name in MATCH_JSON_COLUMNS and value is not None else value)
    args += [capped_by, cap if capped_by is not None else 1]
    args += [[getattr(s, name) for s in m.seats] for name in _SEAT_INSERTED]
    args.append([s.user_id for s in m.seats if s.user_id is not None])
    if capped_by is None:
        row = await driver.fetchrow(_INSERT_MATCH, *args)
    else:
        # BEGIN and the lock in one round trip: a parameterless execute goes by the simple query
        # protocol, which takes several statements (the id is an int, formatted as one)
        try:
            await driver.execute(_BEGIN_LOCK_USER.format(user_id=int(capped_by)))
            row = await driver.fetchrow(_INSERT_MATCH, *args)
        except BaseException:  # (as asyncpg's transaction(): the lock is not kept into the pool)
            await driver.execute("ROLLBACK")
            raise
        await driver.execute("COMMIT")
    if row["id"] is None:
        return None, row["open"], {}
    m.id = row["id"]
    for s in m.seats:
        s.match_id = m.id
    return m.id, row["open"], holder_refs(row["holders"])
