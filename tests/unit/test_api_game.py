"""The game page's endpoints (engine/api.py over engine/narration.py), called as the worker calls them."""

from __future__ import annotations

import hashlib
import json
import re

import pytest

from engine import api, fairdeal, host, narration
from engine.cards import CARD_NAMES, CARD_SPOKEN
from engine.record import from_json
from engine.players import get_player
from engine.scoring import score_play, score_show


def call(name: str, request: dict) -> dict:
    """Call an endpoint through ``api.call`` with JSON text, as the page does."""
    reply = json.loads(api.call(name, json.dumps(request)))
    return reply


def ok(name: str, request: dict) -> dict:
    reply = call(name, request)
    assert reply["ok"], reply
    return reply["result"]


def refused(name: str, request: dict) -> str:
    reply = call(name, request)
    assert not reply["ok"], reply
    assert reply["error"]["kind"] == "bad_input", reply
    assert "Traceback" not in reply["error"]["message"]
    return reply["error"]["message"]


def true_count(view: dict) -> int:
    counting = view["counting"]
    return score_show(counting["cards"], counting["starter"], crib=counting["show"] == "crib").total


def person_action(result: dict, player) -> dict:
    """The person's move, chosen by a computer player from the page's view of seat 0."""
    view = result["view"]
    if result["awaiting"] == "count":
        return {"type": "count", "points": true_count(view)}
    if result["awaiting"] == "claim":
        return {"type": "claim", "points": score_play([c for _, c in view["current"]]).total}
    return player.choose(view, view["legal_actions"])


def hidden_cards(result: dict) -> set[int]:
    """The cards seat 0 must not see now: the computer's hand, its discards until the crib is
    shown, and the starter until it is turned."""
    state = from_json(result["game"])
    hidden = set(state.held[1])
    if result["view"]["crib"] is None and state.discards[1]:
        hidden.update(state.discards[1])
    if state.starter is None:
        hidden.add(fairdeal.deal(state.seed, 2, state.dealer).starter)
    return hidden


def assert_nothing_hidden(result: dict) -> None:
    """The reply without the game's JSON never names a card seat 0 cannot see."""
    if result["view"]["is_over"]:
        return  # the deal is revealed when the game ends
    # Events before this hand's deal show the last hand's cards, which were all shown by then;
    # the cut for first deal comes from a deck of its own.
    events = result["events"]
    deals = [i for i, e in enumerate(events) if e["type"] == "deal"]
    earlier = narration.event_cards(events[:deals[-1]]) if deals else set()
    hidden = hidden_cards(result)
    mentioned = narration.view_cards(result["view"]) | narration.event_cards(events[deals[-1]:] if deals else events)
    assert not hidden & mentioned
    hidden -= earlier
    page = {key: value for key, value in result.items() if key != "game"}
    assert not hidden & {int(c) for c in result["cards"]}
    text = json.dumps(page, ensure_ascii=False)
    for card in hidden:
        assert CARD_SPOKEN[card] not in text
        assert not re.search(rf"(?<![0-9A-Z]){CARD_NAMES[card]}(?![0-9A-Z])", text), CARD_NAMES[card]
    # The person's own cards are exactly seat 0's hand.
    assert set(result["view"]["hand"]) == set(from_json(result["game"]).held[0])


def play_out(result: dict, difficulty: str = "easy", check=None,
             limit: int = 3000) -> tuple[dict, list[dict]]:
    """Play a game to its end through the endpoints; the person is an easy computer player."""
    person = get_player("easy", seed="person")
    events = list(result["events"])
    PLAYED["since_person"] = list(events)
    for _ in range(limit):
        if check is not None:
            check(result)
        if result["awaiting"] == "over":
            return result, events
        if result["awaiting"] == "computer":
            result = ok("computer_move", {"game": result["game"], "difficulty": difficulty})
        else:
            result = ok("act", {"game": result["game"], "action": person_action(result, person)})
            PLAYED["since_person"] = []
        events += result["events"]
        PLAYED["since_person"] += result["events"]
    raise AssertionError("the game did not end")


PLAYED = {"since_person": []}  # the events since the person last acted, in the last play_out


# --------------------------------------------------------------------------------------------


