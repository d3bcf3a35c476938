"""The bot lab in Chromium: the editor, a match of the example bot in the Pyodide worker, Stop
on a bot stuck in a loop, a syntax error shown with its line, the code kept across a reload, a
game of a match opened in the replay page.

Each test opens the page afresh (a new browser context: a cold cache). Timings of interest are
printed (run with -s to see them): the editor ready, Python ready, a match's games a second and
the longest gap between two progress updates. Screenshots go to screenshots/ (not committed).
"""

from __future__ import annotations

import time
from pathlib import Path


from bench.bench_botlab import WATCH_PROGRESS  # the bench watches the bar the same way
from engine import bots
from engine.match import play_game, play_match

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "screenshots"
BOTS = ROOT / "site_src" / "bots"
MATCH_TIMEOUT_MS = 240_000

LOOPS = "def choose(view, legal_actions):\n    while True:\n        pass\n"
BROKEN = ("def choose(view, legal_actions):\n"
          "    cards = view['hand']\n"
          "    return legal_actions[0\n")
FIRST = "def choose(view, legal_actions):\n    return legal_actions[0]\n"

def open_lab(page, wait_for_ui, wait_for_engine=None):
    started = time.perf_counter()
    page.goto("/bot-lab/")
    wait_for_ui(page)
    ui = time.perf_counter() - started
    engine = None
    if wait_for_engine is not None:
        wait_for_engine(page)
        engine = time.perf_counter() - started
    return ui, engine


def set_code(page, code):
    page.evaluate("(code) => { document.getElementById('bot-source').code = code; }", code)


def get_code(page):
    return page.evaluate("() => document.getElementById('bot-source').code")


# Every state #lab[data-match] takes from the last run() on, so that wait_match never reads the
# state an earlier match left behind (the Run button's handler starts after the click returns).
WATCH_STATES = """() => {
  const lab = document.getElementById('lab');
  window.labStates = [];
  if (!window.labWatch) {
    window.labWatch = new MutationObserver(() => window.labStates.push(lab.dataset.match));
    window.labWatch.observe(lab, {attributes: true, attributeFilter: ['data-match']});
  }
}"""


def run(page, games, opponent="hard"):
    page.select_option("#match-opponent", opponent)
    page.fill("#match-games", str(games))
    page.evaluate(WATCH_STATES)
    page.click("#match-run")


def wait_match(page, states=("done", "failed")):
    """The state the match started by run() ended in (one of states)."""
    page.wait_for_function("states => window.labStates.some(s => states.includes(s))", arg=list(states),
                           timeout=MATCH_TIMEOUT_MS)
    return page.evaluate("states => window.labStates.find(s => states.includes(s))", list(states))


def test_page_loads_with_the_example_bot_in_the_editor(page, problems, wait_for_ui):
    ui, _ = open_lab(page, wait_for_ui)
    print(f"\neditor ready {ui:.2f} s after navigation (cold)")
    marks = page.evaluate("() => performance.getEntriesByName('botlab-editor-ready').map(m => m.startTime)")
    assert marks, "the page marks when its editor is ready"
    print(f"editor-ready mark at {marks[0] / 1000:.2f} s")
    assert get_code(page) == (BOTS / "beginner.py").read_text(encoding="utf-8").strip()  # the editor trims
    assert page.locator("#bot-editor .cm-content").is_visible()
    assert page.locator("#bot-example option").count() == 3
    assert page.locator("#api-guide").is_visible() and page.locator("#api-discard_options").count() == 1
    assert page.is_enabled("#match-run") and not page.is_enabled("#match-stop")


def test_a_match_of_the_example_bot(page, problems, wait_for_ui, wait_for_engine):
    ui, engine = open_lab(page, wait_for_ui, wait_for_engine)
    print(f"\neditor ready {ui:.2f} s, Python ready {engine:.2f} s (cold)")
    assert "cpython 3." in page.inner_text("#engine-status-text")
    page.evaluate(WATCH_PROGRESS)
    started = time.perf_counter()
    run(page, 20, "hard")
    assert wait_match(page) == "done", page.inner_text("#lab")
    elapsed = time.perf_counter() - started
    updates = page.evaluate("() => window.__updates")
    times = [t for t, _ in updates]
    gaps = [b - a for a, b in zip(times, times[1:])]
    print(f"20 games against hard in {elapsed:.1f} s; {len(updates)} progress updates, longest gap "
          f"{max(gaps) / 1000 if gaps else 0:.2f} s")
    headline = page.inner_text("#match-headline")
    expected = play_match(str(BOTS / "beginner.py"), "hard", games=20, seed=page.inner_text("#match-command").split()[-1])
    assert headline.startswith(f"Your bot won {expected.wins} of 20 games against Hard: ")
    assert "95% interval" in headline
    rows = page.locator("#match-points tr")
    assert rows.count() == 2
    mine = [float(x) for x in rows.nth(0).locator("td").all_inner_texts()]
    figures = expected.points_per_hand(0)
    assert mine == [round(figures[k], 2) for k in ("pegging", "hand", "crib", "total")]
    assert page.inner_text("#match-command").startswith("python -m engine match --bot mybot.py hard --games 20 --seed ")
    assert page.get_attribute("#match-bar", "value") == "20"
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "botlab-match.png"), full_page=True)


