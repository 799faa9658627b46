"""Match starts as one player sees them, measured from a process of their own during a load run.

The load tool (``bench/load.py``) times the starts its own slots make, but its client carries the
whole load: with 1,000 sockets on one event loop, every step of a start also waits in the
client's own queue (the ninth session measured a create at 43 ms p50 in its table and 18.7 ms from a
separate process). A player's browser carries one match. This probe is that player: from its own
process, on its own loop, it starts one match every ``--interval`` seconds against the server
under load, one at a time, and times each start's steps:

- ``create``: ``POST /api/matches`` by the first player;
- ``join``: ``POST /api/matches/{id}/join`` by the second;
- ``open``: both seats' websockets opened and their ``hello`` answered with a snapshot.

``start`` is their sum, the same span as the load tool's ``match start``. Each probe match is then
resigned by its first seat and its sockets closed, so it ends as a short match does (no waiting
match is left behind for the cap on open matches). Errors are counted by code; a failed start
is not timed.

Run by ``bench.load`` (``--start-probe``) for the measured window, or alone::

    python -m bench.start_probe --url http://127.0.0.1:8000 --game stratego_junior --seconds 60 --json out.json

It talks only to the loopback (:func:`bench.load.check_loopback`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import time
from collections import Counter
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from bench.load import PASSWORD, check_loopback, run_loop, summarize_ms

#: the steps of a start, in order (``start`` is their sum)
STEPS = ("create", "join", "open")


class ProbeError(Exception):
    """A start that failed: ``code`` is the server's error code, or the probe's own
    (``http_failed``, ``connect_failed``, ``closed``, ``timeout``)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class StartProbe:
    """Two players of their own who start matches against each other, one at a time.

    :param base_url: the server (loopback only), e.g. ``http://127.0.0.1:8000``.
    :param game: the game code.
    :param game_options: the match options besides ``turn_seconds`` (0) and ``spectators``.
    """

    def __init__(self, base_url: str, game: str, game_options: dict[str, Any] | None = None) -> None:
        check_loopback(base_url)
        self.base_url = base_url.rstrip("/")
        self.ws_base = "ws" + self.base_url.removeprefix("http")
        self.game = game
        self.options = {"turn_seconds": 0, "spectators": True, **(game_options or {})}
        self.http = httpx.AsyncClient(
            base_url=self.base_url,
            timeout=httpx.Timeout(60.0),
            cookies=httpx.Cookies(CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))),  # keep no session
        )
        self.tokens: list[str] = []
        self.steps: dict[str, list[float]] = {step: [] for step in (*STEPS, "start")}
        self.errors: Counter[str] = Counter()

    async def _post(self, path: str, token: str | None, body: dict[str, Any] | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else None
        try:
            r = await self.http.post(path, json=body, headers=headers)
        except httpx.HTTPError:
            raise ProbeError("http_failed") from None
        if r.status_code >= 400:
            try:
                code = str(r.json()["error"]["code"])
            except (ValueError, KeyError, TypeError):
                code = f"http_{r.status_code}"
            raise ProbeError(code)
        data: dict[str, Any] = r.json()
        return data

    async def register(self) -> None:
        """Sign up the two players and take a bearer token each.

        :raises ProbeError: a sign-up refused.
        """
        run_id = secrets.token_hex(3)
        for i in range(2):
            name = f"pr{run_id}_{i}"
            await self._post("/api/auth/register", None, {"name": name, "password": PASSWORD})
            token = await self._post("/api/auth/token", None, {"name": name, "password": PASSWORD, "label": "probe"})
            self.tokens.append(str(token["token"]))

    async def _open(self, match_id: int, token: str) -> ClientConnection:
        """A seat's socket, its ``hello`` answered with a snapshot.

        :raises ProbeError: the socket could not be opened, was closed, or answered an error.
        """
        try:
            ws = await connect(
                f"{self.ws_base}/ws/matches/{match_id}",
                additional_headers={"Authorization": f"Bearer {token}"},
                compression="deflate",
                max_size=2**22,
                open_timeout=60,
                close_timeout=5,
                ping_interval=None,
            )
        except (OSError, WebSocketException, TimeoutError):
            raise ProbeError("connect_failed") from None
        try:
            await ws.send('{"type":"hello","since":0}')
            while True:
                frame = orjson.loads(await asyncio.wait_for(ws.recv(), 60))
                if frame.get("type") == "snapshot":
                    return ws
                if frame.get("type") == "error":
                    raise ProbeError(str(frame.get("code")))
        except BaseException as exc:
            await ws.close()
            if isinstance(exc, WebSocketException):
                raise ProbeError("closed") from None
            if isinstance(exc, TimeoutError):
                raise ProbeError("timeout") from None
            raise

    async def start_one(self) -> dict[str, float]:
        """Start one match, time its steps, then end it (the first seat resigns) and close.

        :returns: ``{"create", "join", "open", "start"}`` in seconds.
        :raises ProbeError: a step failed (the match, if any, is left to the server's sweeper).
        """
        a, b = self.tokens
        t0 = time.perf_counter()
        info = await self._post("/api/matches", a, {"game": self.game, "options": self.options})
        t1 = time.perf_counter()
        match_id = int(info["id"])
        await self._post(f"/api/matches/{match_id}/join", b)
        t2 = time.perf_counter()
        opened = await asyncio.gather(self._open(match_id, a), self._open(match_id, b), return_exceptions=True)
        t3 = time.perf_counter()
        sockets = [ws for ws in opened if isinstance(ws, ClientConnection)]
        try:
            for outcome in opened:
                if isinstance(outcome, BaseException):
                    raise outcome
            await sockets[0].send('{"type":"resign"}')
        except WebSocketException:
            raise ProbeError("closed") from None
        finally:
            await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
        return {"create": t1 - t0, "join": t2 - t1, "open": t3 - t2, "start": t3 - t0}

    async def run(self, seconds: float, interval: float) -> dict[str, Any]:
        """Start a match every ``interval`` seconds (or as soon as the last one is done, when it
        took longer) for ``seconds``.

        :returns: the report: ``count``, ``errors`` by code, ``interval_s``, and per step
            (``start``, ``create``, ``join``, ``open``) ``{"count", "p50", "p90", "p99", "max"}``
            in milliseconds.
        """
        end = time.perf_counter() + seconds
        tick = time.perf_counter()
        while tick < end:
            try:
                for step, value in (await self.start_one()).items():
                    self.steps[step].append(value)
            except ProbeError as exc:
                self.errors[exc.code] += 1
            tick += interval
            await asyncio.sleep(max(0.0, tick - time.perf_counter()))
        return {
            "count": len(self.steps["start"]),
            "interval_s": interval,
            "errors": dict(sorted(self.errors.items())),
            **{f"{step}_ms": summarize_ms(values) for step, values in self.steps.items()},
        }

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self.http.aclose()


async def probe(
    base_url: str,
    game: str,
    seconds: float,
    interval: float,
    game_options: dict[str, Any] | None = None,
    wait_go: bool = False,
) -> dict[str, Any]:
    """Register two players and run :meth:`StartProbe.run`; see there for the report.

    :param wait_go: after the sign-ups, print ``ready`` and wait for a line on standard input
        before the first start (how ``bench.load`` lines the probe up with its measured window).
    :raises ProbeError: a sign-up was refused.
    """
    p = StartProbe(base_url, game, game_options)
    try:
        await p.register()
        if wait_go:
            print("ready", flush=True)
            await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        return await p.run(seconds, interval)
    finally:
        await p.aclose()


def main(argv: list[str] | None = None) -> int:
    """Command line: print the report as JSON (or write it to ``--json``). :returns: 0, 1 when the
    sign-ups were refused."""
    ap = argparse.ArgumentParser(prog="python -m bench.start_probe", description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", required=True, help="the server, on the loopback")
    ap.add_argument("--game", default="stratego_junior")
    ap.add_argument("--game-options", default="{}", help="match options as JSON")
    ap.add_argument("--seconds", type=float, default=60.0, help="how long to keep starting matches")
    ap.add_argument("--interval", type=float, default=0.5, help="seconds from one start to the next")
    ap.add_argument("--json", default=None, help="write the report here instead of printing it")
    ap.add_argument("--wait-go", action="store_true", help="print 'ready' after the sign-ups, start on a line of stdin")
    a = ap.parse_args(argv)
    try:
        report = run_loop(probe(a.url, a.game, a.seconds, a.interval, json.loads(a.game_options), a.wait_go))
    except ProbeError as exc:
        print(f"start probe: sign-up refused ({exc.code})", file=sys.stderr)
        return 1
    text = json.dumps(report, indent=1)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
