"""Sealed friend games through the page's calls: texts only, a dropped connection, a reload, what each table shows."""

import json
from pathlib import Path

import pytest

from engine import fairdeal, friend, friend_sealed, seeds, share
from engine.fairdeal import Sfc32
from engine.record import from_json
from engine.seeds import derive_seed

A, B = "a" * 32, "b" * 32


def _texts(seed=None):
    """An invitation and its reply; given the ``seed`` of both sides' sealing secrets, a live
    game's, the inviter's first six opened in the reply."""
    if seed is None:
        invite = friend.make_invite("Ann", 61, False, A)
        return invite, friend.make_reply(friend.read_invite(invite), "Bob", B)
    a, b = _secrets(seed)
    invite = friend.make_invite("Ann", 61, False, a, "offer", derive_seed(seed, "s0"))
    opens = seeds.reply_opens(derive_seed(seed, "s1"))
    return invite, friend.make_reply(friend.read_invite(invite), "Bob", b, "answer", opens)


def _secrets(seed=None):
    """The game secrets of ``_texts(seed)``: a live game's follow from its seed (and so its cut)."""
    return (A, B) if seed is None else (derive_seed(seed, "a"), derive_seed(seed, "b"))


def _begin(seed, early=False):
    invite, reply = _texts(seed if early else None)
    a, b = _secrets(seed if early else None)
    ann = friend_sealed.begin({"invite": invite, "reply": reply, "seat": 0, "secret": a,
                               "seal_secret": derive_seed(seed, "s0")})
    first = ann["send"].pop(0)
    assert friend_sealed.is_first_message(first) and not friend_sealed.is_first_message('{"t": "chat"}')
    bob = friend_sealed.join({"invite": invite, "reply": reply, "secret": b, "message": first,
                              "seal_secret": derive_seed(seed, "s1")})
    return [ann, bob]


def play(seed, drop=None, reload_at=None, duplicate=False, early=False, discard_at_once=False, tamper=None):
    """Both pages by their calls, the messages carried as text. ``drop``: (first, last) steps
    during which messages are lost, then each side greets the other (a new connection);
    ``reload_at``: a step at which the worker forgets every game (a page opened again);
    ``duplicate``: every message delivered twice; ``early``: the inviter's first six come in the
    reply; ``discard_at_once``: the inviter discards before any of its messages has gone;
    ``tamper(side, text)``: texts the side is given (and must refuse, or take as harmless) before
    each genuine one. Returns the last answers and every (side, hand, table reply) seen."""
    pages = _begin(seed, early)
    if discard_at_once:
        sent = pages[0]["send"]
        pages[0] = friend_sealed.move({"game": pages[0]["game"], "action": pages[0]["table"]["view"]["legal_actions"][0]})
        pages[0]["send"] = sent + pages[0]["send"]
    rng = Sfc32(derive_seed(seed, "moves"))
    queues, tables = [[], []], []
    down = False
    for step in range(6000):
        if reload_at == step:
            friend_sealed._HELD.clear()
        if drop is not None and step == drop[0]:
            down = True
        if down and step > drop[1]:
            down = False  # connected again: each side greets the other
            for i in (0, 1):
                queues[1 - i].extend(friend_sealed.hello({"game": pages[i]["game"]})["send"])
        lost = down
        for i in (0, 1):
            for text in pages[i]["send"]:
                if not lost:
                    queues[1 - i].extend([text, text] if duplicate else [text])
            pages[i]["send"] = []
            if pages[i]["table"] is not None:
                tables.append((i, pages[i]["table"]))
                pages[i]["table"] = None
        if all(p["final"] is not None for p in pages):
            return pages, tables
        acted = False
        for i in (0, 1):
            if queues[i]:
                text = queues[i].pop(0)
                for bad in (tamper(i, text) if tamper is not None else ()):
                    try:
                        friend_sealed.receive({"game": pages[i]["game"], "message": bad})
                    except friend.FriendError:
                        assert_held_as_kept(pages[i]["game"])
                        continue
                    friend_sealed._HELD.clear()  # taken (the other side's word): not kept by the page
                pages[i] = friend_sealed.receive({"game": pages[i]["game"], "message": text})
                acted = True
                break
        if acted:
            continue
        for i in (0, 1):
            if pages[i]["work"]:
                pages[i] = friend_sealed.work({"game": pages[i]["game"]})
                acted = True
                break
        if acted:
            continue
        for i in (0, 1):
            table = next((t for s, t in reversed(tables) if s == i), None)
            if table is not None and table["awaiting"] in ("discard", "play"):
                legal = table["view"]["legal_actions"]
                if legal:
                    move = legal[rng.below(len(legal))]
                    tables.append((i, dict(table, awaiting="sent")))
                    pages[i] = friend_sealed.move({"game": pages[i]["game"], "action": move})
                    acted = True
                    break
        if not acted and down:
            drop = (drop[0], step)  # nothing moves while the connection is down: it comes back
            continue
        if not acted:
            raise AssertionError(f"the game stopped at step {step}")
    raise AssertionError("the game did not end")


