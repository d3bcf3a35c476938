"""Friend games: invitation, reply, the shared deal, whole games by messages and by links, and a
hostile friend whose every bad message is refused with the game left as it was."""

import json

import pytest

from engine import api, fairdeal, friend, share
from engine.record import from_json
from engine.record import all_actions

A_SECRET, B_SECRET = "a" * 32, "b" * 32


def call(endpoint, **request):
    reply = json.loads(api.call(endpoint, json.dumps(request)))
    if not reply["ok"]:
        raise ValueError(reply["error"]["message"])
    return reply["result"]


class Page:
    """One side's page as the browser runs it: it keeps its texts and game, and calls the engine."""

    def __init__(self, seat, invite, secret, reply=None):
        self.seat, self.invite, self.secret, self.reply = seat, invite, secret, reply
        self.game = None
        self.chat = []

    def parts(self):
        return {"invite": self.invite, "reply": self.reply, "seat": self.seat, "secret": self.secret}

    def take(self, table):
        if table is not None:
            self.game = table["game"]
            self.table = table

    def receive(self, message):
        out = call("friend_receive", message=message, game=self.game, **self.parts())
        self.take(out["table"])
        if out["chat"]:
            self.chat.append(out["chat"])
        return out["send"]

    def move(self, action):
        out = call("friend_move", game=self.game, action=action, **self.parts())
        self.take(out)
        return out["send"]

    def my_turn(self):
        return self.game is not None and self.table["awaiting"] not in ("friend", "over")


def pair(target=61, muggins=False):
    made = call("friend_invite", name="Ann", target=target, muggins=muggins, secret=A_SECRET)
    accepted = call("friend_accept", invite=made["invite"], name="Bob", secret=B_SECRET)
    ann = Page(0, made["invite"], A_SECRET, accepted["reply"])
    bob = Page(1, made["invite"], B_SECRET, accepted["reply"])
    ann.take(call("friend_begin", **ann.parts()))
    return ann, bob


def choose(page, k):
    legal = page.table["view"]["legal_actions"]
    if page.table["awaiting"] in ("count", "claim"):  # muggins: claim nothing, and lose it all
        return {"type": page.table["awaiting"], "points": 0}
    return legal[k % len(legal)]


def deliver(messages, to):
    answers = []
    for message in messages:
        answers.extend(to.receive(message))
    return answers


def play_by_messages(ann, bob, rounds=2000):
    assert deliver(call("friend_hello", game=ann.game, **ann.parts())["send"], bob) == []
    assert bob.game == ann.game  # Ann's hello carries her secret: Bob's page starts the same game
    assert deliver(call("friend_hello", game=bob.game, **bob.parts())["send"], ann) == []
    k = 0
    while not from_json(ann.game).is_over and k < rounds:
        k += 1
        for me, other in ((ann, bob), (bob, ann)):
            if me.my_turn():
                sent = me.move(choose(me, k))
                back = deliver(sent, other)
                deliver(back, me)
    return k


def test_the_invitation_and_the_reply_carry_names_rules_and_the_commitment():
    made = call("friend_invite", name=" Ann\u202e ", target=121, muggins=True, secret=A_SECRET, signal="x1")
    seen = call("friend_read_invite", invite="https://example.test/#invite=" + made["invite"])
    assert seen == {"id": friend.commitment(A_SECRET)[:16], "name": "Ann", "target": 121, "muggins": True,
                    "signal": "x1", "meet": None}
    accepted = call("friend_accept", invite=made["invite"], name="Bob", secret=B_SECRET)
    assert call("friend_read_reply", invite=made["invite"], reply=accepted["reply"])["name"] == "Bob"
    assert A_SECRET not in made["invite"] and A_SECRET not in json.dumps(seen)
    # The friend's greeting before any game, made with the reply: what friend_hello says then.
    hello = call("friend_hello", invite=made["invite"], reply=accepted["reply"], seat=1, secret=B_SECRET, game=None)
    assert hello["send"] == [accepted["hello"]] and json.loads(accepted["hello"])["n"] == 0


def test_a_whole_game_by_messages_ends_the_same_on_both_sides():
    ann, bob = pair(target=61)
    play_by_messages(ann, bob)
    a, b = from_json(ann.game), from_json(bob.game)
    assert a.is_over and a.to_json() == b.to_json()
    assert a.base_seed == friend.game_seed(A_SECRET, B_SECRET)


