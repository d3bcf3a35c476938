"""A cheating friend's page: a script wrapped around its data channel, or messages it makes with the engine.

What it tries is what a hostile tester tried: to start a live game on an unsealed deck (whose
every card the cheater can work out) in place of the sealed one the reply agreed, or to swap
the honest side's game for one of its own making in the middle of a sealed game. Each is refused
on the honest page with a sentence, and its game stays as it was.
"""

from __future__ import annotations

import json

from engine import friend, share
from engine.game import PERSON, new_game
from tests.e2e.conftest import engine_ready, ui_ready
from tests.e2e.test_friend_play import invite_and_accept, live_browser, open_pair  # noqa: F401 (a fixture)

DOWNGRADE = """
(() => {
  // The inviter's page sends the plain greeting with its secret in place of its sealed deck's
  // first message, and none of the sealed deck's messages.
  const send = RTCDataChannel.prototype.send;
  let greeted = false;
  RTCDataChannel.prototype.send = function (data) {
    const kept = [];
    for (const text of String(data).split("\\n")) {
      if (!text.includes('"t":"seal')) { kept.push(text); continue; }
      if (greeted) continue;
      greeted = true;
      const games = JSON.parse(localStorage.getItem("cribbage.friends.v1")).games;
      const entry = Object.values(games).find((e) => e.seat === 0);
      kept.push(JSON.stringify({t: "hello", id: entry.id, n: 0, secret: entry.secret}));
    }
    if (kept.length) return send.call(this, kept.join("\\n"));
  };
})();
"""

ENTRY = "() => Object.values(JSON.parse(localStorage.getItem('cribbage.friends.v1')).games)[0]"
NOTICE = "#friend-tab-notice:not([hidden])"
HAND = "() => [...document.querySelectorAll('#my-hand [data-card]')].map((e) => e.dataset.card).join(',')"


def _unsealed_code(entry: dict) -> tuple:
    """A game of the cheater's making for the pair of texts: dealt from both game secrets (the
    inviter's own and the friend's, from its reply), so the cheater knows every card of it. Its
    game id, code and state."""
    invite = friend.read_invite(entry["invite"])
    reply = friend.read_reply(entry["reply"], invite)
    state = new_game(seed=friend.game_seed(entry["secret"], reply["secret"]), target=invite["target"],
                     muggins=invite["muggins"], players=2, seats=[PERSON, PERSON],
                     names=[invite["name"], reply["name"]])
    return invite["id"], share.encode(state), state


def test_a_live_game_begun_on_an_unsealed_deck_is_refused_by_the_friend(live_browser, base_url):
    (ann, bob), watches, contexts = open_pair(live_browser, base_url)
    ann.add_init_script(DOWNGRADE)
    watches[1].allow(r"Friend message refused")
    invite_and_accept(ann, bob)
    bob.wait_for_function("""() => ['friend-refused', 'friend-replied-status'].some((id) =>
        document.getElementById(id).textContent.includes('agreed a sealed deck'))""", timeout=30_000)
    assert bob.evaluate(ENTRY)["game"] is None  # no game was started on Bob's side
    assert not bob.evaluate(HAND)
    # The same start by link: a move link of an unsealed game for this pair.
    _, code, _ = _unsealed_code(ann.evaluate(ENTRY))
    bob.evaluate("(text) => { window.location.hash = text; }", "#play=" + code)
    bob.wait_for_function("""() => ['friend-refused', 'friend-replied-status', 'setup-message'].some((id) =>
        (document.getElementById(id) || {textContent: ''}).textContent.includes('agreed a sealed deck'))""",
                          timeout=30_000)
    assert bob.evaluate(ENTRY)["game"] is None
    for context in contexts:
        context.close()


def test_an_unsealed_sync_inside_a_sealed_game_is_refused_and_the_hand_stays(live_browser, base_url):
    (ann, bob), watches, contexts = open_pair(live_browser, base_url)
    watches[1].allow(r"Friend message refused")
    invite_and_accept(ann, bob)
    for page in (ann, bob):
        page.wait_for_function(f"({HAND})().split(',').length === 6", timeout=60_000)
    before = bob.evaluate(HAND)
    gid, code, _ = _unsealed_code(ann.evaluate(ENTRY))
    ann.evaluate("(text) => window.__channels.filter((c) => c.readyState === 'open').at(-1).send(text)",
                 json.dumps({"t": "sync", "id": gid, "code": code}))
    bob.wait_for_function("document.getElementById('friend-refused').textContent.includes('agreed a sealed deck')",
                          timeout=30_000)
    assert bob.evaluate(HAND) == before
    assert json.loads(bob.evaluate(ENTRY)["sealed"])["format"] == "cribbage-sealed-friend-2"
    for context in contexts:
        context.close()


