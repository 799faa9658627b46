"""The one error vocabulary (``app/errors.py``) and its two edges: the code -> HTTP status map with
the JSON error body (``app/api/errors.py``) and the code -> websocket error frame
(``app/gateway/frames.py``)."""

from __future__ import annotations

import ast
import inspect
import json
import pickle
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import app.games.core.errors as game_errors
from app.api.errors import HTTP_STATUS, http_status
from app.errors import DomainError, ErrorCode
from app.gateway.frames import ErrorFrame, encode, error_frame, pong_frame, snapshot_frame
from app.gateway.messages import BadFrame, parse_frame
from app.main import create_app
from tests.conftest import make_settings

APP = Path(__file__).resolve().parents[1] / "app"

#: the HTTP status every code had before the vocabulary was unified; clients rely on them
STATUS_BEFORE = {
    "not_found": 404,
    "forbidden": 403,
    "unauthorized": 401,
    "bad_options": 422,
    "bad_message": 400,
    "illegal_action": 409,
    "not_your_turn": 409,
    "stale_version": 409,
    "game_over": 409,
    "not_started": 409,
    "not_waiting": 409,
    "not_finished": 409,
    "match_full": 409,
    "already_joined": 409,
    "too_many_matches": 429,
    "name_taken": 409,
    "bad_name": 422,
    "weak_password": 422,
    "bad_credentials": 401,
    "rate_limited": 429,
    "busy": 503,
    "too_late": 409,
    "bad_deck": 422,
    "validation_error": 422,
    "internal_error": 500,
    "bad_request": 400,
    "method_not_allowed": 405,
    "conflict": 409,
}


# --- the vocabulary --------------------------------------------------------------------------------


def test_every_code_has_one_http_status_and_the_old_statuses_stay():
    assert set(HTTP_STATUS) == set(ErrorCode)
    changed = {
        code: (before, http_status(code)) for code, before in STATUS_BEFORE.items() if http_status(code) != before
    }
    assert not changed


def test_codes_are_stable_snake_case_and_each_is_documented():
    source = inspect.getsource(ErrorCode)
    lines = source.splitlines()
    for code in ErrorCode:
        assert code.value.replace("_", "").isalpha() and code.value == code.value.lower(), code
        at = next(i for i, line in enumerate(lines) if line.strip() == f'{code.name} = "{code.value}"')
        assert lines[at - 1].strip().startswith("#: "), f"{code.value} needs a '#:' line above it"


def _error_classes(module) -> list[type]:
    return [c for _, c in inspect.getmembers(module, inspect.isclass) if issubclass(c, game_errors.GameError)]


def test_engine_error_codes_are_in_the_vocabulary():
    classes = _error_classes(game_errors)
    assert len(classes) >= 5
    for cls in classes:
        assert cls.code in set(ErrorCode), cls
        # and the service turns one into the domain error with the same code
        assert DomainError(cls.code, "x").code == cls.code


