"""The server process tunes Python's garbage collector once it has started (``app/runtime.py``)."""

from __future__ import annotations

import gc

import pytest
import structlog
from fastapi.testclient import TestClient

from app import runtime
from app.main import create_app
from tests.conftest import make_settings


@pytest.fixture
def fresh_log(monkeypatch):
    """A logger for app.runtime that binds on its first use, so that ``capture_logs`` sees what it
    logs: the module's own logger may already be bound to the console (an app started earlier in
    this process logged a stall or a pause, and structlog caches the logger on first use)."""
    monkeypatch.setattr(runtime, "log", structlog.get_logger("app.runtime"))


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


def test_a_long_collection_is_logged(monkeypatch, fresh_log):
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


def test_a_blocked_event_loop_is_reported_as_a_stall_and_a_quiet_one_is_not():
    import asyncio
    import time

    async def main() -> tuple[list[float], list[float]]:
        quiet: list[float] = []
        watch = asyncio.create_task(runtime.watch_loop(quiet.append, tick=0.01, slow=0.5))
        await asyncio.sleep(0.2)  # the loop is free: no wake-up is half a second late
        watch.cancel()
        blocked: list[float] = []
        watch = asyncio.create_task(runtime.watch_loop(blocked.append, tick=0.01, slow=0.05))
        await asyncio.sleep(0.05)
        time.sleep(0.3)  # a callback that holds the loop
        await asyncio.sleep(0.05)
        watch.cancel()
        await asyncio.gather(watch, return_exceptions=True)
        return quiet, blocked

    quiet, blocked = asyncio.run(main())
    assert quiet == []
    assert len(blocked) == 1 and 0.2 <= blocked[0] < 5.0


def test_a_stall_is_logged_with_how_late_the_loop_woke(fresh_log):
    with structlog.testing.capture_logs() as logs:
        runtime.log_stall(0.1234)
    assert logs == [{"event": "loop_stall", "ms": 123.4, "log_level": "warning"}]


def test_the_served_app_watches_its_loop_while_it_runs(sqlite_url, monkeypatch):
    import asyncio

    seen: list[object] = []
    real = runtime.watch_loop

    async def spy(*args: object, **kwargs: object) -> None:
        seen.append("started")
        try:
            await real(*args, **kwargs)  # type: ignore[arg-type]
        except asyncio.CancelledError:
            seen.append("cancelled")
            raise

    monkeypatch.setattr("app.main.watch_loop", spy)
    with TestClient(create_app(make_settings(sqlite_url))) as client:
        assert client.get("/healthz").status_code == 200
        assert seen == ["started"]
    assert seen == ["started", "cancelled"]