def assert_held_as_kept(text):
    """The worker holds the game of the page's ``text`` as that text has it, or not at all."""
    kept = json.loads(text)
    key = kept["id"] + ":" + str(kept["game"]["me"])
    for entry in friend_sealed._HELD:
        if entry[0] == key:
            assert entry[2].to_dict() == kept["game"]


def test_a_sealed_friend_game_through_the_pages_calls_ends_the_same_and_replays():
    pages, tables = play("calls")
    ann, bob = (json.loads(p["final"]) for p in pages)
    assert ann == bob
    final = share.decode(share.encode(from_json(pages[0]["final"])))
    assert max(final.scores) == 61
    for hand in final.history:
        assert fairdeal.verify(hand["seed"], hand["commitment"])
    # Both tables tell the same play: every card, every go, each one for the go or for last,
    # each count from zero (a go the other side said comes with what follows from it).
    told = [the_play(tables, side) for side in (0, 1)]
    assert told[0] == told[1] and sum(1 for event in told[0] if event[0] == "go") >= 2


def the_play(tables, side):
    """The play as one side's tables tell it, each event once (a table may repeat an earlier one's)."""
    told = []
    for seen_by, table in tables:
        for event in table["events"] if seen_by == side else ():
            if event["type"] in ("play", "go", "reset") or (event["type"] == "score" and event["reason"] in ("go", "last")):
                key = (event["type"], event.get("seat"), event.get("card"), event.get("total"), event.get("reason"))
                if key not in told[-3:]:
                    told.append(key)
    return told


def _real_deals(final_json):
    final = from_json(final_json)
    deals = {k + 1: fairdeal.deal(h["seed"], 2, h["dealer"]) for k, h in enumerate(final.history)}
    deals[final.hand_number] = fairdeal.deal(final.seed, 2, final.dealer)
    return deals


def test_no_table_names_a_card_of_the_other_hand_before_it_is_laid_or_shown():
    pages, tables = play("leak")
    deals = _real_deals(pages[0]["final"])
    looked = 0
    for seat, table in tables:
        view = table["view"]
        number = view["hand_number"]
        if view["phase"] not in ("discard", "play"):
            continue
        before = deals.get(number - 1)  # the last hand's cards are all shown by now
        shown = set() if before is None else set(before.hands[0]) | set(before.hands[1]) | {before.starter}
        hidden = set(deals[number].hands[1 - seat]) - {c for _, c in view["laid"]} - shown
        assert not hidden & {int(c) for c in table["cards"]}, (seat, number)
        assert set(view["hand"]) <= set(deals[number].hands[seat])
        looked += 1
    assert looked > 20


