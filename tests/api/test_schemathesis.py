"""The OpenAPI document says what the server does: schemathesis, all checks, every phase.

A live server (SQLite, its own process) is fuzzed by the ``st`` command with a bearer token:
examples, coverage, fuzzing and the stateful phase (chains of calls that follow the document's
links), with every check. Two operations are left out, as the issue says: revoking the token and
logging out would end the very credential the run uses. The run is seeded and bounded
(``MAX_EXAMPLES`` per operation), so it is repeatable and takes well under two minutes.

Every check runs (schemathesis's default), with one adjustment (:mod:`tests.api.schemathesis_hooks`):
on the operations whose document
lists ``x-unstated-rule-codes``, the built-in ``positive_data_acceptance`` is replaced by a
stricter-named twin that also lets a schema-valid request be refused with exactly those codes
(a rule across fields that JSON Schema cannot state, said in the operation's description).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.servers import ServerProcess, migrate, server_env

pytestmark = pytest.mark.slow

#: generated cases per operation and phase (the run stays well under two minutes on 2 cores)
MAX_EXAMPLES = 25
#: the seed of every run: CI repeats the same cases
SEED = 20261130
#: the operations a run with one token must not call: they end that token
EXCLUDED = ("logout_api_auth_logout_post", "revoke_token_api_auth_token_delete")
ST = Path(sys.executable).with_name("st")


@pytest.fixture
def server(tmp_path):
    """A fresh server on SQLite, and a bearer token of a new account on it."""
    # the fuzzer creates many matches and decks: limits high enough that creating still works
    # late in the run (the 429s are documented and allowed; they only hide the later operations);
    # the computer seats of the fuzzer's matches play slowly, so the run's CPU goes to requests
    limits = {
        "MAX_OPEN_MATCHES": "1000",
        "MAX_DECKS_PER_USER": "1000",
        "BOT_DELAY_SECONDS": "5",
        "CLOCK_TICK_SECONDS": "1",
    }
    env = server_env(f"sqlite+aiosqlite:///{tmp_path / 'fuzz.db'}", BOT_POOL="thread", **limits)
    migrate(env)
    srv = ServerProcess(env, tmp_path / "server.log").start()
    try:
        with httpx.Client(base_url=srv.base_url) as c:
            assert (
                c.post("/api/auth/register", json={"name": "fuzzer", "password": "fuzz fuzz fuzz"}).status_code == 201
            )
            token = c.post("/api/auth/token", json={"name": "fuzzer", "password": "fuzz fuzz fuzz"}).json()["token"]
            document = c.get("/api/openapi.json").json()
        yield srv, token, document
    finally:
        srv.stop()


def config(document: dict, tmp_path: Path) -> Path:
    """The schemathesis configuration file for ``document``."""
    unstated = [
        op["operationId"]
        for item in document["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and op.get("x-unstated-rule-codes")
    ]
    assert unstated, "the document names no operation with unstated rules; the hooks check nothing"
    lines = [
        f"seed = {SEED}",
        "max-stream-events = 2",  # GET /api/matches/{id}/stream: read two events, then hang up
        "[generation]",
        f"max-examples = {MAX_EXAMPLES}",
        "[phases.stateful]",
        "max-steps = 12",
        "[[operations]]",
        f"include-operation-id = {json.dumps(list(EXCLUDED))}",
        "enabled = false",
        "[[operations]]",
        f"include-operation-id = {json.dumps(unstated)}",
        "checks.positive_data_acceptance.enabled = false",
    ]
    path = tmp_path / "schemathesis.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_schemathesis_finds_nothing(server, tmp_path):
    srv, token, document = server
    env = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": "tests.api.schemathesis_hooks",
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }
    cmd = [
        str(ST),
        "--config-file",
        str(config(document, tmp_path)),
        "run",
        f"{srv.base_url}/api/openapi.json",
        # every check runs: schemathesis 4 enables all of them (and the hooks' check) by default;
        # `--checks all` would also re-enable positive_data_acceptance where the file turns it off
        "--header",
        f"Authorization: Bearer {token}",
        "--workers",
        "1",
        "--no-color",
    ]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out[-20000:]
    # the run really ran: every phase, every operation but the excluded, and our check among the checks
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅ {phase}" in out, out[-5000:]
    assert f"Selected: {sum(len(v) for v in document['paths'].values()) - len(EXCLUDED)}/" in out, out[-5000:]
    counted = re.search(r"(\d+) generated, (\d+) passed", out)
    assert counted and counted[1] == counted[2] and int(counted[1]) > 1000, out[-5000:]
    assert "failure" not in out.lower() and "errors" not in out.lower(), out[-5000:]
