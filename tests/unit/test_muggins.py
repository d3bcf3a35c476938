"""Muggins: claims in the show and in the play, what a claim short or over costs, saves and codes."""

from __future__ import annotations

import json

import pytest

from engine import api, coach, host, record_format, share
from engine.cards import parse_card
from engine.game import IllegalActionError, new_game
from engine.record import from_json
from engine.narration import narrate
from engine.players import get_player
from engine.record import COMPUTER_SEED
from engine.scoring import score_play
from tests.unit.test_game import SHOW_DEAL, discard, rig, scores_in, set_score

# A muggins game saved before people claimed their points in the play: hand 2, three cards laid,
# the person (seat 0) to lay a card.
OLD_SAVE = (
    '{"check":"e9372bc985dd7318","format":"cribbage-game","hands":[{"actions":[{"cards":[38,49],'
    '"type":"discard"},{"cards":[6,29],"type":"discard"},{"card":28,"type":"play"},{"card":43,'
    '"type":"play"},{"card":16,"type":"play"},{"card":45,"type":"play"},{"card":21,"type":"play"},'
    '{"card":41,"type":"play"},{"card":50,"type":"play"},{"card":51,"type":"play"},{"points":4,'
    '"type":"count"},{"points":8,"type":"count"},{"points":4,"type":"count"}],"commitment":'
    '"24b8e707fbe8b35d90830b05f7a8a4af6fa6242aba8304b776dea2ec3a97f84f"},{"actions":[{"cards":'
    '[29,42],"type":"discard"},{"cards":[19,25],"type":"discard"},{"card":5,"type":"play"},'
    '{"card":11,"type":"play"},{"card":18,"type":"play"}],"commitment":'
    '"2077ae35277b61235bfe9e7abde64df0b581d810e3bd667a7f89f9298f51e1e4"}],"muggins":true,'
    '"names":null,"players":2,"practice":true,"seats":["person","easy"],"seed":"old-muggins-save",'
    '"target":121,"version":2}')


def lay(state, seat, card):
    """Lay a card for a person's seat; with pegging claims the seat must then claim."""
    assert state.phase == "play" and state.to_act == seat, (state.phase, state.to_act, seat)
    events = state.apply({"type": "play", "card": parse_card(card)})
    assert state.phase == "claim" and state.to_act == seat
    assert [e["type"] for e in events] == ["play"]  # nothing is scored before the claim
    return events


def claim(state, points):
    return state.apply({"type": "claim", "points": points})


def claimed_game(monkeypatch, **options):
    """SHOW_DEAL with pegging claims: dealer seat 0, pone seat 1, both people."""
    state = rig(monkeypatch, [SHOW_DEAL], muggins=True, **options)
    assert state.peg_claims
    discard(state, 0, "7C JD")
    discard(state, 1, "QS AD")
    return state


def test_a_person_claims_every_card_and_the_question_gives_nothing_away(monkeypatch):
    state = claimed_game(monkeypatch)
    lay(state, 1, "9H")
    assert state.legal_actions() == [{"type": "claim", "points": n} for n in range(30)]
    view = state.view(1)
    assert view["claiming"] == {"seat": 1, "card": parse_card("9H")} and view["phase"] == "claim"
    assert state.view(0)["claiming"] == view["claiming"] and state.view(0)["legal_actions"] == []
    events = claim(state, 0)
    assert events[0] == {"type": "claim", "seat": 1, "card": parse_card("9H"), "claimed": 0, "total": 0,
                         "items": []}
    assert scores_in(events) == [] and state.phase == "play" and state.to_act == 0


def test_exact_short_and_over_claims_in_the_play(monkeypatch):
    state = claimed_game(monkeypatch)
    lay(state, 1, "9H")
    claim(state, 0)
    lay(state, 0, "8D")
    claim(state, 0)
    lay(state, 1, "6S")
    claim(state, 0)
    lay(state, 0, "8H")  # 31
    events = claim(state, 2)
    assert scores_in(events) == [(0, 2, "thirty_one")] and events[-1]["type"] == "reset"
    lay(state, 1, "4C")
    claim(state, 0)
    lay(state, 0, "3S")
    claim(state, 0)
    lay(state, 1, "5D")  # a run of three: claimed one, the dealer takes the two missed
    events = claim(state, 1)
    assert scores_in(events) == [(1, 1, "count"), (0, 2, "muggins")]
    assert [e["source"] for e in events if e["type"] == "score"] == ["pegging", "muggins"]
    lay(state, 0, "2S")  # a run of four: claimed nine, the pone pegs the five too many
    events = claim(state, 9)
    assert events[0]["claimed"] == 9 and events[0]["total"] == 4
    assert scores_in(events)[:3] == [(0, 4, "run"), (1, 5, "overclaim"), (0, 1, "last_card")]
    over = [e for e in events if e.get("reason") == "overclaim"][0]
    assert over["source"] == "muggins" and "show" not in over
    assert state.phase == "count"
    assert state.tally[0][0] == 2 + 4 + 1 and state.tally[0][4] == 2
    assert state.tally[1][0] == 1 and state.tally[1][4] == 5


