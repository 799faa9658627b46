"""Treasure Beasts' web parts (app/web/games/treasure_beasts.py): the match and replay pages load its
module and stylesheet, the rules page lists every card of the engine's catalog, the lobby offers the
game's own options, every event code the engine sends has words in static/js/messages.js, and a
seat's snapshot over HTTP never carries another seat's hand or pack."""

from __future__ import annotations

import html
import json
import re

from tests.test_pages import page_json, register

GAME = "treasure_beasts"
MODULE = "/static/js/games/treasure_beasts.js"
CSS = "/static/css/treasure_beasts.css"


def test_web_parts_name_files_that_exist():
    from app.settings import ROOT
    from app.web.games import web_parts

    web = web_parts(GAME)
    assert web.module == MODULE and web.css == (CSS,)
    assert (ROOT / MODULE.lstrip("/")).is_file() and (ROOT / CSS.lstrip("/")).is_file()
    assert (ROOT / "templates" / web.rules_template).is_file()


def test_rules_page_lists_every_card_of_the_catalog(client):
    from app.games.core import get_rules
    from app.web.games.treasure_beasts import card_lines

    cards = get_rules(GAME).catalog()["cards"]
    assert len(cards) >= 40
    r = client.get(f"/games/{GAME}")
    assert r.status_code == 200
    text = html.unescape(r.text)
    assert "Treasure Beasts: rules" in text and CSS in text
    found = re.findall(r'<div class="tb-card tb-card-static[^"]*" data-card="([a-z_0-9]+)"', r.text)
    assert found == [c["id"] for c in cards]
    for card in cards:
        block = text.split(f'data-card="{card["id"]}"', 1)[1].split('<div class="tb-card ', 1)[0]
        assert card["name"] in block and f'title="strength">{card["strength"]}<' in block, card["id"]
        lines = card_lines(card)
        for line in lines:
            label = line["label"] % line["params"] if line["params"] else line["label"]
            assert f"{label}: {line['text']}" in block, (card["id"], line)
        assert len(lines) == len(card.get("personal_abilities", ())) + sum(
            k in card for k in ("group_ability", "alternative_use", "attach_option")
        )
    assert "Interception" in text and "12" in text and "2 action points" in text


def test_match_and_replay_pages_load_the_module_stylesheet_and_cards(client):
    register(client, "tbhost")
    body = {
        "game": GAME,
        "players": 3,
        "options": {"turn_seconds": 30},
        "computer": [{"seat": 1, "level": "random"}, {"seat": 2, "level": "random"}],
    }
    created = client.post("/api/matches", json=body)
    assert created.status_code == 201, created.text
    match = created.json()
    assert match["num_players"] == 3 and match["status"] == "active"
    for path in (f"/matches/{match['id']}", f"/matches/{match['id']}/replay"):
        r = client.get(path)
        assert r.status_code == 200, path
        assert f'data-module="{MODULE}"' in r.text or "/static/js/replay.js" in r.text
        assert f'<link rel="stylesheet" href="{CSS}">' in r.text, path
        data = page_json(r.text, "game-data")
        assert data["id"] == GAME and len(data["catalog"]["cards"]) >= 40
        assert data["labels"]["meadow_grazer"] == "Лучний травоїд"  # the card's own (Ukrainian) name
        assert data["catalog"]["cards"][0]["names"]["en"] == "Meadow Grazer"
        assert len(data["labels"]) == len(data["catalog"]["cards"])
    assert client.get(MODULE).status_code == 200 and client.get(CSS).status_code == 200


def test_a_seat_snapshot_shows_its_own_pack_and_never_the_others(client):
    register(client, "tbseat")
    body = {
        "game": GAME,
        "players": 3,
        "options": {"turn_seconds": 60},
        "computer": [{"seat": 1, "level": "random"}, {"seat": 2, "level": "random"}],
    }
    match = client.post("/api/matches", json=body).json()
    snap = client.get(f"/api/matches/{match['id']}/snapshot").json()
    view = snap["view"]
    assert snap["seat"] == 0 and view["phase"] == "draft"
    assert len(view["pack"]["pack"]) == 6 and view["pack"]["seat"] == 0
    assert {a["pick"] for a in snap["legal"]} == set(view["pack"]["pack"]) and "hand" in view
    text = json.dumps(snap)
    for seat in (1, 2):
        assert f'"seat": {seat}, "pack"' not in text and f'"seat": {seat}, "cards"' not in text
        assert view["players"][seat]["pack_size"] == 6 and "pack" not in view["players"][seat]


def test_the_lobby_offers_the_game_options_the_engine_has(client):
    from app.games.core import get_rules

    register(client, "tblobby")
    games = {g["id"]: g for g in page_json(client.get("/lobby").text, "lobby-data")["games"]}
    tb = games[GAME]
    assert tb["min_players"] == 2 and tb["max_players"] == 6
    assert "planner" in tb["bot_levels"] and "random" in tb["bot_levels"]
    rules = get_rules(GAME)
    assert set(tb["lobby_options"]) <= set(rules.default_options)
    for key in ("creature_actions", "threat_scope"):
        choices = [c[0] for c in tb["lobby_options"][key]["choices"]]
        assert choices == list(rules.option_choices[key])
    body = {
        "game": GAME,
        "players": 4,
        "options": {
            "turn_seconds": 30,
            "max_rounds": 20,
            "creature_actions": "one_total",
            "threat_scope": "global",
            "turn_ends_at_zero_ap": False,
        },
        "computer": [{"seat": s, "level": "random"} for s in (1, 2, 3)],
    }
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    assert r.json()["options"]["max_rounds"] == 20


def test_every_event_code_of_the_engine_has_words():
    """The page renders the log from codes: each event kind the engine emits has a ``tb.ev.*``
    entry (or a handled sub-key), and every effect, property, zone, group and trigger has words."""
    from app.games.treasure_beasts.data import GROUPS, PROPERTIES, SHOT_VERBS, STATIC_VERBS, TRIGGERS, ZONES
    from app.settings import ROOT

    source = "".join(p.read_text() for p in (ROOT / "app" / "games" / GAME).glob("*.py"))
    kinds = set(re.findall(r'Event\(\s*"([a-z_]+)"', source))
    kinds |= {"readied", "tired"}  # Event("readied" if ready else "tired", ...)
    assert {"attack_declared", "strike", "attack_resolved", "entered", "left", "game_over"} <= kinds
    words = (ROOT / "static" / "js" / "messages.js").read_text()
    js = (ROOT / "static" / "js" / "games" / "treasure_beasts.js").read_text()
    for kind in kinds:
        assert f'"tb.ev.{kind}' in words, kind
    for verb in STATIC_VERBS | SHOT_VERBS:
        assert f'"tb.eff.{verb}"' in words, verb
    for prop in PROPERTIES:
        assert f'"tb.prop.{prop}"' in words
    for group in GROUPS:
        assert f'"tb.group.{group}"' in words
    for zone in ZONES:
        assert f'"tb.zone.{zone}"' in words
    for trigger in TRIGGERS:
        assert f'"tb.trigger.{trigger}"' in words
    for reason in ("treasure", "last_standing", "turn_cap"):
        assert f'"tb.reason.{reason}"' in words
    for name in (
        "export function render",
        "export function describeEvent",
        "export async function setup",
        "export function describeInput",
    ):
        assert name in js
    assert "Meadow Grazer" not in js and "Лучний" not in js and "meadow_grazer" not in js  # no copy of the card set
    assert (ROOT / "static" / "css" / "treasure_beasts.css").read_text().count("@media") >= 2
