"""The game state: hand-checked deals, illegal actions, saved games and what each seat may see."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest

import engine.game as game
from engine import fairdeal, record, record_format
from engine.cards import parse_card, parse_cards
from engine.players import get_player
from engine.game import (
    GameFormatError,
    IllegalActionError,
    events_for,
    new_game,
)
from engine.record import from_json
from engine.scoring import score_show
from engine.seeds import derive_seed

PEGGING, HAND, CRIB, HEELS, MUGGINS = range(5)
RIG_SEED = "rigged"


# ------------------------------------------------------------------------------------------
# Helpers: a game whose deals are chosen by the test


def rig(monkeypatch, deals, dealer=0, players=2, **options):
    """Start a game in which hand k (1-based) is deals[k-1]: (hands by seat, starter[, crib]).

    The cut is fixed so that `dealer` deals first; hands past the list are dealt at random.
    Both the deal and the cut are swapped out where the game looks them up, so saving and
    loading such a game checks against the same rigged deals.
    """
    by_seed = {derive_seed(RIG_SEED, k + 1): spec for k, spec in enumerate(deals)}

    def fake_deal(seed, n, dlr):
        if seed in by_seed:
            spec = by_seed[seed]
            hands = [parse_cards(h) for h in spec[0]]
            crib = parse_cards(spec[2]) if len(spec) > 2 else []
            starter = parse_card(spec[1])
        else:
            deck = list(range(52))
            random.Random(seed).shuffle(deck)
            each = game.CARDS_EACH[n]
            hands = [deck[s * each:(s + 1) * each] for s in range(n)]
            crib = deck[n * each:n * each + (1 if n == 3 else 0)]
            starter = deck[n * each + len(crib)]
        used = [c for h in hands for c in h] + crib + [starter]
        assert len(set(used)) == len(used), "a rigged deal uses a card twice"
        return SimpleNamespace(hands=hands, crib=crib, starter=starter, deck=None)

    def fake_cut(seed, n):
        return SimpleNamespace(cuts=[(s, 13 * (s % 4) + (0 if s == dealer else 7)) for s in range(n)],
                               dealer=dealer)

    monkeypatch.setattr(game, "_dealt", fake_deal)
    monkeypatch.setattr(game, "_cut", fake_cut)
    return new_game(seed=RIG_SEED, players=players, **options)


def discard(state, seat, cards):
    assert state.phase == "discard" and state.to_act == seat
    return state.apply({"type": "discard", "cards": parse_cards(cards)})


def play(state, seat, card):
    assert state.phase == "play" and state.to_act == seat, (state.phase, state.to_act, seat)
    return state.apply({"type": "play", "card": parse_card(card)})


def kinds(events):
    return [e["type"] for e in events]


def scores_in(events):
    return [(e["seat"], e["points"], e["reason"]) for e in events if e["type"] == "score"]


def set_score(state, seat, points):
    """Put a seat on a given score before the hand's first point (for endgame scenarios)."""
    state.tally[seat][PEGGING] = points


# Dealer is seat 0, pone seat 1 in the two-player scenarios below.
GO_DEAL = (["KC QD 5S 4H AH 6D", "10S 9H 8C 7D 2C 3C"], "2D")
THIRTY_ONE_DEAL = (["QH 6D KD 5H 2C 3C", "KS 5C QC 6H 9C 8C"], "2D")
SHOW_DEAL = (["2S 3S 8D 8H 7C JD", "4C 5D 6S 9H QS AD"], "KC")
HEELS_DEAL = (["2S 3S 8D 8H 7C 9D", "4C 5D 6S 9H QS AD"], "JH")


def go_hand(state):
    """Play GO_DEAL: go at 29 and at 30, a reset after each, and the last card."""
    discard(state, 0, "AH 6D")
    discard(state, 1, "2C 3C")
    log = []
    log += play(state, 1, "10S")
    log += play(state, 0, "KC")
    log += play(state, 1, "9H")
    log += play(state, 0, "QD")
    log += play(state, 1, "8C")
    log += play(state, 0, "5S")
    log += play(state, 1, "7D")
    log += play(state, 0, "4H")
    return log


def show_hand_play(state):
    """Discards and the play of SHOW_DEAL: pone pegs 3 (a run), dealer 7 (31, run of four, last)."""
    discard(state, 0, "7C JD")
    discard(state, 1, "QS AD")
    log = []
    log += play(state, 1, "9H")
    log += play(state, 0, "8D")
    log += play(state, 1, "6S")
    log += play(state, 0, "8H")   # 31 for two
    log += play(state, 1, "4C")
    log += play(state, 0, "3S")
    log += play(state, 1, "5D")   # run of three
    log += play(state, 0, "2S")   # run of four, and the last card
    return log


def assert_events_sum(state, events):
    """The score by seat is the sum of the score events seen so far (all from this game's start)."""
    totals = [0] * state.players
    for e in events:
        if e["type"] == "score":
            totals[e["seat"]] += e["points"]
    assert totals == [sum(t) for t in state.tally]


# ------------------------------------------------------------------------------------------
# Starting a game


