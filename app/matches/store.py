"""Where the single writer's rows are written on the fast path: plain records of a match and its
seats, and the Core statements that lock a match and store one write (issue 9).

The ORM loads a match with three queries (the row, its seats, their users) and stores it through
the unit of work; on the action path that costs more than the rules. When this process already
holds the match at the version the database has (:class:`~app.matches.live.LiveMatch`), the
writer instead:

1. locks the row and reads its version in one statement (:func:`lock_version`: ``SELECT version
   ... FOR UPDATE`` on PostgreSQL, ``UPDATE ... RETURNING version`` on SQLite, which takes the
   database's write lock);
2. lets the request change a mutable copy of the cached :class:`MatchRecord` (the same attributes
   as :class:`~app.matches.models.Match` and :class:`~app.matches.models.MatchSeat`, so
   :class:`~app.matches.write.WriteContext` and the request bodies work on either);
3. stores what changed (:func:`store`): the new ``match_events`` rows in one ``INSERT``, the
   changed columns of ``matches`` with a compare-and-set on the version it locked, the changed
   ``match_seats`` columns, and the ``match_results`` rows when the match ended.

On PostgreSQL a write that adds events (an action, a join that starts the match, the end) skips
steps 1 and 3: :func:`store_in_one_statement` stores it in one statement without the lock, the
events' unique versions guarding it against a writer elsewhere. A new match's rows are written
by :mod:`app.matches.insert`.

When the versions differ (another process wrote), the writer loads the locked row with the ORM,
as before. Either way every guarantee holds: one writer per match (the row lock), nothing stored
unless committed, nothing acknowledged unless stored.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import operator
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar, cast

from asyncpg.exceptions import UniqueViolationError
from sqlalchemy import JSON, Column, CursorResult, Executable, Table, bindparam, insert, select, update
from sqlalchemy.dialects.postgresql import asyncpg as postgresql_asyncpg
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.expression import ClauseElement
from sqlalchemy.types import NullType

from app.jsontext import dumps
from app.matches.models import Match, MatchEvent, MatchResult, MatchSeat
from app.users.models import User

_MATCHES = cast(Table, Match.__table__)
_SEATS = cast(Table, MatchSeat.__table__)
_EVENTS = cast(Table, MatchEvent.__table__)
_RESULTS = cast(Table, MatchResult.__table__)

#: the columns of ``matches`` and ``match_seats`` a record keeps (all of them)
MATCH_COLUMNS = tuple(c.name for c in _MATCHES.columns)
SEAT_COLUMNS = tuple(c.name for c in _SEATS.columns)


class StateNotKept:
    """What a kept record (:attr:`app.matches.live.LiveMatch.record`) holds in place of the
    ``state`` column's JSON: the decoded state beside it is the match's state, and every write
    encodes the column afresh from that (:meth:`app.matches.write.WriteContext.finish`), so the
    JSON is never read again. Kept, it was a few dozen dicts and lists per match and version that
    lived until the match's next action, long enough to be promoted to the collector's older
    generations (with 5,000 sockets at think 10 s, half of what the middle collections walked).

    Never equal to a column's value; refused by both JSON encoders, so a write that stored it
    instead of encoding the state fails instead of storing a wrong value.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "STATE_NOT_KEPT"


#: the one :class:`StateNotKept`
STATE_NOT_KEPT = StateNotKept()


@dataclass(frozen=True, slots=True)
class UserRef:
    """The holder of a seat: ``id``, ``name``, whether it is a bot account and their rank
    (``users.rank``, as when the match was loaded; what the frames show)."""

    id: int
    name: str
    is_bot: bool = False
    rank: str = "knight"


@dataclass(slots=True)
class SeatRecord:
    """A ``match_seats`` row as a plain object (the attributes of
    :class:`~app.matches.models.MatchSeat`, and ``user``)."""

    match_id: int
    seat: int
    user_id: int | None
    bot_level: str | None
    joined_at: datetime | None
    deadline_at: datetime | None
    timeouts_in_row: int
    away: bool
    away_since: datetime | None
    resigned: bool
    result: str | None
    score: float | None
    bank_ms: int | None
    user: UserRef | None


@dataclass(slots=True)
class EventRecord:
    """A new ``match_events`` row as a plain object (the columns of
    :class:`~app.matches.models.MatchEvent`): what a write on a :class:`MatchRecord` appends,
    cheaper to make than a mapped row, which only the ORM's path needs."""

    match_id: int
    version: int
    seat: int | None
    kind: str
    payload: dict[str, Any]
    created_at: datetime


