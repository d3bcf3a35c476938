"""Run the benchmarks: every ``bench/bench_*.py`` module's ``main()``, in name order.

    python -m bench              # all of them
    python -m bench engine site  # only modules whose name contains one of these words

A bench module needs nothing but a ``main()`` that prints its figures (and may save them under
``.bench/``). A module that fails is reported and the others still run; the exit status is 1 if
any failed.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
import traceback
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def bench_modules(filters: list[str] | None = None) -> list[str]:
    """Return the names of the bench modules, optionally only those matching a filter word."""
    names = sorted(m.name for m in pkgutil.iter_modules([str(PACKAGE_DIR)]) if m.name.startswith("bench_"))
    if filters:
        names = [n for n in names if any(f in n for f in filters)]
    return names


def main(argv: list[str] | None = None) -> int:
    """Run the selected bench modules; return 0 if all ran, 1 if any failed."""
    filters = sys.argv[1:] if argv is None else argv
    names = bench_modules(filters)
    if not names:
        print(f"no bench modules match {' '.join(filters)!r}", file=sys.stderr)
        return 1
    failed = []
    for name in names:
        print(f"== {name}")
        started = time.perf_counter()
        try:
            module = importlib.import_module(f"bench.{name}")
            module.main()
        except Exception:  # report and go on with the next module
            traceback.print_exc()
            failed.append(name)
        print(f"== {name}: {time.perf_counter() - started:.1f} s\n")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