def test_a_whole_game_with_muggins_by_messages():
    ann, bob = pair(target=61, muggins=True)
    play_by_messages(ann, bob)
    assert from_json(ann.game).is_over and ann.game == bob.game


def test_a_whole_game_by_links_only():
    ann, bob = pair(target=61)
    k = 0
    while not from_json(ann.game).is_over:
        k += 1
        for me, other in ((ann, bob), (bob, ann)):
            if me.my_turn():
                me.move(choose(me, k))
                code = call("friend_code_of", game=me.game)["code"]
                assert call("friend_code_id", code=code)["id"] == friend.commitment(A_SECRET)[:16]
                other.take(call("friend_open_link", code=code, game=other.game, **other.parts())["table"])
                assert other.game == me.game
    assert ann.game == bob.game


def test_no_forced_move_is_ever_asked_for():
    ann, bob = pair(target=61)
    deliver(call("friend_hello", game=ann.game, **ann.parts())["send"], bob)
    k = 0
    while not from_json(ann.game).is_over and k < 400:
        k += 1
        for me, other in ((ann, bob), (bob, ann)):
            if me.my_turn():
                assert len(me.table["view"]["legal_actions"]) != 1
                deliver(deliver(me.move(choose(me, k)), other), me)


def test_a_move_sent_twice_is_taken_once_and_a_lost_one_brings_the_whole_game():
    ann, bob = pair()
    deliver(call("friend_hello", game=ann.game, **ann.parts())["send"], bob)
    first = ann.move(choose(ann, 0))
    deliver(first, bob)
    before = bob.game
    assert deliver(first, bob) == [] and bob.game == before
    bob_moves = bob.move(choose(bob, 1))  # lost on the way
    assert bob_moves
    # Ann reconnects: her hello says how many moves she holds; Bob answers with the whole game.
    answers = deliver(call("friend_hello", game=ann.game, **ann.parts())["send"], bob)
    assert answers and json.loads(answers[0])["t"] == "sync"
    deliver(answers, ann)
    assert ann.game == bob.game


@pytest.mark.parametrize("name,to,message,expected", [
    ("out of turn", "bob", lambda p: friend.act_message(p["id"], 1, {"type": "play", "card": 0}), "turn"),
    ("not legal", "ann", lambda p: friend.act_message(p["id"], 1, {"type": "discard", "cards": [3, 3]}),
     "refused"),
    ("not json", "ann", lambda p: "{not json", "not valid JSON"),
    ("too long", "ann", lambda p: json.dumps({"t": "chat", "id": p["id"], "text": "x" * (1 << 20)}), "too long"),
    ("another game", "ann", lambda p: friend.act_message("0" * 16, 1, {"type": "discard", "cards": [0, 1]}),
     "another game"),
    ("unknown kind", "ann", lambda p: json.dumps({"t": "run", "id": p["id"]}), "no known kind"),
    ("wrong fields", "ann", lambda p: json.dumps({"t": "act", "id": p["id"], "n": 0}), "wrong fields"),
    ("a different past", "bob", lambda p: friend.act_message(p["id"], 0, {"type": "discard", "cards": [0, 1]}),
     "does not match"),
    ("forged code", "ann", lambda p: friend._message("sync", p["id"], {"code": "c1.AAAA"}), "cannot be used"),
])
def test_a_hostile_message_is_refused_with_its_reason_and_the_game_is_unharmed(name, to, message, expected):
    ann, bob = pair(target=121)
    deliver(call("friend_hello", game=ann.game, **ann.parts())["send"], bob)
    deliver(ann.move(choose(ann, 0)), bob)  # now it is Bob's turn to discard
    target = {"ann": ann, "bob": bob}[to]
    before = target.game
    with pytest.raises(ValueError, match=expected):
        target.receive(message({"id": call("friend_read_invite", invite=ann.invite)["id"]}))
    assert target.game == before
    deliver(deliver(bob.move(choose(bob, 1)), ann), bob)  # and the game goes on
    assert ann.game == bob.game


def test_a_secret_that_does_not_match_its_commitment_is_refused():
    ann, bob = pair(target=121)
    gid = call("friend_read_invite", invite=ann.invite)["id"]
    with pytest.raises(ValueError, match="does not match the commitment"):
        bob.receive(friend.hello_message(gid, 0, "c" * 32))
    assert bob.game is None


