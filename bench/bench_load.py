"""Page load against the floor of this design: time to playable, bytes and main-thread blocking.

The site is built into a private folder with one extra page, floor/, that only starts the
vendored Pyodide in a plain Web Worker and imports the engine: no PyScript, no MicroPython, no
UI. That is the least any page of this design can do before it can play, so each page's time to
playable (html[data-engine="ready"] and html[data-ui="ready"] both set, in the page's own
clock) is printed as a ratio to it. A second extra page, ui-floor/, starts PyScript with
MicroPython and runs a one-line script: its longest main-thread block is what PyScript's own
start costs any page whose UI runs on it.

Scenarios, medians of RUNS (5) each:

- cold: a fresh browser profile every run (empty cache, no service worker), local link;
- slow: the same over a shared 20 Mbit/s link with 40 ms per request, the server's own pacing
  (it holds for workers and every request alike), where download size shows;
- warm: one persistent profile visited twice (the first visit installs the service worker; the
  second, served by it, lets the engine's worker keep a snapshot of the started engine, see
  site_src/static/engine-worker.mjs), then every run a newly started browser on that profile:
  what a returning visitor waits. The floor page has no service worker, so no snapshot. The
  second visit (one run, the one that keeps the snapshot) is printed too, as "second".

Bytes are counted at the server (headers and bodies as sent, so compression and 304s count as
what they are) until the page is playable. The longest main-thread block comes from a
PerformanceObserver for 'longtask' entries that start before the page is playable (only those
above 50 ms exist, so 0 means none).
Reference pages are measured for first contentful paint (cold), and must load no Python.
Figures are printed and saved to .bench/load.json. BENCH_RUNS=n changes the number of runs;
BENCH_VARIANT=untrimmed measures the same build with the load-budget work undone (the full
python_stdlib.zip, package lock and PyScript folder, no runtime preloads, no gzip), for comparison.
"""

from __future__ import annotations

import json
import os
import re
import shutil
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

OUT = ROOT / ".bench" / "load.json"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
VARIANT = os.environ.get("BENCH_VARIANT", "")
TIMEOUT_MS = 180_000
LONG_TASK_SETTLE_MS = 300
SLOW_BITS_PER_S = 20_000_000
SLOW_LATENCY_S = 0.040
PYTHON_URL_RE = re.compile(r"\.wasm$|\.m?py$|pyodide|pyscript|micropython|engine-worker|/engine/", re.I)

# Runs before any page script: long tasks, and the moment both markers are set.
INIT_SCRIPT = """
(() => {
  // Long tasks are reported once they end, so the one that makes the page playable arrives
  // after that moment: every task that started before it counts (load_once waits for it).
  const load = window.__load = {playable: null, longest: 0, tasks: []};
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        load.tasks.push([entry.startTime, entry.duration]);
        if (load.playable === null || entry.startTime < load.playable) {
          load.longest = Math.max(load.longest, entry.duration);
        }
      }
    }).observe({type: "longtask", buffered: true});
  } catch (error) {}
  const check = () => {
    const html = document.documentElement;
    if (load.playable === null && html && html.dataset.engine === "ready" && html.dataset.ui === "ready") {
      load.playable = performance.now();
    }
  };
  // The <html> element does not exist yet when this runs: watch the whole document.
  new MutationObserver(check).observe(document, {attributes: true, subtree: true,
                                                 attributeFilter: ["data-engine", "data-ui"]});
  document.addEventListener("DOMContentLoaded", check);
})();
"""