def test_the_claimers_true_points_win_before_any_overclaim_is_paid(monkeypatch):
    state = claimed_game(monkeypatch)
    set_score(state, 0, 117)
    for seat, card in ((1, "9H"), (0, "8D"), (1, "6S")):
        lay(state, seat, card)
        claim(state, 0)
    lay(state, 0, "8H")  # 31 for two, claimed as twenty: 119, not yet home
    events = claim(state, 20)
    assert scores_in(events)[:2] == [(0, 2, "thirty_one"), (1, 18, "overclaim")]
    lay(state, 1, "4C")
    claim(state, 0)
    set_score(state, 0, 119)
    lay(state, 0, "3S")  # nothing, claimed as two: the pone pegs them, far from home
    events = claim(state, 2)
    assert scores_in(events) == [(1, 2, "overclaim")] and not state.is_over
    lay(state, 1, "5D")
    claim(state, 3)
    lay(state, 0, "2S")  # a run of four takes the dealer home: the five claimed too many never count
    events = claim(state, 9)
    assert state.winner == 0 and not any(e.get("reason") == "overclaim" for e in events)


def test_an_overclaim_can_win_the_game_for_the_next_seat(monkeypatch):
    state = claimed_game(monkeypatch)
    set_score(state, 1, 118)
    lay(state, 1, "9H")
    claim(state, 0)
    lay(state, 0, "8D")
    events = claim(state, 3)
    assert scores_in(events) == [(1, 3, "overclaim")] and state.winner == 1
    assert [e["type"] for e in events][-2:] == ["hand_end", "game_over"]


def test_computers_cards_are_scored_at_once_and_never_asked(monkeypatch):
    state = rig(monkeypatch, [SHOW_DEAL], muggins=True, seats=["person", "easy"])
    discard(state, 0, "7C JD")
    discard(state, 1, "QS AD")
    events = state.apply({"type": "play", "card": parse_card("9H")})  # the computer's card
    assert state.phase == "play" and state.to_act == 0 and [e["type"] for e in events] == ["play"]
    lay(state, 0, "8D")
    claim(state, 0)
    state.apply({"type": "play", "card": parse_card("6S")})
    lay(state, 0, "8H")
    assert scores_in(claim(state, 2)) == [(0, 2, "thirty_one")]


@pytest.mark.parametrize("bad", [{"type": "claim", "points": 30}, {"type": "claim", "points": -1},
                                 {"type": "claim", "points": True}, {"type": "claim", "points": "2"},
                                 {"type": "claim"}, {"type": "count", "points": 2},
                                 {"type": "play", "card": 3}, {"type": "claim", "points": 1, "seat": 0}])
def test_bad_claims_are_refused_and_change_nothing(monkeypatch, bad):
    state = claimed_game(monkeypatch)
    lay(state, 1, "9H")
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply(bad)
    assert state.to_json() == before


def test_a_claim_is_refused_outside_the_claim_phase(monkeypatch):
    state = claimed_game(monkeypatch)
    with pytest.raises(IllegalActionError, match="claim action is not allowed now"):
        state.apply({"type": "claim", "points": 0})


def test_pegging_claims_need_muggins():
    with pytest.raises(ValueError, match="only with muggins"):
        new_game(seed="x", peg_claims=True)
    with pytest.raises(ValueError):
        new_game(seed="x", muggins=True, peg_claims=1)
    assert new_game(seed="x", muggins=True).peg_claims
    assert not new_game(seed="x", muggins=True, peg_claims=False).peg_claims
    assert not new_game(seed="x").peg_claims