def test_stop_ends_a_bot_stuck_in_a_loop(page, problems, wait_for_ui, wait_for_engine):
    open_lab(page, wait_for_ui, wait_for_engine)
    set_code(page, LOOPS)
    run(page, 10, "easy")
    page.wait_for_selector("#lab[data-match='running']", state="attached", timeout=MATCH_TIMEOUT_MS)
    page.wait_for_function("document.getElementById('match-score').textContent.includes('press Stop')",
                           timeout=15_000)  # the page suggests Stop when no game finishes
    assert page.get_attribute("#lab", "data-match") == "running"
    started = time.perf_counter()
    page.click("#match-stop")
    page.wait_for_selector("#lab[data-match='stopped']", state="attached", timeout=2000)
    print(f"\nstopped in {time.perf_counter() - started:.2f} s")
    assert page.is_enabled("#match-run") and not page.is_enabled("#match-stop")
    # A fresh worker comes up and plays the next match.
    set_code(page, FIRST)
    run(page, 10, "easy")
    assert wait_match(page) == "done", page.inner_text("#lab")
    assert page.inner_text("#match-headline").startswith("Your bot won ")


FORGER = """import js

_sent = []


def choose(view, legal_actions):
    if not _sent:  # replies of its own to the page's calls, of a shape no match's progress has
        _sent.append(1)
        for k in range(1, 8):
            js.eval("postMessage({type: 'reply', id: 'c%d', reply: JSON.stringify({ok: true, result: {played: 7}})})" % k)
    return legal_actions[0]
"""


def test_a_bot_that_forges_the_sandboxs_replies_ends_its_match(page, problems, wait_for_ui, wait_for_engine):
    problems.allow(r"match stopped on a reply it could not read")
    open_lab(page, wait_for_ui, wait_for_engine)
    set_code(page, FORGER)
    run(page, 10, "easy")
    assert wait_match(page) == "failed", page.inner_text("#lab")
    assert "not a match's progress" in page.inner_text("#match-message")
    assert page.is_enabled("#match-run") and not page.is_enabled("#match-stop")


def test_a_syntax_error_is_shown_with_its_line(page, problems, wait_for_ui, wait_for_engine):
    open_lab(page, wait_for_ui, wait_for_engine)
    set_code(page, BROKEN)
    run(page, 10, "easy")
    assert wait_match(page) == "failed"
    title = page.inner_text("#bot-error-title")
    assert title.startswith("Your bot stopped before the first game at line 3: SyntaxError: "), title
    report = page.inner_text("#bot-error-report")
    assert "mybot.py, line 3" in report and "return legal_actions[0" in report
    assert not page.is_visible("#match-result")
    # An exception in a game names the game and the line.
    set_code(page, "def choose(view, legal_actions):\n    return legal_actions[len(legal_actions)]\n")
    run(page, 10, "easy")
    assert wait_match(page) == "failed"
    title = page.inner_text("#bot-error-title")
    assert title == "Your bot stopped in game 1 at line 2: IndexError: list index out of range", title
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "botlab-error.png"))


