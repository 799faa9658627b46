"""Real server processes for tests: uvicorn on a free port, started, killed and restarted."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env(database_url: str, **extra: str) -> dict[str, str]:
    """Environment for a test server on ``database_url`` (fast bots and clock sweeps)."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "ENV": "test",
        "SECRET_KEY": "process-test-secret-" + "x" * 32,
        "BOT_DELAY_SECONDS": "0.1",
        "CLOCK_TICK_SECONDS": "0.1",
        "LOGIN_RATE_LIMIT": "1000/minute",
        "REGISTER_RATE_LIMIT": "1000/minute",
        "WS_RATE_LIMIT": "1000/second",
        "WS_USER_RATE_LIMIT": "1000/second",
        "WS_ADDRESS_RATE_LIMIT": "1000/second",
        "PYTHONUNBUFFERED": "1",  # every log line reaches the file even if the process is killed
    }
    env.pop("REDIS_URL", None)
    env.update(extra)
    return env


def migrate(env: dict[str, str]) -> None:
    """``alembic upgrade head`` on the environment's ``DATABASE_URL``."""
    subprocess.run(
        [sys.executable, "-m", "alembic", "upgrade", "head"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )


class ServerProcess:
    """``uvicorn app.main:create_app`` in a child process, logging to ``log_path``.

    :param env: the child's environment (see :func:`server_env`).
    """

    def __init__(self, env: dict[str, str], log_path: Path, port: int | None = None) -> None:
        self.env, self.log_path = env, log_path
        self.port = port or free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 30) -> ServerProcess:
        """Start and wait until ``/healthz`` answers.

        :raises RuntimeError: the process exited or did not answer in time (its log attached).
        """
        log = open(self.log_path, "ab")  # noqa: SIM115 (the child keeps it; closed here once passed on)
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "--factory",
                "app.main:create_app",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.base_url + "/healthz", timeout=1) as resp:
                    if resp.status == 200:
                        return self
            except OSError:
                pass
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"server did not answer in {timeout} s:\n{self.log()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers run, as when a machine dies."""
        if self.proc and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM, then SIGKILL if it lingers."""
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self) -> str:
        """Everything the process printed so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
