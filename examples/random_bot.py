#!/usr/bin/env python3
"""A small Tabletop Arena bot: it plays random legal actions through the public API.

It uses only the documented protocol (docs/bots.md, the OpenAPI document at /docs) and two public
libraries, httpx and websockets::

    pip install httpx websockets
    export ARENA_TOKEN=...           # POST /api/auth/token {"name", "password", "label"}
    python random_bot.py --server http://127.0.0.1:8000 --challenger alice       # accept alice's challenges
    python random_bot.py --server http://127.0.0.1:8000 --computer greedy        # play the server's computer

What it does:

1. ``GET /api/users/me`` with ``Authorization: Bearer <token>``: who the bot is.
2. Finds a match: with ``--computer LEVEL`` it creates one against the server's own computer
   player (``POST /api/matches`` with ``computer: [{"seat": 1, "level": LEVEL}]``); otherwise it
   looks in the lobby (``GET /api/matches?status=waiting&game=...``) for a match that
   ``--challenger`` created (anybody's, without the option) and joins it
   (``POST /api/matches/{id}/join``). A match it already sits in is resumed first.
3. Plays it over the websocket ``/ws/matches/{id}``: ``hello``, then on every ``snapshot`` in
   which its seat must act (and has not chosen yet) it sends ``act`` with a random action of
   ``legal`` and the snapshot's ``version``. An ``error`` frame (a ``stale_version`` after the
   other seat moved, say) is answered with a new ``hello``: the next snapshot is current.
   With ``--transport sse`` it reads the same snapshots as server-sent events
   (``GET /api/matches/{id}/stream``) and acts over HTTP (``POST /api/matches/{id}/act``).
4. Stops when the snapshot's ``status`` is ``finished`` (or ``aborted``) and prints the result
   as one JSON line; ``--matches N`` plays N matches.

Exit status: 0 when every match was played to its end, 1 on an error the server sent over HTTP.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
from typing import Any

import httpx
from websockets.asyncio.client import connect

#: statuses of a match that is over
OVER = ("finished", "aborted")


class ApiError(Exception):
    """An HTTP error answer: ``{"error": {"code", "message", "params"}}``."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        error = body.get("error", {})
        self.status, self.code, self.params = status, error.get("code"), error.get("params", {})
        super().__init__(f"{status} {self.code}: {error.get('message')}")


class Arena:
    """The JSON API with a bearer token.

    :param server: ``http://host:port`` of the server.
    :param token: an API token (``POST /api/auth/token``).
    """

    def __init__(self, server: str, token: str) -> None:
        self.server = server.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}"}
        self.http = httpx.AsyncClient(base_url=self.server, headers=self.headers, timeout=30)

    async def call(self, method: str, path: str, **kwargs: Any) -> Any:
        """One request; waits and retries on 429/503 (``Retry-After``), raises :class:`ApiError`
        on any other error."""
        while True:
            r = await self.http.request(method, path, **kwargs)
            if r.status_code in (429, 503) and "retry-after" in r.headers:
                await asyncio.sleep(float(r.headers["retry-after"]))
                continue
            if r.status_code >= 400:
                raise ApiError(r.status_code, r.json())
            return r.json() if r.content else None

    def ws_url(self, match_id: int) -> str:
        """The websocket address of a match."""
        return self.server.replace("http", "ws", 1) + f"/ws/matches/{match_id}"


async def find_match(arena: Arena, me: dict[str, Any], args: argparse.Namespace) -> int:
    """The id of the next match to play (see the module docstring, step 2)."""
    mine = await arena.call("GET", "/api/matches", params={"status": "active", "game": args.game, "mine": "true"})
    if mine["matches"]:
        return int(mine["matches"][0]["id"])
    if args.computer:
        body = {"game": args.game, "computer": [{"seat": 1, "level": args.computer}], "options": {"rated": False}}
        return int((await arena.call("POST", "/api/matches", json=body))["id"])
    while True:
        waiting = await arena.call("GET", "/api/matches", params={"status": "waiting", "game": args.game})
        for m in waiting["matches"]:
            creator = next((s["user"] for s in m["seats"] if s["user"] and s["user"]["id"] == m["created_by"]), None)
            if creator is None or creator["id"] == me["id"]:
                continue
            if args.challenger and creator["name"].lower() != args.challenger.lower():
                continue
            try:
                await arena.call("POST", f"/api/matches/{m['id']}/join")
            except ApiError as exc:  # somebody else was quicker, or it was cancelled meanwhile
                if exc.code in ("match_full", "not_waiting", "not_found"):
                    continue
                raise
            return int(m["id"])
        await asyncio.sleep(args.poll)


