"""The first paint shows what the page is about to be, before any of its Python has run.

static/first-paint.js decides it from the address and the saved games (html[data-start]) and
first-paint.css lays the page out at its final size: the table for a practice link or a saved
game, the setup for a new visitor, the result's place for the calculator's links. PyScript's
runtime is blocked (or held back) here, so what is seen is what the build and that script made
(the game page's board too: the build draws it with the page's own board_draw.py).
A Deal pressed before the page's Python is ready is dealt once it is; a card of the table is
face down and cannot be picked until then.
"""

from __future__ import annotations

from tests.unit.app_python import import_app

PYSCRIPT = "**/runtime/pyscript/**"
VISIBLE = "(id) => { const e = document.getElementById(id); return !!e && e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden'; }"
BOX = "(id) => { const b = document.getElementById(id).getBoundingClientRect(); return [b.x, b.y, b.width, b.height]; }"


def visible(page, element_id: str) -> bool:
    return page.evaluate(VISIBLE, element_id)


def box(page, element_id: str) -> list[float]:
    return page.evaluate(BOX, element_id)


def open_without_python(page, path: str) -> None:
    page.route(PYSCRIPT, lambda route: route.abort())
    page.goto(path, wait_until="commit")
    page.wait_for_selector("#felt, #calc-result", state="attached")
    page.wait_for_load_state("domcontentloaded")


def test_a_practice_link_paints_the_table_without_python(page):
    open_without_python(page, "/?seed=first-paint")
    assert page.get_attribute("html", "data-start") == "table"
    assert page.get_attribute("html", "data-ui") == "loading"  # no Python has run
    assert not visible(page, "setup")
    for part in ("felt", "seat-cpu", "seat-you", "my-hand", "cpu-hand", "starter", "practice-badge", "throw-button"):
        assert visible(page, part), part
    assert page.locator("#my-hand .card-back").count() == 6
    assert page.locator("#cpu-hand .card-back").count() == 6
    assert page.is_disabled("#throw-button")
    assert "Getting the cards ready" in page.inner_text("#prompt")
    assert box(page, "board")[3] > 40
    # The board is drawn by the build: a new game's, its pegs at the start, in the geometry of the width.
    assert page.locator("#board .crib-board-svg").count() == 2  # both geometries; one shows
    assert page.locator("#board .crib-board-svg:visible").count() == 1
    assert page.get_attribute("#board .crib-board-svg:visible", "data-geometry") == "wide"
    assert page.locator("#board .board-holes circle:visible").count() == 2 * (120 + 2)
    assert page.locator("#board .crib-board-name").all_inner_texts() == ["You", "Computer"]


def test_a_saved_game_paints_the_table_and_a_new_visitor_the_setup(page):
    open_without_python(page, "/")
    assert page.get_attribute("html", "data-start") == "setup"
    assert visible(page, "setup") and visible(page, "deal-button")
    assert not visible(page, "seat-you") and not visible(page, "seat-cpu")
    page.evaluate("localStorage.setItem('cribbage.game.v1', JSON.stringify({v: 1, game: '{}'}))")
    page.reload(wait_until="domcontentloaded")
    assert page.get_attribute("html", "data-start") == "table"
    assert visible(page, "seat-you") and not visible(page, "setup")
    assert not visible(page, "practice-badge")  # an ordinary game, not a link's


def test_the_felt_keeps_its_box_when_python_draws_the_table(browser, base_url):
    """The felt (and the board beside or below it) where the first paint put them, to the pixel,
    once the page's Python has dealt the first hand: on a laptop's window and a phone's."""
    for viewport in ({"width": 1280, "height": 720}, {"width": 390, "height": 844}):
        boxes = []
        for blocked in (True, False):
            context = browser.new_context(base_url=base_url, viewport=viewport, service_workers="block")
            page = context.new_page()
            if blocked:
                open_without_python(page, "/?seed=first-paint")
            else:
                page.goto("/?seed=first-paint")
                page.wait_for_selector("#game[data-await='discard']", state="attached", timeout=30_000)
                assert page.get_attribute("html", "data-start") is None  # the page has taken over
            boxes.append({part: box(page, part) for part in ("felt", "my-hand", "seat-cpu", "board")})
            context.close()
        first, drawn = boxes
        for part in first:
            assert all(abs(a - b) <= 2 for a, b in zip(first[part], drawn[part])), (viewport, part, first, drawn)


