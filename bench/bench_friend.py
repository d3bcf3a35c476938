"""Friend games on the built game page ("/"): two browser contexts of one Chromium on loopback.

The site is built into a private folder (or BENCH_DIST is used) and served from 127.0.0.1. The
pages are driven as tests/e2e/test_friend_play.py drives them (its helpers are imported): Ann
makes the invitation, Bob opens it and accepts, Ann pastes the reply. Times are taken inside the
pages with ``performance.timeOrigin + performance.now()`` (the two contexts share the machine's
clock): a capture click listener stamps the click that starts the game and every click on a card
of the hand, a MutationObserver stamps the moment the six dealt cards are shown and the moment a
card laid by the other side appears among the cards laid (#laid).

Figures, each the median (min-max) of FRIEND_RUNS live games (RUNS, at most 3: each run loads two
pages and plays a hand):

- reply pasted -> first hand on both screens: from the click on #friend-connect on Ann's page to
  Ann's page waiting for her discard (#game[data-await='discard']) with six cards in #my-hand,
  and Bob's page showing his six cards in #my-hand, whichever comes later. Target 2 s.
- the sealed deck's wait (a live game is sealed): each side's first hand against the baseline's
  (below), and from each click on the next hand's button to its six cards shown (NEXT_HANDS
  hands a page a run: those decks are sealed while the hand before is played; the friend's
  discard then waits for the inviter's, the engine taking the two in seat order, which is no
  wait for the seal and is not counted). Target: no longer than the deal takes. Also from the
  connection opening to each page's table (the cut and both hands: face down first if the cards
  take longer than friend_seal.PREVIEW_WAIT, else shown with them) and to each page's hand.
- a card laid appears on the other screen (live connection, mDNS allowed): from the key that lays
  the card (Enter on the focused card in #my-hand, which lays it at once; a click may only raise
  it) to the card in the other page's #laid, CARDS_PER_RUN cards a run, at the table's normal
  pace (a page still showing its own last card at that pace shows the friend's next one after
  it, as a player sees it). Target 200 ms.
- the invitation link (#friend-invite-link, target 700 characters) and the reply's length.
- the last move link (#friend-move-link) after one whole game to 61 by links only, in a browser
  whose pages cannot open a direct connection (mDNS names do not resolve, as NO_MDNS_ARGS in the
  tests), played at the fast pace. No target is set for it; the tests require under 2000
  characters, shown beside it.

Baseline: the site before live games were sealed (BASELINE, bench/baseline.py; its deal comes
from both players' secrets, which the inviter's page has once the reply is pasted) is built too,
and its first hand timed in the same run, one live game of it after each of this tree's: from
the click on #friend-connect to each page's six cards. The seal's wait for a side is its sealed
first hand less the baseline's (reply pasted -> that side's six cards), and "the deal" is the
baseline's inviter's figure (reply pasted -> the deal on her table); the target: no side waits
for the seal longer than the deal takes. BENCH_BASELINE=none leaves the baseline out (the seal's
rows then have no target).

Figures are printed and saved to .bench/friend.json.
"""

import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import baseline  # noqa: E402
from bench.harness import CHROMIUM, CHROMIUM_ARGS, RUNS, Meter, measure_built_site, start_server  # noqa: E402
from tests.e2e.test_friend_play import ACTIONS, invite_and_accept, play  # noqa: E402
from tests.e2e.test_game_play import awaiting, decision, move, playable  # noqa: E402

OUT = ROOT / ".bench" / "friend.json"
FRIEND_RUNS = max(1, min(RUNS, 3))
CARDS_PER_RUN = 6
TIMEOUT_MS = 30_000
LINK_GAME_SECONDS = 150
VIEWPORT = {"width": 1280, "height": 720}
# mDNS names (<uuid>.local, Chromium's host candidates with no ICE server) must resolve.
PEER_ARGS = [arg + ", EXCLUDE *.local" if arg.startswith("--host-resolver-rules=") else arg for arg in CHROMIUM_ARGS]
NO_MDNS_ARGS = CHROMIUM_ARGS  # .local names do not resolve: no direct connection, play by link
NEXT_HANDS = 2  # hands dealt after the first, timed on each page
BASELINE = baseline.revision("6650de4")  # the site before live games were sealed
TARGETS = {"first_hand_ms": 2000, "card_ms": 200, "invite_chars": 700, "move_link_chars": 2000,
           "seal_wait_ms": None}  # the seal's wait: no longer than the deal (the baseline's, measured in the run)

