"""The replay page: a game code stepped through in the browser, refused when damaged or forged.

A finished game is played in CPython (a person, played by the easy policy, against the hard
computer), encoded (engine/share.py) and opened as /replay/?code=...; the page's steps must be
the engine's own (engine/replay.py). #replay[data-state] is empty, loading, ready or error;
#replay[data-step] is the step shown, from 0, and #replay[data-steps] their number.
"""

from __future__ import annotations

import pytest

from engine import replay, share
from tests.unit.test_share import seated_game

LOAD_TIMEOUT_MS = 120_000


@pytest.fixture(scope="module")
def finished():
    """A finished two-player game to 121 against the hard computer: (code, steps, state)."""
    state = seated_game(seed="e2e-replay", level="hard")
    return share.encode(state), replay.replay_steps(state), state


def open_replay(page, code):
    page.goto("/replay/?code=" + code)
    page.wait_for_selector("#replay[data-state='ready'], #replay[data-state='error']", state="attached",
                           timeout=LOAD_TIMEOUT_MS)


def step_shown(page) -> int:
    return int(page.get_attribute("#replay", "data-step"))


def capitalised(text):
    return text[:1].upper() + text[1:]


def test_replay_steps_forward_and_back_through_every_event(page, problems, finished):
    code, steps, state = finished
    open_replay(page, code)
    assert page.get_attribute("#replay", "data-state") == "ready"
    assert int(page.get_attribute("#replay", "data-steps")) == len(steps)
    assert step_shown(page) == 0 and page.get_attribute("#replay", "data-kind") == "cut"
    assert page.inner_text("#replay-say") == capitalised(steps[0]["say"])
    assert page.is_disabled("#replay-prev") and page.is_disabled("#replay-first")

    page.click("#replay-next")
    page.keyboard.press("ArrowRight")
    assert step_shown(page) == 2 and page.inner_text("#replay-say") == capitalised(steps[2]["say"])
    page.keyboard.press("ArrowLeft")
    assert step_shown(page) == 1
    # The first person's own cards are face up; the computer's stay down until the hand is over.
    hand = next(i for i, s in enumerate(steps) if s["kind"] == "hand" and isinstance(s["held"][0], list)
                and s["held"][0])
    page.fill("#replay-slider", str(hand))
    assert step_shown(page) == hand
    mine = page.eval_on_selector_all("#replay-mine [data-card]", "els => els.map(e => +e.dataset.card)")
    assert mine == steps[hand]["held"][0]
    assert page.get_attribute("#replay-seats .replay-held", "data-open") == "false"

    end = next(i for i, s in enumerate(steps) if s["kind"] == "hand_end")
    page.fill("#replay-slider", str(end))
    assert page.get_attribute("#replay", "data-kind") == "hand_end"
    assert page.get_attribute("#replay-seats .replay-held", "data-open") == "true"
    assert page.get_attribute("#replay-middle .replay-crib", "data-open") == "true"
    scores = [int(t) for t in page.eval_on_selector_all("[data-score-seat]", "els => els.map(e => e.textContent)")]
    assert sorted(scores) == sorted(steps[end]["scores"])

    page.keyboard.press("End")
    assert step_shown(page) == len(steps) - 1 and page.get_attribute("#replay", "data-kind") == "game_over"
    assert page.is_disabled("#replay-next")
    board = page.eval_on_selector_all(".crib-board-score", "els => els.map(e => +e.textContent)")
    assert board == state.scores
    page.keyboard.press("Home")
    assert step_shown(page) == 0


