"""The chance of winning a two-player game from the points each side still needs (the board position).

``win_chance(dealer_needs, pone_needs)`` is the chance that the side dealing the next hand wins,
worked out as far as it is asked (a few hundred thousand sums in all; the table is kept) from
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
_TABLE: list = []  # [win, lose, cont, diagonals done, shares] once begun (see _extend)


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


def _begin(target: int) -> list:
    """The empty table for needs 1..target: win[d][p] (the next dealer's chance of winning when it
    needs d points and the pone p), lose (1 - win), cont (cont[d][a]: the sum over dealer totals
    x < d of P(x) (1 - win[a][d - x])), no diagonal done yet, and the shares of the three counts."""
    n = target + 1
    dealer = _shares(DEALER_TOTAL)
    peg = _shares(DEALER_PEG)
    shares = (dealer, _shares(PONE_TOTAL), _at_least(peg, target), _at_least(dealer, target),
              _at_least(_shares(PONE_TOTAL), target), target)
    return [[[0.0] * n for _ in range(n)], [[1.0] * n for _ in range(n)], [[0.0] * n for _ in range(n)], 1, shares]


def _extend(table: list, upto: int) -> None:
    """Work the table out up to the diagonal d + p = upto: each diagonal needs only the ones
    before it, so the table grows as far as it is asked (the same sums, in the same order, as
    when it is worked out whole)."""
    win, lose, cont, done, shares = table
    dealer, pone, peg_ge, dealer_ge, pone_ge, target = shares
    nd, np_ = len(dealer), len(pone)
    for s in range(done + 1, min(upto, 2 * target) + 1):
        lo = max(1, s - target)
        hi = min(target, s - 1)
        for a in range(lo, hi + 1):
            d = s - a
            row = lose[a]
            total = 0.0
            k = d - 1
            for x in range(1, min(d - 1, nd - 1) + 1):  # DEALER_TOTAL[0] is 0: the dealer's need always falls
                total += dealer[x] * row[k]
                k -= 1
            cont[d][a] = total
        for d in range(lo, hi + 1):
            p = s - d
            chance = peg_ge[d] + (dealer_ge[d] - peg_ge[d]) * (1.0 - pone_ge[p])
            total = 0.0
            col = cont[d]
            k = p
            for x in range(0, min(p - 1, np_ - 1) + 1):
                total += pone[x] * col[k]
                k -= 1
            chance += total
            win[d][p] = chance
            lose[d][p] = 1.0 - chance
        table[3] = s


def prepare(work: int, upto: int = 2 * MAX_NEEDS) -> None:
    """Work the table out a little further ahead of need: whole diagonals, up to d + p = upto,
    until about ``work`` sums are done (a player can spread the table over its moves so that no
    single move pays for all of it; the values are the same however it is built)."""
    if not _TABLE:
        _TABLE.extend(_begin(MAX_NEEDS))
    shares = _TABLE[4]
    longest = len(shares[0]) + len(shares[1])
    s = _TABLE[3]
    top = min(upto, 2 * MAX_NEEDS)
    while work > 0 and s < top:
        s += 1
        work -= (min(MAX_NEEDS, s - 1) - max(1, s - MAX_NEEDS) + 1) * min(s, longest)
    if s > _TABLE[3]:
        _extend(_TABLE, s)


def _build(target: int) -> list:
    """rows[d][p]: the next dealer's chance of winning when it needs d points and the pone p (1..target)."""
    table = _begin(target)
    _extend(table, 2 * target)
    return table[0]


def win_chance(dealer_needs: int, pone_needs: int) -> float:
    """The chance that the side about to deal wins, needing dealer_needs points to the pone's
    pone_needs (a side that needs nothing has won; needs past MAX_NEEDS count as MAX_NEEDS)."""
    if pone_needs <= 0:
        return 0.0
    if dealer_needs <= 0:
        return 1.0
    d, p = min(dealer_needs, MAX_NEEDS), min(pone_needs, MAX_NEEDS)
    if not _TABLE:
        _TABLE.extend(_begin(MAX_NEEDS))
    if d + p > _TABLE[3]:
        _extend(_TABLE, d + p)
    return _TABLE[0][d][p]
