"""No sends on closed sockets: clients that vanish while the server still owes them snapshots
(their own ``hello`` answers, and pushes of a match that keeps changing) leave no traceback
("Cannot call send once a close message has been sent") in the server log."""

from __future__ import annotations

import contextlib
import socket
import threading

import httpx
import pytest
from websockets.sync.client import connect

from tests.conftest import _create_schema, run
from tests.servers import ServerProcess, server_env

PASSWORD = "correct horse 1"


def _bearer(client: httpx.Client, name: str) -> dict[str, str]:
    assert client.post("/api/auth/register", json={"name": name, "password": PASSWORD}).status_code == 201
    r = client.post("/api/auth/token", json={"name": name, "password": PASSWORD})
    client.cookies.clear()
    return {"Authorization": f"Bearer {r.json()['token']}"}


def _keep_playing(base_url: str, match_id: int, seats: list[dict[str, str]], stop: threading.Event) -> None:
    """Both players act over HTTP until ``stop``: a stream of updates the sockets must push."""
    with httpx.Client(base_url=base_url, timeout=30) as client:
        while not stop.is_set():
            for headers in seats:
                snap = client.get(f"/api/matches/{match_id}/snapshot", headers=headers).json()
                if snap["status"] != "active":
                    return
                if snap["legal"]:
                    client.post(
                        f"/api/matches/{match_id}/act",
                        headers=headers,
                        json={"action": snap["legal"][0], "version": snap["version"]},
                    )


@pytest.mark.slow
def test_clients_that_vanish_during_a_burst_leave_no_tracebacks(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'burst.db'}"
    run(_create_schema(url))
    server = ServerProcess(server_env(url), tmp_path / "server.log").start()
    stop = threading.Event()
    try:
        with httpx.Client(base_url=server.base_url, timeout=30) as client:
            a, b = _bearer(client, "alice"), _bearer(client, "bobby")
            options = {"turn_seconds": 120, "start_score": 5_000, "win_score": 10_000}
            r = client.post("/api/matches", json={"game": "battle_runes", "options": options}, headers=a)
            match_id = r.json()["id"]
            assert client.post(f"/api/matches/{match_id}/join", headers=b).status_code == 200
        player = threading.Thread(target=_keep_playing, args=(server.base_url, match_id, [a, b], stop))
        player.start()
        for _round in range(12):
            with contextlib.suppress(OSError), connect(f"{server.ws_url}/ws/matches/{match_id}") as ws:
                for _ in range(40):  # a burst of snapshots owed to this client ...
                    ws.send('{"type": "hello", "since": 0}')
                ws.recv(timeout=30)  # ... the server is sending them ...
                ws.socket.shutdown(socket.SHUT_RDWR)  # ... when the client vanishes without a close frame
                ws.socket.close()
        stop.set()
        player.join(60)
        with connect(f"{server.ws_url}/ws/matches/{match_id}", additional_headers=b) as ws:
            ws.send('{"type": "ping"}')
            assert '"pong"' in ws.recv(timeout=30)  # the server still serves
    finally:
        stop.set()
        server.stop()  # graceful: every connection's handler has finished before it exits
    log = server.log()
    assert "Cannot call" not in log and "Traceback" not in log, log[-4000:]
