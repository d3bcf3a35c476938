"""Reading the other hand: a fast model of a careful discard, and hands drawn as likely as it makes them.

A careful player keeps the four of its six cards that are worth most: the hand's average show
over the 46 starters it could be cut, plus (dealer) or minus (pone) what the two cards thrown
are worth to the crib. ``keep_values`` prices all 15 keeps of six cards that way, quickly: the
fifteens, pairs and runs of a four with a starter come from the show table (engine.scoring),
the four's sum over every starter rank is remembered by the four's ranks, and the six cards
dealt only take away the starters they hold; flushes and nobs are counted by suit; the crib is
the shipped crib table's figure (``analysis.crib_value``).

``draw_hand`` draws the other side's cards from what a view shows: its six cards are the cards
it has laid and cards drawn from those the viewer cannot see; the six are kept only as often as
a careful player would have kept, among its 15 keeps, one that holds every card laid (and
only cards over the go floor still in hand). That is rejection sampling: the hands come out as
likely as the model of the discard makes them, given what has been seen.

>>> from engine.cards import parse_cards, card_name
>>> values = keep_values(parse_cards("5H 5S JD QC 2C 9S"), dealer=True)
>>> best = max(range(15), key=lambda i: values[i])
>>> [card_name(c) for c in keep_cards(parse_cards("5H 5S JD QC 2C 9S"), best)]
['5H', '5S', 'JD', 'QC']
"""

from engine.analysis import crib_value
from engine.cards import JACK, RANK_OF, SUIT_OF, VALUE_OF
from engine.compat import combinations
from engine.pegging import MAX_COUNT, RANK_BYTES, RANK_VALUE, danger, peg
from engine.scoring import FIVE_CARD_FLUSH, HAND_FLUSH, NOBS, build_tables

STARTERS = 46  # cards a starter may be, six cards dealt
_WEIGHT = tuple(5 ** r for r in range(13))  # the rank-multiset key of engine.scoring's table
# The 15 ways to keep four of six cards (positions in the six), and the two thrown each time.
KEEPS = tuple(combinations(range(6), 4))
THROWS = tuple(tuple(i for i in range(6) if i not in keep) for keep in KEEPS)
_FOUR_SUMS: dict = {}  # a four's rank key -> fifteens, pairs and runs summed over 48 starters


def _four_sum(key: int, ranks: "list[int]", table: dict) -> int:
    """The show table's points of a four (rank key) with each card of the deck as starter, summed.

    Each starter rank r is one of 4 - (the four's cards of rank r) cards.
    """
    total = 0
    for r in range(13):
        left = 4 - ranks.count(r)
        if left:
            total += left * table[key + _WEIGHT[r]]
    _FOUR_SUMS[key] = total
    return total


_CRIB_BY_CARDS: list = []  # the crib table's figure for two thrown cards, at 52 * a + b


def _crib_by_cards() -> list:
    """crib_value of every two cards, indexed 52 * a + b (filled once)."""
    if not _CRIB_BY_CARDS:
        for a in range(52):
            for b in range(52):
                _CRIB_BY_CARDS.append(crib_value((a, b)) if a != b else 0.0)
    return _CRIB_BY_CARDS


def keep_values(six: "list[int]", dealer: bool) -> list:
    """The worth of each of the 15 keeps of six cards (in ``KEEPS`` order) to a careful player.

    The four's average show over the 46 starters, plus the crib table's figure for the two
    thrown (dealer) or minus it (pone).
    """
    table = build_tables()
    crib = _CRIB_BY_CARDS or _crib_by_cards()
    sums = _FOUR_SUMS
    ranks = [RANK_OF[c] for c in six]
    weights = [_WEIGHT[r] for r in ranks]
    everything = weights[0] + weights[1] + weights[2] + weights[3] + weights[4] + weights[5]
    suits = [SUIT_OF[c] for c in six]
    in_suit = [0, 0, 0, 0]
    for s in suits:
        in_suit[s] += 1
    nobs = [NOBS * (13 - in_suit[suits[i]]) if ranks[i] == JACK else 0 for i in range(6)]
    all_nobs = nobs[0] + nobs[1] + nobs[2] + nobs[3] + nobs[4] + nobs[5]
    flush = max(in_suit) >= 4
    sign = 1.0 if dealer else -1.0
    out = []
    for x, y in THROWS:
        wx, wy = weights[x], weights[y]
        key = everything - wx - wy
        total = sums.get(key)
        if total is None:
            total = _four_sum(key, [ranks[i] for i in range(6) if i != x and i != y], table)
        points = total - table[key + wx] - table[key + wy] + all_nobs - nobs[x] - nobs[y]
        if flush:
            keep = [suits[i] for i in range(6) if i != x and i != y]
            s = keep[0]
            if s == keep[1] and s == keep[2] and s == keep[3]:
                same = 13 - in_suit[s]  # starters of the four's suit
                points += FIVE_CARD_FLUSH * same + HAND_FLUSH * (STARTERS - same)
        out.append(points / STARTERS + sign * crib[52 * six[x] + six[y]])
    return out