# Runs before any page script: the clicks and the moments the bench waits for, on the page's clock.
STAMPS = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const b = window.__bench = {connectAt: null, openAt: null, tableAt: null, handAt: null, discardAt: null, keys: [], want: null,
                               seenAt: null, nextAt: null, nextWaits: []};
  document.addEventListener("click", (event) => {
    const at = now(), target = event.target;
    if (!target || !target.closest) return;
    if (target.closest("#friend-connect")) b.connectAt = at;
    if (target.closest("#next-button")) b.nextAt = at;
  }, true);
  document.addEventListener("keydown", (event) => {
    const card = event.target && event.target.closest && event.target.closest("#my-hand [data-card]");
    if (card && event.key === "Enter") b.keys.push([card.getAttribute("data-card"), now()]);
  }, true);
  const check = () => {
    const at = now();
    if (b.nextAt !== null && document.querySelectorAll("#my-hand [data-card]").length === 6) {
      b.nextWaits.push(at - b.nextAt);  // the cards shown (the discard may wait for the other side's)
      b.nextAt = null;
    }
    if (b.tableAt === null && document.querySelectorAll("#laid .cut-item").length === 2
        && document.querySelectorAll("#cpu-hand li:not(.first-paint-card)").length === 6) b.tableAt = at;
    if (b.handAt !== null && (b.want === null || b.seenAt !== null)) return;
    if (b.handAt === null && document.querySelectorAll("#my-hand [data-card]").length === 6) {
      b.handAt = at;
      const game = document.getElementById("game");
      if (game && game.dataset.await === "discard") b.discardAt = at;
    }
    if (b.handAt !== null && b.discardAt === null) {
      const game = document.getElementById("game");
      if (game && game.dataset.await === "discard") b.discardAt = at;
    }
    if (b.want !== null && b.seenAt === null
        && document.querySelector('#laid .laid-item:not(.cut-item) [data-card="' + b.want + '"]')) b.seenAt = at;
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true, attributes: true});
  const Peer = window.RTCPeerConnection;  // the connection's opening: its data channel's open event
  if (!Peer) return;
  const opened = (channel) => channel.addEventListener("open", () => { if (b.openAt === null) b.openAt = now(); });
  window.RTCPeerConnection = class extends Peer {
    constructor(...args) { super(...args); this.addEventListener("datachannel", (event) => opened(event.channel)); }
    createDataChannel(...args) { const channel = super.createDataChannel(...args); opened(channel); return channel; }
  };
})();
"""

FAST = """localStorage.setItem("cribbage.settings.v1", JSON.stringify({v: 1, difficulty: "easy", target: 61,
  muggins: false, speed: "fast", go: "auto", lay: "click", hints: false, friend_name: ""}));"""


def open_pair(browser, base: str, fast: bool = False):
    """Two pages in two contexts, stamped; ``fast``: the table's pace set to fast (the link game)."""
    contexts = [browser.new_context(base_url=base, viewport=VIEWPORT, service_workers="block") for _ in range(2)]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.add_init_script(STAMPS)
        if fast:
            page.add_init_script(FAST)
    return pages, contexts


def close(contexts) -> None:
    for context in contexts:
        context.close()


def hands_shown(ann, bob) -> tuple[float, float, float]:
    """When Ann clicked #friend-connect, and when each page showed its dealt hand (Ann's offering
    her discard), on the pages' shared clock."""
    ann.wait_for_function("window.__bench.handAt !== null && window.__bench.discardAt !== null", timeout=TIMEOUT_MS)
    bob.wait_for_function("window.__bench.handAt !== null", timeout=TIMEOUT_MS)
    clicked = ann.evaluate("window.__bench.connectAt")
    return clicked, ann.evaluate("Math.max(window.__bench.handAt, window.__bench.discardAt)"), bob.evaluate("window.__bench.handAt")


