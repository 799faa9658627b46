"""``make loadtest`` / ``python -m bench.load``: keep N matches running over the public protocol and
measure the server.

One asyncio process plays every seat: it registers a pool of players over HTTP (``POST
/api/auth/register``, then ``POST /api/auth/token`` for a bearer token), and keeps ``--matches``
matches of ``--game`` running: ``POST /api/matches`` (untimed: ``turn_seconds`` 0, no computer
seats), ``POST /api/matches/{id}/join``, then each seat opens ``/ws/matches/{id}`` with
``Authorization: Bearer <token>``, sends ``hello``, and whenever a snapshot lists ``legal``
actions for it, waits a think time (exponential, mean ``--think`` seconds; 0: at once) and sends
``act`` with a random legal action, the snapshot's ``version`` and an ``ack``. A finished match is
replaced by a new one, so N keep running. Only the loopback is targeted.

    python -m bench.load --game battle_runes --matches 20 --think 0 --seconds 20
    python -m bench.load --url http://127.0.0.1:8000 --server-pid 1234,1240 --matches 200 --think 1
    python -m bench.load --prototype /work/shared/perf-lab      # the bare prototype too, side by side

Without ``--url`` it starts ``uvicorn --factory app.main:create_app`` (as ``make run`` does) on a
free port, on ``--database`` (default: PostgreSQL ``arena_load`` on 127.0.0.1, dropped, created
and migrated with ``alembic upgrade head`` as ``make migrate`` and ``tests/servers.py`` do; a
SQLite URL works too) and ``--redis`` when given (else ``REDIS_URL`` is unset). That server gets
these limits raised (:data:`LOAD_LIMITS`), because one client address drives every socket and
every account of the run, which is exactly what they exist to refuse:

- ``REGISTER_RATE_LIMIT``, ``LOGIN_RATE_LIMIT``: the pool signs up (and asks a token, which counts
  as a login attempt) from one address, hundreds of times in a few seconds;
- ``WS_RATE_LIMIT``, ``WS_USER_RATE_LIMIT``, ``WS_ADDRESS_RATE_LIMIT``: with think 0 a socket, a
  user (several matches at once) and the address send far more frames than a person does;
- ``WS_MAX_SOCKETS_PER_USER``, ``WS_MAX_SOCKETS_PER_ADDRESS``: a user holds one socket per match
  it plays in, and the address holds them all;
- ``MAX_OPEN_MATCHES``: a creator's matches wait for the join a moment, several at once;
- ``MAX_TOKENS_PER_USER``: one token per user per run, raised so a re-used database never refuses.

Everything else (bots, clocks, frame size, sessions) stays as the server would run it.

Reported (printed as a table, ``--json FILE`` writes the same as JSON): acked acts per second over
the measured window (after the ramp, every first match started, and ``--warmup`` seconds), the
act-to-snapshot latency (``act`` sent -> the snapshot carrying its ``ack`` received), the match
start latency (create + join + both ``hello`` answered with a snapshot; this client's own starts,
whose steps also wait in its own busy loop, and, with ``--start-probe SECONDS`` (0.5 unless 0),
those of ``bench/start_probe.py``: a process of its own that starts a match that often over the
window and times it, as a player's browser with one match would see it), errors by ``code``
(``error`` frames, HTTP errors, and the client's own: ``http_failed``, ``connect_failed``,
``connection_closed`` (before the first snapshot), ``reconnect_failed``, ``event_gap``,
``event_ahead``, ``timeout``, ``stalled``, ``no_legal_actions``, ``ramp_timeout``), sockets the
server closed (by close code), open sockets, and the server's resident memory (``VmRSS`` of the server process and its children, or
of ``--server-pid`` and theirs) before the first match (once the bot workers' memory has settled)
and at the end of the window, with sockets still open; ``(end - before) / sockets`` is an upper
bound of the memory a socket costs (whatever else grew is in it too; the table also gives it for
the socket-holding processes alone). CPU of the server, of this client and of the whole machine
over the window is reported too: on a shared machine, others' work shows in the last.

Scale-out (``--processes N``, ``--proxy``): N uvicorn processes, each on its own loopback port,
on the same database (migrated once before they start), with ``REDIS_URL`` (``--redis``, default
``redis://127.0.0.1:6379/0`` when N > 1: the hub between processes), behind nginx (``--proxy``,
implied when N > 1): its configuration is ``deploy/nginx.conf`` (websocket upgrade,
``X-Forwarded-For`` set to ``$remote_addr``, ``Host $http_host``, long read timeout, keepalive
upstream) with the N ports as the upstream and a free loopback port to listen on, inside an
``http`` block like the nginx image's (access log, ``sendfile``, ``keepalive_timeout 65``) with
``worker_processes 1`` and every path (pid, logs, temp) in a temporary folder; the servers get
``TRUSTED_PROXIES=127.0.0.1``. nginx runs in the foreground (``nginx -p DIR -c DIR/nginx.conf -g
'daemon off;'``; ``apt-get install -y nginx`` if it is missing), and the load goes through it.
nginx and every server are stopped at the end, also on errors, Ctrl-C and SIGTERM.

    python -m bench.load --processes 2 --matches 20 --think 0 --seconds 20     # 2 processes, nginx
    python -m bench.load --proxy --matches 20                                  # 1 process behind nginx
    python -m bench.load --processes 2 --reconnect-check --matches 20          # kill one midway

The table then has a line per process (resident memory before / end, CPU over the window, sockets
established on its port at the end) and the CPU split of the window: the servers (and their bot
workers), nginx, this client, PostgreSQL (every ``postgres`` process, and the backends that exited
in the window through the postmaster's reaped-children time), Redis, the rest, and the machine.

A seat whose socket the server closes (uvicorn's graceful shutdown closes with 1012, or 1001)
reconnects: a new socket, ``hello`` with ``since`` the last version it saw, and plays on (a new
socket closed with 1001 or 1012 before its first snapshot is opened again the same way). Closes are
counted by close code, reconnects and their latency too; the events each snapshot carries must
continue the versions the seat saw up to the snapshot's own (else ``event_gap``, or ``event_ahead``
for an event newer than the snapshot), and an act in flight when the socket closed is found applied
or not in the events replayed after reconnecting (not applied: never acked, so the seat simply
chooses again). ``--reconnect-check`` (N >= 2) sends SIGTERM to the last server process
halfway through the window and reports acks before and after, per second, the reconnects, and the
errors that came after the kill.

With ``--prototype PATH`` the bare prototype of ``/work/shared/perf-lab`` runs after ours, in the
same invocation, with the same matches, seconds and think time (its node client ``load.mjs``;
``npm ci`` in a temporary copy), and its ``actions/s``, ``p50``, ``p99`` are printed beside ours.
Nothing of it is copied into this repository.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import ipaddress
import itertools
import json
import os
import random
import re
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from collections.abc import Coroutine
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from app.runtime import watch_loop

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATABASE = "postgresql+asyncpg://postgres@127.0.0.1:5432/arena_load"
DEFAULT_PROTOTYPE_DB = "postgresql://postgres@127.0.0.1/lab"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
#: the production proxy configuration the one started here is made from
NGINX_SITE = ROOT / "deploy" / "nginx.conf"
PASSWORD = "load-test-password-1"

#: environment overrides for a server under load (see the module docstring for why each)
LOAD_LIMITS: dict[str, str] = {
    "REGISTER_RATE_LIMIT": "1000000/minute",
    "LOGIN_RATE_LIMIT": "1000000/minute",
    "WS_RATE_LIMIT": "1000000/second",
    "WS_USER_RATE_LIMIT": "1000000/second",
    "WS_ADDRESS_RATE_LIMIT": "1000000/second",
    "WS_MAX_SOCKETS_PER_USER": "1000000",
    "WS_MAX_SOCKETS_PER_ADDRESS": "1000000",
    "MAX_OPEN_MATCHES": "1000000",
    "MAX_TOKENS_PER_USER": "1000000",
}

#: the statuses after which a match is over
TERMINAL = frozenset({"finished", "aborted"})


class LoadError(Exception):
    """A step of the run failed with ``code`` (an error code of the server, ``http_<status>``, or
    one of the client's own: ``connect_failed``, ``connection_closed``, ``timeout``)."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code


# ----------------------------------------------------------------------------------------- options


@dataclass
class Options:
    """What to run. Durations in seconds; ``url`` None: start a server on ``database``."""

    game: str = "battle_runes"
    matches: int = 20
    think: float = 0.0
    seconds: float = 20.0
    warmup: float = 3.0
    users: int | None = None
    game_options: dict[str, Any] = field(default_factory=dict)
    url: str | None = None
    server_pids: list[int] = field(default_factory=list)
    server_log: Path | None = None
    database: str = DEFAULT_DATABASE
    reset_database: bool = True
    redis: str | None = None
    processes: int = 1
    proxy: bool = False
    reconnect_check: bool = False
    register_concurrency: int = 8
    connect_concurrency: int = 50
    compression: bool = True
    ramp_timeout: float = 300.0
    stall_timeout: float | None = None
    min_actions: int = 0
    max_seconds: float | None = None
    json_path: Path | None = None
    prototype: Path | None = None
    prototype_db: str = DEFAULT_PROTOTYPE_DB
    seed: int | None = None
    quiet: bool = False
    #: seconds between the starts of ``bench/start_probe.py`` over the window; 0: no probe
    start_probe: float = 0.5

    @property
    def pool_size(self) -> int:
        """Players to register: ``users``, else ``min(matches * 2, 200)`` (at least 2)."""
        return max(2, self.users if self.users else min(self.matches * 2, 200))


def parse_args(argv: list[str] | None = None) -> Options:
    """Options from the command line (``python -m bench.load --help``).

    :raises SystemExit: bad arguments (argparse prints why).
    """
    p = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="battle_runes", help="battle_runes, stratego_junior, scratch_wars, ...")
    p.add_argument(
        "--game-options", default="{}", help='the game\'s own options as JSON, e.g. \'{"variant": "victory"}\''
    )
    p.add_argument("--matches", type=int, default=20, help="matches kept running (2 sockets each)")
    p.add_argument("--think", type=float, default=0.0, help="mean think time in seconds (exponential); 0: at once")
    p.add_argument("--seconds", type=float, default=20.0, help="measured window")
    p.add_argument("--warmup", type=float, default=3.0, help="seconds after the ramp that are not measured")
    p.add_argument("--users", type=int, default=None, help="players to register (default min(matches*2, 200))")
    p.add_argument("--url", default=None, help="drive a server already running at http://127.0.0.1:PORT")
    p.add_argument("--server-pid", default="", help="with --url: the server's process ids, comma-separated (memory)")
    p.add_argument("--server-log", type=Path, default=None, help="the server's log (kept when started here)")
    p.add_argument("--database", default=DEFAULT_DATABASE, help="DATABASE_URL of the server started here")
    p.add_argument("--no-reset", action="store_true", help="migrate --database as it is instead of recreating it")
    p.add_argument(
        "--redis",
        default=None,
        help=f"REDIS_URL of the servers started here (default: none; {DEFAULT_REDIS} when N > 1)",
    )
    p.add_argument("--processes", type=int, default=1, help="server processes to start (N > 1: behind nginx)")
    p.add_argument("--proxy", action="store_true", help="put nginx in front of the server(s) started here")
    p.add_argument(
        "--reconnect-check", action="store_true", help="SIGTERM the last server process halfway through the window"
    )
    p.add_argument("--register-concurrency", type=int, default=8, help="sign-ups in flight (Argon2 is slow)")
    p.add_argument("--connect-concurrency", type=int, default=50, help="matches being created/connected at once")
    p.add_argument("--no-compression", action="store_true", help="no permessage-deflate on the sockets")
    p.add_argument(
        "--ramp-timeout", type=float, default=300.0, help="seconds for the first N matches (then measured anyway)"
    )
    p.add_argument("--stall-timeout", type=float, default=None, help="a match silent this long is replaced")
    p.add_argument("--min-actions", type=int, default=0, help="extend the window until this many acks")
    p.add_argument("--max-seconds", type=float, default=None, help="cap of the extended window")
    p.add_argument("--json", dest="json_path", type=Path, default=None, help="write the report here too")
    p.add_argument("--prototype", type=Path, default=None, help="also run the perf-lab prototype from this folder")
    p.add_argument("--prototype-db", default=DEFAULT_PROTOTYPE_DB, help="LAB_DB of the prototype")
    p.add_argument("--seed", type=int, default=None, help="seed of the client's random choices")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument(
        "--start-probe",
        type=float,
        default=0.5,
        metavar="SECONDS",
        help="over the window, a process of its own starts a match this often and times it (0: off)",
    )
    a = p.parse_args(argv)
    try:
        game_options = json.loads(a.game_options)
    except ValueError:
        p.error("--game-options must be JSON")
    if not isinstance(game_options, dict):
        p.error("--game-options must be a JSON object")
    if a.matches < 1 or a.seconds <= 0 or a.think < 0 or a.warmup < 0:
        p.error("--matches >= 1, --seconds > 0, --think >= 0 and --warmup >= 0, please")
    try:
        pids = [int(x) for x in a.server_pid.split(",") if x.strip()]
    except ValueError:
        p.error("--server-pid takes process ids separated by commas")
    if a.processes < 1:
        p.error("--processes >= 1, please")
    if a.url and (a.processes > 1 or a.proxy):
        p.error("--processes and --proxy start servers here: not with --url")
    if a.reconnect_check and (len(pids) < 2 if a.url else a.processes < 2):
        p.error("--reconnect-check needs 2 server processes or more (--processes, or --server-pid with --url)")
    redis = a.redis or (DEFAULT_REDIS if a.processes > 1 else None)
    options = Options(
        game=a.game,
        matches=a.matches,
        think=a.think,
        seconds=a.seconds,
        warmup=a.warmup,
        users=a.users,
        game_options=game_options,
        url=a.url,
        server_pids=pids,
        server_log=a.server_log,
        database=a.database,
        reset_database=not a.no_reset,
        redis=redis,
        processes=a.processes,
        proxy=a.proxy or a.processes > 1,
        reconnect_check=a.reconnect_check,
        register_concurrency=a.register_concurrency,
        connect_concurrency=a.connect_concurrency,
        compression=not a.no_compression,
        ramp_timeout=a.ramp_timeout,
        stall_timeout=a.stall_timeout,
        min_actions=a.min_actions,
        max_seconds=a.max_seconds,
        json_path=a.json_path,
        prototype=a.prototype,
        prototype_db=a.prototype_db,
        seed=a.seed,
        quiet=a.quiet,
        start_probe=max(0.0, a.start_probe),
    )
    try:
        if options.url:
            check_loopback(options.url)
        if options.redis:
            check_loopback(options.redis)
    except ValueError as exc:
        p.error(str(exc))
    return options