#: a new ``match_events`` row: mapped (the ORM's path) or plain (the fast path)
AnyEvent = MatchEvent | EventRecord


@dataclass(slots=True)
class MatchRecord:
    """A ``matches`` row and its seats as plain objects (the attributes of
    :class:`~app.matches.models.Match`). JSON columns are replaced, never changed in place, by
    the writer, so a copy shares them."""

    id: int
    game: str
    options: dict[str, Any]
    num_players: int
    status: str
    seed: str
    seed_hash: str
    version: int
    state_version: int
    #: the JSON column; :data:`STATE_NOT_KEPT` in a record a live match keeps (:func:`without_state`)
    state: dict[str, Any] | StateNotKept | None
    pending: dict[str, Any]
    result: dict[str, Any] | None
    deadline_at: datetime | None
    created_by: int | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    origin: str
    origin_ref: str | None
    seats: list[SeatRecord]

    @classmethod
    def of(cls, m: Match | MatchRecord, users: Mapping[int, UserRef] | None = None) -> MatchRecord:
        """A detached copy of ``m`` (an ORM match with its seats and users loaded, or a record).

        :param users: the seats' holders by user id, for a match whose seats' ``user`` was never
            loaded (one just added and flushed): then ``m``'s ``user`` attributes are not read.
        :raises KeyError: a seat's ``user_id`` is not in ``users``.
        """

        def holder(s: Any) -> UserRef | None:
            if users is not None:
                return None if s.user_id is None else users[s.user_id]
            return None if s.user is None else UserRef(s.user.id, s.user.name, s.user.is_bot, s.user.rank)

        seats = [SeatRecord(**{name: getattr(s, name) for name in SEAT_COLUMNS}, user=holder(s)) for s in m.seats]
        return cls(**{name: getattr(m, name) for name in MATCH_COLUMNS}, seats=seats)


def holder_refs(holders: str | list[list[Any]] | None) -> dict[int, UserRef]:
    """The holders a statement answered as JSON ``[[id, name, is_bot, rank], ...]`` (``NULL``:
    none), by user id. The codec SQLAlchemy's dialect sets on its connections decodes the JSON; a
    bare asyncpg connection gives the text."""
    rows: list[list[Any]] = json.loads(holders) if isinstance(holders, str) else holders or []
    return {ref[0]: UserRef(ref[0], ref[1], bool(ref[2]), ref[3]) for ref in rows}


def _changes(before: Any, after: Any, columns: Sequence[str]) -> dict[str, Any]:
    """The columns whose value differs between two records (``is`` first: JSON is replaced)."""
    changed = {}
    for name in columns:
        old, new = getattr(before, name), getattr(after, name)
        if old is not new and old != new:
            changed[name] = new
    return changed


# The statements of the fast path, built once (values bound per call).
_LOCK = select(_MATCHES.c.version).where(_MATCHES.c.id == bindparam("match_id"))
_LOCK_POSTGRES = {skip: _LOCK.with_for_update(skip_locked=skip) for skip in (False, True)}
#: the no-op UPDATE takes SQLite's write lock
_LOCK_SQLITE = (
    update(_MATCHES)
    .where(_MATCHES.c.id == bindparam("match_id"))
    .values(deadline_at=_MATCHES.c.deadline_at)
    .returning(_MATCHES.c.version)
)
EVENT_COLUMNS = ("match_id", "version", "seat", "kind", "payload", "created_at")
_INSERT_EVENTS = insert(_EVENTS).values({name: bindparam(name) for name in EVENT_COLUMNS})
RESULT_COLUMNS = tuple(c.name for c in _RESULTS.columns if c.name != "id")
_INSERT_RESULTS = insert(_RESULTS).values({name: bindparam(name) for name in RESULT_COLUMNS})
#: the ``matches`` columns a write may change, all stored by :data:`_UPDATE_MATCH` (the state left
#: out, by ``_UPDATE_MATCH_BUT_STATE``, when the write kept :data:`STATE_NOT_KEPT`: it did not encode it)
WRITTEN_COLUMNS = (
    "status",
    "version",
    "state_version",
    "state",
    "pending",
    "result",
    "deadline_at",
    "started_at",
    "finished_at",
)
_UPDATE_MATCH, _UPDATE_MATCH_BUT_STATE = (
    update(_MATCHES)
    .where(_MATCHES.c.id == bindparam("m_id"), _MATCHES.c.version == bindparam("m_version"))
    .values({name: bindparam(name) for name in columns})
    for columns in (WRITTEN_COLUMNS, tuple(name for name in WRITTEN_COLUMNS if name != "state"))
)
#: the ``match_seats`` columns a write may change, all stored by :data:`_UPDATE_SEAT`
SEAT_WRITTEN = tuple(name for name in SEAT_COLUMNS if name not in ("match_id", "seat"))
_UPDATE_SEAT = (
    update(_SEATS)
    .where(_SEATS.c.match_id == bindparam("s_match"), _SEATS.c.seat == bindparam("s_seat"))
    .values({name: bindparam(name) for name in SEAT_WRITTEN})
)


