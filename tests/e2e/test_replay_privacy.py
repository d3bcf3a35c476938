"""A replay of a game still being played shows no hand its viewer did not hold.

"Replay the game so far" on the game page opens the replay of the game on the table; adding
``&seat=1`` to that address asks for the computer's seat. While the game is on, the engine
(engine/replay.py ``may_view``) keeps the replay at the person's seat and says why: the
computer's cards stay face down, in the table and in the words, until each hand is over.
"""

from __future__ import annotations

import json
import re

from engine import share
from tests.e2e.conftest import engine_ready, ui_ready
from tests.unit.test_share import seated_game

SETTINGS = {"v": 1, "difficulty": "hard", "target": 121, "muggins": False, "speed": "fast", "go": "hand"}
LOAD_TIMEOUT_MS = 120_000
DECISION_TIMEOUT_MS = 60_000
CARD_WORDS = re.compile(r"\b(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
                        r"(clubs|diamonds|hearts|spades)\b")


def wait_for_decision(page, kind: str) -> None:
    page.wait_for_function("(kind) => document.getElementById('game').getAttribute('data-await') === kind",
                           arg=kind, timeout=DECISION_TIMEOUT_MS, polling=50)


def wait_for_replay(page) -> None:
    page.wait_for_selector("#replay[data-state='ready'], #replay[data-state='error']", state="attached",
                           timeout=LOAD_TIMEOUT_MS)
    assert page.get_attribute("#replay", "data-state") == "ready", page.inner_text("#replay-message")


def every_step(page) -> list[dict]:
    """What the page shows at every step: the words, and each seat's cards (open or face down)."""
    shown = []
    for index in range(int(page.get_attribute("#replay", "data-steps"))):
        page.fill("#replay-slider", str(index))
        shown.append(page.evaluate("""() => ({
            say: document.getElementById('replay-say').textContent,
            hand: document.getElementById('replay').getAttribute('data-hand'),
            seats: Object.fromEntries([...document.querySelectorAll('#replay-seats .replay-seat')].map(
                seat => [seat.dataset.seat, seat.querySelector('.replay-held').dataset.open])),
        })"""))
    return shown


def check_seen_from_the_person(page) -> None:
    """The replay shown is the person's: the computer's cards face down at every step, in the
    table and in the words, and the page says why the seat asked for was not used."""
    assert page.get_attribute("#replay-mine .replay-seat", "data-seat") == "0"
    assert "not over yet" in page.inner_text("#replay-message")
    assert "seat=1" not in page.url  # the address says what is shown
    steps = every_step(page)
    assert steps and any(step["hand"] == "1" for step in steps)
    current = steps[-1]["hand"]
    for step in steps:
        if step["hand"] == current:
            assert step["seats"].get("1") == "false", step
        assert "computer's six cards:" not in step["say"].lower(), step
        if "computer" in step["say"].lower() and "dealt" in step["say"]:
            assert not CARD_WORDS.search(step["say"]), step
    assert any("The computer's six cards are dealt face down." == step["say"] for step in steps)


def test_the_computers_seat_of_a_game_still_on_is_not_shown(page, problems):
    """The code "Replay the game so far" gives (the game on the table, a few hands in), opened
    with ``&seat=1``."""
    state = seated_game(seed="replay-peek-code", level="hard", stop=45)
    assert not state.is_over and state.hand_number >= 2
    page.goto("/replay/?code=" + share.encode(state) + "&seat=1")
    wait_for_replay(page)
    check_seen_from_the_person(page)


def test_a_replay_of_the_game_so_far_never_shows_the_computers_hand(page, problems, base_url):
    page.add_init_script(f"localStorage.setItem('cribbage.settings.v1', {json.dumps(json.dumps(SETTINGS))});")
    page.goto("/?seed=replay-peek&difficulty=hard&target=121&muggins=0&players=2")
    ui_ready(page)
    engine_ready(page)
    wait_for_decision(page, "discard")
    page.click("#replay-so-far")
    page.wait_for_url(re.compile(r"/replay/\?"), timeout=LOAD_TIMEOUT_MS)
    wait_for_replay(page)
    own = page.url

    page.goto(own + "&seat=1")
    wait_for_replay(page)
    check_seen_from_the_person(page)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path="/tmp/replay-peek-390.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 720})
    page.screenshot(path="/tmp/replay-peek-1280.png")
