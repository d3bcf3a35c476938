"""Friend games in two browser contexts: an invitation made and accepted on the pages, a whole game
over a real RTCPeerConnection on 127.0.0.1 (with a reload of each side mid-hand and a dropped
connection, each resumed by a fresh exchange of connection codes), a whole game by links only
(with a reload mid-hand), and a hostile text refused with the game unharmed."""

import json
import time
from binascii import hexlify, unhexlify

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from engine import fairdeal, ristretto
from engine.friend_sealed import FORMAT as SEALED_FORMAT
from engine.record import from_json
from engine.sealed import key_of, lock_of, mask_of
from engine.sealed_game import from_dict
from engine.seeds import derive_seed
from tests.e2e.conftest import CHROMIUM, PageProblems, engine_ready, ui_ready
from tests.e2e.test_game_play import awaiting, decision, discard_first_two, move

PEER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync",
             # mDNS names (<uuid>.local) are how Chromium names its own addresses with no ICE server
             "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE *.local"]
NO_MDNS_ARGS = PEER_ARGS[:-1] + ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
ACTIONS = ("discard", "play", "go", "next", "claim")
GAME_SECONDS = 300
LIVE_TEXT = "Connected live to"
# Test-only: every data channel a page opens, so that a test can drop the connection under it,
# and every text the page received over one (kept across reloads of the tab; texts sent together
# share a message, a newline between them: peer_link.SEPARATOR).
CHANNEL_WATCH = """
(() => {
  const Original = window.RTCPeerConnection;
  if (!Original) return;
  window.__channels = [];
  window.__received = JSON.parse(sessionStorage.getItem("__received") || "[]");
  const watch = (channel) => {
    window.__channels.push(channel);
    channel.addEventListener("message", (event) => {
      for (const text of String(event.data).split("\\n")) window.__received.push(text);
      sessionStorage.setItem("__received", JSON.stringify(window.__received));
    });
  };
  window.RTCPeerConnection = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener("datachannel", (event) => watch(event.channel));
    }
    createDataChannel(...args) {
      const channel = super.createDataChannel(...args);
      watch(channel);
      return channel;
    }
  };
})();
"""

# Test-only: whether the page ever showed the sealed first deal as it is sealed: the cut, both
# hands face down, and the line that says the cards are coming.
SEALING_WATCH = """
(() => {
  window.__sealing = false;
  new MutationObserver(() => {
    if (window.__sealing) return;
    const backs = document.querySelectorAll("#my-hand li .card-back:not(.card-small)").length;
    const prompt = document.getElementById("prompt");
    window.__sealing = backs === 6 && document.querySelectorAll("#cpu-hand li .card-back").length === 6
      && document.querySelectorAll("#laid .cut-item").length === 2 && !!prompt
      && prompt.textContent.startsWith("Sealing the deck") && !document.querySelector("#my-hand [data-card]");
  }).observe(document, {subtree: true, childList: true, characterData: true});
})();
"""

# Test-only: the first hand's openings held back a while (its seat 0 cards and seat 1's), so the
# deck is slow to seal, as it is on a slow link or a slow device.
SLOW_SEAL = """
(() => {
  const send = RTCDataChannel.prototype.send;
  const held = new Set();
  let queue = null;  // what is sent while one is held goes after it, in order
  RTCDataChannel.prototype.send = function (data) {
    if (queue) { queue.push([this, data]); return; }
    const step = /"k":1,.*"s":"(final|open)"/.exec(String(data));
    if (step && !held.has(step[1])) {
      held.add(step[1]);
      queue = [[this, data]];
      setTimeout(() => {
        const waiting = queue;
        queue = null;
        for (const [channel, text] of waiting) { try { send.call(channel, text); } catch (error) { /* closed */ } }
      }, 600);
      return;
    }
    return send.call(this, data);
  };
})();
"""