def test_before_the_first_hand_is_read_each_table_shows_the_cut_and_the_deal_with_no_card():
    ann, bob = _begin("preview")
    assert ann["table"] is None and bob["table"] is None  # the page asks for it, if the cards are slow
    early_tables = [friend_sealed.preview({"game": page["game"]})["table"] for page in (ann, bob)]
    pages, tables = play("preview")
    for seat, early in enumerate(early_tables):
        dealt = next(t for s, t in tables if s == seat and not t["view"].get("sealing"))
        assert early["view"]["sealing"] and early["awaiting"] == "friend"
        assert early["view"]["hand"] == [] and early["view"]["legal_actions"] == []
        assert early["view"]["hand_sizes"] == [6, 6]
        assert [e["type"] for e in early["events"]] == ["cut", "deal"] == [e["type"] for e in dealt["events"]]
        assert early["events"] == dealt["events"]  # the same cut, the same dealer and words
        cut = {str(card) for _, card in early["events"][0]["cuts"]}
        assert set(early["cards"]) == cut  # no card of the deal is named
        for key in ("dealer", "to_act", "target", "scores", "hand_number"):
            assert early["view"][key] == dealt["view"][key]
    friend_sealed._HELD.clear()  # a reload before the first hand is read: the same table again
    again = friend_sealed.resume({"game": bob["game"]})["table"]
    assert again["view"]["sealing"] and again["events"] == early_tables[1]["events"]


def test_a_game_begun_without_its_face_down_table_gives_it_when_asked_until_the_cards_are_read():
    invite, reply = _texts()
    friend_sealed._HELD.clear()
    ann = friend_sealed.begin({"invite": invite, "reply": reply, "seat": 0, "secret": A,
                               "seal_secret": derive_seed("ask", "s0")})
    sent = ann["send"]
    while ann["work"]:  # her shuffle (not worked out ahead here)
        ann = friend_sealed.work({"game": ann["game"]})
        sent += ann["send"]
    friend_sealed.prepare({"seat": 1})  # the friend's masks ahead (for a secret of its own)
    bob = friend_sealed.join({"invite": invite, "reply": reply, "secret": B, "messages": sent,
                              "seal_secret": derive_seed("ask", "s1")})
    assert ann["table"] is None and bob["table"] is None
    asked = friend_sealed.preview({"game": bob["game"]})["table"]
    assert asked["view"]["sealing"] and asked["view"]["hand"] == [] and asked["game"] == bob["game"]
    assert [e["type"] for e in asked["events"]] == ["cut", "deal"]
    assert friend_sealed.preview({"game": bob["game"]})["table"] == asked  # the game as it was
    head = [t for t in bob["send"] if '"s":"head"' in t]
    assert len(head) == 1  # his six masked, sent with the final
    ann = friend_sealed.receive({"game": ann["game"], "messages": bob["send"]})
    assert ann["table"]["view"]["hand"] and any('"s":"open"' in t for t in ann["send"])
    assert friend_sealed.preview({"game": ann["game"]})["table"] is None  # her cards are read
    with pytest.raises(friend.FriendError, match="seat is 0"):
        friend_sealed.prepare({"seat": 2})


def test_messages_lost_while_the_connection_was_down_are_sent_again():
    whole, _ = play("drop")
    dropped, _ = play("drop", drop=(40, 70))
    assert dropped[0]["final"] == whole[0]["final"] == dropped[1]["final"]


def test_a_reload_takes_the_game_up_again_and_a_message_taken_twice_is_ignored():
    whole, _ = play("again")
    again, _ = play("again", reload_at=90, duplicate=True)
    assert again[0]["final"] == whole[0]["final"]


@pytest.mark.parametrize("message, match", [
    ("not json", "not one of this sealed game"),
    ('{"t": "seal", "id": "0000000000000000", "q": 0, "m": {}}', "not one of this sealed game"),
    (None, "not one of this sealed game"),
])
def test_a_message_that_is_not_the_games_gets_a_sentence(message, match):
    ann, _ = _begin("bad")
    with pytest.raises(friend.FriendError, match=match):
        friend_sealed.receive({"game": ann["game"], "message": message})


