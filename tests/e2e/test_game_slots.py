"""Each kind of game in its own slot: the ordinary game, a practice link's, each day's deal of the
day. Opening one never deals another afresh, a second tab never wipes a game in progress, and a
link whose slot holds another unfinished game asks before ending it.

The page marks the decision it waits for in #game[data-await] ("choice" while it asks which
game to play); store.py keeps each slot under its own localStorage key.
"""

from __future__ import annotations

import json
import time
from datetime import date, timedelta

from engine import daily
from tests.e2e.conftest import PageProblems
from tests.e2e.test_game_persistence import (AWAIT_TIMEOUT_MS, FAST, discard, hand_cards, open_game,
                                             play_until_over, saved_envelope, stored, use_fast_settings,
                                             wait_for_decision)
from tests.e2e.test_records import KEY_DAILY, KEY_PRACTICE, finished_code, nearly_finished_daily

KEY_GAME = "cribbage.game.v1"
MOVED_ON = ("play", "go", "next", "over")
OTHER_TAB = "another tab"


def daily_key(day: str) -> str:
    return f"cribbage.daily-game.{day}.v1"


def daily_link(day: str) -> str:
    return f"/?seed={daily.game_seed(day)}&difficulty={daily.daily_level()}&target=121&muggins=0&players=2"


def start_daily_and_discard(page) -> list[int]:
    """From the setup, start the deal of the day with its button and throw to the crib; returns
    the cards kept after the throw."""
    open_game(page)
    if wait_for_decision(page, "setup", *(("discard",) + MOVED_ON)) != "setup":
        page.click("#new-game-button")
        wait_for_decision(page, "setup")
    page.click("#daily-button")
    page.wait_for_url("**/?seed=cribbage-daily*", timeout=AWAIT_TIMEOUT_MS)
    assert wait_for_decision(page, "discard") == "discard"
    assert page.inner_text("#status-hand").startswith("Hand 1")
    discard(page)
    wait_for_decision(page, *MOVED_ON)
    return hand_cards(page)


def saved_game(page, key: str) -> str:
    return json.loads(stored(page, key))["game"]


def saved_day_game(page, day: str) -> str | None:
    """The saved game of the day's deal, under whatever key holds it."""
    return page.evaluate("""(seed) => {
        for (const key of Object.keys(localStorage)) {
            try {
                const saved = JSON.parse(localStorage.getItem(key));
                if (saved && saved.meta && saved.meta.practice_seed === seed) return saved.game;
            } catch (error) {}
        }
        return null;
    }""", daily.game_seed(day))


def test_the_deal_of_the_day_is_picked_up_after_a_practice_link(page, problems):
    """Start the day's deal and discard, open a practice link, then the daily link again: the
    day's game is where it was, not dealt afresh."""
    use_fast_settings(page)
    today = date.today().isoformat()
    kept = start_daily_and_discard(page)
    assert len(kept) == 4
    day_game = saved_day_game(page, today)

    open_game(page, "/?seed=a-practice-in-between")
    wait_for_decision(page, "discard")
    discard(page)
    wait_for_decision(page, *MOVED_ON)
    assert saved_day_game(page, today) == day_game  # untouched by the practice game

    open_game(page, "/")  # the daily button, as a player opens it again
    wait_for_decision(page, "setup")
    page.click("#daily-button")
    page.wait_for_url("**/?seed=cribbage-daily*", timeout=AWAIT_TIMEOUT_MS)
    assert wait_for_decision(page, *(("discard",) + MOVED_ON)) != "discard"
    assert hand_cards(page) == kept
    assert saved_day_game(page, today) == day_game
    assert saved_game(page, daily_key(today)) == day_game  # in the day's own slot


def test_a_practice_link_in_a_second_tab_never_wipes_the_deal_of_the_day(context, page, problems):
    use_fast_settings(page)
    today = date.today().isoformat()
    kept = start_daily_and_discard(page)
    day_game = saved_day_game(page, today)

    other = context.new_page()
    other_problems = PageProblems(other)
    open_game(other, "/?seed=second-tab-practice")
    wait_for_decision(other, "discard")
    discard(other)
    wait_for_decision(other, *MOVED_ON)
    practice_kept = hand_cards(other)
    practice_game = saved_game(other, KEY_PRACTICE)

    page.reload()  # the first tab's deal of the day is still its own
    assert wait_for_decision(page, *(("discard",) + MOVED_ON)) != "discard"
    assert hand_cards(page) == kept and saved_day_game(page, today) == day_game
    other.reload()  # and the second tab's practice game is still there too
    assert wait_for_decision(other, *(("discard",) + MOVED_ON)) != "discard"
    assert hand_cards(other) == practice_kept and saved_game(other, KEY_PRACTICE) == practice_game
    for tab in (page, other):  # two kinds of game: neither tab is told the other has its game
        page.wait_for_timeout(300)
        assert OTHER_TAB not in tab.evaluate(
            "() => [...document.querySelectorAll('#store-notice')].filter(b => !b.hidden).map(b => b.innerText).join(' ')")
    other_problems.check()