def test_new_game_cut_and_first_deal():
    state = new_game(seed="first")
    types = kinds(state.start_events)
    assert types == ["cut", "deal", "hand", "hand"]
    cut = state.start_events[0]
    assert fairdeal.verify(cut["seed"], cut["commitment"])
    redrawn = fairdeal.cut_for_deal(cut["seed"], 2)
    assert cut["dealer"] == redrawn.dealer == state.dealer
    final_round = cut["cuts"][-2:]
    dealer_card = dict(final_round)[state.dealer]
    other_card = dict(final_round)[1 - state.dealer]
    assert dealer_card % 13 < other_card % 13  # lowest rank deals, ties were cut again
    assert state.phase == "discard" and state.to_act == 0 and state.hand_number == 1
    assert state.scores == [0, 0] and not state.is_over and state.winner is None
    deal = fairdeal.deal(state.seed, 2, state.dealer)
    assert state.held == [sorted(h) for h in deal.hands]
    assert state.start_events[1]["commitment"] == fairdeal.commitment(state.seed)


def test_seeded_games_replay_exactly_and_int_seed_equals_text():
    a, b, c = new_game(seed=42), new_game(seed="42"), new_game(seed="43")
    assert a.to_json() == b.to_json()
    assert a.seed == derive_seed("42", 1) and a.cut["seed"] == derive_seed("42", "cut")
    assert a.seed != c.seed


def test_unseeded_games_draw_fresh_seeds():
    a, b = new_game(), new_game()
    assert a.seed != b.seed and a.cut["seed"] != b.cut["seed"]
    assert not a.practice and fairdeal.is_normal_seed(a.base_seed) and a.base_seed != b.base_seed
    assert a.seed == derive_seed(a.base_seed, 1)  # every deal follows from the game's own seed
    assert from_json(a.to_json()).to_json() == a.to_json()


@pytest.mark.parametrize("kwargs", [
    {"players": 5}, {"players": 1}, {"players": "2"}, {"players": True}, {"target": 100},
    {"target": "121"}, {"muggins": 1}, {"seed": 1.5}, {"seed": ""}, {"seed": True}, {"seed": "x" * 201},
])
def test_new_game_rejects_bad_options(kwargs):
    with pytest.raises(ValueError):
        new_game(**kwargs)


def test_discard_order_and_legal_actions():
    state = new_game(seed="discards")
    legal = state.legal_actions()
    assert len(legal) == 15
    assert all(a["type"] == "discard" and a["cards"] == sorted(a["cards"]) for a in legal)
    events = state.apply(legal[3])
    assert events == [{"type": "discard", "seat": 0, "count": 2}]
    assert state.to_act == 1 and len(state.held[0]) == 4 and state.discards[0] == legal[3]["cards"]
    events = state.apply(state.legal_actions()[0])
    assert kinds(events)[:2] == ["discard", "starter"]
    assert state.phase == "play" and state.to_act == state.pone
    assert len(state.crib) == 4 and state.starter == fairdeal.deal(state.seed, 2, state.dealer).starter


# ------------------------------------------------------------------------------------------
# The starter and the play


def test_his_heels_scores_two_for_the_dealer_at_once(monkeypatch):
    state = rig(monkeypatch, [HEELS_DEAL])
    discard(state, 0, "7C 9D")
    events = discard(state, 1, "QS AD")
    assert kinds(events) == ["discard", "starter", "score"]
    assert events[2] == {"type": "score", "seat": 0, "points": 2, "reason": "his_heels", "source": "heels",
                         "cards": [parse_card("JH")], "total": 2}
    assert state.scores == [2, 0] and state.tally[0][HEELS] == 2
    assert state.phase == "play" and state.to_act == 1


@pytest.mark.parametrize("pone_score, skunk", [(91, "none"), (90, "skunk"), (61, "skunk"),
                                               (60, "double_skunk"), (0, "double_skunk")])
def test_his_heels_can_win_and_skunk_lines(monkeypatch, pone_score, skunk):
    state = rig(monkeypatch, [HEELS_DEAL])
    set_score(state, 0, 119)
    set_score(state, 1, pone_score)
    discard(state, 0, "7C 9D")
    events = discard(state, 1, "QS AD")
    assert kinds(events) == ["discard", "starter", "score", "hand_end", "game_over"]
    assert state.is_over and state.phase == "over" and state.to_act is None and state.winner == 0
    assert state.scores == [121, pone_score] and state.legal_actions() == []
    over = events[-1]
    assert over["winner"] == 0 and over["winners"] == [0] and over["skunk"] == skunk == state.skunk
    assert over["skunks"] == ["none", skunk]
    assert events[-2]["seed"] == state.seed and fairdeal.verify(events[-2]["seed"], state.commitment)
    assert state.held[0] and state.held[1]  # the play never started
    with pytest.raises(IllegalActionError, match="over"):
        state.apply({"type": "play", "card": state.held[1][0]})


def test_short_game_skunk_line(monkeypatch):
    for pone_score, skunk in ((31, "none"), (30, "skunk"), (0, "skunk")):
        state = rig(monkeypatch, [HEELS_DEAL], target=61)
        set_score(state, 0, 59)
        set_score(state, 1, pone_score)
        discard(state, 0, "7C 9D")
        discard(state, 1, "QS AD")
        assert state.winner == 0 and state.skunk == skunk


