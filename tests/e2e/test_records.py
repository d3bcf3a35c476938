"""The game page's records: a finished game shared (link, file) and opened in a fresh browser
profile, the recent games, and the deal of the day (the same cards everywhere, its share text,
the daily streak).

A nearly finished game is stored and the page finishes it (tests/e2e/test_game_persistence.py's
helpers). #game-over[data-code] holds the finished game's code once the engine has made it.
"""

from __future__ import annotations

import json
from datetime import date


from engine import daily, share
from engine.game import new_game
from engine.players import get_player
from engine.record import COMPUTER_SEED
from tests.e2e.conftest import PageProblems, engine_ready
from tests.e2e.test_game_persistence import (KEY_GAME, AWAIT_TIMEOUT_MS, nearly_finished_game, open_game,
                                             play_until_over, saved_envelope, set_storage_and_reload, stored,
                                             use_fast_settings, wait_for_decision)

KEY_PRACTICE = "cribbage.practice.v1"
KEY_RECORDS = "cribbage.records.v1"
KEY_DAILY = "cribbage.daily.v1"
DAILY_NOTE = "The deal of the day counts in your daily results, not in your other statistics."
LOAD_TIMEOUT_MS = 120_000


def finished_code(page) -> str:
    page.wait_for_selector("#game-over[data-code]", state="attached", timeout=AWAIT_TIMEOUT_MS)
    return page.get_attribute("#game-over", "data-code")


def nearly_finished_daily(day: str) -> str:
    """The day's game close to its end, the person (the easy policy) to discard: at the first
    such discard with a score of 109 or more, else (a day whose game ends from further back) at
    the last hand's discard."""
    level = daily.daily_level()
    state = new_game(seed=daily.game_seed(day), seats=["person", level])
    state.practice = True
    movers = [get_player("easy", seed=1), get_player(level, seed=COMPUTER_SEED)]
    last = None
    while not state.is_over:
        if state.phase == "discard" and state.to_act == 0:
            last = state.to_json()
            if max(state.scores) >= 121 - 12:
                return last
        view = state.view(state.to_act)
        state.apply(movers[state.to_act].choose(view, view["legal_actions"]))
    assert last is not None
    return last


def test_a_finished_game_is_shared_and_opens_in_a_fresh_profile(browser, base_url, page, problems,
                                                                 wait_for_engine):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    use_fast_settings(page)
    open_game(page)
    set_storage_and_reload(page, [[KEY_GAME, saved_envelope(nearly_finished_game(),
                                                            {"difficulty": "easy", "practice": False})]],
                           wait_for_engine)
    play_until_over(page)
    code = finished_code(page)
    assert code.startswith("c1.") and len(code) < 2000
    final = share.decode(code)
    assert final.is_over

    page.click("#share-copy-link")
    page.wait_for_function("() => document.getElementById('game-share-message').textContent !== ''")
    link = page.evaluate("() => navigator.clipboard.readText()")
    assert link == base_url + "/replay/?code=" + code

    with page.expect_download() as info:
        page.click("#share-save-file")
    saved = open(info.value.path(), encoding="utf-8").read()
    assert info.value.suggested_filename == "cribbage-game.txt" and code in saved and link in saved

    games = json.loads(stored(page, KEY_RECORDS))["games"]
    assert [g["code"] for g in games] == [code]
    replay_link = page.locator("#stats-panel .recent-game-replay")
    assert replay_link.count() == 1 and replay_link.get_attribute("href").endswith("replay/?code=" + code)

    fresh = browser.new_context(base_url=base_url)  # another profile: nothing stored, nothing shared
    try:
        other = fresh.new_page()
        watch = PageProblems(other)
        other.goto(link)
        other.wait_for_selector("#replay[data-state='ready']", state="attached", timeout=LOAD_TIMEOUT_MS)
        other.keyboard.press("End")
        assert other.get_attribute("#replay", "data-kind") == "game_over"
        board = other.eval_on_selector_all(".crib-board-score", "els => els.map(e => +e.textContent)")
        assert board == [min(s, 121) for s in final.scores] or board == final.scores
        watch.check()
    finally:
        fresh.close()

    page.click("#share-replay-link")  # the banner's replay, in the same tab
    page.wait_for_selector("#replay[data-state='ready']", state="attached", timeout=LOAD_TIMEOUT_MS)
    assert page.url.endswith("/replay/?code=" + code)


