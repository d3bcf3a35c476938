"""Integrity: stored values that cannot break the page, saves that cannot be forged, messages that
quote only a little of what was typed, and the smaller slips a hostile user found.

Every test drives the built site in Chromium. The game page marks the decision it waits for
in #game[data-await]; store.py's notices appear in #store-notice or #game-notice.
"""

from __future__ import annotations

import json

import pytest

from engine import record, record_format
from engine.game import new_game
from tests.e2e.conftest import engine_ready, ui_ready
from tests.e2e.test_game_gaps import cards_in, move
from tests.e2e.test_game_play import turn, wait_decision

KEYS = {"game": "cribbage.game.v1", "practice": "cribbage.practice.v1", "stats": "cribbage.stats.v1",
        "settings": "cribbage.settings.v1"}
FAST = {"v": 1, "difficulty": "easy", "target": 61, "muggins": False, "speed": "fast"}
HUGE = 1_200_000  # characters: far above the 256 kB any stored value may have
NOTICES_JS = """() => [...document.querySelectorAll('#store-notice, #game-notice')]
    .filter(box => !box.hidden).map(box => box.innerText).join('\\n')"""


@pytest.fixture
def game_page(page, problems):
    problems.allow(r"console error: Failed to load resource")  # never expected: fails below if it happens
    return page


def storage(page) -> dict:
    return page.evaluate("() => Object.fromEntries(Object.keys(localStorage).map(k => [k, localStorage.getItem(k)]))")


def notices(page) -> str:
    return page.evaluate(NOTICES_JS)


def wait_for_notice(page, words: str) -> str:
    page.wait_for_function(f"(words) => ({NOTICES_JS})().includes(words)", arg=words, timeout=30_000)
    return notices(page)


def open_page(page, url: str = "/") -> None:
    """Open ``url``; on the game page, wait for its first decision: by then the page has saved
    what it dealt, so a value a test stores next is not written over."""
    page.goto(url)
    ui_ready(page)
    engine_ready(page)
    if page.locator("#game").count():
        wait_decision(page)


def set_and_reload(page, items: dict, url: str | None = None) -> None:
    page.evaluate("(items) => { for (const [k, v] of Object.entries(items)) localStorage.setItem(k, v); }", items)
    if url is None:
        page.reload()
    else:
        page.goto(url)
    ui_ready(page)
    engine_ready(page)


@pytest.mark.parametrize("slot", sorted(KEYS))
def test_an_oversized_value_in_any_key_is_set_aside_and_the_page_plays(game_page, slot):
    page = game_page
    url = "/?seed=oversized" if slot == "practice" else "/"
    open_page(page, url)
    key = KEYS[slot]
    page.evaluate("([key, n]) => localStorage.setItem(key, 'x'.repeat(n))", [key, HUGE])
    page.reload()
    ui_ready(page)
    engine_ready(page)
    text = wait_for_notice(page, "far too large")
    assert "Reload" not in text and "reload" not in text
    kind = wait_decision(page)
    if kind == "setup":
        before = turn(page)
        page.click("#deal-button")
        kind = wait_decision(page, before)
    assert kind == "discard" and len(cards_in(page, "#my-hand")) == 6
    stored = storage(page)
    assert len(stored.get(key + ".backup", "")) == HUGE  # kept aside, not lost
    assert len(stored.get(key) or "") < 100_000
    assert not page.is_visible("#app-error")


@pytest.mark.parametrize("slot", sorted(KEYS))
def test_an_unreadable_value_in_any_key_is_set_aside_with_a_notice(game_page, slot):
    page = game_page
    url = "/?seed=unreadable" if slot == "practice" else "/"
    open_page(page, url)
    set_and_reload(page, {KEYS[slot]: "not json{"})
    text = wait_for_notice(page, "could not be read")
    assert "kept aside" in text and "Reload" not in text
    assert storage(page)[KEYS[slot] + ".backup"] == "not json{"
    assert wait_decision(page) in ("setup", "discard")


def test_a_practice_link_never_replaces_the_game_in_progress(game_page):
    page = game_page
    page.context.add_init_script(f"localStorage.setItem({json.dumps(KEYS['settings'])}, "
                                 f"{json.dumps(json.dumps(FAST))});")
    open_page(page)
    assert wait_decision(page) == "setup"
    before = turn(page)
    page.click("#deal-button")
    assert wait_decision(page, before) == "discard"
    hand = cards_in(page, "#my-hand")
    move(page, "discard")  # the game in progress has moved on from its deal
    saved = json.loads(storage(page)[KEYS["game"]])["game"]

    open_page(page, "/?seed=practice-over-a-game")
    assert wait_decision(page) == "discard"
    assert page.is_visible("#practice-badge")
    assert json.loads(storage(page)[KEYS["game"]])["game"] == saved  # untouched
    assert KEYS["practice"] in storage(page)

    open_page(page, "/")  # back to the game in progress, exactly where it was
    assert wait_decision(page) != "setup"
    assert not page.is_visible("#practice-badge")
    assert json.loads(storage(page)[KEYS["game"]])["game"] == saved
    assert set(cards_in(page, "#my-hand")) <= set(hand)