async def play(arena: Arena, match_id: int, rng: random.Random) -> dict[str, Any]:
    """Play match ``match_id`` to its end over the websocket; the last snapshot."""
    async with connect(arena.ws_url(match_id), additional_headers=arena.headers) as ws:
        await ws.send(json.dumps({"type": "hello", "since": 0}))
        acted_at = -1  # the version we last acted at: one act per version
        count = 0
        async for text in ws:
            frame = json.loads(text)
            if frame["type"] == "error":  # e.g. stale_version: ask for the current snapshot
                await ws.send(json.dumps({"type": "hello", "since": 0}))
                continue
            if frame["type"] != "snapshot":
                continue
            if frame["status"] in OVER:
                return frame
            seat = frame["seat"]
            must_act = seat in frame["to_act"] and seat not in frame["chosen"] and frame["legal"]
            if must_act and frame["version"] != acted_at:
                acted_at = frame["version"]
                count += 1
                action = rng.choice(frame["legal"])
                await ws.send(
                    json.dumps({"type": "act", "action": action, "version": frame["version"], "ack": str(count)})
                )
    raise ConnectionError(f"the server closed the websocket of match {match_id} before its end")


async def play_sse(arena: Arena, match_id: int, rng: random.Random) -> dict[str, Any]:
    """Play match ``match_id`` without a websocket: snapshots from the server-sent events of
    ``GET /api/matches/{id}/stream``, actions through ``POST /api/matches/{id}/act``."""
    acted_at = -1
    async with arena.http.stream("GET", f"/api/matches/{match_id}/stream", timeout=None) as stream:
        if stream.status_code >= 400:
            raise ApiError(stream.status_code, json.loads(await stream.aread()))
        kind = None
        async for line in stream.aiter_lines():
            if line.startswith("event: "):
                kind = line[len("event: ") :]
            elif line.startswith("data: ") and kind == "snapshot":
                frame = json.loads(line[len("data: ") :])
                if frame["status"] in OVER:
                    return frame
                seat = frame["seat"]
                must_act = seat in frame["to_act"] and seat not in frame["chosen"] and frame["legal"]
                if must_act and frame["version"] != acted_at:
                    acted_at = frame["version"]
                    body = {"action": rng.choice(frame["legal"]), "version": frame["version"]}
                    try:
                        await arena.call("POST", f"/api/matches/{match_id}/act", json=body)
                    except ApiError as exc:  # the match moved on: the next snapshot is current
                        if exc.code not in ("stale_version", "not_your_turn"):
                            raise
    raise ConnectionError(f"the server ended the stream of match {match_id} before its end")


async def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and play; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", default=os.environ.get("ARENA_TOKEN"), help="default: $ARENA_TOKEN")
    parser.add_argument("--game", default="battle_runes")
    parser.add_argument("--challenger", help="accept only matches this player created")
    parser.add_argument("--computer", metavar="LEVEL", help="play the server's computer at LEVEL instead")
    parser.add_argument("--matches", type=int, default=1, help="how many matches to play")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between looks at the lobby")
    parser.add_argument("--seed", type=int, help="seed of the random choices")
    parser.add_argument(
        "--transport", choices=("websocket", "sse"), default="websocket", help="sse: server-sent events and HTTP acts"
    )
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("give --token or set ARENA_TOKEN")
    arena = Arena(args.server, args.token)
    rng = random.Random(args.seed)
    try:
        me = await arena.call("GET", "/api/users/me")
        for _ in range(args.matches):
            match_id = await find_match(arena, me, args)
            last = await (play_sse if args.transport == "sse" else play)(arena, match_id, rng)
            print(
                json.dumps(
                    {"match": match_id, "seat": last["seat"], "status": last["status"], "result": last["result"]}
                )
            )
    except ApiError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        await arena.http.aclose()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