@pytest.mark.parametrize("players", [2, 3, 4])
def test_missed_and_overclaimed_points_go_to_the_next_seat_clockwise(players):
    """Each person's first card that scores is claimed two over, the next one short by all of it."""
    state = new_game(seed=f"next-seat-{players}", muggins=True, players=players)
    chooser = get_player("hard", seed=1)
    seen = {"overclaim": 0, "muggins": 0}
    while not state.is_over and min(seen.values()) < 3:
        seat = state.to_act
        view = state.view(seat)
        if state.phase == "claim":
            total = score_play([c for _, c in view["current"]]).total
            points = total + 2 if seen["overclaim"] <= seen["muggins"] else 0
            events = claim(state, points)
            paid = [e for e in events if e["type"] == "score" and e["reason"] in seen]
            if points != total:
                assert paid and paid[0]["seat"] == (seat + 1) % players
                assert paid[0]["points"] == abs(points - total)
                seen[paid[0]["reason"]] += 1
            if players == 4:
                scores = state.scores
                assert scores[0] == scores[2] and scores[1] == scores[3]
            continue
        state.apply(chooser.choose(view, view["legal_actions"]))
    assert min(seen.values()) >= 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_computers_seated_as_people_claim_exactly(players):
    """Every engine player in every seat of a muggins game: no point is ever missed or over-claimed."""
    for i in range(3):
        state = new_game(seed=f"exact-{players}-{i}", muggins=True, players=players)
        chooser = get_player(("easy", "hard", "expert")[i], seed=i)
        kinds = set()
        while not state.is_over:
            view = state.view(state.to_act)
            action = chooser.choose(view, view["legal_actions"])
            kinds.add(action["type"])
            for e in state.apply(action):
                assert e["type"] != "score" or e["reason"] not in ("muggins", "overclaim")
                assert e["type"] != "claim" or e["claimed"] == e["total"]
        assert {"claim", "count"} <= kinds


def test_games_with_claims_save_load_and_share(monkeypatch):
    state = new_game(seed="save-claims", muggins=True, seats=["person", "hard"])
    person = get_player("hard", seed=2)
    computer = get_player("hard", seed=COMPUTER_SEED)
    stops = 0
    while not state.is_over and state.hand_number < 3:
        seat = state.to_act
        view = state.view(seat)
        if state.phase == "claim":
            stops += 1
            text = state.to_json()
            assert json.loads(text)["peg_claims"] is True
            assert from_json(text).to_json() == text  # saved mid-claim
            again = share.decode(share.encode(state))
            assert again.to_json() == text and again.peg_claims
            total = score_play([c for _, c in view["current"]]).total
            claim(state, total + 1 if stops % 3 == 0 else total)
            continue
        player = person if state.seats[seat] == "person" else computer
        state.apply(player.choose(view, view["legal_actions"]))
    assert stops >= 8
    assert from_json(state.to_json()).to_json() == state.to_json()


def test_a_muggins_game_saved_before_pegging_claims_loads_and_plays_on_as_before():
    state = from_json(OLD_SAVE)
    assert state.muggins and not state.peg_claims and state.hand_number == 2 and state.to_act == 0
    assert state.to_json() == OLD_SAVE  # no new field written for it
    card = state.legal_actions()[0]
    events = state.apply(card)
    assert state.phase != "claim" and events[0]["type"] == "play"
    # Its share code, made without the flag, gives the game back the same.
    assert share.decode(share.encode(from_json(OLD_SAVE))).to_json() == OLD_SAVE


def test_a_saved_game_may_not_claim_in_the_play_without_muggins():
    data = json.loads(new_game(seed="no-muggins").to_json())
    data["peg_claims"] = True
    data["check"] = record_format.record_check(data)
    with pytest.raises(ValueError, match="peg_claims"):
        from_json(json.dumps(data))
    data = json.loads(new_game(seed="muggins", muggins=True).to_json())
    data["peg_claims"] = False
    data["check"] = record_format.record_check(data)
    with pytest.raises(ValueError, match="peg_claims"):
        from_json(json.dumps(data))


def test_a_code_flagged_with_claims_but_no_muggins_is_refused():
    code = share.encode(new_game(seed="flag", seats=["person", "easy"]))
    body = share._read_seats(code)[0]
    forged = bytes([body[0], body[1] | 64]) + body[2:]
    import hashlib
    import base64
    check = hashlib.sha256(forged).digest()[:share.CHECK_BYTES]
    text = base64.urlsafe_b64encode(forged + check).decode().rstrip("=")
    with pytest.raises(share.CodeError, match="rules"):
        share.decode(share.CODE_PREFIX + text)


