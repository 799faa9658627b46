"""Accounts: registration, cookie login, API tokens, the current user, login rate limits.

Every test that takes ``client`` (or ``db_url``) runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import hashlib
import unicodedata

import pytest
from argon2 import PasswordHasher
from fastapi import WebSocket
from fastapi.testclient import TestClient
from pydantic import ValidationError
from sqlalchemy import delete, func, select

from app.db.session import make_engine, make_sessionmaker
from app.settings import DEV_SECRET, Settings
from app.users import names
from app.users.deps import user_from_connection
from app.users.models import ApiToken, User
from tests.conftest import make_settings

PASSWORD = "correct horse battery"


def register(client: TestClient, name: str = "Alice", password: str = PASSWORD):
    return client.post("/api/auth/register", json={"name": name, "password": password})


def login(client: TestClient, name: str = "Alice", password: str = PASSWORD):
    return client.post("/api/auth/login", json={"name": name, "password": password})


def new_token(client: TestClient, name: str = "Alice", password: str = PASSWORD, **extra) -> str:
    r = client.post("/api/auth/token", json={"name": name, "password": password, **extra})
    assert r.status_code == 201, r.text
    assert r.json()["token_type"] == "bearer"
    return r.json()["token"]


def sibling(client: TestClient, address: tuple[str, int] = ("testclient", 50001)) -> TestClient:
    """Another browser (own cookies, own client address) on the running app and its event loop."""
    other = TestClient(client.app, client=address)
    other.portal = client.portal  # reuse the running app's loop instead of starting the lifespan again
    return other


def db(client: TestClient, fn):
    """Run ``await fn(session)`` on the app's own event loop and database."""

    async def go():
        async with client.app.state.sessionmaker() as session:
            return await fn(session)

    return client.portal.call(go)


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code
    assert error["message"]
    assert isinstance(error["params"], dict)
    return error


# --- register, login, logout, me -----------------------------------------------------------------


def test_register_login_logout_me_round_trip(client):
    assert_error(client.get("/api/users/me"), 401, "unauthorized")

    r = register(client, "Alice")
    assert r.status_code == 201, r.text
    user = r.json()["user"]
    assert user["name"] == "Alice" and isinstance(user["id"], int)
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("arena_session=")
    assert "httponly" in cookie.lower()
    assert "samesite=lax" in cookie.lower()

    assert client.get("/api/users/me").json() == user  # registering logged the browser in

    r = client.post("/api/auth/logout")
    assert r.status_code == 204
    assert_error(client.get("/api/users/me"), 401, "unauthorized")

    r = login(client, "alice")  # any letter case
    assert r.status_code == 200, r.text
    assert r.json() == {"user": user}
    assert "httponly" in r.headers["set-cookie"].lower()
    assert client.get("/api/users/me").json() == {"id": user["id"], "name": "Alice", "is_bot": False, "rank": "knight"}


def test_two_users_have_separate_sessions(client):
    alice = register(client, "Alice").json()["user"]
    other = sibling(client)
    bob = register(other, "bob_the-2nd").json()["user"]
    assert other.get("/api/users/me").json() == bob
    assert client.get("/api/users/me").json() == alice
    assert alice["id"] != bob["id"]


def test_session_of_deleted_user_is_logged_out(client):
    register(client, "Alice")

    async def drop(session):
        await session.execute(delete(User))
        await session.commit()

    db(client, drop)
    assert_error(client.get("/api/users/me"), 401, "unauthorized")


# --- names and passwords -------------------------------------------------------------------------


@pytest.mark.parametrize("again", ["Alice", "alice", "ALICE", "  aLiCe "])
def test_taken_name_is_case_insensitive(client, again):
    assert register(client, "Alice").status_code == 201
    error = assert_error(register(client, again, "another password"), 409, "name_taken")
    assert "taken" in error["message"]
    assert error["params"] == {"name": again.strip()}
    assert db(client, lambda s: s.scalar(select(func.count()).select_from(User))) == 1


