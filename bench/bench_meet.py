"""Friend games through a meeting point: the built game page, a real Nostr relay, two browser contexts on loopback.

The relay is the one the browser tests start (tests/e2e/relay.py: nostr-relay from PyPI, on
127.0.0.1). The pages are driven as tests/e2e/test_friend_meet.py drives them: Ann makes an
invitation for a friend somewhere else, allowing the meeting point; Bob opens the link and
accepts; nothing else is sent. The browser cannot make a direct connection (mDNS names do not
resolve), so every message goes through the meeting point. Times are taken inside the pages
(bench_friend.STAMPS, and the marks below) on the machine's clock.

Figures, each the median (min-max) of MEET_RUNS games:

- the invitation opened -> the first hand on both screens: from the moment Bob's page is asked to
  open the invitation link (the page loads, Bob accepts at once) to both pages showing their six
  cards. Target 2 s. Also from Bob's click on Accept.
- a reload back in play: from the reload's navigation to the page saying the game is as it was,
  its table waiting for a move, mid-hand, each side once a run. Target 2 s.
- a card laid to the other screen through the meeting point: from the key that lays it to the
  card shown on the other page (bench_friend.timed_lay), CARDS_PER_RUN cards a run. Target 300
  ms. (The same figure over a direct connection is bench_friend's "card laid".)

Figures are printed and saved to .bench/meet.json.
"""

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
for folder in (ROOT, ROOT / "tests" / "e2e"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from bench.bench_friend import STAMPS, close, play_timed, spread  # noqa: E402
from bench.harness import CHROMIUM, CHROMIUM_ARGS, RUNS, Meter, measure_built_site, start_server  # noqa: E402
from tests.e2e.relay import Relay  # noqa: E402
from tests.e2e.test_friend_meet import accept, invite_through  # noqa: E402
from tests.e2e.test_friend_play import mid_hand, play  # noqa: E402

OUT = ROOT / ".bench" / "meet.json"
MEET_RUNS = max(1, min(RUNS, 3))
CARDS_PER_RUN = 6
TIMEOUT_MS = 30_000
VIEWPORT = {"width": 1280, "height": 720}
TARGETS = {"open_to_hands_ms": 2000, "reload_ms": 2000, "card_ms": 300}

MARKS = """
(() => {
  if (window.top !== window) return;
  const now = () => performance.timeOrigin + performance.now();
  const b = window.__meet = {acceptAt: null, backAt: null};
  document.addEventListener("click", (event) => {
    if (event.target && event.target.closest && event.target.closest("#friend-accept")) b.acceptAt = now();
  }, true);
  new MutationObserver(() => {
    if (b.backAt !== null) return;
    const said = document.getElementById("announce"), game = document.getElementById("game");
    if (said && said.textContent.includes("as you left it") && game
        && ["discard", "play", "go", "next", "claim", "count", "friend"].includes(game.dataset.await)) b.backAt = now();
  }).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})();
"""


def open_pair(browser, base: str):
    contexts = [browser.new_context(base_url=base, viewport=VIEWPORT, service_workers="block") for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.add_init_script(STAMPS)
        page.add_init_script(MARKS)
    return pages, contexts


def reload_back(page) -> float:
    """Reload the page mid-hand: ms from the reload's navigation to the game back in play."""
    page.reload()
    page.wait_for_function("window.__meet && window.__meet.backAt !== null", timeout=TIMEOUT_MS)
    return page.evaluate("window.__meet.backAt - performance.timeOrigin")


def meet_run(browser, base: str, relay_url: str) -> dict:
    (ann, bob), contexts = open_pair(browser, base)
    try:
        invite = invite_through(ann, relay_url)
        opened = time.time() * 1000
        accept(bob, invite, relay_url)
        for page in (ann, bob):
            page.wait_for_function("window.__bench.handAt !== null", timeout=TIMEOUT_MS)
        shown = max(page.evaluate("window.__bench.handAt") for page in (ann, bob))
        accepted = bob.evaluate("window.__meet.acceptAt")
        cards = play_timed([ann, bob], CARDS_PER_RUN)
        reloads = []
        last = [-1, -1]
        for k, page in enumerate((ann, bob)):
            play([ann, bob], until=mid_hand(page, k + 2), last=last)
            reloads.append(reload_back(page))
            last[k] = -1
        return {"open_to_hands_ms": shown - opened, "accept_to_hands_ms": shown - accepted, "reload_ms": reloads,
                "card_ms": cards}
    finally:
        close(contexts)


def measure(site: Path) -> dict:
    from playwright.sync_api import sync_playwright

    server, base = start_server(site, Meter())
    relay = Relay()
    runs = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for _ in range(MEET_RUNS):
                runs.append(meet_run(browser, base, relay.url))
            browser.close()
    finally:
        relay.stop()
        server.shutdown()
        server.server_close()
    report = {
        "open_to_hands_ms": spread([r["open_to_hands_ms"] for r in runs]),
        "accept_to_hands_ms": spread([r["accept_to_hands_ms"] for r in runs]),
        "reload_ms": spread([ms for r in runs for ms in r["reload_ms"]]),
        "card_ms": spread([ms for r in runs for ms in r["card_ms"]]),
        "runs": MEET_RUNS, "cards_per_run": CARDS_PER_RUN, "targets": dict(TARGETS),
    }
    print_table(report)
    return report


def print_table(report: dict) -> None:
    rows = [
        ("invitation opened -> first hand, both screens", "open_to_hands_ms", TARGETS["open_to_hands_ms"]),
        ("  of which from Accept", "accept_to_hands_ms", None),
        ("reload -> back in play", "reload_ms", TARGETS["reload_ms"]),
        ("card laid -> other screen, via the meeting point", "card_ms", TARGETS["card_ms"]),
    ]
    print(f"friend games through a meeting point (nostr-relay on loopback), {report['runs']} runs")
    for label, key, target in rows:
        entry = report[key]
        value = f"{entry['median']:.0f} ({entry['min']:.0f}-{entry['max']:.0f}) ms"
        verdict = "" if target is None else ("met" if entry["median"] <= target else "NOT MET")
        print(f"{label:52} {value:24} {'' if target is None else str(target) + ' ms':10} {verdict}", flush=True)


def main() -> None:
    measure_built_site(measure, OUT, "bench-meet-")


if __name__ == "__main__":
    main()
