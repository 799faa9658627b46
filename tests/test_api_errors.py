"""Every /api failure is a JSON error body with a stable code."""

from __future__ import annotations

from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import make_settings


def test_unexpected_errors_are_json(sqlite_url):
    app = create_app(make_settings(sqlite_url))

    @app.get("/api/boom")
    async def boom() -> None:
        raise RuntimeError("kaput")

    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/api/boom")
        assert r.status_code == 500 and r.json()["error"]["code"] == "internal_error"
        assert "kaput" not in r.text
        r = c.get("/api/matches/notanumber")
        assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error"
        r = c.get("/api/games/chess")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
        r = c.post("/api/matches", json={"game": "battle_runes"})
        assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
        assert c.get("/api/games").json()["games"][0]["id"]
        assert c.get("/healthz").json() == {"status": "ok"}
