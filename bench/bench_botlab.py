"""The bot lab in Chromium: the editor ready, Python ready, and 100-game matches against hard.

Targets (issue 21): the page usable (its editor ready) within 1 s cold; a 100-game match of the
example bot against hard finished in under 20 s, the progress bar moving at least every second.

Figures, on the site built into a private folder and served locally:

- cold load, median of RUNS (3) fresh browser contexts, from navigation: the editor ready
  (CodeMirror drawn in the page: code can be read and typed, and what is typed stays when the
  page's MicroPython brings the kept code), the page ready (its ``botlab-editor-ready`` mark:
  the kept code in the editor and the controls bound) and Python ready in its worker
  (html[data-engine="ready"], CPython on Pyodide);
- for each example bot in BOTS, one match of MATCH_GAMES (100) games against hard with Python
  ready: the time from the Run button to the result on the page, the worker's own games a
  second, and the longest gap between two progress updates (the bar and the running score);
- the same matches in CPython here (``engine.match.play_match``), for the ratio of Pyodide to
  CPython.

Saved to .bench/botlab.json. BENCH_RUNS=n changes the number of cold loads, BENCH_BOTLAB_GAMES=n
the match length; BENCH_DIST=folder measures an already built site instead of building one.
"""

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.harness import CHROMIUM, CHROMIUM_ARGS, Meter, measure_built_site, start_server  # noqa: E402

OUT = ROOT / ".bench" / "botlab.json"
RUNS = int(os.environ.get("BENCH_RUNS", "3"))
MATCH_GAMES = int(os.environ.get("BENCH_BOTLAB_GAMES", "100"))
BOTS = ("beginner", "expected_value")  # the editor's example first, then the one using engine.analysis
OPPONENT = "hard"
SEED = "bench"
EDITOR_TARGET_S = 1.0
MATCH_TARGET_S = 20.0
GAP_TARGET_S = 1.0
TIMEOUT_MS = 600_000

# Records the progress updates (time, games done) from before the match starts.
WATCH_PROGRESS = """() => {
  const bar = document.getElementById('match-bar');
  window.__updates = [];
  new MutationObserver(() => window.__updates.push([performance.now(), Number(bar.value)]))
    .observe(document.getElementById('match-score'), {childList: true, characterData: true, subtree: true});
}"""


# Runs before the page's scripts: notes when CodeMirror is first drawn (inside the editor's shadow root).
WATCH_EDITOR = """(() => {
  const look = () => {
    const box = document.querySelector('#bot-editor .mpy-editor-input > div');
    if (box && box.shadowRoot && box.shadowRoot.querySelector('.cm-editor')) {
      window.__editorDrawn = performance.now();
    } else {
      requestAnimationFrame(look);
    }
  };
  requestAnimationFrame(look);
})();"""


def cold_load(browser, url: str) -> dict:
    """Open the bot lab in a fresh context: seconds until the editor is drawn, the page is ready
    and Python is ready."""
    context = browser.new_context(service_workers="block")
    context.add_init_script(WATCH_EDITOR)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("html[data-ui='ready']", state="attached", timeout=TIMEOUT_MS)
    page.wait_for_selector("html[data-engine='ready'], html[data-engine='error']", state="attached",
                           timeout=TIMEOUT_MS)
    if page.get_attribute("html", "data-engine") != "ready":
        raise RuntimeError("the bot lab's Python did not start")
    figures = page.evaluate("""() => ({
        drawn: window.__editorDrawn,
        editor: performance.getEntriesByName('botlab-editor-ready')[0].startTime,
        now: performance.now()})""")
    context.close()
    return {"drawn_s": figures["drawn"] / 1000, "editor_s": figures["editor"] / 1000, "python_s": figures["now"] / 1000}


