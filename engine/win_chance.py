"""The chance of winning a two-player game from the points each side still needs (the board position).

``win_chance(dealer_needs, pone_needs)`` is the chance that the side dealing the next hand wins,
worked out the first time it is asked (a few hundred thousand sums; the table is kept) from
how many points a hand brings each side between two careful players: the dealer's pegging, the
dealer's total (pegging, hand, crib and heels) and the pone's total, taken as independent
(``DEALER_PEG``, ``DEALER_TOTAL``, ``PONE_TOTAL``: counts of hands of hard against hard). In a
hand the dealer may peg out in the play; otherwise the pone counts first and then the dealer;
otherwise the deal passes and the pone of this hand deals the next.

>>> round(win_chance(121, 121), 2)  # the first dealer's chance
0.56
>>> win_chance(1, 50) > 0.99 and win_chance(50, 1) < 0.05
True
"""

# Hands (4,011 of 500 games between two hard players) by the points they brought: index = points.
DEALER_PEG = (0, 866, 728, 859, 563, 447, 224, 153, 65, 40, 30, 15, 4, 2, 5, 2, 3, 2, 3)
DEALER_TOTAL = (0, 0, 0, 3, 8, 33, 27, 60, 86, 145, 154, 262, 250, 313, 272, 317, 300, 314, 250, 244, 203,
                178, 127, 127, 82, 75, 46, 37, 36, 17, 16, 8, 5, 4, 5, 2, 2, 0, 1, 0, 2)
PONE_TOTAL = (4, 3, 36, 79, 159, 211, 288, 352, 368, 437, 336, 372, 281, 277, 182, 151, 110, 96, 77, 57, 44,
              20, 25, 8, 13, 13, 4, 3, 1, 0, 1, 2, 0, 0, 1)

MAX_NEEDS = 121  # the longest game's target
_win: list = []  # the table (rows[d][p], see _build), once built


def _shares(counts: "tuple") -> list:
    total = 0
    for n in counts:
        total += n
    return [n / total for n in counts]


def _at_least(shares: list, size: int) -> list:
    """out[k]: the chance of k points or more, k = 0 .. size."""
    out = [0.0] * (size + 1)
    tail = 0.0
    for k in range(len(shares) - 1, -1, -1):
        tail += shares[k]
        if k <= size:
            out[k] = tail
    return out


def _build(target: int) -> list:
    """rows[d][p]: the next dealer's chance of winning when it needs d points and the pone p (1..target)."""
    peg = _shares(DEALER_PEG)
    dealer = _shares(DEALER_TOTAL)
    pone = _shares(PONE_TOTAL)
    peg_ge = _at_least(peg, target)
    dealer_ge = _at_least(dealer, target)
    pone_ge = _at_least(pone, target)
    n = target + 1
    win = [[0.0] * n for _ in range(n)]
    cont = [[0.0] * n for _ in range(n)]  # cont[a][d]: sum over dealer totals x < d of P(x) (1 - win[a][d - x])
    nd, np_ = len(dealer), len(pone)
    for s in range(2, 2 * target + 1):
        lo = max(1, s - target)
        hi = min(target, s - 1)
        for a in range(lo, hi + 1):
            d = s - a
            row = win[a]
            total = 0.0
            top = min(d - 1, nd - 1)
            for x in range(1, top + 1):  # DEALER_TOTAL[0] is 0: the dealer's need always falls
                total += dealer[x] * (1.0 - row[d - x])
            cont[a][d] = total
        for d in range(lo, hi + 1):
            p = s - d
            chance = peg_ge[d] + (dealer_ge[d] - peg_ge[d]) * (1.0 - pone_ge[p])
            total = 0.0
            top = min(p - 1, np_ - 1)
            for x in range(0, top + 1):
                total += pone[x] * cont[p - x][d]
            win[d][p] = chance + total
    return win


def win_chance(dealer_needs: int, pone_needs: int) -> float:
    """The chance that the side about to deal wins, needing dealer_needs points to the pone's
    pone_needs (a side that needs nothing has won; needs past MAX_NEEDS count as MAX_NEEDS)."""
    if pone_needs <= 0:
        return 0.0
    if dealer_needs <= 0:
        return 1.0
    if not _win:
        _win.extend(_build(MAX_NEEDS))
    return _win[min(dealer_needs, MAX_NEEDS)][min(pone_needs, MAX_NEEDS)]
