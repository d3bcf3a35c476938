"""The distribution of show scores over every (four-card hand, starter) pair."""

import random
from itertools import combinations, combinations_with_replacement, product

import pytest

from engine.analysis import HANDS_WITH_STARTER, distribution_mean, rank_hand_counts, score_distribution
from engine.scoring import show_total

J = 10


def brute_force(hand_ranks, crib):
    """Score every real hand with these ranks with every starter, one show_total at a time."""
    counts = [0] * 30
    by_rank = {}
    for r in hand_ranks:
        by_rank[r] = by_rank.get(r, 0) + 1
    suit_choices = [list(combinations(range(4), m)) for m in by_rank.values()]
    for choice in product(*suit_choices):
        hand = [s * 13 + r for r, suits in zip(by_rank, choice) for s in suits]
        for starter in range(52):
            if starter not in hand:
                counts[show_total(hand, starter, crib)] += 1
    return counts


CURATED = [
    (4, 4, 4, 10),    # 5 5 5 J
    (4, 4, 4, 4),     # four fives
    (1, 5, 8, 11),    # four different ranks, no jack
    (1, 5, 8, 10),    # four different ranks with a jack
    (0, 4, 9, 10),    # A 5 10 J
    (10, 10, 10, 10),
    (10, 10, 4, 4),
    (10, 10, 10, 3),
    (2, 3, 4, 10),
    (6, 6, 7, 8),
    (0, 1, 2, 3),
    (9, 10, 11, 12),
]


@pytest.mark.parametrize("hand_ranks", CURATED)
def test_rank_hand_counts_match_brute_force(hand_ranks):
    for crib in (False, True):
        assert rank_hand_counts(hand_ranks, crib) == brute_force(hand_ranks, crib)


@pytest.mark.slow
def test_rank_hand_counts_match_brute_force_on_many_rank_sets():
    rng = random.Random(4)
    every = list(combinations_with_replacement(range(13), 4))
    sample = rng.sample(every, 60)
    sample += rng.sample([r for r in every if J in r and len(set(r)) == 4], 15)
    for hand_ranks in sample:
        for crib in (False, True):
            assert rank_hand_counts(hand_ranks, crib) == brute_force(hand_ranks, crib), hand_ranks


@pytest.mark.slow
def test_published_distribution():
    counts = score_distribution()
    assert len(counts) == 30
    assert sum(counts) == HANDS_WITH_STARTER == 12_994_800
    assert counts[0] == 1_009_008
    assert counts[29] == 4
    assert [counts[n] for n in (19, 25, 26, 27)] == [0, 0, 0, 0]
    assert counts[28] == 76  # four fives and a ten-card (16), or three fives, a ten-card and the
    # fourth five as starter (64), less the four 29s
    assert distribution_mean(counts) == pytest.approx(4.7692, abs=5e-5)


@pytest.mark.slow
def test_crib_distribution():
    hand, crib = score_distribution(), score_distribution(crib=True)
    assert sum(crib) == 12_994_800
    assert [crib[n] for n in (19, 25, 26, 27)] == [0, 0, 0, 0]
    assert crib[29] == 4 and crib[28] == 76
    assert distribution_mean(crib) < distribution_mean(hand)
    # Only four-card flushes (four hand cards of a suit, the starter of another) differ, by 4.
    four_card_flushes = 4 * 715 * 39  # suits x C(13, 4) rank sets x starters of other suits
    points = sum(p * n for p, n in enumerate(hand)) - sum(p * n for p, n in enumerate(crib))
    assert points == 4 * four_card_flushes