def check_loopback(url: str) -> str:
    """The host of ``url`` when it is the loopback (``127.0.0.0/8``, ``::1``, ``localhost``).

    :raises ValueError: any other host: this tool loads only a server on this machine.
    """
    host = urllib.parse.urlsplit(url).hostname or ""
    if host == "localhost":
        return host
    try:
        if ipaddress.ip_address(host).is_loopback:
            return host
    except ValueError:
        pass
    raise ValueError(f"refusing to load {host or url!r}: only the loopback (127.0.0.1, ::1, localhost) is targeted")


# ------------------------------------------------------------------------------------ measurements


def percentile(sorted_values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ascending ``sorted_values`` by nearest rank (``values[floor(n q)]``,
    as the prototype's node client does); NaN for no values."""
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * q))]


def summarize_ms(seconds: list[float], quantiles: tuple[float, ...] = (0.5, 0.9, 0.99)) -> dict[str, float | int]:
    """``{"count", "p50", "p90", "p99", "max"}`` in milliseconds from durations in seconds (only
    ``count`` when there are none)."""
    values = sorted(seconds)
    out: dict[str, float | int] = {"count": len(values)}
    if values:
        for q in quantiles:
            out[f"p{round(q * 100)}"] = round(percentile(values, q) * 1000, 2)
        out["max"] = round(values[-1] * 1000, 2)
    return out


def process_tree(pids: list[int]) -> list[int]:
    """``pids`` and all their living descendants (from ``/proc/*/stat``), without repeats."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    seen: list[int] = []
    todo = list(pids)
    while todo:
        pid = todo.pop()
        if pid in seen or not Path(f"/proc/{pid}").exists():
            continue
        seen.append(pid)
        todo.extend(children.get(pid, []))
    return seen


def rss_kib(pids: list[int]) -> int | None:
    """Sum of ``VmRSS`` (KiB) over ``pids`` and their descendants; None when none is readable."""
    values = [kib for kib in (rss_kib_one(pid) for pid in process_tree(pids)) if kib is not None]
    return sum(values) if values else None


def rss_kib_listed(pids: list[int]) -> int | None:
    """Sum of ``VmRSS`` (KiB) over ``pids`` alone (the processes that hold the sockets; no bot
    workers); None when none is readable."""
    values = [kib for kib in (rss_kib_one(pid) for pid in pids) if kib is not None]
    return sum(values) if values else None


async def settled_rss(pids: list[int], timeout: float = 30.0, step: float = 1.0) -> int | None:
    """:func:`rss_kib` once it has stopped moving (two samples ``step`` s apart within 1 MiB; the
    bot workers import the games in the background after start), or after ``timeout`` s."""
    last = rss_kib(pids)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        await asyncio.sleep(step)
        now = rss_kib(pids)
        if now is None or last is None or abs(now - last) < 1024:
            return now
        last = now
    return last


def rss_by_process(pids: list[int]) -> dict[str, int]:
    """``{"<pid> <command>": VmRSS in KiB}`` for ``pids`` and their descendants (to see which grew)."""
    out: dict[str, int] = {}
    for pid in process_tree(pids):
        kib = rss_kib_one(pid)
        if kib is None:
            continue
        try:
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            argv = []
        command = " ".join(a.decode(errors="replace") for a in argv[:4] if a)[:80]
        out[f"{pid} {command}"] = kib
    return out


def rss_kib_one(pid: int) -> int | None:
    """``VmRSS`` of one process in KiB (None when it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by ``pids`` and their living descendants."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in process_tree(pids):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks  # utime, stime (fields 14 and 15)
    return total


def machine_busy_seconds() -> float:
    """CPU seconds every core of the machine has been busy (not idle, not waiting for I/O), from
    ``/proc/stat``."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:9]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def command_cpu_seconds(command: str) -> float:
    """CPU seconds (user + system) used so far by every process whose command (``comm`` in
    ``/proc/PID/stat``) is ``command``, plus what their exited children used once reaped
    (``cutime``, ``cstime``): PostgreSQL's postmaster collects the time of a backend that exits, so
    the difference of two calls counts the backends that came and went in between too."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        head, tail = stat.rsplit(")", 1)
        if head.split("(", 1)[1] != command:
            continue
        fields = tail.split()
        total += sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime (fields 14 to 17)
    return total / ticks


def established_by_port(ports: list[int]) -> dict[int, int]:
    """``{port: TCP connections established on it}`` for local ``ports`` (``/proc/net/tcp`` and
    ``tcp6``): on a server's port, the sockets it holds (websockets and HTTP, from the proxy or this
    client); on the proxy's, those nginx holds for this client."""
    counts = dict.fromkeys(ports, 0)
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 3 and fields[3] == "01":  # ESTABLISHED
                port = int(fields[1].rsplit(":", 1)[1], 16)
                if port in counts:
                    counts[port] += 1
    return counts


def raise_open_files(sockets: int) -> int:
    """Raise the soft ``RLIMIT_NOFILE`` towards what ``sockets`` sockets need (a started server
    inherits it). :returns: the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = sockets * 2 + 512  # both ends when the server runs here, plus files, HTTP, the database
    if want > soft:
        new = want if hard == resource.RLIM_INFINITY else min(want, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# ------------------------------------------------------------------------------------ the server


def free_port() -> int:
    """A TCP port nobody listens on right now (on 127.0.0.1)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _database_name(url: str) -> str:
    return urllib.parse.urlsplit(url).path.lstrip("/")


async def prepare_database(url: str, reset: bool) -> None:
    """Make ``url`` an empty, migrated database: PostgreSQL is dropped and created again (only on
    the loopback, and only a database whose name contains ``load``), a SQLite file is deleted;
    then ``alembic upgrade head`` runs on it. With ``reset`` False it is only migrated.

    :raises ValueError: a PostgreSQL database elsewhere, or one this tool should not drop.
    :raises LoadError: ``migration_failed`` (alembic's output in the message).
    """
    if url.startswith("postgresql"):
        check_loopback(url.replace("postgresql+asyncpg", "postgresql", 1))
        if reset:
            name = _database_name(url)
            if "load" not in name or not re.fullmatch(r"[A-Za-z0-9_]+", name):
                raise ValueError(f"refusing to drop database {name!r}: name it *load* or pass --no-reset")
            await _recreate_postgres(url, name)
    elif url.startswith("sqlite") and reset:
        path = url.split(":///", 1)[1] if ":///" in url else ""
        if path and path != ":memory:":
            for suffix in ("", "-wal", "-shm", "-journal"):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path + suffix)
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "DATABASE_URL": url}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "alembic",
        "upgrade",
        "head",
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), 300)
    finally:
        if proc.returncode is None:  # timed out or interrupted: no migration left running
            proc.kill()
            await proc.wait()
    if proc.returncode != 0:
        raise LoadError("migration_failed", out.decode(errors="replace")[-3000:])