def _moves_kept(entry: dict) -> list:
    """What a sealed game's saved text holds of the game itself: the messages taken and the moves
    made (its shuffles done meanwhile are the page's own work, and a deck's proof is let go once
    it is checked)."""
    return [[kind, hand, {k: v for k, v in item.items() if k != "shuffle"} if isinstance(item, dict) else item]
            for kind, hand, item in json.loads(entry["sealed"])["game"]["log"] if kind != "w"]


def test_a_friend_game_open_in_a_second_tab_is_played_in_one_place(live_browser, base_url):
    (ann, bob), watches, contexts = open_pair(live_browser, base_url)
    invite_and_accept(ann, bob)
    for page in (ann, bob):
        page.wait_for_function(f"({HAND})().split(',').length === 6", timeout=60_000)
    second = contexts[1].new_page()
    second.goto("/")
    second.wait_for_selector(NOTICE, timeout=30_000)
    assert "open in another tab" in second.inner_text(NOTICE)
    assert not second.evaluate(HAND)  # not opened here: no second copy plays it
    assert bob.get_attribute("#game", "data-await") in ("discard", "friend")  # still playing there
    second.click(NOTICE + " .store-take-back")  # "Play it here"
    second.wait_for_function(f"({HAND})().split(',').length === 6", timeout=30_000)
    bob.wait_for_selector(NOTICE, timeout=30_000)
    assert "now being played in another tab" in bob.inner_text(NOTICE)
    assert bob.get_attribute("#game", "data-await") in ("", None)
    before = _moves_kept(bob.evaluate(ENTRY))
    bob.click(NOTICE + " .store-take-back")  # and back again: the second tab stops in turn
    second.wait_for_selector(NOTICE, timeout=30_000)
    bob.wait_for_function(f"({HAND})().split(',').length === 6", timeout=30_000)
    assert _moves_kept(bob.evaluate(ENTRY)) == before  # one game: nothing taken or played twice
    for context in contexts:
        context.close()


def test_a_tab_closed_while_the_first_deal_is_sealed_comes_back_to_a_game_that_goes_on(live_browser, base_url):
    """Bob's tab closes before his first cards are read. Ann's page soon says the connection is
    gone; Bob's page, opened again, puts the game at his table with the way to connect live in
    view, and once both pages are connected again the deal goes on."""
    from tests.e2e.test_friend_play import connect_again, wait_not_live
    (ann, bob), watches, contexts = open_pair(live_browser, base_url, slow_seal=True)
    invite_and_accept(ann, bob)
    ann.wait_for_selector("#game[data-await='discard']", state="attached")
    bob.wait_for_function("window.__sealing", timeout=30_000)  # his table: the deal face down
    assert not bob.evaluate(HAND)
    bob.close()
    wait_not_live(ann)
    bob = contexts[1].new_page()
    bob.goto("/")
    bob.wait_for_selector("#friend-bar:not([hidden])", timeout=30_000)
    assert bob.is_visible("#friend-reconnect") and bob.is_visible("#friend-paste")
    connect_again(ann, bob)
    bob.wait_for_function(f"({HAND})().split(',').length === 6", timeout=60_000)
    for context in contexts:
        context.close()


SWAP_DECK = """(swap) => {
  // The inviter's page sends its first deck with the fives locked under another key, and a proof
  // made honestly over that deck (as good as any could be): made by the test with the engine.
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function (data) {
    const out = String(data).split("\\n").map((text) => {
      if (!text.includes('"s":"deck"') || !text.includes('"k":1,')) return text;
      const message = JSON.parse(text);
      message.m.deck = swap.deck;
      message.m.shuffle = swap.shuffle;
      delete message.m.roots;
      return JSON.stringify(message);
    });
    return send.call(this, out.join("\\n"));
  };
}"""
SENT_WATCH = """() => {
  window.__sent = [];
  const send = RTCDataChannel.prototype.send;
  RTCDataChannel.prototype.send = function (data) {
    for (const text of String(data).split("\\n")) window.__sent.push(text);
    return send.call(this, data);
  };
}"""


