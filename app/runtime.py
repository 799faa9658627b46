"""Process-wide tuning and watching of a server process: Python's cyclic garbage collector, and
the event loop's stalls.

Measured under load (Battle Runes, 20 matches, think 0, one process, PostgreSQL; ``docs/
performance.md``): with Python's default thresholds (700, 10, 10) the collector took 35-41 % of
the server's CPU time, most of it in full collections walking every object the process holds
(the live-match cache, the loaded modules, the ORM's metadata). Two changes bring it to 1-3 %:

- :func:`gc.freeze` once the app has started moves everything alive then (modules, routes, card
  data, the bot pool's bookkeeping) into the permanent generation, which no collection walks;
- a young-generation threshold of 10,000 (instead of 700) collects after 10,000 net new
  container objects rather than 700, so the middle and full collections that follow every tenth
  young one come 14 times less often. Memory held by cyclic garbage between collections stays
  small (a few thousand objects).

Collections that still pause the process for :data:`SLOW_COLLECTION_SECONDS` or more are logged
as ``gc_pause`` (:func:`watch_collections`): with 5,000 sockets open (2,500 matches, one process)
the log showed young collections of 70-400 ms, middle ones near 1 s and full ones of 1-2 s, the
cause of that run's 1.7 s act-to-snapshot p99 (``docs/performance.md``, sixth session).

The event loop itself is watched too (:func:`watch_loop`): a task that asks to wake every
:data:`LOOP_TICK_SECONDS` and logs ``loop_stall`` when it woke :data:`SLOW_LOOP_SECONDS` or more
late. A late wake-up is a stall every socket of the process felt, whatever caused it (a
collection, a long callback, a CPU the process did not get); ``bench/load.py`` counts both kinds of
line inside its window, beside the act-to-snapshot latency the client saw, so that a tail can be
told apart from the client's own.

This is what CPython's documentation suggests for servers (:func:`gc.freeze`: "to avoid
copy-on-write in forked processes ... and for faster collections") and what large Python web
services report doing (Instagram, 2017).
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Callable

from app.logging import get_logger

log = get_logger(__name__)


def tune_gc(young_threshold: int) -> None:
    """Freeze what is alive now, raise the young generation's threshold, and log long pauses
    from now on (:func:`watch_collections`).

    Call once per process, after start-up (the app's lifespan does). The older generations keep
    Python's own thresholds.

    :param young_threshold: net new container objects between young collections; 0 leaves the
        collector as it is (tests that build many apps in one process, where a freeze would keep
        every earlier app's garbage).
    """
    if young_threshold <= 0:
        return
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(young_threshold, middle, old)
    watch_collections()


#: a collection that stops the process this long or longer is logged (``gc_pause``)
SLOW_COLLECTION_SECONDS = 0.05

_started: list[float] = []


def _time_collections(phase: str, info: dict[str, int]) -> None:
    """A :data:`gc.callbacks` hook: log a collection that took :data:`SLOW_COLLECTION_SECONDS`
    or more (a pause of every match this process serves), with its generation and what it
    found."""
    if phase == "start":
        _started.append(time.perf_counter())
        return
    if not _started:
        return
    took = time.perf_counter() - _started.pop()
    if took >= SLOW_COLLECTION_SECONDS:
        log.warning(
            "gc_pause",
            generation=info.get("generation"),
            ms=round(took * 1000, 1),
            collected=info.get("collected"),
            objects=sum(gc.get_count()),
        )


def watch_collections() -> None:
    """Log the collector's long pauses from now on (idempotent). :func:`tune_gc` calls it: with thousands of sockets a full collection walks every object the process
    made since the freeze, and a pause there delays every frame of every match."""
    if _time_collections not in gc.callbacks:
        gc.callbacks.append(_time_collections)


#: how often :func:`watch_loop` asks to wake (seconds): 50 wake-ups a second, a few microseconds each
LOOP_TICK_SECONDS = 0.02
#: a wake-up this late or later is a stall of the event loop (``loop_stall``)
SLOW_LOOP_SECONDS = 0.05


def log_stall(late: float) -> None:
    """Log a stall of the event loop (``loop_stall``, ``ms``: how late the watcher woke)."""
    log.warning("loop_stall", ms=round(late * 1000, 1))


async def watch_loop(
    on_stall: Callable[[float], None] = log_stall,
    tick: float = LOOP_TICK_SECONDS,
    slow: float = SLOW_LOOP_SECONDS,
) -> None:
    """Wake every ``tick`` seconds and call ``on_stall(late)`` (seconds) when a wake-up came
    ``slow`` seconds or more after it was due; runs until cancelled.

    A stall is time in which no frame of any socket of this loop was read or sent: a long
    callback, a collection, or a CPU the process was not given. The app's lifespan runs it with
    :func:`log_stall`; the load tool runs it in its own loop to count the client's stalls.
    """
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + tick
        await asyncio.sleep(tick)
        late = loop.time() - due
        if late >= slow:
            on_stall(late)
