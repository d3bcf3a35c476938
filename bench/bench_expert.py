"""The expert's decisions on the game page, in the engine's MicroPython worker, beside CPython.

Targets (issue 32): in the browser and under node, the expert's decisions at most 300 ms at the
90th percentile and never over 1 s. The game page plays the expert in the engine's MicroPython
worker, as it plays every computer.

Figures, on the site built into a private folder and served locally, in one run:

- every expert decision of GAMES (4) games against a person played by hard: the page's calls of
  each game in order (``act`` for the person, ``computer_move`` for the expert, on the game's
  JSON text), timed on the page around each call in the engine's worker, the expert's moves
  reported; and the same calls in CPython here, for the ratio.

Then, side by side with the targets, the expert's decisions of NODE_GAMES (6) games in CPython
here and in MicroPython under node (the vendored build the engine's worker runs, started as the
worker starts it; each call its own top-level call, as the worker's are, so the collector runs
between them as it does there): median, 90th percentile and slowest.

Saved to .bench/expert.json. BENCH_EXPERT_GAMES=n and BENCH_EXPERT_NODE_GAMES=n change the game
counts; BENCH_DIST=folder measures an already built site instead of building one;
BENCH_EXPERT_BROWSER=0 leaves the browser out (CPython and node only).
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.harness import CHROMIUM, CHROMIUM_ARGS, Meter, measure_built_site, start_server  # noqa: E402

OUT = ROOT / ".bench" / "expert.json"
GAMES = int(os.environ.get("BENCH_EXPERT_GAMES", "4"))
NODE_GAMES = int(os.environ.get("BENCH_EXPERT_NODE_GAMES", "6"))
P90_TARGET_MS = 300.0
MAX_TARGET_MS = 1000.0
TIMEOUT_MS = 600_000
SETTINGS = {"v": 1, "difficulty": "expert", "target": 121, "muggins": False, "speed": "fast"}

# Times a game's calls on the page, in order (so the worker keeps the game it answered last, as
# on the game page), in the engine's worker.
TIME_CALLS = """async (calls) => {
  const worker = window.cribbageEngine;
  const times = [];
  for (const [name, text] of calls) {
    const started = performance.now();
    const reply = JSON.parse(String(await worker.call(name, text)));
    times.push(performance.now() - started);
    if (!reply.ok) throw new Error(JSON.stringify(reply.error));
  }
  return times;
}"""


# Runs the calls (a JSON file of [endpoint, request] pairs) in MicroPython under node, each in its
# own runPython (a top-level call, after which the collector runs, as after each of the worker's
# calls), and prints each call's time in ms, one a line. argv: the repository, the calls' file.
NODE_SCRIPT = r"""
import path from "node:path";
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [root, callsFile] = process.argv.slice(1);
const loader = path.join(root, "tests/conformance/engine_mp.mjs");  // the conformance test's own loader
const { loadEngine } = await import(pathToFileURL(loader).href);
const mp = await loadEngine(root, { files: { "calls.json": callsFile } });
mp.runPython("import json\nfrom engine import api\n" +
             "CALLS = json.loads(open('/lib/calls.json').read())");