def test_the_last_step_shows_the_winner_at_the_target_not_past_it(page, problems):
    """A game whose last count makes more than the winner needs (122 here): the replay's seats, its
    board and its words all end at 121, as the table does."""
    state = seated_game(seed="past-2-121-0", level="easy")
    assert sum(state.tally[state.winner]) > 121
    open_replay(page, share.encode(state))
    page.keyboard.press("End")
    assert page.get_attribute("#replay", "data-kind") == "game_over"
    seats = [int(t) for t in page.eval_on_selector_all("[data-score-seat]", "els => els.map(e => e.textContent)")]
    board = page.eval_on_selector_all(".crib-board-score", "els => els.map(e => +e.textContent)")
    assert max(seats) == 121 and board == state.scores and max(board) == 121
    say = page.inner_text("#replay-say")
    assert f"121 to {state.scores[1 - state.winner]}" in say and "spare" not in say


@pytest.mark.parametrize("damage, words", [
    (lambda code: code[:-4] + ("AAAA" if not code.endswith("AAAA") else "BBBB"), "changed or damaged"),
    (lambda code: code[:12], "changed or damaged|too short|ends too soon"),
    (lambda code: "c1.hello!", "alphabet|too short|too soon"),
])
def test_a_damaged_code_gets_a_clear_message_and_no_game(page, problems, finished, damage, words):
    import re

    open_replay(page, damage(finished[0]))
    assert page.get_attribute("#replay", "data-state") == "error"
    message = page.inner_text("#replay-message")
    assert message.startswith("This game code cannot be replayed") and re.search(words, message), message
    assert page.is_hidden("#replay-view")


def test_a_pasted_link_replays_and_the_address_keeps_the_code(page, problems, finished):
    code = finished[0]
    page.goto("/replay/")
    page.wait_for_selector("html[data-ui='ready']", state="attached", timeout=LOAD_TIMEOUT_MS)
    page.fill("#replay-input", "see https://example.org/replay/?code=" + code + " for my game")
    page.click("#replay-form button[type=submit]")
    page.wait_for_selector("#replay[data-state='ready']", state="attached", timeout=LOAD_TIMEOUT_MS)
    assert page.url.endswith("/replay/?code=" + code)
    page.fill("#replay-input", "nothing here")
    page.click("#replay-form button[type=submit]")
    assert "starts with c1." in page.inner_text("#replay-message")


def test_a_game_against_the_expert_is_shown_at_once_then_checked_by_the_pages_own_engine(page, problems):
    """The code writes the expert's moves down, so the page shows the game before any of them is
    worked out again; then the engine's MicroPython worker asks the expert for each (no second
    runtime is loaded) and says the game is checked. The steps are the ones CPython finds."""
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    state = seated_game(seed="e2e-replay-expert", level="expert", target=61, stop=60)
    open_replay(page, share.encode(state))
    assert page.get_attribute("#replay", "data-state") == "ready", page.inner_text("#replay-message")
    assert int(page.get_attribute("#replay", "data-steps")) == len(replay.replay_steps(state))
    assert "expert computer" in page.inner_text("#replay-summary")
    page.wait_for_selector("#replay[data-check='done']", state="attached", timeout=LOAD_TIMEOUT_MS)
    assert page.inner_text("#replay-check") == "Every move checked: the computer's are its own."
    assert page.get_attribute("#replay", "data-state") == "ready"
    assert not any("/pyodide/" in u for u in requests)


def test_a_game_whose_computer_did_not_make_its_own_moves_is_refused_after_the_check(page, problems):
    """A code edited to give the computer another legal move (and its check made again) replays
    as written at first; the check asks the computer and refuses the game, saying which move."""
    from engine import share as codes
    from engine.game import new_game
    from engine.record import computer_action

    game = new_game(seed="e2e-forged", seats=["hard", "person"])
    mine = computer_action(game)
    game.apply(next(a for a in game.legal_actions() if a != mine))
    page.goto("/replay/?code=" + codes.encode(game))
    page.wait_for_selector("#replay[data-state='error']", state="attached", timeout=LOAD_TIMEOUT_MS)
    message = page.inner_text("#replay-message")
    assert message == "This game code cannot be replayed: move 1 is not the one the hard computer makes there.", message
    assert page.is_hidden("#replay-view") and page.is_hidden("#replay-check")
