"""Page load against the floor of this design: time to the first playable hand, bytes, blocking.

The site is built into a private folder with a few extra pages under bench/:

- floor/: the least any page of this design can do before it can play. A plain Web Worker
  loads the vendored MicroPython and the engine's pack (app/engine.pack) at once, writes the
  pack's files into MicroPython's file system, imports the engine and deals a hand (engine.api's
  new_game); no PyScript, no UI. Every page's figure is also printed as a ratio to it.
- site-worker-floor/: the same through the pages' own plumbing (static/engine.js starting
  app/engine_worker.mjs), with no UI: what the pages' worker costs on top of the floor.
- pyscript-floor/: the same through PyScript's own worker plumbing (a `<script type="mpy"
  worker>` running site_src/workers/engine_worker.py with bench/engine.toml listing the pack's files, written out one
  by one under bench/engine/, and a one-line MicroPython script on the page that asks it to deal):
  the alternative to the pages' worker, kept measured beside it.
- ui-floor/: PyScript with MicroPython running a one-line script, no worker, the plugins no page
  uses left out as the pages leave them out: its longest main-thread block is PyScript's own
  bootstrap block, which every page pays.
- decide/: the engine's worker as the pages use it (static/engine.js), timing hard's decisions: each call of
  computer_move (the reply included) while hard-vs-hard games are played through the endpoints.

Targets (each with what "ready" means):

- game, practice link (/?seed=...): the first hand dealt and clickable (#game[data-await="discard"]);
- game, new visitor (/): the setup's Deal button usable (#game[data-await="setup"]);
- calculator from a ?hand= link: the count shown (#calc-total filled);
- verifier from a ?seed= link: the deal listed (#check-deck filled);
- replay from a ?code= link of a whole game to 121 against the expert: its steps ready to walk
  through (#replay[data-state="ready"]);
- game, an expert game resumed late: a game against the expert saved in its last hand (stored
  by the init script before the page runs), picked up and its next decision offered.

Scenarios, medians of RUNS (5) each: cold (a fresh browser profile every run, local link, the
site's offline worker allowed to register as on a visitor's first visit);
slow (the same over a shared 20 Mbit/s link with 40 ms per request, paced by the server);
warm (one persistent profile visited once first, the service worker installed, then every run
a newly started browser on that profile: what a returning visitor waits); tab (the same profile,
each run a new tab of a browser already running: a returning visitor whose browser is open).
Cold and slow loads of all the targets are taken in turns, run by run, so the ratios to the
floor hold on a machine whose load drifts.

Phone-like profiles, in the same interleaved run, each in a phone's window (390 x 844; the
others in a laptop's, 1280 x 720): "cpu4x" (each cold load with the page's CPU slowed 4x,
Chromium's CPU throttling through CDP, Emulation.setCPUThrottlingRate) and "cpu4x+net" (that and
a 10 Mbit/s link with 80 ms of latency, Network.emulateNetworkConditions), cold beside "cold",
and warm (a newly started browser on a visited profile) for the game page's targets.

First paint: every load notes when the first contentful paint happened ('paint' entries,
observed from the init script) and what it showed: on the game page, whether the table (the
seats and the hand, no setup) or the setup was laid out then ("table at first paint"), and the
sum of layout shifts (CLS, 'layout-shift' entries) until ready: 0 means nothing moved.

The wait for "ready" adds nothing to the page's work: the init script notes the moment in the
page and says so on the console, which Playwright hears through CDP. (A wait polled in the page,
page.wait_for_function, makes Playwright compile its own script there first, on the main thread
as the page loads: about 60 ms of it with the CPU 4x slower, 15 ms without, on every load.)

Bytes are counted at the server (headers and bodies as sent: compression and 304s count as
what they are) until the page is ready. The longest main-thread block comes from a
PerformanceObserver for 'longtask' entries that start before the page is ready (only those
above 50 ms exist, so 0 means none). Reference pages are measured for first contentful paint
(cold) and must load no Python. Figures are printed and saved to .bench/load.json.
BENCH_RUNS=n changes the number of runs; BENCH_DECISIONS=n the number of timed decisions (0: none);
BENCH_RATIO_RUNS=n the number of cold loads behind each ratio target (below);
BENCH_ONLY=word,word measures only the targets whose names hold one of the words (and the floor).

Baseline: the site as it was before the first-paint and load work (BASELINE, bench/baseline.py;
BENCH_BASELINE=<revision> for another, =none for none) is built too, and its game page (practice
link, new visitor), calculator and verifier are taken in the same cold and slow turns; each of
this tree's figures is then printed as a ratio to the baseline's ("against the baseline"). The
targets are such ratios: the practice link's hand 0.77 of the baseline's (cold, and with the CPU
4x slower), 0.71 with the slow link too, and the calculator's count 0.81 (each target over the
figure given for the site when the target was set: 0.8 s for 1.04 s, 2.0 s for 2.6 s and for
2.8 s, 0.8 s for 0.99 s). A ratio target and its baseline twin are loaded RATIO_RUNS times in the
profiles its ratio is set for (RUNS in the same turns as everything else, then the rest in turns of
their own): a median of 5 loads of the baseline moved by more than the gap to a target from one
run to the next (the calculator: 285 to 355 ms), so its verdict did too.
"""