class Statements:
    """Runs the fast path's statements in one transaction: through a SQLAlchemy Core connection
    (:class:`CoreStatements`, SQLite) or straight on the asyncpg connection under it
    (:class:`AsyncpgStatements`, PostgreSQL)."""

    async def scalar(self, stmt: Executable, params: dict[str, Any]) -> Any:
        """The first column of the first row of ``stmt``, or ``None``."""
        raise NotImplementedError

    async def execute(self, stmt: Executable, params: dict[str, Any]) -> int:
        """Run ``stmt`` once; :returns: the rows it changed."""
        raise NotImplementedError

    async def execute_many(self, stmt: Executable, rows: list[dict[str, Any]]) -> None:
        """Run ``stmt`` once per row of ``rows``."""
        raise NotImplementedError

    async def user_refs(self, ids: list[int]) -> dict[int, UserRef]:
        """``{user id: UserRef}`` of ``ids``."""
        raise NotImplementedError


class CoreStatements(Statements):
    """:class:`Statements` on a SQLAlchemy ``AsyncConnection`` inside its transaction."""

    def __init__(self, conn: AsyncConnection) -> None:
        self.conn = conn

    async def scalar(self, stmt: Executable, params: dict[str, Any]) -> Any:
        return (await self.conn.execute(stmt, params)).scalar_one_or_none()

    async def execute(self, stmt: Executable, params: dict[str, Any]) -> int:
        return cast(CursorResult[Any], await self.conn.execute(stmt, params)).rowcount

    async def execute_many(self, stmt: Executable, rows: list[dict[str, Any]]) -> None:
        await self.conn.execute(stmt, rows)

    async def user_refs(self, ids: list[int]) -> dict[int, UserRef]:
        rows = await self.conn.execute(select(User.id, User.name, User.is_bot, User.rank).where(User.id.in_(ids)))
        return {user_id: UserRef(user_id, name, bool(is_bot), rank) for user_id, name, is_bot, rank in rows.all()}


class AsyncpgStatements(Statements):
    """:class:`Statements` straight on the asyncpg connection (PostgreSQL): each statement is
    compiled once by SQLAlchemy's asyncpg dialect into SQL with ``$n`` parameters and run as an
    asyncpg prepared statement, without the session, result and greenlet layers (a third of the
    event loop's time under load went there). The caller holds the transaction
    (``connection.transaction()``).
    """

    #: id(statement) -> (SQL, parameter names in ``$n`` order, names of the JSON parameters)
    _compiled: ClassVar[dict[int, tuple[str, tuple[str, ...], frozenset[str]]]] = {}
    _dialect = postgresql_asyncpg.dialect()  # type: ignore[no-untyped-call]

    def __init__(self, driver: Any) -> None:
        self.driver = driver

    @classmethod
    def _sql(cls, stmt: Executable) -> tuple[str, tuple[str, ...], frozenset[str]]:
        found = cls._compiled.get(id(stmt))
        if found is None:
            compiled = cast(ClauseElement, stmt).compile(dialect=cls._dialect)
            names = tuple(getattr(compiled, "positiontup", None) or ())
            binds = getattr(compiled, "binds", {})
            json_names = frozenset(n for n in names if n in binds and isinstance(binds[n].type, JSON))
            found = cls._compiled[id(stmt)] = (str(compiled), names, json_names)
        return found

    @staticmethod
    def _args(names: tuple[str, ...], json_names: frozenset[str], params: dict[str, Any]) -> list[Any]:
        """The values in ``$n`` order; JSON ones serialised (as SQLAlchemy's JSON type would)."""
        return [
            dumps(params[name]) if name in json_names and params[name] is not None else params[name] for name in names
        ]

    async def scalar(self, stmt: Executable, params: dict[str, Any]) -> Any:
        sql, names, json_names = self._sql(stmt)
        return await self.driver.fetchval(sql, *self._args(names, json_names, params))

    async def execute(self, stmt: Executable, params: dict[str, Any]) -> int:
        sql, names, json_names = self._sql(stmt)
        status: str = await self.driver.execute(sql, *self._args(names, json_names, params))
        return int(status.rsplit(" ", 1)[-1])  # "UPDATE 1"

    async def execute_many(self, stmt: Executable, rows: list[dict[str, Any]]) -> None:
        sql, names, json_names = self._sql(stmt)
        if len(rows) == 1:
            await self.driver.execute(sql, *self._args(names, json_names, rows[0]))
        else:
            await self.driver.executemany(sql, [self._args(names, json_names, row) for row in rows])

    async def user_refs(self, ids: list[int]) -> dict[int, UserRef]:
        rows = await self.driver.fetch("SELECT id, name, is_bot, rank FROM users WHERE id = ANY($1::integer[])", ids)
        return {row["id"]: UserRef(row["id"], row["name"], bool(row["is_bot"]), row["rank"]) for row in rows}


