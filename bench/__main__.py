"""``make bench``: run every benchmark module in this folder and exit non-zero if a target is missed.

Each ``bench_*.py`` module has a ``main() -> int`` that prints its table and returns 0 when every
target holds.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main() -> int:
    failed = []
    for info in sorted(pkgutil.iter_modules([str(Path(__file__).parent)]), key=lambda i: i.name):
        if not info.name.startswith("bench_"):
            continue
        module = importlib.import_module(f"bench.{info.name}")
        print(f"== {info.name}")
        if module.main() != 0:
            failed.append(info.name)
        print()
    if failed:
        print("targets missed in:", ", ".join(failed))
        return 1
    print("every target holds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