def test_a_whole_game_through_the_endpoints_easy_against_easy():
    result = ok("new_game", {"difficulty": "easy", "target": 121, "muggins": False, "seed": "api-1"})
    assert result["practice"] is True and result["practice_seed"] == "api-1"
    assert [e["type"] for e in result["events"]][:3] == ["cut", "deal", "hand"]
    assert result["awaiting"] == "discard" and result["to_act"] == 0
    final, events = play_out(result, check=assert_nothing_hidden)
    view = final["view"]
    assert view["is_over"] and final["to_act"] is None and final["awaiting"] == "over"
    assert max(view["scores"]) >= 121
    over = [e for e in events if e["type"] == "game_over"]
    assert len(over) == 1 and over[0]["scores"] == view["scores"]
    assert over[0]["say"].startswith(("You win", "The computer wins")) and over[0]["say"] == final["outcome"]
    result = final["result"]
    winner, loser = over[0]["winner"], 1 - over[0]["winner"]
    assert result["winner"] == winner
    assert view["scores"][winner] == 121  # the game ends at 121, whatever the last move made
    assert result["score"] == f"121 to {view['scores'][loser]}"
    assert result["skunk_kind"] == over[0]["skunks"][loser]
    assert bool(result["skunk"]) == (result["skunk_kind"] != "none")
    # Every score event adds up to the final scores, and every announcement is plain text.
    totals = [0, 0]
    for e in events:
        assert isinstance(e["say"], str)
        if e["type"] == "score":
            totals[e["seat"]] += e["points"]
            assert e["total"] == min(totals[e["seat"]], 121)
    assert [min(t, 121) for t in totals] == view["scores"]
    assert max(totals) > 121  # this game's last move passes the target (what the checks above are for)
    # The game JSON sent to the page is a valid saved game that resumes to the same view, with
    # the events since the person last acted replayed, from the view just before that action.
    tail = PLAYED["since_person"]
    resumed = ok("resume_game", {"game": final["game"]})
    assert resumed["view"] == view and resumed["events"] == tail and tail
    assert resumed["view_before"]["hand_number"] <= view["hand_number"]
    # The hand seeds revealed match the commitments shown at each deal.
    commitments = [e["commitment"] for e in events if e["type"] == "deal"]
    seeds = [e["seed"] for e in events if e["type"] == "hand_end"]
    assert len(seeds) == len(commitments)
    assert all(hashlib.sha256(s.encode()).hexdigest() == c for s, c in zip(seeds, commitments))


def test_a_real_game_is_not_practice_and_the_hard_computer_moves():
    result = ok("new_game", {"difficulty": "hard", "target": 61, "muggins": False})
    assert result["practice"] is False and result["practice_seed"] is None
    saved = json.loads(result["game"])
    assert saved["practice"] is False and fairdeal.is_normal_seed(saved["seed"])
    assert saved["seats"] == ["person", "hard"]
    hand = result["view"]["hand"]
    result = ok("act", {"game": result["game"], "action": {"type": "discard", "cards": hand[:2]}})
    assert result["view"]["discarded"][0]
    while result["awaiting"] == "computer":
        result = ok("computer_move", {"game": result["game"], "difficulty": "hard"})
        assert_nothing_hidden(result)
    assert result["view"]["discarded"] == [True, True]