# The other side's moves shown at the tests' pace, with no wait (what is tested here is the games,
# not the pace: store.TEST_PACE).
FAST_PACE = """if (window.top === window && !localStorage.getItem("cribbage.settings.v1"))
  localStorage.setItem("cribbage.settings.v1", JSON.stringify({v: 1, speed: "test"}));"""


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


def open_pair(browser, base_url, phone=False, slow_seal=False):
    pages, watches, contexts = [], [], []
    for k in range(2):
        size = {"width": 390, "height": 844} if (phone and k == 1) else {"width": 1280, "height": 720}
        context = browser.new_context(base_url=base_url, viewport=size, service_workers="block",
                                      has_touch=phone and k == 1)
        page = context.new_page()
        page.add_init_script(CHANNEL_WATCH)
        page.add_init_script(SEALING_WATCH)
        if slow_seal:
            page.add_init_script(SLOW_SEAL)
        page.add_init_script(FAST_PACE)
        watches.append(PageProblems(page))
        pages.append(page)
        contexts.append(context)
    return pages, watches, contexts


BOARD_NAMES = "() => [...document.querySelectorAll('#board .crib-board-name')].map((e) => e.textContent).join(',')"


def open_invitation_form(ann, target):
    """Ann opens the game page's invitation form, names herself and picks the target."""
    ann.goto("/")
    ui_ready(ann)
    engine_ready(ann)
    ann.click("#friend-button")
    ann.fill("#friend-name", "Ann")
    ann.check(f"input[name='friend-target'][value='{target}']")


def invite_and_accept(ann, bob, target="61", live=False, by_link=False):
    """Ann invites from the game page, Bob accepts from the link, Ann pastes the reply. ``live``:
    Bob's page draws the game's board (the players, the target) while his reply waits;
    ``by_link``: Ann chooses to play by links (no connection is offered)."""
    open_invitation_form(ann, target)
    if by_link:
        ann.check("input[name='friend-way'][value='link']")
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
    if live:
        bob.wait_for_function(f"({BOARD_NAMES})() === 'Ann,Bob'")
        assert bob.locator("#board .board-holes circle").count() == 2 * (int(target) - 1 + 2)
    ann.fill("#friend-reply-in", reply)
    ann.click("#friend-connect")
    return invite, reply


def saved_game(page):
    """The friend game the page keeps (its record, as the engine reads it; a sealed game's as its
    side has it, the other hand's unseen cards stood in for)."""
    text = page.evaluate("""() => { const v = JSON.parse(localStorage.getItem('cribbage.friends.v1'));
        return Object.values(v.games)[0].game; }""")
    if not text:
        return None
    if text not in SEALED_READ:
        kept = json.loads(text)
        SEALED_READ.clear()
        SEALED_READ[text] = from_dict(kept["game"]).state if kept.get("format") == SEALED_FORMAT else from_json(text)
    return SEALED_READ[text]


SEALED_READ = {}  # the last text read, and its game


def deliver_link(sender, receiver):
    """Play by link: the move link the sender shows, pasted on the receiver's page."""
    link = sender.input_value("#friend-move-link")
    if receiver.is_visible("#friend-paste"):
        receiver.fill("#friend-paste", link)
        receiver.click("#friend-paste-button")
    else:  # not at the table yet: the friend opens the link itself
        receiver.goto(link)
    return link


def play(pages, by_link=False, until=None, seconds=GAME_SECONDS, last=None):
    """Both pages make the tests' policy move whenever they have a decision, until the game is over
    (or ``until()`` is true); by link, each move link is carried to the other page. ``last`` holds
    each page's last turn moved on (set one to -1 after that page is reloaded)."""
    last = [-1, -1] if last is None else last
    delivered = ["", ""]
    deadline = time.time() + seconds
    while time.time() < deadline:
        if all(awaiting(p) == "over" for p in pages) or (until is not None and until()):
            return
        moved = False
        for k, page in enumerate(pages):
            kind, now = decision(page)
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
    said = [(awaiting(p), p.inner_text("#friend-connection"), p.inner_text("#friend-refused"),
             p.inner_text("#announce")) for p in pages]
    raise AssertionError(f"the game did not end in {seconds} s: {said}")