# The page's layout shifts once it is parsed (its Python runs after that; none after an input),
# read 300 ms after it is ready: each its time, its value and what moved (the element, its box
# before and after).
SHIFTS = """new Promise((resolve) => { const shifts = [];
  const parsed = performance.getEntriesByType('navigation')[0].domContentLoadedEventStart;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput && e.startTime >= parsed) shifts.push([Math.round(e.startTime), e.value,
      (e.sources || []).map((s) => { const n = s.node && s.node.nodeType === 1 ? s.node : s.node && s.node.parentElement;
        const r = (b) => [b.x, b.y, b.width, b.height].map(Math.round).join(",");
        return (n ? n.id || n.className : "?") + " " + r(s.previousRect) + " -> " + r(s.currentRect); })]); })
    .observe({type: 'layout-shift', buffered: true}); setTimeout(() => resolve(shifts), 300); })"""


def test_nothing_moves_when_the_page_draws_the_first_table(browser, base_url):
    """From the first paint to the dealt table nothing moves (no layout shift at all), on a
    laptop's window and a phone's: a practice link whose first hand the computer deals (a longer
    status line, prompt and callout, the crib's caption and the dealer's chip by the computer's
    cards) and one the player deals; and a saved game, resumed."""
    dealers = set()
    for viewport in ({"width": 1280, "height": 720}, {"width": 390, "height": 844}):
        for seed in ("first-paint", "12345"):  # each its own browser: no game in progress
            context = browser.new_context(base_url=base_url, viewport=viewport, service_workers="block")
            page = context.new_page()
            page.goto("/?seed=" + seed)
            page.wait_for_selector("#game[data-await='discard']", state="attached", timeout=30_000)
            assert page.evaluate(SHIFTS) == [], (viewport, seed)
            assert page.is_visible("#practice-badge")
            dealers.add(page.inner_text("#status-hand").split(" · ")[1])
            context.close()
        context = browser.new_context(base_url=base_url, viewport=viewport, service_workers="block")
        page = context.new_page()
        page.goto("/")
        page.click("#deal-button")
        page.wait_for_selector("#game[data-await='discard']", state="attached", timeout=30_000)
        page.reload()
        page.wait_for_selector("#game[data-await='discard']", state="attached", timeout=30_000)
        assert page.evaluate(SHIFTS) == [], (viewport, "saved")
        context.close()
    assert dealers == {"you deal", "the computer deals"}


def test_a_link_for_three_or_four_players_paints_their_table_and_nothing_moves(browser, base_url):
    """A practice link for three or four players paints their table from the start (the seats'
    list in place of the computer's row, every seat's cut, five cards, a third lane and a board of
    three tracks for three players), so nothing moves when the page deals it. Only the board's
    legend may change its words beside a laptop's table ("Computer" becomes "Opponents")."""
    for viewport in ({"width": 1280, "height": 720}, {"width": 390, "height": 844}):
        for players in (3, 4):
            context = browser.new_context(base_url=base_url, viewport=viewport, service_workers="block")
            page = context.new_page()
            page.goto(f"/?seed=seats-{players}&players={players}")
            page.wait_for_selector("#game[data-await='discard']", state="attached", timeout=30_000)
            moved = [shift for shift in page.evaluate(SHIFTS)
                     if not all(source.startswith("crib-board-player ") for source in shift[2])]
            assert moved == [], (viewport, players)
            assert page.locator("#seat-list > li").count() == players
            assert page.locator("#seat-list .first-paint-seat, #laid .first-paint-cut").count() == 0
            assert page.locator("#my-hand [data-card]").count() == 5
            assert page.get_attribute("html", "data-start-seats") is None
            context.close()


def test_a_pass_and_play_link_paints_its_table_and_nothing_moves_on_a_phone(browser, base_url):
    """A practice link for two people on one device paints its two seats, their cuts and the screen
    that passes the device (its words, whose turn it is, still to come): nothing moves on a phone."""
    context = browser.new_context(base_url=base_url, viewport={"width": 390, "height": 844},
                                  service_workers="block")
    page = context.new_page()
    page.goto("/?seed=passing&pass=1&name1=Ann&name2=Bob")
    page.wait_for_selector("#game[data-await='pass']", state="attached", timeout=30_000)
    assert page.evaluate(SHIFTS) == []
    assert page.locator("#seat-list > li").count() == 2 and page.is_visible("#pass-screen")
    assert page.locator("#seat-list .first-paint-seat, #laid .first-paint-cut").count() == 0
    context.close()


