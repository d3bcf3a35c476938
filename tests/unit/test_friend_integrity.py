"""A cheating friend's messages: what a game is stays fixed, a refusal changes nothing, a damaged text gets a sentence."""

import json

import pytest

from engine import friend, friend_host, friend_sealed, share
from engine.compat import canonical_json
from engine.fairdeal import Sfc32
from engine.seeds import derive_seed
from test_friend_sealed import _begin, play

A, B = "a" * 32, "b" * 32


def _live_pair():
    """A live invitation and its reply (both carry connection details): a sealed game."""
    invite = friend.make_invite("Ann", 61, False, A, "o1.offer", "c" * 32)
    reply = friend.make_reply(friend.read_invite(invite), "Bob", B, "a1.answer")
    return invite, reply


def _link_pair():
    invite = friend.make_invite("Ann", 61, False, A)
    return invite, friend.make_reply(friend.read_invite(invite), "Bob", B)


def _parts(pair, seat):
    return {"invite": pair[0], "reply": pair[1], "seat": seat, "secret": A if seat == 0 else B}


# --- 1 and 3: a sealed game never starts, or goes on, unsealed ---------------------------------


def test_the_kind_of_game_follows_from_the_invitation_and_its_reply():
    live, link = _live_pair(), _link_pair()
    assert friend.is_sealed_game(friend.read_invite(live[0]), friend.read_reply(live[1], friend.read_invite(live[0])))
    assert not friend.is_sealed_game(friend.read_invite(link[0]), friend.read_reply(link[1], friend.read_invite(link[0])))


def test_an_unsealed_start_of_a_sealed_game_is_refused_live():
    pair = _live_pair()
    downgrade = friend.hello_message(friend.read_invite(pair[0])["id"], 0, A)
    with pytest.raises(friend.FriendError, match="agreed a sealed deck"):
        friend_host.receive(dict(_parts(pair, 1), message=downgrade, game=None))


def test_an_unsealed_start_of_a_sealed_game_is_refused_by_link_and_by_sync():
    pair = _live_pair()
    gid = friend.read_invite(pair[0])["id"]
    invite, reply = _link_pair()
    found = friend.read_invite(invite)
    forged = share.encode(friend.start(found, friend.read_reply(reply, found), A))  # both pages know its cards
    with pytest.raises(friend.FriendError):
        friend_host.open_link(dict(_parts(pair, 1), code=forged, game=None))
    with pytest.raises(friend.FriendError):
        friend_host.receive(dict(_parts(pair, 1), message=canonical_json({"t": "sync", "id": gid, "code": forged}),
                                 game=None))


def test_the_inviter_cannot_begin_a_sealed_game_unsealed():
    with pytest.raises(friend.FriendError, match="agreed a sealed deck"):
        friend_host.begin(_parts(_live_pair(), 0))


def test_a_game_by_link_still_starts_from_the_inviters_hello():
    pair = _link_pair()
    hello = friend.hello_message(friend.read_invite(pair[0])["id"], 0, A)
    out = friend_host.receive(dict(_parts(pair, 1), message=hello, game=None))
    assert out["table"]["view"]["seat"] == 1


# --- 6: a refused message leaves the worker's copy as the page's --------------------------------


def test_a_refused_head_does_not_poison_the_genuine_one():
    ann, bob = _begin("poison")
    to_bob, to_ann = list(ann["send"]), list(bob["send"])
    while ann["work"]:
        ann = friend_sealed.work({"game": ann["game"]})
        to_bob += ann["send"]
    for text in to_bob:
        bob = friend_sealed.receive({"game": bob["game"], "message": text})
        to_ann += bob["send"]
    head = next(t for t in to_ann if json.loads(t)["m"].get("s") == "head")
    for text in to_ann[:to_ann.index(head)]:
        ann = friend_sealed.receive({"game": ann["game"], "message": text})
    message = json.loads(head)
    deck = message["m"]["deck"]
    message["m"]["deck"] = deck[:70] + ("1" if deck[70] != "1" else "2") + deck[71:]
    with pytest.raises(friend.FriendError):
        friend_sealed.receive({"game": ann["game"], "message": canonical_json(message)})
    taken = friend_sealed.receive({"game": ann["game"], "message": head})  # the genuine one, after the refusal
    assert any(json.loads(t)["m"].get("s") == "open" for t in taken["send"])


