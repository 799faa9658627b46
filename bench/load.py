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
start latency (create + join + both ``hello`` answered with a snapshot), errors by ``code``
(``error`` frames, HTTP errors, and the client's own: ``http_failed``, ``connect_failed``,
``connection_closed``, ``timeout``, ``stalled``, ``no_legal_actions``, ``ramp_timeout``), open
sockets, and the server's resident memory (``VmRSS`` of the server process and its children, or
of ``--server-pid`` and theirs) before the first match (once the bot workers' memory has settled)
and at the end of the window, with sockets still open; ``(end - before) / sockets`` is an upper
bound of the memory a socket costs (whatever else grew is in it too; the table also gives it for
the socket-holding processes alone). CPU of the server, of this client and of the whole machine
over the window is reported too: on a shared machine, others' work shows in the last.

With ``--prototype PATH`` the bare prototype of ``/work/shared/perf-lab`` runs after ours, in the
same invocation, with the same matches, seconds and think time (its node client ``load.mjs``;
``npm ci`` in a temporary copy), and its ``actions/s``, ``p50``, ``p99`` are printed beside ours.
Nothing of it is copied into this repository.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATABASE = "postgresql+asyncpg://postgres@127.0.0.1:5432/arena_load"
DEFAULT_PROTOTYPE_DB = "postgresql://postgres@127.0.0.1/lab"
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
    p.add_argument("--redis", default=None, help="REDIS_URL of the server started here (default: none)")
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
        redis=a.redis,
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
    )
    try:
        if options.url:
            check_loopback(options.url)
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
    out, _ = await asyncio.wait_for(proc.communicate(), 300)
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


def load_env(database: str, redis: str | None) -> dict[str, str]:
    """The environment of a server started for a load run: this one, with ``DATABASE_URL``,
    ``REDIS_URL`` (unset without ``redis``) and :data:`LOAD_LIMITS`."""
    env = {**os.environ, "DATABASE_URL": database, "PYTHONUNBUFFERED": "1", **LOAD_LIMITS}
    env.pop("REDIS_URL", None)
    if redis:
        check_loopback(redis)
        env["REDIS_URL"] = redis
    return env


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