def test_a_game_kept_by_an_earlier_version_gets_a_sentence():
    friend_sealed._HELD.clear()
    with pytest.raises(friend.FriendError, match="begun by an earlier version of the site"):
        friend_sealed.work({"game": '{"format": "cribbage-sealed-friend-1", "id": "x"}'})


def test_a_page_that_seals_another_way_is_refused_at_its_first_message():
    ann, bob = _begin("version")
    first = json.loads(bob["send"][0])
    first["m"].pop("v")
    with pytest.raises(friend.FriendError, match="another version of this site"):
        friend_sealed.receive({"game": ann["game"], "message": json.dumps(first)})


def test_a_kept_game_that_is_not_one_gets_a_sentence():
    for text in (None, "{}", "[1]", '{"format": "cribbage-sealed-friend-2"}',
                 '{"format": "cribbage-sealed-friend-2", "id": "x", "sent": [], "got": 0, "calls": 0, "game": {}}'):
        friend_sealed._HELD.clear()
        with pytest.raises(friend.FriendError):
            friend_sealed.work({"game": text})


def test_a_first_message_that_is_not_a_commitment_is_refused():
    ann, bob = _begin("first")
    forged = json.dumps({"t": "seal", "id": json.loads(bob["send"][0])["id"], "q": 0, "m": {"s": "begin", "seal": 5}})
    with pytest.raises(friend.FriendError, match="commitment"):
        friend_sealed.receive({"game": ann["game"], "message": forged})


def test_a_wrong_inviter_secret_is_refused():
    invite, reply = _texts()
    with pytest.raises(friend.FriendError, match="does not match the commitment"):
        friend_sealed.begin({"invite": invite, "reply": reply, "seat": 1, "inviter_secret": "c" * 32})
    forged = json.dumps({"t": "seal", "id": friend.read_invite(invite)["id"], "q": 0,
                         "m": {"s": "begin", "seal": "0" * 64, "secret": "c" * 32}})
    with pytest.raises(friend.FriendError, match="does not match the commitment"):
        friend_sealed.join({"invite": invite, "reply": reply, "secret": B, "message": forged})
    with pytest.raises(friend.FriendError, match="lacks the inviter's secret"):
        friend_sealed.join({"invite": invite, "reply": reply, "secret": B, "message": "{}"})


def test_a_game_is_taken_up_from_its_text_and_a_stale_text_names_the_game_as_it_is():
    ann, _ = _begin("resume")
    after = friend_sealed.work({"game": ann["game"]})
    again = friend_sealed.resume({"game": ann["game"]})  # an older text: the worker's game as it is
    was, now = json.loads(after["game"]), json.loads(again["game"])
    assert now["game"] == was["game"] and now["calls"] == was["calls"] + 1
    friend_sealed._HELD.clear()
    taken = friend_sealed.resume({"game": after["game"]})
    assert json.loads(taken["game"])["game"] == json.loads(after["game"])["game"]


def test_the_coach_knows_a_sealed_game_by_its_format():
    coach = (Path(__file__).resolve().parents[2] / "site_src" / "app" / "table" / "coach.py").read_text()
    assert f'"format":"{friend_sealed.FORMAT}"'.startswith(coach.split("SEALED_GAME = '")[1].split("'")[0])


def test_the_roots_travel_but_are_not_kept():
    """The points' decoding roots go out with the messages, but neither side keeps them in its
    game's text (its log of messages taken and sent): a game taken up again decodes its points."""
    invite, reply = _texts()
    ann = friend_sealed.begin({"invite": invite, "reply": reply, "seat": 0, "secret": A,
                               "seal_secret": derive_seed("roots", "s0")})
    sent = list(ann["send"])
    while ann["work"]:
        ann = friend_sealed.work({"game": ann["game"]})
        sent += ann["send"]
    assert any('"roots"' in text for text in sent) and '"roots"' not in ann["game"]
    bob = friend_sealed.join({"invite": invite, "reply": reply, "secret": B, "messages": sent,
                              "seal_secret": derive_seed("roots", "s1")})
    assert any('"roots"' in text for text in bob["send"]) and '"roots"' not in bob["game"]
    ann = friend_sealed.receive({"game": ann["game"], "messages": bob["send"]})
    assert any('"roots"' in text for text in ann["send"]) and '"roots"' not in ann["game"]