def first_hand(ann, bob) -> dict:
    """Ms from the click on #friend-connect to each page showing its dealt hand, and to both; and
    from the connection opening (Ann's data channel's open event) to each."""
    clicked, ann_ready, bob_ready = hands_shown(ann, bob)
    opened = ann.evaluate("window.__bench.openAt")
    ann_table, bob_table = (page.evaluate("window.__bench.tableAt") for page in (ann, bob))
    if clicked is None or opened is None or min(ann_ready, bob_ready) < opened:
        raise AssertionError(f"a hand was shown before the connection opened: {clicked}, {opened}, {ann_ready}, {bob_ready}")
    return {"both": max(ann_ready, bob_ready) - clicked, "inviter": ann_ready - clicked, "friend": bob_ready - clicked,
            "inviter_seal": ann_ready - opened, "friend_seal": bob_ready - opened,
            "inviter_table": ann_table - opened, "friend_table": bob_table - opened}


def play_until(pages, done, what: str, seconds: float = 90, lay=None) -> None:
    """Both pages make the tests' policy moves until ``done()``; a card to lay goes to ``lay(page,
    other)`` if given. AssertionError saying ``what`` was not reached if the game ends or time runs out."""
    last = [-1, -1]
    deadline = time.time() + seconds
    while not done():
        if time.time() > deadline or any(awaiting(p) == "over" for p in pages):
            raise AssertionError(f"{what}: {[awaiting(p) for p in pages]}")
        moved = False
        for k, page in enumerate(pages):
            kind, now = decision(page)  # together: a click handled between two reads pairs them wrongly
            if kind in ACTIONS and now > last[k]:
                last[k] = now
                if kind == "play" and lay is not None:
                    lay(page, pages[1 - k])
                else:
                    move(page, kind)
                moved = True
        if not moved:
            time.sleep(0.02)


def next_hands(pages, hands: int) -> list[float]:
    """Both pages play on until each has dealt ``hands`` more hands: ms from each click on the
    next hand's button to its six cards shown."""
    def waits():
        return [page.evaluate("window.__bench.nextWaits") for page in pages]

    play_until(pages, lambda: min(len(w) for w in waits()) >= hands, "no next hand dealt")
    return [ms for w in waits() for ms in w]


def timed_lay(page, other) -> float:
    """Lay the tests' policy card on ``page``; ms from the key that lays it to ``other`` showing it.

    The card is laid from the keyboard (Enter on the focused card), which lays it at once whatever
    the "lay" setting and the pointer: a click may only raise it (a tap, a click just as the play is
    offered, or the confirm setting), and then the second click is the one that counts."""
    card = playable(page).first
    name = card.get_attribute("data-card")
    other.evaluate("(name) => { window.__bench.seenAt = null; window.__bench.want = name; }", name)
    page.evaluate("window.__bench.keys = []")
    card.focus()
    card.press("Enter")
    other.wait_for_function("window.__bench.seenAt !== null", timeout=TIMEOUT_MS)
    seen = other.evaluate("window.__bench.seenAt")
    other.evaluate("window.__bench.want = null")
    pressed = [at for key_card, at in page.evaluate("window.__bench.keys") if key_card == name]
    return seen - pressed[-1]


def play_timed(pages, cards: int, seconds: float = 90) -> list[float]:
    """Both pages make the tests' policy moves; ``cards`` of the cards laid are timed."""
    times: list[float] = []
    play_until(pages, lambda: len(times) >= cards, f"not {cards} cards timed", seconds,
               lay=lambda page, other: times.append(timed_lay(page, other)))
    return times


def live_run(browser, base: str) -> dict:
    (ann, bob), contexts = open_pair(browser, base)
    try:
        invite, reply = invite_and_accept(ann, bob)
        hand = first_hand(ann, bob)
        for page in (ann, bob):
            page.wait_for_function("document.getElementById('friend-connection').textContent.includes('Connected live')",
                                   timeout=TIMEOUT_MS)
        cards = play_timed([ann, bob], CARDS_PER_RUN)
        waits = next_hands([ann, bob], NEXT_HANDS)
        return {"first_hand_ms": hand["both"], "inviter_hand_ms": hand["inviter"], "friend_hand_ms": hand["friend"],
                "inviter_seal_ms": hand["inviter_seal"], "friend_seal_ms": hand["friend_seal"],
                "inviter_table_ms": hand["inviter_table"], "friend_table_ms": hand["friend_table"], "next_hand_ms": waits,
                "card_ms": cards, "invite_chars": len(invite), "reply_chars": len(reply)}
    finally:
        close(contexts)