def test_go_reset_and_last_card(monkeypatch):
    state = rig(monkeypatch, [GO_DEAL])
    discard(state, 0, "AH 6D")
    discard(state, 1, "2C 3C")
    assert state.to_act == 1  # the pone leads
    play(state, 1, "10S")
    play(state, 0, "KC")
    events = play(state, 1, "9H")  # 29: the dealer cannot go on, nor can the pone
    assert events == [
        {"type": "play", "seat": 1, "card": parse_card("9H"), "count": 29},
        {"type": "go", "seat": 0, "count": 29},
        {"type": "score", "seat": 1, "points": 1, "reason": "go", "source": "pegging",
         "cards": [parse_card("9H")], "total": 1},
        {"type": "reset", "next": 0},
    ]
    # The player who did not lay the last card leads the new count.
    assert state.count() == 0 and state.to_act == 0 and state.gone == []
    play(state, 0, "QD")
    play(state, 1, "8C")
    play(state, 0, "5S")
    events = play(state, 1, "7D")  # 30: the dealer's 4 does not fit; the pone has no cards left
    assert kinds(events) == ["play", "go", "score", "reset"]
    assert events[1] == {"type": "go", "seat": 0, "count": 30}
    assert scores_in(events) == [(1, 1, "go")] and events[3]["next"] == 0
    events = play(state, 0, "4H")
    assert events[0] == {"type": "play", "seat": 0, "card": parse_card("4H"), "count": 4}
    assert events[1]["reason"] == "last_card" and events[1]["seat"] == 0 and events[1]["points"] == 1
    pegged = [p[PEGGING] for p in state.history[0]["points"]]
    assert pegged == [1, 2]
    shows = [(e["seat"], e["show"]) for e in events if e["type"] == "show"]
    assert shows == [(1, "hand"), (0, "hand"), (0, "crib")]  # pone, dealer, crib
    assert kinds(events)[-4:-2] == ["hand_end", "deal"]
    assert state.hand_number == 2 and state.phase == "discard"


def test_go_view_shows_who_said_go(monkeypatch):
    state = rig(monkeypatch, [(["KC QD 5S 4H AH 6D", "10S 9H 8C 2D 2C 3C"], "7D")])
    discard(state, 0, "AH 6D")
    discard(state, 1, "2C 3C")
    play(state, 1, "10S")
    play(state, 0, "KC")
    events = play(state, 1, "8C")  # 28: the dealer says go; the pone still has the 2
    assert kinds(events) == ["play", "go"] and state.to_act == 1 and state.gone == [0]
    assert state.view(1)["go"] == [0] and state.view(0)["go"] == [0]
    events = play(state, 1, "2D")  # 30: the pone cannot go on either, and pegs the go
    assert scores_in(events) == [(1, 1, "go")] and events[-1] == {"type": "reset", "next": 0}


def test_thirty_one_resets_and_last_card_at_31_scores_no_extra(monkeypatch):
    state = rig(monkeypatch, [THIRTY_ONE_DEAL])
    discard(state, 0, "2C 3C")
    discard(state, 1, "9C 8C")
    play(state, 1, "KS")
    play(state, 0, "QH")
    play(state, 1, "5C")
    events = play(state, 0, "6D")
    assert kinds(events) == ["play", "score", "reset"]
    assert scores_in(events) == [(0, 2, "thirty_one")] and events[2]["next"] == 1
    assert state.to_act == 1 and state.count() == 0
    play(state, 1, "QC")
    play(state, 0, "KD")
    play(state, 1, "6H")
    events = play(state, 0, "5H")  # 31 with the last card of the play: 2, no last card
    assert events[0]["count"] == 31
    pegging = [s for s in scores_in(events) if s[2] in ("thirty_one", "last_card", "go")]
    assert pegging == [(0, 2, "thirty_one")]
    assert [p[PEGGING] for p in state.history[0]["points"]] == [4, 0]


def test_instant_win_mid_play(monkeypatch):
    state = rig(monkeypatch, [THIRTY_ONE_DEAL])
    set_score(state, 0, 119)
    discard(state, 0, "2C 3C")
    discard(state, 1, "9C 8C")
    play(state, 1, "KS")
    play(state, 0, "QH")
    play(state, 1, "5C")
    events = play(state, 0, "6D")
    assert kinds(events) == ["play", "score", "hand_end", "game_over"]
    assert state.winner == 0 and state.scores == [121, 0] and state.skunk == "double_skunk"
    assert state.held[1] == sorted(parse_cards("QC 6H"))  # the rest of the play never happens
    assert not any(e["type"] == "show" for e in events)


@pytest.mark.parametrize("pone_start, dealer_start, winner, shows", [
    (116, 100, 1, 1),   # the pone counts first and wins; the dealer's hand and crib are never counted
    (100, 113, 0, 2),   # the dealer's hand wins; the crib is never counted
])
def test_instant_win_mid_show(monkeypatch, pone_start, dealer_start, winner, shows):
    state = rig(monkeypatch, [SHOW_DEAL])
    set_score(state, 1, pone_start)
    set_score(state, 0, dealer_start)
    log = show_hand_play(state)
    assert scores_in(log)[:4] == [(0, 2, "thirty_one"), (1, 3, "run"), (0, 4, "run"), (0, 1, "last_card")]
    show_events = [e for e in log if e["type"] == "show"]
    assert len(show_events) == shows
    assert show_events[0]["seat"] == 1 and show_events[0]["total"] == 9  # 4 5 6 9 + K: 3 fifteens, a run
    if shows == 2:
        assert show_events[1]["seat"] == 0 and show_events[1]["total"] == 4  # 2 3 8 8 + K
    assert kinds(log)[-2:] == ["hand_end", "game_over"]
    made = [dealer_start + 7 + (4 if shows == 2 else 0), pone_start + 3 + 9]  # what the cards made
    assert [sum(t) for t in state.tally] == made and max(made) > 121
    # The game ends at the target: the score on the board, and every score reported, stops there.
    expected = [min(points, 121) for points in made]
    assert state.scores == expected and state.winner == winner and expected[winner] == 121
    assert state.show_step == shows
    last = [e for e in log if e["type"] == "score"][-1]
    assert last["seat"] == winner and last["total"] == 121
    assert log[-1]["scores"] == expected and state.view(0)["scores"] == expected


