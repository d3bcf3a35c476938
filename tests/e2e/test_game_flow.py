"""Play that flows: a go with no card to lay is said by itself (or pressed by hand, as an option),
a card is laid by one click of a mouse (by a second tap on a touch screen or with the confirm
setting, at once from the keyboard), the game log survives a reload, the
final score shows as the target even when the last count passes it, and the computer's speed is not
offered where no computer plays.

Practice games from fixed seeds; the engine in CPython replays them with the tests' policy
(test_game_play) to know what the page must show.
"""

from __future__ import annotations

import json

import pytest

from engine import host
from tests.e2e.conftest import PageProblems, engine_ready, ui_ready
from tests.e2e.test_game_fit import last_hand_game
from tests.e2e.test_game_gaps import find_seed, go_with_cards
from tests.e2e.test_game_play import (awaiting, hand_buttons, log_lines, move, person_move, playable, turn,
                                      wait_decision)

KEY_GAME = "cribbage.game.v1"
KEY_SETTINGS = "cribbage.settings.v1"
QUICK = {"v": 1, "difficulty": "easy", "target": 61, "muggins": False, "speed": "fast"}  # go: the default
GO_SAID = "Go: you have no card to play."
WATCH_CALLOUT = """
window.addEventListener('DOMContentLoaded', () => {
  window.callouts = [];
  const callout = document.getElementById('callout');
  if (callout) new MutationObserver(() => window.callouts.push(callout.textContent))
    .observe(callout, {childList: true, characterData: true, subtree: true});
});
"""


@pytest.fixture
def game_page(page, problems):
    key = json.dumps(KEY_SETTINGS)  # quick settings on the first load; later loads keep what the page saved
    page.context.add_init_script(
        f"if (localStorage.getItem({key}) === null) localStorage.setItem({key}, {json.dumps(json.dumps(QUICK))});")
    page.context.add_init_script(WATCH_CALLOUT)
    return page


def open_page(page, url: str) -> None:
    page.goto(url)
    ui_ready(page)
    engine_ready(page)


def test_a_go_with_no_card_to_lay_is_said_by_itself(game_page):
    page = game_page
    seed = find_seed("gap-go", go_with_cards)  # hand 1: the person must say go while holding cards
    open_page(page, f"/?seed={seed}")
    assert not page.is_checked("#go-by-hand")
    kind = wait_decision(page)
    offered = [kind]
    while kind not in ("next", "over"):
        kind = wait_decision(page, move(page, kind))
        offered.append(kind)
    assert "go" not in offered, "the person was asked to press Go"
    callouts = page.evaluate("window.callouts")
    assert GO_SAID in callouts, "the go was not announced on the table"
    assert "You cannot lay a card without passing 31: go." in "\n".join(log_lines(page))


def test_go_can_still_be_pressed_by_hand(game_page):
    page = game_page
    seed = find_seed("gap-go", go_with_cards)
    open_page(page, f"/?seed={seed}")
    page.check("#go-by-hand")
    stored = json.loads(page.evaluate(f"localStorage.getItem({json.dumps(KEY_SETTINGS)})"))
    assert stored["go"] == "hand"
    kind = wait_decision(page)
    while kind not in ("go", "next", "over"):
        kind = wait_decision(page, move(page, kind))
    assert kind == "go" and page.is_visible("#go-button")
    kind = wait_decision(page, move(page, "go"))
    assert kind in ("play", "go", "next")
    page.reload()
    ui_ready(page)
    assert page.is_checked("#go-by-hand")  # the choice is kept


def spare_seed() -> tuple[str, dict]:
    """A practice seed whose game (tests' policy) ends with the winner past 61, and its last reply."""
    for n in range(200):
        seed = f"spare-{n}"
        reply = host.start({"difficulty": "easy", "target": 61, "muggins": False, "seed": seed})
        while reply["awaiting"] != "over":
            if reply["awaiting"] == "computer":
                reply = host.computer_move({"game": reply["game"], "difficulty": "easy"})
            else:
                reply = host.act({"game": reply["game"], "action": person_move(reply)})
        if max(sum(points.values()) for points in reply["view"]["tally"]) > 61:
            return seed, reply
    raise AssertionError("no game ends past 61")


def test_the_winner_shows_61_even_when_the_last_count_passes_it(game_page):
    page = game_page
    seed, final = spare_seed()
    scores = final["view"]["scores"]
    winner = final["result"]["winner"]
    assert scores[winner] == 61
    envelope = {"v": 1, "game": last_hand_game(seed), "meta": {"stop": ""}, "tab": "test", "rev": 1, "time": 0}
    page.goto("/404.html")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [KEY_GAME, json.dumps(envelope)])
    open_page(page, "/")
    kind = wait_decision(page)
    for _ in range(40):
        if kind == "over":
            break
        kind = wait_decision(page, move(page, kind))
    assert kind == "over"
    detail = page.inner_text("#game-over-detail")
    assert detail == f"61 to {scores[1 - winner]}"  # no "points to spare", read as the margin
    assert page.inner_text(f"#score-{winner}") == "61"
    assert page.inner_text(f"#score-{1 - winner}") == str(scores[1 - winner])
    assert f"61 to {scores[1 - winner]}." in log_lines(page)[-1]


