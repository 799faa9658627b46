"""The ratings' JSON routes through the app, whose background consumer applies a rated match within
moments of its end: ``/api/matches/{id}/ratings``, ``/api/ladders/{pool}``,
``/api/users/{name}/profile``; on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from app.db.session import make_engine, make_sessionmaker
from app.ratings.models import Rating, RatingCount, RatingPool
from app.users.models import User
from tests.conftest import run


def _login(client, name):
    r = client.post("/api/auth/register", json={"name": name, "password": "correct horse 1"})
    assert r.status_code == 201, r.text
    r = client.post("/api/auth/token", json={"name": name, "password": "correct horse 1"})
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def _rated_match(client, winner, loser):
    r = client.post("/api/matches", json={"game": "battle_runes", "options": {"rated": True}}, headers=winner)
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    assert client.post(f"/api/matches/{match_id}/join", headers=loser).status_code == 200
    assert client.post(f"/api/matches/{match_id}/resign", headers=loser).status_code == 200
    return match_id


def _wait_applied(client, match_id, timeout=20.0):
    deadline = time.monotonic() + timeout
    while True:
        body = client.get(f"/api/matches/{match_id}/ratings").json()
        if body["applied"] or time.monotonic() > deadline:
            return body
        time.sleep(0.05)


def test_a_rated_match_shows_its_rating_changes_ladder_and_profiles(client):
    alice, bob = _login(client, "alice"), _login(client, "bob")
    match_id = _rated_match(client, alice, bob)
    body = _wait_applied(client, match_id)
    assert body["applied"] and body["rated"] and body["counts"] and body["pool"] == "battle_runes"
    (a, b) = body["changes"]
    assert (a["user"]["name"], b["user"]["name"]) == ("alice", "bob")
    assert a["rating_before"] == b["rating_before"] == 1500
    assert a["delta"] > 0 > b["delta"] and a["delta"] == a["rating_after"] - 1500
    assert a["provisional"] and a["points"] == 10 and b["points"] == 0

    ladder = client.get("/api/ladders/battle_runes", headers=bob).json()
    assert [(r["rank"], r["user"]["name"]) for r in ladder["rows"]] == [(1, "alice"), (2, "bob")]
    top = ladder["rows"][0]
    assert top["rating"] == a["rating_after"] and top["provisional"] and top["games"] == 1
    assert top["season_points"] == 10 and top["last_played_at"]
    assert ladder["viewer"]["user"]["name"] == "bob" and ladder["viewer"]["rank"] == 2
    assert (ladder["total"], ladder["pages"], ladder["page"]) == (2, 1, 1)

    profile = client.get("/api/users/BOB/profile", headers=alice).json()
    assert profile["user"]["name"] == "bob"
    (rating,) = profile["ratings"]
    assert rating["pool"] == {"key": "battle_runes", "game": "battle_runes", "part": {}}
    assert rating["rating"] == b["rating_after"] and rating["losses"] == 1
    assert [p["rating"] for p in rating["history"]] == [b["rating_after"]]
    assert profile["records"] == [{"game": "battle_runes", "wins": 0, "losses": 1, "draws": 0}]
    (recent,) = profile["recent"]
    assert recent["match_id"] == match_id and recent["result"] == "loss"
    assert recent["opponents"] == [{"id": a["user"]["id"], "name": "alice", "rank": "knight"}]
    assert (recent["rating_before"], recent["rating_after"]) == (1500, b["rating_after"])
    assert recent["replay"] == f"/matches/{match_id}/replay"
    assert profile["head_to_head"] == {"viewer": a["user"], "wins": 0, "losses": 1, "draws": 0}
    # a visitor and the owner see no head-to-head
    assert client.get("/api/users/bob/profile").json()["head_to_head"] is None
    assert client.get("/api/users/bob/profile", headers=bob).json()["head_to_head"] is None


def test_a_casual_match_changes_no_rating(client):
    alice, bob = _login(client, "alice"), _login(client, "bob")
    r = client.post("/api/matches", json={"game": "battle_runes", "options": {"rated": False}}, headers=alice)
    match_id = r.json()["id"]
    client.post(f"/api/matches/{match_id}/join", headers=bob)
    client.post(f"/api/matches/{match_id}/resign", headers=bob)
    body = client.get(f"/api/matches/{match_id}/ratings").json()
    assert body == {
        "match_id": match_id,
        "rated": False,
        "counts": False,
        "applied": False,
        "pool": "battle_runes",
        "changes": [],
    }
    deadline = time.monotonic() + 20  # the consumer counts the casual match in the records
    while not (profile := client.get("/api/users/alice/profile").json())["records"] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert profile["ratings"] == [] and profile["records"] == [
        {"game": "battle_runes", "wins": 1, "losses": 0, "draws": 0}
    ]
    assert profile["recent"][0]["rating_before"] is None


def test_ladder_pages_and_the_viewers_row(client, settings):
    viewer = _login(client, "viewer")

    async def seed():
        engine = make_engine(settings.database_url)  # the app's pool belongs to its own event loop
        async with make_sessionmaker(engine)() as s, s.begin():
            users = [User(name=f"p{i:03d}", name_key=f"p{i:03d}", password_hash="x") for i in range(120)]
            s.add_all(users)
            await s.flush()
            for i, u in enumerate(users):
                s.add(Rating(user_id=u.id, pool="scratch_wars.l2", mu=20 + i / 10, sigma=3.0, rating=1200 + 5 * i))
            me = (await s.execute(User.__table__.select().where(User.name == "viewer"))).first()
            s.add(
                Rating(
                    user_id=me.id,
                    pool="scratch_wars.l2",
                    mu=20,
                    sigma=8,
                    rating=1190,
                    games=1,
                    last_played_at=datetime.now(UTC),
                )
            )
            s.add(RatingPool(pool="scratch_wars.l2", players=121))  # as the consumer keeps them
            s.add_all(RatingCount(pool="scratch_wars.l2", rating=1200 + 5 * i, players=1) for i in range(120))
            s.add(RatingCount(pool="scratch_wars.l2", rating=1190, players=1))
        await engine.dispose()

    run(seed())
    first = client.get("/api/ladders/scratch_wars.l2", headers=viewer).json()
    assert (first["total"], first["pages"], len(first["rows"])) == (121, 3, 50)
    assert first["rows"][0]["user"]["name"] == "p119" and first["rows"][0]["rank"] == 1
    ratings = [r["rating"] for r in first["rows"]]
    assert ratings == sorted(ratings, reverse=True)
    assert first["viewer"]["user"]["name"] == "viewer" and first["viewer"]["rank"] == 121  # off the page
    assert first["viewer"]["provisional"] and not first["rows"][0]["provisional"]
    mine = client.get("/api/ladders/scratch_wars.l2?find_me=true", headers=viewer).json()
    assert mine["page"] == 3 and mine["viewer"]["rank"] == 121 and mine["rows"][-1] == mine["viewer"]
    assert client.get("/api/ladders/scratch_wars.l2?find_me=true").json()["page"] == 1  # a visitor
    last = client.get("/api/ladders/scratch_wars.l2?page=3", headers=viewer).json()
    assert [r["rank"] for r in last["rows"]] == list(range(101, 122))
    assert last["rows"][-1]["user"]["name"] == "viewer"
    assert client.get("/api/ladders/scratch_wars.l2?page=9").json()["rows"] == []


def test_bad_requests_get_codes(client):
    r = client.get("/api/ladders/chess")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert r.json()["error"]["params"] == {"pool": "chess"}
    r = client.get("/api/users/nobody/profile")
    assert r.status_code == 404 and r.json()["error"]["params"] == {"name": "nobody"}
    r = client.get("/api/ladders/battle_runes?page=0")
    assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error"
    r = client.get("/api/matches/999/ratings")
    assert r.status_code == 404 and r.json()["error"]["params"] == {"match_id": 999}
    pools = client.get("/api/ladders").json()["pools"]
    assert [p["key"] for p in pools][:3] == ["battle_runes", "stratego_junior.quest", "stratego_junior.victory"]