def test_show_items_are_scored_one_event_each(monkeypatch):
    state = rig(monkeypatch, [SHOW_DEAL])
    log = show_hand_play(state)
    pone_show = [e for e in log if e["type"] == "score" and e.get("show") == "hand" and e["seat"] == 1]
    assert [e["reason"] for e in pone_show] == ["fifteen", "fifteen", "fifteen", "run"]
    assert all(e["source"] == "hand" for e in pone_show)
    crib = [e for e in log if e["type"] == "show" and e["show"] == "crib"][0]
    expected = score_show(parse_cards("7C JD QS AD"), parse_card("KC"), crib=True)
    assert crib["total"] == expected.total and crib["spoken"] == expected.spoken
    crib_points = sum(e["points"] for e in log if e["type"] == "score" and e.get("show") == "crib")
    assert crib_points == expected.total == state.history[0]["points"][0][CRIB]
    assert_events_sum(state, state.start_events + log)


def test_deal_alternates_every_hand():
    state = new_game(seed="alternate")
    rng = random.Random(5)
    deals = [e for e in state.start_events if e["type"] == "deal"]
    ends = []
    while not state.is_over:
        events = state.apply(rng.choice(state.legal_actions()))
        deals += [e for e in events if e["type"] == "deal"]
        ends += [e for e in events if e["type"] == "hand_end"]
    first = state.cut["dealer"]
    assert len(deals) >= 4
    assert [d["dealer"] for d in deals] == [(first + i) % 2 for i in range(len(deals))]
    assert [d["hand_number"] for d in deals] == list(range(1, len(deals) + 1))
    for d, e in zip(deals, ends):
        assert e["hand_number"] == d["hand_number"] and e["dealer"] == d["dealer"]
        assert e["seed"] == derive_seed("alternate", d["hand_number"])
        assert fairdeal.verify(e["seed"], d["commitment"])
    assert [h["dealer"] for h in state.history] == [d["dealer"] for d in deals[:len(state.history)]]


def test_rigged_first_dealer_can_be_seat_one(monkeypatch):
    state = rig(monkeypatch, [], dealer=1)
    assert state.dealer == 1 and state.pone == 0


# ------------------------------------------------------------------------------------------
# Muggins


def muggins_game(monkeypatch, **options):
    state = rig(monkeypatch, [SHOW_DEAL], muggins=True, peg_claims=False, **options)
    log = show_hand_play(state)
    assert state.phase == "count" and state.to_act == 1
    assert log[-1] == {"type": "count_turn", "seat": 1, "show": "hand",
                       "cards": sorted(parse_cards("4C 5D 6S 9H")), "starter": parse_card("KC")}
    return state


def test_muggins_overcount_scores_the_true_count_and_the_opponent_pegs_the_excess(monkeypatch):
    """A claim is final: any whole number up to 29 is taken (the list gives nothing away); one
    above the true count scores the true count, and the next seat pegs the points over it."""
    state = muggins_game(monkeypatch)
    assert state.legal_actions() == [{"type": "count", "points": n} for n in range(30)]
    scores_before = state.scores
    events = state.apply({"type": "count", "points": 24})
    show = events[0]
    assert show["type"] == "show" and show["claimed"] == 24 and show["total"] == 9
    assert [s[2] for s in scores_in(events) if s[0] == 1] == [i["kind"] for i in show["items"]]
    assert not any(e.get("reason") == "muggins" for e in events)
    over = [e for e in events if e.get("reason") == "overclaim"]
    assert [(e["seat"], e["points"], e["source"], e["show"]) for e in over] == [(0, 15, "muggins", "hand")]
    assert state.scores == [scores_before[0] + 15, scores_before[1] + 9]
    with pytest.raises(IllegalActionError):
        state.apply({"type": "count", "points": 30})


def test_muggins_undercount_is_claimed_by_the_opponent(monkeypatch):
    state = muggins_game(monkeypatch)
    scores_before = state.scores
    events = state.apply({"type": "count", "points": 7})
    show = events[0]
    assert show["type"] == "show" and show["claimed"] == 7 and show["total"] == 9 and show["seat"] == 1
    assert scores_in(events[:3]) == [(1, 7, "count"), (0, 2, "muggins")]
    assert events[2]["source"] == "muggins" and events[2]["show"] == "hand"
    assert state.scores == [scores_before[0] + 2, scores_before[1] + 7]
    assert state.tally[0][MUGGINS] == 2 and state.tally[1][HAND] == 7
    # The dealer's hand is next; an exact count scores item by item.
    assert state.to_act == 0 and events[-1]["type"] == "count_turn" and events[-1]["show"] == "hand"
    events = state.apply({"type": "count", "points": 4})
    assert [s[2] for s in scores_in(events)] == ["fifteen", "pair"]
    assert events[-1]["type"] == "count_turn" and events[-1]["show"] == "crib" and state.to_act == 0
    assert state.view(1)["crib"] == sorted(parse_cards("7C JD QS AD"))  # shown to be counted
    crib_total = score_show(parse_cards("7C JD QS AD"), parse_card("KC"), crib=True).total
    assert crib_total > 0
    events = state.apply({"type": "count", "points": 0})  # the dealer misses the whole crib
    assert scores_in(events)[:1] == [(1, crib_total, "muggins")]
    assert state.hand_number == 2 and state.phase == "discard"
    assert state.history[0]["points"][1][MUGGINS] == crib_total