# --- the inviter's first six in the reply -------------------------------------------------------

EARLY_SEEDS = ("early-0", "early-1", "early-2", "early-3")


def _first_dealer(seed):
    public = "sealed2:" + ":".join(_secrets(seed))
    return fairdeal.cut_for_deal(seeds.cut_seed(public), 2).dealer


def test_the_early_seeds_cover_both_first_dealers():
    assert {_first_dealer(seed) for seed in EARLY_SEEDS} == {0, 1}


@pytest.mark.parametrize("seed", EARLY_SEEDS)
def test_a_live_game_shows_the_inviter_its_first_six_as_it_begins_and_replays_the_same(seed):
    invite, reply = _texts(seed)
    ann = friend_sealed.begin({"invite": invite, "reply": reply, "seat": 0, "secret": _secrets(seed)[0],
                               "seal_secret": derive_seed(seed, "s0")})
    table = ann["table"]
    assert table is not None and table["awaiting"] == "discard" and len(table["view"]["hand"]) == 6
    pages, tables = play(seed, early=True)
    ann_final, bob_final = (json.loads(p["final"]) for p in pages)
    assert ann_final == bob_final and ann_final["seed"].startswith("sealed2:")
    final = share.decode(share.encode(from_json(pages[0]["final"])))
    deals = _real_deals(pages[0]["final"])
    assert sorted(table["view"]["hand"]) == sorted(deals[1].hands[0])
    for hand in final.history:
        assert fairdeal.verify(hand["seed"], hand["commitment"])


def test_a_live_game_with_its_first_six_in_the_reply_shows_no_card_of_the_other_hand():
    for seed in EARLY_SEEDS[:2]:
        pages, tables = play(seed, early=True)
        deals = _real_deals(pages[0]["final"])
        for seat, table in tables:
            view = table["view"]
            if view["phase"] in ("discard", "play") and view["hand_number"] == 1:
                hidden = set(deals[1].hands[1 - seat]) - {c for _, c in view["laid"]}
                cut = {c for e in table["events"] if e["type"] == "cut" for _, c in e["cuts"]}  # public
                assert not hidden & ({int(c) for c in table["cards"]} - cut), (seed, seat)


def test_the_reply_opens_the_inviters_six_of_the_hand_played_and_six_of_a_seed_never_used():
    for seed in EARLY_SEEDS:
        invite, reply = _texts(seed)
        opens = friend.read_reply(reply, friend.read_invite(invite))["open"]
        pages, _ = play(seed, early=True)
        final = from_json(pages[0]["final"])
        dealer = final.history[0]["dealer"]
        inviter_deck = fairdeal.shuffled_deck(derive_seed(derive_seed(seed, "s0"), 1))
        played, other = (opens[:6], opens[6:]) if dealer == 1 else (opens[6:], opens[:6])
        assert sorted(inviter_deck[i] for i in played) == sorted(_real_deals(pages[0]["final"])[1].hands[0])
        friend_seed = final.history[0]["seed"].split(":")[1]
        unused = derive_seed(derive_seed(seed, "s1"), "1d" if dealer == 1 else 1)
        block = slice(6, 12) if dealer == 1 else slice(0, 6)
        assert unused != friend_seed and fairdeal.shuffled_deck(unused)[block] == other


