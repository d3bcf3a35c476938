"""The game page's memory: resuming after a reload, bad stored data, statistics, two tabs.

The page (site_src/app/game.py) marks the decision it waits for in #game[data-await]: discard,
play, go, count, next, over, setup or retry, and "" while it is busy. The player's cards are
buttons in #my-hand with data-card; store.py shows its notices in #store-notice.
"""

from __future__ import annotations

import json
import time

import pytest

from engine.game import new_game
from engine.players import get_player
from engine.record import COMPUTER_SEED
from engine.stats import parse_stats
from tests.e2e.test_game_play import lay, turn

KEY_GAME = "cribbage.game.v1"
KEY_STATS = "cribbage.stats.v1"
KEY_SETTINGS = "cribbage.settings.v1"
FAST = {"v": 1, "difficulty": "easy", "target": 61, "muggins": False, "speed": "fast"}
PLAY_TIMEOUT_S = 150
AWAIT_TIMEOUT_MS = 60_000


# --- helpers ---------------------------------------------------------------------------------


def waiting(page) -> str:
    return page.get_attribute("#game", "data-await") or ""


def wait_for_decision(page, *kinds, timeout=AWAIT_TIMEOUT_MS):
    """Wait until the page waits for one of these decisions (any decision if none given)."""
    kinds_js = json.dumps(list(kinds))
    page.wait_for_function(
        f"""() => {{
            const game = document.getElementById("game");
            const value = game ? game.getAttribute("data-await") || "" : "";
            const kinds = {kinds_js};
            return kinds.length ? kinds.includes(value) : value !== "";
        }}""", timeout=timeout, polling=50)
    return waiting(page)


def hand_cards(page) -> list[int]:
    return [int(c) for c in page.eval_on_selector_all("#my-hand [data-card]",
                                                       "els => els.map(e => e.dataset.card)")]


def playable(page):
    return page.locator("#my-hand button[data-card]:not([aria-disabled='true'])")


def open_game(page, url="/"):
    page.goto(url)
    page.wait_for_selector("html[data-ui='ready']", state="attached", timeout=20_000)


def use_fast_settings(page):
    """Quick settings (61 points, fast computer) for every page of the test's browser context."""
    page.context.add_init_script(
        f"if (!localStorage.getItem({json.dumps(KEY_SETTINGS)})) "
        f"localStorage.setItem({json.dumps(KEY_SETTINGS)}, {json.dumps(json.dumps(FAST))});")


def set_storage_and_reload(page, items, wait_for_engine):
    """Once the page has settled (nothing left loading), store these items and reload."""
    wait_for_engine(page)
    page.evaluate("(items) => { for (const [k, v] of items) localStorage.setItem(k, v); }", items)
    page.reload()
    wait_for_engine(page)


def deal_new_game(page):
    """From the setup form (or a game in progress), start a new game; wait for the discard."""
    if wait_for_decision(page, "setup", "discard", "play", "go", "next", "over") != "setup":
        page.click("#new-game-button")
        wait_for_decision(page, "setup")
    page.click("#deal-button")
    wait_for_decision(page, "discard")


def discard(page):
    cards = playable(page)
    cards.nth(0).click()
    cards.nth(1).click()
    page.click("#throw-button")


def step(page) -> str:
    """Make the person's next move, whatever it is; returns the decision that was made."""
    kind = wait_for_decision(page)
    before = turn(page)
    if kind == "discard":
        discard(page)
    elif kind == "play":
        lay(playable(page).first)
    elif kind == "go":
        page.click("#go-button")
    elif kind == "next":
        page.click("#next-button")
    elif kind in ("over", "setup"):
        return kind
    else:
        raise AssertionError(f"unexpected decision {kind!r}: {page.inner_text('#app-error')!r}")
    # The next decision may be of the same kind (a second card after the other side's go) and
    # come within one poll: the decision counter (data-turn) tells them apart.
    page.wait_for_function("(before) => parseInt(document.getElementById('game').getAttribute('data-turn') "
                           "|| '0', 10) > before || document.querySelector('#my-hand') === null", arg=before,
                           timeout=AWAIT_TIMEOUT_MS, polling=50)
    return kind


