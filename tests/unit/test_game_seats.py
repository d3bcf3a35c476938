"""Three and four players: partnership scoring on a rigged deal, and views that hide partners' cards.

The three-player go order (a seat that said go is skipped until the count resets, then the seat
after the last card's player leads) is hand-checked in test_game.py
(test_three_players_deal_discard_and_go).
"""

from __future__ import annotations

import random

from engine.cards import parse_card, parse_cards
from engine.game import new_game
from engine.players import get_player
from engine.scoring import score_show
from test_game import PEGGING, discard, play, rig, scores_in
from test_players import stock

# Dealer seat 0; seat 1 leads. Seats 0 and 2 are partners against 1 and 3.
FOUR_DEAL = (["KC QD JS 9H 2C", "10S 9C 8D 7H AC", "5H 4C 3D 2D AD", "5S 6C 7C 8S AS"], "KD")
# Kept hands and the crib with the KD starter, counted by hand:
#   seat 0  KC QD JS 9H: double run J-Q-K (6) + pair of kings (2) = 8
#   seat 1  10S 9C 8D 7H: run of four (4) + 8-7 fifteen (2) = 6
#   seat 2  5H 4C 3D 2D: run of four (4) + 5-K and 2-3-K fifteens (4) = 8
#   seat 3  5S 6C 7C 8S: run of four (4) + 5-K and 7-8 fifteens (4) = 8
#   crib    2C AC AD AS: pair royal (6) + K-2-A-A-A fifteen (2) = 8
HAND_TOTALS = {0: 8, 1: 6, 2: 8, 3: 8}
CRIB_TOTAL = 8


def four_player_hand(monkeypatch):
    state = rig(monkeypatch, [FOUR_DEAL], players=4)
    for seat, card in ((0, "2C"), (1, "AC"), (2, "AD"), (3, "AS")):
        discard(state, seat, card)
    assert state.phase == "play" and state.to_act == 1
    return state


def test_four_player_pegging_raises_the_partnership_score(monkeypatch):
    state = four_player_hand(monkeypatch)
    play(state, 1, "10S")
    events = play(state, 2, "5H")  # fifteen for two to seat 2: seats 0 and 2 move, 1 and 3 do not
    assert scores_in(events) == [(2, 2, "fifteen")]
    assert [e["total"] for e in events if e["type"] == "score"] == [2]
    assert state.scores == [2, 0, 2, 0]
    assert state.tally[2][PEGGING] == 2 and state.tally[0][PEGGING] == 0
    events = play(state, 3, "5S")  # a pair for seat 3: now seats 1 and 3 move together
    assert scores_in(events) == [(3, 2, "pair")]
    assert state.scores == [2, 2, 2, 2]
    assert state.view(0)["scores"] == state.view(1)["scores"] == [2, 2, 2, 2]


def test_four_player_show_adds_both_partners_hands_to_one_score(monkeypatch):
    state = four_player_hand(monkeypatch)
    starter = parse_card("KD")
    kept = {0: "KC QD JS 9H", 1: "10S 9C 8D 7H", 2: "5H 4C 3D 2D", 3: "5S 6C 7C 8S"}
    for seat, cards in kept.items():
        assert score_show(parse_cards(cards), starter).total == HAND_TOTALS[seat]
    assert score_show(parse_cards("2C AC AD AS"), starter, crib=True).total == CRIB_TOTAL
    events = []
    while state.phase == "play":
        events += state.apply(state.legal_actions()[0])
    assert state.hand_number == 2  # the show was counted and the next hand dealt
    shows = {(e["seat"], e["show"]): e["total"] for e in events if e["type"] == "show"}
    assert shows == {(1, "hand"): 6, (2, "hand"): 8, (3, "hand"): 8, (0, "hand"): 8, (0, "crib"): 8}
    pegged = [0, 0]
    shown = [0, 0]
    for e in events:
        if e["type"] == "score":
            side = e["seat"] % 2
            if e["source"] == "pegging":
                pegged[side] += e["points"]
            else:
                shown[side] += e["points"]
            assert e["total"] == pegged[side] + shown[side]  # the partnership's running score
    assert shown == [8 + 8 + 8, 6 + 8]
    assert state.scores == [pegged[0] + 24, pegged[1] + 14, pegged[0] + 24, pegged[1] + 14]
    # Each partner's own hand points sit on its own seat's tally; the score is their sum.
    hand_end = next(e for e in events if e["type"] == "hand_end")
    assert hand_end["points"][0] + hand_end["points"][2] == state.scores[0]
    assert hand_end["points"][1] + hand_end["points"][3] == state.scores[1]


def swap_hidden_seats(state, seat, rng):
    """A copy of a game of any size in which every card `seat` cannot see (every other seat's
    hand and discard, partner included, and so the crib) is exchanged for a spare card."""
    copy = state.__class__.__new__(state.__class__)
    copy.__dict__.update(state.__dict__)
    copy.held = [list(h) for h in state.held]
    copy.discards = [None if d is None else list(d) for d in state.discards]
    spare = stock(state)
    rng.shuffle(spare)
    swap = {}
    for other in range(state.players):
        if other != seat:
            for c in copy.held[other] + (copy.discards[other] or []):
                swap[c] = spare.pop()
            copy.held[other] = sorted(swap.get(c, c) for c in copy.held[other])
            if copy.discards[other]:
                copy.discards[other] = sorted(swap.get(c, c) for c in copy.discards[other])
    copy.crib = sorted(swap.get(c, c) for c in state.crib)
    return copy


def test_a_four_player_partner_decides_from_its_own_view_only():
    state = new_game(seed="partners-view", players=4, target=61)
    player = get_player("hard", 1)
    rng = random.Random(4)
    checked = partner_moves = 0
    while not state.is_over and state.hand_number <= 3:
        seat = state.to_act
        view = state.view(seat)
        choice = player.choose(view, view["legal_actions"])
        if state.phase in ("discard", "play"):
            swapped = swap_hidden_seats(state, seat, rng)
            partner = (seat + 2) % 4
            if state.held[partner]:
                assert swapped.held[partner] != state.held[partner]
            assert swapped.view(seat) == view
            assert player.choose(swapped.view(seat), view["legal_actions"]) == choice
            checked += 1
            partner_moves += seat == 2
        state.apply(choice)
    assert checked > 30 and partner_moves > 5