def test_muggins_claim_can_win_before_the_muggins_points(monkeypatch):
    state = rig(monkeypatch, [SHOW_DEAL], muggins=True, peg_claims=False)
    set_score(state, 1, 110)
    show_hand_play(state)  # the pone is on 113
    events = state.apply({"type": "count", "points": 8})  # short by one, but 121 all the same
    assert state.winner == 1 and state.scores[1] == 121
    assert not any(e.get("reason") == "muggins" for e in events)


@pytest.mark.parametrize("bad", [{"type": "count", "points": -1}, {"type": "count", "points": 2.0},
                                 {"type": "count", "points": True}, {"type": "count"},
                                 {"type": "play", "card": 3}])
def test_muggins_bad_claims(monkeypatch, bad):
    state = muggins_game(monkeypatch)
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply(bad)
    assert state.to_json() == before


# ------------------------------------------------------------------------------------------
# Illegal actions


def illegal_cases(state):
    """(action, message fragment) pairs that are illegal in a play-phase state."""
    seat = state.to_act
    other = 1 - seat
    mine = state.held[seat]
    theirs = state.held[other]
    return [
        ("play", "a dict"),
        (None, "a dict"),
        ({"type": "fold"}, "unknown action type"),
        ({"card": mine[0]}, "unknown action type"),
        ({"type": "discard", "cards": mine[:2]}, "not allowed now"),
        ({"type": "count", "points": 0}, "not allowed now"),
        ({"type": "play"}, "needs 'card'"),
        ({"type": "play", "card": theirs[0]}, "does not hold"),
        ({"type": "play", "card": 52}, "not a card"),
        ({"type": "play", "card": -1}, "not a card"),
        ({"type": "play", "card": True}, "not a card"),
        ({"type": "play", "card": "5H"}, "not a card"),
        ({"type": "play", "card": float(mine[0])}, "not a card"),
        ({"type": "play", "card": mine[0], "extra": 1}, "unexpected key"),
        ({"type": "play", "card": mine[0], "seat": other}, "turn"),
        ({"type": "play", "card": mine[0], "seat": True}, "turn"),
    ]


def test_illegal_actions_in_play_raise_and_change_nothing():
    state = new_game(seed="illegal")
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert state.phase == "play"
    before = state.to_json()
    for action, fragment in illegal_cases(state):
        with pytest.raises(IllegalActionError, match=fragment):
            state.apply(action)
        assert state.to_json() == before, action
    # A seat key naming the seat to act is accepted.
    seat = state.to_act
    state.apply({"type": "play", "card": state.legal_actions()[0]["card"], "seat": seat})


def test_card_that_passes_31_is_illegal(monkeypatch):
    state = rig(monkeypatch, [(["KC QD 5S 4H AH 6D", "10S 9H 8C 2D 2C 3C"], "7D")])
    discard(state, 0, "AH 6D")
    discard(state, 1, "2C 3C")
    play(state, 1, "10S")
    play(state, 0, "KC")
    play(state, 1, "8C")  # 28: the dealer says go; the pone must play on
    assert state.to_act == 1 and state.legal_actions() == [{"type": "play", "card": parse_card("2D")}]
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="from 28 to 37, past 31"):
        state.apply({"type": "play", "card": parse_card("9H")})
    with pytest.raises(IllegalActionError, match="does not hold AH"):
        state.apply({"type": "play", "card": parse_card("AH")})  # it is in the crib
    assert state.to_json() == before
    play(state, 1, "2D")


@pytest.mark.parametrize("bad, fragment", [
    ({"type": "discard", "cards": []}, "exactly 2"),
    ({"type": "discard", "cards": [0]}, "exactly 2"),
    ({"type": "discard", "cards": "AC 2C"}, "must be a list"),
    ({"type": "play", "card": 0}, "not allowed now"),
])
def test_illegal_discards(bad, fragment):
    state = new_game(seed="illegal-discard")
    before = state.to_json()
    with pytest.raises(IllegalActionError, match=fragment):
        state.apply(bad)
    assert state.to_json() == before


def test_discard_of_cards_not_held_or_twice():
    state = new_game(seed="illegal-discard")
    mine, theirs = state.held[0], state.held[1]
    before = state.to_json()
    for cards, fragment in (([mine[0], mine[0]], "twice"), ([mine[0], theirs[0]], "does not hold"),
                            ([mine[0], 99], "not a card"), ([mine[0], None], "not a card")):
        with pytest.raises(IllegalActionError, match=fragment):
            state.apply({"type": "discard", "cards": cards})
        assert state.to_json() == before
    assert isinstance(IllegalActionError("x"), ValueError)


def test_every_legal_action_is_accepted_and_others_are_not():
    rng = random.Random(11)
    state = new_game(seed="legality", muggins=True)
    while not state.is_over:
        legal = state.legal_actions()
        for action in legal:
            assert state._check(action) == action  # canonical and accepted
        if state.phase == "play":
            illegal = [c for c in range(52) if {"type": "play", "card": c} not in legal]
            for c in rng.sample(illegal, 3):
                with pytest.raises(IllegalActionError):
                    state._check({"type": "play", "card": c})
        state.apply(rng.choice(legal))


# ------------------------------------------------------------------------------------------
# Saved games


