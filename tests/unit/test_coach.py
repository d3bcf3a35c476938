"""The coach: hints from a seat's view, and reviews whose arithmetic is checked on chosen hands."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from engine import analysis, api, coach
from engine.cards import parse_card, parse_cards
from engine.players import get_player
from engine.record import COMPUTER_SEED
from engine.scoring import score_show
from tests.unit.test_game import rig

PONE_CARDS = "5H 5S 5D JC KD 9S"
DEALER_CARDS = "10C QH JD KC 4H 2D"
STARTER = "AS"


def finish_hand(state, person_moves):
    """Play on until the hand ends: seat 0 takes its moves in turn (then its first legal action),
    seat 1 is the hard computer as the game seats it."""
    computer = get_player("hard", seed=COMPUTER_SEED)
    number = state.hand_number
    moves = list(person_moves)
    while state.hand_number == number and not state.is_over:
        view = state.view(state.to_act)
        if state.to_act == 1:
            state.apply(computer.choose(view, view["legal_actions"]))
        elif moves and state.phase != "count":
            state.apply(moves.pop(0))
        else:
            state.apply(view["legal_actions"][0])
    return state


def exact_hand_value(kept):
    """The average show of four kept cards over every starter they leave, worked out here."""
    dealt = set(parse_cards(PONE_CARDS))
    starters = [c for c in range(52) if c not in dealt]
    return Fraction(sum(score_show(kept, s).total for s in starters), len(starters))


@pytest.fixture
def pone_hand(monkeypatch):
    """Hand 1 dealt by seat 1 (the hard computer) to seat 0, a person, with known cards."""
    return rig(monkeypatch, [([PONE_CARDS, DEALER_CARDS], STARTER)], dealer=1, seats=["person", "hard"])


def test_a_discard_costs_exactly_what_it_gives_up(pone_hand):
    hint = coach.discard_hint(pone_hand.view(0))
    options = analysis.discard_options(parse_cards(PONE_CARDS), is_dealer=False)
    assert [o["throw"] for o in hint["options"]] == [list(o.throw) for o in options]
    best = options[0]
    thrown = parse_cards("5H 5S")  # two fives into the dealer's crib: a pone's worst habit
    chosen = next(o for o in options if list(o.throw) == sorted(thrown))
    kept = [c for c in parse_cards(PONE_CARDS) if c not in thrown]
    assert abs(chosen.hand_ev - float(exact_hand_value(kept))) < 1e-9
    expected = (best.hand_ev - best.crib_ev) - (chosen.hand_ev - chosen.crib_ev)
    finish_hand(pone_hand, [{"type": "discard", "cards": thrown}])
    review = coach.review_hand(pone_hand, 1, 0)
    decision = review["decisions"][0]
    assert decision["kind"] == "discard" and decision["threw"] == sorted(thrown)
    assert decision["best"] == list(best.throw)
    assert decision["loss"] == round(expected, 2) == 15.81
    assert review["discard"] == decision["loss"]
    listed = next(o for o in hint["options"] if o["throw"] == sorted(thrown))
    assert listed["loss"] == decision["loss"]


def test_leading_a_five_gives_away_a_fifteen(pone_hand):
    pone_hand.apply({"type": "discard", "cards": parse_cards("JC 9S")})
    computer = get_player("hard", seed=COMPUTER_SEED)
    view = pone_hand.view(1)
    pone_hand.apply(computer.choose(view, view["legal_actions"]))
    hint = coach.play_hint(pone_hand.view(0))
    by_card = {c["name"]: c for c in hint["cards"]}
    assert hint["cards"][0]["name"] != "5H" and hint["cards"][0]["loss"] == 0
    assert by_card["5H"]["loss"] > 0
    assert any("fifteen" in reason for reason in by_card["5H"]["reasons"])
    finish_hand(pone_hand, [{"type": "play", "card": parse_card("5H")}])
    review = coach.review_hand(pone_hand, 1, 0)
    lead = next(d for d in review["decisions"] if d["kind"] == "play")
    assert lead["card"] == parse_card("5H") and lead["count"] == 0
    assert lead["gave"] == 2 and lead["made"] == 0  # the dealer's ten made fifteen for two
    assert lead["best"] == parse_card(hint["cards"][0]["name"]) and lead["loss"] == by_card["5H"]["loss"]
    assert review["pegging"] >= lead["loss"] > 0


def forget_prepared():
    from engine import host

    host._PREPARED.update({"key": None, "hint": None})
    coach._RANKED.results.clear()
    coach._RANKED.order.clear()


def test_a_prepared_hint_is_the_same_hint_and_marks_nothing():
    reply = call("new_game", {"difficulty": "hard", "seed": "coach-prepare", "target": 61})["result"]
    forget_prepared()
    cold = call("hint", {"game": reply["game"]})["result"]
    forget_prepared()
    prepared = call("prepare_hint", {"game": reply["game"]})
    assert prepared == {"ok": True, "result": {"ready": True}}
    assert "hinted" not in json.loads(reply["game"])
    assert call("hint", {"game": reply["game"]})["result"] == cold
    throw = cold["hint"]["options"][0]["throw"]
    after = call("act", {"game": cold["game"], "action": {"type": "discard", "cards": throw}})["result"]
    if after["awaiting"] == "computer":
        assert call("prepare_hint", {"game": after["game"]})["result"] == {"ready": False}
        after = call("computer_move", {"game": after["game"]})["result"]
    assert after["awaiting"] == "play"
    assert call("prepare_hint", {"game": after["game"]})["result"] == {"ready": True}
    played = call("hint", {"game": after["game"]})["result"]
    forget_prepared()
    assert call("hint", {"game": after["game"]})["result"] == played


def test_hints_only_for_the_decision_on_offer(pone_hand):
    with pytest.raises(ValueError, match="no card to lay"):
        coach.play_hint(pone_hand.view(0))
    pone_hand.apply({"type": "discard", "cards": parse_cards("JC 9S")})
    view = pone_hand.view(1)
    pone_hand.apply(get_player("hard", seed=COMPUTER_SEED).choose(view, view["legal_actions"]))
    assert pone_hand.phase == "play" and pone_hand.to_act == 0
    with pytest.raises(ValueError, match="no discard"):
        coach.discard_hint(pone_hand.view(0))
    assert coach.play_hint(pone_hand.view(0))["cards"]


def test_a_muggins_count_that_misses_points_is_reviewed():
    state = api_game(muggins=True)
    computer = get_player("easy", seed=1)
    while state.hand_number == 1:
        view = state.view(state.to_act)
        if state.to_act == 0 and state.phase == "count":
            state.apply({"type": "count", "points": 0})
        else:
            state.apply(computer.choose(view, view["legal_actions"]) if state.to_act == 0 else
                        get_player("hard", seed=COMPUTER_SEED).choose(view, view["legal_actions"]))
    review = coach.review_hand(state, 1, 0)
    counts = [d for d in review["decisions"] if d["kind"] == "count"]
    assert counts and all(d["claimed"] == 0 and d["loss"] == d["total"] for d in counts)
    hand = next(d for d in counts if d["show"] == "hand")
    assert hand["counted"] == hand["kept"] and len(hand["counted"]) == 4  # what the calculator is handed
    assert review["miscount"] == sum(d["total"] for d in counts)
    assert review["total"] == round(review["discard"] + review["pegging"] + review["miscount"], 2)


def api_game(**options):
    from engine.game import new_game

    return new_game(seed="coach-muggins", seats=["person", "hard"], **options)


def test_a_whole_game_review_adds_up():
    state = api_game(target=61)
    person, computer = get_player("easy", seed=5), get_player("hard", seed=COMPUTER_SEED)
    while not state.is_over:
        view = state.view(state.to_act)
        state.apply((person if state.to_act == 0 else computer).choose(view, view["legal_actions"]))
    review = coach.review_game(state, 0)
    assert len(review["hands"]) == state.hand_number
    for key in ("discard", "pegging", "miscount"):
        assert abs(review[key] - sum(h[key] for h in review["hands"])) < 0.05
    assert review["worst"] == sorted(review["worst"], key=lambda d: -d["loss"])
    assert len(review["worst"]) <= coach.WORST_KEPT and all(d["loss"] > 0 for d in review["worst"])


def call(name, request):
    return json.loads(api.call(name, json.dumps(request)))


def test_a_hint_marks_the_game_and_the_statistics():
    reply = call("new_game", {"difficulty": "hard", "seed": "coach-api", "target": 61})["result"]
    assert "hinted" not in json.loads(reply["game"])
    hinted = call("hint", {"game": reply["game"]})
    assert hinted["ok"], hinted
    assert hinted["result"]["hint"]["phase"] == "discard" and len(hinted["result"]["hint"]["options"]) == 15
    game = hinted["result"]["game"]
    assert json.loads(game)["hinted"] is True
    best = hinted["result"]["hint"]["options"][0]["throw"]
    reply = call("act", {"game": game, "action": {"type": "discard", "cards": best}})["result"]
    assert json.loads(reply["game"])["hinted"] is True
    refused = call("hint", {"game": reply["game"]}) if reply["awaiting"] == "computer" else None
    if refused is not None:
        assert not refused["ok"] and "only for your" in refused["error"]["message"]


def test_review_endpoints_answer_with_the_cards_they_name():
    reply = call("new_game", {"difficulty": "easy", "seed": "coach-review", "target": 61})["result"]
    game = reply["game"]
    person = get_player("easy", seed=2)
    from engine.record import from_json

    while True:
        state = from_json(game)
        if state.hand_number > 1 or state.is_over:
            break
        if reply["awaiting"] == "computer":
            reply = call("computer_move", {"game": game})["result"]
        else:
            view = state.view(0)
            reply = call("act", {"game": game, "action": person.choose(view, view["legal_actions"])})["result"]
        game = reply["game"]
    review = call("review_hand", {"game": game})
    assert review["ok"], review
    result = review["result"]
    assert result["hand_number"] == 1 and result["decisions"][0]["kind"] == "discard"
    assert all(str(c) in result["cards"] for c in result["decisions"][0]["cards"])
    whole = call("review_game", {"game": game})["result"]
    assert whole["over"] is False and whole["hands"][0]["total"] == result["total"]
    early = call("review_hand", {"game": game, "hand_number": 2})
    assert not early["ok"] and early["error"]["message"] == "That hand is not over yet."
