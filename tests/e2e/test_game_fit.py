"""The game table stays in the window: at laptop, desktop and phone sizes, each phase's parts are
inside the viewport without the person scrolling, nothing overlaps, nothing scrolls sideways.

Each viewport gets its own page. A practice game (a fixed seed, the fast computer, 61 points) is
played with the tests' policy (test_game_play) through the discard, the play, a go when one
comes, and the show; a pass-and-play game shows its pass screen; a saved game on its last hand
is played to the end for the final result. At each phase the parts that decision needs are
measured from their bounding boxes (the page may scroll itself, the test never does), and a
screenshot is saved (SHOTS_DIR, default screenshots/fit/, not committed).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine import host
from tests.e2e.conftest import PageProblems, engine_ready, ui_ready
from tests.e2e.test_game_play import move, person_move, turn, wait_decision

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("SHOTS_DIR") or ROOT / "screenshots" / "fit")
VIEWPORTS = [(1280, 720), (1920, 1080), (360, 740), (390, 844)]  # the common laptop, a large screen, two phones
WIDE = 960  # wider than 60rem: the board stands beside the table; narrower: the score strip
SEED = "fit-3"
SETTINGS = {"v": 1, "difficulty": "easy", "target": 61, "muggins": False, "speed": "fast", "go": "hand"}
KEY_GAME = "cribbage.game.v1"
KEY_SETTINGS = "cribbage.settings.v1"

SCORES = ["#score-0", "#score-1"]
NEEDED = {
    "discard": ["#my-hand button[data-card]", "#throw-button", "#prompt", "#starter", "#crib", *SCORES],
    "play": ["#my-hand button[data-card]", "#starter", "#count-box", "#laid .laid-item", "#prompt", "#callout",
             *SCORES],
    "go": ["#my-hand button[data-card]", "#go-button", "#count-box", "#laid .laid-item", "#prompt", *SCORES],
    "next": [".show-block .show-title", ".show-block .show-cards", "#next-button", "#callout"],
    "over": ["#game-over-title", "#game-over-detail", "#again-button"],
    "pass": ["#pass-title", "#pass-button"],
    "show4": [".show-block .show-title", ".show-block .show-cards", "#seat-list .seat-item-score", "#next-button",
              "#callout"],
}
"""For each decision, the parts of the table it needs (every visible match of each selector)."""

MEASURE = """(selectors) => {
    const found = [];
    selectors.forEach((selector, group) => {
        document.querySelectorAll(selector).forEach((el) => {
            const style = getComputedStyle(el);
            const box = el.getBoundingClientRect();
            if (style.display === 'none' || style.visibility === 'hidden' || box.width === 0) return;
            found.push({selector, group, index: found.length,
                        box: [box.left, box.top, box.right, box.bottom]});
            el.dataset.fitIndex = String(found.length - 1);
        });
    });
    const contains = (a, b) => {
        const x = document.querySelector(`[data-fit-index="${a}"]`);
        const y = document.querySelector(`[data-fit-index="${b}"]`);
        return x.contains(y) || y.contains(x);
    };
    const overlaps = [];
    for (const a of found) for (const b of found) {
        if (a.index >= b.index || a.group === b.group || contains(a.index, b.index)) continue;
        const w = Math.min(a.box[2], b.box[2]) - Math.max(a.box[0], b.box[0]);
        const h = Math.min(a.box[3], b.box[3]) - Math.max(a.box[1], b.box[1]);
        if (w > 1 && h > 1) overlaps.push(a.selector + ' over ' + b.selector);
    }
    document.querySelectorAll('[data-fit-index]').forEach((el) => el.removeAttribute('data-fit-index'));
    return {found, overlaps, width: innerWidth, height: innerHeight,
            scrollWidth: document.documentElement.scrollWidth};
}"""


def check_in_view(page, kind: str, size: tuple[int, int]) -> None:
    """The parts decision ``kind`` needs are inside the window, apart, with no sideways scroll."""
    width, height = size
    selectors = list(NEEDED[kind])
    if kind in ("discard", "play", "go", "next", "show4"):
        selectors.append("#board svg" if width > WIDE else "#score-strip")
    page.wait_for_function("document.getAnimations().every((a) => a.playState !== 'running')", timeout=5_000)
    page.wait_for_timeout(250)  # let the last card and peg settle
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"fit-{kind}-{width}x{height}.png"))
    seen = page.evaluate(MEASURE, selectors)
    where = f"{kind} at {width}x{height}"
    for selector in selectors:
        assert any(f["selector"] == selector for f in seen["found"]), f"{where}: {selector} is not shown"
    outside = [f"{f['selector']} {[round(v) for v in f['box']]}" for f in seen["found"]
               if f["box"][0] < -1 or f["box"][1] < -1 or f["box"][2] > width + 1 or f["box"][3] > height + 1]
    assert not outside, f"{where}: outside the window: {outside}"
    assert not seen["overlaps"], f"{where}: overlapping: {seen['overlaps']}"
    assert seen["scrollWidth"] <= width, f"{where}: the page scrolls sideways ({seen['scrollWidth']} px)"


def last_hand_game(seed: str) -> str:
    """The practice game's JSON in CPython at the discard of its last hand (tests' policy)."""
    reply = host.start({"difficulty": "easy", "target": 61, "muggins": False, "seed": seed})
    last = None
    while reply["awaiting"] != "over":
        if reply["awaiting"] == "discard":
            last = reply["game"]
        if reply["awaiting"] == "computer":
            reply = host.computer_move({"game": reply["game"], "difficulty": "easy"})
        else:
            reply = host.act({"game": reply["game"], "action": person_move(reply)})
    return last


@pytest.fixture(params=VIEWPORTS, ids=[f"{w}x{h}" for w, h in VIEWPORTS])
def sized_page(request, browser, base_url):
    width, height = request.param
    context = browser.new_context(base_url=base_url, viewport={"width": width, "height": height},
                                  service_workers="block")
    context.add_init_script(f"localStorage.setItem({json.dumps(KEY_SETTINGS)}, {json.dumps(json.dumps(SETTINGS))});")
    page = context.new_page()
    watch = PageProblems(page)
    yield page, (width, height)
    context.close()
    watch.check()


def test_every_phase_stays_in_the_window(sized_page):
    page, size = sized_page
    page.goto(f"/?seed={SEED}&target=61")
    ui_ready(page)
    engine_ready(page)
    kind = wait_decision(page)
    assert kind == "discard"
    check_in_view(page, "discard", size)
    checked = {"discard"}
    kind = wait_decision(page, move(page, kind))
    while kind not in ("next", "over"):
        if kind not in checked and page.locator("#laid .laid-item").count():
            check_in_view(page, kind, size)
            checked.add(kind)
        kind = wait_decision(page, move(page, kind))
    assert kind == "next" and "play" in checked
    check_in_view(page, "next", size)

    # The end of a game: a saved game on its last hand, played out.
    envelope = {"v": 1, "game": last_hand_game(SEED), "meta": {"stop": "", "practice": True}, "tab": "test",
                "rev": 1, "time": 0}
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [KEY_GAME, json.dumps(envelope)])
    page.goto("/")
    ui_ready(page)
    engine_ready(page)
    kind = wait_decision(page)
    for _ in range(40):
        if kind == "over":
            break
        kind = wait_decision(page, move(page, kind))
    assert kind == "over"
    check_in_view(page, "over", size)

    # Pass and play: the pass screen's title and button.
    page.evaluate("() => { try { localStorage.clear(); } catch (e) {} }")  # a new link, not a slot taken
    page.goto(f"/?seed={SEED}&target=61&pass=1&name1=Ann&name2=Bob")
    ui_ready(page)
    engine_ready(page)
    assert wait_decision(page) == "pass"
    check_in_view(page, "pass", size)


TAGS_CLEAR = """() => {
    const items = [...document.querySelectorAll('#laid .laid-item')];
    const clash = [];
    items.forEach((item, i) => {
        const tag = item.querySelector('.laid-by');
        if (!tag) return;
        const a = tag.getBoundingClientRect();
        items.forEach((other, j) => {
            if (i === j) return;
            for (const part of other.querySelectorAll('.pcard, .laid-by')) {
                const b = part.getBoundingClientRect();
                const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
                const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
                if (w > 0.5 && h > 0.5) clash.push(tag.textContent + ' under item ' + j + ' (' + w.toFixed(1) + ' px)');
            }
        });
    });
    return clash;
}"""
"""Each card's owner tag in the play is clear of every other laid card and tag."""