def midgame(seed="saved", steps=23, **options):
    state = new_game(seed=seed, **options)
    rng = random.Random(seed)
    for _ in range(steps):
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_json_round_trip_is_exact_and_the_game_continues_the_same():
    state = midgame()
    text = state.to_json()
    loaded = from_json(text)
    assert loaded.to_json() == text
    data = json.loads(text)
    assert data["format"] == "cribbage-game" and data["version"] == 2
    assert text == json.dumps(data, sort_keys=True, separators=(",", ":"))  # canonical
    rng_a, rng_b = random.Random(1), random.Random(1)
    while not state.is_over:
        ea = state.apply(rng_a.choice(state.legal_actions()))
        eb = loaded.apply(rng_b.choice(loaded.legal_actions()))
        assert ea == eb
    assert loaded.to_json() == state.to_json() and loaded.winner == state.winner


def test_json_is_compact():
    state = midgame(steps=60)
    assert len(state.to_json()) < 4000


def tampered(text, change, reseal=True):
    """The saved text with one change; with ``reseal`` its check is recomputed (a careful editor)."""
    data = json.loads(text)
    change(data)
    if reseal and isinstance(data, dict) and "check" in data:
        try:
            data["check"] = record_format.record_check(data)
        except (KeyError, TypeError, ValueError, AttributeError):
            pass
    return json.dumps(data)


def _action(d, hand, k):
    return d["hands"][hand]["actions"][k]


TAMPERS = {
    "format": lambda d: d.update(format="chess"),
    "version": lambda d: d.update(version=1),
    "version_bool": lambda d: d.update(version=True),
    "missing_key": lambda d: d.pop("seats"),
    "extra_key": lambda d: d.update(scores=[119, 0]),
    "players": lambda d: d.update(players=3),
    "target": lambda d: d.update(target=100),
    "muggins_type": lambda d: d.update(muggins=1),
    "practice_type": lambda d: d.update(practice="yes"),
    "game_seed": lambda d: d.update(seed="other"),
    "seed_not_hex": lambda d: d.update(practice=False, seed="x" * 32),
    "seats_short": lambda d: d["seats"].pop(),
    "seat_kind": lambda d: d["seats"].__setitem__(1, "Hard!"),
    "no_person": lambda d: d.update(seats=["hard", "hard"]),
    "names_short": lambda d: d.update(names=["Ann"]),
    "commitment": lambda d: d["hands"][1].update(commitment="0" * 64),
    "commitment_short": lambda d: d["hands"][1].update(commitment="abc"),
    "hand_removed": lambda d: d["hands"].pop(0),
    "hand_added": lambda d: d["hands"].append({"commitment": "0" * 64, "actions": []}),
    "hands_empty": lambda d: d.update(hands=[]),
    "action_removed": lambda d: d["hands"][0]["actions"].pop(),
    "action_added": lambda d: d["hands"][0]["actions"].append({"type": "play", "card": 0}),
    "action_changed": lambda d: _action(d, 0, 0).update(cards=[_action(d, 0, 0)["cards"][0], 51 - _action(d, 0, 0)["cards"][1]]),
    "action_extra_key": lambda d: _action(d, 2, 0).update(seat=1),
    "action_kind": lambda d: _action(d, 2, 0).update(type="pass"),
    "actions_type": lambda d: d["hands"][2].update(actions="none"),
    "card_type": lambda d: _action(d, 2, 2).update(card="5H"),
    "card_bool": lambda d: _action(d, 2, 2).update(card=True),
    "card_float": lambda d: _action(d, 2, 2).update(card=float(_action(d, 2, 2)["card"])),
    "computer_move_replaced": lambda d: d["hands"][0]["actions"].__setitem__(
        1, {"type": "discard", "cards": d["hands"][0]["actions"][1]["cards"][::-1]}),
    "plays_swapped": lambda d: d["hands"][2]["actions"].__setitem__(
        slice(2, 4), d["hands"][2]["actions"][3:1:-1]),
    "top_list": lambda d: d.clear(),
}


def tamper_base():
    """A saved game in its third hand, mid-play, with finished hands and cards laid."""
    state = new_game(seed="tamper", seats=["person", "hard"])
    rng = random.Random(3)
    computer = get_player("hard", seed=record.COMPUTER_SEED)  # the seated computer decides its moves
    while not (state.hand_number >= 3 and state.phase == "play" and len(state.laid) >= 3):
        if state.to_act == 1:
            view = state.view(1)
            state.apply(computer.choose(view, view["legal_actions"]))
        else:
            state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_tampered_json_is_refused(name):
    """Every edit is refused: its check no longer matches, and with the check recomputed the
    replay finds the record is not a game."""
    text = tamper_base().to_json()
    for reseal in (False, True):
        bad = tampered(text, TAMPERS[name], reseal)
        assert bad != text
        with pytest.raises(GameFormatError) as info:
            from_json(bad)
        assert str(info.value).startswith("not a valid saved game: ")
        assert isinstance(info.value, ValueError)


def test_scores_and_history_come_from_the_replay():
    """Nothing derived is stored: the finished hands, scores and back pegs are the replay's."""
    state = tamper_base()
    data = json.loads(state.to_json())
    assert set(data) == set(record.RECORD_KEYS)
    assert "scores" not in data and "history" not in data and "backs" not in data
    loaded = from_json(state.to_json())
    assert loaded.scores == state.scores and loaded.backs == state.backs and loaded.history == state.history
    assert loaded.to_act == state.to_act and loaded.phase == state.phase


