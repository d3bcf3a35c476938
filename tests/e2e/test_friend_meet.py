"""Friend games through a meeting point: a real Nostr relay (tests/e2e/relay.py) on 127.0.0.1, two
browser contexts that cannot connect directly, one invitation link and nothing else, each side
reloaded mid-hand and back without any code, a game that waits for a side that was closed."""

import time

from tests.e2e.conftest import CHROMIUM, PageProblems, engine_ready, ui_ready
from tests.e2e.test_friend_play import (ACTIONS, FAST_PACE, NO_MDNS_ARGS, mid_hand, play, same_or_prefix,
                                        saved_game)
from tests.e2e.test_game_play import awaiting

import pytest

MEETING_TEXT = "through the meeting point"


@pytest.fixture(scope="module")
def apart_browser(playwright):
    """A browser whose pages cannot reach each other directly (no mDNS names resolve)."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=NO_MDNS_ARGS)
    yield browser
    browser.close()


def new_page(browser, base_url, phone=False):
    size = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 720}
    context = browser.new_context(base_url=base_url, viewport=size, service_workers="block", has_touch=phone)
    page = context.new_page()
    page.add_init_script(FAST_PACE)
    return context, page, PageProblems(page)


def invite_through(ann, relay_url, target="61"):
    """Ann makes an invitation for a friend somewhere else, allowing the meeting point: its link."""
    ann.goto("/")
    ui_ready(ann)
    engine_ready(ann)
    ann.click("#friend-button")
    ann.fill("#friend-name", "Ann")
    ann.check(f"input[name='friend-target'][value='{target}']")
    ann.check("input[name='friend-way'][value='far']")
    ann.wait_for_selector("#friend-far", state="visible")
    ann.fill("#friend-meet-url", relay_url)
    ann.click("#friend-make-button")  # not allowed yet: it says so and makes nothing
    ann.wait_for_function("document.getElementById('friend-make-message').textContent.includes('Allow the meeting point')")
    ann.check("#friend-meet-ok")
    ann.click("#friend-make-button")
    ann.wait_for_function("document.getElementById('friend-invite-link').value.length > 0")
    assert ann.is_hidden("#friend-reply-form")
    return ann.input_value("#friend-invite-link")


def accept(bob, invite, relay_url):
    bob.goto(invite)
    ui_ready(bob)
    bob.wait_for_selector("#friend-invited", state="visible")
    text = bob.inner_text("#friend-invite-text")
    assert "Ann invites you" in text and relay_url in text
    bob.fill("#friend-my-name", "Bob")
    bob.click("#friend-accept")


def wait_meeting(pages):
    for page in pages:
        page.wait_for_function("(text) => document.getElementById('friend-connection').textContent.includes(text)",
                               arg=MEETING_TEXT, timeout=30_000)


def back_in_play(page):
    """After a reload: the game at the table again, with no code swapped."""
    ui_ready(page)
    page.wait_for_function("(kinds) => kinds.includes(document.getElementById('game').dataset.await)",
                           arg=list(ACTIONS + ("friend",)), timeout=30_000)
    page.wait_for_function("document.getElementById('announce').textContent.includes('as you left it')")


def test_a_whole_game_from_one_link_through_a_meeting_point_reloaded_and_waiting(apart_browser, base_url, relay):
    """One link, no reply pasted; each side reloaded mid-hand and back with its cards in view and no
    code; Bob away while Ann moves, his page picks the move up when it opens again."""
    (ann_context, ann, ann_watch), (bob_context, bob, bob_watch) = (
        new_page(apart_browser, base_url), new_page(apart_browser, base_url, phone=True))
    invite = invite_through(ann, relay.url)
    started = time.monotonic()
    accept(bob, invite, relay.url)
    ann.wait_for_selector("#game[data-await='discard']", state="attached", timeout=30_000)
    bob.wait_for_function("['friend', 'discard'].includes(document.getElementById('game').dataset.await)",
                          timeout=30_000)
    first_hand = time.monotonic() - started
    wait_meeting([ann, bob])
    assert ann.locator("#my-hand [data-card]").count() == 6 and bob.locator("#my-hand [data-card]").count() == 6
    last = [-1, -1]
    for k, page in enumerate((ann, bob)):
        play([ann, bob], until=mid_hand(page, k + 1), last=last)
        before = saved_game(page).to_json()
        page.reload()
        back_in_play(page)
        assert saved_game(page).to_json() == before
        assert page.locator("#my-hand [data-card]").count() > 0 or awaiting(page) == "friend"
        last[k] = -1
        wait_meeting([page])
        same_or_prefix(ann, bob)
    # Bob goes away; Ann moves until it is his turn; he comes back later and picks it up.
    play([ann, bob], until=mid_hand(ann, 3), last=last)
    bob_url = bob.url
    bob.close()
    deadline = time.monotonic() + 30
    while awaiting(ann) != "friend" and time.monotonic() < deadline:
        kind = awaiting(ann)
        if kind in ACTIONS:
            from tests.e2e.test_game_play import move
            move(ann, kind)
        time.sleep(0.1)
    assert awaiting(ann) == "friend"
    moves_then = len(saved_game(ann).actions)
    bob = bob_context.new_page()
    bob_watch = PageProblems(bob)
    bob.goto(bob_url)
    back_in_play(bob)
    bob.wait_for_function("(n) => true", arg=moves_then)
    last[1] = -1
    play([ann, bob], last=last)
    a, b = saved_game(ann), saved_game(bob)
    assert a.is_over and a.to_json() == b.to_json()
    assert ann.inner_text("#game-over-detail") == bob.inner_text("#game-over-detail")
    print(f"invitation opened to the first hand on both screens: {first_hand:.2f} s")
    for watch in (ann_watch, bob_watch):
        watch.check()
    for context in (ann_context, bob_context):
        context.close()
