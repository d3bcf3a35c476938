"""The coach in the browser: hints at the discard and the play, a hand's review, the game's summary
and the statistics' mark for games played with hints.

The page shows what the engine's coach works out (engine/coach.py through engine/host.py); these
tests play practice games from fixed seeds, read the game the page saved and ask CPython's engine
for the same hint or review, so the page is checked against the engine's own figures. The coach's
panel is #coach: data-kind says what it shows (hint, review, summary), data-ms how long the answer
took to appear after the click. Hints must appear within 200 ms of asking.
"""

from __future__ import annotations

import json
import statistics

import pytest

from engine import host, replay
from engine.record import from_json
from tests.e2e.conftest import PageProblems, engine_ready, ui_ready
from tests.e2e.test_game_persistence import nearly_finished_game, saved_envelope
from tests.e2e.test_game_play import lay

DESKTOP = {"width": 1280, "height": 900}
KEY_SETTINGS = "cribbage.settings.v1"
KEY_GAME = "cribbage.game.v1"
KEY_PRACTICE = "cribbage.practice.v1"
KEY_STATS = "cribbage.stats.v1"
HINTS = {"v": 1, "difficulty": "easy", "target": 61, "muggins": False, "speed": "fast", "hints": True}
NO_HINTS = dict(HINTS, hints=False)
DECISION_TIMEOUT_MS = 60_000
HINT_BUDGET_MS = 200
THINKING_MS = 800  # a player looks at the cards before asking


def open_context(browser, base_url, settings):
    context = browser.new_context(base_url=base_url, viewport=DESKTOP)
    context.add_init_script(
        f"localStorage.setItem({json.dumps(KEY_SETTINGS)}, {json.dumps(json.dumps(settings))});")
    page = context.new_page()
    return context, page, PageProblems(page)


@pytest.fixture
def hinted_page(browser, base_url):
    context, page, watch = open_context(browser, base_url, HINTS)
    yield page
    watch.check()
    context.close()


@pytest.fixture
def plain_page(browser, base_url):
    context, page, watch = open_context(browser, base_url, NO_HINTS)
    yield page
    watch.check()
    context.close()


def open_practice(page, seed: str, **params) -> None:
    query = "&".join([f"seed={seed}", "target=61"] + [f"{k}={v}" for k, v in params.items()])
    page.goto(f"/?{query}")
    ui_ready(page)
    engine_ready(page)


def turn(page) -> int:
    return int(page.get_attribute("#game", "data-turn") or 0)


def wait_decision(page, after: int = -1) -> str:
    kind = page.wait_for_function(
        """(after) => {
            const game = document.getElementById('game');
            const kind = game.getAttribute('data-await') || '';
            return kind !== '' && parseInt(game.getAttribute('data-turn') || '0', 10) > after && kind;
        }""", arg=after, timeout=DECISION_TIMEOUT_MS, polling=50).json_value()  # read once: no race
    assert kind != "retry", page.inner_text("#app-error")
    return kind


def stored_game(page, key=KEY_PRACTICE) -> str:
    return json.loads(page.evaluate("(key) => localStorage.getItem(key)", key))["game"]


def wait_panel(page, kind: str) -> int:
    """Wait for the coach's answer of this kind; returns how long it took (ms from the click)."""
    page.wait_for_selector(f"#coach[data-kind='{kind}'][data-ms]", timeout=DECISION_TIMEOUT_MS)
    return int(page.get_attribute("#coach", "data-ms"))


def hinted_cards(page) -> list[int]:
    return [int(c) for c in page.eval_on_selector_all("#my-hand .is-hinted", "els => els.map(e => e.dataset.card)")]


def policy_move(page, kind: str, claim=None) -> int:
    """The tests' moves: the first two cards, the first card that may be laid, go, the next hand,
    and in muggins the count ``claim(counting)`` gives (a card's points in the play: none)."""
    before = turn(page)
    if kind == "discard":
        cards = page.locator("#my-hand button[data-card]")
        cards.nth(0).click()
        cards.nth(1).click()
        page.click("#throw-button")
    elif kind == "play":
        lay(page.locator("#my-hand button[data-card]:not([aria-disabled='true'])").first)
    elif kind == "go":
        page.click("#go-button")
    elif kind == "next":
        page.click("#next-button")
    elif kind == "count":
        page.fill("#count-input", str(claim))
        page.click("#count-button")
    elif kind == "claim":
        page.click("#claim-none")
    else:
        raise AssertionError(f"no move for {kind!r}")
    return before


