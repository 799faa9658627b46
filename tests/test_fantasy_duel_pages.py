"""Fantasy súboj's web parts (app/web/games/fantasy_duel.py): the match and replay pages load its
module and stylesheet, the rules page lists the 36 units from the engine's catalog, the lobby offers
the game's own options, and every event code the engine sends has words in static/js/messages.js."""

from __future__ import annotations

import html
import re
from pathlib import Path

from tests.test_pages import page_json, register

GAME = "fantasy_duel"
MODULE = "/static/js/games/fantasy_duel.js"
CSS = "/static/css/fantasy_duel.css"


def test_web_parts_name_files_that_exist():
    from app.settings import ROOT
    from app.web.games import web_parts

    web = web_parts(GAME)
    assert web.module == MODULE and web.css == (CSS,)
    assert (ROOT / MODULE.lstrip("/")).is_file() and (ROOT / CSS.lstrip("/")).is_file()
    assert (ROOT / "templates" / web.rules_template).is_file()


def test_rules_page_lists_every_unit_of_the_catalog(client):
    from app.games.core import get_rules
    from app.web.games.fantasy_duel import ability_text, display_name, unit_translation

    units = get_rules(GAME).catalog()["units"]
    assert len(units) == 36
    r = client.get(f"/games/{GAME}")
    assert r.status_code == 200
    text = html.unescape(r.text)
    assert "Fantasy súboj: rules" in text and CSS in text
    cards = re.findall(r'<div class="fd-unit fd-unit-static[^"]*" data-unit="([a-z_0-9]+)"', r.text)
    assert cards == [u["id"] for u in units]
    for unit in units:
        block = text.split(f'data-unit="{unit["id"]}"', 1)[1].split('<div class="fd-unit ', 1)[0]
        # the original (Slovak) name, and its English translation beside it
        assert display_name(unit) in block and unit_translation(unit["id"], "en") in block, unit["id"]
        assert f"⚔ {unit['attack']}+{unit['dice']}d6" in block and f"def {unit['defense']}" in block
        for ability in unit["abilities"]:
            assert ability_text(ability) in block, (unit["id"], ability)
    assert "+4 attack against undead units" in text  # Paladín
    assert "Taunt" in text and "Tactics" in text and "Doom" in text


def test_match_and_replay_pages_load_the_module_stylesheet_and_units(client):
    register(client, "fdhost")
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
        assert data["id"] == GAME and len(data["catalog"]["units"]) == 36
        assert data["labels"]["rytier"] == "Rytier" and len(data["labels"]) == 36  # the original names
    assert client.get(MODULE).status_code == 200 and client.get(CSS).status_code == 200


def test_the_lobby_offers_the_game_options_the_engine_has(client):
    from app.games.core import get_rules

    register(client, "fdlobby")
    games = {g["id"]: g for g in page_json(client.get("/lobby").text, "lobby-data")["games"]}
    fd = games[GAME]
    assert fd["min_players"] == 2 and fd["max_players"] == 8
    assert fd["bot_levels"] == ["random", "casual", "heuristic"]
    defaults = get_rules(GAME).default_options
    assert set(fd["lobby_options"]) <= set(defaults)
    assert {"packs", "stalemate_rounds", "recruit_swap_prison"} <= set(fd["lobby_options"])
    choices = [c[0] for c in fd["lobby_options"]["recruit_swap_prison"]["choices"]]
    assert choices == list(get_rules(GAME).option_choices["recruit_swap_prison"])
    # what the form would send is accepted
    body = {
        "game": GAME,
        "players": 4,
        "options": {
            "turn_seconds": 30,
            "packs": 2,
            "stalemate_rounds": 3,
            "recruit_swap_prison": "loser",
            "poison_attacker_ignores_taunt_and_fire": True,
        },
        "computer": [{"seat": s, "level": "random"} for s in (1, 2, 3)],
    }
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    assert r.json()["options"]["packs"] == 2