def test_markup_in_chat_and_names_stays_text():
    made = call("friend_invite", name="<img src=x>", target=121, muggins=False,
                secret=A_SECRET)
    accepted = call("friend_accept", invite=made["invite"], name="<script>", secret=B_SECRET)
    bob = Page(1, made["invite"], B_SECRET, accepted["reply"])
    line = json.loads(call("friend_chat", invite=made["invite"], text="<b>hi</b>\u202e")["send"][0])
    bob.receive(json.dumps(line))
    assert bob.chat == ["<b>hi</b>"]  # plain text: the page sets it as text, never as markup


def test_a_code_holding_a_move_of_mine_i_did_not_make_is_refused():
    ann, bob = pair()
    deliver(call("friend_hello", game=ann.game, **ann.parts())["send"], bob)
    deliver(ann.move(choose(ann, 0)), bob)
    forged = from_json(bob.game)
    friend.apply_move(forged, 1, forged.legal_actions()[0])
    forged_state = from_json(ann.game)
    for action in all_actions(forged)[len(all_actions(forged_state)):]:
        forged_state.apply(dict(action))
    code = share.encode(forged)
    before_bob = bob.game
    # Bob's page refuses a code claiming a discard of Bob's that Bob never made.
    with pytest.raises(ValueError, match="did not make"):
        call("friend_open_link", code=code, game=before_bob, **bob.parts())


def test_the_inviters_secret_must_match_the_commitment():
    made = call("friend_invite", name="Ann", target=121, muggins=False, secret=A_SECRET)
    accepted = call("friend_accept", invite=made["invite"], name="Bob", secret=B_SECRET)
    forged = from_json(call("friend_begin", invite=made["invite"], reply=accepted["reply"], seat=0,
                            secret=A_SECRET)["game"])
    bob = Page(1, made["invite"], B_SECRET, accepted["reply"])
    fake = friend.game_seed("c" * 32, B_SECRET)
    from engine.game import new_game
    other = new_game(seed=fake, target=121, players=2, seats=["person", "person"], names=["Ann", "Bob"])
    with pytest.raises(ValueError, match="another game|does not match"):
        bob.receive(friend.sync_message(made["id"], other))
    assert bob.game is None and forged.base_seed.endswith(B_SECRET)


@pytest.mark.parametrize("text", ["", "fi1.", "fi1.!!!", "fi1.e30", "hello", "fr1.e30", "fi1." + "A" * 5000,
                                  None, 7])
def test_damaged_invitations_and_replies_get_a_sentence(text):
    with pytest.raises(friend.FriendError):
        friend.read_invite(text)
    invite = friend.read_invite(friend.make_invite("Ann", 121, False, A_SECRET))
    with pytest.raises(friend.FriendError):
        friend.read_reply(text, invite)


def test_fuzzed_texts_never_raise_anything_but_a_friend_error():
    gen = fairdeal.keyed_generator("friend-fuzz")
    good = friend.make_invite("Ann", 121, False, A_SECRET)
    for k in range(300):
        chars = list(good)
        for _ in range(1 + gen.next_u32() % 4):
            chars[gen.next_u32() % len(chars)] = "AZaz09-_."[gen.next_u32() % 9]
        text = "".join(chars[:len(chars) - gen.next_u32() % 3])
        try:
            friend.read_invite(text)
        except friend.FriendError:
            pass
        try:
            friend.read_message(text, "0" * 16)
        except friend.FriendError:
            pass


def test_the_invite_fits_a_short_link():
    signal = "o1." + "x" * 300  # a compact offer at the long end of its range
    made = call("friend_invite", name="Annabelle Smith", target=121, muggins=True, signal=signal)
    assert len("https://cribbage.example/#invite=" + made["invite"]) <= 700