import json
import os
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import baseline  # noqa: E402
from bench.harness import CHROMIUM, CHROMIUM_ARGS, RUNS, Meter, start_server  # noqa: E402
from bench.load_pages import prepare_site  # noqa: E402

OUT = ROOT / ".bench" / "load.json"
RATIO_RUNS = int(os.environ.get("BENCH_RATIO_RUNS", "15"))
ONLY = [word for word in os.environ.get("BENCH_ONLY", "").split(",") if word]
DECISIONS = int(os.environ.get("BENCH_DECISIONS", "400"))
TIMEOUT_MS = 60_000
LONG_TASK_SETTLE_MS = 300
SLOW_BITS_PER_S = 20_000_000
SLOW_LATENCY_S = 0.040
PYTHON_URL_RE = re.compile(r"\.wasm$|\.m?py$|pyodide|pyscript|micropython|/engine/", re.I)
READY_MESSAGE = "bench: ready"  # the init script's console message once the page is ready
PRACTICE_SEED = "bench"
REPLAY_SEED = "5eedc0ffee15c0015eedc0ffee15c001"
EXPERT_RESUME_AT = 80  # moves into the game against the expert (of 89) that the page resumes: its last hand
STORED: dict = {}  # target name -> a script storing the game that target's page resumes
PROFILES = {
    # name: (CPU slowdown, (download bits/s, latency ms) or None); "cold" is today's profile
    "cold": (1, None),
    "cpu4x": (4, None),
    "cpu4x+net": (4, (10_000_000, 80)),
}
PHONE_WINDOW = {"width": 390, "height": 844}  # the phone-like profiles' window (a laptop's otherwise)
WARM_PROFILES = ("warm", "warm cpu4x", "warm cpu4x+net")
CALC_HAND = "?hand=5H,5S,5D,JC&starter=5C&crib=0"
CHECK_SEED = "?seed=5eedc0ffee15c0015eedc0ffee15c001"
BASELINE = baseline.revision("a9f28a4")  # the site before the first-paint and load work
BASELINE_TARGETS = ("game, practice link", "game, new visitor", "calculator", "verifier")
BASELINE_RATIOS = {"game, practice link": {"cold": 0.8 / 1.04, "cpu4x": 2.0 / 2.6, "cpu4x+net": 2.0 / 2.8},
                   "calculator": {"cold": 0.8 / 0.99}}
"""Targets as ratios to the baseline, by target and profile: the target over what the baseline
took when it was set."""
BASELINE_PREFIX = "baseline: "  # a target of the baseline's site, named after this tree's