FLOOR_HTML = """<!doctype html>
<html lang="en" data-engine="loading" data-ui="ready">
<head><meta charset="utf-8"><title>Floor: Pyodide in a worker, importing the engine</title>
<link rel="icon" href="data:,"></head>
<body><p id="status">Loading…</p><script src="floor.js"></script></body>
</html>
"""
FLOOR_JS = """
const worker = new Worker("floor-worker.mjs", {type: "module"});
worker.onmessage = (event) => {
  document.getElementById("status").textContent = event.data;
  document.documentElement.dataset.engine = event.data.startsWith("ready") ? "ready" : "error";
};
"""
FLOOR_WORKER = """
import {loadPyodide} from "../../runtime/pyodide/pyodide.mjs";
try {
  const site = new URL("../../", import.meta.url);
  const [pyodide, paths] = await Promise.all([
    loadPyodide({indexURL: new URL("runtime/pyodide/", site).href}),
    fetch(new URL("app/engine-files.json", site)).then((r) => r.json()).then((listing) => listing.files),
  ]);
  await Promise.all(paths.map(async (path) => {
    const data = new Uint8Array(await (await fetch(new URL(path, site))).arrayBuffer());
    const target = "/home/pyodide/" + path;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, data);
  }));
  pyodide.runPython("import engine.api");
  postMessage("ready: " + pyodide.runPython("import sys; sys.version.split()[0]"));
} catch (error) {
  postMessage("error: " + error);
}
"""
UI_FLOOR_HTML = """<!doctype html>
<html lang="en" data-engine="ready" data-ui="loading">
<head><meta charset="utf-8"><title>UI floor: PyScript and MicroPython, nothing else</title>
<link rel="icon" href="data:,">
<script type="module" src="../../runtime/pyscript/core.js"></script></head>
<body><p>Loading…</p>
<script type="mpy" config="./ui-floor.toml">
import js
js.document.documentElement.setAttribute("data-ui", "ready")
</script></body>
</html>
"""
UI_FLOOR_TOML = """interpreter = "../../runtime/micropython/micropython.mjs"
plugins = ["!error"]
"""


class Meter:
    """Counts bytes the server sends; optionally paces them like a slow shared link."""

    def __init__(self):
        self.lock = threading.Lock()
        self.sent = 0
        self.requests = 0
        self.rate = 0.0  # bytes per second, 0 = unlimited
        self.latency = 0.0
        self.clock = 0.0  # when the link is free again (pacing)

    def reset(self, rate: float = 0.0, latency: float = 0.0) -> None:
        with self.lock:
            self.sent, self.requests, self.rate, self.latency = 0, 0, rate, latency
            self.clock = time.monotonic()

    def take(self, size: int) -> float:
        """Account for ``size`` bytes; returns how long the sender should wait first."""
        with self.lock:
            self.sent += size
            if not self.rate:
                return 0.0
            now = time.monotonic()
            self.clock = max(self.clock, now) + size / self.rate
            return self.clock - now


class MeteredWriter:
    CHUNK = 16 * 1024

    def __init__(self, raw, meter: Meter):
        self.raw, self.meter = raw, meter

    def write(self, data) -> int:
        view = memoryview(data)
        for start in range(0, len(view), self.CHUNK):
            piece = view[start:start + self.CHUNK]
            wait = self.meter.take(len(piece))
            if wait > 0:
                time.sleep(wait)
            self.raw.write(piece)
        return len(view)

    def flush(self):
        self.raw.flush()

    def __getattr__(self, name):
        return getattr(self.raw, name)


def start_server(directory: Path, meter: Meter, compress: bool = True) -> tuple[ThreadingHTTPServer, str]:
    base = build.make_handler(directory, compress=compress)

    class Handler(base):
        def setup(self):
            super().setup()
            self.wfile = MeteredWriter(self.wfile, meter)

        def handle_one_request(self):
            if meter.latency:
                time.sleep(meter.latency)
            with meter.lock:
                meter.requests += 1
            super().handle_one_request()

    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request, client_address):
            if not isinstance(sys.exc_info()[1], ConnectionError):  # a browser closed mid-transfer
                super().handle_error(request, client_address)

    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}"