def test_the_first_paint_of_a_three_player_link_shows_its_seats(page):
    open_without_python(page, "/?seed=seats&players=3")
    assert page.get_attribute("html", "data-start-seats") == "3"
    assert page.locator("#seat-list > li:visible").count() == 3
    assert page.locator("#laid .first-paint-cut:visible").count() == 3
    assert page.locator("#my-hand li:visible").count() == 5
    assert not visible(page, "seat-cpu")
    open_without_python(page, "/?seed=seats&players=3&pass=1")  # pass and play is two players
    assert page.get_attribute("html", "data-start-seats") == "pass"
    assert page.locator("#seat-list > li:visible").count() == 2
    assert page.locator("#laid .first-paint-cut:visible").count() == 2
    assert visible(page, "pass-screen") and not visible(page, "seat-cpu")


FRAMES_ADDED = """(() => {  // every board frame added once the page is parsed (by the page's Python)
  window.__framesAdded = 0;
  document.addEventListener("DOMContentLoaded", () => new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes)
      if (n.nodeType === 1 && n.classList.contains("crib-board-frame")) window.__framesAdded += 1;
  }).observe(document, {childList: true, subtree: true}));
})();"""


def test_a_saved_game_for_three_players_or_two_on_one_device_paints_its_seats(page):
    """A saved game's notes (its envelope's "meta") give its seats: three seats face down and no
    cut (a resumed hand is past its cut), or the screen that passes the device, its words taking
    the room of the longer name; a link's own players win over a saved game's."""
    open_without_python(page, "/")
    envelope = "(meta) => localStorage.setItem('cribbage.game.v1', JSON.stringify({v: 1, game: '{}', meta}))"
    page.evaluate(envelope, {"players": 3, "pass_and_play": False})
    page.reload(wait_until="domcontentloaded")
    assert page.get_attribute("html", "data-start-seats") == "3"
    assert page.locator("#seat-list .first-paint-seat:visible").count() == 3
    assert page.locator("#laid .first-paint-cut:visible").count() == 0
    assert page.locator("#my-hand .card-back:visible").count() == 5
    page.evaluate(envelope, {"players": 2, "pass_and_play": True, "names": ["Christopher", "Bo"]})
    page.reload(wait_until="domcontentloaded")
    assert page.get_attribute("html", "data-start-seats") == "pass"
    assert visible(page, "pass-screen") and page.locator("#laid .first-paint-cut:visible").count() == 0
    title = page.evaluate("getComputedStyle(document.getElementById('pass-title'), '::after').content")
    assert title == '" to " "Christopher"' or title == '" to Christopher"', title
    page.evaluate(envelope, {"players": 2, "names": ["You", "Computer"]})
    page.reload(wait_until="domcontentloaded")
    assert page.get_attribute("html", "data-start-seats") is None and visible(page, "seat-cpu")
    page.evaluate(envelope, {"players": 4})
    page.goto("/?seed=a-link", wait_until="domcontentloaded")  # the link's game, for two
    assert page.get_attribute("html", "data-start-seats") is None


def test_a_saved_game_for_more_players_or_two_on_one_device_resumes_with_nothing_moving(browser, base_url):
    """Three players, four, and two on one device, saved at the discard and opened again on a
    phone: from the first paint to the resumed table nothing moves."""
    for table in ("3", "4", "pass"):
        context = browser.new_context(base_url=base_url, viewport={"width": 390, "height": 844},
                                      service_workers="block")
        page = context.new_page()
        page.goto("/")
        page.check(f"#setup input[name='table'][value='{table}']")
        page.click("#deal-button")
        awaited = "#game[data-await='pass']" if table == "pass" else "#game[data-await='discard']"
        page.wait_for_selector(awaited, state="attached", timeout=30_000)
        page.reload()
        page.wait_for_selector(awaited, state="attached", timeout=30_000)
        moved = [shift for shift in page.evaluate(SHIFTS)
                 if not all(source.startswith("crib-board-player ") for source in shift[2])]
        assert moved == [], table
        assert page.locator("#seat-list > li").count() == (2 if table == "pass" else int(table))
        assert page.locator("#seat-list .first-paint-seat").count() == 0
        context.close()


def test_a_game_to_61_keeps_its_boards_place_from_the_first_paint(page):
    """A link's game to 61 (its own target, else the person's setting), or a saved one: the board
    the page will draw is half as long, so its place is kept in the first paint's stead."""
    open_without_python(page, "/?seed=short&target=61")
    assert page.get_attribute("html", "data-start-target") == "61"
    width = box(page, "board")[2]
    svg = page.eval_on_selector("#board .crib-board-svg[data-geometry='wide']", "(e) => e.getBoundingClientRect().height")
    board_draw = import_app("board_draw")
    board_width, board_height = board_draw.size(board_draw.WIDE, 2, 61)
    assert abs(svg - width * board_height / board_width) <= 1 and page.evaluate("getComputedStyle(document.querySelector('#board svg')).visibility") == "hidden"
    page.evaluate("localStorage.setItem('cribbage.settings.v1', JSON.stringify({v: 1, target: 61}))")
    page.goto("/?seed=short", wait_until="domcontentloaded")
    assert page.get_attribute("html", "data-start-target") == "61"  # the setting's target
    page.goto("/?seed=short&target=121", wait_until="domcontentloaded")
    assert page.get_attribute("html", "data-start-target") is None
    page.evaluate("localStorage.setItem('cribbage.game.v1', JSON.stringify({v: 1, game: JSON.stringify({target: 61}), meta: {}}))")
    page.goto("/", wait_until="domcontentloaded")
    assert page.get_attribute("html", "data-start-target") == "61"


