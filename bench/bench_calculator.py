"""The hand calculator in Chromium: time from navigation until a hand in the address is counted.

Opens dist/calculator/?hand=...&starter=... (built by `make bench`) from a local server, the way
a shared link is opened, and reads two times from the page, both measured from navigation start:
when the UI is live (html[data-ui="ready"]: the card picker responds) and when the count is shown
(the performance mark "hand-counted" that site_src/app/calculator.py sets). Cold runs use a fresh
browser profile each time; warm runs reopen one profile that has visited the page before.
Medians of RUNS; figures are printed and saved to .bench/calculator.json.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402  (the browser tests' launch)

DIST = ROOT / "dist"
OUT = ROOT / ".bench" / "calculator.json"
RUNS = 5
PATH = "/calculator/?hand=5H,5S,5D,JC&starter=5C&crib=0"
TIMEOUT_MS = 120_000
COUNTED_MARK = "hand-counted"

# Records when the page's UI module marks itself ready (html[data-ui] becomes "ready").
UI_WATCH = """
new MutationObserver((changes, observer) => {
  if (document.documentElement && document.documentElement.getAttribute('data-ui') === 'ready') {
    window.__uiReadyAt = performance.now();
    observer.disconnect();
  }
}).observe(document, {attributes: true, subtree: true, attributeFilter: ['data-ui']});
"""


def _visit(playwright, profile: Path, url: str) -> dict | None:
    """One visit in a browser with this profile folder: times in ms from navigation start.

    None if the count never came (reported, not fatal: the machine may be very busy)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    context = playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    try:
        context.add_init_script(UI_WATCH)
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(url)
        try:
            page.wait_for_selector("#calc-result[data-state='done']", state="attached", timeout=TIMEOUT_MS)
        except PlaywrightTimeout:
            status = page.locator("#engine-status-text").inner_text()
            print(f"  a visit timed out after {TIMEOUT_MS / 1000:.0f} s (engine status: {status!r})")
            return None
        return page.evaluate(
            """mark => ({
                counted: performance.getEntriesByName(mark)[0].startTime,
                ui: window.__uiReadyAt ?? null,
                total: Number(document.getElementById('calc-total').textContent),
            })""", COUNTED_MARK)
    finally:
        context.close()


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def main() -> None:
    """Measure and print the calculator's cold and warm figures."""
    from playwright.sync_api import sync_playwright

    if not (DIST / "calculator" / "index.html").is_file():
        raise SystemExit("dist/ has no calculator page: run `make build` (or `make bench`) first")
    server = ThreadingHTTPServer(("127.0.0.1", 0), build.make_handler(DIST))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}{PATH}"
    cold: list[dict] = []
    warm: list[dict] = []
    started = time.perf_counter()
    try:
        with sync_playwright() as playwright, tempfile.TemporaryDirectory(prefix="bench-calc-") as tmp:
            for run in range(RUNS):
                cold.append(_visit(playwright, Path(tmp) / f"cold-{run}", url))
            profile = Path(tmp) / "warm"
            _visit(playwright, profile, url)  # the first visit fills the cache
            for _ in range(RUNS):
                warm.append(_visit(playwright, profile, url))
    finally:
        server.shutdown()
        server.server_close()
    failed = cold.count(None) + warm.count(None)
    cold = [v for v in cold if v is not None]
    warm = [v for v in warm if v is not None]
    if not cold or not warm:
        raise RuntimeError("no visit finished counting the hand")
    for visit in cold + warm:
        assert visit["total"] == 29, visit  # the 29 hand, counted by the engine
    figures = {
        "hand counted, cold ms (median)": _median([v["counted"] for v in cold]),
        "hand counted, warm ms (median)": _median([v["counted"] for v in warm]),
        "picker live, cold ms (median)": _median([v["ui"] for v in cold if v["ui"] is not None]),
        "picker live, warm ms (median)": _median([v["ui"] for v in warm if v["ui"] is not None]),
        "hand counted, cold ms (all runs)": [round(v["counted"]) for v in cold],
        "hand counted, warm ms (all runs)": [round(v["counted"]) for v in warm],
        "visits that timed out": failed,
    }
    width = max(len(name) for name in figures)
    for name, value in figures.items():
        print(f"{name:<{width}}  {value}")
    print(f"({RUNS} cold and {RUNS} warm visits in {time.perf_counter() - started:.1f} s)")
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
