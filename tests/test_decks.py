"""Saved decks: validated by the game's rules, private to their owner, unique names."""

from __future__ import annotations

import pytest

from app.games.core import BadAction, get_rules


def _login(client, name):
    r = client.post("/api/auth/register", json={"name": name, "password": "correct horse 1"})
    assert r.status_code == 201, r.text
    r = client.post("/api/auth/token", json={"name": name, "password": "correct horse 1"})
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


@pytest.fixture
def runes_take_decks(monkeypatch):
    """Let Battle Runes accept decks of 3 favourite runes, to test storage independently of the
    games whose decks are real (Stratego setups, Scratch Wars loadouts have their own tests)."""
    rules = get_rules("battle_runes")

    def validate_deck(self, data):
        runes = data.get("favourites")
        if not isinstance(runes, list) or len(runes) != 3:
            raise BadAction("favourites must be a list of 3 rune ids")
        return {"favourites": sorted(runes)}

    monkeypatch.setattr(type(rules), "validate_deck", validate_deck)


def test_game_without_decks_refuses(client):
    a = _login(client, "alice")
    r = client.post("/api/decks", json={"game": "battle_runes", "name": "x", "data": {}}, headers=a)
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_deck"
    assert r.json()["error"]["params"] == {"game": "battle_runes", "reason": "no_decks"}
    r = client.post("/api/decks", json={"game": "chess", "name": "x", "data": {}}, headers=a)
    assert r.status_code == 404
    assert r.json()["error"] | {"message": ""} == {"code": "not_found", "message": "", "params": {"game": "chess"}}


def test_deck_lifecycle(client, runes_take_decks):
    a, b = _login(client, "alice"), _login(client, "bobby")
    assert client.get("/api/decks", headers=a).json() == {"decks": []}
    assert client.get("/api/decks").status_code == 401
    body = {"game": "battle_runes", "name": " Fire line ", "data": {"favourites": ["S3", "FIRE", "R1"]}}
    r = client.post("/api/decks", json=body, headers=a)
    assert r.status_code == 201, r.text
    deck = r.json()
    assert deck["name"] == "Fire line" and deck["data"] == {"favourites": ["FIRE", "R1", "S3"]}
    # names are unique per user and game
    r = client.post("/api/decks", json=body, headers=a)
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"
    assert r.json()["error"]["params"] == {"game": "battle_runes", "name": "Fire line"}
    assert client.post("/api/decks", json=body, headers=b).status_code == 201
    # the game's rules check the contents, on create and on update
    bad = {**body, "name": "bad", "data": {"favourites": ["S1"]}}
    r = client.post("/api/decks", json=bad, headers=a)
    assert r.status_code == 422 and "3 rune" in r.json()["error"]["message"]
    assert r.json()["error"]["params"] == {"game": "battle_runes"}  # a rule without a reason: the generic words
    r = client.put(f"/api/decks/{deck['id']}", json={"data": {"favourites": []}}, headers=a)
    assert r.status_code == 422
    r = client.put(f"/api/decks/{deck['id']}", json={"name": "Water line"}, headers=a)
    assert r.status_code == 200 and r.json()["name"] == "Water line"
    # renaming onto another of your decks' names is refused too, and changes nothing
    r = client.post("/api/decks", json={**body, "name": "Earth line"}, headers=a)
    assert r.status_code == 201, r.text
    earth = r.json()
    r = client.put(f"/api/decks/{earth['id']}", json={"name": "Water line"}, headers=a)
    assert r.status_code == 409 and r.json()["error"]["params"] == {"game": "battle_runes", "name": "Water line"}
    assert client.get(f"/api/decks/{earth['id']}", headers=a).json()["name"] == "Earth line"
    assert client.delete(f"/api/decks/{earth['id']}", headers=a).status_code == 204
    # private to the owner
    r = client.get(f"/api/decks/{deck['id']}", headers=b)
    assert r.status_code == 404 and r.json()["error"]["params"] == {"deck_id": deck["id"]}
    assert client.delete(f"/api/decks/{deck['id']}", headers=b).status_code == 404
    assert [d["name"] for d in client.get("/api/decks?game=battle_runes", headers=a).json()["decks"]] == ["Water line"]
    assert client.delete(f"/api/decks/{deck['id']}", headers=a).status_code == 204
    assert client.get("/api/decks", headers=a).json() == {"decks": []}


STRATEGO_SETUP = {
    "towers": ["black_knight", "jester", "flag"],
    "rows": [
        ["unicorn", "dwarf", "unicorn", "unicorn"],
        ["knight", "unicorn", "dwarf", "wizard"],
        ["king", "knight", "princess", "dwarf"],
        ["dwarf", "dragon", "dragon", "knight"],
    ],
}


