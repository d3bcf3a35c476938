"""Reading the other hand (engine.reading) and the search over many samples (engine.pegging_joint)."""

from __future__ import annotations

import random

from engine.analysis import crib_value, discard_options
from engine.cards import VALUE_OF, parse_cards
from engine.fairdeal import keyed_generator
from engine.pegging_joint import JointSearch
from engine.pegging_search import Leaf, Search
from engine.reading import (KEEPS, THROWS, careful_prices, draw_hands, keep_values, play_contexts,
                            play_likelihood)


def test_keep_values_count_the_hand_exactly_and_the_crib_by_the_table():
    rng = random.Random(4)
    for n in range(40):
        six = rng.sample(range(52), 6)
        dealer = n % 2 == 0
        values = keep_values(six, dealer)
        by_keep = {o.keep: o for o in discard_options(six, dealer, crib="table")}
        for k in range(15):
            keep = tuple(sorted(six[i] for i in KEEPS[k]))
            throw = [six[i] for i in THROWS[k]]
            crib = crib_value(throw)
            assert abs(values[k] - (by_keep[keep].hand_ev + (crib if dealer else -crib))) < 1e-9


def test_the_model_keeps_what_the_careful_discard_keeps_nearly_always():
    rng = random.Random(8)
    same = 0
    for n in range(150):
        six = rng.sample(range(52), 6)
        values = keep_values(six, n % 2 == 0)
        best = max(range(15), key=lambda k: values[k])
        same += tuple(sorted(six[i] for i in KEEPS[best])) == discard_options(six, n % 2 == 0)[0].keep
    assert same >= 135


def test_play_contexts_read_each_choice_of_the_other_side():
    # the other side (1) leads 10C; seat 0: 5D (15); the other: 3C (18); seat 0: KD (28); 4H
    # does not fit: a new count, and the other side leads it
    laid = [[1, 9], [0, 17], [1, 2], [0, 25], [1, 29]]
    contexts = play_contexts(laid, 1)
    assert [(bytes(seq), count, rank, j) for seq, count, rank, j in contexts] == [
        (b"", 0, 9, 0), (bytes([9, 4]), 15, 2, 1), (b"", 0, 3, 2)]


def test_careful_prices_take_fifteen_and_do_not_lead_a_five():
    prices = dict((r, p) for p, r in careful_prices([4, 7, 9], bytes([4]), 5))  # a five led: 5, 8, 10
    assert max(prices, key=prices.get) == 9  # the ten makes fifteen
    lead = dict((r, p) for p, r in careful_prices([3, 4, 9, 12], b"", 0))
    assert lead[4] < lead[3] and lead[4] < lead[9]


def test_play_likelihood_doubts_a_hand_that_would_have_taken_fifteen():
    # The other side answered a ten led with a king: likely it held no five
    contexts = play_contexts([[0, parse_cards("10D")[0]], [1, parse_cards("KC")[0]]], 1)
    laid = parse_cards("KC")
    with_five = play_likelihood(contexts, parse_cards("5H 2C 8S"), laid)
    without = play_likelihood(contexts, parse_cards("3H 2C 8S"), laid)
    assert with_five < 0.2 < without


def test_draw_hands_are_legal_fixed_by_the_generator_and_fit_the_goes():
    pool = list(range(13, 52))
    laid = [0, 9]  # AC, 10C laid by the other side
    for floor in (1, 6):
        first = draw_hands(keyed_generator("draw"), pool, laid, 2, floor, True, None, 20)
        assert first == draw_hands(keyed_generator("draw"), pool, laid, 2, floor, True, None, 20)
        for hand, thrown in first:
            assert len(hand) == 2 and len(thrown) == 2 and len(set(hand + thrown)) == 4
            assert set(hand + thrown) <= set(pool)
            assert all(VALUE_OF[c] >= floor for c in hand)


def test_hands_drawn_before_any_play_are_the_keeps_of_a_careful_discard():
    pool = list(range(52))
    drawn = draw_hands(keyed_generator("keeps"), pool, [], 4, 1, False, None, 60)
    best = 0
    for hand, thrown in drawn:
        six = hand + thrown
        values = keep_values(six, False)
        top = max(range(15), key=lambda k: values[k])
        best += sorted(six[i] for i in KEEPS[top]) == sorted(hand)
    # Most are the best keep; about a third are the slips and careless throws the model allows.
    assert 33 <= best <= 50


def test_a_play_unlike_the_model_still_gets_its_samples_within_the_budget():
    laid = parse_cards("5C 5D 5H")  # three fives laid one after another as leads: never a careful choice
    contexts = [(b"", 0, 4, 0), (b"", 0, 4, 1), (b"", 0, 4, 2)]
    pool = [c for c in range(52) if c not in laid]
    drawn = draw_hands(keyed_generator("slip"), pool, laid, 1, 1, True, contexts, 24, budget=40)
    assert len(drawn) == 24 and all(len(h) == 1 and len(t) == 2 for h, t in drawn)


def test_the_joint_search_of_one_sample_is_the_open_search():
    rng = random.Random(5)
    checked = 0
    while checked < 400:
        deck = [r for r in range(13) for _ in range(4)]
        rng.shuffle(deck)
        k0, k1 = rng.randint(1, 4), rng.randint(0, 4)
        mine, theirs = sorted(deck[:k0]), sorted(deck[k0:k0 + k1])
        seq, count = [], 0
        for r in deck[8:8 + rng.randint(0, 3)]:
            if count + min(r + 1, 10) > 31:
                break
            seq.append(r)
            count += min(r + 1, 10)
        if not any(count + min(r + 1, 10) <= 31 for r in mine):
            continue
        need = (121, 121) if rng.random() < 0.5 else (rng.randint(1, 15), rng.randint(1, 15))
        leaf = Leaf(need, (rng.randint(0, 20), rng.randint(0, 20)), rng.randint(0, 1))
        gone = rng.choice((0, 2)) if theirs else 0
        assert (JointSearch([leaf]).card_values(mine, [theirs], seq, count, gone)
                == Search(leaf).card_values(mine, theirs, seq, count, gone))
        checked += 1


def test_the_joint_search_never_claims_more_than_the_open_searches():
    """One card for every sample that has seen the same play: never worth more than the average
    of the open searches (each sample's best line, as if its cards were seen), often less."""
    rng = random.Random(11)
    less = 0
    for _ in range(150):
        deck = [r for r in range(13) for _ in range(4)]
        rng.shuffle(deck)
        mine = sorted(deck[:3])
        hands = [sorted(deck[3 + 3 * i:6 + 3 * i]) for i in range(3)]
        leaf = Leaf((121, 121), (0, 0), 0)
        joint = JointSearch([leaf] * 3).card_values(mine, hands, (), 0)
        apart = [Search(leaf).card_values(mine, h, (), 0) for h in hands]
        for r in joint:
            average = sum(a[r] for a in apart) / 3
            assert joint[r] <= average + 1e-9
            less += joint[r] < average - 1e-9
    assert less >= 10