def baseline_run(browser, base: str) -> dict:
    """One live game of the baseline's site (served at ``base``) up to both first hands: ms from
    the click on #friend-connect to each page's six cards."""
    (ann, bob), contexts = open_pair(browser, base)
    try:
        invite_and_accept(ann, bob)
        clicked, ann_ready, bob_ready = hands_shown(ann, bob)
        return {"inviter_hand_ms": ann_ready - clicked, "friend_hand_ms": bob_ready - clicked}
    finally:
        close(contexts)


def link_game(browser, base: str) -> dict:
    (ann, bob), contexts = open_pair(browser, base, fast=True)
    try:
        started = time.perf_counter()
        invite_and_accept(ann, bob, by_link=True)
        ann.wait_for_selector("#game[data-await='discard']", state="attached", timeout=TIMEOUT_MS)
        if "by link" not in ann.inner_text("#friend-connection"):
            raise AssertionError("the link game connected live: " + ann.inner_text("#friend-connection"))
        play([ann, bob], by_link=True, seconds=LINK_GAME_SECONDS)
        links = [page.input_value("#friend-move-link") for page in (ann, bob)]
        return {"move_link_chars": max(len(link) for link in links), "seconds": time.perf_counter() - started}
    finally:
        close(contexts)


def spread(values: list[float]) -> dict:
    return {"median": statistics.median(values), "min": min(values), "max": max(values), "n": len(values)}


def measure(site: Path) -> dict:
    from playwright.sync_api import sync_playwright

    server, base = start_server(site, Meter())
    servers, old_base, runs, old_runs = [server], None, [], []
    scratch = tempfile.TemporaryDirectory(prefix="bench-friend-baseline-")
    try:
        if BASELINE:
            old_server, old_base = start_server(baseline.build_revision(BASELINE, Path(scratch.name)), Meter())
            servers.append(old_server)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=PEER_ARGS)
            for _ in range(FRIEND_RUNS):  # in turns with the baseline's, on the machine as it is then
                runs.append(live_run(browser, base))
                if old_base:
                    old_runs.append(baseline_run(browser, old_base))
            browser.close()
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=NO_MDNS_ARGS)
            links = link_game(browser, base)
            browser.close()
    finally:
        for running in servers:
            running.shutdown()
            running.server_close()
        scratch.cleanup()
    report = {
        "first_hand_ms": spread([r["first_hand_ms"] for r in runs]),
        "inviter_hand_ms": spread([r["inviter_hand_ms"] for r in runs]),
        "friend_hand_ms": spread([r["friend_hand_ms"] for r in runs]),
        "inviter_seal_ms": spread([r["inviter_seal_ms"] for r in runs]),
        "friend_seal_ms": spread([r["friend_seal_ms"] for r in runs]),
        "inviter_table_ms": spread([r["inviter_table_ms"] for r in runs]),
        "friend_table_ms": spread([r["friend_table_ms"] for r in runs]),
        "next_hand_ms": spread([ms for r in runs for ms in r["next_hand_ms"]]),
        "card_ms": spread([ms for r in runs for ms in r["card_ms"]]),
        "invite_chars": spread([r["invite_chars"] for r in runs]),
        "reply_chars": spread([r["reply_chars"] for r in runs]),
        "move_link_chars": links["move_link_chars"],
        "link_game_seconds": links["seconds"],
        "runs": FRIEND_RUNS, "cards_per_run": CARDS_PER_RUN, "targets": dict(TARGETS),
    }
    if old_runs:
        old = report["baseline"] = {"revision": baseline.describe(BASELINE),
                                    "inviter_hand_ms": spread([r["inviter_hand_ms"] for r in old_runs]),
                                    "friend_hand_ms": spread([r["friend_hand_ms"] for r in old_runs])}
        report["seal_wait_ms"] = {side: report[side + "_hand_ms"]["median"] - old[side + "_hand_ms"]["median"]
                                  for side in ("inviter", "friend")}
        report["targets"]["seal_wait_ms"] = old["inviter_hand_ms"]["median"]
    print_table(report)
    return report