def test_a_link_asks_before_ending_the_practice_game_in_progress(page, problems):
    use_fast_settings(page)
    open_game(page, "/?seed=first-practice")
    wait_for_decision(page, "discard")
    discard(page)
    wait_for_decision(page, *MOVED_ON)
    kept = hand_cards(page)
    first = saved_game(page, KEY_PRACTICE)

    open_game(page, "/?seed=second-practice&target=61")
    assert wait_for_decision(page, "choice") == "choice"
    assert "first-practice" in page.inner_text("#slot-choice-text")
    assert saved_game(page, KEY_PRACTICE) == first  # nothing dealt, nothing ended
    page.click("#slot-choice-back")
    assert wait_for_decision(page, *MOVED_ON)
    assert hand_cards(page) == kept and page.is_hidden("#slot-choice")
    assert "seed=first-practice" in page.url  # a reload picks up the same game
    page.reload()
    assert wait_for_decision(page, *(("discard",) + MOVED_ON)) != "discard" and hand_cards(page) == kept

    open_game(page, "/?seed=second-practice&target=61")
    wait_for_decision(page, "choice")
    page.click("#slot-choice-new")  # the player chooses to end it
    assert wait_for_decision(page, "discard") == "discard"
    page.wait_for_function("(key) => JSON.parse(localStorage.getItem(key)).meta.practice_seed === 'second-practice'",
                           arg=KEY_PRACTICE, timeout=AWAIT_TIMEOUT_MS)
    assert page.get_attribute("#game", "data-target") == "61"


def test_a_deal_of_the_day_saved_by_an_older_version_moves_to_its_days_slot(page, problems):
    use_fast_settings(page)
    today = date.today().isoformat()
    open_game(page)
    wait_for_decision(page, "setup")
    meta = {"difficulty": daily.daily_level(), "practice": True, "practice_seed": daily.game_seed(today),
            "players": 2, "pass_and_play": False, "recorded": False}
    old = json.loads(saved_envelope(nearly_finished_daily(today), meta))
    old["time"] = int(time.time() * 1000)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY_PRACTICE, json.dumps(old)])
    open_game(page, daily_link(today))
    wait_for_decision(page, *(("discard",) + MOVED_ON))
    assert not page.inner_text("#status-hand").startswith("Hand 1")  # the saved game, not a new deal
    assert stored(page, KEY_PRACTICE) is None
    moved = json.loads(stored(page, daily_key(today)))
    assert moved["game"] == old["game"] and moved["meta"]["started"] == today


def test_a_deal_of_the_day_started_on_another_day_counts_for_none(page, problems):
    use_fast_settings(page)
    today = date.today().isoformat()
    yesterday = (date.today() - timedelta(days=1)).isoformat()
    open_game(page)
    wait_for_decision(page, "setup")
    meta = {"difficulty": daily.daily_level(), "practice": True, "practice_seed": daily.game_seed(today),
            "players": 2, "pass_and_play": False, "recorded": False, "started": yesterday}
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [daily_key(today), saved_envelope(nearly_finished_daily(today), meta)])
    open_game(page, daily_link(today))
    play_until_over(page)
    finished_code(page)
    page.wait_for_function("() => document.getElementById('game-over-note').textContent.includes('started on')",
                           timeout=AWAIT_TIMEOUT_MS)
    assert f"started on {yesterday}" in page.inner_text("#game-over-note")
    assert page.is_hidden("#daily-share")
    assert stored(page, KEY_DAILY) is None  # no result for the day


# Test-only: each call the page sends to the engine's worker, with how far the page had got.
SENT_CALLS = """
(() => {
  window.__sent = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    window.__sent.push({name: message && message.name, ui: document.documentElement.dataset.ui,
                        request: message && message.request ? JSON.parse(message.request) : null});
    return post.call(this, message, ...rest);
  };
})();
"""


def test_a_practice_links_first_deal_leaves_before_the_page_has_set_itself_up(page, problems):
    """A practice link's deal is asked for as the page's Python starts (before it has loaded its
    other modules and bound its controls: html[data-ui] still "loading"), with the person's
    settings and the link's own; the page's new game takes that reply: one deal is asked for.
    The same link again, its game saved in the link's slot: nothing is dealt ahead, the game is
    resumed."""
    use_fast_settings(page)
    page.add_init_script(SENT_CALLS)
    open_game(page, "/?seed=dealt-ahead&difficulty=hard")
    assert wait_for_decision(page, "discard") == "discard"
    assert len(hand_cards(page)) == 6
    sent = page.evaluate("window.__sent")
    names = [call["name"] for call in sent]
    assert names[:3] == ["warm_up", "new_game", "ping"], names
    assert sent[1]["ui"] == "loading" and sent[2]["ui"] == "loading", sent[:3]
    assert sent[1]["request"] == {"difficulty": "hard", "target": FAST["target"], "muggins": FAST["muggins"],
                                  "players": 2, "seed": "dealt-ahead"}
    assert names.count("new_game") == 1, names
    kept = hand_cards(page)

    page.reload()
    page.wait_for_selector("html[data-ui='ready']", state="attached", timeout=20_000)
    assert wait_for_decision(page, "discard") == "discard"
    assert hand_cards(page) == kept
    names = [call["name"] for call in page.evaluate("window.__sent")]
    assert "new_game" not in names and "resume_game" in names, names
