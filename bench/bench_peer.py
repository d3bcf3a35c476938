"""A direct connection between two pages (site_src/app/peer_link.py): how long from applying the
answer to the data channel open, and how long the compact offer and answer are.

The site is built into a private folder (or BENCH_DIST is used), and tests/e2e/peer_probe (the
page the browser test drives PeerLink with) is served beside it under the policy of a page that
runs Python. Each run opens the probe twice, makes the offer on one page, the answer on the
other, applies it back and waits for both channels to open, with no ICE servers (loopback, this
machine). Two cases, RUNS (5) each: the two pages in two contexts of one browser, and in two
separate browser processes. Figures are printed and saved to .bench/peer.json.
"""

import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.harness import CHROMIUM, CHROMIUM_ARGS, RUNS, Meter, measure_built_site, start_server  # noqa: E402
from site_src.builder import security  # noqa: E402

OUT = ROOT / ".bench" / "peer.json"
PROBE = ROOT / "tests" / "e2e" / "peer_probe"
TIMEOUT_MS = 30_000
# mDNS names (<uuid>.local, Chromium's host candidates with no ICE server) must resolve.
PEER_ARGS = [arg + ", EXCLUDE *.local" if arg.startswith("--host-resolver-rules=") else arg for arg in CHROMIUM_ARGS]


def probe_site(site: Path, folder: Path) -> Path:
    """A folder serving the probe page next to the built site's runtime, app and static files."""
    for name in ("runtime", "app", "engine", "static"):
        (folder / name).symlink_to(site / name, target_is_directory=True)
    shutil.copytree(PROBE, folder / "probe")
    html = (folder / "probe" / "index.html").read_text(encoding="utf-8")
    (folder / "probe" / "index.html").write_text(security.with_csp(html, "peer probe"), encoding="utf-8")
    return folder


def wait_text(page, selector: str) -> str:
    page.wait_for_function(f"document.querySelector({selector!r}).textContent.length > 0", timeout=TIMEOUT_MS)
    return page.inner_text(selector)


def connect_once(inviter, friend, url: str) -> dict:
    """One connection through the probe; the inviter's time from applying the answer to open."""
    for page in (inviter, friend):
        page.goto(url)
        page.wait_for_selector("html[data-ui='ready']", state="attached", timeout=TIMEOUT_MS)
    inviter.click("#offer")
    offer = wait_text(inviter, "#code")
    friend.fill("#input", offer)
    friend.click("#answer")
    answer = wait_text(friend, "#code")
    inviter.fill("#input", answer)
    inviter.click("#accept")
    for page in (inviter, friend):
        page.wait_for_selector("html[data-peer='open']", state="attached", timeout=TIMEOUT_MS)
    return {"open_ms": float(wait_text(inviter, "#timing")), "offer_chars": len(offer), "answer_chars": len(answer)}


def summary(runs: list[dict]) -> dict:
    times = [r["open_ms"] for r in runs]
    return {"runs": len(runs), "open_ms_median": statistics.median(times), "open_ms_min": min(times),
            "open_ms_max": max(times), "offer_chars": max(r["offer_chars"] for r in runs),
            "answer_chars": max(r["answer_chars"] for r in runs)}


def measure(site: Path) -> dict:
    from playwright.sync_api import sync_playwright

    report = {}
    with tempfile.TemporaryDirectory(prefix="bench-peer-") as tmp:
        server, base = start_server(probe_site(site, Path(tmp)), Meter())
        url = base + "/probe/"
        try:
            with sync_playwright() as playwright:
                def launch():
                    return playwright.chromium.launch(executable_path=CHROMIUM, args=PEER_ARGS)

                browser = launch()
                runs = []
                for _ in range(RUNS):
                    contexts = [browser.new_context(service_workers="block") for _ in range(2)]
                    runs.append(connect_once(contexts[0].new_page(), contexts[1].new_page(), url))
                    for context in contexts:
                        context.close()
                browser.close()
                report["two contexts, one browser"] = summary(runs)
                runs = []
                for _ in range(RUNS):
                    browsers = [launch(), launch()]
                    pages = [b.new_context(service_workers="block").new_page() for b in browsers]
                    runs.append(connect_once(pages[0], pages[1], url))
                    for b in browsers:
                        b.close()
                report["two browser processes"] = summary(runs)
        finally:
            server.shutdown()
            server.server_close()
    print(f"PeerLink, no ICE servers, loopback; medians of {RUNS}")
    print(f"{'case':28} {'answer applied -> open, ms':>27} {'(min-max)':>14} {'offer':>6} {'answer':>7} chars")
    for case, fig in report.items():
        print(f"{case:28} {fig['open_ms_median']:27.0f} {fig['open_ms_min']:6.0f}-{fig['open_ms_max']:<7.0f} "
              f"{fig['offer_chars']:6} {fig['answer_chars']:7}", flush=True)
    return report


def main() -> None:
    measure_built_site(measure, OUT, "bench-peer-")


if __name__ == "__main__":
    main()