def test_each_page_speaks_to_its_own_seat_and_names_the_friend():
    """Ann's page says "You" for Ann and "Bob" for Bob; Bob's page the other way round; each
    page's banner says "You win!" to the winner only."""
    ann, bob = pair(target=61)
    play_by_messages(ann, bob)
    said = {0: [], 1: []}
    for page in (ann, bob):
        said[page.seat] = [e.get("say", "") for e in page.table["events"]]
    winner = from_json(ann.game).winner
    for page, me, friend_name in ((ann, 0, "Bob"), (bob, 1, "Ann")):
        result = page.table["result"]
        assert result["title"] == ("You win!" if winner == me else friend_name + " wins!")
        assert result["won"] is (winner == me)
        resumed = call("friend_resume", game=page.game, seat=me)
        assert resumed["result"]["title"] == result["title"]
    lines = [line for page in (ann, bob) for line in said[page.seat] if line]
    assert lines and not any("the computer" in line.lower() for line in lines)


def test_the_narration_names_the_friend_and_calls_this_seat_you():
    from engine.narration import Seating
    from engine.game import new_game

    state = new_game(seed="friend:narration", target=61, names=["Ann", "Bob"])
    for seat, other in ((0, "Bob"), (1, "Ann")):
        seating = Seating.of(state, seat)
        assert seating.says(seat, "lay") == "You lay" and seating.says(1 - seat, "lay") == other + " lays"
        assert seating.possessive(seat) == "your" and seating.possessive(1 - seat) == other + "'s"
    assert Seating.of(state).says(0, "lay") == "Ann lays"  # pass and play: both by name


def test_a_live_invitation_commits_to_its_sealed_deck_and_the_reply_opens_the_inviters_first_six():
    made = call("friend_invite", name="Ann", target=61, muggins=False, signal="o1.offer")
    found = friend.read_invite(made["invite"])
    assert found["seal"] == friend.seal_digest(fairdeal.commitment(made["seal_secret"]))
    accepted = call("friend_accept", invite=made["invite"], name="Bob", signal="a1.answer")
    reply = friend.read_reply(accepted["reply"], found)
    from engine.seeds import reply_opens
    assert reply["open"] == reply_opens(accepted["seal_secret"]) and friend.is_early(found, reply)
    by_link = call("friend_invite", name="Ann", target=61, muggins=False, signal=None)
    assert by_link["seal_secret"] is None and "seal" not in friend.read_invite(by_link["invite"])
    no_answer = call("friend_accept", invite=made["invite"], name="Bob", signal=None)
    assert no_answer["seal_secret"] is None and "open" not in friend.read_reply(no_answer["reply"], found)


@pytest.mark.parametrize("seal", ["A" * 31, "A" * 33, "A" * 31 + "=", "", 7, None])
def test_a_damaged_commitment_to_the_sealed_deck_gets_a_sentence(seal):
    fields = {"v": 1, "name": "Ann", "target": 61, "muggins": False, "commit": "ab" * 32, "signal": "o1.x",
              "seal": seal}
    with pytest.raises(friend.FriendError, match="sealed deck is damaged"):
        friend.read_invite(friend._pack(friend.INVITE_PREFIX, fields))
    fields.update(seal="A" * 32, signal=None)  # a commitment to a sealed deck with no live offer
    with pytest.raises(friend.FriendError, match="sealed deck is damaged"):
        friend.read_invite(friend._pack(friend.INVITE_PREFIX, fields))


@pytest.mark.parametrize("opens", [list(range(11)), list(range(13)), [0] * 12, list(range(6)) + [52] + list(range(5)),
                                   [True] * 12, "0" * 12, list(range(5)) + [0.5] + list(range(6))])
def test_damaged_openings_in_a_reply_get_a_sentence(opens):
    invite = friend.read_invite(call("friend_invite", name="Ann", target=61, muggins=False, signal="o1.x")["invite"])
    fields = {"v": 1, "id": invite["id"], "name": "Bob", "secret": "b" * 32, "signal": "a1.y", "open": opens}
    with pytest.raises(friend.FriendError, match="openings of the first hand are damaged"):
        friend.read_reply(friend._pack(friend.REPLY_PREFIX, fields), invite)


def test_openings_to_an_invitation_without_a_sealed_deck_are_refused():
    invite = friend.read_invite(call("friend_invite", name="Ann", target=61, muggins=False, signal=None)["invite"])
    fields = {"v": 1, "id": invite["id"], "name": "Bob", "secret": "b" * 32, "signal": "a1.y", "open": list(range(12))}
    with pytest.raises(friend.FriendError, match="openings of the first hand are damaged"):
        friend.read_reply(friend._pack(friend.REPLY_PREFIX, fields), invite)
