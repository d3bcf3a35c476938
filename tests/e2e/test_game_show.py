"""The counting can be skipped: "Next" (or the N key) during the show puts every remaining count
on the table at once, each still listed to read, and the next hand is offered straight away."""

from __future__ import annotations

import json
import time

import pytest

from tests.e2e.conftest import engine_ready, ui_ready
from tests.e2e.test_game_play import decision, move

KEY_SETTINGS = "cribbage.settings.v1"
SLOW = {"v": 1, "difficulty": "easy", "target": 121, "muggins": False, "speed": "slow"}
SLOW_SHOW_SECONDS = 10  # three counts at the slow speed take longer than this


@pytest.fixture
def slow_page(page, problems):
    key = json.dumps(KEY_SETTINGS)
    page.context.add_init_script(
        f"if (localStorage.getItem({key}) === null) localStorage.setItem({key}, {json.dumps(json.dumps(SLOW))});")
    return page


def play_to_the_show(page):
    """Play the hand until the counting starts (the Next of the counting shows)."""
    last = -1
    deadline = time.time() + 120
    while time.time() < deadline:
        if page.is_visible("#skip-show"):
            return
        kind, now = decision(page)
        if kind in ("discard", "play", "go") and now > last:
            last = now
            move(page, kind)
        else:
            page.wait_for_timeout(50)
    raise AssertionError("the counting never started")


def skip_the_show(page, press):
    """Skip the counting under way by ``press`` ("click" on Next, or the N "key"): every count is
    at once on the table, listed to read, and the next hand is offered."""
    started = time.time()
    if press == "click":
        page.click("#skip-show")
    else:
        page.keyboard.press("n")
    page.wait_for_selector("#game[data-await='next']", state="attached", timeout=SLOW_SHOW_SECONDS * 1000)
    took = time.time() - started
    assert took < SLOW_SHOW_SECONDS / 2, f"the rest of the counting ({press}) took {took:.1f} s"
    assert page.locator("#show-area .show-block").count() == 3  # both hands and the crib, to read
    assert page.is_hidden("#skip-show") and page.is_visible("#next-button")


def test_the_show_is_skipped_at_once_and_every_count_stays_listed(slow_page):
    """A click on Next skips the first hand's counting; the next counting goes at its own speed
    until asked again, and the N key skips that one."""
    page = slow_page
    page.goto("/?seed=skip-show-1")
    ui_ready(page)
    engine_ready(page)
    play_to_the_show(page)
    skip_the_show(page, "click")
    page.click("#next-button")
    page.wait_for_selector("#game[data-await='discard']", state="attached")
    play_to_the_show(page)
    page.wait_for_timeout(1500)  # a slow show is still counting then: the skip of the last hand did not stay on
    assert page.is_visible("#skip-show")
    assert page.get_attribute("#game", "data-await") == ""
    skip_the_show(page, "key")
