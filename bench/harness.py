"""What every browser bench shares: Chromium and the flags it is started with, the number of runs,
and the static server the benches load the built site from (metered: bytes and requests counted,
optionally paced like a slow link), with ``measure_built_site`` to run a bench on a built site.
"""

import json
import os
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
from site_src.builder import serve  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    # The browser's own address-bar popup, which it builds in a hidden page as it starts (about 0.3 s
    # of CPU over its first half second) and a headless browser never shows. Left in, that work falls
    # on every load made in a newly started browser (cold, warm), which a visitor opening a link in a
    # browser already running does not pay.
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup",
]
RUNS = int(os.environ.get("BENCH_RUNS", "5"))


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


def measure_built_site(measure, out: Path, prefix: str) -> None:
    """Run ``measure(site)`` on BENCH_DIST (an already built site) or on a fresh build in a
    temporary folder, and save the report it returns as JSON to ``out``."""
    given = os.environ.get("BENCH_DIST")
    started = time.perf_counter()
    if given:
        report = measure(Path(given).resolve())
    else:
        with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
            site = build.build(Path(tmp) / "dist", quiet=True)
            print(f"built the site in {time.perf_counter() - started:.0f} s", flush=True)
            report = measure(site)
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(f"saved {out.relative_to(ROOT)}")


def start_server(directory: Path, meter: Meter) -> tuple[ThreadingHTTPServer, str]:
    base = serve.make_handler(directory)

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