def print_table(report: dict) -> None:
    def fig(entry, unit):
        return f"{entry['median']:.0f} ({entry['min']:.0f}-{entry['max']:.0f}) {unit}"

    def verdict(value, target):
        return "-" if target is None else "pass" if value <= target else "FAIL"

    targets = report["targets"]
    old, deal = report.get("baseline"), targets["seal_wait_ms"]
    within = "-" if deal is None else f"<= {deal:.0f} ms (the deal)"
    rows = [
        ("reply pasted -> first hand on both screens", fig(report["first_hand_ms"], "ms"),
         f"<= {targets['first_hand_ms']} ms", verdict(report["first_hand_ms"]["median"], targets["first_hand_ms"])),
        ("  the inviter's page", fig(report["inviter_hand_ms"], "ms"), "-", "-"),
        ("  the friend's page", fig(report["friend_hand_ms"], "ms"), "-", "-"),
        ("connection open -> inviter's table (face down if slow)", fig(report["inviter_table_ms"], "ms"), "-", "-"),
        ("connection open -> friend's table (face down if slow)", fig(report["friend_table_ms"], "ms"), "-", "-"),
        ("connection open -> inviter's hand", fig(report["inviter_seal_ms"], "ms"), "-", "-"),
        ("connection open -> friend's hand", fig(report["friend_seal_ms"], "ms"), "-", "-"),
    ]
    if old:
        waits = report["seal_wait_ms"]
        rows += [
            ("baseline: reply pasted -> inviter's hand (the deal)", fig(old["inviter_hand_ms"], "ms"), "-", "-"),
            ("baseline: reply pasted -> friend's hand", fig(old["friend_hand_ms"], "ms"), "-", "-"),
            ("the seal's wait (sealed - baseline): inviter, friend",
             f"{waits['inviter']:.0f} ms, {waits['friend']:.0f} ms", within, verdict(max(waits.values()), deal)),
            ("  past the deal: inviter, friend",
             ", ".join(f"{max(0, w - deal):.0f}" for w in waits.values()) + " ms", "0 ms", verdict(max(waits.values()), deal)),
        ]
    rows += [
        ("next hand clicked -> its cards (sealed ahead)", fig(report["next_hand_ms"], "ms"),
         within, verdict(report["next_hand_ms"]["median"], deal)),
        ("card laid -> on the other screen (live)", fig(report["card_ms"], "ms"), f"<= {targets['card_ms']} ms",
         verdict(report["card_ms"]["median"], targets["card_ms"])),
        ("invitation link", fig(report["invite_chars"], "chars"), f"<= {targets['invite_chars']} chars",
         verdict(report["invite_chars"]["max"], targets["invite_chars"])),
        ("reply", fig(report["reply_chars"], "chars"), "-", "-"),
        ("last move link, whole game to 61 by links", f"{report['move_link_chars']} chars",
         f"< {targets['move_link_chars']} chars (tests)",
         verdict(report["move_link_chars"], targets["move_link_chars"] - 1)),
    ]
    print(f"Friend games, two contexts of one Chromium on loopback; median (min-max) of {report['runs']} live runs, "
          f"{report['cards_per_run']} cards timed a run; one game by links ({report['link_game_seconds']:.0f} s)"
          + (f"; baseline {old['revision']}" if old else "; no baseline"))
    widths = [max(len(str(row[i])) for row in rows + [("figure", "value", "target", "")]) for i in range(4)]
    print(f"{'figure':{widths[0]}}  {'value':{widths[1]}}  {'target':{widths[2]}}  result")
    for row in rows:
        print(f"{row[0]:{widths[0]}}  {row[1]:{widths[1]}}  {row[2]:{widths[2]}}  {row[3]}", flush=True)


def main() -> None:
    measure_built_site(measure, OUT, "bench-friend-")


if __name__ == "__main__":
    main()