def _damage(rng, text):
    """A damaged copy of a genuine message: a hex digit, a number, a key, the text cut, or junk."""
    message = json.loads(text)
    inner = message.get("m")
    kind = rng.below(5)
    if kind == 0 and isinstance(inner, dict):
        keys = sorted(k for k, v in inner.items() if isinstance(v, str) and len(v) >= 16)
        if keys:
            key = keys[rng.below(len(keys))]
            value = inner[key]
            at = rng.below(len(value))
            inner[key] = value[:at] + ("0" if value[at] != "0" else "1") + value[at + 1:]
            return canonical_json(message)
    if kind == 1 and isinstance(inner, dict):
        keys = sorted(k for k, v in inner.items() if type(v) is int)
        if keys:
            inner[keys[rng.below(len(keys))]] += 1 + rng.below(3)
            return canonical_json(message)
    if kind == 2 and isinstance(inner, dict) and len(inner) > 1:
        keys = sorted(k for k in inner if k != "s")
        inner.pop(keys[rng.below(len(keys))])
        return canonical_json(message)
    if kind == 3:
        return text[:rng.below(len(text))]
    return text[:10] + "\u00e9\\d[1,2,]01" + text[10:]


@pytest.mark.parametrize("seed", ["damage-1", "damage-2", "damage-3"])
def test_random_damage_to_genuine_messages_is_refused_and_the_game_ends_as_it_would_have(seed):
    whole, _ = play(seed)
    rng = Sfc32(derive_seed(seed, "damage"))
    tries = []

    def tamper(side, text):
        if rng.below(4):
            return []
        bad = _damage(rng, text)
        tries.append(bad)
        return [bad]

    damaged, _ = play(seed, tamper=tamper)
    assert len(tries) > 20
    assert damaged[0]["final"] == whole[0]["final"] == damaged[1]["final"]


# --- 7: a move of the next hand before this one is over -----------------------------------------


def test_a_next_hand_go_during_the_hand_is_refused_with_a_sentence():
    forged = []

    def tamper(side, text):
        message = json.loads(text)
        inner = message.get("m", {})
        if forged or inner.get("s") != "act" or inner.get("k") != 1:
            return []
        bad = dict(message, m={"s": "go", "k": 2, "i": 1, "at": 0}, q=message["q"])
        forged.append(bad)
        return [canonical_json(bad)]

    try:
        play("next-hand", tamper=tamper)
    except friend.FriendError as error:
        raise AssertionError(f"the genuine game stopped: {error}") from None
    assert forged


def test_a_next_hand_message_before_the_reveal_gets_its_sentence():
    from engine.sealed_game import SealedGame, public_seed
    game = SealedGame(1, ["Ann", "Bob"], 61, False, public_seed(A, B), "d" * 32, [None, None])
    with pytest.raises(friend_sealed.SealError, match="before hand 1 was over"):
        game.receive({"s": "go", "k": 2, "i": 1, "at": 0})
    assert game.early == []


# --- 8: damaged texts get the same short sentence in every interpreter ---------------------------


@pytest.mark.parametrize("body", ["A", "AAAAA", "eyJ2IjoxfQ"[:-1] + "R", "eyJ2IjoxLH0"])
def test_a_damaged_invitation_body_gets_a_sentence(body):
    with pytest.raises(friend.FriendError, match="missing or changed|fields"):
        friend.read_invite("fi1." + body)


@pytest.mark.parametrize("text", ['{"t":"chat","id":"x","text":"\\d"}', '[1,2,]', '{"t":"chat","n":01}'])
def test_a_message_that_json_would_take_only_in_one_interpreter_is_refused(text):
    with pytest.raises(friend.FriendError, match="not valid JSON"):
        friend.read_message(text, "x")


