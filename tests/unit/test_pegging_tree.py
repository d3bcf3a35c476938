"""The tree of sequences (engine.pegging.SeqTree) and the numbered positions of the joint search."""

from __future__ import annotations

import random

import engine.pegging as pegging
from engine.pegging import SeqTree, danger, model_choice, peg, peg_points
from engine.pegging_joint import JointSearch
from engine.pegging_search import Leaf

VALUE = [min(r + 1, 10) for r in range(13)]


def random_sequence(rng: random.Random) -> list[int]:
    seq, count = [], 0
    for _ in range(rng.randint(1, 8)):
        r = rng.randrange(13)
        if count + VALUE[r] > 31 or seq.count(r) == 4:
            break
        seq.append(r)
        count += VALUE[r]
    return seq


def test_the_tree_keeps_the_points_and_the_risk_of_each_sequence():
    rng = random.Random(3)
    tree = SeqTree()
    for _ in range(400):
        seq = random_sequence(rng)
        if not seq:
            continue
        count = sum(VALUE[r] for r in seq)
        node = tree.node(seq)
        assert tree.count[node] == count
        assert tree.peg[node] == peg_points(seq, count)
        risk = 0.0
        for r in range(13):
            if count + VALUE[r] <= 31:
                risk += peg_points(seq + [r], count + VALUE[r])
        assert tree.risk(node) == risk / 13.0
        assert tree.model_price(node) == peg_points(seq, count) - (risk / 13.0 if count < 31 else 0.0)
        assert peg(bytes(seq), count) == peg_points(seq, count)
        assert danger(bytes(seq), count) == risk / 13.0


def test_model_choice_lays_the_best_priced_card_the_higher_on_a_tie():
    def price(seq, r):
        count = sum(VALUE[x] for x in seq) + VALUE[r]
        risk = sum(peg_points(seq + [r, x], count + VALUE[x]) for x in range(13) if count + VALUE[x] <= 31)
        return peg_points(seq + [r], count) - (risk / 13.0 if count < 31 else 0.0)

    rng = random.Random(5)
    for _ in range(300):
        seq = random_sequence(rng)
        count = sum(VALUE[r] for r in seq)
        hand = sorted(rng.sample(range(13), rng.randint(1, 4)))
        fits = [r for r in hand if count + VALUE[r] <= 31]
        i = model_choice(bytes(hand), bytes(seq), count)
        if not fits:
            assert i == -1
            continue
        best = max(price(seq, r) for r in fits)
        assert price(seq, hand[i]) == best
        assert hand[i] == max(r for r in fits if price(seq, r) == best)


def joint_values(leaf: Leaf, mine, hands, seq, count):
    return JointSearch([leaf] * len(hands)).card_values(mine, hands, seq, count)


def test_the_search_does_not_depend_on_what_the_tree_already_holds():
    rng = random.Random(7)
    cases = []
    for _ in range(30):
        deck = [r for r in range(13) for _ in range(4)]
        rng.shuffle(deck)
        mine = sorted(deck[:4])
        hands = [sorted(deck[4 + 4 * i:8 + 4 * i]) for i in range(6)]
        need = (121, 121) if rng.random() < 0.5 else (rng.randint(3, 15), rng.randint(3, 15))
        cases.append((Leaf(need, (rng.randint(0, 12), rng.randint(0, 12)), rng.randint(0, 1)), mine, hands))
    saved = pegging._TREE
    try:
        pegging._TREE = SeqTree()
        fresh = [joint_values(leaf, mine, hands, (), 0) for leaf, mine, hands in cases]
        again = [joint_values(leaf, mine, hands, (), 0) for leaf, mine, hands in reversed(cases)][::-1]
        assert again == fresh
        # A tree replaced while a search is under way (it grew past its limit) leaves that search
        # on the tree it started with, and the answers stay the same.
        limit = pegging._TREE_LIMIT
        pegging._TREE_LIMIT = 50
        try:
            searches = [JointSearch([leaf] * len(hands)) for leaf, _, hands in cases]
            pegging.seq_tree()  # too big by now: a fresh tree
            for search, (leaf, mine, hands), values in zip(searches, cases, fresh):
                peg(bytes([4, 9, 10]), 25)
                assert search.card_values(mine, hands, (), 0) == values
        finally:
            pegging._TREE_LIMIT = limit
    finally:
        pegging._TREE = saved


def test_positions_are_kept_under_whole_numbers():
    leaf = Leaf((121, 121), (0, 0), 0)
    search = JointSearch([leaf] * 3)
    search.card_values((1, 4, 9, 12), [(0, 4, 8, 11), (2, 3, 9, 9), (5, 6, 6, 10)], (), 0)
    assert search._memos and all(isinstance(key, int) for memo in search._memos for key in memo)
    near = JointSearch([Leaf((9, 7), (4, 6), 1)] * 3)
    near.card_values((1, 4, 9, 12), [(0, 4, 8, 11), (2, 3, 9, 9), (5, 6, 6, 10)], (), 0)
    keys = [key for by_points in near._near for memo in by_points.values() if isinstance(memo, dict) for key in memo]
    assert keys and all(isinstance(key, int) for key in keys)