def play_until_over(page):
    deadline = time.monotonic() + PLAY_TIMEOUT_S
    while step(page) != "over":
        assert time.monotonic() < deadline, "the game did not finish in time"


def stored(page, key):
    return page.evaluate("(key) => localStorage.getItem(key)", key)


NOTICES_JS = """() => [...document.querySelectorAll('#store-notice, #game-notice')]
    .filter(box => !box.hidden).map(box => box.innerText).join('\\n')"""


def notice_text(page, *parts) -> str:
    """The notices shown (store.py's #store-notice, and #game-notice where the game page copies
    them), once they include all these parts."""
    page.wait_for_function(f"(parts) => {{ const text = ({NOTICES_JS})(); "
                           f"return text.trim() !== '' && parts.every(p => text.includes(p)); }}",
                           arg=list(parts), timeout=AWAIT_TIMEOUT_MS)
    return page.evaluate(NOTICES_JS)


def nearly_finished_game(target=61, practice=False) -> str:
    """A real game close to its end, the person to discard: fresh random deals, or for a
    practice game deals from a seed."""
    for attempt in range(50):
        state = new_game(seed=f"practice-{attempt}" if practice else None, target=target,
                         seats=["person", "easy"])
        movers = [get_player("easy", seed=1), get_player("easy", seed=COMPUTER_SEED)]  # the seated computer
        while not state.is_over:
            if state.phase == "discard" and state.to_act == 0 and max(state.scores) >= target - 8:
                return state.to_json()
            view = state.view(state.to_act)
            state.apply(movers[state.to_act].choose(view, view["legal_actions"]))
    raise AssertionError("no game came close to the end at a discard")


def saved_envelope(game_json, meta, tab="t-test", rev=1):
    return json.dumps({"v": 1, "game": game_json, "meta": meta, "tab": tab, "rev": rev, "time": 0})


# --- tests -----------------------------------------------------------------------------------


def test_reload_mid_hand_resumes_the_same_hand(page, problems, wait_for_engine):
    use_fast_settings(page)
    open_game(page)
    wait_for_engine(page)
    deal_new_game(page)
    dealt = hand_cards(page)
    commitment = page.inner_text("#commitment")
    assert len(dealt) == 6 and len(commitment) >= 32

    page.reload()  # before the discard
    wait_for_engine(page)
    wait_for_decision(page, "discard")
    assert hand_cards(page) == dealt
    assert page.inner_text("#commitment") == commitment

    discard(page)
    kind = wait_for_decision(page, "play", "go", "next", "over")
    held = hand_cards(page)
    laid = page.eval_on_selector_all("#laid [data-card]", "els => els.map(e => e.dataset.card)")
    saved = json.loads(stored(page, KEY_GAME))
    assert len(held) <= 4 and set(held) <= set(dealt)

    page.reload()  # in the middle of the play
    wait_for_engine(page)
    assert wait_for_decision(page) == kind
    assert hand_cards(page) == held
    assert page.eval_on_selector_all("#laid [data-card]", "els => els.map(e => e.dataset.card)") == laid
    assert page.inner_text("#commitment") == commitment
    assert json.loads(json.loads(stored(page, KEY_GAME))["game"]) == json.loads(saved["game"])


GAME_NOTICE = "saved game could not be"
STATS_NOTICE = "statistics could not be read, so they start again"
SETTINGS_NOTICE = "settings could not be read"
TAKEN_OVER = "now being played in another tab"