def test_the_speed_is_offered_only_where_a_computer_plays(game_page):
    page = game_page
    open_page(page, "/?seed=speed-1&pass=1&name1=Ann&name2=Bob")
    assert wait_decision(page) == "pass"
    assert not page.is_visible("#speed") and page.is_visible("#go-by-hand")
    page.evaluate("() => localStorage.clear()")  # a new link, not the pass-and-play game's slot
    open_page(page, "/?seed=speed-1")
    assert wait_decision(page) == "discard"
    assert page.is_visible("#speed")


def laid_cards(page) -> list[str]:
    return page.eval_on_selector_all("#laid [data-card]", "els => els.map(e => e.dataset.card)")


def play_to(page, wanted: str, kind: str = "") -> str:
    kind = kind or wait_decision(page)
    for _ in range(60):
        if kind == wanted:
            return kind
        assert kind != "over"
        kind = wait_decision(page, move(page, kind))
    raise AssertionError(f"never reached {wanted}")


def test_a_mouse_lays_a_card_with_one_click_unless_asked_to_confirm(game_page):
    page = game_page
    open_page(page, "/?seed=tap-2")
    play_to(page, "play")
    page.wait_for_timeout(500)  # a click just as the play is offered only raises the card
    first = playable(page).first
    name = first.get_attribute("data-card")
    before = turn(page)
    first.click()
    kind = wait_decision(page, before)
    assert name in laid_cards(page)  # one click of a mouse
    page.check("#lay-confirm")
    stored = json.loads(page.evaluate(f"localStorage.getItem({json.dumps(KEY_SETTINGS)})"))
    assert stored["lay"] == "confirm"
    for _ in range(30):
        if kind in ("play", "next", "over"):
            break
        kind = wait_decision(page, move(page, kind))
    if kind == "play":
        assert_two_taps(page)


def assert_two_taps(page, tap=False):
    """A first tap (or click) raises the card and says how to lay it; a second one lays it."""
    held = hand_buttons(page).count()
    first = playable(page).first
    name = first.get_attribute("data-card")
    before = turn(page)
    first.tap() if tap else first.click()
    page.wait_for_timeout(400)
    assert awaiting(page) == "play" and turn(page) == before and hand_buttons(page).count() == held
    assert name not in laid_cards(page)
    assert page.get_attribute("#my-hand .is-selected", "data-card") == name
    assert "again to lay it" in page.inner_text("#prompt")
    if playable(page).count() > 1:  # a tap on another card moves the pick
        other = playable(page).nth(1)
        name = other.get_attribute("data-card")
        other.tap() if tap else other.click()
        assert page.get_attribute("#my-hand .is-selected", "data-card") == name
    selected = page.locator("#my-hand .is-selected")
    selected.tap() if tap else selected.click()
    wait_decision(page, before)
    assert name in laid_cards(page)


def test_a_touch_screen_lays_a_card_by_a_second_tap_and_the_keyboard_at_once(browser, base_url):
    context = browser.new_context(base_url=base_url, has_touch=True, viewport={"width": 390, "height": 844},
                                  service_workers="block")
    page = context.new_page()
    watch = PageProblems(page)
    key = json.dumps(KEY_SETTINGS)
    page.add_init_script(
        f"if (localStorage.getItem({key}) === null) localStorage.setItem({key}, {json.dumps(json.dumps(QUICK))});")
    open_page(page, "/?seed=tap-2")
    play_to(page, "play")
    page.wait_for_timeout(500)
    assert_two_taps(page, tap=True)
    kind = wait_decision(page)
    for _ in range(30):  # the keyboard lays the focused card at once
        if kind in ("play", "next", "over"):
            break
        kind = wait_decision(page, move(page, kind))
    if kind == "play":
        card = playable(page).first
        name = card.get_attribute("data-card")
        card.focus()
        before = turn(page)
        page.keyboard.press("Enter")
        wait_decision(page, before)
        assert name in laid_cards(page)
    watch.check()
    context.close()


def test_the_game_log_survives_a_reload(game_page):
    page = game_page
    open_page(page, "/?seed=log-4")
    kind = play_to(page, "next")
    kind = wait_decision(page, move(page, kind))
    kind = play_to(page, "play", kind)
    kind = wait_decision(page, move(page, kind))
    kind = play_to(page, "play", kind)
    before = log_lines(page)
    assert len(before) > 20
    page.reload()
    ui_ready(page)
    engine_ready(page)
    assert wait_decision(page) == "play"
    after = [line for line in log_lines(page) if not line.startswith("Welcome back")]
    assert after == before