def mid_hand(page, hands):
    """True once the page's game has finished ``hands`` hands and the current one is in the play."""
    def check():
        game = saved_game(page)
        return (game is not None and not game.is_over and len(game.history) >= hands
                and len(game.actions) >= 3 and awaiting(page) in ACTIONS + ("friend",))
    return check


def wait_live(pages):
    for page in pages:
        try:
            page.wait_for_function("(text) => document.getElementById('friend-connection').textContent.includes(text)",
                                   arg=LIVE_TEXT, timeout=30_000)
        except PlaywrightTimeout:
            said = [(p.inner_text("#friend-connection"), p.inner_text("#friend-paste-message"),
                     p.inner_text("#friend-refused"), awaiting(p)) for p in pages]
            raise AssertionError(f"not connected live again: {said}") from None


def wait_not_live(page):
    page.wait_for_function("(text) => !document.getElementById('friend-connection').textContent.includes(text)",
                           arg=LIVE_TEXT, timeout=30_000)


def connect_again(offerer, answerer):
    """The page's own way back to live play: "Connect live" on one side, its code pasted on the
    other, the code that comes back pasted on the first."""
    offerer.click("#friend-reconnect")
    offerer.wait_for_function("document.getElementById('friend-offer-out').value.includes('#connect=')")
    offer = offerer.input_value("#friend-offer-out")
    answerer.fill("#friend-paste", offer)
    answerer.click("#friend-paste-button")
    answerer.wait_for_function("(offer) => { const v = document.getElementById('friend-offer-out').value;"
                               " return v.includes('#connect=') && v !== offer; }", arg=offer)
    offerer.fill("#friend-paste", answerer.input_value("#friend-offer-out"))
    offerer.click("#friend-paste-button")
    wait_live([offerer, answerer])


def reload_mid_hand(page, other):
    """Reload ``page``: its game comes back exactly as it was, the other side sees the connection go."""
    before = saved_game(page).to_json()
    page.reload()
    ui_ready(page)
    page.wait_for_function("(kinds) => kinds.includes(document.getElementById('game').dataset.await)",
                           arg=list(ACTIONS + ("friend",)), timeout=30_000)
    assert saved_game(page).to_json() == before
    page.wait_for_function("document.getElementById('announce').textContent.includes('as you left it')")
    wait_not_live(other)


def hidden_from_each_other(ann, bob):
    """Mid-hand, a live game is sealed: neither page keeps the other's cards in hand (its kept game
    has cards stood in for them) nor names one in the table, and nothing it received over the
    connection opens one, read with every key it holds."""
    for seat, (owner, viewer) in enumerate(((ann, bob), (bob, ann))):
        kept = json.loads(viewer.evaluate("""() => { const v = JSON.parse(localStorage.getItem('cribbage.friends.v1'));
            return Object.values(v.games)[0].game; }"""))
        assert kept.get("format") == SEALED_FORMAT
        game = saved_game(owner)
        real = set(game.held[seat])
        assert real and real != set(saved_game(viewer).held[seat])
        named = viewer.evaluate("() => [...document.querySelectorAll('[data-card]')].map((e) => Number(e.dataset.card))")
        assert not real & set(named), (seat, real, named)
        received = viewer.evaluate("window.__received")
        assert any('"s":"deck"' in text or '"s":"final"' in text for text in received)
        readable = readable_cards(received, kept["game"], game.hand_number)
        assert not real & readable, (seat, real, readable)
        assert set(saved_game(viewer).held[1 - seat]) <= readable  # the harness reads what it may
        assert "every deck is sealed" in viewer.text_content("#fair-intro")