def forged_saves() -> dict:
    """A real game in its second hand (the computer making its own moves), and ways to forge it."""
    import random

    from engine.players import get_player

    state = new_game(seats=["person", "easy"], target=61)
    rng = random.Random(5)
    computer = get_player("easy", seed=record.COMPUTER_SEED)
    alternatives = None
    while state.hand_number < 2 or state.to_act != 0:
        view = state.view(state.to_act)
        if state.to_act == 1:
            chosen = computer.choose(view, view["legal_actions"])
            if alternatives is None:
                alternatives = [a for a in view["legal_actions"] if a != chosen]
            state.apply(chosen)
        else:
            state.apply(rng.choice(view["legal_actions"]))
    data = json.loads(state.to_json())

    def resealed(change):
        copy = json.loads(json.dumps(data))
        change(copy)
        copy["check"] = record_format.record_check(copy)
        return json.dumps(copy)

    def other_discard(d):  # the computer's first discard swapped for another it could have made
        d["hands"][0]["actions"][1] = alternatives[0]

    return {
        "genuine": state.to_json(),
        "scores edited in": json.dumps(dict(data, scores=[59, 0])),
        "muggins flag flipped": json.dumps(dict(data, muggins=True)),
        "another seed, check recomputed": resealed(lambda d: d.update(seed="0" * 32)),
        "a computer's move chosen for it, check recomputed": resealed(other_discard),
        "a hand's actions cut short, check recomputed": resealed(lambda d: d["hands"][0]["actions"].pop()),
    }


def envelope(game: str) -> str:
    return json.dumps({"v": 1, "game": game, "meta": {"stop": ""}, "tab": "t-test", "rev": 1, "time": 0})


def test_a_forged_save_is_refused_and_kept_aside(game_page):
    page = game_page
    saves = forged_saves()
    open_page(page)
    set_and_reload(page, {KEYS["game"]: envelope(saves["genuine"])})
    assert wait_decision(page) == "discard" and page.inner_text("#status-hand").startswith("Hand 2")
    for name, text in saves.items():
        if name == "genuine":
            continue
        set_and_reload(page, {KEYS["game"]: envelope(text)})
        words = wait_for_notice(page, "could not be resumed")
        assert "kept aside" in words, name
        assert json.loads(storage(page)[KEYS["game"] + ".backup"])["game"] == text, name
        assert wait_decision(page) == "discard", name
        assert page.inner_text("#status-hand").startswith("Hand 1"), name  # a new game, not the forgery
        assert "Traceback" not in page.inner_text("body")
        page.click("#store-notice .store-dismiss, #game-notice .store-dismiss") if page.locator(
            "#store-notice .store-dismiss").is_visible() else None


def test_statistics_with_unknown_fields_are_mended_and_unreadable_ones_kept_aside(game_page):
    page = game_page
    open_page(page)
    page.wait_for_selector("#stats-panel .stats-reset", timeout=30_000)
    from engine.stats import new_stats

    newer = dict(new_stats(), theme="dark")
    set_and_reload(page, {KEYS["stats"]: json.dumps(newer)})
    wait_for_notice(page, "entries this version does not keep")
    assert json.loads(storage(page)[KEYS["stats"]]) == new_stats()
    broken = dict(new_stats(), wins=3)  # wins and losses no longer add up to the games
    set_and_reload(page, {KEYS["stats"]: json.dumps(broken)})
    wait_for_notice(page, "statistics could not be read")
    assert json.loads(storage(page)[KEYS["stats"] + ".backup"]) == broken


def test_a_long_entry_is_quoted_in_a_short_message(game_page):
    page = game_page
    open_page(page, "/calculator/?hand=5H,5S,5D,JC&starter=5C")
    page.wait_for_function("document.getElementById('calc-total').textContent === '29'", timeout=30_000)
    assert "hand=" in page.evaluate("location.search")
    page.fill("#calc-input", "Q" * 100_000)
    page.press("#calc-input", "Enter")
    page.wait_for_function("document.getElementById('calc-result').dataset.state === 'error'", timeout=30_000)
    message = page.locator("#calc-message")
    assert 0 < len(message.inner_text()) < 200
    assert message.bounding_box()["height"] < 120
    assert "hand=" not in page.evaluate("location.search")  # the address no longer keeps the old hand


def test_the_deal_checker_drops_its_verdict_on_an_error(game_page):
    page = game_page
    seed = "000102030405060708090a0b0c0d0e0f"
    from engine.fairdeal import commitment

    page.goto(f"/fair-deals/?seed={seed}&commitment={commitment(seed)}#check")
    page.wait_for_function("document.getElementById('check-result').dataset.state === 'done'", timeout=30_000)
    assert page.is_visible("#check-verdict")
    page.fill("#check-seed", "not a seed")
    page.click("#check-form button[type='submit']")
    page.wait_for_function("document.getElementById('check-result').dataset.state === 'error'", timeout=30_000)
    assert not page.is_visible("#check-verdict") and not page.is_visible("#check-output")


def test_invisible_characters_never_make_a_name(game_page):
    page = game_page
    open_page(page, "/?pass=1&seed=names&name1=%E2%80%8BAnn%E2%80%8B&name2=%E2%80%AEboB")
    kind = wait_decision(page)
    assert kind in ("pass", "discard")
    names = page.eval_on_selector_all("#seat-list .seat-item-name", "els => els.map(e => e.textContent)")
    assert sorted(names) == ["Ann", "boB"]
