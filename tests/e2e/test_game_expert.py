"""The expert on the game page: offered beside Easy and Hard for two players only, and it plays.

The setup form shows "Expert" for "You and the computer" and hides it for three or four players
(a chosen expert becomes Hard there). A game against the expert is dealt and played through a
whole hand's discard and play and picked up again after a reload, the expert's moves worked out
in the engine's MicroPython worker like every other computer's: no second runtime is loaded.
Screenshots go to /tmp/shots-expert/.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_game_persistence import open_game, playable, wait_for_decision
from tests.e2e.test_game_play import lay, turn, wait_decision
from tests.e2e.test_game_play import (  # noqa: F401  (game, page_and_problems are fixtures)
    DESKTOP, PHONE, game, page_and_problems)

pytestmark = pytest.mark.e2e
SHOTS = Path("/tmp/shots-expert")


def is_shown(page, selector: str) -> bool:
    return page.eval_on_selector(selector, "el => !el.hidden && el.offsetParent !== null")


def test_expert_is_offered_for_two_players_only_and_plays_a_hand(page_and_problems):
    page, _ = page_and_problems
    open_game(page)
    if wait_for_decision(page, "setup", "discard", "play", "go", "next", "over") != "setup":
        page.click("#new-game-button")
        wait_for_decision(page, "setup")
    page.check('input[name="table"][value="2"]')
    assert is_shown(page, "#setup-expert")
    pyodide = []
    page.on("request", lambda request: pyodide.append(request.url) if "/pyodide/" in request.url else None)
    page.check('input[name="difficulty"][value="expert"]')
    SHOTS.mkdir(exist_ok=True)
    for label, size in (("desktop", {"width": 1280, "height": 720}), ("phone", {"width": 390, "height": 844})):
        page.set_viewport_size(size)
        page.screenshot(path=str(SHOTS / f"setup-{label}.png"))
    page.set_viewport_size(DESKTOP)

    page.check('input[name="table"][value="3"]')
    assert not is_shown(page, "#setup-expert")
    assert page.is_checked('input[name="difficulty"][value="hard"]')
    page.check('input[name="table"][value="2"]')
    assert is_shown(page, "#setup-expert")
    page.check('input[name="difficulty"][value="expert"]')

    page.click("#deal-button")
    wait_for_decision(page, "discard", "play")
    assert "expert" in page.inner_text("#cpu-level")
    laid = 0
    while laid < 4:
        kind = step(page)
        if kind == "play":
            laid += 1
        elif kind is None:
            break
    page.screenshot(path=str(SHOTS / "play-desktop.png"))
    assert laid >= 1

    # A reload picks the game up again: the engine checks the save, every expert move worked out
    # again, and the game goes on.
    before = (page.inner_text("#score-0"), page.inner_text("#score-1"))
    page.reload()
    kind = wait_for_decision(page, "discard", "play", "go", "next", "count", timeout=90_000)
    assert "expert" in page.inner_text("#cpu-level")
    after = (page.inner_text("#score-0"), page.inner_text("#score-1"))
    assert all(int(a) >= int(b) for a, b in zip(after, before)) and after != ("0", "0")  # the same game
    assert step(page) == kind
    assert not pyodide and page.get_attribute("html", "data-expert") is None


def step(page):
    """Make the person's next move (the first cards offered; Go; the next hand); returns the
    decision it answered, or None once the game is over."""
    kind = wait_for_decision(page, "discard", "play", "go", "next", "over", timeout=90_000)
    before = turn(page)
    if kind == "discard":
        cards = playable(page)
        cards.nth(0).click()
        cards.nth(1).click()
        page.click("#throw-button")
    elif kind == "play":
        lay(playable(page).first)
    elif kind in ("go", "next"):
        page.click("#go-button" if kind == "go" else "#next-button")
    else:
        return None
    # The next decision may be of the same kind (a second card after the other side's go): the
    # decision counter tells them apart.
    wait_decision(page, before, timeout=90_000)
    return kind