async def lock_version(
    statements: Statements, match_id: int, *, postgres: bool, skip_locked: bool = False
) -> int | None:
    """Lock match ``match_id`` for this transaction and return its version (one statement).

    :returns: the version, or ``None`` when there is no such match (or, with ``skip_locked`` on
        PostgreSQL, another transaction holds it).
    """
    stmt = _LOCK_POSTGRES[skip_locked] if postgres else _LOCK_SQLITE
    version: int | None = await statements.scalar(stmt, {"match_id": match_id})
    return version


async def store(
    statements: Statements,
    before: MatchRecord,
    after: MatchRecord,
    events: Sequence[AnyEvent],
    results: Sequence[MatchResult],
) -> bool:
    """Store one write on the fast path: ``events`` (new ``match_events`` rows, not added to a
    session), the match's :data:`WRITTEN_COLUMNS` when any column of ``after`` differs from
    ``before``, each changed seat's columns, and ``results``; fill in the names of users who took
    a seat.

    :param statements: the writer's transaction.
    :returns: False when the match's version was no longer ``before.version`` (nothing of the
        match was changed then; the caller rolls back).
    :raises ValueError: the write changed a column outside :data:`WRITTEN_COLUMNS` (a bug).
    """
    if events:
        await statements.execute_many(
            _INSERT_EVENTS, [{name: getattr(e, name) for name in EVENT_COLUMNS} for e in events]
        )
    changed = _changes(before, after, MATCH_COLUMNS)
    if changed:
        unexpected = sorted(changed.keys() - set(WRITTEN_COLUMNS))
        if unexpected:
            raise ValueError(f"match {before.id}: the writer changed {unexpected}")
        # every written column is stored, deadline_at included: the sweeper's lease moves it
        # outside the writer (app.matches.sweeper), so the cached value may not be the stored one
        values = {name: getattr(after, name) for name in WRITTEN_COLUMNS}
        values["m_id"], values["m_version"] = before.id, before.version
        statement = _UPDATE_MATCH
        if after.state is STATE_NOT_KEPT:  # a write that left the state alone (no event): so does the row
            del values["state"]
            statement = _UPDATE_MATCH_BUT_STATE
        if await statements.execute(statement, values) != 1:
            return False
    new_users = []
    seat_rows = []
    for old, new in zip(before.seats, after.seats, strict=True):
        if _changes(old, new, SEAT_WRITTEN):
            seat_rows.append({"s_match": before.id, "s_seat": old.seat, **{n: getattr(new, n) for n in SEAT_WRITTEN}})
            if old.user_id != new.user_id:
                new_users.append(new)
    if seat_rows:
        await statements.execute_many(_UPDATE_SEAT, seat_rows)
    if new_users:
        refs = await statements.user_refs([s.user_id for s in new_users if s.user_id is not None])
        for s in new_users:
            s.user = None if s.user_id is None else refs[s.user_id]
    if results:
        await statements.execute_many(
            _INSERT_RESULTS, [{name: getattr(r, name) for name in RESULT_COLUMNS} for r in results]
        )
    return True


