"""engine.share and engine.replay: game codes, their replay step by step, the deal of the day."""

import json
import random

import pytest

from engine import api, daily, fairdeal, replay, share
from engine.game import new_game
from engine.seeds import derive_seed
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


@pytest.mark.parametrize("forged, shown", [
    ("\u202eAnn", "Ann"), ("A\u2066nn\u2069", "Ann"), ("\u200eAnn\u200f", "Ann"), ("An\u061cn", "Ann"),
    ("\u202dBob \u202a Jr", "Bob Jr"), ("Ann\u2067", "Ann"), ("\u2068Ann", "Ann"),
])
def test_direction_changing_characters_are_left_out_of_names_in_codes(forged, shown):
    """A code made by hand with names the table would have cleaned (direction overrides,
    isolates, marks) replays with the names cleaned as the table cleans them; a name that is
    nothing but such characters is refused."""
    from engine import messages

    assert messages.visible_text(forged) == shown
    state = new_game(seed="bidi", seats=["person", "person"], names=[forged, "Zed"])
    back = share.decode(share.encode(state))
    assert back.names == [shown, "Zed"]
    replayed = json.loads(api.call("replay_game", json.dumps({"code": share.encode(state)})))["result"]
    assert replayed["names"][0] == shown and all(shown in step["say"] or forged not in step["say"]
                                                 for step in replayed["steps"])
    saved = json.loads(state.to_json())
    assert json.loads(api.call("resume_game", json.dumps({"game": state.to_json()})))["ok"]
    assert record_names(api.call("resume_game", json.dumps({"game": state.to_json()}))) == [shown, "Zed"]
    with pytest.raises(share.CodeError, match="empty"):
        share.decode(share.encode(new_game(seed="bidi", seats=["person", "person"], names=["\u202e\u2066", "Zed"])))
    assert saved["names"] == [forged, "Zed"]


def record_names(reply_text):
    """The names of the game a resume_game reply holds."""
    return json.loads(json.loads(reply_text)["result"]["game"])["names"]


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


# Codes written by version 1 (the people's decisions only), with the SHA-256 of their games'
# JSON: they still replay to the very same games, the computers asked for their moves again.
VERSION_1_CODES = [
    ("c1.ARQAAwl2MS1leHBlcnQACQEBAAAJAAAAAA0AAAEABwABAAAMAAAAAA4AARsi_qw", "24a99dc970a346f3"),
    ("c1.AVgAAg92MS1oYXJkLW11Z2dpbnMABwAAAAAAAAAACgQAAAAAAAAAAAAADgAAAAIBBAAABAcAAAAAAAAAAAIHDAAAAAAAAgAAWuxSWw",
     "110cb78bc735e75f"),
    ("c1.AREAAQEIdjEtdGhyZWUAAAAAAAAAAAAAAAEAAAAAAgAAAAADAAAAAAQAAAAAAwABAAAAAAAAAAIAAAAABAAAAAACAAAAAAEAAAAAAAAAAA"
     "ABkIKckQ", "a8c784de8b47485a"),
]


@pytest.mark.parametrize("code, digest", VERSION_1_CODES)
def test_codes_of_version_1_still_replay_to_the_same_game(code, digest):
    from engine.compat import sha256_hex

    state = share.decode(code)
    assert sha256_hex(state.to_json().encode("utf-8"))[:16] == digest
    assert share.is_checked(code)  # nothing written down to take on trust: the computers were asked
    assert share.decode(code, check=False).to_json() == state.to_json()
    again = share.encode(state)
    assert again != code and share.decode(again).to_json() == state.to_json()


def test_a_computer_move_that_is_legal_but_not_its_own_is_refused_by_the_check():
    """A code writes the computers' moves down: taken as written it replays at once (each move
    still a legal one) and the replay says it is not yet checked; the check asks the computer
    and refuses the code at the first move that is not its own."""
    from engine.record import computer_action

    state = new_game(seed="forge-computer", seats=["expert", "person"])
    own = computer_action(state)  # the expert discards first (seat order)
    state.apply(next(a for a in state.legal_actions() if a != own))
    forged = share.encode(state)
    assert not share.is_checked(forged)
    assert share.decode(forged, check=False).to_json() == state.to_json()
    with pytest.raises(share.CodeError, match="move 1 is not the one the expert computer makes there"):
        share.decode(forged)

    def call(name, request):
        return json.loads(api.call(name, json.dumps(request)))

    shown = call("replay_game", {"code": forged})["result"]
    assert shown["checked"] is False and shown["steps"]
    refused = call("check_code", {"code": forged})["error"]
    assert refused["kind"] == "bad_input" and "move 1 is not the one the expert computer" in refused["message"]
    honest = share.encode(seated_game(seed="forge-honest", level="expert", target=61))
    assert call("check_code", {"code": honest})["result"] == {"checked": True}


