"""Rematches through the API and the websocket (app/matches/rematch.py): who may offer, accept
and decline; one live offer per match; the new match's seats, options and rating; the ``rematch``
frame; and "Play the computer again"."""

from __future__ import annotations

import pytest

from app.matches.models import Match, MatchSeat
from app.matches.rematch import rotated
from tests.service.test_gateway import _match, _recv, _user


def _resign(client, headers, match_id):
    r = client.post(f"/api/matches/{match_id}/resign", headers=headers)
    assert r.status_code == 200, r.text
    assert client.get(f"/api/matches/{match_id}").json()["status"] == "finished"


@pytest.fixture
def finished(client):
    """alice (seat 0) and bobby (seat 1) finished a Battle Runes match (bobby resigned); carol
    watched."""
    a, b, c = _user(client, "alice"), _user(client, "bobby"), _user(client, "carol")
    match_id = _match(client, a, b)
    _resign(client, b, match_id)
    return client, a, b, c, match_id


def test_offer_accept_lands_both_in_one_new_match_with_seats_swapped(finished):
    client, a, b, _c, match_id = finished
    before = client.get(f"/api/matches/{match_id}").json()
    assert client.get(f"/api/matches/{match_id}/rematch").json()["status"] == "none"

    r = client.post(f"/api/matches/{match_id}/rematch", headers=a)
    assert r.status_code == 200, r.text
    offer = r.json()
    assert offer["status"] == "open" and offer["offered_by"] == 0
    assert offer["agreed"] == [0] and offer["waiting_for"] == [1] and offer["rematch_id"] is None
    # offering again changes nothing: still one offer
    assert client.post(f"/api/matches/{match_id}/rematch", headers=a).json() == offer

    r = client.post(f"/api/matches/{match_id}/rematch/accept", headers=b)
    assert r.status_code == 200, r.text
    accepted = r.json()
    assert accepted["status"] == "accepted" and accepted["agreed"] == [0, 1] and accepted["waiting_for"] == []
    new_id = accepted["rematch_id"]
    assert new_id and new_id != match_id
    new = client.get(f"/api/matches/{new_id}").json()
    assert new["status"] == "active" and new["game"] == "battle_runes"
    names = {s["seat"]: s["user"]["name"] for s in new["seats"]}
    assert names == {0: "bobby", 1: "alice"}  # seats swapped
    assert {k: v for k, v in new["options"].items()} == before["options"]
    assert new["origin"] == "casual"

    # a second accept, or a late offer, lands in the same match: nothing new is created
    assert client.post(f"/api/matches/{match_id}/rematch/accept", headers=b).json()["rematch_id"] == new_id
    assert client.post(f"/api/matches/{match_id}/rematch", headers=a).json()["rematch_id"] == new_id
    assert client.post(f"/api/matches/{match_id}/rematch", headers=b).json()["rematch_id"] == new_id
    mine = client.get("/api/matches?status=active&mine=true", headers=a).json()["matches"]
    assert [m["id"] for m in mine] == [new_id]
    # declining a started rematch is refused
    r = client.post(f"/api/matches/{match_id}/rematch/decline", headers=b)
    assert r.status_code == 409 and r.json()["error"]["code"] == "conflict"
    assert r.json()["error"]["params"]["reason"] == "rematch_started"


def test_offers_that_meet_agree(finished):
    client, a, b, _c, match_id = finished
    client.post(f"/api/matches/{match_id}/rematch", headers=a)
    both = client.post(f"/api/matches/{match_id}/rematch", headers=b).json()
    assert both["status"] == "accepted" and both["rematch_id"]


