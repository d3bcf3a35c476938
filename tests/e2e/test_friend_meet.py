"""Friend games through a meeting point: a real Nostr relay (tests/e2e/relay.py) on 127.0.0.1, two
browser contexts that cannot connect directly, one invitation link and nothing else, each side
reloaded mid-hand and back without any code, a game that waits for a side that was closed."""

import time

from tests.e2e.conftest import CHROMIUM, PageProblems, ui_ready
from tests.e2e.test_friend_play import (ACTIONS, FAST_PACE, NO_MDNS_ARGS, mid_hand, open_invitation_form, play, rematch,
                                        same_or_prefix, saved_game)
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
    open_invitation_form(ann, target)
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


PLAY_TOLD = """() => [...document.querySelectorAll('#log li')].reverse().map((li) => {
  const line = li.textContent, card = /the (\\w+ of \\w+): ([\\w-]+)/.exec(line);
  if (/ lays? the /.test(line) && card) return card[1] + ": " + card[2];
  if (/cannot lay a card/.test(line)) return "go";
  if (/one for the go/.test(line)) return "one for the go";
  if (/one for last/.test(line)) return "one for last";
  if (/starts again from zero/.test(line)) return "from zero";
  return null;
}).filter((said) => said !== null)"""
"""The play as the page's game log tells it, whoever's page it is: each card laid and the count,
each go, each point for the go or for last, each count from zero."""
CHAT_LINES = "() => [...document.querySelectorAll('#friend-chat-log li')].map((li) => li.textContent)"


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
    accept(bob, invite, relay.url)
    ann.wait_for_selector("#game[data-await='discard']", state="attached", timeout=30_000)
    bob.wait_for_function("['friend', 'discard'].includes(document.getElementById('game').dataset.await)",
                          timeout=30_000)
    for page in (ann, bob):  # each side's own six, face up
        page.wait_for_function("document.querySelectorAll('#my-hand [data-card]').length === 6", timeout=30_000)
    wait_meeting([ann, bob])
    bob.fill("#friend-chat-input", "Good luck \U0001F600 \U0001F0A1")
    bob.click("#friend-chat-send")
    ann.wait_for_function("document.getElementById('friend-chat-log').textContent.includes('\U0001F600 \U0001F0A1')")
    last = [-1, -1]
    for k, page in enumerate((ann, bob)):
        play([ann, bob], until=mid_hand(page, k + 1), last=last)
        before, told, chat = saved_game(page).to_json(), page.evaluate(PLAY_TOLD), page.evaluate(CHAT_LINES)
        page.reload()
        back_in_play(page)
        assert saved_game(page).to_json() == before
        assert page.evaluate(PLAY_TOLD) == told and page.evaluate(CHAT_LINES) == chat  # the log and chat as they were
        faces = page.evaluate("[...document.querySelectorAll('#my-hand .pc-rank')].map((e) => e.textContent)")
        assert faces and "?" not in faces, faces  # the player's own cards in view, face up, at once
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
    told = ann.evaluate(PLAY_TOLD)  # both logs tell the same play, each go and point for it included
    assert told == bob.evaluate(PLAY_TOLD) and "go" in told and "one for the go" in told
    rematch(ann, bob)
    for watch in (ann_watch, bob_watch):
        watch.check()
    for context in (ann_context, bob_context):
        context.close()


# Test-only, in the meeting point's frame: the relay's notes come through a stranger that drops
# some, repeats some (under their own id and under a new one), holds some back until after the
# next, and invents some of its own for either seat.
HOSTILE = """
(() => {
  if (!location.pathname.endsWith("/meet.html")) return;
  const Original = WebSocket;
  let count = 0, held = null;
  const passed = [];
  window.__hostile = {dropped: 0, forged: 0, replayed: 0, held: 0};
  window.WebSocket = class extends Original {
    set onmessage(handler) {
      super.onmessage = (event) => {
        let data;
        try { data = JSON.parse(event.data); } catch (error) { return handler(event); }
        if (!Array.isArray(data) || data[0] !== "EVENT") return handler(event);
        const deliver = (d) => handler({data: JSON.stringify(d)});
        count += 1;
        if (count % 7 === 0) { window.__hostile.dropped += 1; return; }
        if (count % 11 === 0) {
          window.__hostile.forged += 1;
          deliver([data[0], data[1], Object.assign({}, data[2], {id: "forged" + count,
            content: "n1." + (count % 2) + "." + "ab".repeat(60)})]);
        }
        if (passed.length > 3 && count % 5 === 0) {
          window.__hostile.replayed += 1;
          deliver([data[0], data[1], Object.assign({}, passed[count % passed.length], {id: "again" + count})]);
        }
        passed.push(data[2]);
        if (held === null && count % 3 === 0) { held = data; window.__hostile.held += 1; return; }
        deliver(data);
        deliver(data);
        if (held !== null) { const h = held; held = null; deliver(h); }
      };
    }
  };
})();
"""


# Test-only: every sentence the page shows in its refusal line.
REFUSED_WATCH = """
(() => {
  if (window.top !== window) return;
  window.__refused = [];
  new MutationObserver(() => {
    const box = document.getElementById("friend-refused");
    if (box && !box.hidden && window.__refused[window.__refused.length - 1] !== box.textContent)
      window.__refused.push(box.textContent);
  }).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
})();
"""


def test_a_meeting_point_that_drops_repeats_reorders_and_forges_or_goes_away_changes_nothing(apart_browser, base_url):
    """Through a stranger that drops, repeats, reorders and invents notes, and that stops mid-hand and
    comes back with what it stored: both pages play on to the same game, and say what they refused."""
    from relay import Relay

    relay = Relay()
    try:
        (ann_context, ann, ann_watch), (bob_context, bob, bob_watch) = (
            new_page(apart_browser, base_url), new_page(apart_browser, base_url))
        for page in (ann, bob):
            page.add_init_script(HOSTILE)
            page.add_init_script(REFUSED_WATCH)
        invite = invite_through(ann, relay.url)
        accept(bob, invite, relay.url)
        ann.wait_for_selector("#game[data-await='discard']", state="attached", timeout=30_000)
        wait_meeting([ann, bob])
        last = [-1, -1]
        play([ann, bob], until=mid_hand(ann, 0), last=last)
        relay.stop()
        for page in (ann, bob):
            page.wait_for_function("document.getElementById('friend-connection').textContent.includes('cannot be reached')",
                                   timeout=30_000)
        play([ann, bob], until=lambda: "friend" in (awaiting(ann), awaiting(bob)), last=last, seconds=30)
        time.sleep(1)  # a move made while the meeting point is gone waits in its page
        relay.start()
        wait_meeting([ann, bob])
        play([ann, bob], until=mid_hand(bob, 1), last=last)
        same_or_prefix(ann, bob)
        frames = [f for page in (ann, bob) for f in page.frames if f.url.split("#")[0].endswith("/meet.html")]
        stats = [f.evaluate("window.__hostile") for f in frames]
        assert all(s["dropped"] and s["forged"] and s["replayed"] and s["held"] for s in stats), stats
        for page in (ann, bob):  # each forged note was refused, and said so in a sentence
            said = page.evaluate("window.__refused")
            assert any("A note from the meeting point was refused" in text and "Nothing has changed" in text
                       for text in said), said
        for watch in (ann_watch, bob_watch):
            watch.allow(r"WebSocket connection to 'ws://127\.0\.0\.1:\d+/' failed")  # the browser's own, while it was gone
            watch.check()
        for context in (ann_context, bob_context):
            context.close()
    finally:
        relay.stop()