def _early_pair(seed, opens=None, seal=None):
    a, b = _secrets(seed)
    invite = friend.make_invite("Ann", 61, False, a, "offer", derive_seed(seed, "s0"))
    reply = friend.make_reply(friend.read_invite(invite), "Bob", b, "answer",
                              opens or seeds.reply_opens(derive_seed(seed, "s1")))
    ann = friend_sealed.begin({"invite": invite, "reply": reply, "seat": 0, "secret": a,
                               "seal_secret": seal or derive_seed(seed, "s0")})
    return invite, reply, ann


def test_a_friend_whose_game_opens_the_inviters_cards_otherwise_than_its_reply_is_refused():
    seed = "early-0"
    honest = seeds.reply_opens(derive_seed(seed, "s1"))
    other = [i for i in range(52) if i not in honest]
    lying = other[:6] + other[:6]  # another six, whichever seat deals
    invite, reply, ann = _early_pair(seed, opens=lying)
    with pytest.raises(friend.FriendError, match="not begun on this device"):
        friend_sealed.join({"invite": invite, "reply": reply, "secret": _secrets(seed)[1], "message": ann["send"][0],
                            "seal_secret": derive_seed(seed, "s1")})
    sent = list(ann["send"])
    while ann["work"]:
        ann = friend_sealed.work({"game": ann["game"]})
        sent += ann["send"]
    bob = friend_sealed.join({"invite": invite, "reply": _texts(seed)[1], "secret": _secrets(seed)[1],
                              "messages": sent, "seal_secret": derive_seed(seed, "s1")})
    assert any('"s":"final"' in text for text in bob["send"])
    with pytest.raises(friend.FriendError, match="otherwise than in the reply"):
        for text in bob["send"]:
            ann = friend_sealed.receive({"game": ann["game"], "message": text})


def test_an_inviter_whose_first_message_is_not_the_invitations_commitment_is_refused():
    seed = "early-1"
    invite, reply, ann = _early_pair(seed)
    other = friend_sealed.begin({"invite": _texts(seed)[0], "reply": reply, "seat": 0, "secret": _secrets(seed)[0],
                                 "seal_secret": derive_seed(seed, "s0")})
    assert other["send"][0] == ann["send"][0]
    with pytest.raises(friend.FriendError, match="not begun on this device"):
        _early_pair(seed, seal="c" * 32)
    first = json.loads(ann["send"][0])
    first["m"]["seal"] = fairdeal.commitment("c" * 32)
    with pytest.raises(friend.FriendError, match="not the one in the invitation"):
        friend_sealed.join({"invite": invite, "reply": reply, "secret": _secrets(seed)[1], "message": json.dumps(first),
                            "seal_secret": derive_seed(seed, "s1")})


def test_the_inviter_may_discard_before_its_first_messages_have_gone():
    pages, _ = play("early-3", early=True, discard_at_once=True)
    assert json.loads(pages[0]["final"]) == json.loads(pages[1]["final"])


def test_a_game_with_its_first_six_in_the_reply_is_taken_up_again_from_its_text():
    pages, _ = play("early-2", early=True, reload_at=40)
    assert json.loads(pages[0]["final"]) == json.loads(pages[1]["final"])


@pytest.mark.parametrize("opens", [[["x", 0]] * 6, [[0, "y"]] * 6, [], [[6, 0]] * 6])
def test_a_damaged_final_after_the_reply_opened_the_first_six_gets_a_sentence(opens):
    seed = "early-0"
    invite, reply, ann = _early_pair(seed)
    sent = list(ann["send"])
    while ann["work"]:
        ann = friend_sealed.work({"game": ann["game"]})
        sent += ann["send"]
    bob = friend_sealed.join({"invite": invite, "reply": reply, "secret": _secrets(seed)[1],
                              "messages": sent, "seal_secret": derive_seed(seed, "s1")})
    texts = [json.loads(text) for text in bob["send"]]
    for message in texts:
        if message["m"].get("s") == "final":
            message["m"]["open"] = opens
    with pytest.raises(friend.FriendError, match="otherwise than in the reply"):
        friend_sealed.receive({"game": ann["game"], "messages": [json.dumps(m) for m in texts]})
