"""The server process tunes Python's garbage collector once it has started (``app/runtime.py``)."""

from __future__ import annotations

import gc

from fastapi.testclient import TestClient

from app import runtime
from app.main import create_app
from tests.conftest import make_settings


def _unwatch() -> None:
    """Take the pause logger out of this test process's collector again."""
    while runtime._time_collections in gc.callbacks:
        gc.callbacks.remove(runtime._time_collections)


def test_a_started_app_freezes_its_heap_and_raises_the_young_threshold(sqlite_url):
    before = gc.get_threshold()
    try:
        with TestClient(create_app(make_settings(sqlite_url, gc_young_threshold=12_345))) as client:
            assert client.get("/healthz").status_code == 200
            assert gc.get_threshold() == (12_345, before[1], before[2])
            assert gc.get_freeze_count() > 0
            assert runtime._time_collections in gc.callbacks  # long pauses are logged
    finally:
        gc.set_threshold(*before)
        gc.unfreeze()
        _unwatch()


def test_zero_leaves_the_collector_alone(sqlite_url):
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    with TestClient(create_app(make_settings(sqlite_url))) as client:
        assert client.get("/healthz").status_code == 200
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == frozen
    assert runtime._time_collections not in gc.callbacks


def test_a_long_collection_is_logged(monkeypatch):
    import structlog

    try:
        runtime.watch_collections()
        runtime.watch_collections()
        assert gc.callbacks.count(runtime._time_collections) == 1  # once, however often it is called
        monkeypatch.setattr(runtime, "SLOW_COLLECTION_SECONDS", 0.0)  # every collection is "long"
        with structlog.testing.capture_logs() as logs:
            gc.collect(1)
        pauses = [entry for entry in logs if entry["event"] == "gc_pause"]
        assert pauses and pauses[-1]["generation"] == 1 and pauses[-1]["ms"] >= 0
        monkeypatch.setattr(runtime, "SLOW_COLLECTION_SECONDS", 3600.0)
        with structlog.testing.capture_logs() as logs:
            gc.collect(1)
        assert not [entry for entry in logs if entry["event"] == "gc_pause"]
    finally:
        _unwatch()