def browser_match(browser, url: str, bot: str) -> dict:
    """One match of an example bot against hard on the page, Python ready first."""
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("html[data-engine='ready']", state="attached", timeout=TIMEOUT_MS)
    source = (ROOT / "site_src" / "bots" / f"{bot}.py").read_text(encoding="utf-8")
    page.evaluate("(code) => { document.getElementById('bot-source').code = code; }", source)
    page.select_option("#match-opponent", OPPONENT)
    page.fill("#match-games", str(MATCH_GAMES))
    page.evaluate(WATCH_PROGRESS)
    started = page.evaluate("() => performance.now()")
    page.click("#match-run")
    page.wait_for_selector("#lab[data-match='done'], #lab[data-match='failed']", state="attached",
                           timeout=TIMEOUT_MS)
    if page.get_attribute("#lab", "data-match") != "done":
        raise RuntimeError(f"the match of {bot} failed: {page.inner_text('#lab')[:300]}")
    ended = page.evaluate("() => performance.now()")
    updates = page.evaluate("() => window.__updates")
    details = page.inner_text("#match-details")
    context.close()
    marks = [(started, 0)] + [(t, done) for t, done in updates] + [(ended, MATCH_GAMES)]
    gaps = [(b[0] - a[0], b[1]) for a, b in zip(marks, marks[1:])]
    longest, at = max(gaps)
    rate = float(details.rsplit(" games a second", 1)[0].rsplit(" ", 1)[-1])
    return {"match_s": (ended - started) / 1000, "games_per_s": rate, "updates": len(updates),
            "longest_gap_s": longest / 1000, "longest_gap_until_games": at,
            "first_update_s": (marks[1][0] - started) / 1000}


def cpython_match(bot: str) -> dict:
    """The same match in CPython here."""
    from engine.match import play_match

    cpu = time.process_time()
    result = play_match(str(ROOT / "site_src" / "bots" / f"{bot}.py"), OPPONENT, games=MATCH_GAMES, seed=SEED)
    return {"match_s": result.elapsed, "cpu_s": time.process_time() - cpu, "games_per_s": result.games_per_second}


def mark(ok: bool) -> str:
    return "ok" if ok else "OVER"


def measure(site: Path) -> dict:
    from playwright.sync_api import sync_playwright

    server, base = start_server(site, Meter())
    url = base + "/bot-lab/"
    report: dict = {"runs": RUNS, "games": MATCH_GAMES, "opponent": OPPONENT, "matches": {},
                    "load_average": os.getloadavg()[0], "cores": os.cpu_count()}
    print(f"load average {report['load_average']:.1f} on {report['cores']} cores (figures are wall-clock)", flush=True)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            loads = [cold_load(browser, url) for _ in range(RUNS)]
            drawn = statistics.median(r["drawn_s"] for r in loads)
            editor = statistics.median(r["editor_s"] for r in loads)
            python = statistics.median(r["python_s"] for r in loads)
            report["cold"] = {"drawn_s": drawn, "editor_s": editor, "python_s": python, "runs": loads}
            print(f"cold, median of {RUNS}: editor ready (drawn, typing kept) {drawn:.2f} s "
                  f"(target {EDITOR_TARGET_S:.0f} s: {mark(drawn < EDITOR_TARGET_S)}), page ready (kept code and "
                  f"controls) {editor:.2f} s, Python ready {python:.2f} s", flush=True)
            for bot in BOTS:
                figures = browser_match(browser, url, bot)
                native = cpython_match(bot)
                figures["cpython"] = native
                figures["ratio"] = figures["match_s"] / native["match_s"] if native["match_s"] else None
                report["matches"][bot] = figures
                print(f"{bot:15} {MATCH_GAMES} games against {OPPONENT}: {figures['match_s']:5.1f} s in the page "
                      f"(target {MATCH_TARGET_S:.0f} s: {mark(figures['match_s'] < MATCH_TARGET_S)}), "
                      f"{figures['games_per_s']:.1f} games/s in the worker; longest gap between progress "
                      f"updates {figures['longest_gap_s']:.2f} s ({mark(figures['longest_gap_s'] < GAP_TARGET_S)}, "
                      f"ending at game {figures['longest_gap_until_games']}; {figures['updates']} updates, the first "
                      f"after {figures['first_update_s']:.2f} s); CPython here {native['match_s']:.1f} s "
                      f"({native['cpu_s']:.1f} s of CPU) "
                      f"(Pyodide / CPython {figures['ratio']:.2f})", flush=True)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return report


def main() -> None:
    measure_built_site(measure, OUT, "bench-botlab-")


if __name__ == "__main__":
    main()
