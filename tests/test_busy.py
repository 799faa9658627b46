"""Floods of requests get correct, quick answers (issue 17, item 1): waiting for a match costs no
database connection, the waits are bounded, and what cannot be served in time is refused with 503
``busy`` and ``Retry-After`` (never a 500 after 30 s); the health check has its own connections.

Battle Runes is simultaneous: at one version each seat may choose once, so of many acts sent
at once exactly one per seat is stored and every other one is refused with a 409 code.
"""

from __future__ import annotations

import asyncio
import time

import httpx

from app.db.session import make_engine, make_sessionmaker
from app.main import create_app
from app.users import service as users
from app.users.models import User
from tests.conftest import make_settings

#: what a refused act may answer, besides a 503 ``busy`` (a turn can end a Battle Runes match)
REFUSALS = {"not_your_turn", "stale_version", "game_over"}


async def _players(url: str, count: int) -> list[str]:
    """``count`` users with API tokens, made directly in the database (registration is not
    what these tests measure)."""
    engine = make_engine(url)
    sessionmaker = make_sessionmaker(engine)
    tokens = []
    async with sessionmaker() as session:
        for i in range(count):
            user = User(name=f"flood{i}", name_key=f"flood{i}", password_hash="x")
            session.add(user)
            await session.commit()
            tokens.append(await users.create_token(session, user, "flood"))
    await engine.dispose()
    return tokens


async def _flood(settings, matches: int, per_match: int):
    """Open ``matches`` Battle Runes matches, then send ``per_match`` acts to each at once (half
    per seat, all at the match's version), and ask ``/healthz`` in the middle of it.

    :returns: ``(answers, health, seconds)``: per match a list of ``(status, code, seconds,
        retry_after)``, the health check's ``(status, seconds)``, and the whole flood's time.
    """
    tokens = await _players(settings.database_url, 2)
    app = create_app(settings, start_workers=False)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
            ids, legal = [], []
            for _ in range(matches):
                r = await http.post("/api/matches", json={"game": "battle_runes"}, headers=auth[0])
                assert r.status_code == 201, r.text
                match_id = r.json()["id"]
                assert (await http.post(f"/api/matches/{match_id}/join", headers=auth[1])).status_code == 200
                snaps = [(await http.get(f"/api/matches/{match_id}/snapshot", headers=auth[s])).json() for s in (0, 1)]
                ids.append(match_id)
                legal.append([(snap["version"], snap["legal"]) for snap in snaps])

            async def act(i: int, n: int):
                seat = n % 2
                version, actions = legal[i][seat]
                body = {"action": actions[n % len(actions)], "version": version}
                t0 = time.perf_counter()
                r = await http.post(f"/api/matches/{ids[i]}/act", json=body, headers=auth[seat])
                code = None if r.status_code == 200 else r.json()["error"]["code"]
                return r.status_code, code, time.perf_counter() - t0, r.headers.get("Retry-After")

            async def health():
                await asyncio.sleep(0)  # after the flood has started
                t0 = time.perf_counter()
                r = await http.get("/healthz")
                return r.status_code, time.perf_counter() - t0

            t0 = time.perf_counter()
            results = await asyncio.gather(health(), *(act(i, n) for i in range(matches) for n in range(per_match)))
            seconds = time.perf_counter() - t0
            health_answer, flat = results[0], results[1:]
            answers = [flat[i * per_match : (i + 1) * per_match] for i in range(matches)]
            finals = [(await http.get(f"/api/matches/{i}", headers=auth[0])).json() for i in ids]
    return answers, health_answer, seconds, finals, legal


async def test_a_hundred_acts_at_one_match_wait_without_connections(db_url):
    """One database connection in the pool is enough for 100 acts at one match: they wait for the
    match, not for a connection, so none is refused as busy; exactly one per seat is stored."""
    settings = make_settings(
        db_url, db_pool_size=1, db_max_overflow=0, db_pool_timeout_seconds=5.0, match_lock_wait_seconds=60.0
    )
    answers, health, seconds, finals, legal = await _flood(settings, matches=1, per_match=100)
    (match_answers,) = answers
    codes = [code for status, code, _, _ in match_answers]
    assert [status for status, *_ in match_answers].count(500) == 0
    assert codes.count(None) == 2, codes  # one act stored per seat: the turn resolved
    assert set(codes) - {None} <= REFUSALS, codes
    assert finals[0]["version"] > legal[0][0][0]
    assert health[0] == 200
    assert seconds < 60, seconds


async def test_a_hundred_acts_at_ten_matches_are_answered_or_refused_quickly(db_url):
    """Ten matches, ten acts each at once, two connections and half a second of patience: every
    answer is a stored act, a 409 refusal or a 503 ``busy`` with ``Retry-After``, within the
    bounded waits; never two stored acts of one seat, never a 500; the health check answers."""
    settings = make_settings(
        db_url, db_pool_size=2, db_max_overflow=0, db_pool_timeout_seconds=0.5, match_lock_wait_seconds=0.5
    )
    answers, health, _, _, _ = await _flood(settings, matches=10, per_match=10)
    for match_answers in answers:
        for status, code, took, retry_after in match_answers:
            assert status in (200, 409, 503), (status, code)
            if status == 503:
                assert code == "busy" and retry_after is not None and int(retry_after) >= 1
            elif status == 409:
                assert code in REFUSALS
            # a request waits for its match (0.5 s) and for a connection (0.5 s), plus the time of
            # the write itself on a shared, slow machine
            assert took < 15, took
        stored = [n % 2 for n, (status, *_) in enumerate(match_answers) if status == 200]
        assert sorted(stored) in ([], [0], [1], [0, 1]), stored
    assert health[0] == 200


def test_a_socket_that_finds_no_database_connection_is_told_busy_and_may_come_back(sqlite_url):
    """A websocket whose viewer cannot be looked up because every connection is in use gets a
    ``busy`` frame and closes with 1013 (try again later), not an HTTP error page on a socket;
    once a connection is free again the same viewer comes in."""
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from tests.service.test_gateway import _match, _recv, _user

    settings = make_settings(sqlite_url, db_pool_size=1, db_max_overflow=0, db_pool_timeout_seconds=0.2)
    with TestClient(create_app(settings)) as client:
        a, b = _user(client, "alice"), _user(client, "bobby")
        url = f"/ws/matches/{_match(client, a, b)}"
        engine = client.app.state.engine
        held = client.portal.call(engine.connect)
        try:
            with client.websocket_connect(url, headers=a) as ws:
                frame = _recv(ws, "error")
                assert frame["code"] == "busy" and frame["params"]["retry_after"] >= 1, frame
                try:
                    _recv(ws)
                except WebSocketDisconnect as closed:
                    assert closed.code == 1013
                else:
                    raise AssertionError("the socket stayed open")
        finally:
            client.portal.call(held.close)
        with client.websocket_connect(url, headers=a) as ws:
            ws.send_json({"type": "ping"})
            assert _recv(ws, "pong")