const n = JSON.parse(fs.readFileSync(callsFile, "utf8")).length;
for (let i = 0; i < n; i++) {
  const started = performance.now();
  mp.runPython(`R = json.loads(api.call(*CALLS[${i}]))`);
  const ms = performance.now() - started;
  mp.runPython("assert R['ok'], R");
  process.stdout.write(`${ms}\n`);
}
"""


def node_times(calls: list[list[str]]) -> list[float]:
    """The same calls in MicroPython under node, in ms."""
    with tempfile.TemporaryDirectory(prefix="bench-expert-node-") as tmp:
        calls_file = Path(tmp) / "calls.json"
        calls_file.write_text(json.dumps(calls), encoding="utf-8")
        out = subprocess.run(["node", "--input-type=module", "-e", NODE_SCRIPT, str(ROOT), str(calls_file)],
                             check=True, capture_output=True, text=True).stdout
    return [float(line) for line in out.split()]


def side_by_side(games: int) -> dict:
    """The expert's decisions of games games in CPython here and in MicroPython under node, with
    the targets beside them."""
    calls = [call for game in expert_calls(games) for call in game]
    native = moves(calls, cpython_times(calls))
    micropython = moves(calls, node_times(calls))
    report = {}
    print(f"the expert's decisions in {games} games against hard (n={len(native)}), one call each:")
    print(f"  {'':<34} {'median':>9} {'p90':>9} {'max':>9}")
    for label, times in (("CPython here", native), ("MicroPython under node", micropython)):
        figures = summary(times)
        report[label] = figures
        print(f"  {label:<34} {figures['median_ms']:6.1f} ms {figures['p90_ms']:6.1f} ms {figures['max_ms']:6.1f} ms")
    print(f"  {'target':<34} {'':>9} {P90_TARGET_MS:6.0f} ms {MAX_TARGET_MS:6.0f} ms")
    figures = report["MicroPython under node"]
    report["node_targets_met"] = figures["p90_ms"] <= P90_TARGET_MS and figures["max_ms"] <= MAX_TARGET_MS
    report["node_over_cpython_median"] = figures["median_ms"] / report["CPython here"]["median_ms"]
    print(f"  MicroPython under node / CPython: {report['node_over_cpython_median']:.1f}x at the median; targets "
          f"{'met' if report['node_targets_met'] else 'NOT met'}")
    return report


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
    server, base = start_server(site, Meter())
    report: dict = {"games": GAMES, "load_average": os.getloadavg()[0], "cores": os.cpu_count()}
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
            page.wait_for_selector("html[data-engine='ready']", state="attached", timeout=TIMEOUT_MS)
            micropython = moves(every, page.evaluate(TIME_CALLS, every))
            context.close()
            browser.close()
    finally:
        server.shutdown()
    native = moves(every, cpython_times(every))
    rows = [("browser, MicroPython (engine worker)", micropython), ("CPython here", native)]
    for label, times in rows:
        figures = summary(times)
        report[label] = figures
        print(f"  {label:<40} median {figures['median_ms']:7.1f} ms  p90 {figures['p90_ms']:7.1f} ms  "
              f"max {figures['max_ms']:7.1f} ms  (n={figures['n']})")
    browser_figures = report[rows[0][0]]
    report["micropython_over_cpython_median"] = statistics.median(micropython) / statistics.median(native)
    print(f"  ratio: the browser's MicroPython / CPython here {report['micropython_over_cpython_median']:.1f}x "
          f"at the median")
    p90_ok = browser_figures["p90_ms"] <= P90_TARGET_MS
    max_ok = browser_figures["max_ms"] <= MAX_TARGET_MS
    report["targets_met"] = p90_ok and max_ok
    print(f"  targets in the browser: p90 <= {P90_TARGET_MS:.0f} ms {'ok' if p90_ok else 'OVER'}, "
          f"max <= {MAX_TARGET_MS:.0f} ms {'ok' if max_ok else 'OVER'}")
    return report


def main() -> None:
    if os.environ.get("BENCH_EXPERT_BROWSER", "1") == "0":
        report = {"load_average": os.getloadavg()[0], "cores": os.cpu_count(), "node_games": NODE_GAMES,
                  "node": side_by_side(NODE_GAMES)}
        OUT.parent.mkdir(exist_ok=True)
        OUT.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
        print(f"saved {OUT.relative_to(ROOT)}")
        return

    def both(site: Path) -> dict:
        report = measure(site)
        report["node_games"] = NODE_GAMES
        report["node"] = side_by_side(NODE_GAMES)
        return report

    measure_built_site(both, OUT, "bench-expert-")


if __name__ == "__main__":
    main()