def readable_cards(received, side, number):
    """Every card of hand ``number`` that a side (its kept ``SealedGame.to_dict``) can read from the
    messages it received: cards named in them, card points sent in clear, and each opening and
    sealed point of the hand tried with every key of the side's own for it."""
    inner = []
    for text in received:
        message = json.loads(text)
        if message.get("t") == "seal" and isinstance(message.get("m"), dict):
            inner.append(message["m"])
    cards = set()
    plain = {hexlify(ristretto.encode(p)).decode("ascii"): c for c, p in enumerate(ristretto.CARD_POINTS)}

    def named(value, key=None):
        if isinstance(value, dict):
            for k, v in value.items():
                named(v, k)
        elif isinstance(value, list):
            for v in value:
                named(v, key)
        elif isinstance(value, int) and key in ("card", "cards", "discard"):
            cards.add(value)
        elif isinstance(value, str):
            cards.update(c for point, c in plain.items() if point in value)

    hand = [m for m in inner if m.get("k") == number]
    named([m for m in hand if m.get("s") not in ("reveal", "secret")])
    seed = derive_seed(fairdeal.parse_seed(side["secret"]), number)
    by_index = ("final", "own")  # the friend opens her own cards by index into her deck
    shares = [unhexlify(share) for m in hand if m.get("s") not in by_index for _, share in m.get("open") or []]
    if side["me"] == 0:  # she reads those
        order = fairdeal.shuffled_deck(seed)
        cards.update(order[index] for m in hand if m.get("s") in by_index for _, index in m.get("open") or [])
    if side["me"] == 1:  # each opening is a point: try every key and every mask of the side's own on it
        unlocks = [m["unlock"] for m in hand if m.get("s") == "deck"]
        unmasks = [ristretto.mul(mask_of(seed, j), ristretto.decode(unhexlify(u)))
                   for u in unlocks for j in range(fairdeal.DECK_SIZE)]
        for share in shares:
            point = ristretto.decode(share)
            tries = [ristretto.mul(ristretto.inverse_scalar(key_of(seed, j)), point) for j in range(fairdeal.DECK_SIZE)]
            tries += [ristretto.add(point, ristretto.neg(unmask)) for unmask in unmasks]
            cards.update(card for card in map(ristretto.card_of, tries) if card is not None)
    else:  # each opening is a key or a mask: try it on every point of the final deck with the side's lock
        deck = "".join(m["deck"] for m in hand if m.get("s") in ("head", "rest"))
        points = [ristretto.decode(unhexlify(deck[i:i + 64])) for i in range(0, len(deck), 64)]
        lock = lock_of(seed)
        order = fairdeal.shuffled_deck(seed)
        locked = {ristretto.encode(ristretto.mul(lock, ristretto.CARD_POINTS[c])): c for c in order}
        for share in shares:
            scalar = int.from_bytes(share, "little")
            unlock = ristretto.inverse_scalar(lock * scalar % ristretto.ORDER)
            masked = ristretto.mul(scalar, ristretto.BASE)
            for point in points:
                card = ristretto.card_of(ristretto.mul(unlock, point))
                if card is not None:
                    cards.add(card)
                card = locked.get(ristretto.encode(ristretto.add(point, ristretto.neg(masked))))
                if card is not None:
                    cards.add(card)
    return cards


def same_or_prefix(a, b):
    """The two sides' records: the same game, one at most a move ahead of the other."""
    x, y = saved_game(a), saved_game(b)
    hands_x = [h["actions"] for h in x.history] + [x.actions]
    hands_y = [h["actions"] for h in y.history] + [y.actions]
    flat_x = [act if act["type"] != "discard" else "discard" for hand in hands_x for act in hand]
    flat_y = [act if act["type"] != "discard" else "discard" for hand in hands_y for act in hand]
    short, long_ = sorted((flat_x, flat_y), key=len)
    assert long_[:len(short)] == short


