"""The server process tunes Python's garbage collector once it has started (``app/runtime.py``)."""

from __future__ import annotations

import gc

from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import make_settings


def test_a_started_app_freezes_its_heap_and_raises_the_young_threshold(sqlite_url):
    before = gc.get_threshold()
    try:
        with TestClient(create_app(make_settings(sqlite_url, gc_young_threshold=12_345))) as client:
            assert client.get("/healthz").status_code == 200
            assert gc.get_threshold() == (12_345, before[1], before[2])
            assert gc.get_freeze_count() > 0
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()


def test_zero_leaves_the_collector_alone(sqlite_url):
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    with TestClient(create_app(make_settings(sqlite_url))) as client:
        assert client.get("/healthz").status_code == 200
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == frozen
