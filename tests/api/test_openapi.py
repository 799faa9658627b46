"""The OpenAPI document is exact where schemathesis cannot look closely (app/api/openapi.py):
every error status per operation with the one error schema, the game enums, the per-game match
schemas, ``Allow`` on 405 and ``OPTIONS``, and the text patterns agreeing with the validators."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from app.api.errors import HTTP_STATUS
from app.errors import ErrorCode
from app.games.core import all_games, bot_levels
from app.main import create_app
from app.validation import check_name, check_text, name_pattern, text_pattern
from tests.conftest import make_settings


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    from tests.conftest import _create_schema, run

    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('openapi') / 'test.db'}"
    run(_create_schema(url))
    return create_app(make_settings(url), start_workers=False)


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app) as c:
        yield c


@pytest.fixture(scope="module")
def doc(client):
    return client.get("/api/openapi.json").json()


def operations(doc):
    for path, item in doc["paths"].items():
        for method, op in item.items():
            yield path, method, op


def test_every_error_status_is_documented_with_the_error_schema(doc):
    assert doc["components"]["schemas"]["ErrorCode"]["enum"] == [c.value for c in ErrorCode]
    for path, method, op in operations(doc):
        codes = op["x-error-codes"]
        assert "internal_error" in codes, (method, path)
        statuses = {str(HTTP_STATUS[ErrorCode(c)]) for c in codes}
        errors = {k for k in op["responses"] if k[0] in "45"}
        assert errors == statuses, (method, path)
        for status in errors:
            response = op["responses"][status]
            assert response["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorBody"}
            named = [c for c in codes if str(HTTP_STATUS[ErrorCode(c)]) == status]
            assert all(f"`{c}`" in response["description"] for c in named)
        for code in op.get("x-unstated-rule-codes", []):
            assert code in codes


def test_edge_codes_follow_the_route(doc):
    by = {(m, p): op for p, m, op in operations(doc)}
    assert "unauthorized" in by[("post", "/api/matches")]["x-error-codes"]
    assert by[("post", "/api/matches")]["security"] == [{"bearer": []}, {"session": []}]
    assert "unauthorized" not in by[("get", "/api/matches/{match_id}")]["x-error-codes"]
    assert "security" not in by[("get", "/api/matches/{match_id}")]
    assert {"forbidden", "unsupported_media_type", "bad_request"} <= set(by[("post", "/api/decks")]["x-error-codes"])
    assert "validation_error" not in by[("get", "/api/games")]["x-error-codes"]
    assert "busy" not in by[("get", "/api/games")]["x-error-codes"]
    assert by[("post", "/api/matches")]["x-unstated-rule-codes"] == ["bad_options"]


def test_games_are_enums_and_each_game_has_its_match_schema(doc):
    games = sorted(all_games())
    by = {(m, p): op for p, m, op in operations(doc)}
    game_param = next(p for p in by[("get", "/api/matches")]["parameters"] if p["name"] == "game")
    assert next(b for b in game_param["schema"]["anyOf"] if b.get("type") == "string")["enum"] == games
    deck_in = doc["components"]["schemas"]["DeckIn"]["oneOf"]
    assert [b["properties"]["game"]["const"] for b in deck_in] == ["scratch_wars", "stratego_junior"]
    loadout = deck_in[0]["properties"]["data"]["anyOf"][0]["properties"]
    assert "BRAM" in loadout["hero"]["enum"] and loadout["weapons"]["maxItems"] == 5
    branches = {b["properties"]["game"]["const"]: b for b in doc["components"]["schemas"]["CreateMatch"]["oneOf"]}
    assert sorted(branches) == games
    fantasy = branches["fantasy_duel"]["properties"]
    assert fantasy["players"]["anyOf"][0] == {"type": "integer", "minimum": 2, "maximum": 8}
    assert fantasy["computer"]["items"]["properties"]["level"]["anyOf"][0]["enum"] == [
        *bot_levels("fantasy_duel"),
        "easy",
        "medium",
        "hard",
    ]
    options = branches["battle_runes"]["properties"]["options"]
    assert options["additionalProperties"] is False
    assert {"turn_seconds", "spectators", "rated", "win_score", "r2p5_bonus_kind"} <= set(options["properties"])
    assert options["properties"]["r2p5_bonus_kind"]["enum"] == ["destruction", "construction"]


def test_links_lead_from_creation_to_the_resource(doc):
    links = doc["paths"]["/api/decks"]["post"]["responses"]["201"]["links"]
    assert {"get_deck_api_decks__deck_id__get", "delete_deck_api_decks__deck_id__delete"} <= set(links)
    assert all(link["parameters"] == {"deck_id": "$response.body#/id"} for link in links.values())


@pytest.mark.parametrize(
    ("path", "allow"),
    [
        ("/api/decks", "GET, OPTIONS, POST"),
        ("/api/decks/5", "DELETE, GET, OPTIONS, PUT"),
        ("/api/matches", "GET, OPTIONS, POST"),
        ("/api/auth/token", "DELETE, OPTIONS, POST"),
    ],
)
def test_allow_names_every_method_of_the_path(client, path, allow):
    r = client.options(path)
    assert r.status_code == 204 and r.headers["allow"] == allow and r.content == b""
    r = client.patch(path, json={})
    assert r.status_code == 405 and r.headers["allow"] == allow
    assert r.json()["error"]["code"] == "method_not_allowed"


def test_unknown_game_in_a_filter_is_refused(client):
    r = client.get("/api/matches", params={"game": "chess"})
    assert r.status_code == 422 and r.json()["error"]["params"]["errors"][0]["type"] == "unknown_game"
    assert client.get("/api/matches", params={"game": "battle_runes"}).status_code == 200


@pytest.mark.parametrize(
    "sample",
    ["alice", " alice ", "", " ", "\u3000", "a\x00b", "tab\there", "a\u202eb", "\u200b", "😀", "x\n", "\u00a0y"],
)
def test_patterns_say_what_the_validators_accept(sample):
    def accepts(check) -> bool:
        try:
            check(sample)
        except Exception:
            return False
        return True

    assert bool(re.fullmatch(text_pattern()[1:-1], sample)) == accepts(check_text)
    assert bool(re.fullmatch(name_pattern()[1:-1], sample)) == accepts(check_name)


def test_whole_floats_are_integers_and_booleans_are_not(client):
    token = _token(client, "floaty")
    body = {"game": "battle_runes", "options": {"win_score": 40.0, "turn_seconds": 30.0}, "players": 2.0}
    r = client.post("/api/matches", json=body, headers=token)
    assert r.status_code == 201, r.text
    assert r.json()["options"]["win_score"] == 40 and isinstance(r.json()["options"]["win_score"], int)
    r = client.post("/api/matches", json={"game": "battle_runes", "seat": True}, headers=token)
    assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error"


def test_options_the_rules_refuse_at_the_start_are_refused_at_creation(client):
    token = _token(client, "teamster")
    body = {"game": "fantasy_duel", "players": 2, "options": {"teams": [0]}, "computer": [{"seat": 1}]}
    r = client.post("/api/matches", json=body, headers=token)
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_options"
    assert r.json()["error"]["params"] == {"reason": "team_seats", "seats": 2, "count": 1}


RUNES_OPTIONS = ["max_turns", "r2p5_bonus_kind", "start_score", "win_score", "zero_blocks_swap_all"]
ONE = [{"seat": 1}]

#: a body ``POST /api/matches`` refuses (beside ``"game": "battle_runes"``) and the ``params`` it
#: answers with: every reason of ``bad_options`` (app/errors.py) a match's creator can meet
REFUSED_MATCHES = [
    ({"game": "chess"}, {"reason": "unknown_game", "game": "chess"}),
    ({"players": 3}, {"reason": "player_count", "min": 2, "max": 2, "players": 3}),
    ({"options": {"colour": "red"}}, {"reason": "unknown_option", "option": "colour", "options": RUNES_OPTIONS}),
    ({"options": {"start_score": 2.5}}, {"reason": "option_type", "option": "start_score", "type": "integer"}),
    ({"options": {"spectators": "yes"}}, {"reason": "option_type", "option": "spectators", "type": "boolean"}),
    (
        {"options": {"r2p5_bonus_kind": "sideways"}},
        {"reason": "option_choice", "option": "r2p5_bonus_kind", "choices": ["destruction", "construction"]},
    ),
    (
        {"game": "stratego_junior", "options": {"variant": "classic"}},
        {"reason": "option_choice", "option": "variant", "choices": ["quest", "victory"]},
    ),
    ({"options": {"clock": "fischer"}}, {"reason": "option_choice", "option": "clock", "choices": ["turn", "bank"]}),
    ({"options": {"win_score": 10**6}}, {"reason": "option_range", "option": "win_score", "low": 1, "high": 10_000}),
    (
        {"options": {"turn_seconds": 1}},
        {"reason": "option_range", "option": "turn_seconds", "low": 2, "high": 7 * 24 * 3600},
    ),
    (
        {"options": {"clock": "bank", "bank_seconds": 1}},
        {"reason": "option_range", "option": "bank_seconds", "low": 2, "high": 30 * 24 * 3600},
    ),
    (
        {"options": {"clock": "bank", "increment_seconds": -1}},
        {"reason": "option_range", "option": "increment_seconds", "low": 0, "high": 24 * 3600},
    ),
    ({"options": {"clock": "bank", "turn_seconds": 60}}, {"reason": "needs_turn_clock", "option": "turn_seconds"}),
    ({"options": {"bank_seconds": 600}}, {"reason": "needs_bank_clock", "options": ["bank_seconds"]}),
    ({"options": {"turn_seconds": 0}, "computer": ONE}, {"reason": "computer_untimed"}),
    ({"options": {"start_score": 50, "win_score": 40}}, {"reason": "start_score", "start_score": 50, "win_score": 40}),
    ({"computer": [{"seat": 2}]}, {"reason": "computer_seat", "seat": 2}),
    ({"computer": [{"seat": 1}, {"seat": 1}]}, {"reason": "computer_seat", "seat": 1}),
    (
        {"computer": [{"seat": 1, "level": "grandmaster"}]},
        {"reason": "computer_level", "level": "grandmaster", "levels": ["random", "greedy", "nash"]},
    ),
    (  # an empty level is not the default one (schemathesis found it taken as "medium")
        {"computer": [{"seat": 1, "level": ""}]},
        {"reason": "computer_level", "level": "", "levels": ["random", "greedy", "nash"]},
    ),
    ({"computer": [{"seat": 0}, {"seat": 1}]}, {"reason": "all_computer"}),
    ({"seat": 1, "computer": ONE}, {"reason": "seat_taken", "seat": 1}),
    (
        {"game": "fantasy_duel", "players": 3, "options": {"teams": [0, 1, 0, 1]}},
        {"reason": "team_seats", "seats": 3, "count": 4},
    ),
    ({"game": "fantasy_duel", "options": {"teams": [0, 1] * 5}}, {"reason": "team_seats", "max": 8, "count": 10}),
    ({"game": "fantasy_duel", "options": {"teams": [0, 9]}}, {"reason": "team_number", "low": 0, "high": 7}),
    ({"game": "fantasy_duel", "players": 4, "options": {"teams": [0, 0, 0, 0]}}, {"reason": "one_team"}),
    (
        {"game": "treasure_beasts", "options": {"center_treasure": 5000}},
        {"reason": "center_treasure", "low": 0, "high": 1000},
    ),
]


def test_refused_match_settings_say_why_as_codes_and_create_nothing(client):
    """``bad_options`` says why in ``params.reason`` with the values the words need (the pages word
    it from there: static/js/messages.js ``error.bad_options.<reason>``); the English ``message``
    is for developers. A refused creation stores no match."""
    token = _token(client, "refused")
    for extra, params in REFUSED_MATCHES:
        r = client.post("/api/matches", json={"game": "battle_runes", **extra}, headers=token)
        assert r.status_code == 422, (extra, r.text)
        error = r.json()["error"]
        assert (error["code"], error["params"]) == ("bad_options", params), extra
        assert error["message"], extra
    for status in ("waiting", "active"):
        assert client.get(f"/api/matches?mine=true&status={status}", headers=token).json() == {"matches": []}


def _token(client, name: str) -> dict[str, str]:
    client.post("/api/auth/register", json={"name": name, "password": "a good password"})
    r = client.post("/api/auth/token", json={"name": name, "password": "a good password"})
    return {"Authorization": f"Bearer {r.json()['token']}"}


def test_a_field_the_match_routes_do_not_know_is_refused_and_creates_nothing(client):
    """``bots`` is not a field (``computer`` is): refused by name rather than ignored, which
    would have made a match against nobody."""
    token = _token(client, "speller")
    r = client.post("/api/matches", json={"game": "battle_runes", "bots": [{"seat": 1}]}, headers=token)
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "validation_error" and error["params"]["field"] == "bots", error
    body = {"game": "battle_runes", "computer": [{"seat": 1, "levle": "easy"}]}
    r = client.post("/api/matches", json=body, headers=token)
    assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error", r.text
    assert client.get("/api/matches?mine=true&status=waiting", headers=token).json() == {"matches": []}
    assert client.get("/api/matches?mine=true&status=active", headers=token).json() == {"matches": []}
    r = client.post("/api/matches", json={"game": "battle_runes", "computer": [{"seat": 1}]}, headers=token)
    assert r.status_code == 201, r.text