def prepare_site(folder: Path) -> tuple[Path, list]:
    """Build the site into ``folder`` and add the floor page; returns (site, pages)."""
    site = build.build(folder / "dist", quiet=True)
    floor = site / "bench" / "floor"
    floor.mkdir(parents=True)
    (floor / "index.html").write_text(FLOOR_HTML, encoding="utf-8")
    (floor / "floor.js").write_text(FLOOR_JS, encoding="utf-8")
    (floor / "floor-worker.mjs").write_text(FLOOR_WORKER, encoding="utf-8")
    ui_floor = site / "bench" / "ui-floor"
    ui_floor.mkdir(parents=True)
    (ui_floor / "index.html").write_text(UI_FLOOR_HTML, encoding="utf-8")
    (ui_floor / "ui-floor.toml").write_text(UI_FLOOR_TOML, encoding="utf-8")
    return site, build.load_pages()


def untrim(site: Path) -> None:
    """Undo the load-budget work in a built site: the stock runtime files, no preloads, no .gz."""
    for name, (package, files) in build.RUNTIME_FILES.items():
        source = build.NODE_MODULES / package
        for path in sorted(source.rglob("*")) if files is None else [source / f for f in files]:
            if path.is_file() and path.suffix != ".map":
                target = site / "runtime" / name / path.relative_to(source)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target)
    for twin in site.rglob("*.gz"):
        twin.unlink()
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        page.write_text(re.sub(r'<link rel="(?:modulepreload|preload)" href="[^"]*runtime/[^"]*"[^>]*>\n', "", text),
                        encoding="utf-8")


def load_once(page, url: str, meter: Meter) -> dict:
    """Open ``url``; wait until playable; return its figures."""
    page.goto(url, wait_until="commit")
    page.wait_for_function("window.__load && window.__load.playable !== null", timeout=TIMEOUT_MS, polling=50)
    sent, requests = meter.sent, meter.requests
    page.wait_for_timeout(LONG_TASK_SETTLE_MS)  # the task that set the markers is reported after it ends
    figures = page.evaluate("window.__load")
    state = page.get_attribute("html", "data-engine")
    if state != "ready":
        raise RuntimeError(f"{url}: the engine did not start ({state})")
    return {"ms": figures["playable"], "bytes": sent, "requests": requests, "longest_ms": figures["longest"],
            "from": page.get_attribute("html", "data-engine-from")}


def measure_cold(browser, base: str, path: str, meter: Meter, rate: float = 0.0, latency: float = 0.0) -> list[dict]:
    results = []
    for _ in range(RUNS):
        context = browser.new_context(service_workers="block")
        context.add_init_script(INIT_SCRIPT)
        page = context.new_page()
        meter.reset(rate, latency)
        results.append(load_once(page, base + path, meter))
        context.close()
        meter.reset()
    return results


