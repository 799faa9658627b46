"""Every name and label a client sends refuses control characters (U+0000 included) and blank
names with 422 ``validation_error``, through the one validator of ``app/validation.py``; on
PostgreSQL too, where a NUL used to answer 500."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from app.validation import Name, Text

PASSWORD = "correct horse 1"


def _bearer(client, name="alice"):
    assert client.post("/api/auth/register", json={"name": name, "password": PASSWORD}).status_code == 201
    r = client.post("/api/auth/token", json={"name": name, "password": PASSWORD})
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def _refused(response, kind):
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    assert kind in [e["type"] for e in error["params"]["errors"]], error
    return error


@pytest.mark.parametrize("bad", ["nul\x00name", "\x00", "tab\there", "new\nline", "bell\x07", "del\x7f", "c1\x85"])
def test_deck_names_and_token_labels_refuse_control_characters(client, bad):
    a = _bearer(client)
    deck = {"game": "stratego_junior", "name": bad, "data": {}}
    error = _refused(client.post("/api/decks", json=deck, headers=a), "control_characters")
    assert error["params"]["field"] == "name"
    label = {"name": "alice", "password": PASSWORD, "label": bad}
    _refused(client.post("/api/auth/token", json=label), "control_characters")
    _refused(client.post("/api/auth/register", json={"name": bad, "password": PASSWORD}), "control_characters")
    _refused(client.post("/api/auth/login", json={"name": bad, "password": PASSWORD}), "control_characters")


@pytest.mark.parametrize("blank", ["", "   ", "\u3000"])
def test_blank_deck_names_are_refused(client, blank):
    a = _bearer(client)
    _refused(client.post("/api/decks", json={"game": "stratego_junior", "name": blank, "data": {}}, headers=a), "blank")
    _refused(client.put("/api/decks/1", json={"name": blank}, headers=a), "blank")


def test_one_validator_keeps_ordinary_text():
    class Body(BaseModel):
        name: Name
        label: Text = ""

    assert Body(name="  Огонь и лёд 🔥 ", label="my bot").name == "Огонь и лёд 🔥"
    with pytest.raises(ValidationError) as info:
        Body(name="ok", label="a\x00b")
    assert info.value.errors()[0]["type"] == "control_characters"
    assert info.value.errors()[0]["ctx"] == {"position": 1}


@pytest.mark.parametrize("bad", ["evil\u202egpj.exe", "\u200b", "a\u200db", "\ufeffname"])
def test_names_refuse_invisible_format_characters(client, bad):
    a = _bearer(client)
    deck = {"game": "stratego_junior", "name": bad, "data": {}}
    error = _refused(client.post("/api/decks", json=deck, headers=a), "format_characters")
    assert error["params"]["field"] == "name"
    # sign-up refuses them too (its own name rule, letters and digits, answers first: bad_name)
    assert client.post("/api/auth/register", json={"name": bad, "password": PASSWORD}).status_code == 422