def test_a_sealed_save_with_lax_json_is_refused():
    ann, _ = _begin("lax")
    friend_sealed._HELD.clear()
    lax = ann["game"][:-1] + ",}"
    with pytest.raises(friend.FriendError, match="not a sealed friend game"):
        friend_sealed.resume({"game": lax})


# --- a friend's deck that places the inviter's own card in its hand -----------------------------


def test_a_card_the_inviter_holds_opened_as_the_friends_is_refused_whatever_its_cards(monkeypatch):
    """Bob's shuffle puts Ann's own six (by her deck's indices) in his six. Whatever card he then
    lays reads as one Ann holds: she refuses it then and there, for any cards she has, and not
    only when his claim happens to name her card (which would tell him what she holds)."""
    from engine import sealed
    from engine.sealed_exchange import hand_positions
    from engine.sealed_game import public_seed
    from engine.seeds import own_seed
    real = sealed.fairdeal.shuffled_deck
    bob_seed = own_seed(public_seed(A, B), 1, derive_seed("dup", "s1"), 1)
    dealer = friend_sealed.SealedGame(0, ["Ann", "Bob"], 61, False, public_seed(A, B), "e" * 32,
                                      [None, None]).dealer_of(1)

    def shuffled(seed):
        order = list(real(seed))
        if seed == bob_seed:
            for mine, hers in zip(hand_positions(1, dealer), hand_positions(0, dealer)):
                order[mine] = order[hers]
        return order

    monkeypatch.setattr(sealed.fairdeal, "shuffled_deck", shuffled)
    with pytest.raises(friend.FriendError, match="elsewhere in this hand"):
        play("dup")


# --- the same for a game by link: random damage never changes the game nor raises -----------------


def _damage_plain(rng, text):
    """A damaged copy of an unsealed message: a number changed, a field dropped, an action's
    card or type changed, the text cut, or junk added."""
    message = json.loads(text)
    kind = rng.below(5)
    if kind == 0 and type(message.get("n")) is int:
        message["n"] += 1 + rng.below(3)
    elif kind == 1 and len(message) > 2:
        keys = sorted(k for k in message if k not in ("t", "id"))
        message.pop(keys[rng.below(len(keys))])
    elif kind == 2 and isinstance(message.get("a"), dict):
        action = dict(message["a"])
        if "card" in action:
            action["card"] = (action["card"] + 1 + rng.below(50)) % 52
        else:
            action["type"] = ("play", "discard", "go", "count")[rng.below(4)]
        message["a"] = action
    elif kind == 3:
        return text[:rng.below(len(text))]
    else:
        return text[:5] + "[1,2,]\\d" + text[5:]
    return canonical_json(message)


@pytest.mark.parametrize("seed", ["plain-1", "plain-2"])
def test_random_damage_to_a_game_by_link_is_refused_and_the_game_ends_as_it_would_have(seed, monkeypatch):
    from engine import api
    from engine.record import from_json
    from test_friend import Page, pair, play_by_messages
    ann, bob = pair()
    play_by_messages(ann, bob)
    whole = ann.game
    rng = Sfc32(derive_seed(seed, "damage"))
    counts = {"refused": 0, "taken": 0}
    genuine = Page.receive

    def receive(page, message):
        if rng.below(2) == 0:
            bad = _damage_plain(rng, message)
            answer = json.loads(api.call("friend_receive", json.dumps(dict(page.parts(), message=bad,
                                                                            game=page.game))))
            if answer["ok"]:
                counts["taken"] += 1  # a greeting, a chat line, or a move already held: the game is kept as it was
            else:
                assert answer["error"]["kind"] == "bad_input", answer["error"]
                counts["refused"] += 1
        return genuine(page, message)

    monkeypatch.setattr(Page, "receive", receive)
    ann, bob = pair()
    play_by_messages(ann, bob)
    assert counts["refused"] > 8
    assert ann.game == bob.game == whole and from_json(whole).is_over