def test_a_code_of_people_only_needs_no_check_and_games_that_seat_a_computer_do():
    people = new_game(seed="people-only", seats=["person", "person"])
    people.apply(people.legal_actions()[2])
    assert share.is_checked(share.encode(people))
    assert not share.is_checked(share.encode(seated_game(seed="seated", stop=3)))
    assert json.loads(api.call("replay_game", json.dumps({"code": share.encode(people)})))["result"]["checked"]


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


@pytest.mark.parametrize("players, target, seed", [(2, 121, "past-2-121-0"), (2, 61, "past-2-61-2"),
                                                   (3, 121, "past-3-121-1"), (4, 61, "past-4-61-0")])
def test_a_replay_never_shows_a_score_past_the_target(players, target, seed):
    """A game whose last move makes more than the winner needs: its replay, every step and the
    words of its end, shows the winner at the target, as the table does."""
    state = seated_game(seed=seed, players=players, target=target, level="easy")
    winners = state.winners
    assert sum(sum(state.tally[s]) for s in winners) > target  # the last move passed the target
    reply = json.loads(api.call("replay_game", json.dumps({"code": share.encode(state)})))["result"]
    steps = reply["steps"]
    assert steps == replay.replay_steps(state)
    assert max(max(step["scores"]) for step in steps) == target
    assert [steps[-1]["scores"][s] for s in winners] == [target] * len(winners)
    assert steps[-1]["scores"] == state.scores
    over = steps[-1]["say"]
    assert f"{target} to " in over and "spare" not in over
    assert not any(str(n) in over for n in range(target + 1, target + 30))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_still_on_shows_no_computer_hand_in_its_replay(players):
    """A replay of an unfinished game shows a seat's cards only from that seat, if a person's,
    and another seat's only once its hand is over: not in the table, not in the words."""
    from engine import narration

    state = seated_game(seed="peek", players=players, stop=20 * players)
    assert not state.is_over
    for seat in range(1, players):
        assert not replay.may_view(state, seat)
        with pytest.raises(ValueError, match="not over yet"):
            replay.replay_steps(state, seat)
    steps = replay.replay_steps(state)
    spoken = [narration.card_info(c)["spoken"] for c in range(52)]
    current = state.hand_number
    for step in steps:
        if step["kind"] == "hand" and "dealt face down" in step["say"]:
            assert not any(name in step["say"] for name in spoken)
        if step["hand_number"] == current:
            assert all(isinstance(step["held"][s], int) for s in range(1, players))
    told = [s["say"] for s in steps if s["kind"] == "hand"]
    assert len(told) == players * current and sum("face down" in t for t in told) == (players - 1) * current
    for seat in range(1, players):
        reply = json.loads(api.call("replay_game", json.dumps({"code": share.encode(state), "seat": seat})))["result"]
        assert reply["viewer"] == 0 and "not over yet" in reply["notice"] and reply["steps"] == steps