READY = {
    "dealt": "document.documentElement.dataset.dealt === '1'",
    "ui": "document.documentElement.dataset.ui === 'ready'",
    "discard": "(document.getElementById('game') || {}).dataset?.await === 'discard'",
    "setup": "(document.getElementById('game') || {}).dataset?.await === 'setup'",
    "count": "((document.getElementById('calc-total') || {}).textContent || '').trim() !== ''",
    "deck": "(document.getElementById('check-deck') || {childElementCount: 0}).childElementCount > 0",
    "replay": "(document.getElementById('replay') || {dataset: {}}).dataset.state === 'ready'",
    "decision": "!['', 'setup'].includes((document.getElementById('game') || {dataset: {}}).dataset.await || '')",
}

# Runs before any page script: long tasks, and the moment the page is ready (__READY__).
INIT_SCRIPT = """
(() => {
  // Long tasks are reported once they end, so the one that makes the page ready arrives after
  // that moment: every task that started before it counts (load_once waits for it).
  const load = window.__load = {ready: null, longest: 0, tasks: [], paint: null, shows: null, shift: 0};
  // What the first contentful paint showed: the game's table, its setup, or neither.
  const seen = (id) => {
    const element = document.getElementById(id);
    return !!element && element.getClientRects().length > 0 && getComputedStyle(element).visibility !== "hidden";
  };
  const shows = () => (seen("setup") ? "setup" : seen("seat-you") && seen("my-hand") ? "table"
                       : document.getElementById("game") ? "neither" : null);
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.name === "first-contentful-paint" && load.paint === null) {
          load.paint = entry.startTime;
          load.shows = shows();
        }
      }
    }).observe({type: "paint", buffered: true});
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!entry.hadRecentInput) load.shift += entry.value;
    }).observe({type: "layout-shift", buffered: true});
  } catch (error) {}
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        load.tasks.push([entry.startTime, entry.duration]);
        if (load.ready === null || entry.startTime < load.ready) {
          load.longest = Math.max(load.longest, entry.duration);
        }
      }
    }).observe({type: "longtask", buffered: true});
  } catch (error) {}
  const check = () => {
    if (load.ready === null && document.documentElement && (__READY__)) {
      load.ready = performance.now();
      console.debug("__READY_MESSAGE__");
    }
  };
  // The <html> element does not exist yet when this runs: watch the whole document.
  new MutationObserver(check).observe(document, {attributes: true, subtree: true, childList: true,
                                                 characterData: true});
  document.addEventListener("DOMContentLoaded", check);
})();
"""

def init_script(ready: str, target: str = "") -> str:
    """The script every bench page starts with, watching for its ``ready`` condition (and, for a
    target that resumes a game, storing that game first)."""
    return (INIT_SCRIPT.replace("__READY__", READY[ready]).replace("__READY_MESSAGE__", READY_MESSAGE)
            + STORED.get(target, ""))


def window(profile: str) -> dict:
    """The browser context's window for ``profile`` (or its warm twin): a phone's for the phone-like
    profiles (those with a CPU slowdown, PROFILES), Playwright's default (1280 x 720) otherwise."""
    rate, _ = PROFILES.get(profile.removeprefix("warm "), (1, None))
    return {"viewport": PHONE_WINDOW} if rate != 1 else {}


def throttle(page, profile: str) -> None:
    """Slow the page as ``profile`` says (PROFILES), through the Chrome DevTools Protocol."""
    rate, link = PROFILES[profile]
    if rate == 1 and link is None:
        return
    cdp = page.context.new_cdp_session(page)
    if rate != 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    if link is not None:
        bits, latency = link
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": latency,
                                                      "downloadThroughput": bits / 8, "uploadThroughput": bits / 8})


def load_once(page, url: str, meter: Meter) -> dict:
    """Open ``url``; wait until ready; return its figures."""
    # Heard on the console, not polled in the page (the module's docstring says why).
    with page.expect_console_message(lambda message: message.text == READY_MESSAGE, timeout=TIMEOUT_MS):
        page.goto(url, wait_until="commit")
    sent, requests = meter.sent, meter.requests
    page.wait_for_timeout(LONG_TASK_SETTLE_MS)  # the task that made it ready is reported after it ends
    figures = page.evaluate("window.__load")
    if page.get_attribute("html", "data-engine") == "error":
        raise RuntimeError(f"{url}: the engine did not start")
    return {"ms": figures["ready"], "bytes": sent, "requests": requests, "longest_ms": figures["longest"],
            "paint_ms": figures["paint"], "shows": figures["shows"], "shift": figures["shift"]}