async def _recreate_postgres(url: str, name: str) -> None:
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    admin = url.rsplit("/", 1)[0] + "/postgres"
    engine = create_async_engine(admin, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            await conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        await engine.dispose()


async def ensure_postgres_database(dsn: str) -> None:
    """Create the PostgreSQL database ``dsn`` names (``postgresql://user@host/db``) if it is missing."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    check_loopback(dsn)
    name = _database_name(dsn)
    admin = dsn.replace("postgresql://", "postgresql+asyncpg://", 1).rsplit("/", 1)[0] + "/postgres"
    engine = create_async_engine(admin, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            found = await conn.scalar(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name})
            if not found:
                await conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        await engine.dispose()


def load_env(database: str, redis: str | None, trusted_proxies: str | None = None) -> dict[str, str]:
    """The environment of a server started for a load run: this one, with ``DATABASE_URL``,
    ``REDIS_URL`` (unset without ``redis``), ``TRUSTED_PROXIES`` (unset without ``trusted_proxies``:
    the proxy's address when one is in front) and :data:`LOAD_LIMITS`."""
    env = {**os.environ, "DATABASE_URL": database, "PYTHONUNBUFFERED": "1", **LOAD_LIMITS}
    env.pop("REDIS_URL", None)
    env.pop("TRUSTED_PROXIES", None)
    if redis:
        check_loopback(redis)
        env["REDIS_URL"] = redis
    if trusted_proxies:
        env["TRUSTED_PROXIES"] = trusted_proxies
    return env


def server_argv(port: int) -> list[str]:
    """The command of one server process on ``port`` (``make run``'s, with this Python)."""
    return [
        sys.executable,
        "-m",
        "uvicorn",
        "--factory",
        "app.main:create_app",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--ws-max-size",
        "65536",
        "--no-proxy-headers",
    ]


#: every process started here, so that :func:`kill_leftovers` can stop what an interrupted run left
_STARTED: list[subprocess.Popen[bytes]] = []


def kill_leftovers(grace: float = 10.0) -> None:
    """SIGTERM every process started here that still runs, SIGKILL after ``grace`` seconds (the
    last resort of :func:`main`, when the run's own clean-up could not finish)."""
    alive = [proc for proc in _STARTED if proc.poll() is None]
    for proc in alive:
        with contextlib.suppress(OSError):
            proc.send_signal(signal.SIGTERM)
    end = time.monotonic() + grace
    for proc in alive:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(max(0.0, end - time.monotonic()))
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


class Server:
    """A server process started for the run: ``argv`` in ``cwd``, output to ``log_path``."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str], log_path: Path, port: int) -> None:
        self.argv, self.cwd, self.env, self.log_path, self.port = argv, cwd, env, log_path, port
        self.base_url = f"http://127.0.0.1:{port}"
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self, health_path: str | None, timeout: float = 120.0) -> Server:
        """Start it and wait until ``health_path`` answers 200 (or, with None, the port accepts).

        :raises LoadError: ``server_failed`` when it exits or does not answer in ``timeout`` s.
        """
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(
                self.argv, cwd=self.cwd, env=self.env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        _STARTED.append(self.proc)
        end = time.monotonic() + timeout
        async with httpx.AsyncClient(timeout=2) as client:
            while time.monotonic() < end:
                if self.proc.poll() is not None:
                    raise LoadError("server_failed", f"exited with {self.proc.returncode}:\n{self.log()[-3000:]}")
                try:
                    if health_path is None:
                        _r, w = await asyncio.open_connection("127.0.0.1", self.port)
                        w.close()
                        return self
                    if (await client.get(self.base_url + health_path)).status_code == 200:
                        return self
                except (OSError, httpx.HTTPError):
                    pass
                await asyncio.sleep(0.1)
        await self.stop()
        raise LoadError("server_failed", f"no answer in {timeout} s:\n{self.log()[-3000:]}")

    @property
    def pid(self) -> int | None:
        """The process id (None before start)."""
        return self.proc.pid if self.proc else None

    def alive(self) -> bool:
        """True while the process runs."""
        return self.proc is not None and self.proc.poll() is None

    async def stop(self, grace: float = 20.0) -> None:
        """SIGTERM (graceful: connections close, handlers finish), SIGKILL after ``grace`` seconds."""
        if not self.alive() or self.proc is None:
            return
        self.proc.send_signal(signal.SIGTERM)
        end = time.monotonic() + grace
        while self.proc.poll() is None and time.monotonic() < end:
            await asyncio.sleep(0.1)
        if self.proc.poll() is None:
            self.proc.kill()
            await asyncio.to_thread(self.proc.wait, 10)

    def log(self) -> str:
        """What it printed so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def nginx_config(directory: Path, port: int, upstream: list[int], connections: int) -> str:
    """nginx's configuration for a load run: :data:`NGINX_SITE` (``deploy/nginx.conf``) with
    ``upstream`` (loopback ports) as its servers and ``127.0.0.1:port`` to listen on, in an ``http``
    block like the nginx image's, one worker of ``connections`` connections, and every path (pid,
    ``error.log``, ``access.log``, temp folders) under ``directory``.

    :raises LoadError: ``proxy_failed`` when deploy/nginx.conf no longer has the lines replaced
        (``server app:8000;``, ``listen 80;``).
    """
    site = NGINX_SITE.read_text()
    servers = "".join(f"    server 127.0.0.1:{p};\n" for p in upstream)
    site, found_server = re.subn(r"^[ \t]*server[ \t]+app:8000;[ \t]*\n", servers, site, flags=re.MULTILINE)
    site, found_listen = re.subn(
        r"^([ \t]*)listen[ \t]+80;", rf"\g<1>listen 127.0.0.1:{port};", site, flags=re.MULTILINE
    )
    if found_server != 1 or found_listen != 1:
        raise LoadError("proxy_failed", f"{NGINX_SITE}: no 'server app:8000;' or 'listen 80;' line to replace")
    user = ""
    if os.geteuid() == 0:  # the master runs as root: its worker drops to nobody, as nginx does by default
        import grp
        import pwd

        nobody = pwd.getpwnam("nobody")
        user = f"user nobody {grp.getgrgid(nobody.pw_gid).gr_name};\n"
    d = directory
    temps = "".join(
        f"    {kind}_temp_path {d / kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    body = "".join(f"    {line}".rstrip() + "\n" for line in site.splitlines())
    return (
        f"# made by bench/load.py from {NGINX_SITE} for one load run\n"
        f"{user}worker_processes 1;\nworker_rlimit_nofile {connections + 256};\n"
        f"pid {d / 'nginx.pid'};\nerror_log {d / 'error.log'} warn;\n\n"
        f"events {{\n    worker_connections {connections};\n}}\n\n"
        "http {\n"
        "    # as in the nginx image's nginx.conf\n"
        "    default_type application/octet-stream;\n"
        "    log_format load '$remote_addr [$time_local] \"$request\" $status $body_bytes_sent $request_time '\n"
        "                    'upstream=$upstream_addr/$upstream_status';\n"
        f"    access_log {d / 'access.log'} load buffer=64k flush=1s;\n"
        "    sendfile on;\n"
        "    keepalive_timeout 65;\n"
        f"{temps}\n"
        f"{body}"
        "}\n"
    )


def scan_nginx(directory: Path) -> dict[str, Any]:
    """``{"path", "error_lines" (error.log lines at ``[error]`` or worse), "warning_lines", "first_error"
    (5 lines), "statuses" ({HTTP status: requests} from access.log: a websocket counts as 101 when it
    ends), "upstreams" ({upstream address: requests})}`` of a proxy's folder."""
    errors = (directory / "error.log").read_text(errors="replace").splitlines() if directory.exists() else []
    bad = [line for line in errors if re.search(r"\[(error|crit|alert|emerg)\]", line)]
    statuses: Counter[str] = Counter()
    upstreams: Counter[str] = Counter()
    access = directory / "access.log"
    if access.exists():
        for line in access.read_text(errors="replace").splitlines():
            match = re.search(r'" (\d{3}) .* upstream=(\S*?)/', line)
            if match:
                statuses[match[1]] += 1
                upstreams[match[2] or "-"] += 1
    return {
        "path": str(directory),
        "error_lines": len(bad),
        "warning_lines": sum(1 for line in errors if "[warn]" in line),
        "first_error": bad[:5],
        "statuses": dict(sorted(statuses.items())),
        "upstreams": dict(sorted(upstreams.items())),
    }


class Fleet:
    """The processes a run starts: :attr:`servers` (uvicorn, one per ``--processes``), :attr:`proxy`
    (nginx in front of them, or None), and :attr:`proxy_dir` (its folder: configuration, logs)."""

    def __init__(self) -> None:
        self.servers: list[Server] = []
        self.proxy: Server | None = None
        self.proxy_dir: Path | None = None
        #: process ids stopped on purpose (the reconnect check): not counted as died
        self.stopped: set[int] = set()

    @property
    def base_url(self) -> str:
        """Where the load goes: the proxy, else the first server."""
        return (self.proxy or self.servers[0]).base_url

    async def start(self, options: Options, log_path: Path | None) -> None:
        """Start ``options.processes`` servers at once (logs: ``log_path`` for one, ``log_path.N`` for
        several, temporary files without it), then nginx in front of them with ``options.proxy``.

        :raises LoadError: ``server_failed``, ``proxy_failed``.
        """
        n = options.processes
        trusted = "127.0.0.1" if options.proxy else None
        env = load_env(options.database, options.redis, trusted)
        for i in range(n):
            if log_path is None:
                path = Path(
                    tempfile.mkstemp(prefix=f"arena-load-{i + 1}-" if n > 1 else "arena-load-", suffix=".log")[1]
                )
            else:
                path = log_path if n == 1 else log_path.with_name(f"{log_path.name}.{i + 1}")
            port = free_port()
            self.servers.append(Server(server_argv(port), ROOT, env, path, port))
        started = await asyncio.gather(*(server.start("/healthz") for server in self.servers), return_exceptions=True)
        for outcome in started:
            if isinstance(outcome, BaseException):
                raise outcome
        if options.proxy:
            await self._start_proxy(options.matches * 2)

    async def _start_proxy(self, sockets: int) -> None:
        nginx = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).exists()), None)
        if nginx is None:
            raise LoadError("proxy_failed", "nginx is not installed (apt-get install -y nginx)")
        self.proxy_dir = d = Path(tempfile.mkdtemp(prefix="arena-nginx-"))
        d.chmod(0o755)  # the worker (nobody, under root) reaches its temp folders
        port = free_port()
        connections = max(1024, 2 * sockets + 512)  # a client's socket and the upstream one each, and HTTP
        conf = d / "nginx.conf"
        conf.write_text(nginx_config(d, port, [server.port for server in self.servers], connections))
        argv = [nginx, "-p", str(d), "-c", str(conf), "-e", str(d / "error.log"), "-g", "daemon off;"]
        self.proxy = Server(argv, d, dict(os.environ), d / "nginx.out", port)
        try:
            await self.proxy.start("/healthz", timeout=30)
        except LoadError as exc:
            errors = (d / "error.log").read_text(errors="replace")[-2000:] if (d / "error.log").exists() else ""
            raise LoadError("proxy_failed", f"{exc}\n{errors}") from None

    def check(self) -> None:
        """:raises LoadError: ``server_died`` or ``proxy_died`` (with the end of its log) when a
        process stopped that was not stopped on purpose."""
        for server in self.servers:
            if not server.alive() and server.pid not in self.stopped:
                raise LoadError("server_died", f"pid {server.pid}: {server.log()[-3000:]}")
        if self.proxy is not None and not self.proxy.alive():
            raise LoadError("proxy_died", self.proxy.log()[-3000:])

    async def stop(self) -> None:
        """Stop nginx and every server (SIGTERM, SIGKILL after 20 s), all at once."""
        await asyncio.gather(*(p.stop() for p in (self.proxy, *self.servers) if p is not None), return_exceptions=True)


#: a server's ``gc_pause`` or ``loop_stall`` line (app/runtime.py), as the console or the JSON renderer
#: writes it (the timestamp first or last): its kind, its ``ms`` and its timestamp
_STALL_KIND = re.compile(r"\b(gc_pause|loop_stall)\b")
_STALL_MS = re.compile(r"\bms\W+([\d.]+)")
_LOG_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?")
#: the stall kinds a server logs, as :func:`scan_log` reports them
STALL_KINDS = ("gc_pause", "loop_stall")


def scan_stalls(lines: list[str], window: tuple[datetime, datetime] | None) -> dict[str, dict[str, float | int]]:
    """``{kind: {"count", "longest_ms", "total_ms"}}`` for each of :data:`STALL_KINDS`: the
    server's logged collections and event-loop stalls of 50 ms or more, those inside ``window``
    (UTC, as the log's timestamps) when given, else all."""
    found: dict[str, list[float]] = {kind: [] for kind in STALL_KINDS}
    for line in lines:
        kind, ms = _STALL_KIND.search(line), _STALL_MS.search(line)
        if kind is None or ms is None:
            continue
        if window is not None:
            at = _LOG_TIME.search(line)
            if at is None or not window[0] <= datetime.fromisoformat(at[0]).replace(tzinfo=UTC) <= window[1]:
                continue
        found[kind[1]].append(float(ms[1]))
    return {
        kind: {"count": len(ms), "longest_ms": max(ms, default=0.0), "total_ms": round(sum(ms), 1)}
        for kind, ms in found.items()
    }


