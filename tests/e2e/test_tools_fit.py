"""The tools fit their column: the calculator's Count column is whole at laptop widths, a refused
pick says why where it can be seen, and the strategy page's discard heat map needs no sideways
scrolling at desktop widths. What matters first is in the window without the person scrolling: the
game setup's Deal button (a new visitor at a laptop and a phone), a replay's table and its Back and
Forward buttons (a phone), the calculator's count once the fifth card is picked (a phone).
"""

from __future__ import annotations

import pytest

from engine import replay, share
from tests.e2e.conftest import PageProblems, engine_ready, ui_ready
from tests.unit.test_share import seated_game

DESKTOPS = [(1280, 720), (1366, 768), (1440, 900), (1920, 1080)]
IDS = [f"{w}x{h}" for w, h in DESKTOPS]
PHONE = (390, 844)
BOX = "(el) => { const b = el.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; }"


@pytest.fixture
def sized(browser, base_url):
    """``sized((width, height)) -> page``: a fresh context at that size, a touch screen below 500 px."""
    opened = []

    def open_page(size):
        width, height = size
        touch = width < 500
        context = browser.new_context(base_url=base_url, viewport={"width": width, "height": height},
                                      has_touch=touch, is_mobile=touch, service_workers="block")
        page = context.new_page()
        opened.append((context, PageProblems(page)))
        return page

    yield open_page
    for context, watch in opened:
        context.close()
        watch.check()


def in_window(page, selector, size):
    """The element's box lies inside the window (1 px of rounding allowed)."""
    left, top, right, bottom = page.eval_on_selector(selector, BOX)
    width, height = size
    return left >= -1 and top >= -1 and right <= width + 1 and bottom <= height + 1, [left, top, right, bottom]


@pytest.mark.parametrize("size", [DESKTOPS[0], PHONE], ids=[IDS[0], "390x844"])
def test_a_new_visitor_sees_the_deal_button(sized, size):
    page = sized(size)
    page.goto("/")
    ui_ready(page)
    assert page.is_visible("#setup") and page.evaluate("scrollY") == 0
    seen, box = in_window(page, "#deal-button", size)
    assert seen, f"the Deal button is at {box}, outside {size}"
    # Scrolled through the choices it stays in reach, above whatever it passes over.
    page.mouse.wheel(0, 150)
    page.wait_for_function("scrollY > 0")
    seen, box = in_window(page, "#deal-button", size)
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    assert seen and page.evaluate(f"document.elementFromPoint({x}, {y}).closest('#deal-button') !== null")


def test_a_replay_on_a_phone_opens_on_its_table_and_controls(sized):
    state = seated_game(seed="fit-replay", level="easy", target=61)
    code = share.encode(state)
    page = sized(PHONE)
    page.goto("/replay/?code=" + code)
    page.wait_for_selector("#replay[data-state='ready']", state="attached", timeout=120_000)
    for selector in ("#replay-table", "#replay-prev", "#replay-next"):
        seen, box = in_window(page, selector, PHONE)
        assert seen, f"{selector} is at {box}, outside {PHONE}"
    # A step with a tall table (the hands counted at a hand's end) keeps them in reach.
    end = next(i for i, step in enumerate(replay.replay_steps(state)) if step["kind"] == "hand_end")
    page.fill("#replay-slider", str(end))
    assert page.get_attribute("#replay", "data-kind") == "hand_end"
    assert page.eval_on_selector("#replay-table", "(el) => el.getBoundingClientRect().height") > PHONE[1] / 2
    for selector in ("#replay-prev", "#replay-next"):
        seen, box = in_window(page, selector, PHONE)
        assert seen, f"at the hand's end {selector} is at {box}, outside {PHONE}"


def test_a_complete_hand_brings_its_count_into_view_on_a_phone(sized):
    page = sized(PHONE)
    page.goto("/calculator/")
    ui_ready(page)
    engine_ready(page)
    for name in ("5C", "5D", "5H", "JS", "5S"):
        page.tap(f"#calc-picker [data-card='{name}']")
    page.wait_for_selector("#calc-result[data-state='done']", state="attached", timeout=30_000)
    assert page.inner_text("#calc-total") == "29"
    for selector in ("#calc-total", "#calc-show", "#calc-said"):
        seen, box = in_window(page, selector, PHONE)
        assert seen, f"{selector} is at {box}, outside {PHONE}"


@pytest.mark.parametrize("size", DESKTOPS[:2], ids=IDS[:2])
def test_the_count_column_is_not_cut_off(page, problems, size):
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    page.goto("/calculator/?hand=4C,5C,6C,7C&starter=8D&crib=0")
    ui_ready(page)
    engine_ready(page)
    page.wait_for_selector("#calc-items tr", timeout=30_000)
    sizes = page.evaluate("""() => {
        const wrap = document.getElementById('calc-table-wrap');
        const head = wrap.querySelector('th.count-running');
        return {scroll: wrap.scrollWidth, client: wrap.clientWidth,
                right: head.getBoundingClientRect().right, edge: wrap.getBoundingClientRect().right};
    }""")
    assert sizes["scroll"] <= sizes["client"], sizes
    assert sizes["right"] <= sizes["edge"] + 0.5, sizes
    assert page.inner_text("#calc-items tr:last-child td.count-running") == "13"


def test_a_sixth_card_shows_why_it_was_not_taken(page, problems):
    page.goto("/calculator/")
    ui_ready(page)
    engine_ready(page)
    note = page.locator("#calc-picker-full")
    for name in ("AC", "2C", "3C", "4C", "5C"):
        page.click(f"#calc-picker [data-card='{name}']")
    assert not note.is_visible()
    page.click("#calc-picker [data-card='6C']")
    assert note.is_visible()
    assert "All the cards are picked" in note.inner_text()
    assert "All the cards are picked" in page.text_content("#calc-live")  # said to screen readers too
    page.click("#calc-slots .slot >> nth=0")  # taking a card back makes room: the note goes
    assert not note.is_visible()


@pytest.mark.parametrize("size", DESKTOPS, ids=IDS)
def test_the_discard_heat_map_fits_at_desktop_widths(page, problems, size):
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    page.goto("/strategy/")
    sizes = page.evaluate("""() => {
        const wrap = document.querySelector('.discard-table .table-wrap');
        return {scroll: wrap.scrollWidth, client: wrap.clientWidth,
                page: document.documentElement.scrollWidth, cells: wrap.querySelectorAll('td').length};
    }""")
    assert sizes["cells"] == 169
    assert sizes["scroll"] <= sizes["client"], sizes
    assert sizes["page"] <= width