def _fives_deck(ann_entry: dict, reply_text: str) -> dict:
    """Ann's first deck of the game, the fives locked under another key, and its proof."""
    from engine import fairdeal, ristretto, sealed, shuffle_proof
    from engine.sealed_game import public_seed
    from engine.seeds import own_seed
    invite = friend.read_invite(ann_entry["invite"])
    reply = friend.read_reply(reply_text, invite)
    public = public_seed(ann_entry["secret"], reply["secret"], friend.is_early(invite, reply))
    seed = own_seed(public, 0, ann_entry["seal_secret"], 1)
    order, lock = fairdeal.shuffled_deck(seed), sealed.lock_of(seed)
    deck = [ristretto.mul(lock + 1 if c % 13 == 4 else lock, ristretto.CARD_POINTS[c]) for c in order]
    unlock = ristretto.mul(ristretto.inverse_scalar(lock), ristretto.BASE)
    proof = shuffle_proof.prove(lambda label: sealed._scalar(seed, "shuffle:" + label), lock, order, deck, unlock)
    return {"deck": sealed.deck_text(deck), "shuffle": proof}


def test_an_inviter_who_locks_the_fives_otherwise_learns_nothing_of_the_friends_hand(live_browser, base_url):
    """The guess test: the friend's page stops with the deck's sentence before it sends anything
    on its cards, whether or not it holds a five."""
    (ann, bob), watches, contexts = open_pair(live_browser, base_url)
    watches[1].allow(r"Friend message refused")
    ann.goto("/")
    ui_ready(ann)
    engine_ready(ann)
    ann.click("#friend-button")
    ann.fill("#friend-name", "Ann")
    ann.check("input[name='friend-target'][value='61']")
    ann.click("#friend-make-button")
    ann.wait_for_function("document.getElementById('friend-invite-link').value.length > 0")
    ann.wait_for_function(f"({ENTRY})().seal_secret")
    invite = ann.input_value("#friend-invite-link")
    bob.goto(invite)
    ui_ready(bob)
    bob.wait_for_selector("#friend-invited", state="visible")
    bob.fill("#friend-my-name", "Bob")
    bob.click("#friend-accept")
    bob.wait_for_function("document.getElementById('friend-reply-out').value.length > 0")
    reply = bob.input_value("#friend-reply-out")
    ann.evaluate(SWAP_DECK, _fives_deck(ann.evaluate(ENTRY), reply[reply.rfind("fr1."):]))
    bob.evaluate(SENT_WATCH)
    ann.fill("#friend-reply-in", reply)
    ann.click("#friend-connect")
    bob.wait_for_function("""() => ['friend-refused', 'friend-replied-status'].some((id) =>
        document.getElementById(id).textContent.includes('is not the 52 cards each locked once'))""", timeout=60_000)
    sent = [json.loads(text) for text in bob.evaluate("window.__sent") if '"t":"seal"' in text]
    steps = [m["m"]["s"] for m in sent if m["m"].get("k") == 1]
    assert "rest" not in steps and "act" not in steps, steps  # nothing sent on the cards it read
    for context in contexts:
        context.close()


def test_a_flood_of_chat_lines_is_dropped_and_the_table_stays_playable(live_browser, base_url):
    """3,000 chat lines sent at once: a few are shown, one line says the rest were not, and the
    friend's page goes on playing at once."""
    (ann, bob), watches, contexts = open_pair(live_browser, base_url)
    invite_and_accept(ann, bob)
    for page in (ann, bob):
        page.wait_for_function(f"({HAND})().split(',').length === 6", timeout=60_000)
    gid = ann.evaluate(ENTRY)["id"]
    lines = [json.dumps({"t": "chat", "id": gid, "text": "spam %d" % k}) for k in range(3000)]
    ann.evaluate("""(lines) => { const channel = window.__channels.filter((c) => c.readyState === 'open').at(-1);
        for (let k = 0; k < lines.length; k += 100) channel.send(lines.slice(k, k + 100).join('\\n')); }""", lines)
    bob.wait_for_function("document.getElementById('friend-chat-log').textContent.includes('faster than anyone types')",
                          timeout=10_000)
    shown = bob.evaluate("document.querySelectorAll('#friend-chat-log li').length")
    assert shown <= 10, shown
    started = bob.evaluate("performance.now()")
    bob.click("#friend-phrases [data-phrase='Good luck!']")  # the page answers at once
    ann.wait_for_function("document.getElementById('friend-chat-log').textContent.includes('Good luck!')",
                          timeout=5_000)
    assert bob.evaluate("performance.now()") - started < 5000  # no stall (the flood took seconds before)
    for context in contexts:
        context.close()