def test_a_whole_friend_game_live_reloaded_and_dropped_and_resumed(live_browser, base_url):
    """Live over a direct connection, with a reload of each side mid-hand and a dropped connection,
    each time connected again with fresh codes; both records are the same at the end."""
    (ann, bob), watches, contexts = open_pair(live_browser, base_url, phone=True, slow_seal=True)
    invite_and_accept(ann, bob, live=True)
    ann.wait_for_selector("#game[data-await='discard']", state="attached")
    bob.wait_for_function("['friend', 'discard'].includes(document.getElementById('game').dataset.await)")
    assert "Connected live to Bob" in ann.inner_text("#friend-connection")
    assert "Connected live to Ann" in bob.inner_text("#friend-connection")
    # The friend's cards slow to come (their openings held back), his table is shown first, face
    # down; the inviter's six came in the reply, so hers never is.
    assert bob.evaluate("window.__sealing") and not ann.evaluate("window.__sealing")
    bob.click("#friend-phrases [data-phrase='Good luck!']")
    ann.wait_for_function("document.getElementById('friend-chat-log').textContent.includes('Good luck!')")
    last = [-1, -1]
    for k, (page, other) in enumerate(((ann, bob), (bob, ann))):
        play([ann, bob], until=mid_hand(page, k + 1), last=last)
        hidden_from_each_other(ann, bob)
        reload_mid_hand(page, other)
        last[k] = -1
        same_or_prefix(ann, bob)
        connect_again(page, other)
    play([ann, bob], until=mid_hand(ann, 3), last=last)
    ann.evaluate("window.__channels.forEach((channel) => channel.close())")  # the connection drops
    wait_not_live(ann)
    wait_not_live(bob)
    same_or_prefix(ann, bob)
    connect_again(bob, ann)
    play([ann, bob], last=last)
    a, b = saved_game(ann), saved_game(bob)
    assert a.is_over and a.to_json() == b.to_json()
    assert ann.inner_text("#game-over-detail") == bob.inner_text("#game-over-detail")
    for page in (ann, bob):
        page.wait_for_selector("#game-over[data-code]", state="attached")
    codes = [page.get_attribute("#game-over", "data-code") for page in (ann, bob)]
    assert ann.inner_text("#again-button") == "Play again with Bob"
    finished_like_any_game(ann, a, won=a.winner == 0, code=codes[0])
    finished_like_any_game(bob, b, won=b.winner == 1, code=codes[1])
    for watch in watches:
        watch.check()
    for context in contexts:
        context.close()


KEPT_GAMES = "() => Object.values(JSON.parse(localStorage.getItem('cribbage.friends.v1')).games).map((g) => !!g.sealed)"


def rematch(ann, bob):
    """Ann asks for another game over the game's connection, Bob says yes: both are dealt its first
    hand, with no link sent, and the finished game stays kept beside the new one."""
    assert ann.inner_text("#again-button") == "Play again with Bob"
    ann.click("#again-button")
    bob.wait_for_selector("#friend-invited", state="visible", timeout=30_000)
    assert "Ann asks for another game, to 61 points" in bob.inner_text("#friend-invite-text")
    assert bob.inner_text("#friend-accept") == "Play again"
    bob.click("#friend-accept")
    for page in (ann, bob):
        page.wait_for_function("document.querySelectorAll('#my-hand [data-card]').length === 6", timeout=30_000)
        assert page.evaluate(KEPT_GAMES) == [True, True]
        assert "Hand 1" in page.text_content("#log")