def test_a_title_follows_from_what_the_code_proves():
    """"Deal of the day" and "Bot lab game" are what the game proves: a practice seed that reads
    as a day's with other rules is not the day's deal, and names (or a link) do not make a
    bot lab game; a game whose one seat played as a lab match's computer does."""
    from engine import match

    def replayed(state):
        return json.loads(api.call("replay_game", json.dumps({"code": share.encode(state)})))["result"]

    day = daily.game_seed("2026-12-01")
    assert replayed(new_game(seed=day, seats=["person", "hard"]))["daily"] == "2026-12-01"
    for other in ({"seats": ["person", "easy"]}, {"seats": ["person", "hard"], "target": 61},
                  {"seats": ["person", "hard"], "muggins": True}):
        assert replayed(new_game(seed=day, **other))["daily"] is None
    assert replayed(new_game(seed=day + "x", seats=["person", "hard"]))["daily"] is None
    bot = get_player("easy", seed="bot")
    run = match.MatchRun(lambda seed: bot, "hard", games=2, seed="lab", names=("Your bot", "Hard"))
    run.step(seconds=0.0)
    run.step(seconds=0.0)
    for entry in run.played:
        got = json.loads(api.call("replay_game", json.dumps({"code": entry["code"]})))["result"]
        assert got["lab"] == {"bot": entry["first_seat"], "opponent": "hard"} and got["viewer"] == entry["first_seat"]
    # The same names on a game two people played: no bot lab game.
    state = new_game(seed="lab:0", seats=["person", "person"], names=["Your bot", "Hard"])
    rng = random.Random(3)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert replayed(state)["lab"] is None


def test_the_deal_of_the_day_follows_the_published_rule():
    day = "2026-12-01"
    assert daily.game_seed(day) == "cribbage-daily:2026-12-01"
    for hand in (1, 2, 9):
        expected = fairdeal.commitment(daily.hand_seed(day, hand))
        assert daily.hand_seed(day, hand) == derive_seed("cribbage-daily:" + day, hand)
        import hashlib
        assert daily.hand_seed(day, hand) == hashlib.sha256(f"cribbage-daily:{day}:{hand}".encode()).hexdigest()[:32]
        assert len(expected) == 64
    a = new_game(seed=daily.game_seed(day), seats=["person", "hard"])
    b = new_game(seed=daily.game_seed(day), seats=["person", "hard"])
    assert a.held == b.held and a.seed == daily.hand_seed(day, 1)
    for bad in ("2026-13-01", "2026-02-30", "26-12-01", "yesterday", 20261201, "2026-12-1"):
        with pytest.raises(ValueError):
            daily.game_seed(bad)
    assert daily.game_seed("2028-02-29")


def test_the_endpoints():
    def call(name, request):
        return json.loads(api.call(name, json.dumps(request)))

    state = seated_game(seed="endpoints", stop=30)
    code = call("share_code", {"game": state.to_json()})["result"]["code"]
    got = call("replay_game", {"code": code})["result"]
    assert got["code"] == code and got["steps"] and len(got["cards"]) == 52 and got["daily"] is None
    assert call("replay_game", {"game": state.to_json()})["result"]["steps"] == got["steps"]
    # A game still on is seen from the person's seat only: asked for the computer's, the
    # replay stays at the person's and says why.
    assert got["viewer"] == 0 and got["notice"] is None and got["lab"] is None
    other = call("replay_game", {"code": code, "seat": 1})["result"]
    assert other["viewer"] == 0 and other["notice"] and other["steps"] == got["steps"]
    # A finished game, seen from the other seat: its cards face up, the first person's face down.
    done = seated_game(seed="endpoints")
    code = call("share_code", {"game": done.to_json()})["result"]["code"]
    got = call("replay_game", {"code": code})["result"]
    other = call("replay_game", {"code": code, "seat": 1})["result"]
    assert other["viewer"] == 1 and other["notice"] is None and len(other["steps"]) == len(got["steps"])
    dealt = next(i for i, step in enumerate(got["steps"]) if step["held"][1] == 6)
    assert len(got["steps"][dealt]["held"][0]) == 6
    assert len(other["steps"][dealt]["held"][1]) == 6 and other["steps"][dealt]["held"][0] == 6
    for bad in (2, -1, "1", True, 1.0):
        error = call("replay_game", {"code": code, "seat": bad})["error"]
        assert error["kind"] == "bad_input" and "not a seat" in error["message"]
    rule = call("daily_seed", {"day": "2026-12-01", "hand": 3})["result"]
    assert rule["seed"] == daily.hand_seed("2026-12-01", 3)
    assert call("replay_game", {"code": code[:-3]})["error"]["kind"] == "bad_input"
    assert "YYYY-MM-DD" in call("daily_seed", {"day": "soon"})["error"]["message"]
    played = play_game("hard", "easy", "unused", 0)  # the match module plays through views as before
    assert played["games"] == 1
