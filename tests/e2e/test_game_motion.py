"""Cards that travel: from the deck at the deal, from the hand to the pile, to the crib and out
for the show; a tap or a key lands them at once; nothing moves for a person who asks for
reduced motion. #game[data-motion] counts the moves the page has made.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.conftest import PageProblems, engine_ready, ui_ready
from tests.e2e.test_game_play import move, wait_decision

KEY_SETTINGS = "cribbage.settings.v1"
QUICK = {"v": 1, "difficulty": "easy", "target": 61, "muggins": False, "speed": "fast"}
WATCH_MOVES = """
window.addEventListener('DOMContentLoaded', () => {
  window.moved = [];
  const game = document.getElementById('game');
  new MutationObserver(() => window.moved.push(game.getAttribute('data-moved')))
    .observe(game, {attributes: true, attributeFilter: ['data-motion']});
});
"""
SKIP_ON_FIRST_MOVE = """
window.addEventListener('DOMContentLoaded', () => {
  window.skipped = null;
  new MutationObserver((changes) => {
    if (window.skipped !== null) return;
    if (!changes.some((c) => c.target.classList && c.target.classList.contains('is-arriving'))) return;
    const running = () => document.getAnimations().filter((a) => a.playState === 'running').length;
    const before = running();
    document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}));
    window.skipped = [before, running()];
  }).observe(document.documentElement, {attributes: true, attributeFilter: ['class'], subtree: true});
});
"""


def open_game(browser, base_url, seed: str, script: str = "", **context_args):
    context = browser.new_context(base_url=base_url, service_workers="block", **context_args)
    context.add_init_script(WATCH_MOVES + script)
    context.add_init_script(f"localStorage.setItem({json.dumps(KEY_SETTINGS)}, {json.dumps(json.dumps(QUICK))});")
    page = context.new_page()
    watch = PageProblems(page)
    page.goto(f"/?seed={seed}")
    ui_ready(page)
    engine_ready(page)
    return context, page, watch


def motions(page) -> int:
    return int(page.get_attribute("#game", "data-motion") or 0)


def test_cards_travel_and_a_key_lands_them(browser, base_url):
    context, page, watch = open_game(browser, base_url, "motion-1")
    page.add_init_script(SKIP_ON_FIRST_MOVE)
    kind = wait_decision(page)
    assert kind == "discard"
    dealt = motions(page)
    assert dealt >= 1, "the dealt cards did not come from the deck"
    kind = wait_decision(page, move(page, kind))  # two cards to the crib, the starter turned
    thrown = motions(page)
    assert thrown > dealt, "the cards thrown did not travel to the crib"
    while kind == "play":
        kind = wait_decision(page, move(page, kind))
    assert motions(page) > thrown + 1, "the cards laid did not travel to the pile"
    while kind not in ("next", "over"):
        kind = wait_decision(page, move(page, kind))
    moved = page.evaluate("window.moved")
    assert moved[0] == "hand" and "discard" in moved and "play" in moved
    assert moved.count("show") == 3, "the counted hands and the crib did not come out for the show"
    # A key lands every travelling card at once (checked at the next game's deal).
    page.evaluate("() => { try { localStorage.clear(); } catch (e) {} }")  # a new link, not a slot taken
    page.goto("/?seed=motion-2")
    ui_ready(page)
    page.wait_for_function("window.skipped !== null", timeout=60_000)
    before, after = page.evaluate("window.skipped")
    assert before >= 1 and after == 0
    context.close()
    watch.check()


def test_nothing_moves_for_reduced_motion(browser, base_url):
    context, page, watch = open_game(browser, base_url, "motion-1", reduced_motion="reduce")
    kind = wait_decision(page)
    kind = wait_decision(page, move(page, kind))
    while kind == "play":
        assert page.evaluate("document.getAnimations().filter((a) => a.playState === 'running').length") == 0
        kind = wait_decision(page, move(page, kind))
    assert motions(page) == 0
    assert page.locator(".is-arriving").count() == 0
    context.close()
    watch.check()


PAUSE_THE_DEAL = """
window.addEventListener('DOMContentLoaded', () => {
  window.paused = 0;
  new MutationObserver(() => {
    if (window.paused || !document.querySelector('#my-hand .is-arriving')) return;
    const moving = document.getAnimations().filter((a) => a.playState === 'running');
    moving.forEach((a) => a.pause());
    window.paused = moving.length;
  }).observe(document.documentElement, {attributes: true, attributeFilter: ['class'], subtree: true});
});
"""


def test_a_tap_on_a_card_still_on_its_way_picks_it(browser, base_url):
    # The press lands every card at once, so the release is no longer over the card: the click
    # still belongs to it.
    context, page, watch = open_game(browser, base_url, "motion-3", PAUSE_THE_DEAL)
    assert wait_decision(page) == "discard"
    page.wait_for_function("window.paused > 0", timeout=10_000)
    box = page.locator("#my-hand button[data-card] >> nth=0").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    card = page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('#my-hand button[data-card]')"
                         ".dataset.card", [x, y])
    page.mouse.click(x, y)
    pressed = page.get_attribute(f'#my-hand button[data-card="{card}"]', "aria-pressed")
    assert pressed == "true", "the tap on a travelling card was lost"
    assert page.locator("#my-hand [aria-pressed='true']").count() == 1
    context.close()
    watch.check()


READS_OUTSIDE_FRAMES = """
window.reads = [];
let inFrame = 0;
const askFrame = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (callback) => askFrame((time) => {
  inFrame += 1;
  try { return callback(time); } finally { inFrame -= 1; }
});
const boxOf = Element.prototype.getBoundingClientRect;
Element.prototype.getBoundingClientRect = function () {
  window.reads.push([this.id || String(this.className), inFrame > 0]);
  return boxOf.call(this);
};
"""


@pytest.mark.parametrize("width,height", [(1280, 720), (390, 844)])
def test_the_dealt_hand_is_measured_in_the_next_frame_not_while_it_is_drawn(browser, base_url, width, height):
    # Reading a place on a table just redrawn makes the browser lay it out there and then, once
    # the rest of the redraw is done, again: the deal's cards and the table's place are read in
    # the frame's own layout.
    context, page, watch = open_game(browser, base_url, "motion-1", READS_OUTSIDE_FRAMES,
                                     viewport={"width": width, "height": height})
    assert wait_decision(page) == "discard"
    page.wait_for_function("window.reads.some(([what]) => what === 'felt')", timeout=5_000)
    reads = page.evaluate("window.reads")
    assert any(what == "starter" for what, _ in reads), "the deal's cards did not travel from the deck"
    assert [what for what, in_frame in reads if not in_frame] == []
    assert motions(page) >= 1
    context.close()
    watch.check()