SJ_BIG = ["black_knight", "flag", "jester"]
SW_GOOD = {"hero": "BRAM", "weapons": ["IRON", "SALT"]}
#: per game, a deck its rules refuse and the ``params`` of the ``bad_deck`` answer: every reason
#: (app/errors.py) a saved setup or loadout can meet
REFUSED_DECKS = [
    ("stratego_junior", {"setup": STRATEGO_SETUP, "name": "x"}, {"reason": "shape"}),
    (
        "stratego_junior",
        {**STRATEGO_SETUP, "towers": ["flag", "flag", "jester"]},
        {"reason": "towers", "towers": 3, "castles": SJ_BIG},
    ),
    ("stratego_junior", {**STRATEGO_SETUP, "towers": ["flag"]}, {"reason": "towers", "towers": 3, "castles": SJ_BIG}),
    (
        "stratego_junior",
        {**STRATEGO_SETUP, "rows": STRATEGO_SETUP["rows"][:3]},
        {"reason": "rows", "rows": 4, "columns": 4},
    ),
    (
        "stratego_junior",
        {**STRATEGO_SETUP, "rows": [["king", "knight", "princess"], *STRATEGO_SETUP["rows"][1:]]},
        {"reason": "rows", "rows": 4, "columns": 4},
    ),
    (
        "stratego_junior",
        {**STRATEGO_SETUP, "rows": [["queen", "dwarf", "unicorn", "unicorn"], *STRATEGO_SETUP["rows"][1:]]},
        {"reason": "unknown_castle", "castle": "queen"},
    ),
    (
        "stratego_junior",
        {**STRATEGO_SETUP, "rows": [["knight", "dwarf", "unicorn", "unicorn"], *STRATEGO_SETUP["rows"][1:]]},
        {
            "reason": "formation",
            "castles": [{"castle": "knight", "count": 4, "need": 3}, {"castle": "unicorn", "count": 3, "need": 4}],
        },
    ),
    ("scratch_wars", {"hero": "BRAM"}, {"reason": "shape"}),
    ("scratch_wars", {"hero": "BRAM", "weapons": "IRON"}, {"reason": "shape"}),
    ("scratch_wars", {**SW_GOOD, "hero": "NOPE"}, {"reason": "unknown_hero", "hero": "NOPE"}),
    ("scratch_wars", {**SW_GOOD, "weapons": []}, {"reason": "weapon_count", "min": 1, "max": 5, "count": 0}),
    (
        "scratch_wars",
        {**SW_GOOD, "weapons": ["IRON", "SALT", "MRSH", "TINS", "KIND", "QRRY"]},
        {"reason": "weapon_count", "min": 1, "max": 5, "count": 6},
    ),
    ("scratch_wars", {**SW_GOOD, "weapons": ["IRON", "XXXX"]}, {"reason": "unknown_weapon", "weapons": ["XXXX"]}),
    (
        "scratch_wars",
        {**SW_GOOD, "weapons": ["IRON", "IRON"]},
        {"reason": "weapon_twice", "names": ["Velký meč Železná kůra"]},  # IRON's name, twice
    ),
]


def test_real_decks_are_checked_by_their_game(client):
    """A deck the game's rules refuse is 422 ``bad_deck`` saying why in ``params.reason`` (with
    ``game`` and the values the words need; static/js/messages.js ``error.bad_deck.<reason>``), on
    create and on update, and changes nothing."""
    a = _login(client, "alice")
    mine = {}
    for game, good in (("stratego_junior", STRATEGO_SETUP), ("scratch_wars", SW_GOOD)):
        r = client.post("/api/decks", json={"game": game, "name": "mine", "data": good}, headers=a)
        assert r.status_code == 201, r.text
        mine[game] = r.json()
    for game, bad, params in REFUSED_DECKS:
        r = client.post("/api/decks", json={"game": game, "name": "broken", "data": bad}, headers=a)
        assert r.status_code == 422, (bad, r.text)
        error = r.json()["error"]
        assert (error["code"], error["params"]) == ("bad_deck", {"game": game, **params}), bad
        assert error["message"], bad
        r = client.put(f"/api/decks/{mine[game]['id']}", json={"name": "renamed", "data": bad}, headers=a)
        assert (r.status_code, r.json()["error"]["params"]) == (422, {"game": game, **params}), bad
    for game, deck in mine.items():
        assert client.get(f"/api/decks?game={game}", headers=a).json()["decks"] == [deck]


def test_deck_names_are_nfkc_and_unique_ignoring_case(client, runes_take_decks):
    """Issue 15: a deck name is stored NFKC-normalised and trimmed, and ``Anvil`` and ``anvil`` are
    one name for one player and game (another player may have either); renames are held to it too.
    A mixed-script look-alike of one's own deck is allowed: nobody else sees a player's decks."""
    a, b = _login(client, "alice"), _login(client, "bobby")
    data = {"favourites": ["S3", "FIRE", "R1"]}

    def post(headers, name):
        return client.post("/api/decks", json={"game": "battle_runes", "name": name, "data": data}, headers=headers)

    r = post(a, " ｆｕｌｌ ")
    assert r.status_code == 201 and r.json()["name"] == "full"
    anvil = post(a, "Anvil").json()
    r = post(a, "anvil")
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"
    assert r.json()["error"]["params"] == {"game": "battle_runes", "name": "anvil"}
    assert post(a, "FULL").status_code == 409
    assert post(b, "anvil").status_code == 201
    älpha = post(a, "älpha").json()
    assert post(a, "ÄLPHA").status_code == 409
    assert post(a, "\u0410nvil").status_code == 201  # Cyrillic А: only its owner sees it
    # renames: onto another deck's name in another case is refused; a deck's own name in another case is fine
    r = client.put(f"/api/decks/{älpha['id']}", json={"name": "ANVIL"}, headers=a)
    assert r.status_code == 409 and r.json()["error"]["params"] == {"game": "battle_runes", "name": "ANVIL"}
    assert client.get(f"/api/decks/{älpha['id']}", headers=a).json()["name"] == "älpha"
    r = client.put(f"/api/decks/{anvil['id']}", json={"name": "ANVIL"}, headers=a)
    assert r.status_code == 200 and r.json()["name"] == "ANVIL"
    r = client.put(f"/api/decks/{älpha['id']}", json={"name": "ｆｏｒｇｅ"}, headers=a)
    assert r.status_code == 200 and r.json()["name"] == "forge"
    # NFKC may make a name longer than the 60 characters a deck name holds
    r = post(a, "\ufdfa" * 4)
    assert r.status_code == 422 and r.json()["error"]["params"]["field"] == "name"
