"""The load tool (``bench/load.py``, ``make loadtest``) plays matches over the public protocol
against a real server and reports what it measured."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bench.load import Options, check_loopback, format_report, parse_args, run, run_loop
from tests.servers import ServerProcess, migrate, server_env


def test_only_the_loopback_is_targeted() -> None:
    assert check_loopback("http://127.0.0.1:8000") == "127.0.0.1"
    assert check_loopback("http://localhost:8000") == "localhost"
    assert check_loopback("http://[::1]:8000") == "::1"
    for url in ("http://10.0.0.5:8000", "http://example.com", "http://0.0.0.0:8000"):
        with pytest.raises(ValueError, match="only the loopback"):
            check_loopback(url)
    with pytest.raises(SystemExit):
        parse_args(["--url", "http://192.168.1.2:8000"])


def test_pool_size_follows_the_matches() -> None:
    assert parse_args(["--matches", "3"]).pool_size == 6
    assert parse_args(["--matches", "1000"]).pool_size == 200
    assert parse_args(["--matches", "1000", "--users", "50"]).pool_size == 50


@pytest.mark.slow
def test_two_matches_are_played_and_measured(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'load.db'}"
    env = server_env(url)
    migrate(env)
    server = ServerProcess(env, tmp_path / "server.log").start(timeout=120)
    assert server.proc is not None
    options = Options(
        game="stratego_junior",  # long matches: the sockets are open when the window closes
        matches=2,
        seconds=2,
        warmup=0.5,
        min_actions=10,  # the window lasts until 10 acts are acked (at most max_seconds)
        max_seconds=180,
        ramp_timeout=180,
        url=server.base_url,
        server_pids=[server.proc.pid],
        server_log=server.log_path,
        seed=7,
        quiet=True,
    )
    try:
        report = asyncio.run(run(options))
    finally:
        server.stop()
    table = format_report(report)
    assert report["actions"] >= 10, table
    assert report["actions_per_s"] > 0, table
    assert report["errors"] == {}, table
    latency = report["act_latency_ms"]
    assert latency["count"] == report["actions"]
    assert all(latency[k] > 0 for k in ("p50", "p90", "p99", "max")), table
    assert latency["p50"] <= latency["p90"] <= latency["p99"] <= latency["max"]
    starts = report["match_start_ms"]
    assert starts["count"] >= 2 and starts["p50"] > 0 and starts["p99"] >= starts["p50"], table
    assert report["matches_started"] >= 2
    assert report["sockets"] <= 4, table  # a short match may be between its end and its replacement
    assert report["server_rss_kib"]["before"] > 0 and report["server_rss_kib"]["end"] > 0, table
    assert report["rss_per_socket_kib"] is not None or report["sockets"] == 0, table
    assert report["server_log"]["tracebacks"] == 0, report["server_log"]["first_traceback"]
    assert set(report["server_log"]["stalls"]) == {"gc_pause", "loop_stall"}, table
    assert report["client_loop_stalls"]["count"] >= 0 and "load client loop stalls" in table
    # each start in the window is split into its steps, one sample per step per start
    window_starts = report["match_start_window_ms"]["count"]
    steps = report["match_start_steps_window_ms"]
    assert set(steps) == ({"queued", "create", "join", "open"} if window_starts else set()), table
    assert all(st["count"] == window_starts for st in steps.values()), table
    # the start probe, a process of its own, started matches over the window and timed their steps
    probed = report["start_probe"]
    assert probed is not None and probed["errors"] == {} and probed["count"] >= 1, table
    assert all(probed[f"{step}_ms"]["count"] == probed["count"] for step in ("create", "join", "open", "start"))
    assert all(probed[f"{step}_ms"]["p50"] > 0 for step in ("create", "join", "open")), table
    assert probed["start_ms"]["max"] >= probed["create_ms"]["max"], table
    assert f"probe start p50/p99 ({probed['count']})" in table


def test_the_client_runs_on_uvloop_as_the_server_does():
    async def loop_module() -> str:
        return type(asyncio.get_running_loop()).__module__

    assert run_loop(loop_module()).startswith("uvloop")


def test_the_client_times_its_own_collections_only_in_the_window_and_restores_the_collector():
    import gc

    from bench.load import ClientPauses

    before = gc.get_threshold()
    pauses = ClientPauses()
    pauses.tune()
    try:
        assert gc.get_threshold()[0] == 10_000 and pauses in gc.callbacks
        assert gc.get_freeze_count() > 0 and not gc.isenabled()  # no automatic collection in the window
        pauses("start", {})
        pauses("stop", {})  # outside the window: not counted
        pauses.measuring = True
        pauses.SLOW = 3600.0  # no collection is that slow
        gc.collect()
        assert pauses.total > 0 and pauses.pauses == 0
        pauses.SLOW = 0.0  # every collection counts as a pause
        gc.collect()
        assert pauses.pauses == 1 and pauses.longest > 0
        assert pauses.report()["pauses"] == 1
    finally:
        pauses.untune()
    assert gc.get_threshold() == before and pauses not in gc.callbacks and gc.get_freeze_count() == 0
    assert gc.isenabled()


def test_the_servers_stalls_are_counted_inside_the_window_only():
    from datetime import UTC, datetime

    from bench.load import merge_logs, scan_log

    log = "\n".join(
        [
            "2026-12-06T03:00:00.100000Z [warning  ] loop_stall                     ms=400.0",  # before the window
            "2026-12-06T03:00:01.000000Z [warning  ] gc_pause                       collected=3 generation=2 ms=120.5",
            "2026-12-06T03:00:02.000000Z [warning  ] loop_stall                     ms=61.0",
            '{"ms": 75.5, "event": "loop_stall", "log_level": "warning", "timestamp": "2026-12-06T03:00:03.5Z"}',
            "2026-12-06T03:00:09.000000Z [warning  ] loop_stall                     ms=999.0",  # after it
            "2026-12-06T03:00:02.500000Z [info     ] match_started                  ms=12",  # not a stall
        ]
    )
    window = (datetime(2026, 12, 6, 3, 0, 0, 500000, tzinfo=UTC), datetime(2026, 12, 6, 3, 0, 5, tzinfo=UTC))
    scan = scan_log(log, window)
    assert scan["stalls"] == {
        "gc_pause": {"count": 1, "longest_ms": 120.5, "total_ms": 120.5},
        "loop_stall": {"count": 2, "longest_ms": 75.5, "total_ms": 136.5},
    }
    assert scan_log(log)["stalls"]["loop_stall"]["count"] == 4  # no window: the whole log
    merged = merge_logs([{"path": "a", **scan}, {"path": "b", **scan_log(log)}])
    assert merged["stalls"]["loop_stall"] == {"count": 6, "longest_ms": 999.0, "total_ms": 1672.0}