def scan_log(text: str, window: tuple[datetime, datetime] | None = None) -> dict[str, Any]:
    """``{"tracebacks", "error_lines", "warning_lines", "first_error", "first_warning",
    "first_traceback", "stalls"}`` of a server log (``error_lines``: lines with ``error``,
    ``exception`` or ``critical`` in them, as uvicorn and structlog log them; ``warning_lines``:
    with ``warning``; ``stalls``: :func:`scan_stalls` over ``window``)."""
    lines = text.splitlines()
    tracebacks = [i for i, line in enumerate(lines) if line.startswith("Traceback")]
    errors = [line for line in lines if re.search(r"\b(error|exception|critical)\b", line, re.IGNORECASE)]
    warnings = [line for line in lines if re.search(r"warning", line, re.IGNORECASE)]
    first = ""
    if tracebacks:
        start = tracebacks[0]
        end = start + 1
        while end < len(lines) and (lines[end].startswith((" ", "\t")) or lines[end].startswith("Traceback")):
            end += 1
        first = "\n".join(lines[max(0, start - 2) : min(len(lines), end + 2)])
    return {
        "tracebacks": len(tracebacks),
        "error_lines": len(errors),
        "warning_lines": len(warnings),
        "first_error": errors[:5],
        "first_warning": warnings[:5],
        "first_traceback": first,
        "stalls": scan_stalls(lines, window),
    }


# ---------------------------------------------------------------------------------------- the run


@dataclass
class Player:
    """An account of the pool: ``name`` and its bearer ``token``."""

    name: str
    token: str

    @property
    def headers(self) -> dict[str, str]:
        """``{"Authorization": "Bearer <token>"}``."""
        return {"Authorization": f"Bearer {self.token}"}


@dataclass
class Stats:
    """Counters of one run (latencies in seconds, as measured with ``time.perf_counter``)."""

    measuring: bool = False
    acked: int = 0
    acked_total: int = 0
    act_latency: list[float] = field(default_factory=list)
    start_latency_all: list[float] = field(default_factory=list)
    start_latency_window: list[float] = field(default_factory=list)
    #: the steps of each start in the window: ``queued`` (waiting for the client's own bound on
    #: starts at once), ``create``, ``join``, ``open`` (both sockets' ``hello`` answered)
    start_steps_window: dict[str, list[float]] = field(default_factory=dict)
    matches_started: int = 0
    matches_finished: int = 0
    matches_finished_window: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    sockets_open: int = 0
    sockets_max: int = 0
    #: sockets the server closed while their match went on, by close code (``"1006"``: no close frame)
    closes: Counter[str] = field(default_factory=Counter)
    reconnects: int = 0
    #: seconds from a socket found closed to the new socket's first snapshot
    reconnect_latency: list[float] = field(default_factory=list)
    #: acts sent whose ack had not come when the socket closed, and those of them found applied
    inflight_at_close: int = 0
    inflight_applied: int = 0
    #: ``time.perf_counter()`` at the start of the window, and the acks of each second of it
    window_start: float = 0.0
    acks_by_second: list[int] = field(default_factory=list)

    def count_ack(self, now: float, latency: float) -> None:
        """One ack received at ``now`` (``perf_counter``), ``latency`` seconds after its ``act``."""
        self.acked_total += 1
        if self.measuring:
            self.acked += 1
            self.act_latency.append(latency)
            second = int(now - self.window_start)
            if second >= len(self.acks_by_second):
                self.acks_by_second.extend([0] * (second + 1 - len(self.acks_by_second)))
            self.acks_by_second[second] += 1


