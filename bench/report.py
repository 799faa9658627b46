"""The table every benchmark prints, and its verdict."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

#: a row: (measure, rate, time per item, target, ok) with ok None for rows without a target
Row = tuple[str, str, str, str, bool | None]


def print_report(title: str, rows: Sequence[Row], widths: Sequence[int] = (36, 20, 20, 12, 4)) -> int:
    """Print ``rows`` under ``title`` as an aligned table.

    :returns: 0 when every row with a target met it, else 1 (after naming the missed ones).
    """
    print(title)
    header = ("measure", "rate", "time", "target", "ok")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for name, rate, per, target, ok in rows:
        mark = "" if ok is None else ("yes" if ok else "NO")
        print("  ".join(str(v).ljust(w) for v, w in zip((name, rate, per, target, mark), widths, strict=True)))
    missed = [name for name, *_, ok in rows if ok is False]
    if missed:
        print(f"\nMISSED TARGETS: {', '.join(missed)}")
        return 1
    print("\nall targets met")
    return 0


def time_decisions(
    bot: Any,
    positions: Iterable[Sequence[Any]],
    rng: random.Random,
    repeats: int = 3,
    clock: Callable[[], float] = time.process_time,
) -> tuple[float, float, float, float]:
    """Time ``bot.choose(observation, legal, rng)`` on each position (``(observation, legal, ...)``).

    :returns: mean, p99 and max in ms of the best of ``repeats`` runs per position (as ``timeit``
        keeps the best), and the slowest single run (machine noise, for information).
    """
    best_times: list[float] = []
    worst_single = 0.0
    for observation, legal, *_ in positions:
        runs = []
        for _ in range(repeats):
            t0 = clock()
            bot.choose(observation, legal, rng)
            runs.append((clock() - t0) * 1000)
        best_times.append(min(runs))
        worst_single = max(worst_single, *runs)
    best_times.sort()
    p99 = best_times[int(0.99 * (len(best_times) - 1))]
    return statistics.fmean(best_times), p99, best_times[-1], worst_single