#: a record's fields in the order of its constructor (``seats`` last), read at once
_MATCH_FIELDS = operator.attrgetter(*(f.name for f in dataclasses.fields(MatchRecord) if f.name != "seats"))
_SEAT_FIELDS = operator.attrgetter(*(f.name for f in dataclasses.fields(SeatRecord)))
assert dataclasses.fields(MatchRecord)[-1].name == "seats"


def copy_record(record: MatchRecord) -> MatchRecord:
    """A copy of ``record`` whose seats may be changed without changing ``record`` (once per
    write: built from the fields in order, 1.7 us against 12 us through ``dataclasses.replace``)."""
    build: Callable[..., MatchRecord] = MatchRecord  # positional fields: mypy cannot count them
    return build(*_MATCH_FIELDS(record), [SeatRecord(*_SEAT_FIELDS(s)) for s in record.seats])


_STATE_FIELD = [f.name for f in dataclasses.fields(MatchRecord) if f.name != "seats"].index("state")


def without_state(record: MatchRecord) -> MatchRecord:
    """``record`` with :data:`STATE_NOT_KEPT` for its state (when it has one), sharing its seats:
    what a live match keeps (:class:`StateNotKept` says why)."""
    if record.state is None or record.state is STATE_NOT_KEPT:
        return record
    fields = list(_MATCH_FIELDS(record))
    fields[_STATE_FIELD] = STATE_NOT_KEPT
    build: Callable[..., MatchRecord] = MatchRecord
    return build(*fields, record.seats)


#: the ``match_events`` columns the one statement takes as arrays, ``$2``-``$6`` (``match_id`` is
#: ``$1``)
_EVENT_ARRAYS = tuple(name for name in EVENT_COLUMNS if name != "match_id")
#: the ``match_results`` columns the one statement takes as arrays (``match_id`` is ``$1``)
_RESULT_ARRAYS = tuple(name for name in RESULT_COLUMNS if name != "match_id")
#: the JSON columns of ``matches`` (sent to the driver as JSON text)
MATCH_JSON_COLUMNS = frozenset(c.name for c in _MATCHES.columns if isinstance(c.type, JSON))


def pg_type(column: Column[Any]) -> str:
    """The type a parameter bound for ``column`` is cast to in hand-written PostgreSQL SQL:
    the column's own type without a length (``VARCHAR``, not ``VARCHAR(16)``: an explicit cast to
    ``VARCHAR(16)`` would cut a longer value silently, where storing it in the column refuses it).
    A foreign key's column (declared without a type) takes the referenced column's."""
    type_ = column.type
    if isinstance(type_, NullType):
        type_ = next(iter(column.foreign_keys)).column.type
    return re.sub(r"\(\d+\)", "", str(type_.compile(dialect=AsyncpgStatements._dialect)))


def unnest_arrays(first: int, table: Table, columns: Sequence[str]) -> str:
    """The arguments of an ``unnest``: one array parameter per column of ``table``, numbered from
    ``$first``, each cast to its column's type (:func:`pg_type`)."""
    return ", ".join(f"${first + i}::{pg_type(table.c[name])}[]" for i, name in enumerate(columns))


