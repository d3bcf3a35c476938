"""Friend games in two browser contexts: an invitation made and accepted on the pages, a whole game
over a real RTCPeerConnection on 127.0.0.1, a whole game by links only, and a hostile text refused
with the game unharmed."""

import time

import pytest

from engine.game import from_json
from tests.e2e.conftest import CHROMIUM, PageProblems, engine_ready, ui_ready
from tests.e2e.test_game_play import awaiting, move, turn

PEER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync",
             # mDNS names (<uuid>.local) are how Chromium names its own addresses with no ICE server
             "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE *.local"]
NO_MDNS_ARGS = PEER_ARGS[:-1] + ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
ACTIONS = ("discard", "play", "go", "next", "claim")
GAME_SECONDS = 300


@pytest.fixture(scope="module")
def live_browser(playwright):
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=PEER_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="module")
def link_browser(playwright):
    """A browser whose pages cannot reach each other directly: friend games go by link."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=NO_MDNS_ARGS)
    yield browser
    browser.close()


def open_pair(browser, base_url, phone=False):
    pages, watches, contexts = [], [], []
    for k in range(2):
        size = {"width": 390, "height": 844} if (phone and k == 1) else {"width": 1280, "height": 720}
        context = browser.new_context(base_url=base_url, viewport=size, service_workers="block",
                                      has_touch=phone and k == 1)
        page = context.new_page()
        watches.append(PageProblems(page))
        pages.append(page)
        contexts.append(context)
    return pages, watches, contexts


def invite_and_accept(ann, bob, target="61"):
    """Ann invites from the game page, Bob accepts from the link, Ann pastes the reply."""
    ann.goto("/")
    ui_ready(ann)
    engine_ready(ann)
    ann.click("#friend-button")
    ann.fill("#friend-name", "Ann")
    ann.check(f"input[name='friend-target'][value='{target}']")
    ann.click("#friend-make-button")
    ann.wait_for_function("document.getElementById('friend-invite-link').value.length > 0")
    invite = ann.input_value("#friend-invite-link")
    ann.wait_for_selector("#friend-qr svg path", state="attached")
    bob.goto(invite)
    ui_ready(bob)
    bob.wait_for_selector("#friend-invited", state="visible")
    assert "Ann invites you to a game of cribbage to 61 points" in bob.inner_text("#friend-invite-text")
    bob.fill("#friend-my-name", "Bob")
    bob.click("#friend-accept")
    bob.wait_for_function("document.getElementById('friend-reply-out').value.length > 0")
    reply = bob.input_value("#friend-reply-out")
    ann.fill("#friend-reply-in", reply)
    ann.click("#friend-connect")
    return invite, reply


def saved_game(page):
    """The friend game the page keeps (its record, as the engine reads it)."""
    text = page.evaluate("""() => { const v = JSON.parse(localStorage.getItem('cribbage.friends.v1'));
        return Object.values(v.games)[0].game; }""")
    return from_json(text) if text else None


def deliver_link(sender, receiver):
    """Play by link: the move link the sender shows, pasted on the receiver's page."""
    link = sender.input_value("#friend-move-link")
    if receiver.is_visible("#friend-paste"):
        receiver.fill("#friend-paste", link)
        receiver.click("#friend-paste-button")
    else:  # not at the table yet: the friend opens the link itself
        receiver.goto(link)
    return link


def play(pages, by_link=False, until=None, seconds=GAME_SECONDS):
    """Both pages make the tests' policy move whenever they have a decision, until the game is over
    (or ``until()`` is true); by link, each move link is carried to the other page."""
    last = [-1, -1]
    delivered = ["", ""]
    deadline = time.time() + seconds
    while time.time() < deadline:
        if all(awaiting(p) == "over" for p in pages) or (until is not None and until()):
            return
        moved = False
        for k, page in enumerate(pages):
            kind, now = awaiting(page), turn(page)
            if kind in ACTIONS and now > last[k]:
                last[k] = now
                move(page, kind)
                moved = True
            elif by_link and kind in ("friend", "over"):
                link = page.input_value("#friend-move-link")
                if link and link != delivered[k] and page.is_visible("#friend-send"):
                    delivered[k] = link
                    deliver_link(page, pages[1 - k])
                    moved = True
        if not moved:
            time.sleep(0.05)
    raise AssertionError(f"the game did not end in {seconds} s: {[awaiting(p) for p in pages]}")


def test_a_whole_friend_game_live_over_a_direct_connection(live_browser, base_url):
    (ann, bob), watches, contexts = open_pair(live_browser, base_url, phone=True)
    invite_and_accept(ann, bob)
    ann.wait_for_selector("#game[data-await='discard']", state="attached")
    bob.wait_for_function("['friend', 'discard'].includes(document.getElementById('game').dataset.await)")
    assert "Connected live to Bob" in ann.inner_text("#friend-connection")
    assert "Connected live to Ann" in bob.inner_text("#friend-connection")
    bob.click("#friend-phrases [data-phrase='Good luck!']")
    ann.wait_for_function("document.getElementById('friend-chat-log').textContent.includes('Good luck!')")
    play([ann, bob])
    a, b = saved_game(ann), saved_game(bob)
    assert a.is_over and a.to_json() == b.to_json()
    assert ann.inner_text("#game-over-detail") == bob.inner_text("#game-over-detail")
    for watch in watches:
        watch.check()
    for context in contexts:
        context.close()


def test_a_whole_friend_game_by_links_only(link_browser, base_url):
    (ann, bob), watches, contexts = open_pair(link_browser, base_url)
    for watch in watches:
        watch.allow(r"WebRTC|ICE|mDNS|\.local")  # the direct connection cannot be made here
    invite_and_accept(ann, bob)
    ann.wait_for_selector("#game[data-await='discard']", state="attached")
    assert "by link" in ann.inner_text("#friend-connection")
    play([ann, bob], by_link=True)
    a, b = saved_game(ann), saved_game(bob)
    assert a.is_over and a.to_json() == b.to_json()
    code = ann.input_value("#friend-move-link") or bob.input_value("#friend-move-link")
    assert code and len(code) < 2000
    for watch in watches:
        watch.check()
    for context in contexts:
        context.close()


def ann_game_text(page):
    return page.evaluate("""() => Object.values(JSON.parse(localStorage.getItem('cribbage.friends.v1')).games)[0].game""")


@pytest.mark.parametrize("name,text,expected", [
    ("not a code", "hello there", "not a link or code"),
    ("forged move link", "#play=c1.AAAAAAAAAAAAAAAAAAAA", "Refused"),
    ("markup", "<img src=x onerror=alert(1)>", "not a link or code"),
])
def test_a_hostile_text_is_refused_and_the_game_goes_on(link_browser, base_url, name, text, expected):
    (ann, bob), watches, contexts = open_pair(link_browser, base_url)
    for watch in watches:
        watch.allow(r"WebRTC|ICE|mDNS|\.local|Friend message refused")
    invite_and_accept(ann, bob)
    ann.wait_for_selector("#game[data-await='discard']", state="attached")
    before = ann_game_text(ann)
    ann.fill("#friend-paste", text)
    ann.click("#friend-paste-button")
    ann.wait_for_function("""(expected) => (document.getElementById('friend-paste-message').textContent
        + document.getElementById('friend-refused').textContent).includes(expected)""", arg=expected)
    assert ann_game_text(ann) == before
    assert ann.evaluate("document.querySelectorAll('img[src=x]').length") == 0
    move(ann, "discard")
    ann.wait_for_selector("#game[data-await='friend']", state="attached")
    for context in contexts:
        context.close()