def test_the_game_in_progress_opens_in_the_replay_so_far(page, problems, wait_for_engine):
    use_fast_settings(page)
    open_game(page)
    wait_for_engine(page)
    if wait_for_decision(page, "setup", "discard") == "setup":
        page.click("#deal-button")
    wait_for_decision(page, "discard")
    mine = sorted(int(c) for c in page.eval_on_selector_all("#my-hand [data-card]", "els => els.map(e => e.dataset.card)"))
    page.click("#replay-so-far")
    page.wait_for_selector("#replay[data-state='ready']", state="attached", timeout=LOAD_TIMEOUT_MS)
    page.keyboard.press("End")
    shown = sorted(int(c) for c in page.eval_on_selector_all("#replay-mine [data-card]",
                                                              "els => els.map(e => e.dataset.card)"))
    assert shown == mine
    assert page.get_attribute("#replay-seats .replay-held", "data-open") == "false"  # still hidden


def first_daily_hand(browser, base_url) -> list[int]:
    """A fresh profile opens the game, starts the deal of the day and reads its first hand."""
    context = browser.new_context(base_url=base_url)
    try:
        page = context.new_page()
        watch = PageProblems(page)
        page.goto("/")
        engine_ready(page)
        wait_for_decision(page, "setup")
        page.click("#daily-button")
        page.wait_for_url("**/?seed=cribbage-daily*", timeout=AWAIT_TIMEOUT_MS)
        engine_ready(page)
        wait_for_decision(page, "discard")
        assert page.locator("#practice-badge").is_visible()
        assert page.inner_text("#practice-badge") == "Deal of the day"  # not a practice game
        intro = page.inner_text("#fair-intro")
        assert DAILY_NOTE in intro and "not counted" not in intro
        assert "against the hard computer" in page.text_content("#daily-about")
        assert DAILY_NOTE in page.text_content("#daily-about")
        cards = sorted(int(c) for c in page.eval_on_selector_all("#my-hand [data-card]",
                                                                  "els => els.map(e => e.dataset.card)"))
        watch.check()
        return cards
    finally:
        context.close()


def test_the_deal_of_the_day_is_the_same_in_two_profiles(browser, base_url):
    first = first_daily_hand(browser, base_url)
    second = first_daily_hand(browser, base_url)
    today = date.today().isoformat()
    expected = new_game(seed=daily.game_seed(today), seats=["person", daily.daily_level()])
    assert first == second == sorted(expected.held[0])


def test_the_deal_of_the_day_shares_its_result_and_counts_the_streak(page, problems, wait_for_engine):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    use_fast_settings(page)
    today = date.today().isoformat()
    seed = daily.game_seed(today)
    level = daily.daily_level()
    url = f"/?seed={seed}&difficulty={level}&target=121&muggins=0&players=2"
    open_game(page)
    wait_for_engine(page)
    meta = {"difficulty": level, "practice": True, "practice_seed": seed, "players": 2, "pass_and_play": False,
            "recorded": False, "started": today}
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [f"cribbage.daily-game.{today}.v1", saved_envelope(nearly_finished_daily(today), meta)])
    open_game(page, url)  # the day's link picks up the day's game where it was
    wait_for_engine(page)
    play_until_over(page)
    code = finished_code(page)
    page.wait_for_selector("#daily-share:not([hidden])", timeout=AWAIT_TIMEOUT_MS)
    text = page.inner_text("#daily-share-text")
    lines = text.split("\n")
    final = share.decode(code)
    expected = daily.result(final)
    assert lines[:6] == expected["text"].split("\n")
    assert lines[0] == "Cribbage, deal of the day " + today and lines[6].endswith("/replay/?code=" + code)
    assert max(expected["scores"]) == 121 and lines[1].endswith(" against the hard computer")
    assert page.inner_text("#game-over-note") == DAILY_NOTE
    assert page.inner_text("#practice-badge") == "Deal of the day"
    page.click("#copy-daily")
    page.wait_for_function("() => document.getElementById('game-share-message').textContent !== ''")
    assert page.evaluate("() => navigator.clipboard.readText()") == text

    days = json.loads(stored(page, KEY_DAILY))["days"]
    assert days == {today: {"won": expected["won"], "scores": final.scores, "code": code}}
    page.wait_for_function("() => document.getElementById('stats-panel').innerText.includes('Daily streak')",
                           timeout=AWAIT_TIMEOUT_MS)
    panel = page.inner_text("#stats-panel")
    assert "Daily streak\t1 day" in panel and "Deal of the day " + today in panel


def test_the_deal_checker_rebuilds_a_hand_of_a_day(page, problems):
    page.goto("/fair-deals/?day=2026-12-01&hand=3#check")
    page.wait_for_selector("#check-result[data-state='done']", state="attached", timeout=LOAD_TIMEOUT_MS)
    assert page.get_attribute("#check-result", "data-seed") == daily.hand_seed("2026-12-01", 3)
    assert page.get_attribute("#check-result", "data-matches") == "yes"
    page.fill("#check-hand", "0")  # hands are numbered from 1
    page.click("#daily-form button[type=submit]")
    page.wait_for_selector("#check-result[data-state='error']", state="attached", timeout=LOAD_TIMEOUT_MS)
    assert "numbered from 1" in page.inner_text("#check-message")