def test_hand_is_shown_in_rank_order_with_card_display_data():
    result = ok("new_game", {"difficulty": "easy", "target": 121, "muggins": False, "seed": "order"})
    hand = result["view"]["hand"]
    assert hand == sorted(hand, key=lambda c: (c % 13, c // 13))
    for c in hand:
        info = result["cards"][str(c)]
        assert info["name"] == CARD_NAMES[c] and info["spoken"] == CARD_SPOKEN[c]
        assert info["suit"] in "CDHS" and info["pretty"].startswith(info["rank"])


@pytest.mark.parametrize("action, words", [
    ({"type": "play", "card": 0}, "play action is not allowed"),
    ({"type": "discard", "cards": [0]}, None),
    ({"type": "discard", "cards": "5H 5S"}, "must be a list"),
    ({"type": "dance"}, "unknown action type"),
])
def test_illegal_actions_are_refused_with_the_engines_reason_and_change_nothing(action, words):
    result = ok("new_game", {"difficulty": "easy", "target": 121, "muggins": False, "seed": "illegal"})
    message = refused("act", {"game": result["game"], "action": action})
    if words:
        assert words in message
    again = ok("resume_game", {"game": result["game"]})
    assert again["view"] == result["view"]


def test_a_card_not_held_and_out_of_turn_moves_are_refused():
    result = ok("new_game", {"difficulty": "easy", "target": 121, "muggins": False, "seed": "illegal-2"})
    not_mine = next(c for c in range(52) if c not in result["view"]["hand"])
    mixed = {"type": "discard", "cards": [result["view"]["hand"][0], not_mine]}
    message = refused("act", {"game": result["game"], "action": mixed})
    assert "does not hold" in message
    assert "not the computer's" in refused("computer_move", {"game": result["game"], "difficulty": "easy"})
    throw = {"type": "discard", "cards": result["view"]["hand"][:2]}
    result = ok("act", {"game": result["game"], "action": throw})
    assert result["awaiting"] == "computer"
    play = {"type": "play", "card": 0}
    assert "computer's turn" in refused("act", {"game": result["game"], "action": play})
    # The computer plays at the level it was seated with, whatever a request says.
    moved = ok("computer_move", {"game": result["game"], "difficulty": "cheating"})
    assert json.loads(moved["game"])["seats"] == ["person", "easy"]
    assert "not a person's seat" in refused("act", {"game": result["game"], "seat": 1, "action": play})


def test_playing_past_31_is_refused():
    result = ok("new_game", {"difficulty": "easy", "target": 121, "muggins": False, "seed": "past-31"})
    person = get_player("easy", seed="p")
    for _ in range(200):
        view = result["view"]
        if result["awaiting"] == "play":
            legal = {a["card"] for a in view["legal_actions"]}
            bad = [c for c in view["hand"] if c not in legal]
            if bad:
                message = refused("act", {"game": result["game"], "action": {"type": "play", "card": bad[0]}})
                assert "past 31" in message
                return
        if result["awaiting"] == "computer":
            result = ok("computer_move", {"game": result["game"], "difficulty": "easy"})
        else:
            result = ok("act", {"game": result["game"], "action": person_action(result, person)})
    pytest.skip("no card that would pass 31 came up")


def test_new_game_options_are_checked():
    assert "121 or to 61" in refused("new_game", {"target": 100})
    assert "easy, hard or expert" in refused("new_game", {"difficulty": "master"})
    assert "on or off" in refused("new_game", {"muggins": "yes"})
    assert "practice seed" in refused("new_game", {"seed": ""})
    assert "practice seed" in refused("new_game", {"seed": "x" * 500})
    defaults = ok("new_game", {})
    assert defaults["view"]["target"] == 121 and defaults["view"]["muggins"] is False


def test_resume_refuses_a_damaged_game_with_the_notice():
    result = ok("new_game", {"difficulty": "easy", "target": 121, "muggins": False, "seed": "resume"})
    assert ok("resume_game", {"game": result["game"]})["view"] == result["view"]
    data = json.loads(result["game"])
    data["seats"] = ["person", "person"]  # a computer's seat taken over (the check no longer matches)
    future = json.dumps({"format": "cribbage-game", "version": 99})
    for broken in ("not json", json.dumps(data), "{}", future):
        message = refused("resume_game", {"game": broken})
        assert message.startswith(host.SAVED_GAME_UNREADABLE)
    assert refused("resume_game", {})


def _forged_computer_move(level: str = "hard") -> str:
    """A saved game whose computer (seat 0, first to discard) threw another pair than its own:
    legal, with a good record check (the game wrote it), but not the computer's move."""
    from engine.game import new_game
    from engine.record import computer_action

    state = new_game(seed="forged-computer", seats=[level, "person"])
    own = computer_action(state)
    state.apply(next(a for a in state.legal_actions() if a != own))
    return state.to_json()


def _steps_to_check(limit: int = 400) -> list:
    """Ask check_game until it is done; the replies."""
    replies = [ok("check_game", {})]
    while not replies[-1]["done"]:
        replies.append(ok("check_game", {}))
        assert len(replies) < limit
    return replies


def test_a_resumed_game_owes_the_check_of_its_computers_moves_and_pays_it_a_move_at_a_time():
    """resume_game replays a saved game without asking its computers again (checked false);
    check_game then asks one of their moves a call, and is done after the last."""
    from engine.record import check_computers
    from tests.unit.test_share import seated_game

    state = seated_game(seed="owed", level="hard", target=61)
    text = state.to_json()
    computer_moves = len(list(check_computers(state)))
    assert computer_moves > 20
    assert ok("resume_game", {"game": text})["checked"] is False
    assert len(_steps_to_check()) == computer_moves + 1
    assert ok("check_game", {}) == {"done": True}  # nothing owed any more
    # A new game owes nothing, nor do two people at one table.
    ok("resume_game", {"game": text})
    ok("new_game", {"difficulty": "hard", "seed": "owed-new"})
    assert ok("check_game", {}) == {"done": True}
    passing = ok("new_game", {"pass_and_play": True, "names": ["Ann", "Bob"], "seed": "owed-2"})
    assert ok("resume_game", {"game": passing["game"]})["checked"] is True


def test_a_resumed_game_whose_computer_did_not_make_its_own_move_is_refused_by_the_check():
    forged = _forged_computer_move()
    with pytest.raises(ValueError, match="action 1 of hand 1 is not the one the computer made"):
        from_json(forged)  # loaded whole, it is refused at once
    resumed = ok("resume_game", {"game": forged})  # resumed, it is shown first ...
    assert resumed["checked"] is False
    message = refused("check_game", {})  # ... and refused at the check
    assert message.startswith(host.SAVED_GAME_UNREADABLE) and "not the one the computer made" in message
    assert ok("check_game", {}) == {"done": True}  # the refused game is no longer held
    assert "not the one the computer made" in refused("act", {"game": forged, "action": {"type": "play", "card": 0}})


def test_what_counts_a_resumed_game_makes_the_check_it_owes_first():
    """The statistics and the deal of the day count a resumed game only once its computers'
    moves are checked: counted at once, it is checked whole first, and refused if forged."""
    from tests.unit.test_share import seated_game

    text = seated_game(seed="owed-stats", level="hard", target=61).to_json()
    assert ok("resume_game", {"game": text})["checked"] is False
    assert ok("stats_record", {"stats": None, "game": text, "difficulty": "hard"})["recorded"]
    assert ok("check_game", {}) == {"done": True}
    forged = _forged_computer_move()
    ok("resume_game", {"game": forged})
    assert "not the one the computer made" in refused("daily_result", {"game": forged})
    ok("resume_game", {"game": forged})
    assert "not the one the computer made" in refused("stats_record", {"stats": None, "game": forged})


def _to_count_phase(seed: str) -> dict:
    result = ok("new_game", {"difficulty": "easy", "target": 121, "muggins": True, "seed": seed})
    person = get_player("easy", seed="p")
    for _ in range(100):
        if result["awaiting"] == "count":
            return result
        if result["awaiting"] == "computer":
            result = ok("computer_move", {"game": result["game"], "difficulty": "easy"})
        else:
            result = ok("act", {"game": result["game"], "action": person_action(result, person)})
    raise AssertionError("no count for the person came up")


def _muggins_seed() -> tuple[str, dict]:
    for i in range(200):
        result = _to_count_phase(f"muggins-{i}")
        if true_count(result["view"]) >= 2:
            return f"muggins-{i}", result
    raise AssertionError("no hand worth two or more")


def test_muggins_overcount_costs_the_excess_undercount_gives_the_missed_and_no_hint_before_the_claim():
    seed, result = _muggins_seed()
    view = result["view"]
    total = true_count(view)
    # Nothing in the reply gives the count away before the claim.
    assert view["legal_actions"] == [] and view["counting"]["seat"] == 0
    assert "total" not in view["counting"] and "spoken" not in view["counting"]
    for e in result["events"]:
        assert e["type"] != "show" or e["seat"] != 0 or e["show"] != view["counting"]["show"]
    # A claim is final: one above the true count scores the true count, and the computer pegs
    # the three claimed too many.
    over = ok("act", {"game": result["game"], "action": {"type": "count", "points": total + 3}})
    show = next(e for e in over["events"] if e["type"] == "show" and e["seat"] == 0)
    assert show["claimed"] == total + 3 and show["total"] == total
    assert "holds only" in show["say"]
    mine = [e for e in over["events"] if e["type"] == "score" and e["seat"] == 0 and e.get("show")]
    assert sum(e["points"] for e in mine) == total
    taken = [e for e in over["events"] if e["type"] == "score" and e["reason"] == "overclaim"]
    assert [(e["seat"], e["points"], e["source"]) for e in taken] == [(1, 3, "muggins")]
    assert taken[0]["say"] == "Muggins! The computer pegs the three points you claimed too many."
    assert not any(e["type"] == "score" and e["reason"] == "muggins" for e in over["events"])
    # An undercount: the computer takes what was missed, as muggins.
    before = view["scores"]
    after = ok("act", {"game": result["game"], "action": {"type": "count", "points": total - 2}})
    scores = [e for e in after["events"] if e["type"] == "score"]
    mine = [e for e in scores if e["seat"] == 0]
    muggins = [e for e in scores if e["reason"] == "muggins"]
    assert sum(e["points"] for e in mine if e.get("show")) == total - 2
    assert len(muggins) == 1 and muggins[0]["seat"] == 1 and muggins[0]["points"] == 2
    assert muggins[0]["say"].startswith("Muggins!")
    show = next(e for e in after["events"] if e["type"] == "show" and e["seat"] == 0)
    assert show["claimed"] == total - 2 and show["total"] == total
    assert after["view"]["scores"][1] >= before[1] + 2


def score(seat: int, points: int, reason: str, source: str, total: int) -> dict:
    return {"type": "score", "seat": seat, "points": points, "reason": reason, "source": source,
            "cards": [4], "total": total}


def test_narration_says_the_points_as_players_do():
    assert narration.play_words([{"reason": "thirty_one", "points": 2, "cards": [1]}]) == "thirty-one for two"
    royal = [{"reason": "pair_royal", "points": 6, "cards": [1, 2, 3]}]
    assert narration.play_words(royal) == "a pair royal for six"
    events = narration.narrate([
        {"type": "play", "seat": 1, "card": 4, "count": 15},
        score(1, 2, "fifteen", "pegging", 2),
        score(0, 1, "go", "pegging", 1),
        score(1, 1, "last_card", "pegging", 3),
        score(1, 2, "his_heels", "heels", 5),
    ])
    assert events[0]["say"] == "The computer lays the five of clubs: fifteen for two."
    assert events[1]["say"] == "" and events[1]["said"] is True
    assert events[2]["say"] == "You: one for the go."
    assert events[3]["say"] == "The computer: one for last."
    assert events[4]["say"] == "His heels: two for the computer."


def test_show_records_carry_labels_and_phrase_groups():
    result = ok("new_game", {"difficulty": "easy", "target": 121, "muggins": False, "seed": "show"})
    final, events = play_out(result)
    shows = [e for e in events if e["type"] == "show"]
    assert shows
    for show in shows:
        covered = sorted(i for phrase in show["phrases"] for i in phrase["items"])
        assert covered == list(range(len(show["items"])))
        assert all(item["label"] for item in show["items"])
        if show["items"]:
            assert ", ".join(p["text"] for p in show["phrases"]) == show["spoken"]


def test_skunks_are_called_out():
    from engine.game import new_game

    state = new_game(seed="skunk", target=61)
    state.winner, state.phase, state.to_act = 1, "over", None
    state.tally = [[20, 0, 0, 0, 0], [61, 0, 0, 0, 0]]
    assert narration.result(state)["skunk"] == "Skunk: you finished below 31."
    state.target = 121
    state.tally = [[55, 0, 0, 0, 0], [121, 0, 0, 0, 0]]
    assert narration.result(state)["skunk"] == "Double skunk: you finished below 61."
    state.tally = [[100, 0, 0, 0, 0], [121, 0, 0, 0, 0]]
    assert narration.result(state) == {"winner": 1, "title": "The computer wins", "score": "121 to 100",
                                   "skunk": "", "skunk_kind": "none"}


# --------------------------------------------------------------------------------------------
# Three and four players, pass and play, and the seat a reply is for


def unseen_by(result: dict) -> set[int]:
    """The cards the reply's seat must not see now: other seats' hands, their discards and the
    dealt crib card until the crib is shown, and the starter until it is turned."""
    state = from_json(result["game"])
    seat, n = result["view"]["seat"], state.players
    unseen = {c for s in range(n) if s != seat for c in state.held[s]}
    deal = fairdeal.deal(state.seed, n, state.dealer)
    if result["view"]["crib"] is None:
        unseen.update(c for s in range(n) if s != seat for c in (state.discards[s] or []))
        unseen.update(int(c) for c in deal.crib)
    if state.starter is None:
        unseen.add(int(deal.starter))
    return unseen


def assert_seat_sees_only_its_own(result: dict) -> None:
    """Neither the view nor this hand's events name a card the reply's seat cannot see."""
    if result["view"]["is_over"]:
        return
    events = result["events"]
    deals = [i for i, e in enumerate(events) if e["type"] == "deal"]
    this_hand = events[deals[-1]:] if deals else events
    unseen = unseen_by(result)
    assert not unseen & narration.view_cards(result["view"])
    assert not unseen & narration.event_cards(this_hand)
    held = from_json(result["game"]).held
    assert sorted(result["view"]["hand"]) == sorted(held[result["view"]["seat"]])


@pytest.mark.parametrize("players", [3, 4])
def test_new_game_for_three_and_four_players_has_the_table_fields(players):
    result = ok("new_game", {"players": players, "seed": f"multi-{players}", "target": 61})
    assert result["players"] == players and result["seat"] == 0
    assert result["humans"] == [0] and result["pass_and_play"] is False
    assert len(result["names"]) == players and result["names"][0] == "You"
    view = result["view"]
    assert view["players"] == players and view["seat"] == 0
    assert len(view["hand"]) == 5 and view["hand_sizes"] == [5] * players
    assert result["awaiting"] == "discard" and result["to_act"] == 0
    assert all(len(a["cards"]) == 1 for a in view["legal_actions"])
    hands = [e for e in result["events"] if e["type"] == "hand"]
    assert len(hands) == 1 and hands[0]["seat"] == 0  # only the person's own dealt hand
    assert_seat_sees_only_its_own(result)


@pytest.mark.parametrize("players", [3, 4])
def test_a_whole_multi_player_game_through_the_endpoints(players):
    result = ok("new_game", {"players": players, "seed": f"whole-{players}", "target": 61})
    final, events = play_out(result, check=assert_seat_sees_only_its_own)
    view = final["view"]
    assert view["is_over"] and final["awaiting"] == "over" and final["to_act"] is None
    assert max(view["scores"]) >= 61 and final["result"]["winner"] == view["winner"]
    if players == 4:
        assert view["scores"][0] == view["scores"][2] and view["scores"][1] == view["scores"][3]
    totals = [0] * (2 if players == 4 else players)
    for e in events:
        if e["type"] == "score":
            side = e["seat"] % 2 if players == 4 else e["seat"]
            totals[side] += e["points"]
            assert e["total"] == totals[side]
    assert [totals[s % 2 if players == 4 else s] for s in range(players)] == view["scores"]
    assert ok("resume_game", {"game": final["game"]})["view"] == view


def test_pass_and_play_each_reply_carries_only_the_acting_persons_hand():
    names = ["<b>Ann</b> & co", "Bob"]
    base = {"pass_and_play": True, "names": names}
    result = ok("new_game", {**base, "seed": "pass", "target": 61})
    assert result["pass_and_play"] is True and result["humans"] == [0, 1]
    assert result["names"] == names  # data, returned as given; the page escapes what it shows
    person = get_player("easy", seed="both")
    said = []
    for _ in range(3000):
        assert result["awaiting"] != "computer"
        assert not any(e["type"] == "hand" or "visible_to" in e for e in result["events"])
        assert_seat_sees_only_its_own(result)
        said += [e["say"] for e in result["events"]]
        if result["awaiting"] == "over":
            break
        seat = result["to_act"]
        if result["seat"] != seat:  # the device is handed over: the next person's own view
            result = ok("resume_game", {**base, "game": result["game"], "seat": seat})
            assert result["seat"] == seat and result["view"]["seat"] == seat
            assert_seat_sees_only_its_own(result)
        result = ok("act", {**base, "game": result["game"], "seat": seat,
                            "action": person_action(result, person)})
        assert result["seat"] == seat
    else:
        raise AssertionError("the game did not end")
    assert any("<b>Ann</b> & co" in text for text in said)
    assert names[final_winner(result)] in result["result"]["title"]


def final_winner(result: dict) -> int:
    return result["view"]["winner"]


@pytest.mark.parametrize("names", [
    [], ["Ann"], ["Ann", "Bob", "Cy"], "Ann and Bob", None, ["", "Bob"], ["Ann", "   "],
    [7, "Bob"], ["x" * 21, "Bob"], ["Ann", "Ann"], ["Ann", " ANN "],
])
def test_pass_and_play_refuses_bad_names(names):
    request = {"pass_and_play": True, "seed": "names"}
    if names is not None:
        request["names"] = names
    assert refused("new_game", request)


def test_pass_and_play_names_are_kept_with_the_game_and_only_for_two_players():
    good = {"pass_and_play": True, "names": ["Ann", "Bob"]}
    result = ok("new_game", {**good, "seed": "names-2"})
    assert json.loads(result["game"])["names"] == ["Ann", "Bob"]
    assert "two-player" in refused("new_game", {**good, "players": 3})
    # A later request cannot change who sits where: the game's own seating counts.
    again = ok("resume_game", {"game": result["game"], "pass_and_play": False, "names": ["Ann", "Ann"]})
    assert again["names"] == ["Ann", "Bob"] and again["pass_and_play"] is True
    assert refused("new_game", {**good, "pass_and_play": "yes"})
    long_ok = ok("new_game", {"pass_and_play": True, "names": ["x" * 20, "Bob"]})
    assert long_ok["names"][0] == "x" * 20


@pytest.mark.parametrize("names, kept", [
    (["Ann\u200b\u200b", "Bob"], ["Ann", "Bob"]),
    (["\u202eboB", "Ann"], ["boB", "Ann"]),
    (["  Ann   Lee ", "Bob"], ["Ann Lee", "Bob"]),
])
def test_pass_and_play_names_lose_invisible_characters(names, kept):
    assert ok("new_game", {"pass_and_play": True, "names": names, "seed": "vis"})["names"] == kept


@pytest.mark.parametrize("names", [["\u200b\u200b", "Bob"], ["\u202e", "Bob"], ["Ann", "\u2060 \u200d"]])
def test_pass_and_play_names_must_show_something(names):
    assert "needs a name" in refused("new_game", {"pass_and_play": True, "names": names, "seed": "vis"})


@pytest.mark.parametrize("request_extra", [
    {"players": 3, "seat": 1}, {"players": 4, "seat": 2}, {"players": 2, "seat": 1},
    {"players": 4, "seat": 4}, {"players": 3, "seat": -1}, {"players": 3, "seat": "0"},
    {"players": 4, "seat": True}, {"players": 2, "seat": 0.0},
    {"pass_and_play": True, "names": ["Ann", "Bob"], "seat": 2},
])
def test_a_seat_that_is_not_a_persons_is_refused(request_extra):
    message = refused("new_game", {"seed": "seat", **request_extra})
    assert "not a person's seat" in message


def test_resume_and_act_refuse_a_computers_seat():
    result = ok("new_game", {"players": 4, "seed": "seat-2"})
    for seat in (1, 2, 3):
        assert "not a person's seat" in refused("resume_game", {"game": result["game"], "seat": seat})
        action = {"type": "discard", "cards": result["view"]["hand"][:1]}
        assert "not a person's seat" in refused("act", {"game": result["game"], "seat": seat, "action": action})
    assert ok("resume_game", {"game": result["game"], "seat": 0})["view"] == result["view"]


def test_asking_for_pass_and_play_does_not_hand_over_the_computers_seat():
    """A request cannot choose the computer's move by calling the game two people's."""
    result = ok("new_game", {"difficulty": "hard", "seed": "steal"})
    throw = {"type": "discard", "cards": result["view"]["hand"][:2]}
    result = ok("act", {"game": result["game"], "action": throw})
    assert result["awaiting"] == "computer"
    theirs = {"type": "discard", "cards": sorted(from_json(result["game"]).held[1])[:2]}
    request = {"game": result["game"], "action": theirs, "seat": 1, "pass_and_play": True, "names": ["A", "B"]}
    assert "not a person's seat" in refused("act", request)
    assert "not a person's seat" in refused("resume_game", {"game": result["game"], "seat": 1,
                                                            "pass_and_play": True, "names": ["A", "B"]})
