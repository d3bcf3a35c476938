"""The expert's decisions on the game page: CPython in its Pyodide worker, beside MicroPython.

Targets (issue 15): in the browser, the expert's decisions at most 300 ms at the 90th percentile
and never over 1 s. The game page sends the expert's moves to a Pyodide worker
(site_src/app/expert_engine.py, app/expert_worker.py) because MicroPython cannot meet them.

Figures, on the site built into a private folder and served locally, in one run:

- the Pyodide worker's start, cold (a fresh browser context): from navigation to html[data-expert]
  "ready" on a practice link against the expert (Pyodide, the engine's source, one expert discard);
- every expert decision of GAMES (10) games against a person played by hard: the page's calls of
  each game in order (``act`` for the person, ``computer_move`` for the expert, on the game's
  JSON text), timed on the page around each call, the expert's moves reported: in the expert's
  Pyodide worker, and for the first MP_GAMES (2) games in the engine's MicroPython worker too;
  and the same calls in CPython here, for the ratios.

Saved to .bench/expert.json. BENCH_EXPERT_GAMES=n and BENCH_EXPERT_MP_GAMES=n change the game
counts; BENCH_DIST=folder measures an already built site instead of building one.
"""

import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench_load import CHROMIUM, CHROMIUM_ARGS, Meter, measure_built_site, start_server  # noqa: E402

OUT = ROOT / ".bench" / "expert.json"
GAMES = int(os.environ.get("BENCH_EXPERT_GAMES", "10"))
MP_GAMES = int(os.environ.get("BENCH_EXPERT_MP_GAMES", "2"))
P90_TARGET_MS = 300.0
MAX_TARGET_MS = 1000.0
TIMEOUT_MS = 600_000
SETTINGS = {"v": 1, "difficulty": "expert", "target": 121, "muggins": False, "speed": "fast"}

# Times a game's calls on the page, in order (so each worker keeps the game it answered last, as
# on the game page): in the expert's worker (PyScript's named worker) or the engine's.
TIME_CALLS = """async ([where, calls]) => {
  const worker = where === 'cpython'
    ? document.querySelector('script[name="expert-cpython"]').xworker.sync
    : window.cribbageEngine;
  const times = [];
  for (const [name, text] of calls) {
    const started = performance.now();
    const reply = JSON.parse(String(await worker.call(name, text)));
    times.push(performance.now() - started);
    if (!reply.ok) throw new Error(JSON.stringify(reply.error));
  }
  return times;
}"""


def expert_calls(games: int) -> list[list[list[str]]]:
    """For each game against the expert, the page's calls in order ([endpoint, request JSON]):
    the person's moves (``act``, chosen by hard) and the expert's (``computer_move``), played
    through the engine's endpoints here."""
    from engine import api
    from engine.players import get_player

    every = []
    for g in range(games):
        person = get_player("hard", seed=f"person-{g}")
        request = {"difficulty": "expert", "target": 121, "muggins": False, "seed": f"bench-expert-{g}"}
        result = json.loads(api.call("new_game", json.dumps(request)))["result"]
        calls = []
        while result["awaiting"] != "over":
            if result["awaiting"] == "computer":
                name, request = "computer_move", {"game": result["game"], "difficulty": "expert"}
            else:  # no muggins: the person is never asked to count
                view = result["view"]
                name, request = "act", {"game": result["game"], "action": person.choose(view, view["legal_actions"])}
            calls.append([name, json.dumps(request)])
            reply = json.loads(api.call(name, calls[-1][1]))
            assert reply["ok"], reply
            result = reply["result"]
        every.append(calls)
    return every


def moves(calls: list[list[str]], times: list[float]) -> list[float]:
    """The times of the expert's moves among a run of calls."""
    return [t for (name, _), t in zip(calls, times) if name == "computer_move"]