def measure_cold(browser, base: str, measured: list, meter: Meter, rate: float = 0.0,
                 latency: float = 0.0, profiles: tuple = ("cold",), runs: int = RUNS) -> dict[str, dict[str, list[dict]]]:
    """``runs`` cold loads of every target in every profile (PROFILES), taken in turns (one of each,
    then again), so that a machine growing busier or quieter meanwhile weighs on every figure
    alike. Returns {profile: {target: [figures of each run]}}."""
    results = {profile: {name: [] for name, _, _ in measured} for profile in profiles}
    for _ in range(runs):
        for name, path, ready in measured:
            for profile in profiles:
                context = browser.new_context(**window(profile))  # a first visit: the offline worker registers
                context.add_init_script(init_script(ready, name))
                page = context.new_page()
                throttle(page, profile)
                meter.reset(rate, latency)
                url = path if "://" in path else base + path  # a baseline target's is whole
                results[profile][name].append(load_once(page, url, meter))
                context.close()
                meter.reset()
    return results


def measure_warm(playwright, base: str, path: str, ready: str, meter: Meter,
                 profiles: tuple = ("cold",), target: str = "") -> dict[str, list[dict]]:
    """A returning visitor: one persistent profile visited once first (caches filled, the service
    worker installed), then RUNS loads each in a newly started browser on that profile
    ("warm"; with more ``profiles``, each run takes them in turns: "warm cpu4x", ...), and RUNS
    more each in a new tab of a browser already running ("tab")."""
    folder = Path(tempfile.mkdtemp(prefix="bench-profile-"))  # the browser's profile, visited once
    try:
        def session(profile: str = "cold"):
            context = playwright.chromium.launch_persistent_context(
                str(folder), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, **window(profile))
            context.add_init_script(init_script(ready, target))
            return context, context.pages[0] if context.pages else context.new_page()

        context, page = session()
        meter.reset()
        load_once(page, base + path, meter)  # the first visit fills the caches ...
        page.evaluate("""() => Promise.race([  // ... and installs the service worker, if the page has one
            navigator.serviceWorker.ready.then(() => true),
            new Promise((resolve) => setTimeout(() => resolve(false), 20000)),
        ])""")
        page.wait_for_timeout(1000)
        context.close()
        results: dict[str, list[dict]] = {"warm": [], "tab": []}
        for _ in range(RUNS):
            for profile in profiles:
                case = "warm" if profile == "cold" else "warm " + profile
                context, page = session(profile)
                throttle(page, profile)
                meter.reset()
                results.setdefault(case, []).append(load_once(page, base + path, meter))
                context.close()
        context, page = session()
        load_once(page, base + path, meter)
        for _ in range(RUNS):
            tab = context.new_page()
            meter.reset()
            results["tab"].append(load_once(tab, base + path, meter))
            tab.close()
        context.close()
        return results
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def decision_times(browser, base: str) -> dict:
    """Hard's decisions timed in the engine's worker (bench/decide/): medians and tails, in ms."""
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.goto(base + "/bench/decide/")
    page.wait_for_function("document.documentElement.dataset.dealt === '1'", timeout=600_000, polling=500)
    times = json.loads(page.inner_text("#out"))
    context.close()

    def tail(values: list[float], share: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    figures = {"first_discard_ms": times["first_discard"]}
    for kind in ("discard", "play"):
        values = times[kind]
        figures[kind] = {"count": len(values), "median_ms": statistics.median(values),
                         "p90_ms": tail(values, 0.9), "p99_ms": tail(values, 0.99), "max_ms": max(values)}
    return figures


def first_paint(browser, base: str, path: str, meter: Meter) -> dict:
    runs, python_urls = [], set()
    for _ in range(RUNS):
        context = browser.new_context(service_workers="block")
        page = context.new_page()
        page.on("request", lambda request: python_urls.add(request.url) if PYTHON_URL_RE.search(request.url) else None)
        meter.reset()
        page.goto(base + path, wait_until="load")
        paint = page.evaluate("""() => new Promise((resolve) => {
            const find = () => performance.getEntriesByName("first-contentful-paint")[0];
            if (find()) return resolve(find().startTime);
            new PerformanceObserver(() => find() && resolve(find().startTime)).observe({type: "paint", buffered: true});
        })""")
        runs.append({"ms": paint, "bytes": meter.sent})
        context.close()
    return {"fcp_ms": statistics.median(r["ms"] for r in runs), "bytes": statistics.median(r["bytes"] for r in runs),
            "python_urls": sorted(python_urls)}


def ratio_profiles(name: str) -> tuple[str, ...]:
    """The profiles in which target ``name`` (or the baseline twin of one) has a ratio to meet
    (BASELINE_RATIOS), in PROFILES' order; none for any other target.

    >>> ratio_profiles("baseline: calculator: count from ?hand="), ratio_profiles("verifier: deck from ?seed=")
    (('cold',), ())
    """
    ratios = next((r for page, r in BASELINE_RATIOS.items() if name.removeprefix(BASELINE_PREFIX).startswith(page)), {})
    return tuple(profile for profile in PROFILES if profile in ratios)


def measure_ratio_targets(browser, base: str, measured: list, meter: Meter,
                          cold: dict[str, dict[str, list[dict]]]) -> None:
    """Load each ratio target and its baseline twin until ``cold`` (measure_cold's, RUNS each)
    holds RATIO_RUNS loads of them in the profiles their ratios are set for: the extra loads in
    turns of their own, one profile at a time."""
    for profile in PROFILES:
        chosen = [target for target in measured if profile in ratio_profiles(target[0])]
        if chosen and RATIO_RUNS > RUNS:
            more = measure_cold(browser, base, chosen, meter, profiles=(profile,), runs=RATIO_RUNS - RUNS)
            for name, runs in more[profile].items():
                cold[profile][name].extend(runs)


def summary(results: list[dict]) -> dict:
    figures = {key: statistics.median(r[key] for r in results) for key in ("ms", "bytes", "requests", "longest_ms")}
    figures["runs"] = len(results)
    paints = [r["paint_ms"] for r in results if r.get("paint_ms") is not None]
    figures["paint_ms"] = statistics.median(paints) if paints else None
    figures["shift"] = statistics.median(r.get("shift") or 0 for r in results)
    shows = [r.get("shows") for r in results]
    figures["shows"] = {what: shows.count(what) for what in set(shows) if what}
    return figures


def paint_note(fig: dict) -> str:
    """The first paint's time, what it showed on the game page (runs of each), and the layout shift."""
    if fig.get("paint_ms") is None:
        return ""
    shown = ", ".join(f"{what} {n}/{fig.get('runs', RUNS)}" for what, n in sorted(fig.get("shows", {}).items()))
    return f"  paint {fig['paint_ms']:5.0f}{' (' + shown + ')' if shown else ''} shift {fig.get('shift', 0):.3f}"


def show(name: str, scenario: str, fig: dict, floor: dict | None) -> None:
    """One line of the table (with the ratio to the floor's figure for the scenario, once known)."""
    base = floor.get(scenario) if floor else None
    ratio = fig["ms"] / base["ms"] if base and base["ms"] else None
    fig["ratio"] = ratio
    print(f"{name:34} {scenario:14} {fig['ms']:7.0f} {'' if ratio is None else f'{ratio:6.2f}':>6} "
          f"{fig['bytes'] / 1e6:8.3f} {fig['requests']:8.0f} {fig['longest_ms']:9.0f} ms{paint_note(fig)}", flush=True)


def targets(pages: list) -> list[tuple[str, str, str]]:
    """(name, path, ready condition) of everything measured, the floors first."""
    found = [("floor (plain worker)", "/bench/floor/", "dealt"),
             ("pages' worker floor (engine.js)", "/bench/site-worker-floor/", "dealt"),
             ("PyScript worker floor", "/bench/pyscript-floor/", "dealt"),
             ("UI floor (PyScript alone)", "/bench/ui-floor/", "ui")]
    by_template = {p.template: "/" + p.path for p in pages}
    if "game" in by_template:
        found += [("game, practice link: hand dealt", by_template["game"] + "?seed=" + PRACTICE_SEED, "discard"),
                  ("game, new visitor: Deal usable", by_template["game"], "setup")]
    if "game" in by_template:
        name = "game, expert game resumed late"
        STORED[name] = stored_game_script(expert_game(stop_at=EXPERT_RESUME_AT).to_json())
        found.append((name, by_template["game"], "decision"))
    if "calculator" in by_template:
        found.append(("calculator: count from ?hand=", by_template["calculator"] + CALC_HAND, "count"))
    if "verifier" in by_template:
        found.append(("verifier: deck from ?seed=", by_template["verifier"] + CHECK_SEED, "deck"))
    if "replay" in by_template:
        found.append(("replay: expert game from ?code=", by_template["replay"] + "?code=" + expert_code(), "replay"))
    return found


def baseline_targets(measured: list, base: str) -> list[tuple[str, str, str]]:
    """The baseline site's twins (served at ``base``) of this tree's targets in BASELINE_TARGETS."""
    return [(BASELINE_PREFIX + name, base + path, ready) for name, path, ready in measured
            if name.startswith(BASELINE_TARGETS)]


def show_against_baseline(pages: dict) -> None:
    """Each target with a baseline twin: this tree's median over the baseline's, per cold profile,
    against the ratio BASELINE_RATIOS sets for it (if any)."""
    cases = (*PROFILES, "slow")
    print(f"\nAgainst the baseline ({baseline.describe(BASELINE)}): this tree's ms / the baseline's ms = ratio"
          " (target ratio: pass or FAIL)")
    print(f"{'page':34} " + " ".join(f"{case:>44}" for case in cases))
    for name, figures in pages.items():
        twin = pages.get(BASELINE_PREFIX + name)
        if twin is None:
            continue
        cells = []
        ratios = next((r for page, r in BASELINE_RATIOS.items() if name.startswith(page)), {})
        for case in cases:
            now, then = figures[case]["ms"], twin[case]["ms"]
            ratio = now / then
            figures[case]["baseline_ms"], figures[case]["baseline_ratio"] = then, ratio
            target = ratios.get(case)
            loads = f", {figures[case]['runs']} loads each" if target is not None else ""
            verdict = "" if target is None else f" ({target:.2f}: {'pass' if ratio <= target else 'FAIL'}{loads})"
            cells.append(f"{now:.0f} / {then:.0f} = {ratio:.2f}{verdict}")
        print(f"{name:34} " + " ".join(f"{cell:>44}" for cell in cells), flush=True)


def expert_game(stop_at: int = 0):
    """A two-player game to 121 against the expert, the person played by hard: whole, or stopped
    at the person's first decision from move ``stop_at`` on."""
    from engine.game import new_game
    from engine.players import get_player
    from engine.record import COMPUTER_SEED

    state = new_game(seed=REPLAY_SEED, seats=["person", "expert"])
    state.practice = False
    person, expert = get_player("hard", seed="bench-person"), get_player("expert", seed=COMPUTER_SEED)
    moves = 0
    while not state.is_over and not (stop_at and moves >= stop_at and state.to_act == 0):
        view = state.view(state.to_act)
        state.apply((person if state.to_act == 0 else expert).choose(view, view["legal_actions"]))
        moves += 1
    return state


def expert_code() -> str:
    """The code of a whole two-player game to 121 against the expert, as a player would share
    it: what the replay page opens."""
    from engine.share import encode

    return encode(expert_game())


def stored_game_script(game_json: str) -> str:
    """A script that stores ``game_json`` as the game page's saved game, so the page resumes it."""
    envelope = {"v": 1, "game": game_json, "tab": "bench", "rev": 1, "time": 0,
                "meta": {"stop": "", "difficulty": "expert", "practice": False, "practice_seed": None, "recorded": True,
                         "players": 2, "pass_and_play": False, "names": [], "started": None}}
    return f"\ntry {{ localStorage.setItem('cribbage.game.v1', {json.dumps(json.dumps(envelope))}); }} catch (e) {{}}\n"


def main() -> None:
    from playwright.sync_api import sync_playwright

    meter = Meter()
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
        site, pages = prepare_site(Path(tmp), DECISIONS)
        server, base = start_server(site, meter)
        measured = [t for t in targets(pages) if not ONLY or t[0].startswith("floor") or any(w in t[0] for w in ONLY)]
        servers = [server]
        if BASELINE:
            old_server, old_base = start_server(baseline.build_revision(BASELINE, Path(tmp) / "baseline"), meter)
            servers.append(old_server)
            measured += baseline_targets(measured, old_base)
        reference = [p for p in pages if p.template == "page"]
        report: dict = {"runs": RUNS, "pages": {}, "reference": {}}
        print(f"Time until ready, medians of {RUNS} (of {RATIO_RUNS} for a target with a ratio to the baseline to meet,"
              " and its baseline, in that ratio's profiles); ratio = page / floor (plain worker)")
        print(f"{'page':34} {'case':14} {'ms':>7} {'ratio':>6} {'MB sent':>8} {'requests':>8} {'longest block':>12}"
              "  first paint (what it showed) layout shift")
        loads_python = []
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                floor = None
                cold = measure_cold(browser, base, measured, meter, profiles=tuple(PROFILES))
                if BASELINE:
                    measure_ratio_targets(browser, base, measured, meter, cold)
                slow = measure_cold(browser, base, measured, meter, SLOW_BITS_PER_S / 8, SLOW_LATENCY_S)["cold"]
                for name, _, _ in measured:
                    report["pages"][name] = figures = {profile: summary(cold[profile][name]) for profile in PROFILES}
                    figures["slow"] = summary(slow[name])
                    floor = floor or figures
                    for case in (*PROFILES, "slow"):
                        show(name, case, figures[case], floor)
                browser.close()
                if BASELINE:
                    show_against_baseline(report["pages"])
                for name, path, ready in measured:
                    if name.startswith(BASELINE_PREFIX):
                        continue  # the baseline is measured cold and slow only
                    profiles = tuple(PROFILES) if name.startswith("game,") else ("cold",)
                    for case, runs in measure_warm(playwright, base, path, ready, meter, profiles, name).items():
                        report["pages"][name][case] = summary(runs)
                for case in (*WARM_PROFILES, "tab"):
                    for name, _, _ in measured:
                        if case in report["pages"][name]:
                            show(name, case, report["pages"][name][case], floor)
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                decisions = report["decisions"] = decision_times(browser, base) if DECISIONS else None
                print() if decisions is None else print(f"\nHard's decisions in the engine's worker (computer_move, reply included), ms; "
                      f"first discard {decisions['first_discard_ms']:.0f}")
                for kind in ("discard", "play") if decisions else ():
                    d = decisions[kind]
                    print(f"  {kind:8} n={d['count']:4} median {d['median_ms']:6.1f}  p90 {d['p90_ms']:6.1f}  "
                          f"p99 {d['p99_ms']:6.1f}  max {d['max_ms']:6.1f}", flush=True)
                print(f"\nReference pages, cold: first contentful paint and bytes, medians of {RUNS}")
                for page in reference:
                    fig = report["reference"]["/" + page.path] = first_paint(browser, base, "/" + page.path, meter)
                    print(f"{'/' + page.path:34} {fig['fcp_ms']:7.0f} ms {fig['bytes'] / 1e3:8.1f} kB", flush=True)
                    if fig["python_urls"]:
                        loads_python.append(f"/{page.path}: {', '.join(fig['python_urls'][:3])}")
                browser.close()
        finally:
            for running in servers:
                running.shutdown()
                running.server_close()

    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"saved {OUT.relative_to(ROOT)}")
    if loads_python:
        raise AssertionError("reference pages loaded Python or wasm:\n" + "\n".join(loads_python))


if __name__ == "__main__":
    main()
