"""The sessions that look up the user behind a request (``app.db.session.make_lookup_sessionmaker``).

On PostgreSQL they run in autocommit: the lookup is one statement, with no ``BEGIN`` and
``ROLLBACK`` around it. They share the request pool, so a connection they used must come back to
the other sessions transactional again (a write there must still roll back whole).
"""

from __future__ import annotations

from sqlalchemy import event, text

from app.db.session import make_engine, make_lookup_sessionmaker, make_sessionmaker
from app.users import service
from app.users.models import User
from tests.conftest import run


def test_a_lookup_is_one_statement_and_the_pool_stays_transactional(db_url: str) -> None:
    async def go() -> None:
        engine = make_engine(db_url, pool_size=1, max_overflow=0)  # one connection: both makers share it
        postgres = engine.dialect.name == "postgresql"
        sessions, lookups = make_sessionmaker(engine), make_lookup_sessionmaker(engine)
        try:
            async with sessions() as session:
                user = User(name="lookup", name_key="lookup", name_skeleton="lookup", password_hash="x")
                session.add(user)
                await session.commit()
                token = await service.create_token(session, user)

            sent: list[str] = []

            def record(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
                sent.append(statement.split()[0].upper())

            event.listen(engine.sync_engine, "before_cursor_execute", record)
            async with lookups() as session:
                found = await service.user_for_token(session, token)  # touches last_used_at: committed
            event.remove(engine.sync_engine, "before_cursor_execute", record)
            assert found is not None and found.id == user.id
            assert sent == ["SELECT", "UPDATE"]  # the statements themselves (BEGIN is not a cursor's)
            if postgres:  # each statement is a transaction of its own: now() moves between them
                async with lookups() as session:
                    start = (await session.execute(text("SELECT now()"))).scalar()
                    await session.execute(text("SELECT pg_sleep(0.01)"))
                    assert (await session.execute(text("SELECT now()"))).scalar() > start
                async with sessions() as session:  # one transaction: now() stands still
                    start = (await session.execute(text("SELECT now()"))).scalar()
                    await session.execute(text("SELECT pg_sleep(0.01)"))
                    assert (await session.execute(text("SELECT now()"))).scalar() == start

            async with sessions() as session:  # the same pooled connection, transactional again
                await session.execute(text("UPDATE users SET rank = 'lord' WHERE id = :id"), {"id": user.id})
                await session.rollback()
            async with sessions() as session:
                rank = (await session.execute(text("SELECT rank FROM users WHERE id = :id"), {"id": user.id})).scalar()
            assert rank != "lord"
            async with lookups() as session:  # the touch was committed by the lookup on its own
                used = (
                    await session.execute(
                        text("SELECT last_used_at FROM api_tokens WHERE user_id = :id"), {"id": user.id}
                    )
                ).scalar()
            assert used is not None
        finally:
            await engine.dispose()

    run(go())


def test_requests_are_authenticated_through_the_lookup_sessions(client) -> None:
    path = "/api/users/me"
    name = "looker"
    assert client.post("/api/auth/register", json={"name": name, "password": "correct horse battery"}).status_code in (
        200,
        201,
    )
    token = client.post("/api/auth/token", json={"name": name, "password": "correct horse battery"}).json()["token"]
    answer = client.get(path, headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200 and answer.json()["name"] == name
    assert client.get(path, headers={"Authorization": "Bearer nope"}).status_code == 401