def keep_cards(six: "list[int]", k: int) -> list:
    """The four cards keep number k (``KEEPS`` order) keeps of six."""
    return [six[i] for i in KEEPS[k]]


KEEP_SCALE = 0.3  # a keep this far (points) below the best is never chosen by the model
KEEP_FLOOR = 0.03  # the weight of any other keep: players throw carelessly at times, and no hand is ruled out
DRAWS_PER_SAMPLE = 12  # sixes drawn for the samples of one decision at most, per sample


def keep_weight(gap: float) -> float:
    """How likely a careful player keeps a four worth gap points less than its best (best: 1)."""
    if gap >= KEEP_SCALE:
        return KEEP_FLOOR
    x = 1.0 - gap / KEEP_SCALE
    return KEEP_FLOOR + x * x * x


# The keeps (KEEPS numbers) that hold the first n cards of six, for n cards laid.
_HOLDING = tuple(tuple(k for k in range(15) if all(i in KEEPS[k] for i in range(n))) for n in range(5))


def draw_hands(rng, pool: "list[int]", laid: "list[int]", held: int, floor: int, dealer: bool,
               contexts: "list | None", wanted: int, budget: "int | None" = None) -> list:
    """wanted samples of the other side's cards: (the cards it still holds, the two it threw).

    pool: the cards the viewer cannot see; laid: the cards the other side has laid this hand,
    in order; held: how many it still holds; floor: the lowest value a held card can have
    (engine.expert.go_floor); dealer: the other side dealt; contexts: its choices in the play
    (``play_contexts``), or None to read the discard alone.

    Its six cards are laid plus cards drawn from pool. A draw is kept with the chance that a
    careful discard (``keep_values`` weighted by ``keep_weight``) keeps a four holding every
    card laid, and only cards of floor or more still in hand (which four: drawn by the same
    weights), and then with the chance that a careful player holding them laid what it laid
    (``play_likelihood``): rejection sampling, so the samples are as likely as the model makes
    them. When budget draws are spent first (the other side played unlike the model), the
    samples still missing (budget: DRAWS_PER_SAMPLE draws a sample unless given) are drawn
    from the fours kept so far, in proportion to their
    likelihood of the play; with none kept, from the cards over the floor.
    """
    laid = list(laid)
    n = len(laid)
    holding = _HOLDING[n]
    if budget is None:
        budget = DRAWS_PER_SAMPLE * wanted
    out = []
    kept = []  # (likelihood of the play, hand, thrown) of every four the discard kept
    spent = 0
    while len(out) < wanted and spent < budget:
        spent += 1
        six = laid + _draw(rng, pool, 6 - n)
        values = keep_values(six, dealer)
        top = max(values) - KEEP_SCALE
        weights = []
        total = 0.0
        for v in values:  # keep_weight(max - v), inline
            if v > top:
                x = (v - top) / KEEP_SCALE
                w = KEEP_FLOOR + x * x * x
            else:
                w = KEEP_FLOOR
            weights.append(w)
            total += w
        fits = []
        share = 0.0
        for k in holding:
            if floor > 1 and any(VALUE_OF[six[i]] < floor for i in KEEPS[k] if i >= n):
                continue
            fits.append(k)
            share += weights[k]
        u = rng.random() * total
        if u >= share:
            continue
        for k in fits:
            u -= weights[k]
            if u < 0:
                break
        hand, thrown = _split(six, k, n)
        chance = play_likelihood(contexts, hand, laid) if contexts else 1.0
        kept.append((chance, hand, thrown))
        if chance >= 1.0 or rng.random() < chance:
            out.append((hand, thrown))
    if len(out) < wanted and kept:
        total = 0.0
        for chance, _, _ in kept:
            total += chance
        while len(out) < wanted:
            u = rng.random() * total
            for chance, hand, thrown in kept:
                u -= chance
                if u < 0:
                    break
            out.append((hand, thrown))
    fits = [c for c in pool if VALUE_OF[c] >= floor]
    if len(fits) < held:
        fits = list(pool)
    while len(out) < wanted:  # nothing kept at all: cards over the floor, as they come
        hand = _draw(rng, fits, held)
        rest = [c for c in pool if c not in hand]
        out.append((hand, _draw(rng, rest, 2) if len(rest) >= 2 else rest))
    return out


