"""engine.share and engine.replay: game codes, their replay step by step, the deal of the day."""

import doctest
import json
import random

import pytest

from engine import api, fairdeal, replay, share
from engine.game import derive_seed, new_game
from engine.match import play_game
from engine.players import get_player
from engine.record import COMPUTER_SEED


def seated_game(seed=None, players=2, level="hard", muggins=False, target=121, stop=None, person="easy"):
    """A game of a person (played by a computer policy) against seated computers."""
    state = new_game(seed=seed, players=players, muggins=muggins, target=target,
                     seats=["person"] + [level] * (players - 1))
    me, them = get_player(person, seed="me"), get_player(level, seed=COMPUTER_SEED)
    while not state.is_over and stop != 0:
        view = state.view(state.to_act)
        state.apply((me if state.seats[state.to_act] == "person" else them).choose(view, view["legal_actions"]))
        stop = None if stop is None else stop - 1
    return state


def test_doctests():
    assert doctest.testmod(share).failed == 0 and doctest.testmod(replay).failed == 0


@pytest.mark.parametrize("options", [{}, {"players": 3}, {"players": 4, "muggins": True}, {"target": 61},
                                     {"seed": "a practice seed é"}, {"level": "easy"}])
def test_every_game_round_trips_through_its_code(options):
    for stop in (0, 1, 7, 40, None):
        state = seated_game(stop=stop, **options)
        code = share.encode(state)
        assert code.startswith("c1.") and set(code[3:]) <= set(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        assert share.decode(code).to_json() == state.to_json()


def test_every_game_of_a_match_round_trips_and_a_whole_game_fits_a_link():
    """Games between the seated computer and another player, encoded, decoded and replayed."""
    lengths = []
    for i in range(40):
        state = seated_game(seed=f"match-{i}", person="hard" if i % 2 else "easy", muggins=i % 3 == 0)
        code = share.encode(state)
        back = share.decode(code)
        assert back.is_over and back.to_json() == state.to_json() and back.scores == state.scores
        lengths.append(len(code))
    assert max(lengths) <= 2000 and max(lengths) < 400


@pytest.mark.parametrize("seats", [["person", "expert"], ["hard", "person"], ["person", "easy", "hard"],
                                   ["person", "hard", "hard", "hard"], ["person", "person"]])
def test_a_codes_seats_are_read_without_replaying_it(seats):
    state = new_game(seed="seats-" + "-".join(seats), seats=seats, players=len(seats))
    code = share.encode(state)
    assert share.code_seats(code) == seats == share.decode(code).seats
    assert json.loads(api.call("code_seats", json.dumps({"code": code}))) == {"ok": True, "result": {"seats": seats}}
    damaged = code[:-3] + ("A" if code[-3] != "A" else "B") + code[-2:]
    with pytest.raises(share.CodeError, match="changed or damaged"):
        share.code_seats(damaged)


def test_pass_and_play_names_travel_with_the_code():
    state = new_game(seed="names", seats=["person", "person"], names=["Ann", "Bób"])
    rng = random.Random(1)
    for _ in range(30):
        state.apply(rng.choice(state.legal_actions()))
    back = share.decode(share.encode(state))
    assert back.names == ["Ann", "Bób"] and back.to_json() == state.to_json()


@pytest.mark.parametrize("code, words", [
    (None, "not text"), ("", "starts"), ("x1.AAAA", "starts"), ("c1.", "too short"), ("c1.!!!!", "alphabet"),
    ("c1." + "A" * 5000, "at most"),
    ("c1.AQAAA", "ends too soon"), ("c1.AQAAAt4xy", "ends too soon"),
])
def test_what_is_not_a_code_is_refused(code, words):
    with pytest.raises(share.CodeError, match=words):
        share.decode(code)


def test_a_damaged_or_forged_code_is_refused_never_a_wrong_game():
    state = seated_game(seed="forge", stop=60)
    code = share.encode(state)
    refused = 0
    rng = random.Random(9)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    for _ in range(500):
        at = rng.randrange(3, len(code))
        bad = code[:at] + rng.choice(alphabet) + code[at + 1:]
        try:
            back = share.decode(bad)
        except share.CodeError:
            refused += 1
            continue
        assert back.to_json() == state.to_json()  # only a change that means nothing can load
    assert refused > 450


def test_a_code_with_a_forged_check_still_replays_only_a_real_game():
    """Recomputing the check lets an edited code through the check, but the replay still plays
    the computers' own moves: a decision that was not possible is refused."""
    import base64
    import hashlib

    state = seated_game(seed="forge-2", stop=20)
    raw = bytearray(base64.urlsafe_b64decode(share.encode(state)[3:] + "=="))
    body = raw[:-4]
    body[-2] = 250  # a decision far beyond any list of moves
    forged = bytes(body) + hashlib.sha256(bytes(body)).digest()[:4]
    with pytest.raises(share.CodeError, match="not one of the moves"):
        share.decode("c1." + base64.urlsafe_b64encode(forged).decode().rstrip("="))


def test_replay_steps_hide_other_hands_until_the_hand_is_over():
    state = seated_game(seed="steps")
    steps = replay.replay_steps(state)
    assert steps[0]["kind"] == "cut" and steps[-1]["kind"] == "game_over"
    assert all(s["say"] for s in steps)
    kinds = {s["kind"] for s in steps}
    assert {"deal", "discard", "play", "show", "hand_end"} <= kinds
    for step in steps:
        hidden = isinstance(step["held"][1], int)
        over = step["kind"] in ("hand_end", "game_over")
        if over:
            assert not hidden and isinstance(step["crib"], list)
        assert isinstance(step["held"][0], list)
    assert steps[-1]["scores"] == state.scores


def test_the_deal_of_the_day_follows_the_published_rule():
    day = "2026-12-01"
    assert share.daily_seed_text(day) == "cribbage-daily:2026-12-01"
    for hand in (1, 2, 9):
        expected = fairdeal.commitment(share.daily_hand_seed(day, hand))
        assert share.daily_hand_seed(day, hand) == derive_seed("cribbage-daily:" + day, hand)
        import hashlib
        assert share.daily_hand_seed(day, hand) == hashlib.sha256(f"cribbage-daily:{day}:{hand}".encode()).hexdigest()[:32]
        assert len(expected) == 64
    a = new_game(seed=share.daily_seed_text(day), seats=["person", "hard"])
    b = new_game(seed=share.daily_seed_text(day), seats=["person", "hard"])
    assert a.held == b.held and a.seed == share.daily_hand_seed(day, 1)
    for bad in ("2026-13-01", "2026-02-30", "26-12-01", "yesterday", 20261201, "2026-12-1"):
        with pytest.raises(ValueError):
            share.daily_seed_text(bad)
    assert share.daily_seed_text("2028-02-29")


def test_the_endpoints():
    def call(name, request):
        return json.loads(api.call(name, json.dumps(request)))

    state = seated_game(seed="endpoints", stop=30)
    code = call("share_code", {"game": state.to_json()})["result"]["code"]
    got = call("replay_game", {"code": code})["result"]
    assert got["code"] == code and got["steps"] and len(got["cards"]) == 52 and got["daily"] is None
    assert call("replay_game", {"game": state.to_json()})["result"]["steps"] == got["steps"]
    # Seen from the other seat: its cards face up, the first person's face down.
    assert got["viewer"] == 0
    other = call("replay_game", {"code": code, "seat": 1})["result"]
    assert other["viewer"] == 1 and len(other["steps"]) == len(got["steps"])
    dealt = next(i for i, step in enumerate(got["steps"]) if step["held"][1] == 6)
    assert len(got["steps"][dealt]["held"][0]) == 6
    assert len(other["steps"][dealt]["held"][1]) == 6 and other["steps"][dealt]["held"][0] == 6
    for bad in (2, -1, "1", True, 1.0):
        error = call("replay_game", {"code": code, "seat": bad})["error"]
        assert error["kind"] == "bad_input" and "not a seat" in error["message"]
    daily = call("daily_seed", {"day": "2026-12-01", "hand": 3})["result"]
    assert daily["seed"] == share.daily_hand_seed("2026-12-01", 3)
    assert call("replay_game", {"code": code[:-3]})["error"]["kind"] == "bad_input"
    assert "YYYY-MM-DD" in call("daily_seed", {"day": "soon"})["error"]["message"]
    played = play_game("hard", "easy", "unused", 0)  # the match module plays through views as before
    assert played["games"] == 1