def test_name_is_stored_as_typed(client):
    r = register(client, "  MixedCase_Name-1 ")
    assert r.json()["user"]["name"] == "MixedCase_Name-1"
    user = db(client, lambda s: s.scalar(select(User)))
    assert (user.name, user.name_key) == ("MixedCase_Name-1", "mixedcase_name-1")


@pytest.mark.parametrize(
    ("password", "words", "params"),
    [
        ("short", "at least 8", {"reason": "too_short", "min": 8}),
        ("", "at least 8", {"reason": "too_short", "min": 8}),
        ("aaaaaaaaaaaa", "one character repeated", {"reason": "repeated"}),
        ("alice_99", "same as the name", {"reason": "same_as_name"}),
        ("ALICE_99", "same as the name", {"reason": "same_as_name"}),
    ],
)
def test_weak_password(client, password, words, params):
    error = assert_error(register(client, "alice_99", password), 422, "weak_password")
    assert words in error["message"]
    assert error["params"] == params  # what a page needs to say it in its own words
    assert_error(login(client, "alice_99", password), 401, "bad_credentials")  # nothing was created


@pytest.mark.parametrize(
    "name", ["Computer", "COMPUTER_2", "3computer", "Počítač", "Компьютер", "Cоmputer", "c0mputer", "gép", "admin-1"]
)
def test_names_kept_for_the_site_are_refused(client, name):
    """A player called "Computer" passed for the computer's seats ("Computer · Knight" beside
    "Computer · Medium"): the computer's name in the six languages and the site's roles are kept,
    in any case, with digits or '_'/'-' around them, or in look-alike letters."""
    error = assert_error(register(client, name), 422, "bad_name")
    assert error["params"]["reason"] == "reserved", error


@pytest.mark.parametrize("name", ["Computerfan", "Botanika", "Gepard", "Admiral", "bot7", "Bot_Anna"])
def test_names_that_only_hold_a_kept_word_are_fine(client, name):
    assert register(client, name).status_code == 201


@pytest.mark.parametrize(
    "name", ["ab", "x" * 25, "has space", "a.b", "bob!", "", "   ", "\u0301ab", "ab\u2665", "Ｘ" * 25, "ÿ" * 25]
)
def test_bad_name(client, name):
    error = assert_error(register(client, name), 422, "bad_name")
    params = error["params"]
    assert (params["min"], params["max"]) == (3, 24)
    length = len(unicodedata.normalize("NFKC", name).strip())
    if 3 <= length <= 24:
        assert params == {"reason": "characters", "min": 3, "max": 24}
    else:
        assert params == {"reason": "length", "length": length, "min": 3, "max": 24}


def test_edge_names_accepted(client):
    assert register(client, "abc").status_code == 201
    assert register(client, "Z" * 24).status_code == 201
    assert register(client, "_-_").status_code == 201


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Anička", "Anička"),
        ("Ani\u010dka", "Anička"),  # NFC already
        ("Anic\u030cka", "Anička"),  # decomposed: NFKC composes it
        ("Вася", "Вася"),
        ("Оксана_7", "Оксана_7"),
        ("Ｋａｔｉ", "Kati"),  # full-width letters: NFKC makes them ordinary
        ("Éva-Żółć", "Éva-Żółć"),
        ("山田たろう", "山田たろう"),
        ("c" + "\u030c" * 30, "č" + "\u030c" * 29),  # a name's length is counted after NFKC
    ],
)
def test_names_in_any_script_are_accepted_as_nfkc(client, name, shown):
    response = register(client, name)
    if len(unicodedata.normalize("NFKC", name)) > 24:
        assert_error(response, 422, "bad_name")
        return
    assert response.status_code == 201, response.text
    assert response.json()["user"]["name"] == shown
    client.post("/api/auth/logout")
    assert login(client, shown.upper(), "correct horse battery").status_code == 200