@pytest.mark.parametrize("game_value, stats_value, settings_value", [
    ("garbage{", "not json at all", "]["),
    (json.dumps({"v": 2, "game": "{}"}), json.dumps({"version": 99, "games": 1}), json.dumps([1, 2, 3])),
    (json.dumps(["foreign", 1]), json.dumps({"kind": "someone else's"}), json.dumps({"v": 1, "target": 500})),
], ids=["not-json", "wrong-version", "foreign-shape"])
def test_corrupt_storage_is_reset_with_a_notice_and_the_page_works(page, problems, wait_for_engine,
                                                                   game_value, stats_value, settings_value):
    open_game(page)
    set_storage_and_reload(page, [[KEY_GAME, game_value], [KEY_STATS, stats_value],
                                  [KEY_SETTINGS, settings_value]], wait_for_engine)
    notice_text(page, GAME_NOTICE, STATS_NOTICE, SETTINGS_NOTICE)
    assert stored(page, KEY_GAME) is None or json.loads(stored(page, KEY_GAME))["v"] == 1
    assert parse_stats(json.loads(stored(page, KEY_STATS) or json.dumps(_fresh_stats())))
    deal_new_game(page)  # the page still plays
    assert len(hand_cards(page)) == 6


def _fresh_stats():
    from engine.stats import new_stats

    return new_stats()


def test_subtly_wrong_data_is_caught_by_the_engine(page, problems, wait_for_engine):
    """Data that looks right to the page but that the engine refuses: reset with a notice."""
    open_game(page)
    stats = _fresh_stats()
    stats.update(games=1, wins=1, best_streak=5, streak=1, hands=1)  # a streak longer than the wins
    stats["by_difficulty"] = {"easy": {"games": 1, "wins": 1, "losses": 0}}
    stats["by_target"] = {"121": {"games": 1, "wins": 1, "losses": 0}}
    tampered = json.loads(nearly_finished_game())
    tampered["scores"] = [60, 0]  # not part of a saved game: scores come from replaying it
    set_storage_and_reload(page, [[KEY_STATS, json.dumps(stats)],
                                  [KEY_GAME, saved_envelope(json.dumps(tampered),
                                                            {"difficulty": "easy", "practice": False})]],
                           wait_for_engine)
    notice_text(page, STATS_NOTICE, GAME_NOTICE)
    assert json.loads(stored(page, KEY_STATS))["games"] == 0
    assert wait_for_decision(page, "setup", "discard") in ("setup", "discard")


def test_storage_unavailable_is_a_notice_not_an_error(page, problems, wait_for_engine):
    page.add_init_script("""
        Object.defineProperty(window, 'localStorage', {get() { throw new DOMException('denied', 'SecurityError'); }});
    """)
    open_game(page)
    wait_for_engine(page)
    notice_text(page, "not letting the site store anything")
    deal_new_game(page)
    assert len(hand_cards(page)) == 6


def test_a_finished_game_updates_the_statistics_once(page, problems, wait_for_engine):
    use_fast_settings(page)
    open_game(page)
    set_storage_and_reload(page, [[KEY_GAME, saved_envelope(nearly_finished_game(),
                                                            {"difficulty": "easy", "practice": False})]],
                           wait_for_engine)
    play_until_over(page)
    page.wait_for_function("(key) => { const s = localStorage.getItem(key); return s && JSON.parse(s).games === 1; }",
                           arg=KEY_STATS, timeout=AWAIT_TIMEOUT_MS)
    record = parse_stats(json.loads(stored(page, KEY_STATS)))
    assert record["wins"] + record["losses"] == 1 and record["by_difficulty"]["easy"]["games"] == 1
    assert record["by_target"] == {"61": record["by_difficulty"]["easy"]}
    assert record["hands"] >= 1
    panel = page.inner_text("#stats-panel")
    assert "Games played" in panel and "1" in panel

    page.reload()  # the finished game is not counted again
    wait_for_engine(page)
    wait_for_decision(page)
    page.wait_for_timeout(500)
    assert json.loads(stored(page, KEY_STATS))["games"] == 1

    page.once("dialog", lambda dialog: dialog.dismiss())  # Reset asks first: "no" keeps them
    page.click("#stats-panel .stats-reset")
    assert json.loads(stored(page, KEY_STATS))["games"] == 1
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#stats-panel .stats-reset")
    page.wait_for_function("(key) => JSON.parse(localStorage.getItem(key)).games === 0", arg=KEY_STATS)
    assert "No games recorded yet" in page.inner_text("#stats-panel")