def test_the_friend_throws_ahead_and_the_cards_go_as_soon_as_the_inviter_has_thrown(live_browser, base_url):
    """The engine takes the two discards in seat order, so the friend's is second: meanwhile the
    friend picks two cards and throws them ahead, and they go to the crib the moment the
    inviter's discard arrives, with no click more."""
    (ann, bob), watches, contexts = open_pair(live_browser, base_url)
    invite_and_accept(ann, bob)
    ann.wait_for_selector("#game[data-await='discard']", state="attached")
    bob.wait_for_function("document.querySelectorAll('#my-hand button[data-card]').length === 6")
    assert awaiting(bob) == "friend"
    assert "Choose your two for" in bob.inner_text("#prompt")
    assert bob.is_visible("#throw-button") and bob.is_disabled("#throw-button")
    cards = bob.locator("#my-hand button[data-card]")
    chosen = [int(cards.nth(k).get_attribute("data-card")) for k in (1, 4)]
    cards.nth(1).click()
    cards.nth(4).click()
    assert bob.is_enabled("#throw-button")
    bob.click("#throw-button")
    assert "as soon as Ann has thrown" in bob.inner_text("#prompt")
    assert not bob.is_visible("#throw-button")
    pressed = bob.eval_on_selector_all("#my-hand button[aria-pressed='true']", "bs => bs.map(b => +b.dataset.card)")
    assert sorted(pressed) == sorted(chosen)
    discard_first_two(ann)
    bob.wait_for_function("document.querySelectorAll('#my-hand button[data-card]').length === 4", timeout=30_000)
    held = bob.eval_on_selector_all("#my-hand button[data-card]", "bs => bs.map(b => +b.dataset.card)")
    assert not set(chosen) & set(held)
    bob.wait_for_function("['play', 'friend'].includes(document.getElementById('game').dataset.await)")
    ann.wait_for_function("['play', 'friend'].includes(document.getElementById('game').dataset.await)")
    for watch in watches:
        watch.check()
    for context in contexts:
        context.close()


def finished_like_any_game(page, game, won, code=None):
    """A finished friend game is a game record: counted under "Against friends", kept among the
    recent games, and its code (``code``, else the one the game's end shows) replays it."""
    if code is None:
        page.wait_for_selector("#game-over[data-code]", state="attached")
        code = page.get_attribute("#game-over", "data-code")
    page.wait_for_function("document.getElementById('stats-panel').textContent.includes('Against friends')")
    row = page.inner_text("#stats-panel .stats-friends tbody tr")
    assert row.split()[:4] == ["Vs", "friends", "1", "1" if won else "0"], row
    assert "Replay" in page.inner_text("#stats-panel .stats-recent")
    page.goto("/replay/?code=" + code)
    page.wait_for_selector("#replay[data-state='ready']", state="attached", timeout=60_000)
    assert int(page.get_attribute("#replay", "data-steps")) > 20
    page.fill("#replay-slider", page.get_attribute("#replay", "data-steps"))
    assert game.names[0] in page.inner_text("#replay") and game.names[1] in page.inner_text("#replay")


def test_a_whole_friend_game_by_links_only(link_browser, base_url):
    (ann, bob), watches, contexts = open_pair(link_browser, base_url)
    for watch in watches:
        watch.allow(r"WebRTC|ICE|mDNS|\.local")  # the direct connection cannot be made here
    invite_and_accept(ann, bob, by_link=True)
    ann.wait_for_selector("#game[data-await='discard']", state="attached")
    assert "by link" in ann.inner_text("#friend-connection")
    last = [-1, -1]
    play([ann, bob], by_link=True, until=mid_hand(bob, 1), last=last)
    before = saved_game(bob).to_json()
    bob.reload()  # mid-hand: the game comes back as it was, and goes on by link
    ui_ready(bob)
    bob.wait_for_function("(kinds) => kinds.includes(document.getElementById('game').dataset.await)",
                          arg=list(ACTIONS + ("friend",)), timeout=30_000)
    assert saved_game(bob).to_json() == before
    last[1] = -1
    play([ann, bob], by_link=True, last=last)
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
    ("connection code", "http://127.0.0.1/#connect=2ap.Xc1.Yc1.Z", "answers a connection code"),  # not a move's "c1."
])
def test_a_hostile_text_is_refused_and_the_game_goes_on(link_browser, base_url, name, text, expected):
    (ann, bob), watches, contexts = open_pair(link_browser, base_url)
    for watch in watches:
        watch.allow(r"WebRTC|ICE|mDNS|\.local|Friend message refused")
    invite_and_accept(ann, bob, by_link=True)
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
