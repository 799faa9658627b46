"""The reverse proxy's routing (``deploy/nginx.conf``), through a real nginx.

Everything that touches one match (its websockets and every request under
``/api/matches/<id>/``) must reach one process, the one that caches the match
(``app/matches/live.py``); other requests are spread over the processes. Two stand-in upstreams
answer with their own port, so the test sees where nginx sent each request. nginx is required in
CI (``.ci/run`` installs it) and skipped elsewhere when it is missing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bench.load import free_port, nginx_config

NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


class _Upstream(BaseHTTPRequestHandler):
    """Answers any method and path with the port it listens on."""

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        body = str(self.server.server_address[1]).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = _answer

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if NGINX is None:
        if os.environ.get("CI"):
            pytest.fail("nginx is required in CI (apt-get install -y nginx)")
        pytest.skip("nginx is not installed")
    upstreams = [ThreadingHTTPServer(("127.0.0.1", 0), _Upstream) for _ in range(2)]
    for server in upstreams:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    d = tmp_path_factory.mktemp("nginx")
    d.chmod(0o755)
    port = free_port()
    conf = d / "nginx.conf"
    conf.write_text(nginx_config(d, port, [s.server_address[1] for s in upstreams], 1024))
    argv = [NGINX, "-p", str(d), "-c", str(conf), "-e", str(d / "error.log"), "-g", "daemon off;"]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{base}/healthz", timeout=5).read()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    log = (d / "error.log").read_text() if (d / "error.log").exists() else ""
                    pytest.fail(f"nginx did not start: {log[-2000:]}")
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=20)
        for server in upstreams:
            server.shutdown()


def _upstream(base: str, path: str, method: str = "GET") -> str:
    data = b"{}" if method == "POST" else None
    request = urllib.request.Request(base + path, data=data, method=method)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return str(answer.read().decode())


def test_a_matchs_requests_and_sockets_reach_one_process(proxy: str) -> None:
    owners = set()
    for match_id in range(1, 41):
        reached = {
            _upstream(proxy, f"/ws/matches/{match_id}"),
            _upstream(proxy, f"/api/matches/{match_id}/join", "POST"),
            _upstream(proxy, f"/api/matches/{match_id}/cancel", "POST"),
            _upstream(proxy, f"/api/matches/{match_id}/snapshot?since=3"),
            _upstream(proxy, f"/api/matches/{match_id}"),
        }
        assert len(reached) == 1, f"match {match_id} reached {reached}"
        owners |= reached
    assert len(owners) == 2  # and the matches are spread over both processes


def test_other_requests_are_spread(proxy: str) -> None:
    reached = {_upstream(proxy, "/api/matches", "POST") for _ in range(40)}
    reached |= {_upstream(proxy, "/api/matches/live") for _ in range(40)}
    assert len(reached) == 2
    # a path that only starts like a match's is not pinned to one process
    assert len({_upstream(proxy, "/api/matches/12x/join", "POST") for _ in range(40)}) == 2