def test_a_game_to_61_and_a_saved_game_show_with_nothing_moving(browser, base_url):
    """A link's game to 61, and the ordinary game to 61 saved and opened again (its options' button
    that replays the game so far in its place from the start): nothing moves on a laptop's window."""
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 720}, service_workers="block")
    page = context.new_page()
    page.goto("/?seed=short-game&target=61")
    page.wait_for_selector("#game[data-await='discard']", state="attached", timeout=30_000)
    assert page.evaluate(SHIFTS) == []
    page.goto("/")
    page.check("#setup input[name='target'][value='61']")
    page.click("#deal-button")
    page.wait_for_selector("#game[data-await='discard']", state="attached", timeout=30_000)
    page.reload()
    page.wait_for_selector("#game[data-await='discard']", state="attached", timeout=30_000)
    assert page.evaluate(SHIFTS) == []
    assert page.is_visible("#replay-so-far") and page.get_attribute("html", "data-start-target") is None
    context.close()


def test_the_page_takes_over_the_board_of_the_first_paint_and_draws_another_only_when_needed(browser, base_url):
    """A practice link's game to 121 keeps the build's board (the geometry for the width, the other
    one removed; nothing drawn again), its pegs placed by the page; other names only change the
    legend and the label; a game to 61 gets a board of its own."""
    cases = [("/?seed=first-paint", 121, 0, ["You", "Computer"]),
             ("/?seed=first-paint&pass=1&name1=Ann&name2=Bob", 121, 0, ["Ann", "Bob"]),
             ("/?seed=first-paint&target=61", 61, 1, ["You", "Computer"])]
    for viewport, geometry in (({"width": 1280, "height": 720}, "wide"), ({"width": 390, "height": 844}, "compact")):
        context = browser.new_context(base_url=base_url, viewport=viewport, service_workers="block")
        page = context.new_page()
        open_without_python(page, "/?seed=first-paint")
        assert page.get_attribute("#board .crib-board-svg:visible", "data-geometry") == geometry
        context.close()
        for path, target, added, names in cases:
            context = browser.new_context(base_url=base_url, viewport=viewport, service_workers="block")
            page = context.new_page()
            page.add_init_script(FRAMES_ADDED)
            page.goto(path)
            page.wait_for_selector("#game[data-await]:not([data-await=''])", state="attached", timeout=30_000)
            assert page.evaluate("window.__framesAdded") == added, (viewport, path)
            assert page.get_attribute("#board", "data-first-paint") is None
            assert page.locator("#board .crib-board-frame").count() == 1
            assert page.get_attribute("#board .crib-board-svg", "data-geometry") == geometry
            assert page.get_attribute("#board .crib-board-svg", "role") == "img"
            label = page.get_attribute("#board .crib-board-svg", "aria-label")
            assert f"game to {target}: {names[0]} 0, {names[1]} 0" in label, label
            assert page.locator("#board .board-holes circle").count() == 2 * (target - 1 + 2)
            assert page.locator("#board .crib-board-name").all_inner_texts() == names
            assert page.locator("#board .crib-board-swatch[data-lane]").count() == 2
            pegs = page.eval_on_selector_all("#board .peg", "(pegs) => pegs.map((p) => p.style.transform)")
            assert len(pegs) == 4 and all(peg.startswith("translate(") for peg in pegs)
            context.close()


def held_runtime(page) -> list:
    """Hold back PyScript's core.js until the test lets it go (``release(held)``)."""
    held: list = []
    page.route("**/runtime/pyscript/core.js", lambda route: held.append(route))
    return held


def release(page, held: list) -> None:
    page.wait_for_function("() => true")  # lets the held request's handler run
    assert held, "the runtime was never requested"
    for route in held:
        route.continue_()
    page.unroute("**/runtime/pyscript/core.js")