def test_a_practice_game_is_never_recorded(page, problems, wait_for_engine):
    use_fast_settings(page)
    open_game(page)
    set_storage_and_reload(page, [[KEY_GAME, saved_envelope(nearly_finished_game(practice=True),
                                                            {"difficulty": "easy", "practice": True})]],
                           wait_for_engine)
    assert page.locator("#practice-badge").is_visible()
    play_until_over(page)
    page.wait_for_timeout(500)
    value = stored(page, KEY_STATS)
    assert value is None or json.loads(value)["games"] == 0


def test_two_tabs_on_one_game(context, page, problems, wait_for_engine):
    use_fast_settings(page)
    open_game(page)
    wait_for_engine(page)
    deal_new_game(page)
    other = context.new_page()
    other_problems = type(problems)(other)  # the same watch as the page fixture
    open_game(other)
    wait_for_engine(other)
    wait_for_decision(other, "discard")
    assert hand_cards(other) == hand_cards(page)

    discard(page)  # the first tab moves: the second is told and stops saving
    other.wait_for_selector("#store-notice .store-take-back", timeout=AWAIT_TIMEOUT_MS)
    notice_text(other, TAKEN_OVER)
    wait_for_decision(page, "play", "go", "next", "over")
    first_saved = json.loads(stored(page, KEY_GAME))

    other.click("#store-notice .store-take-back")  # take the game back in the second tab
    wait_for_decision(other, "play", "go", "next", "over")
    assert hand_cards(other) == hand_cards(page)
    page.wait_for_selector("#store-notice .store-take-back", timeout=AWAIT_TIMEOUT_MS)
    notice_text(page, TAKEN_OVER)
    taken = json.loads(stored(page, KEY_GAME))
    assert taken["tab"] != first_saved["tab"] and taken["game"] == first_saved["game"]
    other_problems.check()


@pytest.mark.parametrize("width", [360, 1280])
def test_board_is_labelled_fits_and_keeps_still_for_reduced_motion(page, problems, wait_for_engine, width):
    page.set_viewport_size({"width": width, "height": 800})
    page.emulate_media(reduced_motion="reduce")
    use_fast_settings(page)
    open_game(page, "/?seed=board-check")
    wait_for_engine(page)
    wait_for_decision(page, "discard")
    board = page.locator("#board svg[role='img']")
    assert board.count() == 1
    assert page.locator("#board .board-holes circle").count() == 2 * (60 + 2)  # 61 points: 60 holes, 2 start
    assert board.get_attribute("aria-label") == "Cribbage board, game to 61: You 0, Computer 0."
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = board.bounding_box()
    assert box["width"] <= width and box["height"] > 40
    durations = page.eval_on_selector_all("#board .peg", "els => els.map(e => getComputedStyle(e).transitionDuration)")
    assert len(durations) == 4 and all(float(d.rstrip("s")) < 0.001 for d in durations), durations

    deadline = time.monotonic() + PLAY_TIMEOUT_S
    while page.inner_text("#score-0") == "0" and page.inner_text("#score-1") == "0":
        assert step(page) != "over" and time.monotonic() < deadline
    page.wait_for_function("() => document.querySelector('#board svg').getAttribute('aria-label') === "
                           "`Cribbage board, game to 61: You ${document.getElementById('score-0').innerText.trim()}, "
                           "Computer ${document.getElementById('score-1').innerText.trim()}.`", timeout=AWAIT_TIMEOUT_MS)
    holes = page.eval_on_selector_all("#board .peg", "els => els.map(e => +e.dataset.hole)")
    scores = [int(page.inner_text("#score-0")), int(page.inner_text("#score-1"))]
    assert sorted(holes[:2], reverse=True)[0] == min(scores[0], 61)
    assert sorted(holes[2:], reverse=True)[0] == min(scores[1], 61)