def touch_page(browser, base_url, size, settings):
    """A fresh context at ``size`` with these settings: a touch screen below 500 px."""
    width, height = size
    touch = width < 500
    context = browser.new_context(base_url=base_url, viewport={"width": width, "height": height},
                                  has_touch=touch, is_mobile=touch, service_workers="block")
    context.add_init_script(f"localStorage.setItem({json.dumps(KEY_SETTINGS)}, {json.dumps(json.dumps(settings))});")
    return context, context.new_page()


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)], ids=["1280x720", "390x844"])
def test_four_players_name_tags_stand_clear_and_the_show_fits_a_laptop(browser, base_url, size):
    context, page = touch_page(browser, base_url, size, SETTINGS)
    watch = PageProblems(page)
    try:
        play_four_to_the_show(page, size)
    finally:
        context.close()
    watch.check()


def play_four_to_the_show(page, size):
    page.goto("/?seed=four-1&players=4&target=61")
    ui_ready(page)
    engine_ready(page)
    kind = wait_decision(page)
    tagged = 0
    while kind != "next":
        if kind in ("play", "go") and page.locator("#laid .laid-by").count() >= 2:
            page.wait_for_function("document.getAnimations().every((a) => a.playState !== 'running')",
                                   timeout=5_000)
            clash = page.evaluate(TAGS_CLEAR)
            assert not clash, f"{size}: {clash}"
            tagged += 1
        if kind == "discard":
            page.locator("#my-hand button[data-card]").nth(0).click()
            before = turn(page)
            page.click("#throw-button")
        else:
            before = move(page, kind)
        kind = wait_decision(page, before)
    assert tagged >= 2
    if size == (1280, 720):
        assert page.locator(".show-block").count() == 5
        check_in_view(page, "show4", size)


