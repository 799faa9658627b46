"""Battle Runes end to end in Chromium: two people play a whole match from the lobby while a
spectator watches, nobody's frames carry a pick before its reveal, the replay steps through the
match, and a match against the computer is played to the end.

Set ``BROWSER_SCREENSHOTS=/some/dir`` to save screenshots of the pages along the way.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import (
    create_match,
    join_from_lobby,
    pick_three,
    signup,
    unique_name,
    wait_turn_or_result,
    watch,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

MAX_TURNS = 60  # a random game to 40 ends well before this
WIN_SCORE = 40  # the lobby offers the game's win_score option: shorter matches, same rules
SHOTS = os.environ.get("BROWSER_SCREENSHOTS")


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


_PLACES = """(text) => {
  const mark = document.getElementById("opp-state");
  if (!mark || !mark.textContent.includes(text)) return null;
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].map(Math.round); };
  const out = {};
  for (const [what, q] of Object.entries({ runes: ".br-mine .rune", mark: "#opp-state", other: ".br-other", seats: ".seat-card" })) {
    out[what] = [...document.querySelectorAll(q)].map(box);
  }
  return out.runes.length && out.runes.every((r) => r[2] > 0) ? out : null;
}"""


def _places(page, text: str) -> dict[str, list[list[int]]]:
    """Where the player's runes, the opponent's mark in the status line, the opponent's hand and the
    seat cards are in the viewport (x, y, width, height in CSS pixels, rounded), once the mark says
    ``text`` and the runes are drawn (the page may be between two renders)."""
    places: dict[str, list[list[int]]] = page.wait_for_function(_PLACES, arg=text).json_value()
    return places


@pytest.fixture(scope="module")
def played(browser, server) -> Any:
    """Alice creates a match against a person in the lobby, Bob joins it from the lobby, Carol
    watches as a spectator; Alice and Bob pick 3 runes and confirm every turn until the result."""
    rng = random.Random(20240611)
    contexts, pages, watchers = [], {}, {}
    for who in ("alice", "bob", "carol"):
        ctx = browser.new_context(base_url=server.base_url, viewport={"width": 1280, "height": 900})
        ctx.set_default_timeout(15000)
        contexts.append(ctx)
        page = ctx.new_page()
        watchers[who] = watch(page)
        pages[who] = page
        signup(page, unique_name(who))
    a, b, c = pages["alice"], pages["bob"], pages["carol"]

    match_id = create_match(a, turn_seconds=120, options={"win_score": WIN_SCORE})
    expect(a.locator("#waiting-for-players")).to_be_visible()
    seed_hash = a.locator(".seed-info .hash").first.inner_text()
    assert re.fullmatch(r"[0-9a-f]{64}", seed_hash)

    c.goto(f"/matches/{match_id}")
    expect(c.locator("#waiting-for-players")).to_be_visible()
    join_from_lobby(b, match_id)

    turns = 0
    saw_reconnect = False
    for turn in range(1, MAX_TURNS + 1):
        done_a = wait_turn_or_result(a, turn)
        done_b = wait_turn_or_result(b, turn)
        if done_a or done_b:
            break
        turns = turn
        # the spectator sees both hands and cannot pick
        c.wait_for_function(
            "(t) => document.querySelector('.br') && Number(document.querySelector('.br').dataset.turn) >= t - 1",
            arg=turn,
        )
        assert c.locator(".rune.selectable").count() == 0
        assert c.locator("#confirm-pick").count() == 0

        # Bob's runes stay where they are when Alice's choice arrives (at 1,024 px in the first turn,
        # on a phone in the second): a click aimed at one rune must not land on another. The mark
        # "is choosing" → "has chosen ✓" keeps its size (once it wrapped the status line at some
        # widths and moved the hand 30 px down), and so does the opponent's hand with its badge.
        steady = {1: {"width": 1024, "height": 900}, 2: {"width": 390, "height": 844}}.get(turn)
        if steady:
            b.set_viewport_size(steady)
            before = _places(b, "is choosing")
        pick_three(a, rng, then_waits=True, prefer="build", check=turn == 1)
        # Bob and Carol see that Alice has chosen (not what)
        expect(b.locator("#opp-state")).to_contain_text("has chosen")
        if steady:
            assert _places(b, "has chosen") == before, steady
            b.set_viewport_size({"width": 1280, "height": 900})
        expect(c.locator('.who-state.done[data-seat="0"]')).to_be_visible()
        expect(c.locator(".seat-card[data-seat='0'] .seat-status")).to_have_text("has chosen ✓")
        if turn == 1:
            shot(a, "br_waiting_for_opponent")
            shot(c, "br_spectator_midturn")
            # a dropped connection is noticed, shown, and repaired by the client itself
            a.evaluate("window.matchClient.dropConnection()")
            expect(a.locator("#offline-banner")).to_be_visible()
            expect(a.locator("#offline-banner")).to_be_hidden(timeout=10000)
            expect(a.locator("#conn-status")).to_have_text("connected")
            saw_reconnect = True
        pick_three(b, rng, check=turn == 1)
        if turn == 2:
            wait_turn_or_result(a, 3)
            shot(a, "br_player_turn3")
    else:
        pytest.fail(f"no result after {MAX_TURNS} turns")

    for page in (a, b, c):
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#seed-check")).to_contain_text("matches the hash")
    shot(a, "br_result_alice")
    shot(c, "br_result_spectator")
    c.set_viewport_size({"width": 390, "height": 844})
    shot(c, "br_result_phone")

    info = a.request.get(f"/api/matches/{match_id}").json()
    replay = a.request.get(f"/api/matches/{match_id}/replay").json()
    yield {
        "pages": pages,
        "watchers": watchers,
        "match_id": match_id,
        "turns": turns,
        "info": info,
        "replay": replay,
        "seed_hash": seed_hash,
        "saw_reconnect": saw_reconnect,
    }
    for ctx in contexts:
        ctx.close()


def test_two_people_play_a_match_to_the_result(played):
    info = played["info"]
    assert info["status"] == "finished"
    assert info["options"]["win_score"] == WIN_SCORE  # the lobby's option reached the server
    assert played["turns"] >= 1 and played["saw_reconnect"]
    assert info["seed_hash"] == played["seed_hash"]
    results = info["result"]["results"]
    a, b, c = (played["pages"][k] for k in ("alice", "bob", "carol"))
    for page in (a, b, c):
        expect(page.locator("#result")).to_have_attribute("data-results", ",".join(results))
    expected = {
        ("win", "loss"): ("You win!", "You lose."),
        ("loss", "win"): ("You lose.", "You win!"),
        ("win", "win"): ("Both win: you win too!",) * 2,
        ("loss", "loss"): ("Both lose: you lose too.",) * 2,
        ("draw", "draw"): ("A draw.",) * 2,
    }[tuple(results)]
    expect(a.locator(".result-headline")).to_have_text(expected[0])
    expect(b.locator(".result-headline")).to_have_text(expected[1])
    # the last turn's breakdown and the history are on the page
    last_turn = played["turns"]
    expect(a.locator("#last-turn h3")).to_have_text(f"Turn {last_turn} revealed")
    expect(a.locator("#history .history-item")).to_have_count(last_turn)
    expect(a.locator("#last-turn .ball-blue")).to_have_count(2)
    expect(a.locator("#last-turn .ball-black")).to_have_count(2)
    expect(a.locator(".thresholds")).to_contain_text(f"Reach {WIN_SCORE} to win")
    for who in ("alice", "bob", "carol"):
        assert not played["watchers"][who].errors, played["watchers"][who].errors


def _picks_by_turn(replay: dict) -> dict[int, list[list[str]]]:
    picks = {}
    for step in replay["steps"]:
        for ev in step["events"]:
            if ev["kind"] == "turn_resolved":
                picks[ev["turn"]] = [sorted(ev["picks"][0]), sorted(ev["picks"][1])]
    return picks


def early_pick_leaks(snapshots: list[dict], viewer: int | None, picks: dict[int, list[list[str]]]) -> list[str]:
    """Every place where a frame shows another seat's choice before that turn's ``turn_resolved``."""
    others = [s for s in (0, 1) if s != viewer]
    problems: list[str] = []
    resolved_versions: list[int] = []
    for n, frame in enumerate(snapshots):
        entries = frame.get("events") or []
        here = [e["version"] for e in entries if any(ev.get("kind") == "turn_resolved" for ev in e["events"])]
        known = resolved_versions + here
        for e in entries:
            if e["seat"] in others and e.get("action") is not None:
                if e["kind"] == "commit" and frame["status"] != "finished":
                    problems.append(f"frame {n}: commit payload of seat {e['seat']} at v{e['version']}: {e['action']}")
                if not any(v >= e["version"] for v in known):
                    problems.append(f"frame {n}: seat {e['seat']}'s action at v{e['version']} before its reveal")
        resolved_versions += here
        view = frame.get("view")
        if view and frame["status"] == "active":
            current = view["turn"] + 1
            rest = json.dumps({k: v for k, v in view.items() if k != "last"})
            for s in others:
                pick = picks.get(current, [None, None])[s]
                if pick and json.dumps(pick) in rest:
                    problems.append(f"frame {n}: seat {s}'s turn-{current} pick {pick} in the view")
        if "pending" in frame or (view and "pending" in view):
            problems.append(f"frame {n}: a 'pending' field")
    return problems


def test_spectator_frames_never_show_a_pick_before_its_reveal(played):
    snaps = played["watchers"]["carol"].snapshots()
    assert all(s["seat"] is None for s in snaps)
    # the spectator really watched the turns: frames where a seat had chosen and the other not
    assert any(s["status"] == "active" and len(s["chosen"]) == 1 for s in snaps)
    # hidden choices were sent to it as such (a version, a kind, a seat, no action)
    hidden = [e for s in snaps for e in s["events"] if e["seat"] in (0, 1) and e["hidden"]]
    assert hidden and all(e["action"] is None for e in hidden)
    picks = _picks_by_turn(played["replay"])
    assert len(picks) == played["turns"]
    assert early_pick_leaks(snaps, None, picks) == []


def test_players_frames_never_show_the_opponents_pick_before_its_reveal(played):
    picks = _picks_by_turn(played["replay"])
    bob = played["watchers"]["bob"].snapshots()
    alice = played["watchers"]["alice"].snapshots()
    assert all(s["seat"] == 1 for s in bob) and all(s["seat"] == 0 for s in alice)
    assert any(e["seat"] == 0 and e["hidden"] and e["action"] is None for s in bob for e in s["events"])
    assert early_pick_leaks(bob, 1, picks) == []
    assert early_pick_leaks(alice, 0, picks) == []


def test_replay_steps_through_the_finished_match(played):
    page = played["pages"]["alice"]
    page.set_viewport_size({"width": 1280, "height": 900})
    page.locator("#watch-replay").click()
    page.wait_for_url(f"**/matches/{played['match_id']}/replay*")
    steps = len(played["replay"]["steps"])
    pos = page.locator("#replay-pos")
    expect(pos).to_have_text(f"1 / {steps}")
    expect(page.locator("#replay-first")).to_be_disabled()
    expect(page.locator("#step-lines")).to_contain_text("The match starts")
    page.click("#replay-next")
    expect(pos).to_have_text(f"2 / {steps}")
    page.click("#replay-next")
    page.click("#replay-prev")
    expect(pos).to_have_text(f"2 / {steps}")
    page.click("#replay-last")
    expect(pos).to_have_text(f"{steps} / {steps}")
    expect(page.locator("#replay-next")).to_be_disabled()
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#history .history-item")).to_have_count(played["turns"])
    expect(page.locator("#seed-check")).to_contain_text("matches the hash")
    shot(page, "br_replay_last")
    # the step where the first turn is revealed shows its picks
    first_reveal = next(
        i for i, s in enumerate(played["replay"]["steps"]) if any(ev["kind"] == "turn_resolved" for ev in s["events"])
    )
    page.click("#replay-first")
    for _ in range(first_reveal):
        page.click("#replay-next")
    expect(page.locator("#step-lines")).to_contain_text("Turn 1 revealed")
    expect(page.locator("#last-turn h3")).to_have_text("Turn 1 revealed")
    page.keyboard.press("ArrowLeft")
    expect(pos).to_have_text(f"{first_reveal} / {steps}")
    shot(page, "br_replay_step")
    assert not played["watchers"]["alice"].errors


def test_match_against_the_computer_from_the_lobby(new_page):
    page = new_page()
    w = watch(page)
    signup(page, unique_name("dora"))
    page.goto("/lobby")
    page.check('input[name="opponent"][value="computer"]')
    untimed = page.locator('#create-turn option[value="0"]')
    expect(untimed).to_be_disabled()  # the computer needs a clock
    levels = page.locator("#create-level option")
    assert levels.count() >= 1
    match_id = create_match(
        page, computer=levels.first.get_attribute("value"), turn_seconds=30, options={"win_score": WIN_SCORE}
    )
    rng = random.Random(7)
    for turn in range(1, MAX_TURNS + 1):
        if wait_turn_or_result(page, turn):
            break
        if turn == 1:
            # an error frame is shown in the page's words for its code (static/js/messages.js);
            # the server's developer message stays in the tooltip; it can be dismissed; nothing changes
            page.evaluate("window.matchClient.act({runes: ['S1', 'S2', 'NOPE']})")
            expect(page.locator("#error-banner")).to_be_visible()
            expect(page.locator("#error-banner")).to_have_attribute(
                "data-code", re.compile(r"^(bad_message|illegal_action)$")
            )
            expect(page.locator("#error-text")).to_contain_text(re.compile(r"not (understood|allowed)"))
            expect(page.locator("#error-banner")).to_have_attribute("title", re.compile("NOPE"))
            page.click("#error-dismiss")
            expect(page.locator("#error-banner")).to_be_hidden()
        if turn == 2:
            # the reveal's small cards keep their order number below the rune's name, never on it
            overlaps = page.evaluate(
                """() => [...document.querySelectorAll('.br-reveal .rune-small')].flatMap((card) => {
                    const badge = card.querySelector('.rune-order'), name = card.querySelector('.rune-name');
                    if (!badge || !name) return [];
                    const b = badge.getBoundingClientRect(), n = name.getBoundingClientRect();
                    return b.top < n.bottom - 1 && b.left < n.right - 1 ? [card.dataset.rune] : [];
                })"""
            )
            assert overlaps == [], overlaps
        pick_three(page, rng, prefer="build", check=turn == 1)
        if turn == 1:
            shot(page, "br_vs_computer")
    else:
        pytest.fail(f"no result after {MAX_TURNS} turns")
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator(".seat-card[data-seat='1'] .seat-name")).to_contain_text("Computer")
    info = page.request.get(f"/api/matches/{match_id}").json()
    assert info["status"] == "finished"
    assert info["seats"][1]["bot"]
    assert not w.errors, w.errors
    # the finished match is listed in the lobby with a replay link
    page.goto("/lobby")
    expect(page.locator(f'#my-finished li[data-match-id="{match_id}"] a:has-text("Replay")')).to_be_visible()


def test_the_steps_table_says_when_a_cross_term_applies(new_page):
    """The "+own R" part of S1+r (and "+own S" of R1+s) is applied after orders 1 and 2 (the
    spec's step 4), so its row comes after the destruction rows: its order cell says so instead of
    the rune's printed 1, which read as out of order."""
    page = new_page()
    page.goto("/")
    cells = page.evaluate(
        """async () => {
            const m = await import('/static/js/games/battle_runes.js');
            const cross = m.orderCell({rune: 'S1PR', seat: 0, order: 1, code: 'cross', params: {source: 'R'}});
            const plain = m.orderCell({rune: 'S1PR', seat: 0, order: 1, code: 'add', params: {}});
            return [cross.textContent, cross.title, plain.textContent];
        }"""
    )
    assert cells[0] == "after 2"
    assert "own R" in cells[1] and "(2)" in cells[1]
    assert cells[2] == "1"
