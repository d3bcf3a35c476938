"""Analysis over many deals: the distribution of show scores (discard tables come later).

Counts are found combinatorially rather than by scoring 12,994,800 hands one by one. Fifteens,
pairs and runs depend only on the ranks of the five cards, so each four-card rank multiset is
scored once per starter rank from the table behind ``scoring.show_total``; the suits only add
the flush and nobs, and the number of suit arrangements giving each is counted in closed form
(see ``rank_hand_counts``).

>>> counts = score_distribution()
>>> sum(counts), counts[0], counts[29], [counts[n] for n in (19, 25, 26, 27)]
(12994800, 1009008, 4, [0, 0, 0, 0])
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement
from math import comb
from collections.abc import Sequence

from engine.cards import JACK
from engine.scoring import FIVE_CARD_FLUSH, HAND_FLUSH, MAX_SHOW_TOTAL, NOBS, build_tables

_RANK_WEIGHT = tuple(5 ** r for r in range(13))  # the same rank-multiset key as engine.scoring

HANDS_WITH_STARTER = comb(52, 4) * 48  # 12,994,800


def rank_hand_counts(hand_ranks: Sequence[int], crib: bool = False,
                     counts: list[int] | None = None) -> list[int]:
    """Add to counts (index = points) every (four-card hand, starter) whose hand has these ranks.

    For a hand with m_x cards of rank x there are prod C(4, m_x) suit arrangements, and
    4 - m_r starters of rank r. Nobs: with j jacks in the hand, a starter of another rank r
    matches a jack's suit in a fraction j / 4 of the (arrangement, starter) pairs. A flush needs
    four different ranks: 4 of the 256 arrangements are one suit; the starter then matches
    that suit once if its rank is not in the hand (5 points, with nobs if there is a jack),
    and otherwise never.

    >>> sum(rank_hand_counts([4, 4, 4, 10]))  # 5 5 5 J: 4 x 4 suit arrangements, 48 starters
    768
    """
    if counts is None:
        counts = [0] * (MAX_SHOW_TOTAL + 1)
    table = build_tables()
    have = Counter(hand_ranks)
    arrangements = 1
    for m in have.values():
        arrangements *= comb(4, m)
    distinct = len(have) == 4
    jacks = have[JACK]
    hand_key = sum(_RANK_WEIGHT[r] for r in hand_ranks)
    four_flush = 0 if crib else HAND_FLUSH
    for r in range(13):
        m = have[r]
        if m == 4:
            continue
        base = table[hand_key + _RANK_WEIGHT[r]]
        if not distinct:
            pairs = arrangements * (4 - m)
            nobs = arrangements * jacks * (4 - m) // 4 if jacks and r != JACK else 0
            counts[base + NOBS] += nobs
            counts[base] += pairs - nobs
        elif m:  # four different ranks, the starter's rank among them (so r is never a flush)
            counts[base + four_flush] += 4 * 3
            nobs = 192 if jacks and r != JACK else 0  # jack's suit differs from rank r's card
            counts[base + NOBS] += nobs
            counts[base] += 252 * 3 - nobs
        else:  # four different ranks, a starter of a fifth rank
            counts[base + FIVE_CARD_FLUSH + (NOBS if jacks else 0)] += 4
            counts[base + four_flush] += 4 * 3
            nobs = 252 if jacks else 0
            counts[base + NOBS] += nobs
            counts[base] += 252 * 4 - nobs
    return counts


def score_distribution(crib: bool = False) -> list[int]:
    """Return 30 counts (index = points) of the show over all 12,994,800 (hand, starter) pairs.

    With crib=True the crib flush rule applies (only five of a suit scores).
    """
    counts = [0] * (MAX_SHOW_TOTAL + 1)
    for hand_ranks in combinations_with_replacement(range(13), 4):
        rank_hand_counts(hand_ranks, crib, counts)
    return counts


def distribution_mean(counts: Sequence[int]) -> float:
    """Return the mean points of a distribution given as counts by points.

    >>> round(distribution_mean(score_distribution()), 4)
    4.7692
    """
    return sum(points * n for points, n in enumerate(counts)) / sum(counts)
