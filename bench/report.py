"""The table every benchmark prints, and its verdict."""

from __future__ import annotations

from collections.abc import Sequence

#: a row: (measure, rate, time per item, target, ok) with ok None for rows without a target
Row = tuple[str, str, str, str, bool | None]


def print_report(title: str, rows: Sequence[Row], widths: Sequence[int] = (36, 20, 20, 12, 4)) -> int:
    """Print ``rows`` under ``title`` as an aligned table.

    :returns: 0 when every row with a target met it, else 1 (after naming the missed ones).
    """
    print(title)
    header = ("measure", "rate", "time", "target", "ok")
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    print("  ".join("-" * w for w in widths))
    for name, rate, per, target, ok in rows:
        mark = "" if ok is None else ("yes" if ok else "NO")
        print("  ".join(str(v).ljust(w) for v, w in zip((name, rate, per, target, mark), widths)))
    missed = [name for name, *_, ok in rows if ok is False]
    if missed:
        print(f"\nMISSED TARGETS: {', '.join(missed)}")
        return 1
    print("\nall targets met")
    return 0
