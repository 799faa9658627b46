"""Two people at one table, driven through the HTTP API to a chosen phase of a game, for the
browser tests of every phase (issue 16): resigning in each, reloading in each choice phase.

Both seats are people (each its own browser context and session cookie), so no computer move is
ever waited for: every ``act`` of a seat is applied by the server, chance included, before it
answers. The pages are opened only once the phase is reached.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Browser, BrowserContext

from tests.browser.helpers import PASSWORD, unique_name

Snapshot = dict[str, Any]
#: ``goal(snapshot)``: whether the seat this snapshot was made for is where the test wants it
Goal = Callable[[Snapshot], bool]


@dataclass
class Table:
    """A running match between two people: ``contexts[seat]`` holds ``names[seat]``'s session."""

    match_id: int
    names: list[str]
    contexts: list[BrowserContext]

    def snapshot(self, seat: int) -> Snapshot:
        """The snapshot the websocket would send ``seat`` now (``GET .../snapshot``)."""
        r = self.contexts[seat].request.get(f"/api/matches/{self.match_id}/snapshot")
        assert r.ok, r.text()
        snap: Snapshot = r.json()
        return snap

    def act(self, seat: int, action: Any, version: int) -> None:
        """Send ``action`` for ``seat`` at ``version`` (``POST .../act``); a refusal fails the test."""
        r = self.contexts[seat].request.post(
            f"/api/matches/{self.match_id}/act", data={"action": action, "version": version}
        )
        assert r.ok, r.text()

    def drive(self, goal: Goal, prefer: tuple[str, ...] = (), limit: int = 600, seed: int = 0) -> Snapshot | None:
        """Play both seats (a random legal action, those whose kind comes first in ``prefer``
        first) until ``goal`` holds for one seat's snapshot.

        :returns: that snapshot (its ``seat`` is the seat in question), or ``None`` when the match
            ended first or ``limit`` actions did not get there.
        """
        rng = random.Random(seed)
        for _ in range(limit):
            snaps = [self.snapshot(seat) for seat in range(len(self.contexts))]
            if snaps[0]["status"] != "active":
                return None
            for snap in snaps:
                if goal(snap):
                    return snap
            actor = next(s for s in snaps[0]["to_act"] if s not in snaps[0]["chosen"])
            legal = snaps[actor]["legal"]
            self.act(actor, choose(legal, prefer, rng), snaps[actor]["version"])
        return None


def kind_of(action: Any) -> str:
    """An action's kind: the key of a one-key object (``{"target": 3}`` -> ``"target"``)."""
    return next(iter(action)) if isinstance(action, dict) and action else str(action)


def choose(legal: list[Any], prefer: tuple[str, ...], rng: random.Random) -> Any:
    """A random one of ``legal``, among those of the first kind in ``prefer`` that has any."""
    for kind in prefer:
        some = [a for a in legal if kind_of(a) == kind]
        if some:
            return rng.choice(some)
    return rng.choice(legal)


def person(browser: Browser, base_url: str, prefix: str) -> tuple[str, BrowserContext]:
    """A browser context with a new account logged in (signed up through the API)."""
    ctx = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(30000)
    name = unique_name(prefix)
    r = ctx.request.post("/api/auth/register", data={"name": name, "password": PASSWORD})
    assert r.status == 201, r.text()
    return name, ctx


def sit_down(people: list[tuple[str, BrowserContext]], game: str, options: dict[str, Any]) -> Table:
    """``people[0]`` creates a match of ``game`` (long turns), ``people[1]`` joins: it runs."""
    (a, a_ctx), (b, b_ctx) = people
    r = a_ctx.request.post("/api/matches", data={"game": game, "options": {**options, "turn_seconds": 600}})
    assert r.status == 201, r.text()
    match_id = int(r.json()["id"])
    r = b_ctx.request.post(f"/api/matches/{match_id}/join", data={})
    assert r.ok and r.json()["status"] == "active", r.text()
    return Table(match_id, [a, b], [a_ctx, b_ctx])


def my_turn(phase: str) -> Goal:
    """The goal "this seat must choose in ``phase``" (``view.phase``)."""
    return lambda snap: bool(snap["legal"]) and snap["view"]["phase"] == phase