def _one_statement_sql(with_seats: bool, with_results: bool, with_holders: bool) -> str:
    """The SQL of :func:`store_in_one_statement`: the events inserted, the changed seats updated
    (``with_seats``), the ``match_results`` rows inserted (``with_results``) and the match
    compare-and-set, as data-modifying CTEs of one ``UPDATE``, which returns the new version and
    (``with_holders``) the new holders' ``[id, name, is_bot, rank]`` as a JSON array.

    Parameters: ``$1`` the match id; ``$2``-``$6`` the events' arrays; then one per
    :data:`WRITTEN_COLUMNS`; the version compared; then the seats' arrays (``seat`` and
    :data:`SEAT_WRITTEN`), the results' arrays (:data:`_RESULT_ARRAYS`) and the holders' ids, each
    group only when asked for.
    """
    match_sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(WRITTEN_COLUMNS, start=7))
    cas = 7 + len(WRITTEN_COLUMNS)
    following = cas + 1
    event_names = ", ".join(_EVENT_ARRAYS)
    sql = (
        f"WITH events AS (INSERT INTO match_events (match_id, {event_names}) "
        f"SELECT $1, {', '.join(f'e.{name}' for name in _EVENT_ARRAYS)} "
        f"FROM unnest({unnest_arrays(2, _EVENTS, _EVENT_ARRAYS)}) AS e({event_names}))"
    )
    if with_seats:
        columns = ("seat", *SEAT_WRITTEN)
        sets = ", ".join(f"{name} = u.{name}" for name in SEAT_WRITTEN)
        sql += (
            f", seats AS (UPDATE match_seats AS s SET {sets} FROM unnest({unnest_arrays(following, _SEATS, columns)}) "
            f"AS u({', '.join(columns)}) WHERE s.match_id = $1 AND s.seat = u.seat)"
        )
        following += len(columns)
    if with_results:
        names = ", ".join(_RESULT_ARRAYS)
        sql += (
            f", results AS (INSERT INTO match_results (match_id, {names}) "
            f"SELECT $1, {', '.join(f'r.{name}' for name in _RESULT_ARRAYS)} "
            f"FROM unnest({unnest_arrays(following, _RESULTS, _RESULT_ARRAYS)}) AS r({names}))"
        )
        following += len(_RESULT_ARRAYS)
    sql += f" UPDATE matches SET {match_sets} WHERE id = $1 AND version = ${cas} RETURNING version"
    if with_holders:
        sql += (
            ", (SELECT json_agg(json_build_array(h.id, h.name, h.is_bot, h.rank)) "
            f"FROM users AS h WHERE h.id = ANY(${following}::integer[])) AS holders"
        )
    return sql


_ONE_STATEMENT = {flags: _one_statement_sql(*flags) for flags in itertools.product((False, True), repeat=3)}


def fits_one_statement(events: Sequence[AnyEvent]) -> bool:
    """Whether :func:`store_in_one_statement` can store a write: it adds events, whose unique
    versions are what guards it against a writer elsewhere."""
    return bool(events)


async def store_in_one_statement(
    driver: Any,
    before: MatchRecord,
    after: MatchRecord,
    events: Sequence[AnyEvent],
    results: Sequence[MatchResult] = (),
) -> bool:
    """Store a write on PostgreSQL in one round trip, without a transaction around it: one
    statement whose CTEs insert ``events``, update the changed seats and insert ``results`` (the
    ``match_results`` rows of a write that ends the match), and whose ``UPDATE``
    compare-and-sets the match on ``before.version``. A single statement is atomic. The seats
    of ``after`` that a new user took get that user's :class:`UserRef` (read in the same
    statement).

    No row lock is taken first, and none is needed: a writer in another process that started from
    the same version appends the same event versions, and the unique ``(match_id, version)`` makes
    one of the two statements fail whole (the other's commit is waited for); the version check is
    the second guard.

    :param driver: an asyncpg connection outside any transaction (``fits_one_statement`` true).
    :returns: False when the match was no longer at ``before.version`` (nothing was stored).
    :raises asyncpg.exceptions.ForeignKeyViolationError: a seat's new user does not exist.
    """
    args: list[Any] = [
        before.id,
        [e.version for e in events],
        [e.seat for e in events],
        [e.kind for e in events],
        [dumps(e.payload) for e in events],
        [e.created_at for e in events],
    ]
    for name in WRITTEN_COLUMNS:
        value = getattr(after, name)
        args.append(dumps(value) if name in MATCH_JSON_COLUMNS and value is not None else value)
    args.append(before.version)
    changed_seats = []
    new_holders = []
    for old, new in zip(before.seats, after.seats, strict=True):
        if _changes(old, new, SEAT_WRITTEN):
            changed_seats.append(new)
            if old.user_id != new.user_id:
                new.user = None
                if new.user_id is not None:
                    new_holders.append(new)
    if changed_seats:
        args.append([s.seat for s in changed_seats])
        args += [[getattr(s, name) for s in changed_seats] for name in SEAT_WRITTEN]
    if results:
        args += [[getattr(r, name) for r in results] for name in _RESULT_ARRAYS]
    if new_holders:
        args.append([s.user_id for s in new_holders])
    sql = _ONE_STATEMENT[bool(changed_seats), bool(results), bool(new_holders)]
    try:
        row = await driver.fetchrow(sql, *args)
    except UniqueViolationError:
        return False
    if row is None:
        return False
    if new_holders:
        refs = holder_refs(row["holders"])
        for s in new_holders:
            s.user = refs[cast(int, s.user_id)]
    return True
