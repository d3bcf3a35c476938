"""The tools fit their column: the calculator's Count column is whole at laptop widths, a refused
pick says why where it can be seen, and the strategy page's discard heat map needs no sideways
scrolling at desktop widths.
"""

from __future__ import annotations

import pytest

from tests.e2e.conftest import engine_ready, ui_ready

DESKTOPS = [(1280, 720), (1366, 768), (1440, 900), (1920, 1080)]
IDS = [f"{w}x{h}" for w, h in DESKTOPS]


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