def test_only_players_may_offer_or_answer(finished):
    client, a, _b, c, match_id = finished
    for path in ("rematch", "rematch/accept", "rematch/decline"):
        r = client.post(f"/api/matches/{match_id}/{path}", headers=c)
        assert r.status_code == 403, r.text
        assert r.json()["error"]["code"] == "forbidden" and r.json()["error"]["params"]["reason"] == "not_player"
    r = client.post(f"/api/matches/{match_id}/rematch")  # nobody logged in
    assert r.status_code == 401
    assert client.get(f"/api/matches/{match_id}/rematch").json()["status"] == "none"
    r = client.post("/api/matches/999999/rematch", headers=a)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_no_rematch_before_the_end(client):
    a, b = _user(client, "alice"), _user(client, "bobby")
    match_id = _match(client, a, b)
    r = client.post(f"/api/matches/{match_id}/rematch", headers=a)
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    assert r.json()["error"]["params"]["reason"] == "rematch"


def test_accepting_without_an_offer_or_your_own_is_refused(finished):
    client, a, _b, _c, match_id = finished
    r = client.post(f"/api/matches/{match_id}/rematch/accept", headers=a)
    assert r.status_code == 404 and r.json()["error"]["params"]["reason"] == "rematch_offer"
    client.post(f"/api/matches/{match_id}/rematch", headers=a)
    r = client.post(f"/api/matches/{match_id}/rematch/accept", headers=a)
    assert r.status_code == 409 and r.json()["error"]["params"]["reason"] == "own_offer"
    assert client.get(f"/api/matches/{match_id}/rematch").json()["status"] == "open"


def test_decline_ends_the_offer_and_a_new_offer_reopens_it(finished):
    client, a, b, _c, match_id = finished
    client.post(f"/api/matches/{match_id}/rematch", headers=a)
    r = client.post(f"/api/matches/{match_id}/rematch/decline", headers=b)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "declined" and r.json()["declined_by"] == 1 and r.json()["rematch_id"] is None
    # the decline is final for that offer: accepting it now is refused, nothing is created
    r = client.post(f"/api/matches/{match_id}/rematch/accept", headers=b)
    assert r.status_code == 404 and r.json()["error"]["params"]["reason"] == "rematch_offer"
    r = client.post(f"/api/matches/{match_id}/rematch/decline", headers=b)
    assert r.status_code == 404
    # bobby offers in turn; alice withdraws nothing but accepts
    again = client.post(f"/api/matches/{match_id}/rematch", headers=b).json()
    assert again["status"] == "open" and again["offered_by"] == 1 and again["declined_by"] is None
    assert client.post(f"/api/matches/{match_id}/rematch/accept", headers=a).json()["status"] == "accepted"


def test_the_offerer_may_withdraw(finished):
    client, a, _b, _c, match_id = finished
    client.post(f"/api/matches/{match_id}/rematch", headers=a)
    r = client.post(f"/api/matches/{match_id}/rematch/decline", headers=a)
    assert r.json()["status"] == "declined" and r.json()["declined_by"] == 0


def test_a_rated_rematch_needs_both(client):
    a, b = _user(client, "alice"), _user(client, "bobby")
    r = client.post("/api/matches", json={"game": "battle_runes", "options": {"rated": True}}, headers=a)
    match_id = r.json()["id"]
    client.post(f"/api/matches/{match_id}/join", headers=b)
    _resign(client, b, match_id)
    offer = client.post(f"/api/matches/{match_id}/rematch", headers=a).json()
    assert offer["rated"] is True  # as the original was
    # bobby also asks, but for a casual one: the rematch is casual
    done = client.post(f"/api/matches/{match_id}/rematch", headers=b, json={"rated": False}).json()
    assert done["status"] == "accepted" and done["rated"] is False
    new = client.get(f"/api/matches/{done['rematch_id']}").json()
    assert new["origin"] == "casual" and new["options"]["rated"] is False


def test_accepting_a_rated_offer_makes_a_rated_rematch(client):
    a, b = _user(client, "alice"), _user(client, "bobby")
    r = client.post("/api/matches", json={"game": "battle_runes", "options": {"rated": True}}, headers=a)
    match_id = r.json()["id"]
    client.post(f"/api/matches/{match_id}/join", headers=b)
    _resign(client, a, match_id)
    client.post(f"/api/matches/{match_id}/rematch", headers=b)
    done = client.post(f"/api/matches/{match_id}/rematch/accept", headers=a).json()
    new = client.get(f"/api/matches/{done['rematch_id']}").json()
    assert new["origin"] == "rated" and new["options"]["rated"] is True


