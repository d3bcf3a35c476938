"""QR codes of invitation links (engine.qr): time to encode a 700-character link and draw its SVG.

In CPython and in the browser's MicroPython (the vendored webassembly build under node, loaded
with the worker's default heap): the first call in a fresh interpreter (it builds the tables and
the version's layout) and the best of later calls. Target: under 150 ms in MicroPython. Figures
are printed and saved to .bench/qr.json.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / ".bench" / "qr.json"
RUNNER = ROOT / "bench" / "qr_micropython.mjs"
LINK_LENGTH = 700
REPEATS = 10
MICROPYTHON_TARGET_MS = 150

# Runs in both interpreters: prints the link's version and the milliseconds of each call.
TIMING = f"""
import time
try:
    clock, since = time.ticks_us, time.ticks_diff
except AttributeError:
    clock, since = (lambda: int(time.perf_counter() * 1e6)), (lambda a, b: a - b)
from engine import qr
link = ("https://example.test/#friend=" + "aZ09-_xYq3" * 80)[:{LINK_LENGTH}]
version = qr.qr_encode(link)[0]
qr._LAYOUTS.results.clear()
qr._REMAINDER_ROWS.clear()
times = []
for call in range({REPEATS}):
    start = clock()
    qr.qr_svg(link)
    times.append(since(clock(), start) / 1000)
matrix = []
for call in range(3):
    start = clock()
    qr.qr_matrix(link)
    matrix.append(since(clock(), start) / 1000)
print(version, " ".join([str(t) for t in times]), min(matrix))
"""


def _figures(command: list[str]) -> dict:
    """Run TIMING with this interpreter command; its figures by name."""
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True, timeout=600).stdout
    words = out.split()
    version, times, matrix = int(words[0]), [float(t) for t in words[1:-1]], float(words[-1])
    later = sorted(times[1:])
    return {"version": version, "first call ms": times[0], "best ms": later[0],
            "median ms": later[len(later) // 2], "qr_matrix best ms": matrix}


def main() -> None:
    """Measure and print the figures."""
    figures = {"CPython": _figures([sys.executable, "-c", TIMING]),
               "MicroPython (node)": _figures(["node", str(RUNNER), str(ROOT), TIMING])}
    print(f"  qr_svg of a {LINK_LENGTH}-character link (version {figures['CPython']['version']}, level M):")
    for name, row in figures.items():
        print(f"  {name:<20} first call {row['first call ms']:7.1f} ms   best {row['best ms']:6.1f} ms"
              f"   median {row['median ms']:6.1f} ms   (qr_matrix best {row['qr_matrix best ms']:.1f} ms)")
    best = figures["MicroPython (node)"]["best ms"]
    print(f"  target: MicroPython under {MICROPYTHON_TARGET_MS} ms: {'met' if best < MICROPYTHON_TARGET_MS else 'MISSED'}")
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
