"""Notes through a meeting point (engine/meeting.py): what is sent, what is kept, what is refused."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from engine import friend, meeting
from engine.api import call as api_call

KEY, OTHER_KEY = "A" * 22, "B" * 21 + "A"
REPLY = "fr1.the-reply-text"


def call(name, **request):
    reply = json.loads(api_call(name, json.dumps(request)))
    assert reply["ok"], reply
    return reply["result"]


def failing(name, **request):
    reply = json.loads(api_call(name, json.dumps(request)))
    assert not reply["ok"]
    return reply["error"]["message"]


def notes_of(texts, seat=0, number=0, tie=REPLY, key=KEY):
    return call("meet_seal", key=key, tie=tie, seat=seat, number=number, texts=texts)["notes"]


def opened(notes, seat=0, box=None, tie=REPLY, key=KEY):
    return call("meet_open", key=key, tie=tie, seat=seat, box=box, notes=notes)


def test_messages_arrive_whole_in_order_once_whatever_the_meeting_point_does_with_their_notes():
    texts = ['{"t":"seal-deck"}', "x" * (2 * meeting.PIECE + 5), "🂡 nice hand! 😀", "last"]
    notes = notes_of(texts)
    assert len(notes) == 6  # the long one in three notes
    shuffled = [notes[4], notes[2], notes[0], notes[0], notes[5], notes[1], notes[3], notes[2]]
    out = opened(shuffled)
    assert out["texts"] == texts and out["refused"] == [] and out["box"]["next"] == 6
    again = opened(notes, box=out["box"])  # everything once more: a replay
    assert again["texts"] == [] and again["refused"] == []


def test_the_meeting_point_sees_no_text_and_each_note_is_new_even_for_the_same_text():
    first, second = notes_of(["Ann has the five of hearts"]), notes_of(["Ann has the five of hearts"])
    assert first != second
    for note in first + second:
        assert "five" not in note and "Ann" not in note and note.startswith("n1.0.")


@pytest.mark.parametrize("change", ["flip", "seat", "key", "tie", "cut", "upper"])
def test_a_note_changed_or_written_with_another_key_or_for_the_other_seat_is_refused(change):
    note = notes_of(["a move"])[0]
    box, tie, key, seat = None, REPLY, KEY, 0
    if change == "flip":
        at = len(note) - 40
        note = note[:at] + ("0" if note[at] != "0" else "1") + note[at + 1:]
    elif change == "seat":
        note = "n1.1." + note[5:]  # the same bytes, said to be from the other seat
        seat = 1
    elif change == "key":
        key = OTHER_KEY
    elif change == "tie":
        tie = "fr1.another-reply"
    elif change == "cut":
        note = note[:-2]
    elif change == "upper":
        note = note.upper().replace("N1.0.", "n1.0.")
    out = opened([note], seat=seat, box=box, tie=tie, key=key)
    assert out["texts"] == [] and len(out["refused"]) == 1
    assert out["refused"][0] in (meeting.DAMAGED, meeting.NOT_A_NOTE)


def test_a_note_from_this_pages_own_seat_is_not_taken_as_the_friends():
    note = notes_of(["mine"], seat=0)[0]
    out = opened([note], seat=1)
    assert out["texts"] == [] and out["refused"] == [meeting.WRONG_SEAT]


def test_the_reply_is_tied_to_nothing_and_the_notes_after_it_wait_until_it_is_read():
    reply = notes_of([REPLY], seat=1, tie="")
    after = notes_of(['{"t":"seal-hello"}'], seat=1, number=1)
    early = opened(after, seat=1, tie=None)  # the inviter has not read the reply yet
    assert early["texts"] == [] and early["waiting"] == after and early["refused"] == []
    first = opened(reply, seat=1, tie=None, box=early["box"])
    assert first["texts"] == [REPLY]
    rest = opened(early["waiting"], seat=1, tie=REPLY, box=first["box"])
    assert rest["texts"] == ['{"t":"seal-hello"}']


def test_holding_the_invitation_is_not_enough_to_speak_for_a_seat_once_the_reply_is_read():
    forged = notes_of(['{"t":"seal-act"}'], seat=1, number=1, tie="")  # the key alone, no reply
    out = opened(forged, seat=1, tie=REPLY)
    assert out["texts"] == [] and out["refused"] == [meeting.DAMAGED]
    forged = notes_of(['{"t":"seal-act"}'], seat=0, number=0, tie="")
    assert opened(forged, seat=0, tie=REPLY)["refused"] == [meeting.DAMAGED]


def test_a_note_far_ahead_is_dropped_and_the_mailbox_stays_small():
    far = notes_of(["far"], number=meeting.MAX_HELD + 3)
    out = opened(far)
    assert out["texts"] == [] and out["box"]["held"] == []


def test_the_topic_shows_nothing_of_the_key_and_keys_are_fresh():
    made = [call("meet_key") for _ in range(3)]
    assert len({m["key"] for m in made}) == 3
    for m in made:
        assert len(m["key"]) == 22 and m["topic"] == meeting.topic(m["key"]) and m["key"] not in m["topic"]


@pytest.mark.parametrize("request_", [
    {"key": "short", "tie": "", "seat": 0, "number": 0, "texts": ["x"]},
    {"key": KEY, "tie": "", "seat": 2, "number": 0, "texts": ["x"]},
    {"key": KEY, "tie": "", "seat": 0, "number": -1, "texts": ["x"]},
    {"key": KEY, "tie": None, "seat": 0, "number": 0, "texts": ["x"]},
    {"key": KEY, "tie": "", "seat": 0, "number": 0, "texts": [""]},
    {"key": KEY, "tie": "", "seat": 0, "number": 0, "texts": "x"},
])
def test_a_bad_request_to_seal_gets_a_sentence(request_):
    assert failing("meet_seal", **request_)


def test_a_damaged_mailbox_gets_a_sentence():
    assert "mailbox" in failing("meet_open", key=KEY, tie="", seat=0, notes=[], box={"next": "0"})


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_from_the_meeting_point_is_taken_or_refused_with_a_sentence(text):
    for note in (text, "n1.0." + text, "n1.1." + text):
        out = opened([note])
        assert out["texts"] == [] and len(out["refused"]) == 1


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=50), min_size=1, max_size=5))
def test_any_unicode_text_arrives_as_it_was_sent(texts):
    assert opened(notes_of(texts))["texts"] == texts


def test_an_invitation_names_its_meeting_point_and_a_bad_one_is_refused():
    secret, seal = "0" * 32, "1" * 32
    text = friend.make_invite("Ann", 121, False, secret, friend.MEET_SIGNAL, seal, ["wss://relay.example.org", KEY])
    found = friend.read_invite(text)
    assert found[friend.MEET_KEY] == ["wss://relay.example.org", KEY] and found["signal"] == friend.MEET_SIGNAL
    for meet in (["https://relay.example.org", KEY], ["wss://a b", KEY], ["wss://relay.example.org", "x"],
                 ["wss://user@relay.example.org", KEY], "wss://relay.example.org"):
        with pytest.raises(friend.FriendError):
            friend.make_invite("Ann", 121, False, secret, friend.MEET_SIGNAL, seal, meet)
    with pytest.raises(friend.FriendError):  # a meeting point with a direct connection's offer
        friend.make_invite("Ann", 121, False, secret, "c2.offer", seal, ["wss://relay.example.org", KEY])
    reply = friend.make_reply(found, "Bob", "2" * 32, "c2.answer")
    with pytest.raises(friend.FriendError, match="another way"):
        friend.read_reply(reply, found)
