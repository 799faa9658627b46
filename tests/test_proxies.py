"""Trusted proxies only: the client address comes from ``X-Forwarded-For`` only when the direct
peer is one of ``settings.trusted_proxies`` (empty by default), so a changed header from anyone
else cannot reset the per-address limits; and the Dockerfile's server trusts nobody by itself."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import httpx
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import _create_schema, make_settings, run
from tests.servers import ROOT, free_port, server_env

LIMIT = 3


def _attempt(client, i, **headers):
    """One failed log-in for a new name, sent as if from ``203.0.113.<i>``."""
    r = client.post(
        "/api/auth/login",
        json={"name": f"nobody{i}", "password": "wrong password"},
        headers={"X-Forwarded-For": f"203.0.113.{i}", **headers},
    )
    assert r.status_code in (401, 429), r.text
    return r.status_code


def test_forwarded_for_from_an_untrusted_peer_does_not_reset_the_login_limit(sqlite_url):
    settings = make_settings(sqlite_url, login_rate_limit=f"{LIMIT}/minute", trusted_proxies="10.0.0.1")
    with TestClient(create_app(settings), client=("198.51.100.7", 5000)) as client:
        assert [_attempt(client, i) for i in range(LIMIT + 2)] == [401] * LIMIT + [429, 429]


def test_forwarded_for_from_a_trusted_proxy_names_the_client(sqlite_url):
    settings = make_settings(sqlite_url, login_rate_limit=f"{LIMIT}/minute", trusted_proxies="10.0.0.0/8, ::1")
    with TestClient(create_app(settings), client=("10.0.0.1", 5000)) as proxy:
        # each client behind the proxy has its own budget ...
        assert [_attempt(proxy, i) for i in range(LIMIT + 2)] == [401] * (LIMIT + 2)
        # ... and one client is limited whatever the proxy's own address
        assert [_attempt(proxy, 99) for _ in range(LIMIT + 1)][-1] == 429


def _dockerfile_server_args() -> tuple[list[str], int]:
    """The Dockerfile's ``CMD`` (uvicorn's arguments), listening on a free local port instead."""
    line = next(ln for ln in (ROOT / "Dockerfile").read_text().splitlines() if ln.startswith("CMD "))
    args: list[str] = json.loads(line[4:])
    assert args[0] == "uvicorn"
    args = args[1:]
    args[args.index("--host") + 1] = "127.0.0.1"
    port = free_port()
    args[args.index("--port") + 1] = str(port)
    return [*args, "--log-level", "warning"], port


@pytest.mark.slow
def test_the_dockerfile_server_ignores_forwarded_for_from_its_peers(tmp_path):
    """Started with the Dockerfile's flags and no ``TRUSTED_PROXIES``, a server believes no
    ``X-Forwarded-For``: a client that changes it on every attempt is still limited."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'proxy.db'}"
    run(_create_schema(url))
    args, port = _dockerfile_server_args()
    env = server_env(url, LOGIN_RATE_LIMIT=f"{LIMIT}/minute", ENV="test")
    env.pop("TRUSTED_PROXIES", None)
    env.pop("FORWARDED_ALLOW_IPS", None)
    with open(tmp_path / "server.log", "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", *args], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            for _ in range(600):  # wait until it answers (at most ~30 s)
                assert proc.poll() is None, (tmp_path / "server.log").read_text()
                try:
                    if client.get("/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.05)  # polling until the server answers
            codes = [_attempt(client, i) for i in range(LIMIT + 2)]
        assert codes == [401] * LIMIT + [429, 429], (tmp_path / "server.log").read_text()
    finally:
        proc.terminate()
        proc.wait(10)


def test_compose_publishes_only_the_reverse_proxy_and_the_app_trusts_only_it():
    import yaml

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"proxy"}
    proxy_address = services["proxy"]["networks"]["default"]["ipv4_address"]
    assert services["app"]["environment"]["TRUSTED_PROXIES"] == proxy_address
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in nginx  # set, never appended to
    assert "proxy_set_header Upgrade $http_upgrade;" in nginx and "$connection_upgrade" in nginx
    assert "proxy_set_header Host $http_host;" in nginx