def cpython_times(calls: list[list[str]]) -> list[float]:
    """The same calls in CPython here, in ms."""
    from engine import api

    times = []
    for name, text in calls:
        started = time.perf_counter()
        api.call(name, text)
        times.append(1000 * (time.perf_counter() - started))
    return times


def summary(times: list[float]) -> dict:
    ordered = sorted(times)
    return {"n": len(ordered), "median_ms": statistics.median(ordered),
            "p90_ms": ordered[int(0.9 * (len(ordered) - 1))], "max_ms": ordered[-1]}


def measure(site: Path) -> dict:
    from playwright.sync_api import sync_playwright

    games = expert_calls(GAMES)
    every = [call for game in games for call in game]
    mp_calls = [call for game in games[:MP_GAMES] for call in game]
    server, base = start_server(site, Meter())
    report: dict = {"games": GAMES, "mp_games": MP_GAMES, "load_average": os.getloadavg()[0], "cores": os.cpu_count()}
    print(f"load average {report['load_average']:.1f} on {report['cores']} cores (figures are wall-clock); "
          f"{len(moves(every, every))} expert decisions in {GAMES} games", flush=True)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(service_workers="block")
            settings = json.dumps(json.dumps(SETTINGS))
            context.add_init_script(f"localStorage.setItem('cribbage.settings.v1', {settings});")
            page = context.new_page()
            page.goto(base + "/?seed=bench-expert&difficulty=expert")
            page.wait_for_selector("html[data-expert='ready'], html[data-expert='fallback']", state="attached",
                                   timeout=TIMEOUT_MS)
            if page.get_attribute("html", "data-expert") != "ready":
                raise RuntimeError("the expert's CPython did not start")
            report["cpython_ready_s"] = page.evaluate("performance.now()") / 1000
            page.wait_for_selector("html[data-engine='ready']", state="attached", timeout=TIMEOUT_MS)
            pyodide = moves(every, page.evaluate(TIME_CALLS, ["cpython", every]))
            micropython = moves(mp_calls, page.evaluate(TIME_CALLS, ["micropython", mp_calls])) if mp_calls else []
            context.close()
            browser.close()
    finally:
        server.shutdown()
    native = moves(every, cpython_times(every))
    rows = [("browser, CPython (Pyodide worker)", pyodide), ("CPython here", native),
            (f"browser, MicroPython (engine worker, {MP_GAMES} games)", micropython),
            (f"browser, CPython, the same {MP_GAMES} games", pyodide[:len(micropython)])]
    print(f"the expert's CPython ready {report['cpython_ready_s']:.2f} s after the page was opened (cold)")
    for label, times in rows:
        if not times:
            continue
        figures = summary(times)
        report[label] = figures
        print(f"  {label:<52} median {figures['median_ms']:7.1f} ms  p90 {figures['p90_ms']:7.1f} ms  "
              f"max {figures['max_ms']:7.1f} ms  (n={figures['n']})")
    browser_figures = report[rows[0][0]]
    ratio = statistics.median(pyodide) / statistics.median(native)
    report["pyodide_over_cpython_median"] = ratio
    if micropython:
        report["micropython_over_pyodide_p90"] = report[rows[2][0]]["p90_ms"] / report[rows[3][0]]["p90_ms"]
        print(f"  ratios: Pyodide / CPython here {ratio:.1f}x at the median; MicroPython / Pyodide "
              f"{report['micropython_over_pyodide_p90']:.1f}x at the 90th percentile")
    p90_ok = browser_figures["p90_ms"] <= P90_TARGET_MS
    max_ok = browser_figures["max_ms"] <= MAX_TARGET_MS
    report["targets_met"] = p90_ok and max_ok
    print(f"  targets in the browser: p90 <= {P90_TARGET_MS:.0f} ms {'ok' if p90_ok else 'OVER'}, "
          f"max <= {MAX_TARGET_MS:.0f} ms {'ok' if max_ok else 'OVER'}")
    return report


def main() -> None:
    measure_built_site(measure, OUT, "bench-expert-")


if __name__ == "__main__":
    main()