@pytest.mark.parametrize("size", [(390, 844), (360, 740)], ids=["390x844", "360x740"])
def test_the_cut_pills_and_a_discard_hint_on_a_phone(browser, base_url, size):
    context, page = touch_page(browser, base_url, size, {**SETTINGS, "hints": True})
    watch = PageProblems(page)
    try:
        page.goto(f"/?seed={SEED}&target=61")
        ui_ready(page)
        engine_ready(page)
        assert wait_decision(page) == "discard"
        pills = page.eval_on_selector_all("#laid .cut-item .laid-by", """els => els.map(e => {
            const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; })""")
        assert len(pills) == 2
        (a, b) = pills
        apart = max(b[0] - a[2], a[0] - b[2], b[1] - a[3], a[1] - b[3])
        assert apart >= 2, f"the cut pills touch: {pills}"
        page.tap("#hint-button")
        page.wait_for_selector("#coach[data-kind='hint'] .coach-table-wrap tbody tr", timeout=30_000)
        wrap = page.locator("#coach .coach-table-wrap")
        sizes = wrap.evaluate("(el) => ({scroll: el.scrollWidth, client: el.clientWidth})")
        if sizes["scroll"] > sizes["client"] + 1:
            # Wider than the panel: the edge with more to see says so, and the sign follows the scroll.
            assert wrap.get_attribute("data-more") == "right", sizes
            assert wrap.evaluate("(el) => getComputedStyle(el).maskImage || getComputedStyle(el).webkitMaskImage") != "none"
            wrap.evaluate("(el) => { el.scrollLeft = el.scrollWidth; }")
            page.wait_for_function("document.querySelector('#coach .coach-table-wrap').dataset.more === 'left'",
                                   timeout=5_000)
        else:
            assert wrap.get_attribute("data-more") is None
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"fit-hint-{size[0]}x{size[1]}.png"))
    finally:
        context.close()
    watch.check()