class Seat:
    """One seat's socket: answers every snapshot that lists legal actions with a random one.

    :param run: the run (stats, options, stop flag).
    :param player: who holds the seat.
    """

    def __init__(self, run: LoadRun, player: Player, match_id: int) -> None:
        self.run, self.player, self.match_id = run, player, match_id
        self.ws: ClientConnection | None = None
        self.snap: dict[str, Any] | None = None
        self.pending_ack: str | None = None
        self.sent_at = 0.0
        self.thinking = False
        self.stuck = False
        #: the newest version whose events this seat has seen (what ``hello`` asks ``since`` on a reconnect)
        self.seen_version = 0
        self.reconnecting = False
        self.done = asyncio.Event()
        self.last_frame = time.monotonic()
        self._acks = itertools.count()
        self._think_task: asyncio.Task[None] | None = None

    async def open(self, since: int = 0) -> None:
        """Connect, send ``hello`` (``since``: the version whose events the seat has already) and wait
        for the first snapshot.

        :raises LoadError: ``connect_failed``, an error frame's code, or ``connection_closed``.
        """
        uri = f"{self.run.ws_base}/ws/matches/{self.match_id}"
        try:
            self.ws = await connect(
                uri,
                additional_headers=self.player.headers,
                compression="deflate" if self.run.options.compression else None,
                max_size=2**22,
                open_timeout=120,
                close_timeout=10,
                ping_interval=None,
            )
        except (OSError, WebSocketException, TimeoutError) as exc:
            raise LoadError("connect_failed", repr(exc)) from None
        self.run.stats.sockets_open += 1
        self.run.stats.sockets_max = max(self.run.stats.sockets_max, self.run.stats.sockets_open)
        try:
            await self.ws.send(f'{{"type":"hello","since":{since}}}')
            while True:
                frame = orjson.loads(await asyncio.wait_for(self.ws.recv(), 120))
                if frame.get("type") == "snapshot":
                    self._track(frame)
                    self.snap = frame
                    return
                if frame.get("type") == "error":
                    raise LoadError(str(frame.get("code")), str(frame.get("message")))
        except ConnectionClosed:
            raise LoadError("connection_closed", "before the first snapshot") from None
        except TimeoutError:
            raise LoadError("timeout", "no snapshot after hello") from None

    async def start(self) -> None:
        """:meth:`open`, and open again (as :meth:`_reconnect` does) when the server closes the new
        socket before its first snapshot because it is going away (1001, 1012: a restart).

        :raises LoadError: as :meth:`open` (any other close stays ``connection_closed``).
        """
        try:
            await self.open()
        except LoadError as exc:
            going_away = self.ws is not None and self.ws.close_code in (1001, 1012)
            if exc.code != "connection_closed" or not going_away or self.run.stopping or not await self._reconnect():
                raise

    async def play(self) -> None:
        """Play until the match is over, the run stops, or a socket the server closed cannot be
        opened again (sets :attr:`done`)."""
        try:
            while True:
                assert self.ws is not None and self.snap is not None
                await self._consider(self.snap)
                with contextlib.suppress(ConnectionClosed):  # (a close with 1000 or 1001 just ends the loop)
                    async for message in self.ws:
                        self.last_frame = time.monotonic()
                        frame = orjson.loads(message)
                        kind = frame.get("type")
                        if kind == "snapshot":
                            await self._on_snapshot(frame)
                        elif kind == "error":
                            self.run.count_error(str(frame.get("code")))
                            if frame.get("ack") is not None and frame.get("ack") == self.pending_ack:
                                self.pending_ack = None
                                if frame.get("code") != "stale_version":  # (a fresh snapshot follows that one)
                                    self._retry_soon()
                        if self.done.is_set():
                            return
                if self.run.stopping or self.done.is_set() or not await self._reconnect():
                    return
        finally:
            self.done.set()

    async def _reconnect(self) -> bool:
        """The server closed the socket while the match goes on: count the close by code, open a new
        socket with ``hello`` ``since`` the last version seen (5 tries over about 4 s), and find out
        whether an act still waiting for its ack was applied (its seat's event among those replayed).

        :returns: True when a new socket has its first snapshot; False when the run stops or every
            try failed (counted as ``reconnect_failed`` and the last try's code).
        """
        stats = self.run.stats
        code = self.ws.close_code if self.ws is not None else None
        stats.closes[str(code or 1006)] += 1
        closed_at = time.perf_counter()
        inflight = self.pending_ack is not None
        self.pending_ack = None
        self.reconnecting = True
        since = self.seen_version
        failure = LoadError("connect_failed")
        try:
            for delay in (0.0, 0.2, 0.5, 1.0, 2.0):
                await self.close()
                await asyncio.sleep(delay)
                if self.run.stopping:
                    return False
                try:
                    await self.open(since)
                    break
                except LoadError as exc:
                    failure = exc
            else:
                self.run.count_error(failure.code)
                self.run.count_error("reconnect_failed")
                return False
        finally:
            self.reconnecting = False
        self.last_frame = time.monotonic()
        stats.reconnects += 1
        stats.reconnect_latency.append(time.perf_counter() - closed_at)
        if inflight:
            stats.inflight_at_close += 1
            assert self.snap is not None
            seat = self.snap.get("seat")
            if any(e.get("seat") == seat and e.get("version", 0) > since for e in self.snap.get("events") or ()):
                stats.inflight_applied += 1
        return True

    def _track(self, frame: dict[str, Any]) -> None:
        """Check that a snapshot's events continue the versions this seat has seen: one event per
        version from :attr:`seen_version` + 1 to the snapshot's own. Counted: ``event_ahead`` (an
        event newer than the snapshot's version: the client will get it again), ``event_gap`` (a
        version missing)."""
        version = frame.get("version", 0)
        versions = [event.get("version", 0) for event in frame.get("events") or ()]
        if versions and max(versions) > version:
            self.run.count_error("event_ahead")
        elif version > self.seen_version and versions != list(range(self.seen_version + 1, version + 1)):
            self.run.count_error("event_gap")
        self.seen_version = max(self.seen_version, version)

    async def _on_snapshot(self, frame: dict[str, Any]) -> None:
        now = time.perf_counter()
        self._track(frame)
        ack = frame.get("ack")
        if ack is not None and ack == self.pending_ack:
            self.pending_ack = None
            self.run.stats.count_ack(now, now - self.sent_at)
        if self.snap is None or frame.get("version", 0) >= self.snap.get("version", 0):
            self.snap = frame
        await self._consider(self.snap)

    async def _consider(self, snap: dict[str, Any], thought: bool = False) -> None:
        """Act on ``snap`` when it lists legal actions: at once with think 0 (or once ``thought``),
        else after a think time, on the latest snapshot then."""
        if snap.get("status") in TERMINAL:
            self.run.match_over(self)
            self.done.set()
            return
        if self.pending_ack is not None or self.thinking or self.reconnecting or self.run.stopping:
            return
        if not snap.get("legal"):
            seat = snap.get("seat")
            must_act = seat in snap.get("to_act", []) and seat not in snap.get("chosen", [])
            if snap.get("status") == "active" and must_act and not self.stuck:
                self.stuck = True  # the seat must act but is offered nothing: the match stalls
                self.run.count_error("no_legal_actions")
            return
        think = self.run.options.think
        if think <= 0 or thought:
            await self._act(snap)
        else:
            self.thinking = True
            self._think_task = asyncio.create_task(self._think(self.run.rng.expovariate(1 / think)))

    def _retry_soon(self, delay: float = 0.1) -> None:
        """After a refused act: choose again on the latest snapshot in ``delay`` seconds."""
        if not self.thinking and not self.done.is_set():
            self.thinking = True
            self._think_task = asyncio.create_task(self._think(delay))

    async def _think(self, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
        finally:
            self.thinking = False
        if self.snap is not None and not self.done.is_set():
            await self._consider(self.snap, thought=True)  # the latest snapshot: it may have moved on

    async def _act(self, snap: dict[str, Any]) -> None:
        if self.ws is None:
            return
        action = self.run.rng.choice(snap["legal"])
        self.pending_ack = f"{self.match_id}.{snap.get('seat')}.{next(self._acks)}"
        frame = {"type": "act", "action": action, "version": snap["version"], "ack": self.pending_ack}
        self.sent_at = time.perf_counter()
        try:
            await self.ws.send(orjson.dumps(frame).decode())
        except ConnectionClosed:
            self.pending_ack = None

    async def close(self) -> None:
        """Close the socket (once); stop thinking."""
        if self._think_task is not None:
            self._think_task.cancel()
        ws, self.ws = self.ws, None
        if ws is not None:
            self.run.stats.sockets_open -= 1
            with contextlib.suppress(Exception):
                await ws.close()


class LoadRun:
    """One load run against ``base_url`` (see :func:`run`)."""

    def __init__(self, options: Options, base_url: str) -> None:
        self.options, self.base_url = options, base_url.rstrip("/")
        check_loopback(self.base_url)
        self.ws_base = "ws" + self.base_url.removeprefix("http")
        self.rng = random.Random(options.seed)
        self.stats = Stats()
        self.players: list[Player] = []
        self.stopping = False
        self.stop_event = asyncio.Event()
        self.all_started = asyncio.Event()
        self._pairs = itertools.count()
        self._open_sem = asyncio.Semaphore(max(1, options.connect_concurrency))
        self._finished_ids: set[int] = set()
        self.slots_started: set[int] = set()
        self.http = httpx.AsyncClient(
            base_url=self.base_url,
            timeout=httpx.Timeout(120.0),
            limits=httpx.Limits(max_connections=max(options.connect_concurrency, options.register_concurrency) + 4),
            cookies=httpx.Cookies(CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))),  # keep no session
        )

    def count_error(self, code: str) -> None:
        """Count one error by ``code``."""
        self.stats.errors[code] += 1

    def match_over(self, seat: Seat) -> None:
        """Count a match once when a seat sees it over."""
        if seat.match_id in self._finished_ids:
            return
        self._finished_ids.add(seat.match_id)
        self.stats.matches_finished += 1
        if self.stats.measuring:
            self.stats.matches_finished_window += 1

    async def _post(self, path: str, player: Player | None, body: dict[str, Any] | None = None) -> dict[str, Any]:
        try:
            r = await self.http.post(path, json=body, headers=player.headers if player else None)
        except httpx.HTTPError as exc:
            raise LoadError("http_failed", f"{path}: {exc!r}") from None
        if r.status_code >= 400:
            try:
                code = str(r.json()["error"]["code"])
            except (ValueError, KeyError, TypeError):
                code = f"http_{r.status_code}"
            raise LoadError(code, f"{path}: {r.status_code} {r.text[:300]}")
        data: dict[str, Any] = r.json()
        return data

    async def register(self) -> None:
        """Register :attr:`Options.pool_size` players (bounded concurrency) and take a token each.

        :raises LoadError: the first sign-up that fails.
        """
        run_id = secrets.token_hex(3)
        sem = asyncio.Semaphore(max(1, self.options.register_concurrency))

        async def one(i: int) -> Player:
            name = f"ld{run_id}_{i}"
            async with sem:
                await self._post("/api/auth/register", None, {"name": name, "password": PASSWORD})
                token = await self._post("/api/auth/token", None, {"name": name, "password": PASSWORD, "label": "load"})
            return Player(name, str(token["token"]))

        self.players = list(await asyncio.gather(*(one(i) for i in range(self.options.pool_size))))

    def _pick(self) -> tuple[Player, Player]:
        """Two different players, rotating through the pool."""
        n = len(self.players)
        k = next(self._pairs)
        a = (2 * k) % n
        b = (a + 1 + (k // n) % (n - 1)) % n  # a different partner each time round the pool
        return self.players[a], self.players[b]

    async def slot(self, index: int) -> None:
        """Keep one match running until the run stops; a failed start backs off and tries again."""
        while not self.stopping:
            try:
                await self._one_match(index)
            except LoadError as exc:
                if not self.stopping:
                    self.count_error(exc.code)
                    if not self.options.quiet and self.stats.errors[exc.code] <= 3:
                        print(f"  slot {index}: {exc}"[:400], file=sys.stderr)
                    await asyncio.sleep(1.0)

    async def _one_match(self, index: int) -> None:
        a, b = self._pick()
        seats: list[Seat] = []
        try:
            t0 = time.perf_counter()
            async with self._open_sem:
                t1 = time.perf_counter()
                options = {"turn_seconds": 0, "spectators": True, **self.options.game_options}
                info = await self._post("/api/matches", a, {"game": self.options.game, "options": options})
                match_id = int(info["id"])
                t2 = time.perf_counter()
                await self._post(f"/api/matches/{match_id}/join", b)
                t3 = time.perf_counter()
                seats = [Seat(self, a, match_id), Seat(self, b, match_id)]
                opened = await asyncio.gather(*(s.start() for s in seats), return_exceptions=True)
                for outcome in opened:
                    if isinstance(outcome, BaseException):
                        raise outcome
            t4 = time.perf_counter()
            elapsed = t4 - t0
            self.stats.start_latency_all.append(elapsed)
            if self.stats.measuring:
                self.stats.start_latency_window.append(elapsed)
                steps = {"queued": t1 - t0, "create": t2 - t1, "join": t3 - t2, "open": t4 - t3}
                for step, seconds in steps.items():
                    self.stats.start_steps_window.setdefault(step, []).append(seconds)
            self.stats.matches_started += 1
            if index not in self.slots_started:  # the ramp ends when every slot has had a start
                self.slots_started.add(index)
                if len(self.slots_started) >= self.options.matches:
                    self.all_started.set()
            await self._watch(seats)
        finally:
            await asyncio.gather(*(s.close() for s in seats))

    async def _watch(self, seats: list[Seat]) -> None:
        """Play ``seats`` until the match ends, the run stops, or nothing arrives for the stall
        timeout (counted as ``stalled``)."""
        tasks = [asyncio.create_task(s.play()) for s in seats]
        stop = asyncio.create_task(self.stop_event.wait())
        stall = self.options.stall_timeout or max(120.0, self.options.think * 30)
        try:
            while True:
                done, _ = await asyncio.wait([*tasks, stop], timeout=5, return_when=asyncio.FIRST_COMPLETED)
                if done:
                    return
                if time.monotonic() - max(s.last_frame for s in seats) > stall:
                    self.count_error("stalled")
                    return
        finally:
            stop.cancel()
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, stop, return_exceptions=True)

    async def stop(self) -> None:
        """Stop acting and starting matches; the slots close their sockets."""
        self.stopping = True
        self.stop_event.set()

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self.http.aclose()


def _log(options: Options, text: str) -> None:
    if not options.quiet:
        print(text, file=sys.stderr, flush=True)


@dataclass
class Watched:
    """A process whose memory and CPU are reported: ``name`` (``server 1``, ``nginx``), ``pid``, the
    ``port`` it listens on (None: unknown), ``server`` (False: the proxy, reported apart)."""

    name: str
    pid: int
    port: int | None = None
    server: bool = True


def watched_processes(server_pids: list[int], fleet: Fleet | None) -> list[Watched]:
    """The servers (those of ``fleet``, else ``server_pids``) and the fleet's proxy."""
    if fleet is None:
        return [Watched(f"server {i + 1}", pid) for i, pid in enumerate(server_pids)]
    out = [Watched(f"server {i + 1}", s.pid, s.port) for i, s in enumerate(fleet.servers) if s.pid]
    if fleet.proxy is not None and fleet.proxy.pid:
        out.append(Watched("nginx", fleet.proxy.pid, fleet.proxy.port, server=False))
    return out


def cpu_sample(procs: list[Watched]) -> dict[str, float]:
    """CPU seconds used so far: ``{process name (and its children): s, "client" (this process),
    "postgres" (:func:`command_cpu_seconds`), "redis", "machine" (:func:`machine_busy_seconds`)}``."""
    out = {w.name: cpu_seconds([w.pid]) for w in procs}
    out["client"] = time.process_time()
    out["postgres"] = command_cpu_seconds("postgres")
    out["redis"] = command_cpu_seconds("redis-server")
    out["machine"] = machine_busy_seconds()
    return out


def cpu_split(procs: list[Watched], used: dict[str, float], window: float) -> dict[str, float]:
    """``{"servers", "nginx", "client", "postgres", "redis", "other" (the machine less the rest:
    others' work, the kernel's network stack is in the processes' own system time), "machine"}`` in
    % of one core over ``window`` seconds, from ``used`` (CPU seconds by :func:`cpu_sample`'s keys)."""
    parts = {
        "servers": sum(used[w.name] for w in procs if w.server),
        "nginx": sum(used[w.name] for w in procs if not w.server),
        "client": used["client"],
        "postgres": used["postgres"],
        "redis": used["redis"],
    }
    parts["other"] = used["machine"] - sum(parts.values())
    parts["machine"] = used["machine"]
    return {k: round(100 * v / window, 1) for k, v in parts.items()}


async def _exited(pid: int, fleet: Fleet | None, timeout: float = 120.0) -> tuple[float | None, int | None]:
    """Wait until process ``pid`` has exited. :returns: ``(seconds it took, exit status)`` (the status
    only for a process started here; ``(None, None)`` when it still runs after ``timeout``)."""
    t = time.perf_counter()
    server = next((s for s in fleet.servers if s.pid == pid), None) if fleet else None
    while time.perf_counter() - t < timeout:
        if server is not None:
            if not server.alive():
                return time.perf_counter() - t, server.proc.returncode if server.proc else None
        else:
            try:
                if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                    return time.perf_counter() - t, None
            except OSError:
                return time.perf_counter() - t, None
        await asyncio.sleep(0.05)
    return None, None


#: seconds between tuning the client's collector (:meth:`ClientPauses.tune`, one full collection)
#: and the start of the window
TUNE_SETTLE_SECONDS = 2.0


class ClientPauses:
    """The load client's own collector, which would otherwise show up as the server's latency:
    :meth:`tune` freezes what is alive after the ramp and turns automatic collection off until
    :meth:`untune` (the window is a minute or so; the client's cyclic garbage waits for it), and
    as a :data:`gc.callbacks` hook it times every collection while :attr:`measuring` (none runs
    unless something asks for one). With 5,000 sockets in one client process its collections ran
    to seconds on Python's default thresholds, and to 360 ms with the server's tuning (a young
    threshold of 10,000), while the server's own longest was 200 ms: the client is an instrument,
    and its pauses were most of the tail it measured."""

    #: a collection this long or longer is counted as a pause (as the server's ``gc_pause``)
    SLOW = 0.05

    def __init__(self) -> None:
        self.measuring = False
        self.pauses = 0
        self.longest = 0.0
        self.total = 0.0
        self._started: float | None = None
        self._threshold: tuple[int, int, int] | None = None
        self._enabled = True

    def tune(self) -> None:
        """Freeze what is alive now, turn automatic collection off; start timing collections."""
        if self._threshold is not None:
            return
        gc.collect()
        gc.freeze()
        self._threshold = gc.get_threshold()
        self._enabled = gc.isenabled()
        gc.set_threshold(10_000, *self._threshold[1:])
        gc.disable()
        gc.callbacks.append(self)

    def untune(self) -> None:
        """Undo :meth:`tune` (the run may be a function call inside a longer process, as in the
        test suite): the thresholds as they were, the frozen objects collectable again."""
        if self._threshold is None:
            return
        gc.callbacks.remove(self)
        gc.set_threshold(*self._threshold)
        gc.unfreeze()
        if self._enabled:
            gc.enable()
        self._threshold = None

    def __call__(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        if self._started is None or not self.measuring:
            return
        took = time.perf_counter() - self._started
        self._started = None
        self.total += took
        if took >= self.SLOW:
            self.pauses += 1
            self.longest = max(self.longest, took)

    def report(self) -> dict[str, float | int]:
        """``{"pauses", "longest_ms", "total_ms"}`` over the measured window."""
        return {
            "pauses": self.pauses,
            "longest_ms": round(self.longest * 1000, 1),
            "total_ms": round(self.total * 1000, 1),
        }


class LoopStalls:
    """The load client's own event-loop stalls (:func:`app.runtime.watch_loop` in the client's
    loop): a frame the server sent in time waits in the client for as long as its loop is stalled,
    and that wait is counted in the act-to-snapshot latency. Counted while :attr:`measuring`."""

    def __init__(self) -> None:
        self.measuring = False
        self.stalls: list[float] = []

    def __call__(self, late: float) -> None:
        if self.measuring:
            self.stalls.append(late)

    def report(self) -> dict[str, float | int]:
        """``{"count", "longest_ms", "total_ms"}`` over the measured window (as :func:`scan_stalls`)."""
        return {
            "count": len(self.stalls),
            "longest_ms": round(max(self.stalls, default=0.0) * 1000, 1),
            "total_ms": round(sum(self.stalls) * 1000, 1),
        }


class ProbeProcess:
    """``bench/start_probe.py`` in a process of its own, lined up with the measured window: it
    signs up its two players when started, and begins its starts on :meth:`go`.

    :param options: the run (``game``, ``game_options``, ``seconds``, ``start_probe``).
    :param base_url: the server address the load tool drives.
    """

    def __init__(self, options: Options, base_url: str) -> None:
        self.options, self.base_url = options, base_url
        self.path = Path(tempfile.mkdtemp(prefix="start-probe-")) / "report.json"
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self, timeout: float = 120.0) -> None:
        """Start it and wait until its players are signed up.

        :raises LoadError: ``probe_failed`` when it exits or stays silent instead.
        """
        o = self.options
        self.proc = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "bench.start_probe", "--url", self.base_url, "--game", o.game),
            *("--game-options", json.dumps(o.game_options), "--seconds", str(o.seconds)),
            *("--interval", str(o.start_probe), "--json", str(self.path), "--wait-go"),
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert self.proc.stdout is not None
        try:
            line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        except TimeoutError:
            line = b""
        if line.strip() != b"ready":
            await self.stop()
            raise LoadError("probe_failed", f"the start probe did not sign up: {line!r}")

    async def go(self) -> None:
        """Let it begin (it runs ``seconds`` from now)."""
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(b"go\n")
        await self.proc.stdin.drain()

    async def result(self, timeout: float = 120.0) -> dict[str, Any] | None:
        """Its report (see :meth:`bench.start_probe.StartProbe.run`) once it has exited, or
        ``None`` when it failed or outlived ``timeout``."""
        if self.proc is None:
            return None
        try:
            await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            await self.stop()
            return None
        try:
            data: dict[str, Any] = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data

    async def stop(self) -> None:
        """Kill it if it still runs, and remove its report's folder."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        shutil.rmtree(self.path.parent, ignore_errors=True)


async def drive(options: Options, base_url: str, server_pids: list[int], fleet: Fleet | None = None) -> dict[str, Any]:
    """Register the pool, run the matches over the window and measure; the servers are already up.

    :param server_pids: the server processes (with ``fleet``, its servers are used instead).
    :param fleet: the processes started here (their deaths fail the run; its proxy is reported).
    :returns: the report (see :func:`run`), without ``server_log``, ``proxy_log`` and ``prototype``.
    :raises LoadError: sign-up failed, or a process started here died (a ramp that times
        out is counted as the error ``ramp_timeout`` and measured anyway).
    """
    raise_open_files(options.matches * 2)
    load = LoadRun(options, base_url)
    procs = watched_processes(server_pids, fleet)
    pauses, stalls = ClientPauses(), LoopStalls()
    loop_watch = asyncio.create_task(watch_loop(stalls))
    server_pids = [w.pid for w in procs if w.server]
    proxy_pids = [w.pid for w in procs if not w.server]
    slots: list[asyncio.Task[None]] = []
    check: dict[str, Any] | None = None
    probe = ProbeProcess(options, load.base_url) if options.start_probe > 0 else None
    probed: dict[str, Any] | None = None
    try:
        t = time.perf_counter()
        await load.register()
        _log(options, f"registered {len(load.players)} players in {time.perf_counter() - t:.1f} s")
        rss_before = await settled_rss(server_pids) if server_pids else None
        rss_before_by = rss_by_process(server_pids)
        rss_before_listed = rss_kib_listed(server_pids)
        rss_before_each = {w.name: (rss_kib([w.pid]), rss_kib_one(w.pid)) for w in procs}
        slots = [asyncio.create_task(load.slot(i)) for i in range(options.matches)]
        t = time.perf_counter()
        ramp_complete = True
        try:
            await _wait_alive(load.all_started.wait(), options.ramp_timeout, fleet)
        except TimeoutError:  # overloaded: measure anyway, and say so
            ramp_complete = False
            load.count_error("ramp_timeout")
        ramp = time.perf_counter() - t
        _log(
            options,
            f"{len(load.slots_started)}/{options.matches} matches started in {ramp:.1f} s"
            f"{'' if ramp_complete else ' (ramp timed out)'}; errors so far {dict(load.stats.errors)}; "
            f"warm-up {options.warmup} s",
        )
        if probe is not None:
            await probe.start()
        await _wait_alive(asyncio.sleep(options.warmup), options.warmup + 60, fleet)
        pauses.tune()  # (its collection stops the client's loop for up to a second at 5,000 sockets:
        # acks held up by it would be counted in the window with that wait in them)
        await _wait_alive(asyncio.sleep(TUNE_SETTLE_SECONDS), TUNE_SETTLE_SECONDS + 60, fleet)
        cpu0 = cpu_sample(procs)
        cpu_last: dict[str, float] = {}  # a process stopped on purpose: its CPU until then
        load.stats.window_start = t0 = time.perf_counter()
        window_from = datetime.now(UTC)
        load.stats.measuring = pauses.measuring = stalls.measuring = True
        if probe is not None:
            await probe.go()
        if options.reconnect_check:
            await _wait_alive(asyncio.sleep(options.seconds / 2), options.seconds + 60, fleet)
            check = await _stop_one(options, load, procs, fleet, t0, cpu_last)
            await _wait_alive(asyncio.sleep(options.seconds / 2), options.seconds + 60, fleet)
        else:
            await _wait_alive(asyncio.sleep(options.seconds), options.seconds + 60, fleet)
        cap = options.max_seconds if options.max_seconds is not None else max(options.seconds * 10, 300.0)
        while load.stats.acked < options.min_actions and time.perf_counter() - t0 < cap:
            await _wait_alive(asyncio.sleep(0.2), 60, fleet)
        load.stats.measuring = pauses.measuring = stalls.measuring = False
        window = time.perf_counter() - t0
        window_utc = (window_from, datetime.now(UTC))
        cpu1 = {**cpu_sample(procs), **cpu_last}
        used = {k: cpu1[k] - cpu0[k] for k in cpu0}
        rss_end = rss_kib(server_pids) if server_pids else None
        rss_end_by = rss_by_process(server_pids)
        rss_end_listed = rss_kib_listed(server_pids)
        rss_end_each = {w.name: (rss_kib([w.pid]), rss_kib_one(w.pid)) for w in procs}
        held = established_by_port([w.port for w in procs if w.port is not None])
        sockets = load.stats.sockets_open
        _log(options, f"measured {window:.1f} s; closing {sockets} sockets")
        if probe is not None:
            probed = await probe.result()
    finally:
        if probe is not None:
            await probe.stop()
        loop_watch.cancel()
        pauses.untune()
        await load.stop()
        if slots:
            _done, pending = await asyncio.wait(slots, timeout=60)
            for task in pending:
                task.cancel()
            await asyncio.gather(*slots, return_exceptions=True)
        await load.aclose()
    s = load.stats
    per_socket = _per_socket(rss_before, rss_end, sockets) if check is None else None  # (one process is gone)
    per_socket_listed = _per_socket(rss_before_listed, rss_end_listed, sockets) if check is None else None
    split = cpu_split(procs, used, window) if window > 0 else {}
    processes = [
        {
            "name": w.name,
            "pid": w.pid,
            "port": w.port,
            "rss_kib": {"before": rss_before_each[w.name][0], "end": rss_end_each[w.name][0]},
            "rss_own_kib": {"before": rss_before_each[w.name][1], "end": rss_end_each[w.name][1]},
            "cpu_percent": round(100 * used[w.name] / window, 1) if window > 0 else None,
            "connections_end": held.get(w.port) if w.port is not None else None,
        }
        for w in procs
    ]
    proxy_before = sum(v[0] or 0 for k, v in rss_before_each.items() if k == "nginx") if proxy_pids else None
    proxy_end = sum(v[0] or 0 for k, v in rss_end_each.items() if k == "nginx") if proxy_pids else None
    report = {
        "game": options.game,
        "game_options": options.game_options,
        "matches": options.matches,
        "think_s": options.think,
        "window_s": round(window, 3),
        "warmup_s": options.warmup,
        "users": len(load.players),
        "ramp_s": round(ramp, 3),
        "ramp_complete": ramp_complete,
        "sockets": sockets,
        "sockets_max": s.sockets_max,
        "actions": s.acked,
        "actions_total": s.acked_total,
        "actions_per_s": round(s.acked / window, 2) if window > 0 else 0.0,
        "acks_by_second": s.acks_by_second,
        "act_latency_ms": summarize_ms(s.act_latency),
        "match_start_ms": summarize_ms(s.start_latency_all, (0.5, 0.99)),
        "match_start_window_ms": summarize_ms(s.start_latency_window, (0.5, 0.99)),
        "match_start_steps_window_ms": {
            step: summarize_ms(seconds, (0.5, 0.99)) for step, seconds in s.start_steps_window.items()
        },
        "start_probe": probed,
        "matches_started": s.matches_started,
        "matches_finished": s.matches_finished,
        "matches_finished_window": s.matches_finished_window,
        "errors": dict(sorted(s.errors.items())),
        "closes": dict(sorted(s.closes.items())),
        "reconnects": s.reconnects,
        "reconnect_ms": summarize_ms(s.reconnect_latency, (0.5, 0.99)),
        "inflight_at_close": s.inflight_at_close,
        "inflight_applied": s.inflight_applied,
        "server_pids": server_pids,
        "server_processes": len(server_pids),
        "proxy": bool(proxy_pids),
        "processes": processes,
        "server_rss_kib": {"before": rss_before, "end": rss_end},
        "server_rss_by_process_kib": {"before": rss_before_by, "end": rss_end_by},
        "rss_per_socket_kib": per_socket,
        "server_rss_listed_kib": {"before": rss_before_listed, "end": rss_end_listed},
        "rss_per_socket_listed_kib": per_socket_listed,
        "proxy_rss_kib": {"before": proxy_before, "end": proxy_end},
        "proxy_rss_per_socket_kib": _per_socket(proxy_before, proxy_end, sockets),
        "server_cpu_percent": split.get("servers") if server_pids else None,
        "client_cpu_percent": split.get("client"),
        "client_loop": type(asyncio.get_running_loop()).__module__.split(".")[0],
        "client_gc": pauses.report(),
        "client_loop_stalls": stalls.report(),
        "window_utc": [at.isoformat() for at in window_utc],
        "machine_cpu_percent": split.get("machine"),
        "cpu_split_percent": split,
        "cores": os.cpu_count(),
    }
    if check is not None:
        report["reconnect_check"] = _check_report(check, load, window)
    return report


async def _stop_one(
    options: Options, load: LoadRun, procs: list[Watched], fleet: Fleet | None, t0: float, cpu_last: dict[str, float]
) -> dict[str, Any]:
    """The reconnect check's kill: SIGTERM to the last server process (its CPU so far goes into
    ``cpu_last``), noted in the fleet as stopped on purpose, its exit awaited in the background.

    :returns: ``{"name", "pid", "at" (perf_counter), "at_s" (into the window), "acked_before",
        "errors_before", "exit" (the task awaiting its exit)}``.
    """
    victim = [w for w in procs if w.server][-1]
    cpu_last[victim.name] = cpu_seconds([victim.pid])
    if fleet is not None:
        fleet.stopped.add(victim.pid)
    at = time.perf_counter()
    os.kill(victim.pid, signal.SIGTERM)
    _log(options, f"reconnect check: SIGTERM to {victim.name} (pid {victim.pid}) at {at - t0:.1f} s")
    return {
        "name": victim.name,
        "pid": victim.pid,
        "at": at,
        "at_s": round(at - t0, 3),
        "acked_before": load.stats.acked,
        "errors_before": Counter(load.stats.errors),
        "exit": asyncio.create_task(_exited(victim.pid, fleet)),
    }


def _check_report(check: dict[str, Any], load: LoadRun, window: float) -> dict[str, Any]:
    """The reconnect check's part of the report: ``{"name", "pid", "at_s", "exit_s" (seconds from
    SIGTERM to exit; None: still running at the end), "returncode", "acked_before", "acked_after",
    "per_s_before", "per_s_after", "closes", "reconnects", "reconnect_ms", "inflight_at_close",
    "inflight_applied", "errors_after" ({code: count} since the kill)}``."""
    s = load.stats
    exit_task: asyncio.Task[tuple[float | None, int | None]] = check["exit"]
    exit_s, returncode = exit_task.result() if exit_task.done() else (None, None)
    if not exit_task.done():
        exit_task.cancel()
    after = s.acked - check["acked_before"]
    rest = window - check["at_s"]
    return {
        "name": check["name"],
        "pid": check["pid"],
        "at_s": check["at_s"],
        "exit_s": round(exit_s, 2) if exit_s is not None else None,
        "returncode": returncode,
        "acked_before": check["acked_before"],
        "acked_after": after,
        "per_s_before": round(check["acked_before"] / check["at_s"], 1) if check["at_s"] > 0 else None,
        "per_s_after": round(after / rest, 1) if rest > 0 else None,
        "closes": dict(sorted(s.closes.items())),
        "reconnects": s.reconnects,
        "reconnect_ms": summarize_ms(s.reconnect_latency, (0.5, 0.99)),
        "inflight_at_close": s.inflight_at_close,
        "inflight_applied": s.inflight_applied,
        "errors_after": dict(sorted((s.errors - check["errors_before"]).items())),
    }


def _per_socket(before: int | None, end: int | None, sockets: int) -> float | None:
    """``(end - before) / sockets`` in KiB, rounded; None when something is missing."""
    if before is None or end is None or not sockets:
        return None
    return round((end - before) / sockets, 1)


async def _wait_alive(awaitable: Any, timeout: float, fleet: Fleet | None) -> None:
    """Await ``awaitable`` within ``timeout`` seconds, failing early if a process of ``fleet`` dies.

    :raises TimeoutError: not done in time. :raises LoadError: ``server_died``, ``proxy_died``.
    """
    task = asyncio.ensure_future(awaitable)
    end = time.monotonic() + timeout
    try:
        while not task.done():
            if fleet is not None:
                fleet.check()
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError
            await asyncio.wait([task], timeout=min(1.0, left))
        task.result()
    finally:
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def merge_logs(scans: list[dict[str, Any]]) -> dict[str, Any]:
    """One :func:`scan_log` result (with ``path``) for several logs: counts summed, the first of
    each kind of line and the first traceback (of the first log that has one), paths joined."""
    return {
        "path": ", ".join(scan["path"] for scan in scans),
        "tracebacks": sum(scan["tracebacks"] for scan in scans),
        "error_lines": sum(scan["error_lines"] for scan in scans),
        "warning_lines": sum(scan["warning_lines"] for scan in scans),
        "first_error": next((scan["first_error"] for scan in scans if scan["first_error"]), []),
        "first_warning": next((scan["first_warning"] for scan in scans if scan["first_warning"]), []),
        "first_traceback": next((scan["first_traceback"] for scan in scans if scan["first_traceback"]), ""),
        "stalls": {
            kind: {
                "count": sum(scan["stalls"][kind]["count"] for scan in scans),
                "longest_ms": max(scan["stalls"][kind]["longest_ms"] for scan in scans),
                "total_ms": round(sum(scan["stalls"][kind]["total_ms"] for scan in scans), 1),
            }
            for kind in STALL_KINDS
        },
    }


async def run(options: Options) -> dict[str, Any]:
    """The whole run: start the servers and the proxy (unless ``options.url``), drive them, stop
    them, and run the prototype when asked.

    :returns: the report, a JSON-able dict: ``game``, ``matches``, ``think_s``, ``window_s``,
        ``users``, ``sockets`` (open at the end of the window), ``actions`` and ``actions_per_s``
        (acks received in the window), ``acks_by_second`` (a list, one count per second of the
        window), ``act_latency_ms`` ``{"count", "p50", "p90", "p99", "max"}``, ``match_start_ms``
        (every start, the ramp included) and ``match_start_window_ms`` ``{"count", "p50", "p99"}``
        (ms), ``matches_started``, ``matches_finished``, ``errors`` ``{code: count}``, ``closes``
        ``{close code: sockets the server closed}``, ``reconnects``, ``reconnect_ms``,
        ``inflight_at_close``, ``inflight_applied``, ``server_rss_kib`` ``{"before", "end"}`` (KiB,
        None without a process to read), ``rss_per_socket_kib``, ``proxy_rss_kib``,
        ``processes`` (one ``{"name", "pid", "port", "rss_kib" {"before", "end"} (with its
        children), "rss_own_kib", "cpu_percent", "connections_end"}`` per server and for nginx),
        ``cpu_split_percent`` ``{"servers", "nginx", "client", "postgres", "redis", "other",
        "machine"}``, ``server_cpu_percent``, ``client_cpu_percent`` and ``machine_cpu_percent``
        (everything on the machine: others' work shows there), in % of one core over the window,
        ``reconnect_check`` (with ``--reconnect-check``: see :func:`_check_report`), ``server_log``
        (``{"path", "tracebacks", "error_lines", ...}``, when a log is known; several logs merged,
        each in ``server_logs``), ``proxy_log`` (:func:`scan_nginx`) and ``prototype``
        (``{"actions_per_s", "p50_ms", "p99_ms", "line"}`` or ``{"error"}``, with ``options.prototype``).
    :raises LoadError: a step failed (see :func:`drive`), or a server or the proxy did not start.
    """
    fleet: Fleet | None = None
    try:
        if options.url:
            base_url, pids = options.url, list(options.server_pids)
        else:
            raise_open_files(options.matches * 2)
            _log(options, f"preparing {options.database} (reset={options.reset_database})")
            await prepare_database(options.database, options.reset_database)
            fleet = Fleet()
            await fleet.start(options, options.server_log)
            base_url = fleet.base_url
            pids = [s.pid for s in fleet.servers if s.pid]
            for i, server in enumerate(fleet.servers):
                _log(options, f"server {i + 1}: pid {server.pid} at {server.base_url}, log {server.log_path}")
            if fleet.proxy is not None:
                _log(options, f"nginx: pid {fleet.proxy.pid} at {fleet.proxy.base_url}, in {fleet.proxy_dir}")
        report = await drive(options, base_url, pids, fleet)
    finally:
        if fleet is not None:
            await fleet.stop()
    if fleet is not None:
        paths = [server.log_path for server in fleet.servers]
    else:
        paths = [options.server_log] if options.server_log is not None else []
    window = (datetime.fromisoformat(report["window_utc"][0]), datetime.fromisoformat(report["window_utc"][1]))
    scans = [{"path": str(p), **scan_log(p.read_text(errors="replace"), window)} for p in paths if p.exists()]
    if scans:
        report["server_log"] = scans[0] if len(scans) == 1 else merge_logs(scans)
        if len(scans) > 1:
            report["server_logs"] = scans
    if fleet is not None and fleet.proxy_dir is not None:
        report["proxy_log"] = scan_nginx(fleet.proxy_dir)
    if options.prototype is not None:
        try:
            report["prototype"] = await run_prototype(options)
        except (LoadError, OSError, ValueError) as exc:
            report["prototype"] = {"error": str(exc)[:2000]}
    return report


# ------------------------------------------------------------------------------------ the prototype

_NODE_LINE = re.compile(r"actions/s=(?P<rate>[\d.]+) p50=(?P<p50>[\d.]+)ms p99=(?P<p99>[\d.]+)ms")


async def run_prototype(options: Options) -> dict[str, Any]:
    """Run the perf-lab prototype from ``options.prototype`` in a temporary copy: ``npm ci``, its
    server on ``options.prototype_db`` (created if missing) with this Python, then
    ``node load.mjs MATCHES SECONDS PORT THINK``.

    :returns: ``{"actions_per_s", "p50_ms", "p99_ms", "line" (the node client's), "server_rss_kib_end"
        (its server and children, KiB, as the node client ends), "server_log_tracebacks"}``.
    :raises LoadError: ``prototype_failed`` with the output of the step that failed.
    """
    assert options.prototype is not None
    source = options.prototype.resolve()
    if options.prototype_db:
        await ensure_postgres_database(options.prototype_db)
    with tempfile.TemporaryDirectory(prefix="perf-lab-") as tmp:
        work = Path(tmp) / "lab"
        shutil.copytree(source, work, ignore=shutil.ignore_patterns("node_modules"))
        for path in work.rglob("*"):  # the source may be read-only
            path.chmod(path.stat().st_mode | 0o200)
        work.chmod(0o755)
        npm = "ci" if (work / "package-lock.json").exists() else "install"
        _log(options, f"prototype: npm {npm} in {work}")
        await _check_call(["npm", npm, "--no-audit", "--no-fund", "--silent"], work, 300)
        port = free_port()
        env = {**os.environ, "LAB_DB": options.prototype_db}
        argv = [sys.executable, "-m", "uvicorn", "server:app", "--port", str(port), "--log-level", "warning"]
        server = Server(argv, work, env, work / "server.log", port)
        await server.start(None)
        try:
            think = f"{options.think:g}"
            _log(options, f"prototype: node load.mjs {options.matches} {options.seconds:g} {port} {think}")
            out = await _check_call(
                ["node", "load.mjs", str(options.matches), f"{options.seconds:g}", str(port), think],
                work,
                options.seconds + 300,
            )
            rss = rss_kib([server.pid]) if server.pid else None
        finally:
            await server.stop()
        match = _NODE_LINE.search(out)
        if match is None:
            raise LoadError("prototype_failed", f"no figures in the node client's output:\n{out[-2000:]}")
        log = scan_log(server.log())
        return {
            "actions_per_s": float(match["rate"]),
            "p50_ms": float(match["p50"]),
            "p99_ms": float(match["p99"]),
            "line": next(line for line in out.splitlines() if "actions/s=" in line).strip(),
            "server_rss_kib_end": rss,
            "server_log_tracebacks": log["tracebacks"],
        }


async def _check_call(argv: list[str], cwd: Path, timeout: float) -> str:
    """Run ``argv`` in ``cwd``; :returns: its output. :raises LoadError: ``prototype_failed``."""
    proc = await asyncio.create_subprocess_exec(
        *argv, cwd=cwd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
    )
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), timeout)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise LoadError("prototype_failed", f"{' '.join(argv)} took more than {timeout} s") from None
    text = out.decode(errors="replace")
    if proc.returncode != 0:
        raise LoadError("prototype_failed", f"{' '.join(argv)} exited with {proc.returncode}:\n{text[-2000:]}")
    return text


# ------------------------------------------------------------------------------------ the report


def _fmt(value: Any, unit: str = "") -> str:
    if value is None or (isinstance(value, float) and value != value):
        return "-"
    if isinstance(value, float):
        text = f"{value:,.1f}" if abs(value) < 1000 else f"{value:,.0f}"
    else:
        text = f"{value:,}" if isinstance(value, int) else str(value)
    return text + unit


def _probe_rows(probed: dict[str, Any] | None) -> list[tuple[str, str, str]]:
    """The report table's rows of the start probe (``bench/start_probe.py``): a match start as a
    player on a client of their own sees it, beside the load client's own starts."""
    if not probed:
        return []
    start = probed.get("start_ms") or {}
    steps = "; ".join(
        f"{step} {_fmt((probed.get(f'{step}_ms') or {}).get('p50'))}/{_fmt((probed.get(f'{step}_ms') or {}).get('p99'))}"
        for step in ("create", "join", "open")
    )
    errors = f"; errors {probed['errors']}" if probed.get("errors") else ""
    return [
        (
            f"probe start p50/p99 ({probed.get('count', 0)})",
            f"{_fmt(start.get('p50'))} / {_fmt(start.get('p99'))} ms{errors}",
            "-",
        ),
        ("  probe steps p50/p99", steps, "-"),
    ]


def format_report(report: dict[str, Any]) -> str:
    """The report as the table printed at the end of a run (ours, and the prototype beside it)."""
    lat, start, start_w = report["act_latency_ms"], report["match_start_ms"], report["match_start_window_ms"]
    proto = report.get("prototype") or {}
    rss = report["server_rss_kib"]
    proto_kib = proto.get("server_rss_kib_end")
    proto_rss = f"- / {proto_kib / 1024:.1f} MiB" if proto_kib else "-"
    mib = {k: (v / 1024 if v is not None else None) for k, v in rss.items()}
    pmib = {k: (v / 1024 if v is not None else None) for k, v in report["proxy_rss_kib"].items()}
    rec = report["reconnect_ms"]
    cgc = report.get("client_gc") or {"pauses": None, "longest_ms": None, "total_ms": None}
    cls = report.get("client_loop_stalls") or {"count": None, "longest_ms": None, "total_ms": None}
    logged = (report.get("server_log") or {}).get("stalls") or {}
    labels = {"loop_stall": "loop stalls", "gc_pause": "collections"}
    server_stalls = [(labels[kind], logged[kind]) for kind in STALL_KINDS if kind in logged]
    rows: list[tuple[str, str, str]] = [
        ("actions/s (acked)", _fmt(report["actions_per_s"]), _fmt(proto.get("actions_per_s"))),
        ("acts acked in window", _fmt(report["actions"]), "-"),
        ("act->snapshot p50", _fmt(lat.get("p50"), " ms"), _fmt(proto.get("p50_ms"), " ms")),
        ("act->snapshot p90", _fmt(lat.get("p90"), " ms"), "-"),
        ("act->snapshot p99", _fmt(lat.get("p99"), " ms"), _fmt(proto.get("p99_ms"), " ms")),
        ("act->snapshot max", _fmt(lat.get("max"), " ms"), "-"),
        (
            f"match start p50/p99 (all {start['count']})",
            f"{_fmt(start.get('p50'))} / {_fmt(start.get('p99'))} ms",
            "-",
        ),
        (
            f"match start p50/p99 (window {start_w['count']})",
            f"{_fmt(start_w.get('p50'))} / {_fmt(start_w.get('p99'))} ms",
            "-",
        ),
        (
            "  start steps p50/p99 (window)",
            "; ".join(
                f"{step} {_fmt(st.get('p50'))}/{_fmt(st.get('p99'))}"
                for step, st in (report.get("match_start_steps_window_ms") or {}).items()
            )
            or "-",
            "-",
        ),
        *_probe_rows(report.get("start_probe")),
        ("matches started / finished", f"{report['matches_started']} / {report['matches_finished']}", "-"),
        (
            "ramp (every slot's first start)",
            f"{report['ramp_s']:.1f} s" + ("" if report["ramp_complete"] else " TIMED OUT"),
            "-",
        ),
        ("sockets (end of window)", _fmt(report["sockets"]), _fmt(report["matches"] * 2) if proto else "-"),
        ("server RSS before / end", f"{_fmt(mib['before'])} / {_fmt(mib['end'])} MiB", proto_rss),
        ("server RSS per socket", _fmt(report["rss_per_socket_kib"], " KiB"), "-"),
        ("  socket processes only", _fmt(report["rss_per_socket_listed_kib"], " KiB"), "-"),
        (
            "nginx RSS before / end",
            f"{_fmt(pmib['before'])} / {_fmt(pmib['end'])} MiB" if report["proxy"] else "-",
            "-",
        ),
        ("nginx RSS per socket", _fmt(report["proxy_rss_per_socket_kib"], " KiB"), "-"),
        ("server CPU (% of a core)", _fmt(report["server_cpu_percent"], " %"), "-"),
        (
            f"load client CPU (% of a core; {report.get('client_loop', '?')})",
            _fmt(report["client_cpu_percent"], " %"),
            "-",
        ),
        (
            "load client collections >= 50 ms (off)",
            f"{cgc['pauses']} (longest {_fmt(cgc['longest_ms'])} ms; {_fmt(cgc['total_ms'])} ms in all)",
            "-",
        ),
        (
            "load client loop stalls >= 50 ms",
            f"{cls['count']} (longest {_fmt(cls['longest_ms'])} ms; {_fmt(cls['total_ms'])} ms in all)",
            "-",
        ),
        *(
            (
                f"server {label} >= 50 ms",
                f"{st['count']} (longest {_fmt(st['longest_ms'])} ms; {_fmt(st['total_ms'])} ms in all)",
                "-",
            )
            for label, st in server_stalls
        ),
        (f"machine CPU busy (of {report['cores']} cores)", _fmt(report["machine_cpu_percent"], " %"), "-"),
        ("errors", ", ".join(f"{k}={v}" for k, v in report["errors"].items()) or "none", "-"),
        ("sockets closed by the server", ", ".join(f"{k}={v}" for k, v in report["closes"].items()) or "none", "-"),
        (
            "reconnects (p50/p99)",
            f"{report['reconnects']}"
            + (f" ({_fmt(rec.get('p50'))} / {_fmt(rec.get('p99'))} ms)" if report["reconnects"] else ""),
            "-",
        ),
    ]
    setup = f"{report['server_processes']} process{'es' if report['server_processes'] != 1 else ''}"
    setup += " behind nginx" if report["proxy"] else ""
    title = (
        f"{report['game']} {json.dumps(report['game_options']) if report['game_options'] else ''}".strip()
        + f": {report['matches']} matches, think {report['think_s']:g} s, {report['users']} players, "
        f"window {report['window_s']:.1f} s after {report['warmup_s']:g} s warm-up, {setup}"
    )
    widths = (34, 26, 16)
    lines = [
        title,
        "  ".join(h.ljust(w) for h, w in zip(("measure", "Tabletop Arena", "prototype"), widths, strict=True)),
    ]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip() for row in rows]
    lines += format_processes(report)
    if "error" in proto:
        lines.append(f"prototype failed: {proto['error'][:500]}")
    elif proto.get("line"):
        lines.append(f"prototype: {proto['line']}")
    log = report.get("server_log")
    if log:
        lines.append(
            f"server log {log['path']}: {log['tracebacks']} tracebacks, {log['error_lines']} error lines, "
            f"{log['warning_lines']} warning lines"
        )
        if log["first_traceback"]:
            lines.append("first traceback:\n" + log["first_traceback"][-3000:])
        for kind in ("error", "warning"):
            if log[f"first_{kind}"]:
                lines.append(f"first {kind} lines:\n" + "\n".join("  " + line[:300] for line in log[f"first_{kind}"]))
    nginx = report.get("proxy_log")
    if nginx:
        statuses = ", ".join(f"{k}={v}" for k, v in nginx["statuses"].items()) or "none"
        upstreams = ", ".join(f"{k}={v}" for k, v in nginx["upstreams"].items()) or "none"
        lines.append(
            f"nginx {nginx['path']}: {nginx['error_lines']} error lines, {nginx['warning_lines']} warnings; "
            f"responses by status {statuses}; by upstream {upstreams}"
        )
        if nginx["first_error"]:
            lines.append("first nginx errors:\n" + "\n".join("  " + line[:300] for line in nginx["first_error"]))
    return "\n".join(lines)


def format_processes(report: dict[str, Any]) -> list[str]:
    """The lines after the main table: one per process, the CPU split, the reconnect check."""
    lines: list[str] = []
    if report["processes"]:
        widths = (18, 8, 7, 30, 20, 12)
        heads = ("process", "pid", "port", "RSS before / end (+children)", "CPU (% of a core)", "sockets end")
        lines.append("")
        lines.append("  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True)))
        for proc in report["processes"]:
            before, end = (proc["rss_kib"][k] for k in ("before", "end"))
            rss = f"{_fmt(before / 1024 if before else None)} / {_fmt(end / 1024 if end else None)} MiB"
            cpu, held = _fmt(proc["cpu_percent"], " %"), _fmt(proc["connections_end"])
            row = (proc["name"], str(proc["pid"]), str(proc["port"] or "-"), rss, cpu, held)
            lines.append("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
    split = report.get("cpu_split_percent") or {}
    if split:
        names = {"servers": "servers", "nginx": "nginx", "client": "load client", "postgres": "PostgreSQL"}
        names |= {"redis": "Redis", "other": "other", "machine": "machine"}
        shown = {k: v for k, v in split.items() if k != "nginx" or report["proxy"]}
        parts = ", ".join(f"{names[k]} {v:.1f}" for k, v in shown.items())
        lines.append(
            f"CPU split over the window (% of one core; {report['cores']} cores = {report['cores']}00 %): {parts}"
        )
    check = report.get("reconnect_check")
    if check:
        rec = check["reconnect_ms"]
        exit_s = f"exited after {check['exit_s']:.1f} s" if check["exit_s"] is not None else "STILL RUNNING at the end"
        lines += [
            f"reconnect check: SIGTERM to {check['name']} (pid {check['pid']}) at {check['at_s']:.1f} s, {exit_s} "
            f"(status {check['returncode']})",
            f"  acked before {check['acked_before']:,} ({_fmt(check['per_s_before'])}/s), after "
            f"{check['acked_after']:,} ({_fmt(check['per_s_after'])}/s)",
            f"  closes {', '.join(f'{k}={v}' for k, v in check['closes'].items()) or 'none'}; reconnects "
            f"{check['reconnects']} (p50 {_fmt(rec.get('p50'))} ms, p99 {_fmt(rec.get('p99'))} ms); acts in flight "
            f"at close {check['inflight_at_close']}, applied {check['inflight_applied']}",
            f"  errors after the kill: {', '.join(f'{k}={v}' for k, v in check['errors_after'].items()) or 'none'}",
            f"  acks per second: {' '.join(str(n) for n in report['acks_by_second'])}",
        ]
    return lines


def run_loop(main: Coroutine[Any, Any, dict[str, Any]]) -> dict[str, Any]:
    """Run ``main`` on uvloop, as the server runs (uvicorn's ``--loop auto``), or on asyncio's own
    loop where uvloop is missing (it comes with ``uvicorn[standard]``, not on Windows).

    The client's own CPU is part of what the machine leaves the servers; with uvloop (and orjson
    for its frames) it spent 0.34 ms an action against 0.38-0.49 ms before, in alternating runs
    (``docs/performance.md``, ninth session)."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def _interrupted(_signum: int, _frame: Any) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    """Run from the command line; print the table (errors seen are in it). :returns: 0, 1 when the
    run itself failed (a server or the proxy would not start or died, sign-ups refused), 130 when
    interrupted (Ctrl-C, SIGTERM). Whatever was started is stopped in every case."""
    options = parse_args(argv)
    signal.signal(signal.SIGTERM, _interrupted)
    try:
        report = run_loop(run(options))
    except (LoadError, ValueError) as exc:
        print(f"load run failed: {exc}"[:5000], file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("load run interrupted", file=sys.stderr)
        return 130
    finally:
        kill_leftovers()
    print(format_report(report))
    if options.json_path is not None:
        options.json_path.write_text(json.dumps(report, indent=2, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
