"""A page whose start files do not arrive says which one, within seconds, and trying again works.

Each test blocks one file with Playwright's routing (an aborted request, or a damaged answer)
and opens a page: the page's own Python (MicroPython's wasm, PyScript's core, the page's pack or
its config) or the engine's worker (its pack). Within START_LIMIT_S the status line must name the
file in a sentence; once the file is back (unrouted), trying again (the page's own controls, or
the game page's "Try again") must fetch it afresh and work.
"""

from __future__ import annotations

import time

import pytest

from tests.e2e.conftest import engine_ready, ui_ready

START_LIMIT_S = 10
EXPECTED = (r"request failed|HTTP 4|did not arrive|could not start|is damaged|Failed to load|"
            r"Engine (call|worker)|engine.s worker|start files|Page error|PythonError|Error|fetch|ArrayBuffer|wasm")


def status(page) -> str:
    return page.inner_text("#engine-status-text")


def wait_for_words(page, words: str, started: float) -> str:
    """Wait (until START_LIMIT_S after ``started``) for the status line to hold ``words``."""
    left_ms = max(500, int((started + START_LIMIT_S - time.monotonic()) * 1000))
    page.wait_for_function("(words) => (document.getElementById('engine-status-text') || {}).textContent"
                           "?.includes(words)", arg=words, timeout=left_ms, polling=100)
    return status(page)


@pytest.mark.parametrize("path", [
    "runtime/micropython/micropython.wasm",
    "runtime/pyscript/core.js",
    "app/calculator.pack",
    "app/calculator.json",
])
def test_a_start_file_that_does_not_arrive_is_named_within_seconds(page, problems, base_url, path):
    problems.allow(EXPECTED)
    page.route(f"{base_url}/{path}", lambda route: route.abort())
    started = time.monotonic()
    page.goto("/calculator/", wait_until="commit")
    said = wait_for_words(page, path, started)
    assert said.endswith(".") and ("cannot start" in said or "could not start" in said), said
    assert page.get_attribute("html", "data-engine") == "error"
    assert page.get_attribute("html", "data-ui") != "ready"
    if path == "runtime/micropython/micropython.wasm":
        page.set_viewport_size({"width": 390, "height": 844})
        page.screenshot(path="/tmp/start-blocked-390.png")
        page.set_viewport_size({"width": 1280, "height": 720})
        page.screenshot(path="/tmp/start-blocked-1280.png")
    # The file back, a reload starts the page.
    page.unroute(f"{base_url}/{path}")
    page.reload()
    ui_ready(page)
    engine_ready(page)


def damaged_pack(route):
    """The engine's pack, cut short: the server's answer, less its last kilobyte. (A request the
    page gave up on, as a retry starts, is let go: its answer no longer matters.)"""
    try:
        response = route.fetch()
        route.fulfill(response=response, body=response.body()[:-1024])
    except Exception:  # the request was cancelled on the way (Playwright: "Response has been disposed")
        return


WATCH_STATUS = """() => {
  window.__statusChanges = 0;
  new MutationObserver(() => { window.__statusChanges += 1; })
    .observe(document.getElementById('engine-status-text'), {childList: true, characterData: true, subtree: true});
}"""


def retried(page, action):
    """Do ``action`` (a retry) and wait until the engine has really started again: the status
    line changed, and the engine is no longer marked as failed from the attempt before."""
    page.evaluate(WATCH_STATUS)
    action()
    page.wait_for_function("() => window.__statusChanges > 0", timeout=START_LIMIT_S * 1000)


def failed_again(page):
    """Wait for the retry to fail again, naming the damaged pack."""
    page.wait_for_function("() => window.__statusChanges > 0"
                           " && document.documentElement.getAttribute('data-engine') === 'error'"
                           " && document.getElementById('engine-status-text').textContent.includes('damaged')",
                           timeout=START_LIMIT_S * 1000)


def test_a_damaged_engine_pack_is_named_and_trying_again_fetches_it_afresh(page, problems, base_url):
    problems.allow(EXPECTED)
    pattern = f"{base_url}/app/engine.pack*"
    page.route(pattern, damaged_pack)
    started = time.monotonic()
    page.goto("/calculator/")
    said = wait_for_words(page, "app/engine.pack is damaged", started)
    assert said.startswith("The card engine could not start:"), said
    assert page.get_attribute("html", "data-engine") == "error"
    ui_ready(page)
    # Trying again while it is still damaged fails again, with the same words.
    page.fill("#calc-input", "5H 5S 5D JC 5C")
    retried(page, lambda: page.press("#calc-input", "Enter"))
    failed_again(page)
    page.unroute(pattern)
    retried(page, lambda: page.press("#calc-input", "Enter"))
    page.wait_for_function("() => document.documentElement.getAttribute('data-engine') !== 'error'",
                           timeout=START_LIMIT_S * 1000)
    engine_ready(page)
    page.wait_for_function("() => document.getElementById('calc-total').textContent === '29'",
                           timeout=START_LIMIT_S * 1000)


def test_the_game_pages_try_again_starts_the_engine_once_its_pack_is_back(page, problems, base_url):
    """A game in progress, the page reloaded with the engine's pack damaged: the page names the
    file and offers Try again, which fails while the pack is damaged and works once it is back."""
    problems.allow(EXPECTED)
    page.goto("/")
    ui_ready(page)
    engine_ready(page)
    page.click("#deal-button")
    page.wait_for_function("() => document.getElementById('game').getAttribute('data-await') === 'discard'",
                           timeout=60_000)
    pattern = f"{base_url}/app/engine.pack*"
    page.route(pattern, damaged_pack)
    started = time.monotonic()
    page.reload()
    # The statistics panel's first call may start the engine once more (a call after a failed start
    # does), so the line can say "Loading" a moment before it names the file again.
    said = wait_for_words(page, "app/engine.pack is damaged", started)
    if not said.startswith("The card engine could not start:"):
        said = wait_for_words(page, "app/engine.pack is damaged", time.monotonic())
    assert said.startswith("The card engine could not start:"), said
    ui_ready(page)
    page.wait_for_selector("#retry-button", state="visible", timeout=START_LIMIT_S * 1000)
    page.screenshot(path="/tmp/game-try-again-1280.png")
    retried(page, lambda: page.click("#retry-button"))
    failed_again(page)
    page.wait_for_selector("#retry-button", state="visible", timeout=START_LIMIT_S * 1000)
    assert "app/engine.pack is damaged" in status(page)
    page.unroute(pattern)
    retried(page, lambda: page.click("#retry-button"))
    page.wait_for_function("() => document.documentElement.getAttribute('data-engine') !== 'error'",
                           timeout=START_LIMIT_S * 1000)
    engine_ready(page)
    page.wait_for_function("() => document.getElementById('game').getAttribute('data-await') === 'discard'",
                           timeout=60_000)
