"""Throwaway PostgreSQL and Redis servers for a test session on a machine where none answers (a
fresh Debian machine with the packages installed but no service started): started from the
installed server binaries in a temporary directory on a free port, and stopped (their files
removed) when the session ends. :mod:`tests.conftest` starts them on first need, never in CI,
where the running servers are required.

PostgreSQL: ``initdb`` and ``pg_ctl`` from ``PATH`` or ``/usr/lib/postgresql/<version>/bin``
(Debian's ``postgresql`` package), trust authentication for ``postgres``, listening on
127.0.0.1 only, ``fsync`` off. The server refuses to run as root, so as root it runs as the
``postgres`` system user the package creates. Redis: ``redis-server --port N --save ''``, in
memory only.

Why not pytest-postgresql's ``PostgreSQLExecutor``: it runs ``pg_ctl`` as the calling user, and
our CI and developer machines run the tests as root, which PostgreSQL refuses.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

#: seconds a server may take to answer after its start (the 2-core machines are shared)
START_TIMEOUT = 90


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def answers(host: str, port: int, timeout: float = 1.0) -> bool:
    """Whether something accepts TCP connections at ``host:port``."""
    try:
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError:
        return False
    return True


def postgres_bin() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl`` (the newest installed version), or ``None``."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(os.path.realpath(found)).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name or 0))
    for directory in reversed(versions):
        if (Path(directory) / "initdb").exists() and (Path(directory) / "pg_ctl").exists():
            return Path(directory)
    return None


def redis_bin() -> Path | None:
    """``redis-server``, or ``None`` when it is not installed."""
    found = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None
    )
    return Path(found) if found else None


class ThrowawayError(RuntimeError):
    """A throwaway server could not be started (the message says why, with its log)."""


@dataclass
class Throwaway:
    """The session's throwaway servers: each started at most once, on first :meth:`postgres` /
    :meth:`redis`, and all stopped by :meth:`stop`.

    :ivar notes: one phrase per server started ("PostgreSQL 15 on 127.0.0.1:41234"), for the
        run's summary.
    """

    notes: list[str] = field(default_factory=list)
    _pg_dir: Path | None = None
    _pg_ctl: Path | None = None
    _pg_url: str | None = None
    _pg_user: str | None = None
    _redis: subprocess.Popen[bytes] | None = None
    _redis_dir: Path | None = None
    _redis_url: str | None = None
    _failed: dict[str, str] = field(default_factory=dict)

    # ------------------------------------------------------------------ PostgreSQL

    def postgres(self) -> str:
        """The admin URL (``postgresql+asyncpg://postgres@127.0.0.1:PORT/postgres``) of the
        session's throwaway PostgreSQL, started now if it is not running yet.

        :raises ThrowawayError: no binaries, no ``postgres`` user to run as root, or the server
            did not start (the same error again on later calls, without a second try).
        """
        if self._pg_url:
            return self._pg_url
        if "postgres" in self._failed:
            raise ThrowawayError(self._failed["postgres"])
        try:
            self._pg_url = self._start_postgres()
        except ThrowawayError as exc:
            self._failed["postgres"] = str(exc)
            raise
        return self._pg_url

    def _as_user(self) -> str | None:
        """The user to run PostgreSQL as: ``postgres`` when we are root, else ourselves (None)."""
        if os.geteuid() != 0:
            return None
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            raise ThrowawayError("PostgreSQL refuses to run as root and there is no 'postgres' user") from None
        return "postgres"

    def _run_pg(self, *args: str | Path) -> None:
        try:
            subprocess.run(
                [str(a) for a in args],
                check=True,
                capture_output=True,
                timeout=START_TIMEOUT,
                user=self._pg_user,
                cwd=self._pg_dir,  # a directory the server's user may enter
            )
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
            output = getattr(exc, "stderr", b"") or b""
            raise ThrowawayError(
                f"{Path(str(args[0])).name} failed: {exc}\n{output.decode(errors='replace')}"
            ) from None

    def _start_postgres(self) -> str:
        bin_dir = postgres_bin()
        if bin_dir is None:
            raise ThrowawayError("no initdb/pg_ctl installed (apt-get install postgresql)")
        self._pg_user = self._as_user()
        self._pg_dir = Path(tempfile.mkdtemp(prefix="arena-test-pg-"))
        if self._pg_user:
            entry = pwd.getpwnam(self._pg_user)
            os.chown(self._pg_dir, entry.pw_uid, entry.pw_gid)
        data = self._pg_dir / "data"
        self._run_pg(bin_dir / "initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        port = free_port()
        options = (
            f"-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self._pg_dir} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._pg_ctl = bin_dir / "pg_ctl"
        try:
            self._run_pg(
                self._pg_ctl,
                "-D",
                data,
                "-l",
                self._pg_dir / "server.log",
                "-o",
                options,
                "-w",
                "-t",
                str(START_TIMEOUT),
                "start",
            )
        except ThrowawayError as exc:
            log = self._pg_dir / "server.log"
            raise ThrowawayError(f"{exc}\n{log.read_text(errors='replace') if log.exists() else ''}") from None
        version = bin_dir.parent.name if bin_dir.parent.name.isdigit() else ""
        self.notes.append(f"PostgreSQL {version} on 127.0.0.1:{port}".replace("  ", " "))
        return f"postgresql+asyncpg://postgres@127.0.0.1:{port}/postgres"

    # ------------------------------------------------------------------ Redis

    def redis(self) -> str:
        """The URL (``redis://127.0.0.1:PORT``, no database number) of the session's throwaway
        Redis, started now if it is not running yet.

        :raises ThrowawayError: no ``redis-server`` or it did not answer.
        """
        if self._redis_url:
            return self._redis_url
        if "redis" in self._failed:
            raise ThrowawayError(self._failed["redis"])
        try:
            self._redis_url = self._start_redis()
        except ThrowawayError as exc:
            self._failed["redis"] = str(exc)
            raise
        return self._redis_url

    def _start_redis(self) -> str:
        server = redis_bin()
        if server is None:
            raise ThrowawayError("no redis-server installed (apt-get install redis-server)")
        self._redis_dir = Path(tempfile.mkdtemp(prefix="arena-test-redis-"))
        port = free_port()
        command = [str(server), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        command += ["--dir", str(self._redis_dir), "--databases", "16"]  # in memory only
        log = open(self._redis_dir / "server.log", "wb")  # noqa: SIM115 (the child keeps it)
        self._redis = subprocess.Popen(
            command,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        end = time.monotonic() + START_TIMEOUT
        while time.monotonic() < end:
            if self._redis.poll() is not None:
                text = (self._redis_dir / "server.log").read_text(errors="replace")
                raise ThrowawayError(f"redis-server exited with {self._redis.returncode}:\n{text}")
            if answers("127.0.0.1", port, timeout=0.2):
                self.notes.append(f"Redis on 127.0.0.1:{port}")
                return f"redis://127.0.0.1:{port}"
            time.sleep(0.05)
        raise ThrowawayError(f"redis-server did not answer on port {port} in {START_TIMEOUT} s")

    # ------------------------------------------------------------------ the end

    def stop(self) -> None:
        """Stop whatever was started and remove its files (safe to call twice)."""
        if self._pg_dir is not None:
            if self._pg_url and self._pg_ctl is not None:
                with contextlib.suppress(ThrowawayError):
                    self._run_pg(self._pg_ctl, "-D", self._pg_dir / "data", "-m", "immediate", "-w", "stop")
            shutil.rmtree(self._pg_dir, ignore_errors=True)
            self._pg_dir = self._pg_url = None
        if self._redis is not None:
            if self._redis.poll() is None:
                self._redis.terminate()
                try:
                    self._redis.wait(10)
                except subprocess.TimeoutExpired:
                    self._redis.kill()
                    self._redis.wait(10)
            self._redis = self._redis_url = None
        if self._redis_dir is not None:
            shutil.rmtree(self._redis_dir, ignore_errors=True)
            self._redis_dir = None