def _string_codes_in_source() -> list[tuple[str, str]]:
    """``(where, code)`` for every literal code passed to DomainError in ``app``,
    and every ``code = "..."`` class attribute under ``app/games``."""
    found = []
    for path in sorted(APP.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                position = {"DomainError": 0}.get(name)
                if position is not None and len(node.args) > position:
                    arg = node.args[position]
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                        found.append((f"{path.relative_to(APP)}:{node.lineno}", arg.value))
            elif isinstance(node, ast.ClassDef) and "games" in path.parts:
                for stmt in node.body:
                    if (
                        isinstance(stmt, ast.Assign)
                        and [getattr(t, "id", None) for t in stmt.targets] == ["code"]
                        and isinstance(stmt.value, ast.Constant)
                    ):
                        found.append((f"{path.relative_to(APP)}:{stmt.lineno}", stmt.value.value))
    return found


def test_every_code_written_in_the_source_is_in_the_vocabulary():
    found = _string_codes_in_source()
    assert len(found) >= 10  # the scan sees the service's codes
    unknown = [f"{where}: {code!r}" for where, code in found if code not in set(ErrorCode)]
    assert not unknown, "add these to app.errors.ErrorCode:\n" + "\n".join(unknown)


def _said_why() -> tuple[list[str], set[tuple[str, str]]]:
    """``(refusals without a reason, {(code, reason)})`` of ``bad_options`` and ``bad_deck`` in
    ``app``: the engines' ``BadOptions`` (``bad_options``) and ``BadAction`` with a ``reason``
    (``validate_deck``'s, ``bad_deck``), the services' ``_bad_options(reason, ...)`` helpers, and
    every ``DomainError`` of either code (it must pass ``params``)."""
    bare, reasons = [], set()
    for path in sorted(APP.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            where = f"{path.relative_to(APP)}:{node.lineno}"
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            keywords = {k.arg: k.value for k in node.keywords}
            reason = keywords.get("reason")
            if name in ("BadOptions", "BadAction") and isinstance(reason, ast.Constant):
                reasons.add(("bad_options" if name == "BadOptions" else "bad_deck", reason.value))
            elif name == "BadOptions":
                bare.append(where)
            elif name == "_bad_options" and node.args and isinstance(node.args[0], ast.Constant):
                reasons.add(("bad_options", node.args[0].value))
            elif name == "DomainError" and node.args:
                code = node.args[0]
                code = code.value if isinstance(code, ast.Constant) else getattr(code, "attr", "").lower()
                if code in ("bad_options", "bad_deck") and "params" not in keywords:
                    bare.append(where)
    return bare, reasons


def test_every_bad_options_and_bad_deck_says_why_and_has_words():
    """The pages word these two from ``params.reason`` (no English sentence for them to paste in):
    every refusal carries a reason, and each reason has its words in static/js/messages.js
    (``error.<code>.<reason>``; tests/i18n/test_catalogs.py holds the translations to the same keys)."""
    from app.i18n.catalogs import english_words

    bare, reasons = _said_why()
    assert not bare, f"give these a reason: {bare}"
    assert len(reasons) >= 30, sorted(reasons)  # the scan sees the engines and the services
    words = english_words()
    missing = sorted(f"error.{code}.{reason}" for code, reason in reasons if f"error.{code}.{reason}" not in words)
    assert not missing, f"add words to static/js/messages.js and static/i18n/*.json: {missing}"
    for code in ("bad_options", "bad_deck"):
        assert "{message}" not in json.dumps(words[f"error.{code}"])  # the fallback for a reason it does not know


def test_engine_errors_carry_their_reason_to_the_wire():
    e = game_errors.BadOptions("x", reason="option_range", params={"option": "win_score", "low": 1, "high": 9})
    assert e.wire_params() == {"reason": "option_range", "option": "win_score", "low": 1, "high": 9}
    assert game_errors.BadAction("y").wire_params() == {}  # no reason: the code's own words
    copy = pickle.loads(pickle.dumps(e))
    assert (str(copy), copy.reason, copy.params) == ("x", "option_range", e.params)


def test_domain_error_shape():
    e = DomainError("too_many_matches", "you already have 5 matches waiting", params={"limit": 5})
    assert (e.code, e.message, e.params, str(e)) == (
        "too_many_matches",
        "you already have 5 matches waiting",
        {"limit": 5},
        "you already have 5 matches waiting",
    )
    assert e.to_dict() == {
        "code": "too_many_matches",
        "message": "you already have 5 matches waiting",
        "params": {"limit": 5},
    }
    assert json.loads(json.dumps(e.to_dict())) == e.to_dict()
    # params are optional
    m = DomainError("stale_version", "the match is at version 12")
    assert isinstance(m, DomainError) and m.params == {} and m.code is ErrorCode.STALE_VERSION
    # params is a copy: changing the caller's dict later changes nothing
    given = {"version": 3}
    e = DomainError("stale_version", "x", params=given)
    given["version"] = 4
    assert e.params == {"version": 3}


def test_domain_errors_survive_pickling():  # bots and sweepers may run in other processes
    for error in (
        DomainError("stale_version", "at 12", params={"version": 12}),
        BadFrame("act needs an action", "k", reason="missing_field", field="action"),
    ):
        copy = pickle.loads(pickle.dumps(error))
        assert type(copy) is type(error) and copy.to_dict() == error.to_dict() and str(copy) == str(error)
        assert getattr(copy, "ack", None) == getattr(error, "ack", None)


def test_domain_error_refuses_unknown_codes_and_unsafe_params():
    with pytest.raises(ValueError, match="ErrorCode"):
        DomainError("not_a_code", "x")
    with pytest.raises(ValueError):
        DomainError("Not_Found", "x")  # codes are exact
    for params in ({"when": object()}, {"deep": {"list": [1, {2: "x"}]}}, {"s": {1, 2}}):
        with pytest.raises(TypeError):
            DomainError("bad_options", "x", params=params)
    assert DomainError("bad_options", "x", params={"a": [1, "b", None, 2.5, True, {"c": []}]}).params["a"][5] == {
        "c": []
    }
    with pytest.raises(TypeError):
        DomainError("bad_options", "x", {"limit": 5})  # params only by keyword


# --- HTTP edge -------------------------------------------------------------------------------------


@pytest.fixture
def http(sqlite_url):
    app = create_app(make_settings(sqlite_url), start_workers=False)

    @app.get("/api/test/domain/{code}")
    async def domain(code: str) -> None:
        raise DomainError(code, f"a {code} for the test", params={"limit": 5, "field": "name"})

    @app.get("/api/test/slow-down")
    async def slow_down() -> None:
        raise DomainError("rate_limited", "wait", params={"retry_after": 7})

    with TestClient(app, raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("code", ["stale_version", "too_many_matches", "bad_name", "forbidden", "internal_error"])
def test_domain_errors_become_json_with_the_codes_status(http, code):
    r = http.get(f"/api/test/domain/{code}")
    assert r.status_code == http_status(code) == STATUS_BEFORE[code]
    assert r.json() == {
        "error": {"code": code, "message": f"a {code} for the test", "params": {"limit": 5, "field": "name"}}
    }
    assert "retry-after" not in r.headers


def test_rate_limited_sends_retry_after(http):
    r = http.get("/api/test/slow-down")
    assert r.status_code == 429 and r.headers["retry-after"] == "7"
    assert r.json()["error"]["params"] == {"retry_after": 7}


def test_framework_errors_and_validation_errors_have_the_same_shape(http):
    r = http.get("/api/no/such/path")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found" and r.json()["error"]["params"] == {}
    r = http.delete("/api/games")
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"
    r = http.get("/api/matches/0")
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["code"] == "validation_error" and error["params"]["field"] == "match_id"
    (detail,) = error["params"]["errors"]
    assert detail["loc"] == ["path", "match_id"] and detail["type"] == "greater_than_equal"
    assert detail["ctx"] == {"ge": 1}
    r = http.get("/api/test/domain/bogus_code")  # a programming error: an unknown code
    assert r.status_code == 500 and r.json()["error"] == {
        "code": "internal_error",
        "message": "something went wrong on the server",
        "params": {},
    }


# --- websocket edge --------------------------------------------------------------------------------


def test_error_frame_shape_and_the_socket_name_of_forbidden():
    frame = error_frame(DomainError("stale_version", "at 12", params={"version": 12}), "a1")
    assert frame == {
        "type": "error",
        "code": "stale_version",
        "message": "at 12",
        "params": {"version": 12},
        "ack": "a1",
    }
    assert set(frame) == set(ErrorFrame.__annotations__)
    assert error_frame(DomainError("forbidden", "you hold no seat"))["code"] == "not_your_turn"
    assert json.loads(encode(frame)) == frame and " " not in encode(pong_frame())
    assert pong_frame() == {"type": "pong"}


def test_snapshot_frame_copies_and_acks():
    snapshot = {"type": "snapshot", "version": 3}
    assert snapshot_frame(snapshot) == snapshot
    acked = snapshot_frame(snapshot, "a7")
    assert acked == {"type": "snapshot", "version": 3, "ack": "a7"} and "ack" not in snapshot
    with pytest.raises(ValueError):
        snapshot_frame({"type": "error"})


@pytest.mark.parametrize(
    ("text", "params", "ack"),
    [
        (None, {"reason": "binary"}, None),
        ("x" * 100, {"reason": "too_large", "limit": 50}, None),
        ("{nope", {"reason": "not_json"}, None),
        ("[" * 30 + "]" * 30, {"reason": "not_object"}, None),
        ('{"type": "hello", "since": -1}', {"reason": "bad_field", "field": "since"}, None),
        ('{"type": "act", "version": 1, "ack": "k"}', {"reason": "missing_field", "field": "action"}, "k"),
        ('{"type": "act", "action": {}, "version": "1", "ack": "k"}', {"reason": "bad_field", "field": "version"}, "k"),
        ('{"type": "dance", "ack": "k"}', {"reason": "unknown_type"}, "k"),
        ('{"type": "ping", "ack": 5}', {"reason": "bad_field", "field": "ack", "limit": 64}, None),
    ],
)
def test_bad_frames_are_domain_errors_with_a_reason(text, params, ack):
    with pytest.raises(BadFrame) as e:
        parse_frame(text, 50 if text and len(text) == 100 else 1000)
    assert isinstance(e.value, DomainError) and e.value.code == "bad_message"
    assert e.value.params == params and e.value.ack == ack
    assert error_frame(e.value, e.value.ack)["params"] == params
