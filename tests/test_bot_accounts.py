"""Bot accounts (docs/bots.md): the owner marks an account as a bot for good; every answer that
names a seat's player says so; a rated match seats a bot account against a person only when both
agree (the creator by asking for ``rated``, the joiner with ``accept_rated``)."""

from __future__ import annotations

import pytest

PASSWORD = "a good password"


def account(client, name: str, *, bot: bool = False) -> dict[str, str]:
    """Register ``name`` (a bot account with ``bot``); its bearer header."""
    assert client.post("/api/auth/register", json={"name": name, "password": PASSWORD}).status_code == 201
    client.post("/api/auth/logout")
    r = client.post("/api/auth/token", json={"name": name, "password": PASSWORD})
    headers = {"Authorization": f"Bearer {r.json()['token']}"}
    if bot:
        r = client.post("/api/users/me/bot", headers=headers)
        assert r.status_code == 200 and r.json()["is_bot"] is True
    return headers


def rated_match(client, headers) -> int:
    r = client.post("/api/matches", json={"game": "battle_runes", "options": {"rated": True}}, headers=headers)
    assert r.status_code == 201, r.text
    assert r.json()["origin"] == "rated"
    return r.json()["id"]


def test_marking_an_account_as_a_bot(client):
    headers = account(client, "robo")
    assert client.get("/api/users/me", headers=headers).json()["is_bot"] is False
    r = client.post("/api/users/me/bot", headers=headers)
    assert r.status_code == 200 and r.json()["is_bot"] is True
    assert client.post("/api/users/me/bot", headers=headers).json()["is_bot"] is True  # again: no change
    assert client.get("/api/users/me", headers=headers).json()["is_bot"] is True
    r = client.post("/api/users/me/bot")
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"


def test_seats_say_which_player_is_a_bot_account(client):
    bot, person = account(client, "robo", bot=True), account(client, "alice")
    match_id = client.post("/api/matches", json={"game": "battle_runes"}, headers=person).json()["id"]
    r = client.post(f"/api/matches/{match_id}/join", headers=bot)
    assert r.status_code == 200 and r.json()["status"] == "active"
    users = [s["user"] for s in r.json()["seats"]]
    assert [(u["name"], u["is_bot"]) for u in users] == [("alice", False), ("robo", True)]
    snapshot = client.get(f"/api/matches/{match_id}/snapshot", headers=person).json()
    assert [s["user"]["is_bot"] for s in snapshot["seats"]] == [False, True]
    listed = client.get("/api/matches", params={"status": "active"}).json()["matches"]
    assert [s["user"]["is_bot"] for s in listed[0]["seats"]] == [False, True]


@pytest.mark.parametrize("creator_is_bot", [True, False])
def test_rated_bot_against_person_needs_the_joiners_consent(client, creator_is_bot):
    creator = account(client, "maker", bot=creator_is_bot)
    joiner = account(client, "joiner", bot=not creator_is_bot)
    match_id = rated_match(client, creator)
    r = client.post(f"/api/matches/{match_id}/join", headers=joiner)
    assert r.status_code == 409 and r.json()["error"]["code"] == "rated_needs_consent"
    match = client.get(f"/api/matches/{match_id}").json()
    assert match["status"] == "waiting" and match["seats"][1]["user"] is None  # nothing changed
    r = client.post(f"/api/matches/{match_id}/join", json={"accept_rated": False}, headers=joiner)
    assert r.status_code == 409
    r = client.post(f"/api/matches/{match_id}/join", json={"accept_rated": True}, headers=joiner)
    assert r.status_code == 200 and r.json()["status"] == "active" and r.json()["origin"] == "rated"


@pytest.mark.parametrize(("first_bot", "second_bot"), [(True, True), (False, False)])
def test_rated_matches_of_one_kind_need_no_more(client, first_bot, second_bot):
    creator, joiner = account(client, "first", bot=first_bot), account(client, "second", bot=second_bot)
    match_id = rated_match(client, creator)
    assert client.post(f"/api/matches/{match_id}/join", headers=joiner).json()["status"] == "active"


def test_casual_matches_need_no_consent(client):
    creator, joiner = account(client, "human"), account(client, "robo", bot=True)
    match_id = client.post("/api/matches", json={"game": "battle_runes"}, headers=creator).json()["id"]
    assert client.post(f"/api/matches/{match_id}/join", headers=joiner).json()["status"] == "active"