def test_the_lobby_offers_the_team_modes_of_the_spec(client):
    """Free-for-all is the default (``teams: []``); the lobby offers 2 vs 2, 3 vs 3, 4 vs 4 and
    2 vs 2 vs 2 with teammates apart, each of which the engine accepts for its number of seats."""
    from app.games.core import get_rules

    register(client, "fdmodes")
    fd = {g["id"]: g for g in page_json(client.get("/lobby").text, "lobby-data")["games"]}[GAME]
    assert fd["options"]["teams"] == []
    modes = fd["team_modes"]
    assert fd["team_mode_order"] == ["2v2", "3v3", "4v4", "2v2v2"]
    assert {k: m["teams"] for k, m in modes.items()} == {
        "2v2": [0, 1, 0, 1],
        "3v3": [0, 1, 0, 1, 0, 1],
        "4v4": [0, 1, 0, 1, 0, 1, 0, 1],
        "2v2v2": [0, 1, 2, 0, 1, 2],
    }
    rules = get_rules(GAME)
    for mode in modes.values():
        teams = mode["teams"]
        state = rules.initial_state(len(teams), rules.normalize_options({"teams": teams}))
        assert state.config.teams == tuple(teams)
        sizes = [teams.count(t) for t in set(teams)]
        assert len(set(sizes)) == 1 and mode["label"] == " vs ".join(str(n) for n in sizes)
        # the match list names the mode (the tag of option ``teams``)
        assert fd["option_tags"]["teams"]["values"][",".join(map(str, teams))] == f"teams {mode['label']}"


def test_a_team_match_shows_its_teams(client):
    """A 2 vs 2 match as the lobby's form sends it: the view gives every seat its team; a layout
    that does not fit the number of seats is refused with ``bad_options``."""
    register(client, "fdteams")
    body = {
        "game": GAME,
        "players": 4,
        "options": {"turn_seconds": 30, "teams": [0, 1, 0, 1]},
        "computer": [{"seat": s, "level": "random"} for s in (1, 2, 3)],
    }
    r = client.post("/api/matches", json=body)
    assert r.status_code == 201, r.text
    snap = client.get(f"/api/matches/{r.json()['id']}/snapshot").json()
    assert snap["view"]["teams"] == [0, 1, 0, 1] and len(snap["view"]["team_scores"]) == 2
    r = client.post("/api/matches", json={**body, "players": 6, "computer": [{"seat": 1, "level": "random"}]})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_options", r.text


def test_every_event_code_of_the_engine_has_words():
    """The page renders the log from codes: each event kind the engine emits has an ``fd.ev.*`` entry
    (or is handled in the module), and the module draws no English of its own for them."""
    from app.settings import ROOT

    source = "".join(p.read_text() for p in (ROOT / "app" / "games" / GAME).glob("*.py"))
    kinds = set(re.findall(r'Event\(\s*"([a-z_]+)"', source))
    assert {"attack_declared", "attack_resolved", "imprisoned", "recruited", "drew", "game_over"} <= kinds
    words = (ROOT / "static" / "js" / "messages.js").read_text()
    js = (ROOT / "static" / "js" / "games" / "fantasy_duel.js").read_text()
    for kind in kinds - {"dealt"}:  # the deal is told by deck_shuffled
        assert f'"fd.ev.{kind}' in words, kind
    for result in ("defeated", "repelled", "hidden", "tie", "poisoned"):
        assert f'"fd.ev.attack_resolved.{result}"' in words and f'"fd.result.{result}"' in words
    for ability in (
        "bonus_vs",
        "defense_bonus_vs",
        "hiding",
        "tracking",
        "poison",
        "healer",
        "taunt",
        "tactics",
        "ally_support",
        "defensive_fire",
        "doom_vs_living",
    ):
        assert f'"fd.ability.{ability}"' in words and f'"fd.ability_long.{ability}"' in words
    for name in (
        "export function render",
        "export function describeEvent",
        "export async function setup",
        "export function describeInput",
    ):
        assert name in js
    assert "Kostlivec" not in js and "rytier" not in js  # no copy of the unit table
    assert Path(ROOT / "static" / "css" / "fantasy_duel.css").read_text().count("@media") >= 2