def test_a_stale_check_is_refused_by_name():
    text = tamper_base().to_json()
    bad = tampered(text, lambda d: d.update(muggins=not d["muggins"]), reseal=False)
    with pytest.raises(GameFormatError, match="check does not match"):
        from_json(bad)


@pytest.mark.parametrize("text", ["", "not json", "[]", "null", "42", '{"format": "cribbage-game"}',
                                  "[" * 100_000, b"\xff\xfe"])
def test_corrupt_json_is_refused(text):
    with pytest.raises(GameFormatError):
        from_json(text)


def test_non_text_is_refused():
    with pytest.raises(GameFormatError):
        from_json(None)  # type: ignore[arg-type]


def test_truncated_json_is_refused():
    text = tamper_base().to_json()
    for cut in (1, len(text) // 2, len(text) - 1):
        with pytest.raises(GameFormatError):
            from_json(text[:cut])


def test_finished_and_muggins_games_round_trip():
    for options in ({"muggins": True}, {"target": 61}, {"players": 3}, {"players": 4, "muggins": True}):
        state = new_game(seed="finish", **options)
        rng = random.Random(9)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            if state.phase == "count":
                assert from_json(state.to_json()).to_json() == state.to_json()
        text = state.to_json()
        loaded = from_json(text)
        assert loaded.to_json() == text and loaded.is_over and loaded.winner == state.winner
        assert loaded.view(0) == state.view(0)


# ------------------------------------------------------------------------------------------
# Views and private events


def hidden_from(state, seat):
    """The cards the seat may not know now (other seats' unshown cards, the unshown crib)."""
    known = set(state.held[seat]) | {c for _, c in state.laid} | set(state.discards[seat] or [])
    if state.starter is not None:
        known.add(state.starter)
    for shown in state.view(seat)["shown"]:
        known |= set(shown["cards"])
    counting = state.view(seat)["counting"]
    if counting:
        known |= set(counting["cards"])
    in_play = {c for h in state.held for c in h} | set(state.crib) | {c for _, c in state.laid}
    return in_play - known


def perturbed(state, seat, rng):
    """A copy of the state in which every card hidden from the seat is swapped for another unseen card."""
    copy = from_json(state.to_json())
    hidden = sorted(hidden_from(state, seat))
    known = (set(range(52)) - hidden_from(state, seat)) & (
        {c for h in state.held for c in h} | set(state.crib) | {c for _, c in state.laid}
        | ({state.starter} if state.starter is not None else set()))
    pool = sorted(set(range(52)) - known - set(hidden))
    replacement = dict(zip(hidden, rng.sample(pool, len(hidden))))
    copy.held = [sorted(replacement.get(c, c) for c in h) for h in copy.held]
    copy.crib = sorted(replacement.get(c, c) for c in copy.crib)
    copy.discards = [None if d is None else sorted(replacement.get(c, c) for c in d) for d in copy.discards]
    copy.seed = "f" * 32  # neither the cards nor the seed may show through
    return copy, bool(hidden)


def test_view_never_leaks_hidden_cards_or_the_seed():
    rng = random.Random(2024)
    checked = 0
    for g, options in enumerate(({}, {"muggins": True}, {"players": 3}, {"players": 4})):
        state = new_game(seed=f"leak-{g}", **options)
        while not state.is_over:
            for seat in range(state.players):
                view = state.view(seat)
                text = json.dumps(view)
                assert state.seed not in text and "rigged" not in text and f"leak-{g}" not in text
                assert view["seed"] is None and view["commitment"] == state.commitment
                if view["crib"] is None:
                    assert "crib" not in [r["show"] for r in view["shown"]]
                copy, changed = perturbed(state, seat, rng)
                if changed:
                    checked += 1
                    assert copy.held != state.held or copy.crib != state.crib
                    assert copy.view(seat) == view, f"seat {seat} can see a hidden card"
            state.apply(rng.choice(state.legal_actions()))
        view = state.view(0)
        assert view["seed"] == state.seed and view["revealed"] is not None
    assert checked > 200


def test_view_contents():
    state = midgame(seed="view", steps=2)
    seat = state.to_act
    view = state.view(seat)
    assert view["hand"] == state.held[seat] and view["legal_actions"] == state.legal_actions()
    assert state.view(1 - seat)["legal_actions"] == []
    assert view["hand_sizes"] == [4, 4] and view["crib_size"] == 4 and view["crib"] is None
    assert view["starter"] == state.starter and view["phase"] == "play"
    assert view["last_hand"] is None and view["revealed"] is None
    json.dumps(view)
    while state.hand_number == 1:
        state.apply(state.legal_actions()[0])
    last = state.view(0)["last_hand"]
    assert last["hand_number"] == 1 and fairdeal.verify(last["seed"], last["commitment"])
    assert state.view(0)["seed"] is None
    with pytest.raises(ValueError):
        state.view(2)
    with pytest.raises(ValueError):
        state.view(True)


def test_private_events_are_filtered_per_seat():
    state = new_game(seed="private")
    for seat in (0, 1):
        seen = events_for(seat, state.start_events)
        hands = [e for e in seen if e["type"] == "hand"]
        assert [e["seat"] for e in hands] == [seat] and hands[0]["cards"] == state.held[seat]
        assert state.events_for(seat, state.start_events) == seen
        other = state.held[1 - seat]
        assert not any(e.get("cards") == other for e in seen)
    rng = random.Random(1)
    while not state.is_over:
        events = state.apply(rng.choice(state.legal_actions()))
        for e in events:
            if "visible_to" in e:
                assert e["type"] == "hand"
            if e["type"] == "discard":
                assert "cards" not in e
            json.dumps(e)


# ------------------------------------------------------------------------------------------
# Three players and four in partnerships


def test_three_players_deal_discard_and_go(monkeypatch):
    deal3 = (["QD 7C 8C 6D 4S", "KS QS 2C 3C 4D", "KH 9D AC 5H 4H"], "2D", "4C")
    state = rig(monkeypatch, [deal3], players=3)
    assert state.crib == [parse_card("4C")] and len(state.held[0]) == 5
    assert state.legal_actions()[0] == {"type": "discard", "cards": [parse_card("7C")]}
    assert len(state.legal_actions()) == 5
    discard(state, 0, "4S")
    discard(state, 1, "4D")
    discard(state, 2, "4H")
    assert len(state.crib) == 4 and state.to_act == 1
    play(state, 1, "KS")
    events = play(state, 2, "KH")
    assert scores_in(events) == [(2, 2, "pair")]
    events = play(state, 0, "QD")  # 30: seat 1 says go and is skipped; seat 2 has the ace
    assert kinds(events) == ["play", "go"] and events[1]["seat"] == 1 and state.to_act == 2
    events = play(state, 2, "AC")
    assert scores_in(events) == [(2, 2, "thirty_one")] and events[-1] == {"type": "reset", "next": 0}
    play(state, 0, "7C")
    play(state, 1, "QS")
    events = play(state, 2, "9D")  # 26: seat 0 cannot play, seat 1 can
    assert kinds(events) == ["play", "go"] and events[1]["seat"] == 0 and state.to_act == 1
    events = play(state, 1, "2C")  # 28: seat 2's 5 does not fit, seat 0 said go, seat 1 goes on
    assert kinds(events) == ["play", "go"] and events[1]["seat"] == 2 and state.to_act == 1
    events = play(state, 1, "3C")
    assert scores_in(events) == [(1, 2, "thirty_one")] and events[-1] == {"type": "reset", "next": 2}
    play(state, 2, "5H")
    play(state, 0, "6D")  # seat 1 has no cards: seat 2 has none either: seat 0 goes on
    assert state.to_act == 0
    events = play(state, 0, "8C")
    assert scores_in(events)[0] == (0, 1, "last_card")
    shows = [(e["seat"], e["show"]) for e in events if e["type"] == "show"]
    assert shows == [(1, "hand"), (2, "hand"), (0, "hand"), (0, "crib")]


def test_three_player_muggins_goes_to_the_next_seat(monkeypatch):
    deal3 = (["QD 7C 8C 6D 4S", "KS QS 2C 3C 4D", "KH 9D AC 5H 4H"], "2D", "4C")
    state = rig(monkeypatch, [deal3], players=3, muggins=True, peg_claims=False)
    for seat, card in ((0, "4S"), (1, "4D"), (2, "4H")):
        discard(state, seat, card)
    for seat, card in ((1, "KS"), (2, "KH"), (0, "QD"), (2, "AC"), (0, "7C"), (1, "QS"), (2, "9D"),
                       (1, "2C"), (1, "3C"), (2, "5H"), (0, "6D"), (0, "8C")):
        play(state, seat, card)
    assert state.phase == "count" and state.to_act == 1
    total = score_show(parse_cards("KS QS 2C 3C"), parse_card("2D")).total
    events = state.apply({"type": "count", "points": 0})
    if total:
        assert scores_in(events)[0] == (2, total, "muggins")


def test_four_player_partnerships_share_a_score():
    state = new_game(seed="four", players=4)
    assert [len(h) for h in state.held] == [5, 5, 5, 5]
    assert len(state.legal_actions()) == 5
    rng = random.Random(4)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        s = state.scores
        assert s[0] == s[2] and s[1] == s[3]
        assert s[0] == min(sum(map(sum, state.tally[0::2])), 121)
    assert state.winners == sorted([state.winner, (state.winner + 2) % 4])
    assert state.scores[state.winner] == 121 > state.scores[(state.winner + 1) % 4]


def _leaves(obj, path=()):
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from _leaves(value, path + (key,))
    elif isinstance(obj, list) and obj:
        for i, value in enumerate(obj):
            yield from _leaves(value, path + (i,))
    else:
        yield path


def test_fuzzed_saves_fail_cleanly():
    """Random edits to a saved game give GameFormatError (or, rarely, a valid game), never a crash."""
    text = tamper_base().to_json()
    data = json.loads(text)
    paths = list(_leaves(data))
    rng = random.Random(77)
    junk = [None, -1, 0, 1, 2, 51, 52, 999, 1.5, True, False, "x", "", [], {}, [0], {"a": 1}]
    refused = 0
    for _ in range(400):
        copy = json.loads(text)
        path = rng.choice(paths)
        obj = copy
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = rng.choice(junk)
        try:
            loaded = from_json(json.dumps(copy))
        except GameFormatError:
            refused += 1
        else:
            assert json.loads(loaded.to_json()) == copy
    for _ in range(300):
        i = rng.randrange(len(text))
        edited = text[:i] + rng.choice('0123456789"{}[],:ax') + text[i + 1:]
        try:
            loaded = from_json(edited)
        except GameFormatError:
            refused += 1
        else:
            assert loaded.to_json() == text or json.loads(edited) == json.loads(loaded.to_json())
    assert refused > 600