@pytest.mark.parametrize(
    ("first", "second"),
    [("Anička", "ANIČKA"), ("Anička", "Anic\u030cka"), ("Straße", "STRASSE"), ("Ｂｏｂ", "bob"), ("Вася", "ВАСЯ")],
)
def test_names_are_unique_ignoring_case_after_nfkc(client, first, second):
    assert register(client, first).status_code == 201
    client.post("/api/auth/logout")
    assert_error(register(client, second), 409, "name_taken")


@pytest.mark.parametrize(
    ("existing", "lookalike"),
    [
        ("Alice", "\u0410lice"),  # Cyrillic А
        ("petya", "p\u0435tya"),  # Cyrillic е
        ("\u0410lice", "Alice"),  # the other way round (an old mixed-script name)
        ("Вася", "Bacя"),  # Latin B, a, c among Cyrillic
    ],
)
async def test_a_mixed_script_lookalike_of_an_existing_name_is_refused(settings, client, existing, lookalike):
    if names.is_mixed_script(existing):
        # sign-up refuses such a name now; an old database could hold one
        async with make_sessionmaker(make_engine(settings.database_url))() as s, s.begin():
            s.add(
                User(
                    name=existing,
                    name_key=names.name_key(existing),
                    name_skeleton=names.skeleton(existing),
                    password_hash="x",
                )
            )
    else:
        assert register(client, existing).status_code == 201
        client.post("/api/auth/logout")
    error = assert_error(register(client, lookalike), 422, "bad_name")
    # the words blame the name that mixes scripts: the typed one, or only the one already there
    reason = "lookalike" if names.is_mixed_script(lookalike) else "lookalike_taken"
    assert error["params"] == {"reason": reason, "name": existing}


def test_single_script_names_that_merely_resemble_each_other_may_both_exist(client):
    assert register(client, "Alice").status_code == 201
    client.post("/api/auth/logout")
    assert register(client, "Al1ce").status_code == 201  # both Latin: as it always was
    client.post("/api/auth/logout")
    assert register(client, "Алиса").status_code == 201  # a Cyrillic name of its own


def test_malformed_body_is_a_validation_error(client):
    error = assert_error(client.post("/api/auth/register", json={"name": "alice"}), 422, "validation_error")
    assert error["params"]["field"] == "password"
    assert [(e["field"], e["type"]) for e in error["params"]["errors"]] == [("password", "missing")]
    assert_error(client.post("/api/auth/login", json={"name": "a", "password": "x" * 10_000}), 422, "validation_error")


def test_password_is_stored_hashed(client):
    register(client, "Alice")
    user = db(client, lambda s: s.scalar(select(User)))
    assert user.password_hash.startswith("$argon2id$")
    assert PASSWORD not in user.password_hash
    assert PasswordHasher().verify(user.password_hash, PASSWORD)


def test_login_rehashes_an_old_hash(client):
    register(client, "Alice")
    weak = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash(PASSWORD)

    async def set_weak(session):
        user = await session.scalar(select(User))
        user.password_hash = weak
        await session.commit()

    db(client, set_weak)
    assert login(client).status_code == 200
    new_hash = db(client, lambda s: s.scalar(select(User.password_hash)))
    assert new_hash != weak and not PasswordHasher().check_needs_rehash(new_hash)
    assert login(client).status_code == 200  # the new hash still verifies


# --- bad credentials -----------------------------------------------------------------------------


def test_bad_credentials_say_the_same_whether_the_name_exists(client):
    register(client, "Alice")
    client.post("/api/auth/logout")
    wrong_password = assert_error(login(client, "Alice", "not the password"), 401, "bad_credentials")
    no_such_name = assert_error(login(client, "nobody", "not the password"), 401, "bad_credentials")
    assert wrong_password == no_such_name
    assert_error(client.get("/api/users/me"), 401, "unauthorized")  # a failed login logs nobody in
    assert_error(
        client.post("/api/auth/token", json={"name": "Alice", "password": "nope nope"}), 401, "bad_credentials"
    )


def test_failed_login_keeps_the_previous_login(client):
    alice = register(client, "Alice").json()["user"]
    assert_error(login(client, "Alice", "not the password"), 401, "bad_credentials")
    assert client.get("/api/users/me").json() == alice