def names(cards: list[int]) -> list[str]:
    from engine.cards import CARD_NAMES

    return [CARD_NAMES[c] for c in cards]


# --- tests -------------------------------------------------------------------------------------


def test_hints_are_off_until_the_setting_turns_them_on(plain_page):
    page = plain_page
    open_practice(page, "coach-off")
    assert wait_decision(page) == "discard"
    assert not page.is_visible("#hint-button") and not page.is_checked("#hints-setting")
    page.keyboard.press("h")
    page.wait_for_timeout(300)
    assert not page.is_visible("#coach")
    page.check("#hints-setting")
    assert page.is_visible("#hint-button")
    assert json.loads(page.evaluate("(k) => localStorage.getItem(k)", KEY_SETTINGS))["hints"] is True
    assert "hinted" not in json.loads(stored_game(page))  # asking, not the setting, marks a game
    page.uncheck("#hints-setting")
    assert not page.is_visible("#hint-button")


def test_hints_at_the_discard_and_the_play_within_200_ms(hinted_page):
    page = hinted_page
    seed = "coach-hints-1"
    open_practice(page, seed)
    assert wait_decision(page) == "discard"
    before = stored_game(page)
    assert "hinted" not in json.loads(before)
    expected = host.hint({"game": before})["hint"]
    timings = []

    page.wait_for_timeout(THINKING_MS)
    page.click("#hint-button")
    timings.append(wait_panel(page, "hint"))
    rows = page.locator("#coach tbody tr")
    assert rows.count() == 15
    throws = page.eval_on_selector_all("#coach tbody tr", "rows => rows.map(r => r.dataset.throw)")
    assert throws == [" ".join(o["throw_names"]) for o in expected["options"]]
    nets = page.eval_on_selector_all("#coach tbody tr .discard-net", "cells => cells.map(c => c.textContent)")
    assert nets == [f"{o['net']:.2f}".replace("-", "\u2212") for o in expected["options"]]
    assert ("Crib (yours)" if expected["dealer"] else "Crib (theirs)") in page.inner_text("#coach thead")
    best = expected["options"][0]["throw"]
    assert sorted(hinted_cards(page)) == sorted(best)
    assert json.loads(stored_game(page))["hinted"] is True  # the game is marked (and saved)
    assert page.get_attribute("#hint-button", "aria-expanded") == "true"

    # The hint closes and opens again from the button; picking cards keeps it.
    page.click("#hint-button")
    page.wait_for_selector("#coach", state="hidden")
    assert hinted_cards(page) == []
    page.keyboard.press("h")
    timings.append(wait_panel(page, "hint"))
    for card in best:
        page.click(f"#my-hand button[data-card='{card}']")
    assert page.is_visible("#coach") and sorted(hinted_cards(page)) == sorted(best)
    t = turn(page)
    page.click("#throw-button")
    kind = wait_decision(page, t)
    assert not page.is_visible("#coach")  # the hint belonged to the discard

    plays = 0
    while kind not in ("next", "over"):
        if kind == "play":
            game = stored_game(page)
            expected = host.hint({"game": game})["hint"]
            page.wait_for_timeout(THINKING_MS)
            page.keyboard.press("h")
            timings.append(wait_panel(page, "hint"))
            best = expected["cards"][0]
            assert hinted_cards(page) == [best["card"]]
            lead = page.inner_text("#coach .coach-lead")
            assert lead.startswith("Lay ") and all(reason in lead for reason in best["reasons"])
            assert page.locator("#coach .coach-others li").count() == len(expected["cards"]) - 1
            plays += 1
            t = turn(page)
            lay(page.locator("#my-hand .is-hinted"))
        else:
            t = policy_move(page, kind)
        kind = wait_decision(page, t)
    assert plays >= 2
    print("hint timings (ms):", timings)
    # Timings on a shared machine are a figure to read, not a pass mark (`make bench` holds the
    # targets); a hint that takes seconds would still mean it is worked out at the wrong time.
    assert statistics.median(timings) < 5 * HINT_BUDGET_MS, timings