def test_deal_pressed_before_python_is_ready_deals_once_it_is(page, wait_for_ui):
    held = held_runtime(page)
    page.goto("/", wait_until="commit")
    page.wait_for_selector("#deal-button", state="visible")
    page.check("#setup input[name='difficulty'][value='hard']")
    page.click("#deal-button")
    page.wait_for_timeout(300)
    assert "?" not in page.url  # the form did not load the page again
    assert page.get_attribute("html", "data-early") == "queued"
    assert "Getting the cards ready" in page.inner_text("#setup-message")
    assert page.get_attribute("html", "data-ui") == "loading"
    release(page, held)
    wait_for_ui(page)
    page.wait_for_selector("#game[data-await='discard']", state="attached", timeout=30_000)
    assert page.locator("#my-hand button[data-card]").count() == 6
    assert "(hard)" in page.inner_text("#cpu-level")  # the choice made before the page was ready
    assert page.inner_text("#setup-message").strip() == ""


def test_a_card_tapped_before_python_is_ready_is_visibly_not_yet_possible(page, wait_for_ui):
    held = held_runtime(page)
    page.goto("/?seed=first-paint-tap", wait_until="commit")
    page.wait_for_selector("#my-hand .card-back", state="visible")
    assert "Getting the cards ready" in page.inner_text("#prompt")
    page.click("#my-hand li:first-child", force=True)
    assert page.is_disabled("#throw-button")
    assert page.evaluate("getComputedStyle(document.getElementById('felt')).cursor") == "progress"
    release(page, held)
    wait_for_ui(page)
    page.wait_for_selector("#game[data-await='discard']", state="attached", timeout=30_000)
    pressed = page.eval_on_selector_all("#my-hand button[data-card]", "(bs) => bs.map((b) => b.getAttribute('aria-pressed'))")
    assert pressed == ["false"] * 6  # the tap picked nothing: there was no card to pick yet


def test_a_calculator_link_keeps_the_result_place_from_the_first_paint(page):
    open_without_python(page, "/calculator/?hand=5H,5S,5D,JC&starter=5C&crib=0")
    assert page.get_attribute("html", "data-start") == "result"
    assert box(page, "calc-result")[3] >= 400
    page.goto("/calculator/", wait_until="domcontentloaded")
    assert page.get_attribute("html", "data-start") is None
    assert box(page, "calc-result")[3] < 400  # no link: nothing to keep a place for


def test_a_replay_link_keeps_the_games_place_and_nothing_moves_when_it_comes(browser, base_url):
    """A ?code= link's replay: before any Python, "Replaying" stands where the game will be, as
    tall as its first step, so the page below it does not move when the game comes (no layout
    shift at a laptop's size or a phone's); without a code there is no place to keep."""
    from engine import share
    from tests.unit.test_share import seated_game

    code = share.encode(seated_game(seed="first-paint-replay", level="hard", target=61))
    for size in ({"width": 1280, "height": 720}, {"width": 390, "height": 844}):
        context = browser.new_context(base_url=base_url, viewport=size, service_workers="block")
        page = context.new_page()
        page.route(PYSCRIPT, lambda route: route.abort())
        page.goto("/replay/?code=" + code, wait_until="domcontentloaded")
        assert page.get_attribute("html", "data-start") == "result"
        assert visible(page, "replay-loading") and box(page, "replay-loading")[3] >= 900
        page.unroute(PYSCRIPT)
        page.goto("/replay/?code=" + code)
        page.wait_for_selector("#replay[data-state='ready']", state="attached", timeout=60_000)
        assert page.evaluate(SHIFTS) == [], size
        assert not visible(page, "replay-loading")
        page.goto("/replay/", wait_until="domcontentloaded")
        assert page.get_attribute("html", "data-start") is None and not visible(page, "replay-loading")
        context.close()


# Test-only: how many times the table was drawn whole (each draw writes #game[data-phase]).
TABLE_DRAWS = """(() => {
  window.__draws = 0;
  new MutationObserver((records) => { window.__draws += records.length; })
    .observe(document, {subtree: true, attributes: true, attributeFilter: ["data-phase"]});
})();"""


def test_a_new_hand_is_drawn_with_its_cards_not_once_an_event(page):
    """The cut and the deal are shown by the drawing of the hand that follows them at once (a table
    drawn between them would never be painted): a practice link's first hand is drawn three times,
    as the game is set up, as its cards land and once every event is shown (five before)."""
    page.add_init_script(TABLE_DRAWS)
    page.goto("/?seed=first-paint")
    page.wait_for_selector("#game[data-await='discard']", state="attached", timeout=30_000)
    assert page.locator("#my-hand [data-card]").count() == 6
    assert page.evaluate("window.__draws") == 3