def measure_warm(playwright, base: str, path: str, meter: Meter) -> list[dict]:
    profile = Path(tempfile.mkdtemp(prefix="bench-profile-"))
    try:
        def session():
            context = playwright.chromium.launch_persistent_context(
                str(profile), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            context.add_init_script(INIT_SCRIPT)
            return context, context.pages[0] if context.pages else context.new_page()

        context, page = session()
        meter.reset()
        load_once(page, base + path, meter)  # the first visit fills the caches ...
        installed = page.evaluate("""() => Promise.race([  // ... and installs the service worker, if any
            navigator.serviceWorker.ready.then(() => true),
            new Promise((resolve) => setTimeout(() => resolve(false), 20000)),
        ])""")
        page.wait_for_timeout(1000)
        context.close()
        second = None
        if installed:  # the second visit, served by the service worker, keeps the engine's snapshot
            context, page = session()
            meter.reset()
            second = load_once(page, base + path, meter)
            deadline = time.monotonic() + TIMEOUT_MS / 1000
            while not page.evaluate("""async () => (await (await caches.open("engine-snapshots")).keys()).length"""):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{path}: the engine's worker kept no snapshot")
                page.wait_for_timeout(200)
            context.close()
        results = []
        for _ in range(RUNS):
            context, page = session()
            meter.reset()
            results.append(load_once(page, base + path, meter))
            context.close()
        return results, second
    finally:
        shutil.rmtree(profile, ignore_errors=True)


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


def summary(results: list[dict]) -> dict:
    return {key: statistics.median(r[key] for r in results) for key in ("ms", "bytes", "requests", "longest_ms")}


def show(name: str, scenario: str, fig: dict, floor: dict | None, base: str | None = None) -> None:
    """One line of the table (the ratio once the floor's figure for the scenario, or for the
    scenario ``base``, is known)."""
    base = floor.get(base or scenario) if floor else None
    ratio = fig["ms"] / base["ms"] if base and base["ms"] else None
    fig["ratio"] = ratio
    note = f"  (engine from its snapshot in {fig['from_snapshot']} of {RUNS})" if fig.get("from_snapshot") else ""
    print(f"{name:26} {scenario:6} {fig['ms']:8.0f} {'' if ratio is None else f'{ratio:6.2f}':>6} "
          f"{fig['bytes'] / 1e6:8.2f} {fig['requests']:8.0f} {fig['longest_ms']:11.0f} ms{note}", flush=True)


def main() -> None:
    from playwright.sync_api import sync_playwright

    meter = Meter()
    with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
        site, pages = prepare_site(Path(tmp))
        if VARIANT == "untrimmed":
            untrim(site)
        elif VARIANT:
            raise ValueError(f"unknown BENCH_VARIANT {VARIANT!r}")
        server, base = start_server(site, meter, compress=VARIANT != "untrimmed")
        targets = [("floor", "/bench/floor/"), ("UI floor (PyScript alone)", "/bench/ui-floor/")]
        for template in ("game", "calculator"):
            page = next((p for p in pages if p.template == template), None)
            if page:
                targets.append((f"{template} (/{page.path})", "/" + page.path))
        reference = [p for p in pages if p.template == "page"]
        report: dict = {"runs": RUNS, "variant": VARIANT or "shipped", "pages": {}, "reference": {}}
        print(f"Time to playable (engine and UI ready), medians of {RUNS}; ratio = page / floor "
              f"({report['variant']} build)")
        print(f"{'page':26} {'case':6} {'ms':>8} {'ratio':>6} {'MB sent':>8} {'requests':>8} {'longest block':>14}")
        loads_python = []
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for name, path in targets:
                    report["pages"][name] = figures = {}
                    figures["cold"] = summary(measure_cold(browser, base, path, meter))
                    show(name, "cold", figures["cold"], report["pages"].get("floor"))
                    figures["slow"] = summary(measure_cold(browser, base, path, meter, SLOW_BITS_PER_S / 8, SLOW_LATENCY_S))
                    show(name, "slow", figures["slow"], report["pages"].get("floor"))
                browser.close()
                for name, path in targets:
                    runs, second = measure_warm(playwright, base, path, meter)
                    if second:
                        report["pages"][name]["second"] = second
                        show(name, "second", second, report["pages"].get("floor"), base="warm")
                    report["pages"][name]["warm"] = summary(runs)
                    report["pages"][name]["warm"]["from_snapshot"] = sum(r["from"] == "snapshot" for r in runs)
                    show(name, "warm", report["pages"][name]["warm"], report["pages"].get("floor"))
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                print(f"\nReference pages, cold: first contentful paint and bytes, medians of {RUNS}")
                for page in reference:
                    fig = report["reference"]["/" + page.path] = first_paint(browser, base, "/" + page.path, meter)
                    print(f"{'/' + page.path:26} {fig['fcp_ms']:8.0f} ms {fig['bytes'] / 1e3:8.1f} kB", flush=True)
                    if fig["python_urls"]:
                        loads_python.append(f"/{page.path}: {', '.join(fig['python_urls'][:3])}")
                browser.close()
        finally:
            server.shutdown()
            server.server_close()

    out = OUT.with_name(f"load-{VARIANT}.json") if VARIANT else OUT
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"saved {out.relative_to(ROOT)}")
    if loads_python:
        raise AssertionError("reference pages loaded Python or wasm:\n" + "\n".join(loads_python))


if __name__ == "__main__":
    main()