# --- API tokens ----------------------------------------------------------------------------------


def test_token_auth_and_revocation(client):
    alice = register(client, "Alice").json()["user"]
    client.post("/api/auth/logout")
    client.cookies.clear()

    token = new_token(client, "ALICE", label="my bot")
    assert len(token) >= 40
    bearer = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/users/me", headers=bearer).json() == alice
    assert client.get("/api/users/me", headers={"Authorization": f"bearer  {token} "}).json() == alice
    assert_error(client.get("/api/users/me"), 401, "unauthorized")  # creating a token sets no cookie

    row = db(client, lambda s: s.scalar(select(ApiToken)))
    assert row.token_hash == hashlib.sha256(token.encode()).hexdigest()  # stored hashed
    assert row.label == "my bot" and row.user_id == alice["id"]
    assert row.last_used_at is not None and row.last_used_at.tzinfo is not None

    assert_error(client.get("/api/users/me", headers={"Authorization": "Bearer nope"}), 401, "unauthorized")
    assert_error(client.get("/api/users/me", headers={"Authorization": f"Basic {token}"}), 401, "unauthorized")

    other = new_token(client)  # a second token is independent
    assert client.delete("/api/auth/token", headers=bearer).status_code == 204
    assert_error(client.get("/api/users/me", headers=bearer), 401, "unauthorized")
    assert_error(client.delete("/api/auth/token", headers=bearer), 401, "unauthorized")
    assert_error(client.delete("/api/auth/token"), 401, "unauthorized")
    assert client.get("/api/users/me", headers={"Authorization": f"Bearer {other}"}).json() == alice


def test_bad_bearer_token_does_not_fall_back_to_the_cookie(client):
    register(client, "Alice")
    assert_error(client.get("/api/users/me", headers={"Authorization": "Bearer wrong"}), 401, "unauthorized")


def test_deleting_a_user_deletes_their_tokens(client):
    register(client, "Alice")
    token = new_token(client)

    async def drop(session):
        await session.execute(delete(User))
        await session.commit()
        return await session.scalar(select(func.count()).select_from(ApiToken))

    assert db(client, drop) == 0
    assert_error(client.get("/api/users/me", headers={"Authorization": f"Bearer {token}"}), 401, "unauthorized")


# --- websockets ----------------------------------------------------------------------------------


def test_user_from_connection_on_a_websocket(client):
    @client.app.websocket("/test-whoami")
    async def whoami(ws: WebSocket) -> None:
        await ws.accept()
        async with ws.app.state.sessionmaker() as session:
            user = await user_from_connection(ws, session)
        await ws.send_json({"name": user.name if user else None})
        await ws.close()

    with client.websocket_connect("/test-whoami") as ws:
        assert ws.receive_json() == {"name": None}
    register(client, "Alice")
    with client.websocket_connect("/test-whoami") as ws:  # the session cookie
        assert ws.receive_json() == {"name": "Alice"}
    token = new_token(client)
    client.cookies.clear()
    with client.websocket_connect("/test-whoami", headers={"Authorization": f"Bearer {token}"}) as ws:
        assert ws.receive_json() == {"name": "Alice"}
    with client.websocket_connect("/test-whoami", headers={"Authorization": "Bearer wrong"}) as ws:
        assert ws.receive_json() == {"name": None}


# --- rate limits ---------------------------------------------------------------------------------


@pytest.fixture
def limited_client(db_url):
    from app.main import create_app

    with TestClient(create_app(make_settings(db_url, login_rate_limit="3/minute"))) as c:
        yield c