def test_a_game_of_the_match_opens_in_the_replay_view(page, problems, wait_for_ui, wait_for_engine):
    open_lab(page, wait_for_ui, wait_for_engine)
    set_code(page, FIRST)
    run(page, 10, "easy")
    assert wait_match(page) == "done", page.inner_text("#lab")
    assert page.inner_text("#match-replays-count") == "10 games"
    page.click("#match-replays summary")  # the links are drawn when the list is first opened
    page.wait_for_selector("#match-replay-list a[data-game='10']", timeout=10_000)
    links = page.locator("#match-replay-list a")
    assert links.count() == 10
    link = links.nth(3)
    assert link.get_attribute("data-game") == "4"
    won = link.inner_text() == "Game 4: won"
    assert won or link.inner_text() == "Game 4: Easy won"
    # The same game in CPython: game 4 is the second of the deal of game 3, the bot in seat 1.
    seed = page.inner_text("#match-command").split()[-1]
    player = bots.bot_from_source(FIRST, "mybot.py")
    finished = []
    play_game(lambda s: player, "easy", f"{seed}:1", 1, on_end=finished.append)
    game = finished[0]
    assert (game.winner == 1) == won
    assert "from=bot-lab&seat=1&code=" in link.get_attribute("href")
    with page.context.expect_page() as opened:
        link.click()
    replay = opened.value
    replay.wait_for_selector("#replay[data-state='ready'], #replay[data-state='error']", state="attached",
                             timeout=MATCH_TIMEOUT_MS)
    assert replay.get_attribute("#replay", "data-state") == "ready", replay.inner_text("#replay-message")
    summary = replay.inner_text("#replay-summary")
    assert summary.startswith("Bot lab game, Easy against Your bot · game to 121 · "), summary
    assert ("Your bot wins" if won else "Easy wins") in summary
    assert int(replay.get_attribute("#replay", "data-steps")) > 20
    # Seen from the bot's seat: its cards at the bottom, face up, the other's face down.
    assert replay.get_attribute("#replay-mine .replay-seat", "data-seat") == "1"
    assert replay.inner_text("#replay-mine .replay-seat-name") == "Your bot"
    replay.click("#copy-link")  # the handler runs after the click returns
    replay.wait_for_function("() => document.getElementById('share-link').value !== ''")
    assert "?from=bot-lab&seat=1&code=" in replay.input_value("#share-link")
    replay.focus("#replay-next")
    for _ in range(20):  # to the deal of the first hand
        if replay.locator("#replay-mine .replay-held .pcard").count() == 6:
            break
        replay.keyboard.press("ArrowRight")
    assert replay.locator("#replay-mine .replay-held .card-back").count() == 0
    assert replay.locator("#replay-mine .replay-held .pcard").count() == 6
    assert replay.locator(".replay-others .replay-held .card-back").count() == 6
    replay.keyboard.press("Home")
    replay.keyboard.press("ArrowRight")
    assert replay.get_attribute("#replay", "data-step") == "1"
    replay.keyboard.press("End")
    assert replay.get_attribute("#replay", "data-kind") == "game_over"
    board = replay.eval_on_selector_all(".crib-board-score", "els => els.map(e => +e.textContent)")
    assert board == game.scores
    SCREENSHOTS.mkdir(exist_ok=True)
    replay.screenshot(path=str(SCREENSHOTS / "botlab-replay.png"), full_page=True)
    replay.close()


def test_the_code_is_kept_across_a_reload(page, problems, wait_for_ui):
    problems.allow(r"request failed: GET .*/runtime/pyodide/.*ERR_ABORTED")  # the reload stops Python's download
    open_lab(page, wait_for_ui)
    page.click("#bot-editor .cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.press("Enter")
    page.keyboard.insert_text("# kept across a reload")
    typed = get_code(page)
    assert typed.endswith("# kept across a reload") and typed.count("\n") > 20
    page.wait_for_timeout(1200)  # the code is kept as it is typed
    page.reload()
    wait_for_ui(page)
    assert get_code(page) == typed
    # An example replaces it, and the visitor's code can be brought back.
    page.select_option("#bot-example", "expected_value")
    page.click("#bot-load")
    assert get_code(page).strip() == (BOTS / "expected_value.py").read_text(encoding="utf-8").strip()
    assert page.is_visible("#bot-restore")
    page.click("#bot-restore")
    assert get_code(page) == typed
    with page.expect_download() as download:
        page.click("#bot-download")
    saved = Path(download.value.path()).read_text(encoding="utf-8")
    assert download.value.suggested_filename == "mybot.py"
    assert saved.startswith("# A cribbage bot from the bot lab.") and saved.endswith(typed + "\n")


def test_code_typed_before_the_page_is_ready_is_not_replaced(page, problems, wait_for_ui):
    problems.allow(r"request failed: GET .*/runtime/pyodide/.*ERR_ABORTED")
    page.goto("/bot-lab/")
    page.evaluate("() => localStorage.setItem('cribbage.botlab.code', '# kept last time\\n')")
    held = []
    page.route("**/app/botlab.pack", lambda route: held.append(route))  # the page's Python waits
    page.goto("/bot-lab/")
    page.wait_for_selector("#bot-editor .cm-content")
    assert held and page.get_attribute("html", "data-ui") != "ready"
    page.click("#bot-editor .cm-content")
    page.keyboard.press("Control+End")
    page.keyboard.insert_text("# typed at once")
    typed = get_code(page)
    held[0].continue_()
    wait_for_ui(page)
    assert get_code(page) == typed
    assert page.is_visible("#bot-restore")
    page.wait_for_function("() => localStorage.getItem('cribbage.botlab.code') !== '# kept last time\\n'")
    assert page.evaluate("() => localStorage.getItem('cribbage.botlab.code')") == typed
    page.click("#bot-restore")
    assert get_code(page) == "# kept last time\n"