def test_the_review_after_a_hand_in_a_muggins_game(plain_page):
    page = plain_page
    open_practice(page, "coach-review-2", muggins=1)
    wait_decision(page)
    # The policy starts once the cut and the deal are over (the discard is on offer during them).
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')",
                           timeout=10_000)
    page.wait_for_timeout(1500)
    kind = wait_decision(page)
    assert not page.is_visible("#review-button")
    while kind != "next":
        t = policy_move(page, kind, claim=0)  # every count and card claimed as nothing: all of it missed
        kind = wait_decision(page, t)
    game = stored_game(page)
    expected = host.review_hand({"game": game})
    assert page.is_visible("#review-button") and not page.is_visible("#coach")
    page.click("#review-button")
    took = wait_panel(page, "review")
    print("hand review (ms):", took)
    text = page.inner_text("#coach")
    assert page.inner_text("#coach-title") == f"Review of hand {expected['hand_number']}"
    discard = next(d for d in expected["decisions"] if d["kind"] == "discard")
    line = page.inner_text("#coach .coach-discard")
    assert line.startswith("You threw")
    if discard["loss"] > 0:
        assert f"{discard['loss']:.2f} points better" in line or f"{discard['loss']:.2f} point better" in line
    else:
        assert "That was the best throw" in line
    link = page.get_attribute("#coach .coach-discard a", "href")
    assert link.endswith(f"calculator/?discard={','.join(names(discard['cards']))}"
                         f"&dealer={1 if discard['dealer'] else 0}#discard")
    plays = [d for d in expected["decisions"] if d["kind"] == "play"]
    costs = page.eval_on_selector_all("#coach .coach-plays tbody .coach-cost", "cells => cells.map(c => c.textContent)")
    assert costs == [f"{d['loss']:.2f}" for d in plays]
    made = page.eval_on_selector_all("#coach .coach-plays tbody tr", "rows => rows.map(r => [r.children[3].textContent, r.children[4].textContent])")
    assert made == [[str(d["made"]), str(d["gave"])] for d in plays]
    moments = page.eval_on_selector_all("#coach .coach-plays tbody tr a", "links => links.map(a => a.href)")
    assert len(moments) == len(plays)
    for decision, href in zip(plays, moments):
        assert "/replay/?" in href and f"at={decision['hand_number']}.{decision['card']}&code=" in href
    counts = [d for d in expected["decisions"] if d["kind"] == "count"]
    assert counts and page.locator("#coach .coach-count").count() == len(counts)
    for decision, shown in zip(counts, page.locator("#coach .coach-count").all()):
        words = shown.inner_text()
        assert f"you claimed 0, the cards held {decision['total']}" in words or decision["total"] == 0
        href = shown.locator("a").get_attribute("href")
        assert f"?hand={','.join(names(decision['counted']))}&starter=" in href
    missed = [d for d in expected["decisions"] if d["kind"] == "claim" and d["loss"] > 0]
    assert page.locator("#coach .coach-claim").count() == len(missed)
    for decision, shown in zip(missed, page.locator("#coach .coach-claim").all()):
        assert f"and claimed 0; it made {decision['total']}." in shown.inner_text()
    if expected["total"] > 0:
        assert f"{expected['total']:.2f} points" in text or f"{expected['total']:.2f} point" in text
    # The next hand closes the review.
    t = policy_move(page, "next")
    wait_decision(page, t)
    assert not page.is_visible("#coach") and not page.is_visible("#review-button")