def scan_log(text: str) -> dict[str, Any]:
    """``{"tracebacks", "error_lines", "warning_lines", "first_error", "first_warning",
    "first_traceback"}`` of a server log (``error_lines``: lines with ``error``, ``exception`` or
    ``critical`` in them, as uvicorn and structlog log them; ``warning_lines``: with ``warning``)."""
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
    matches_started: int = 0
    matches_finished: int = 0
    matches_finished_window: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    sockets_open: int = 0
    sockets_max: int = 0


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
        self.done = asyncio.Event()
        self.last_frame = time.monotonic()
        self._acks = itertools.count()
        self._think_task: asyncio.Task[None] | None = None

    async def open(self) -> None:
        """Connect, send ``hello`` and wait for the first snapshot.

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
            await self.ws.send('{"type":"hello","since":0}')
            while True:
                frame = json.loads(await asyncio.wait_for(self.ws.recv(), 120))
                if frame.get("type") == "snapshot":
                    self.snap = frame
                    return
                if frame.get("type") == "error":
                    raise LoadError(str(frame.get("code")), str(frame.get("message")))
        except ConnectionClosed:
            raise LoadError("connection_closed", "before the first snapshot") from None
        except TimeoutError:
            raise LoadError("timeout", "no snapshot after hello") from None

    async def play(self) -> None:
        """Play until the match is over, the socket closes or the run stops (sets :attr:`done`)."""
        assert self.ws is not None and self.snap is not None
        try:
            await self._consider(self.snap)
            async for message in self.ws:
                self.last_frame = time.monotonic()
                frame = json.loads(message)
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
        except ConnectionClosed:
            if not self.run.stopping and not self.done.is_set():
                self.run.count_error("connection_closed")
        finally:
            self.done.set()

    async def _on_snapshot(self, frame: dict[str, Any]) -> None:
        now = time.perf_counter()
        ack = frame.get("ack")
        if ack is not None and ack == self.pending_ack:
            self.pending_ack = None
            self.run.stats.acked_total += 1
            if self.run.stats.measuring:
                self.run.stats.acked += 1
                self.run.stats.act_latency.append(now - self.sent_at)
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
        if self.pending_ack is not None or self.thinking or self.run.stopping:
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
        assert self.ws is not None
        action = self.run.rng.choice(snap["legal"])
        self.pending_ack = f"{self.match_id}.{snap.get('seat')}.{next(self._acks)}"
        frame = {"type": "act", "action": action, "version": snap["version"], "ack": self.pending_ack}
        self.sent_at = time.perf_counter()
        try:
            await self.ws.send(json.dumps(frame, separators=(",", ":")))
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
                options = {"turn_seconds": 0, "spectators": True, **self.options.game_options}
                info = await self._post("/api/matches", a, {"game": self.options.game, "options": options})
                match_id = int(info["id"])
                await self._post(f"/api/matches/{match_id}/join", b)
                seats = [Seat(self, a, match_id), Seat(self, b, match_id)]
                opened = await asyncio.gather(*(s.open() for s in seats), return_exceptions=True)
                for outcome in opened:
                    if isinstance(outcome, BaseException):
                        raise outcome
            elapsed = time.perf_counter() - t0
            self.stats.start_latency_all.append(elapsed)
            if self.stats.measuring:
                self.stats.start_latency_window.append(elapsed)
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


async def drive(
    options: Options, base_url: str, server_pids: list[int], server: Server | None = None
) -> dict[str, Any]:
    """Register the pool, run the matches over the window and measure; the server is already up.

    :returns: the report (see :func:`run`), without ``server_log`` and ``prototype``.
    :raises LoadError: sign-up failed, or the server started here died (a ramp that times
        out is counted as the error ``ramp_timeout`` and measured anyway).
    """
    raise_open_files(options.matches * 2)
    load = LoadRun(options, base_url)
    slots: list[asyncio.Task[None]] = []
    try:
        t = time.perf_counter()
        await load.register()
        _log(options, f"registered {len(load.players)} players in {time.perf_counter() - t:.1f} s")
        rss_before = await settled_rss(server_pids) if server_pids else None
        rss_before_by = rss_by_process(server_pids)
        rss_before_listed = rss_kib_listed(server_pids)
        slots = [asyncio.create_task(load.slot(i)) for i in range(options.matches)]
        t = time.perf_counter()
        ramp_complete = True
        try:
            await _wait_alive(load.all_started.wait(), options.ramp_timeout, server)
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
        await _wait_alive(asyncio.sleep(options.warmup), options.warmup + 60, server)
        cpu0_server, cpu0_client, busy0 = cpu_seconds(server_pids), time.process_time(), machine_busy_seconds()
        load.stats.measuring = True
        t0 = time.perf_counter()
        await _wait_alive(asyncio.sleep(options.seconds), options.seconds + 60, server)
        cap = options.max_seconds if options.max_seconds is not None else max(options.seconds * 10, 300.0)
        while load.stats.acked < options.min_actions and time.perf_counter() - t0 < cap:
            await _wait_alive(asyncio.sleep(0.2), 60, server)
        load.stats.measuring = False
        window = time.perf_counter() - t0
        cpu_server = cpu_seconds(server_pids) - cpu0_server if server_pids else None
        cpu_client = time.process_time() - cpu0_client
        busy = machine_busy_seconds() - busy0
        rss_end = rss_kib(server_pids) if server_pids else None
        rss_end_by = rss_by_process(server_pids)
        rss_end_listed = rss_kib_listed(server_pids)
        sockets = load.stats.sockets_open
        _log(options, f"measured {window:.1f} s; closing {sockets} sockets")
    finally:
        await load.stop()
        if slots:
            _done, pending = await asyncio.wait(slots, timeout=60)
            for task in pending:
                task.cancel()
            await asyncio.gather(*slots, return_exceptions=True)
        await load.aclose()
    s = load.stats
    per_socket = _per_socket(rss_before, rss_end, sockets)
    per_socket_listed = _per_socket(rss_before_listed, rss_end_listed, sockets)
    return {
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
        "act_latency_ms": summarize_ms(s.act_latency),
        "match_start_ms": summarize_ms(s.start_latency_all, (0.5, 0.99)),
        "match_start_window_ms": summarize_ms(s.start_latency_window, (0.5, 0.99)),
        "matches_started": s.matches_started,
        "matches_finished": s.matches_finished,
        "matches_finished_window": s.matches_finished_window,
        "errors": dict(sorted(s.errors.items())),
        "server_pids": server_pids,
        "server_rss_kib": {"before": rss_before, "end": rss_end},
        "server_rss_by_process_kib": {"before": rss_before_by, "end": rss_end_by},
        "rss_per_socket_kib": per_socket,
        "server_rss_listed_kib": {"before": rss_before_listed, "end": rss_end_listed},
        "rss_per_socket_listed_kib": per_socket_listed,
        "server_cpu_percent": round(100 * cpu_server / window, 1) if cpu_server is not None and window > 0 else None,
        "client_cpu_percent": round(100 * cpu_client / window, 1) if window > 0 else None,
        "machine_cpu_percent": round(100 * busy / window, 1) if window > 0 else None,
        "cores": os.cpu_count(),
    }


def _per_socket(before: int | None, end: int | None, sockets: int) -> float | None:
    """``(end - before) / sockets`` in KiB, rounded; None when something is missing."""
    if before is None or end is None or not sockets:
        return None
    return round((end - before) / sockets, 1)


async def _wait_alive(awaitable: Any, timeout: float, server: Server | None) -> None:
    """Await ``awaitable`` within ``timeout`` seconds, failing early if ``server`` dies.

    :raises TimeoutError: not done in time. :raises LoadError: ``server_died``.
    """
    task = asyncio.ensure_future(awaitable)
    end = time.monotonic() + timeout
    try:
        while not task.done():
            if server is not None and not server.alive():
                raise LoadError("server_died", server.log()[-3000:])
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


async def run(options: Options) -> dict[str, Any]:
    """The whole run: start the server (unless ``options.url``), drive it, stop it, and run the
    prototype when asked.

    :returns: the report, a JSON-able dict: ``game``, ``matches``, ``think_s``, ``window_s``,
        ``users``, ``sockets`` (open at the end of the window), ``actions`` and ``actions_per_s``
        (acks received in the window), ``act_latency_ms`` ``{"count", "p50", "p90", "p99", "max"}``,
        ``match_start_ms`` (every start, the ramp included) and ``match_start_window_ms`` ``{"count",
        "p50", "p99"}`` (ms), ``matches_started``, ``matches_finished``, ``errors`` ``{code: count}``,
        ``server_rss_kib`` ``{"before", "end"}`` (KiB, None without a process to read),
        ``rss_per_socket_kib``, ``server_cpu_percent``, ``client_cpu_percent`` and
        ``machine_cpu_percent`` (everything on the machine: others' work shows there), in % of one
        core over the window, ``server_log`` (``{"path", "tracebacks", "error_lines", ...}``, when a log is
        known) and ``prototype`` (``{"actions_per_s", "p50_ms", "p99_ms", "line"}`` or
        ``{"error"}``, with ``options.prototype``).
    :raises LoadError: a step failed (see :func:`drive`), or the server did not start.
    """
    server: Server | None = None
    log_path = options.server_log
    try:
        if options.url:
            base_url, pids = options.url, list(options.server_pids)
        else:
            raise_open_files(options.matches * 2)
            _log(options, f"preparing {options.database} (reset={options.reset_database})")
            await prepare_database(options.database, options.reset_database)
            port = free_port()
            if log_path is None:
                log_path = Path(tempfile.mkstemp(prefix="arena-load-", suffix=".log")[1])
            argv = [
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
            server = Server(argv, ROOT, load_env(options.database, options.redis), log_path, port)
            await server.start("/healthz")
            base_url = server.base_url
            pids = [server.pid] if server.pid else []
            _log(options, f"server pid {server.pid} at {base_url}, log {log_path}")
        report = await drive(options, base_url, pids, server)
    finally:
        if server is not None:
            await server.stop()
    if log_path is not None and log_path.exists():
        report["server_log"] = {"path": str(log_path), **scan_log(log_path.read_text(errors="replace"))}
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


def format_report(report: dict[str, Any]) -> str:
    """The report as the table printed at the end of a run (ours, and the prototype beside it)."""
    lat, start, start_w = report["act_latency_ms"], report["match_start_ms"], report["match_start_window_ms"]
    proto = report.get("prototype") or {}
    rss = report["server_rss_kib"]
    proto_kib = proto.get("server_rss_kib_end")
    proto_rss = f"- / {proto_kib / 1024:.1f} MiB" if proto_kib else "-"
    mib = {k: (v / 1024 if v is not None else None) for k, v in rss.items()}
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
        ("server CPU (% of a core)", _fmt(report["server_cpu_percent"], " %"), "-"),
        ("load client CPU (% of a core)", _fmt(report["client_cpu_percent"], " %"), "-"),
        (f"machine CPU busy (of {report['cores']} cores)", _fmt(report["machine_cpu_percent"], " %"), "-"),
        ("errors", ", ".join(f"{k}={v}" for k, v in report["errors"].items()) or "none", "-"),
    ]
    title = (
        f"{report['game']} {json.dumps(report['game_options']) if report['game_options'] else ''}".strip()
        + f": {report['matches']} matches, think {report['think_s']:g} s, {report['users']} players, "
        f"window {report['window_s']:.1f} s after {report['warmup_s']:g} s warm-up"
    )
    widths = (34, 26, 16)
    lines = [
        title,
        "  ".join(h.ljust(w) for h, w in zip(("measure", "Tabletop Arena", "prototype"), widths, strict=True)),
    ]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip() for row in rows]
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
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run from the command line; print the table (errors seen are in it). :returns: 0, or 1 when
    the run itself failed (server would not start or died, sign-ups refused)."""
    options = parse_args(argv)
    try:
        report = asyncio.run(run(options))
    except (LoadError, ValueError) as exc:
        print(f"load run failed: {exc}"[:5000], file=sys.stderr)
        return 1
    print(format_report(report))
    if options.json_path is not None:
        options.json_path.write_text(json.dumps(report, indent=2, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