def test_play_the_computer_again_starts_at_once_with_the_same_level(client):
    a = _user(client, "alice")
    r = client.post(
        "/api/matches",
        json={"game": "battle_runes", "options": {"turn_seconds": 120}, "computer": [{"seat": 1, "level": "random"}]},
        headers=a,
    )
    match_id = r.json()["id"]
    _resign(client, a, match_id)
    done = client.post(f"/api/matches/{match_id}/rematch", headers=a).json()
    assert done["status"] == "accepted" and done["rematch_id"]
    new = client.get(f"/api/matches/{done['rematch_id']}").json()
    assert new["status"] == "active"
    seats = {s["seat"]: s for s in new["seats"]}
    assert seats[0]["bot"] == "random" and seats[0]["user"] is None  # the computer stays the computer
    assert seats[1]["user"]["name"] == "alice" and seats[1]["bot"] is None
    assert new["options"]["turn_seconds"] == 120


def test_seats_and_teams_rotate_together():
    """Four seats: each holder moves one seat on, and the ``teams`` list moves with them, so
    partners stay partners; computer seats keep their level."""
    m = Match(game="fantasy_duel", num_players=4, options={"teams": [0, 0, 1, 1], "turn_seconds": 60})
    m.seats = [
        MatchSeat(seat=0, user_id=7),
        MatchSeat(seat=1, bot_level="greedy"),
        MatchSeat(seat=2, user_id=9),
        MatchSeat(seat=3, bot_level="random"),
    ]
    users, bots, options = rotated(m)
    assert users == {1: 7, 3: 9}
    assert bots == {2: "greedy", 0: "random"}
    assert options["teams"] == [1, 0, 0, 1]
    assert options["teams"][1] == options["teams"][2]  # 7 and the greedy computer: still partners
    assert m.options["teams"] == [0, 0, 1, 1]  # the finished match is unchanged


def test_the_rematch_frame_reaches_the_other_player_live(finished):
    client, a, b, _c, match_id = finished
    with client.websocket_connect(f"/ws/matches/{match_id}", headers=b) as ws:
        ws.send_json({"type": "hello", "since": 0, "notices": ["rematch"]})
        assert _recv(ws, "snapshot")["status"] == "finished"
        first = _recv(ws, "rematch")
        assert first["status"] == "none" and first["match_id"] == match_id
        client.post(f"/api/matches/{match_id}/rematch", headers=a)
        frame = _recv(ws, "rematch")
        assert frame["status"] == "open" and frame["offered_by"] == 0 and frame["waiting_for"] == [1]
        client.post(f"/api/matches/{match_id}/rematch/accept", headers=b)
        frame = _recv(ws, "rematch")
        assert frame["status"] == "accepted" and frame["rematch_id"]


def test_a_hello_without_notices_gets_no_extra_frames(finished):
    client, a, b, _c, match_id = finished
    with client.websocket_connect(f"/ws/matches/{match_id}", headers=b) as ws:
        ws.send_json({"type": "hello", "since": 0})
        _recv(ws, "snapshot")
        client.post(f"/api/matches/{match_id}/rematch", headers=a)
        ws.send_json({"type": "ping"})
        assert _recv(ws)["type"] == "pong"  # no rematch frame came first


def test_bad_notices_are_refused(finished):
    client, _a, b, _c, match_id = finished
    with client.websocket_connect(f"/ws/matches/{match_id}", headers=b) as ws:
        for notices in ("rematch", ["table"], [1], {"x": 1}, ["chat", "gossip"]):
            ws.send_json({"type": "hello", "since": 0, "notices": notices})
            error = _recv(ws, "error")
            assert error["code"] == "bad_message" and error["params"]["field"] == "notices"