def test_the_game_summary_and_the_statistics_mark(hinted_page):
    page = hinted_page
    page.goto("/")
    ui_ready(page)
    engine_ready(page)
    game = nearly_finished_game()
    page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                  [KEY_GAME, saved_envelope(game, {"difficulty": "easy", "practice": False})])
    page.reload()
    engine_ready(page)
    kind = wait_decision(page)
    while kind != "discard":  # the resumed game shows its last moves again first
        t = policy_move(page, kind)
        kind = wait_decision(page, t)
    page.click("#hint-button")
    wait_panel(page, "hint")
    while kind != "over":
        t = policy_move(page, kind)
        kind = wait_decision(page, t)
    page.wait_for_function("(key) => { const s = localStorage.getItem(key); return s && JSON.parse(s).games === 1; }",
                           arg=KEY_STATS, timeout=DECISION_TIMEOUT_MS)
    stats = json.loads(page.evaluate("(k) => localStorage.getItem(k)", KEY_STATS))
    assert stats["hinted"] == 1 and stats["hinted_wins"] == stats["wins"]
    panel = page.inner_text("#stats-panel")
    assert "Played with hints" in panel
    assert page.locator("#stats-panel tr", has_text="Played with hints").inner_text().split("\t")[1].startswith("1")

    final = stored_game(page, KEY_GAME)
    expected = host.review_game({"game": final})
    assert page.is_visible("#summary-button") and page.is_visible("#review-button")
    page.click("#summary-button")
    took = wait_panel(page, "summary")
    print("game summary (ms):", took, "hands:", len(expected["hands"]))
    totals = page.eval_on_selector_all("#coach .coach-totals tr", "rows => rows.map(r => r.innerText)")
    assert totals[0].split("\t") == ["To discards", f"{expected['discard']:.2f}"]
    assert totals[1].split("\t") == ["To pegging", f"{expected['pegging']:.2f}"]
    assert totals[-1].split("\t") == ["In all", f"{expected['total']:.2f}"]
    items = page.locator("#coach .coach-worst li")
    assert items.count() == len(expected["worst"]) > 0
    for decision, item in zip(expected["worst"], items.all()):
        assert item.get_attribute("data-kind") == decision["kind"]
        assert item.inner_text().startswith(f"Hand {decision['hand_number']}: ")
        assert f"{decision['loss']:.2f}" in item.inner_text()
    for decision, item in zip(expected["worst"], items.all()):
        links = item.locator("a")
        if decision["kind"] == "play":  # a play opens the replay at its moment, not a hand count
            assert f"at={decision['hand_number']}.{decision['card']}&" in links.get_attribute("href")
            assert "replay/?" in links.get_attribute("href")
        elif decision["kind"] != "claim":
            assert "calculator/?" in links.get_attribute("href")
    plays = [(d, item) for d, item in zip(expected["worst"], items.all()) if d["kind"] == "play"]
    if plays:
        decision, item = plays[0]
        item.locator("a").click()
        page.wait_for_url("**/replay/**")
        page.wait_for_selector("#replay[data-state='ready']", state="attached", timeout=60_000)
        steps = replay.replay_steps(from_json(final))
        at = int(page.get_attribute("#replay", "data-step"))
        after = steps[at + 1]
        assert after["kind"] == "play" and after["hand_number"] == decision["hand_number"]
        assert after["laid"][-1][1] == decision["card"]
        page.go_back()
        engine_ready(page)
        assert wait_decision(page) == "over"
        page.click("#summary-button")
        wait_panel(page, "summary")
        items = page.locator("#coach .coach-worst li")
    counted_ones = [(d, item) for d, item in zip(expected["worst"], items.all()) if d["kind"] not in ("play", "claim")]
    if not counted_ones:
        return
    first, item = counted_ones[0]
    item.locator("a").click()
    page.wait_for_url("**/calculator/**")
    ui_ready(page)
    engine_ready(page)
    if first["kind"] == "discard":
        page.wait_for_selector("#discard-result[data-state='done']", timeout=DECISION_TIMEOUT_MS)
        assert sorted(page.get_attribute("#discard-result", "data-cards").split()) == sorted(names(first["cards"]))
    else:
        page.wait_for_selector("#calc-result[data-state='done']", timeout=DECISION_TIMEOUT_MS)
        counted = first.get("counted") or first["kept"]
        assert f"hand={','.join(names(counted))}" in page.url
    # Back at the table, the finished game is as it was and is not counted again.
    page.go_back()
    engine_ready(page)
    assert wait_decision(page) == "over"
    page.wait_for_timeout(300)
    assert json.loads(page.evaluate("(k) => localStorage.getItem(k)", KEY_STATS))["games"] == 1