PLAY_SCALE = 0.3  # a card priced this far below the best is laid only by a slip
PLAY_FLOOR = 0.05  # the weight of such a slip


def play_contexts(laid: "list", other: int) -> list:
    """The other side's choices in the play so far: (ranks laid since the reset, as bytes; the
    count; the rank it laid; how many of its cards it had laid before), one per card it laid.

    A count restarts after 31 and when the next card would pass 31 (nobody could lay one).
    """
    out = []
    seq = b""
    count = 0
    mine = 0
    for s, card in laid:
        value = VALUE_OF[card]
        if count == MAX_COUNT or count + value > MAX_COUNT:
            seq, count = b"", 0
        r = RANK_OF[card]
        if s == other:
            out.append((seq, count, r, mine))
            mine += 1
        seq += RANK_BYTES[r]
        count += value
    return out


def play_likelihood(contexts: list, held: "list[int]", laid: "list[int]") -> float:
    """The chance a careful player holding these cards laid what the other side laid (each choice
    weighted by ``play_weight`` of its price below the best, ``careful_prices``).

    held: the cards it holds now; laid: its cards laid this hand, in order.
    """
    chance = 1.0
    for seq, count, rank, j in contexts:
        hand = sorted([RANK_OF[c] for c in held] + [RANK_OF[c] for c in laid[j:]])
        prices = careful_prices(hand, seq, count)
        if len(prices) < 2:
            continue
        top = prices[0][0]
        for p, _ in prices:
            if p > top:
                top = p
        total = 0.0
        mine = 0.0
        for p, r in prices:
            w = play_weight(top - p)
            total += w
            if r == rank:
                mine = w
        chance *= mine / total
    return chance


def play_weight(gap: float) -> float:
    """How likely a careful player lays a card priced gap below its best card (best: 1 + floor)."""
    if gap >= PLAY_SCALE:
        return PLAY_FLOOR
    return PLAY_FLOOR + 1.0 - gap / PLAY_SCALE


def careful_prices(hand: "list[int]", seq: bytes, count: int) -> list:
    """(price, rank) of each rank in hand (sorted ranks) that fits the count: the points it pegs
    less the points a random reply pegs (pegging.danger), with a strong player's habits
    (no five led, a low lead, a lead from a pair, low cards kept for the end of a count)."""
    out = []
    prev = -1
    n = len(hand)
    for i in range(n):
        r = hand[i]
        if r == prev:
            continue
        prev = r
        value = RANK_VALUE[r]
        total = count + value
        if total > MAX_COUNT:
            break
        s2 = seq + RANK_BYTES[r]
        points = peg(s2, total)
        price = points - (danger(s2, total) if total < MAX_COUNT else 0.0)
        if not seq:
            if r == 4:
                price -= 1.0
            elif value <= 4:
                price += 0.4
            if (i + 1 < n and hand[i + 1] == r) or (i and hand[i - 1] == r):
                price += 0.3
            if value == 10 and 4 in hand:
                price += 0.1
        elif points == 0 and value <= 4 and total <= 20 and RANK_VALUE[hand[-1]] > 4:
            price -= 0.3
        out.append((price, r))
    return out


def _split(six: list, k: int, n: int) -> "tuple[list, list]":
    """The cards keep k of six still holds (past the n laid) and the two it throws."""
    return [six[i] for i in KEEPS[k] if i >= n], [six[i] for i in THROWS[k]]


def _draw(rng, cards: "list[int]", k: int) -> list:
    """k distinct cards drawn from cards (a partial shuffle of a copy), in the order drawn."""
    pool = list(cards)
    out = []
    for i in range(k):
        j = i + rng.below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
        out.append(pool[i])
    return out