def test_claims_are_said_as_players_say_them():
    nine, five = parse_card("9H"), parse_card("5D")
    run = [{"reason": "run", "points": 3, "cards": [1, 2, 3]}]
    events = narrate([
        {"type": "claim", "seat": 0, "card": nine, "claimed": 0, "total": 0, "items": []},
        {"type": "claim", "seat": 1, "card": five, "claimed": 3, "total": 3, "items": run},
        {"type": "score", "seat": 1, "points": 3, "reason": "run", "source": "pegging", "cards": [1, 2, 3],
         "total": 3},
        {"type": "claim", "seat": 0, "card": five, "claimed": 1, "total": 3, "items": run},
        {"type": "score", "seat": 0, "points": 1, "reason": "count", "source": "pegging", "cards": [five],
         "total": 1},
        {"type": "score", "seat": 1, "points": 2, "reason": "muggins", "source": "muggins", "cards": [five],
         "total": 5},
        {"type": "claim", "seat": 0, "card": five, "claimed": 5, "total": 3, "items": run},
        {"type": "score", "seat": 0, "points": 3, "reason": "run", "source": "pegging", "cards": [1, 2, 3],
         "total": 4},
        {"type": "score", "seat": 1, "points": 2, "reason": "overclaim", "source": "muggins", "cards": [five],
         "total": 7},
        {"type": "claim", "seat": 0, "card": nine, "claimed": 4, "total": 0, "items": []},
    ])
    says = [e["say"] for e in events]
    assert says[0] == "You claim no points for the nine of hearts."
    assert says[1] == "The computer claims three: a run of three for three." and says[2] == ""
    assert says[3] == "You claim one, but the five of diamonds made three: a run of three for three."
    assert says[4] == "You peg one."
    assert says[5] == "Muggins! The computer takes the two points you missed."
    assert says[6] == "You claim five, but the five of diamonds made only three: a run of three for three."
    assert says[7] == ""
    assert says[8] == "Muggins! The computer pegs the two points you claimed too many."
    assert says[9] == "You claim four, but the nine of hearts made no points."


def test_the_page_is_asked_for_a_claim_and_never_shown_the_points():
    def ok(name, request):
        reply = json.loads(api.call(name, json.dumps(request)))
        assert reply["ok"], reply
        return reply["result"]

    result = ok("new_game", {"difficulty": "easy", "target": 121, "muggins": True, "seed": "page-claim"})
    person = get_player("easy", seed="p")
    for _ in range(60):
        if result["awaiting"] == "claim":
            break
        if result["awaiting"] == "computer":
            result = ok("computer_move", {"game": result["game"], "difficulty": "easy"})
        else:
            view = result["view"]
            result = ok("act", {"game": result["game"], "action": person.choose(view, view["legal_actions"])})
    assert result["awaiting"] == "claim"
    view = result["view"]
    assert view["legal_actions"] == [] and view["claiming"]["seat"] == 0
    assert not any(e["type"] == "score" and e["seat"] == 0 for e in result["events"][-1:])
    total = score_play([c for _, c in view["current"]]).total
    after = ok("act", {"game": result["game"], "action": {"type": "claim", "points": total + 4}})
    said = [e for e in after["events"] if e["type"] == "claim"][0]["say"]
    assert said.startswith("You claim " ) and "made" in said
    over = [e for e in after["events"] if e["type"] == "score" and e["reason"] == "overclaim"]
    assert [(e["seat"], e["points"]) for e in over] == [(1, 4)]
    assert over[0]["say"] == "Muggins! The computer pegs the four points you claimed too many."
    assert host.said(from_json(after["game"]))  # the game log rebuilds a game with claims


def test_the_coach_reviews_claims_in_the_play():
    state = new_game(seed="coach-claims", muggins=True, seats=["person", "easy"])
    person = get_player("hard", seed=3)
    computer = get_player("easy", seed=COMPUTER_SEED)
    wrong = 0
    while state.hand_number == 1:
        seat = state.to_act
        view = state.view(seat)
        if state.phase == "claim":
            total = score_play([c for _, c in view["current"]]).total
            wrong += 1
            claim(state, total + 1)  # every claim one too many
            continue
        player = person if seat == 0 else computer
        state.apply(player.choose(view, view["legal_actions"]))
    review = coach.review_hand(state, 1, 0)
    claims = [d for d in review["decisions"] if d["kind"] == "claim"]
    assert len(claims) == wrong and all(d["loss"] == 1.0 and d["claimed"] == d["total"] + 1 for d in claims)
    assert review["miscount"] >= wrong
    plays = [d for d in review["decisions"] if d["kind"] == "play"]
    assert all(d["made"] >= 0 for d in plays)
    assert coach.review_game(state, 0)["miscount"] >= wrong
