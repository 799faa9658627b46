"""The server-rendered pages (app/web/routes.py): they render, show who is logged in, send
anonymous visitors of login-only pages to /login?next=..., and load the right scripts."""

from __future__ import annotations

import json
import re
from typing import ClassVar

PASSWORD = "correct horse battery"


def register(client, name: str) -> dict:
    r = client.post("/api/auth/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return r.json()["user"]


def page_json(html: str, element_id: str) -> dict:
    m = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', html, re.S)
    assert m, f"no #{element_id} in the page"
    return json.loads(m.group(1))


def test_home_page(client):
    r = client.get("/")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    assert "Tabletop Arena" in r.text
    assert "Battle Runes" in r.text
    assert 'href="/signup"' in r.text and 'href="/login"' in r.text
    assert "/static/css/site.css" in r.text
    assert "logout-button" not in r.text


def test_signup_and_login_pages(client):
    r = client.get("/signup")
    assert r.status_code == 200
    assert 'id="auth-form"' in r.text and 'data-mode="signup"' in r.text and 'id="password2"' in r.text
    assert "/static/js/auth.js" in r.text
    r = client.get("/login?next=/matches/3")
    assert r.status_code == 200
    assert 'data-mode="login"' in r.text and 'data-next="/matches/3"' in r.text


def test_login_next_must_stay_on_this_site(client):
    bad_targets = (
        "//evil.example/x",
        "https://evil.example/",
        "evil",
        "/\\evil.example",
        "/\t/evil.example/phish",
        "/\n/evil.example/x",
        "/\r/evil.example",
        "/ /evil.example",
        "/\x7f/x",
    )
    for bad in bad_targets:
        r = client.get("/login", params={"next": bad})
        assert 'data-next="/lobby"' in r.text, bad
    r = client.get("/login", params={"next": "/matches/3?x=1"})
    assert 'data-next="/matches/3?x=1"' in r.text


def test_a_visitor_sees_the_lobby_read_only(client):
    r = client.get("/lobby", follow_redirects=False)
    assert r.status_code == 200
    assert "Open matches" in r.text and "Live now" in r.text and 'id="live-matches"' in r.text
    # a sign-up prompt instead of the form; no lists of one's own matches
    assert 'id="visitor-signup"' in r.text and 'href="/signup?next=/lobby"' in r.text
    assert 'id="create-form"' not in r.text and "Your matches" not in r.text
    assert page_json(r.text, "lobby-data")["user"] is None


def test_lobby_when_logged_in(client):
    register(client, "lobbyist")
    r = client.get("/lobby")
    assert r.status_code == 200
    assert "Logged in as" in r.text and "lobbyist" in r.text and "logout-button" in r.text
    assert "Create a match" in r.text and "Open matches" in r.text and "Your matches" in r.text
    assert 'id="create-turn"' in r.text and "Untimed" in r.text and "120 seconds" in r.text
    data = page_json(r.text, "lobby-data")
    games = {g["id"]: g for g in data["games"]}
    assert games["battle_runes"]["bot_levels"]  # the computer levels the form offers
    # the default options, so that the lobby can show how an open match differs from them
    assert games["battle_runes"]["options"] == client.get("/api/games/battle_runes").json()["options"]
    assert games["battle_runes"]["options"]["win_score"] == 50
    assert data["user"]["name"] == "lobbyist"
    # logged out again: the visitor's lobby
    client.post("/api/auth/logout")
    r = client.get("/lobby", follow_redirects=False)
    assert r.status_code == 200 and 'id="create-form"' not in r.text and 'id="visitor-signup"' in r.text


def test_match_page_and_replay_page(client):
    register(client, "maker")
    match = client.post("/api/matches", json={"game": "battle_runes", "options": {"turn_seconds": 60}}).json()
    r = client.get(f"/matches/{match['id']}")
    assert r.status_code == 200
    assert f'data-match-id="{match["id"]}"' in r.text
    assert 'data-module="/static/js/games/battle_runes.js"' in r.text
    assert "/static/js/match_page.js" in r.text
    assert "offline — reconnecting" in r.text and "I'm back" in r.text
    data = page_json(r.text, "match-data")
    assert data["match"]["id"] == match["id"] and data["user"]["name"] == "maker"
    assert "seed" not in data["match"]  # never before the end
    assert data["expiry_seconds"] == 3600  # "closed if nobody joins within 1 hour"
    # the side links: the Replay link and its separator are hidden together until the end
    assert re.search(r'<li id="replay-item"\s+hidden>', r.text)
    links = re.search(r'<ul class="side-links">(.*?)</ul>', r.text, re.S).group(1)
    assert "·" not in links  # the separators are drawn by CSS between the visible items only
    assert 'id="resign-button"' in r.text and r.text.index('id="resign-button"') < r.text.index('id="log"')
    assert 'id="match-aborted"' not in r.text
    r = client.get(f"/matches/{match['id']}/replay")
    assert r.status_code == 200
    assert "Nothing has been played yet" in r.text and "/static/js/replay.js" not in r.text
    # once it runs, the replay page steps through it (as this viewer saw it: static/js/replay.js)
    register(client, "opponent")
    assert client.post(f"/api/matches/{match['id']}/join").json()["status"] == "active"
    r = client.get(f"/matches/{match['id']}/replay")
    assert "/static/js/replay.js" in r.text and 'id="move-list"' in r.text and 'id="replay-live"' in r.text


def _aborted_pages(client, match_id: int) -> tuple[str, str]:
    page = client.get(f"/matches/{match_id}")
    replay = client.get(f"/matches/{match_id}/replay")
    assert page.status_code == 200 and replay.status_code == 200
    for text in (page.text, replay.text):
        assert 'id="match-aborted"' in text
        assert "Waiting for an opponent" not in text and "join-match" not in text
        assert "Nothing has been played yet" not in text
    assert 'id="seed-unused"' in page.text and "never started" in page.text
    assert "nothing to replay" in replay.text and "/static/js/replay.js" not in replay.text
    assert "nothing to replay" not in page.text
    return page.text, replay.text


def test_cancelled_match_pages_say_so(client):
    register(client, "quitter")
    match = client.post("/api/matches", json={"game": "battle_runes"}).json()
    r = client.post(f"/api/matches/{match['id']}/cancel")
    assert r.status_code == 200 and r.json()["status"] == "aborted"
    page, replay = _aborted_pages(client, match["id"])
    assert "This match was cancelled" in page and 'data-reason="cancelled"' in page
    assert "This match was cancelled" in replay
    assert "cancelled it before an opponent joined" in page
    client.post("/api/auth/logout")  # a visitor sees the same, with no Join button
    page, _ = _aborted_pages(client, match["id"])
    assert "This match was cancelled" in page


def test_expired_match_pages_say_so(client):
    register(client, "patient")
    match = client.post("/api/matches", json={"game": "battle_runes"}).json()
    app = client.app
    app.state.settings.waiting_expiry_seconds = 0
    client.portal.call(app.state.matches.expire_waiting)
    app.state.settings.waiting_expiry_seconds = 5400
    info = client.get(f"/api/matches/{match['id']}").json()
    assert info["status"] == "aborted" and info["result"]["reason"] == "expired"
    page, replay = _aborted_pages(client, match["id"])
    assert "This match expired" in page and 'data-reason="expired"' in page
    assert "Nobody joined it within 90 minutes" in page
    assert "This match expired" in replay


def test_match_page_for_spectators(client):
    register(client, "host")
    match = client.post("/api/matches", json={"game": "battle_runes"}).json()
    client.post("/api/auth/logout")
    r = client.get(f"/matches/{match['id']}")  # anonymous visitors may watch
    assert r.status_code == 200
    assert page_json(r.text, "match-data")["user"] is None


def test_missing_match_is_a_404_page(client):
    for path in ("/matches/9999", "/matches/9999/replay", "/games/no_such_game"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert r.headers["content-type"].startswith("text/html")
        assert "Not found" in r.text


def test_battle_runes_rules_page(client):
    r = client.get("/games/battle_runes")
    assert r.status_code == 200
    assert "Battle Runes: rules" in r.text
    catalog = client.get("/api/games/battle_runes").json()["catalog"]
    runes = catalog["runes"] if isinstance(catalog, dict) else catalog
    assert len(runes) == 30
    for rune in runes:
        assert f'title="{rune["name"]}"' in r.text
    assert "rune-build" in r.text and "rune-destroy" in r.text and "rune-modifier" in r.text
    # 25 and 50 are the defaults, which a match may change
    assert re.search(r"By default both scores start at\s+<strong[^>]*>25</strong>", r.text)
    assert re.search(r"reach <strong[^>]*>50</strong> to win", r.text)
    assert "(50 by default)" in r.text
    # the corner number is explained where it is drawn
    assert "The corner number is when the rune applies" in r.text
    assert 'title="Applies at step 6 of the turn' in r.text


def test_duration_filter():
    from app.web.pages import duration

    assert duration(3600) == "1 hour" and duration(7200) == "2 hours" and duration(5400) == "90 minutes"
    assert duration(60) == "1 minute" and duration(45) == "45 seconds" and duration(86400) == "1 day"
    assert duration(None) == "a while"


def test_static_files_are_served(client):
    for path in (
        "/static/css/site.css",
        "/static/js/api.js",
        "/static/js/match_client.js",
        "/static/js/match_page.js",
        "/static/js/games/battle_runes.js",
        "/static/js/games/generic.js",
        "/static/js/replay.js",
        "/static/js/lobby.js",
        "/static/js/auth.js",
        "/static/js/site.js",
        "/static/js/sha256.js",
    ):
        r = client.get(path)
        assert r.status_code == 200, path
    assert "javascript" in client.get("/static/js/match_client.js").headers["content-type"]


# ------------------------------------------------------------------ Scratch Wars pages


def _scratch_wars_catalog(client) -> dict:
    return client.get("/api/games/scratch_wars").json()["catalog"]


def test_scratch_wars_gallery_renders_every_card(client):
    from markupsafe import escape  # as Jinja escapes a name

    from app.web.games.scratch_wars import rarity_text

    r = client.get("/games/scratch_wars/cards")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    catalog = _scratch_wars_catalog(client)
    assert len(catalog["heroes"]) == 12 and len(catalog["weapons"]) == 28
    for card in catalog["heroes"] + catalog["weapons"]:
        assert escape(card["name"]) in r.text, card["name"]
        assert f'data-code="{card["code"]}"' in r.text
        assert escape(rarity_text(card)) in r.text  # the rulebook's rarity check, e.g. "20 vs 19.5: above average"
    assert "16 vs 14.5: above average" in r.text  # Plechový krátký meč's wheel sums to 16, its kind's average 14.5
    assert "/static/css/scratch_wars.css" in r.text and "/static/js/scratch_wars_gallery.js" in r.text
    assert page_json(r.text, "sw-data")["catalog"]["wheel_segments"] == 9
    assert 'href="/decks/scratch_wars"' in r.text and 'href="/games/scratch_wars"' in r.text


def test_scratch_wars_rules_page_lists_the_cards_and_links_the_gallery(client):
    r = client.get("/games/scratch_wars")
    assert r.status_code == 200
    assert "Scratch Wars: rules" in r.text
    assert 'href="/games/scratch_wars/cards"' in r.text and "See all 12 heroes and 28 weapons" in r.text
    for hero in _scratch_wars_catalog(client)["heroes"]:
        assert f"/games/scratch_wars/cards#card-{hero['code']}" in r.text
    assert "/static/css/scratch_wars.css" in r.text
    # rule 3.1: "kind means the same weapon name, not the weapon type" (a newcomer read "one axe")
    words = " ".join(r.text.split())
    assert "each weapon name only once (two different weapons of one type" in words and "kind of weapon" not in words
    home = client.get("/")
    assert 'href="/games/scratch_wars/cards"' in home.text


def test_scratch_wars_loadout_page_requires_login(client):
    r = client.get("/decks/scratch_wars", follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"] == "/login?next=/decks/scratch_wars"
    register(client, "loadouter")
    r = client.get("/decks/scratch_wars")
    assert r.status_code == 200
    assert 'id="sw-loadouts-app"' in r.text and "/static/js/scratch_wars_loadouts.js" in r.text
    assert "/static/css/scratch_wars.css" in r.text


def test_scratch_wars_match_page_loads_its_module(client):
    register(client, "swhost")
    match = client.post("/api/matches", json={"game": "scratch_wars", "options": {"level": 2}}).json()
    r = client.get(f"/matches/{match['id']}")
    assert r.status_code == 200
    assert 'data-module="/static/js/games/scratch_wars.js"' in r.text
    assert "/static/css/scratch_wars.css" in r.text
    for path in (
        "/static/js/games/scratch_wars.js",
        "/static/js/scratch_wars_cards.js",
        "/static/js/scratch_wars_builder.js",
        "/static/js/scratch_wars_gallery.js",
        "/static/js/scratch_wars_loadouts.js",
        "/static/css/scratch_wars.css",
    ):
        assert client.get(path).status_code == 200, path


# ---------------------------------------------------------------------------------- Stratego Junior


def test_stratego_junior_match_and_replay_pages_load_its_module_and_stylesheet(client):
    register(client, "strategist")
    match = client.post("/api/matches", json={"game": "stratego_junior", "options": {"variant": "quest"}}).json()
    r = client.get(f"/matches/{match['id']}")
    assert r.status_code == 200
    assert 'data-module="/static/js/games/stratego_junior.js"' in r.text
    assert '<link rel="stylesheet" href="/static/css/stratego.css">' in r.text
    assert page_json(r.text, "match-data")["match"]["options"]["variant"] == "quest"
    r = client.get(f"/matches/{match['id']}/replay")
    assert r.status_code == 200 and "/static/css/stratego.css" in r.text
    # other games' pages do not get it
    other = client.post("/api/matches", json={"game": "battle_runes"}).json()
    assert "/static/css/stratego.css" not in client.get(f"/matches/{other['id']}").text


def test_stratego_junior_rules_page_shows_the_castles(client):
    from app.web.games.stratego_junior import ORIGINAL_NAMES

    r = client.get("/games/stratego_junior")
    assert r.status_code == 200
    assert "Stratego Junior: rules" in r.text
    assert "/static/css/stratego.css" in r.text and "/static/js/games/stratego_junior.js" in r.text
    assert 'id="sj-rules-quest"' in r.text and 'id="sj-rules-victory"' in r.text
    assert "Memory aid" in r.text and "Back and forth" in r.text
    pieces = client.get("/api/games/stratego_junior").json()["catalog"]["pieces"]
    assert len(pieces) == 10
    for p in pieces:
        assert f'data-piece="{p["id"]}"' in r.text and f'data-sj-icon="{p["id"]}"' in r.text
        assert f"{p['count']} per side" in r.text
        if p["strength"] is not None:
            assert f"strength {p['strength']}" in r.text
    # each castle's original (Hungarian) name, and beside it the page's word (docs/i18n.md)
    names = {
        "king": "King",
        "princess": "Princess",
        "knight": "Knight",
        "unicorn": "Unicorn",
        "dwarf": "Dwarf",
        "wizard": "Wizard",
        "dragon": "Dragon",
        "flag": "Flag",
        "black_knight": "Black Knight",
        "jester": "Jester",
    }
    for piece, name in names.items():
        original = ORIGINAL_NAMES[piece]
        assert (
            f'<h3><span class="sj-original" lang="hu">{original}</span> <span class="sj-here">({name})</span>' in r.text
        )
    # the difficulties in words, the algorithm's name only in the tooltip (issue 16)
    # the tooltip says what the algorithm does, its name after it (level.algo.<name> of WORDS)
    levels = ", ".join(
        f'<span class="level-name" title="{what} (algorithm: {lv})">{name}</span>'
        for lv, name, what in (
            ("random", "Easy", "picks any allowed move at random"),
            ("casual", "Medium", "plays like the Hard level, but about one move in three is random"),
            ("expert", "Hard", "remembers every castle it has seen and plans its moves from that"),
        )
    )
    assert f"Computer levels: {levels}." in r.text
    assert "(expert)" not in r.text and ">expert<" not in r.text
    assert 'href="/decks/stratego_junior"' in r.text  # "My setups"


def test_setups_pages_need_a_login(client):
    for path in ("/decks", "/decks/stratego_junior"):
        r = client.get(path, follow_redirects=False)
        assert r.status_code == 303, path
        assert r.headers["location"] == f"/login?next={path}"
    assert 'id="nav-decks"' not in client.get("/").text


def test_setups_pages(client):
    register(client, "builder")
    assert 'href="/decks" id="nav-decks"' in client.get("/").text  # in the header once logged in
    r = client.get("/decks")
    assert r.status_code == 200 and 'href="/decks/stratego_junior"' in r.text
    r = client.get("/decks/stratego_junior")
    assert r.status_code == 200
    assert "My Stratego Junior setups" in r.text
    assert "/static/js/stratego_setups.js" in r.text and "/static/css/stratego.css" in r.text
    assert 'id="sj-deck-list"' in r.text and 'id="sj-deck-editor"' in r.text and 'id="sj-new"' in r.text
    for path in ("/decks/battle_runes", "/decks/no_such_game"):
        r = client.get(path)
        assert r.status_code == 404 and "Not found" in r.text, path


def test_lobby_offers_stratego_junior_with_its_levels_and_options(client):
    register(client, "lobbyist2")
    data = page_json(client.get("/lobby").text, "lobby-data")
    games = {g["id"]: g for g in data["games"]}
    sj = games["stratego_junior"]
    assert sj["bot_levels"] == ["random", "casual", "expert"]
    assert sj["options"]["variant"] == "victory" and sj["options"]["memory_aid"] is False
    assert sj["options"]["move_cap"] == 0
    # the form offers the options the game's web parts declare (app/web/games/stratego_junior.py)
    offered = sj["lobby_options"]
    assert offered["variant"]["type"] == "select" and offered["memory_aid"]["type"] == "checkbox"
    assert {v for v, _ in offered["variant"]["choices"]} == {"victory", "quest"}
    assert set(offered) <= set(sj["options"])  # only options the game has


def test_stratego_static_files_are_served(client):
    for path in ("/static/css/stratego.css", "/static/js/games/stratego_junior.js", "/static/js/stratego_setups.js"):
        r = client.get(path)
        assert r.status_code == 200, path
    js = client.get("/static/js/games/stratego_junior.js").text
    for name in ("export function render", "export function describeEvent", "export async function setup"):
        assert name in js


# ---------------------------------------------------------------------------------- per-game web parts


def test_web_parts_are_declared_once_per_game_and_never_import_the_routes():
    """Each app/web/games/<game>.py declares WEB for its own game, with files that exist; none of
    them imports app/web/routes (which imports them)."""
    import pathlib

    from app.settings import ROOT
    from app.web.games import GameWeb, declared_parts, web_parts

    parts = declared_parts()
    assert {"battle_runes", "stratego_junior", "scratch_wars"} <= set(parts)
    for game, web in parts.items():
        assert isinstance(web, GameWeb) and web.game == game
        assert (ROOT / web.module.lstrip("/")).is_file(), web.module
        for css in web.css:
            assert (ROOT / css.lstrip("/")).is_file(), css
        assert (ROOT / "templates" / web.rules_template).is_file()
        if web.deck_editor is not None:
            assert (ROOT / "templates" / web.deck_editor.template).is_file()
    for path in pathlib.Path(ROOT / "app" / "web" / "games").glob("*.py"):
        assert "app.web.routes" not in path.read_text().replace("never ``app.web.routes``", ""), path
    generic = web_parts("no_such_game")
    assert generic.module == "/static/js/games/generic.js" and generic.deck_editor is None


def test_every_registered_game_gets_its_pages(client):
    """Every game of the engine registry has a rules page, a home-page card, a lobby entry and a
    match page loading the ES module its web parts name (the generic one when it names none)."""
    from app.games.core import all_games
    from app.web.games import web_parts

    register(client, "everygame")
    home = client.get("/").text
    lobby = {g["id"]: g for g in page_json(client.get("/lobby").text, "lobby-data")["games"]}
    for game, rules in all_games().items():
        web = web_parts(game)
        r = client.get(f"/games/{game}")
        assert r.status_code == 200, game
        assert rules.title in home and f'href="/games/{game}"' in home
        assert lobby[game]["min_players"] == rules.min_players and lobby[game]["max_players"] == rules.max_players
        created = client.post("/api/matches", json={"game": game, "players": rules.min_players})
        assert created.status_code == 201, created.text
        page = client.get(f"/matches/{created.json()['id']}")
        assert page.status_code == 200
        assert f'data-module="{web.module}"' in page.text
        data = page_json(page.text, "game-data")
        assert data["id"] == game and data["title"] == rules.title
        client.post(f"/api/matches/{created.json()['id']}/cancel")


def test_a_game_without_web_parts_gets_the_generic_pages(client, monkeypatch):
    """A newly registered engine (here a stand-in) gets the generic rules and match pages, and
    shows on the home page and in the lobby, without a module under app/web/games."""
    from app.games.core import registry
    from app.web.games import declared_parts

    class NewGame:
        name = "new_game"
        title = "New Game"
        min_players, max_players = 2, 6
        default_options: ClassVar[dict] = {}
        default_turn_seconds = 60

        def catalog(self) -> dict:
            return {"cards": [{"id": "x"}]}

    registry.all_games()  # load the built-in games first
    monkeypatch.setitem(registry._GAMES, "new_game", registry.GameEntry(NewGame()))
    assert "new_game" not in declared_parts()
    r = client.get("/games/new_game")
    assert r.status_code == 200 and "New Game" in r.text and "coming soon" in r.text
    assert "New Game" in client.get("/").text
    register(client, "newcomer")
    lobby = {g["id"]: g for g in page_json(client.get("/lobby").text, "lobby-data")["games"]}
    assert lobby["new_game"]["max_players"] == 6 and lobby["new_game"]["lobby_options"] == {}
    assert client.get("/decks/new_game").status_code == 404


def test_board_geometry_and_castles_reach_the_stratego_pages(client):
    """The Stratego Junior pages get the board and the castles from the rules (geometry(),
    catalog()), embedded as game-data and in /api/games/stratego_junior; the JS keeps no copy."""
    from app.games.core import get_rules

    rules = get_rules("stratego_junior")
    api = client.get("/api/games/stratego_junior").json()
    assert api["geometry"] == rules.geometry() and api["catalog"] == rules.catalog()
    register(client, "geometer")
    match = client.post("/api/matches", json={"game": "stratego_junior", "options": {"variant": "quest"}}).json()
    for path in (
        f"/matches/{match['id']}",
        f"/matches/{match['id']}/replay",
        "/decks/stratego_junior",
        "/games/stratego_junior",
    ):
        data = page_json(client.get(path).text, "game-data")
        assert data["geometry"] == rules.geometry(), path
        assert data["catalog"] == rules.catalog(), path
        assert data["labels"]["black_knight"] == "Fekete lovag", path  # the original name
    rules_page = client.get("/games/stratego_junior").text
    geometry = rules.geometry()
    assert f"The board has {geometry['columns']} columns" in rules_page
    small = sum(p["count"] for p in rules.catalog()["pieces"] if not p["big"])
    assert f"{small} small castles" in rules_page
    js = client.get("/static/js/games/stratego_junior.js").text + client.get("/static/js/stratego_setups.js").text
    assert "rows: 9" not in js and "count: 4" not in js and "formation_rows: [[" not in js  # no copied board or pieces


def test_battle_runes_faces_come_from_one_place(client):
    """A rune's face is derived once, on the server, from the catalog; the match page gets it in
    game-data and the rules page prints the same; the JS has no table of faces."""
    from app.web.games.battle_runes import rune_face

    assert rune_face("S1P5") == "S1+5" and rune_face("R1PS") == "R1+S" and rune_face("DOUBLE_S") == "×2 S"
    register(client, "facer")
    match = client.post("/api/matches", json={"game": "battle_runes"}).json()
    data = page_json(client.get(f"/matches/{match['id']}").text, "game-data")
    runes = data["catalog"]["runes"]
    assert set(data["labels"]) == {r["id"] for r in runes}
    assert data["labels"]["SWAP_ALL"] == "Total ⇄" and data["labels"]["S2P5"] == "S2+5"
    rules_page = client.get("/games/battle_runes").text
    for rune in runes:
        assert f'<span class="rune-code">{data["labels"][rune["id"]]}</span>' in rules_page
    js = client.get("/static/js/games/battle_runes.js").text
    assert "SWAP_OPP" not in js and "DOUBLE_S:" not in js  # no table of faces


def test_the_lobby_offers_player_counts_seats_and_rated(client):
    register(client, "seater")
    r = client.get("/lobby")
    for element in ('id="create-players"', 'id="create-seat"', 'id="seat-choices"', 'id="create-rated"'):
        assert element in r.text, element
    games = {g["id"]: g for g in page_json(r.text, "lobby-data")["games"]}
    # how a listed match shows its options comes from each game's web parts, not from lobby.js
    assert games["battle_runes"]["option_tags"]["win_score"] == "first to {value}"
    assert games["stratego_junior"]["option_tags"]["variant"]["always"] is True
    js = client.get("/static/js/lobby.js").text
    assert "seat: 1," not in js  # the computer's seat is chosen, not fixed
    assert "win_score" not in js and "memory_aid" not in js  # no per-game tables
    assert "rated = true" in js and 'match.origin === "rated"' in js


def test_pages_render_codes_through_one_table(client):
    """Error codes become words in static/js/messages.js; the pages call errorText/say rather than
    showing the server's `message`."""
    words = client.get("/static/js/messages.js").text
    for code in ("stale_version", "not_your_turn", "illegal_action", "too_many_matches", "name_taken", "weak_password"):
        assert f'"error.{code}"' in words, code
    for path in (
        "lobby.js",
        "auth.js",
        "match_client.js",
        "stratego_setups.js",
        "scratch_wars_loadouts.js",
        "games/stratego_junior.js",
        "games/scratch_wars.js",
    ):
        js = client.get(f"/static/js/{path}").text
        # a drawing failure shows the script's own message (a bug of the page, not an API error)
        assert "err.message" not in js.replace('say("table.draw_failed", { message: err.message })', ""), path


def test_games_lists_every_game_with_its_rules_and_the_header_points_there(client):
    from app.games.core import all_games

    r = client.get("/games")
    assert r.status_code == 200
    for game in all_games():
        assert f'href="/games/{game}"' in r.text
        assert client.get(f"/games/{game}").status_code == 200
    header = client.get("/").text.split("</nav>", 1)[0]  # the site header's navigation
    assert '<a href="/games">Rules</a>' in header and "/games/battle_runes" not in header


def test_every_computer_level_says_what_it_does_in_every_language():
    """Each algorithm a game offers has a plain description (``level.algo.<name>``), in English and
    in every translated catalog, and the server's tooltip is built from it (one source of words for
    the lobby's tooltips and the pages')."""
    from app.games.core import all_games, bot_levels
    from app.i18n.catalogs import english_words, js_catalog
    from app.i18n.jinja import Language
    from app.i18n.locales import LOCALES
    from app.web.pages import level_title

    algorithms = {lv for game in all_games() for lv in bot_levels(game)}
    english = english_words()
    for locale in LOCALES:
        words = english if locale == "en" else js_catalog(locale)
        for lv in algorithms:
            assert words.get(f"level.algo.{lv}"), (locale, lv)
            title = level_title(lv, Language.of(locale))
            assert title.startswith(words[f"level.algo.{lv}"]) and title.endswith(f": {lv})"), (locale, title)
    assert level_title("no_such_algorithm") == "no_such_algorithm"