def test_login_rate_limit(limited_client):
    client = limited_client
    assert register(client, "Alice").status_code == 201  # registering is not a login attempt
    assert login(client).status_code == 200  # 1: a correct login is fine
    assert_error(login(client, password="wrong password"), 401, "bad_credentials")  # 2
    assert_error(login(client, password="wrong password"), 401, "bad_credentials")  # 3
    r = login(client)  # 4: refused even with the right password
    error = assert_error(r, 429, "rate_limited")
    retry = int(r.headers["retry-after"])
    assert 1 <= retry <= 60
    assert error["params"] == {"retry_after": retry}
    assert_error(client.post("/api/auth/token", json={"name": "Alice", "password": PASSWORD}), 429, "rate_limited")
    # the address is used up, whatever the name
    assert_error(login(client, "someone_else"), 429, "rate_limited")


def test_rate_limit_is_per_name_and_per_address(limited_client):
    register(limited_client, "Alice")
    register(limited_client, "Bob_2")
    one, two, three = (sibling(limited_client, (f"10.0.0.{i}", 1000)) for i in (1, 2, 3))

    for _ in range(3):
        assert_error(login(one, "Alice", "guess guess"), 401, "bad_credentials")
    assert_error(login(two, "Alice"), 429, "rate_limited")  # the name is used up, from any address
    assert login(two, "Bob_2").status_code == 200  # other names are fine from another address
    # token creation counts too
    assert new_token(three, "Bob_2")
    assert new_token(three, "Bob_2")
    assert_error(three.post("/api/auth/token", json={"name": "bob_2", "password": PASSWORD}), 429, "rate_limited")


# --- settings ------------------------------------------------------------------------------------


def test_settings_refuse_the_default_secret_in_production():
    with pytest.raises(ValidationError, match="SECRET_KEY"):
        Settings(env="production", secret_key=DEV_SECRET)
    with pytest.raises(ValidationError, match="SECRET_KEY"):
        Settings(env="production", secret_key="short")
    assert Settings(env="production", secret_key="s" * 40).env == "production"
    assert Settings(env="development", secret_key=DEV_SECRET).secret_key == DEV_SECRET


def test_login_as_someone_else_switches_the_session(client):
    register(client, "Alice")
    bob = register(client, "Bob_2").json()["user"]  # registering while logged in switches too
    assert client.get("/api/users/me").json() == bob
    alice = login(client, "Alice").json()["user"]
    assert client.get("/api/users/me").json() == alice


def test_sign_ups_are_rate_limited_per_address(sqlite_url):
    from app.main import create_app

    with TestClient(create_app(make_settings(sqlite_url, register_rate_limit="2/hour"))) as c:
        assert c.post("/api/auth/register", json={"name": "first1", "password": "correct horse 1"}).status_code == 201
        # refused tries (a name taken, a weak password) make no account and are not counted
        for _ in range(3):
            r = c.post("/api/auth/register", json={"name": "first1", "password": "correct horse 1"})
            assert r.status_code == 409, r.text
            r = c.post("/api/auth/register", json={"name": "second", "password": "second"})
            assert r.json()["error"]["code"] == "weak_password", r.text
        assert c.post("/api/auth/register", json={"name": "second", "password": "correct horse 1"}).status_code == 201
        r = c.post("/api/auth/register", json={"name": "third3", "password": "correct horse 1"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert int(r.headers["Retry-After"]) > 0
        assert c.post("/api/auth/login", json={"name": "first1", "password": "correct horse 1"}).status_code == 200


def test_a_copied_session_cookie_stops_working_at_log_out(client):
    r = client.post("/api/auth/register", json={"name": "copycat", "password": "correct horse 1"})
    assert r.status_code == 201
    stolen = client.cookies.get("arena_session")
    assert client.get("/api/users/me").status_code == 200
    assert client.post("/api/auth/logout").status_code == 204
    client.cookies.clear()
    client.cookies.set("arena_session", stolen)
    assert client.get("/api/users/me").status_code == 401
    # logging in again makes a new session; the old cookie stays dead
    client.cookies.clear()
    assert client.post("/api/auth/login", json={"name": "copycat", "password": "correct horse 1"}).status_code == 200
    assert client.get("/api/users/me").status_code == 200
    client.cookies.clear()
    client.cookies.set("arena_session", stolen)
    assert client.get("/api/users/me").status_code == 401
