"""Analysis over many deals: the distribution of show scores, the crib table and the discard.

Counts are found combinatorially rather than by scoring 12,994,800 hands one by one. Fifteens,
pairs and runs depend only on the ranks of the five cards, so each four-card rank multiset is
scored once per starter rank from the table behind ``scoring.show_total``; the suits only add
the flush and nobs, and the number of suit arrangements giving each is counted in closed form
(see ``rank_hand_counts``).

>>> counts = score_distribution()
>>> sum(counts), counts[0], counts[29], [counts[n] for n in (19, 25, 26, 27)]
(12994800, 1009008, 4, [0, 0, 0, 0])

The crib table (``crib_table``) is the average crib a two-card throw makes when the other two
crib cards and the starter are any of the remaining cards, every way counted: 1,225 pairs of
discards times 48 starters, 58,800 crib deals per throw. ``compute_crib_table`` counts them
exactly (by rank classes, the same way as the distribution), ``python -m engine table`` writes
the result to ``engine/data/crib_table.json`` and ``crib_table`` reads it back.

>>> round(crib_table()[4][4], 2), round(crib_table()[1][2], 2)  # 5-5 and 2-3
(8.99, 6.84)

``discard_options`` prices every way to keep four of the six cards dealt: the exact average
hand over the 46 starters that could be cut, plus (dealer) or minus (pone) the expected crib of
the two cards thrown (the crib table's model, counted exactly knowing the six cards dealt; or
the table itself).

>>> from engine.cards import parse_cards
>>> best = discard_options(parse_cards("5H 5S JD QC 2C 9S"), is_dealer=True)[0]
>>> [card_name(c) for c in best.throw], round(best.hand_ev, 2)
(['2C', '9S'], 12.7)
"""

import json

from engine.cards import JACK, RANK_OF, RANKS, SUIT_OF, card_name, parse_cards
from engine.compat import combinations, combinations_with_replacement, comb, round_to, value_counts
from engine.messages import quoted
from engine.scoring import (
    FIVE_CARD_FLUSH,
    HAND_FLUSH,
    MAX_SHOW_TOTAL,
    NOBS,
    build_tables,
    show_total,
    show_totals,
)

_RANK_WEIGHT = tuple(5 ** r for r in range(13))  # the same rank-multiset key as engine.scoring

HANDS_WITH_STARTER = comb(52, 4) * 48  # 12,994,800


def rank_hand_counts(hand_ranks: "list[int]", crib: bool = False,
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
    have = [0] * 13
    for r in hand_ranks:
        have[r] += 1
    arrangements = 1
    for m in have:
        arrangements *= comb(4, m)
    distinct = max(have) == 1
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


def distribution_mean(counts: "list[int]") -> float:
    """Return the mean points of a distribution given as counts by points.

    >>> round(distribution_mean(score_distribution()), 4)
    4.7692
    """
    return sum(points * n for points, n in enumerate(counts)) / sum(counts)


# --------------------------------------------------------------------------------------------
# The crib table: the average crib a two-card throw makes

CRIB_TABLE_PATH = __file__.replace("\\", "/").rsplit("/", 1)[0] + "/data/crib_table.json"
CRIB_TABLE_FORMAT = "cribbage-crib-table"
CRIB_TABLE_VERSION = 1
CRIB_TABLE_KINDS = ("average", "suited", "offsuit")
CRIB_DEALS = comb(50, 2) * 48  # the other player's two discards times the starter: 58,800
SUITED_CHANCE = 0.25  # two thrown cards of different ranks share a suit one time in four
_SUITED_FLUSH_DEALS = comb(11, 2) * 9  # a suited throw: other two crib cards and starter all match
_JACK_OF_SUIT = tuple(s * 13 + JACK for s in range(4))

CRIB_TABLE_METHOD = (
    "For each of the 91 rank pairs thrown, every pair of the other player's two discards from the "
    "50 cards left (1,225 ways) times every starter from the 48 left after that: 58,800 crib deals "
    "per throw, each counted with the crib rules (a flush only when all five cards are one suit; "
    "his nobs counted; his heels is the dealer's, not the crib's, and is left out). Two cards of "
    "different ranks are thrown in one suit with chance 1/4 and in two suits with chance 3/4, and "
    "'average' weights the two cases so; a pair is never suited. Every deal of the 169 throws (91 "
    "off-suit or paired, 78 suited) is counted exactly, grouped by rank classes: fifteens, pairs "
    "and runs depend only on the ranks, each rank class weighted by the number of card choices "
    "giving it, and flushes and nobs are counted by suit in closed form. 'totals' are the points "
    "summed over the 58,800 deals; 'python -m engine table --check' also scores every deal one by "
    "one and requires the same sums."
)


def crib_throw_total(a: int, b: int) -> int:
    """Return the crib points summed over all 58,800 deals of a throw of cards a and b.

    The other two crib cards and the starter are grouped by rank: fifteens, pairs and runs come
    from the rank-multiset table behind ``show_total``, weighted by the number of card choices
    with those ranks. A five-card flush needs a suited throw and the other three cards from the
    11 left in that suit. Nobs: for each starter that is not a jack, the jack of its suit is
    either thrown (all C(49, 2) pairs of other discards score it) or among the discards (48 of
    those pairs hold it).

    >>> crib_throw_total(4, 17) == crib_throw_total_brute(4, 17)  # 5C 5D
    True
    """
    table = build_tables()
    weight = _RANK_WEIGHT
    left = [4] * 13
    left[RANK_OF[a]] -= 1
    left[RANK_OF[b]] -= 1
    base = weight[RANK_OF[a]] + weight[RANK_OF[b]]
    total = 0
    for rc in range(13):
        nc = left[rc]
        if not nc:
            continue
        for rd in range(rc, 13):
            ways = nc * left[rd] if rc < rd else nc * (nc - 1) // 2
            if not ways:
                continue
            key = base + weight[rc] + weight[rd]
            for rs in range(13):
                starters = left[rs] - (rs == rc) - (rs == rd)
                if starters > 0:
                    total += ways * starters * table[key + weight[rs]]
    if SUIT_OF[a] == SUIT_OF[b]:
        total += FIVE_CARD_FLUSH * _SUITED_FLUSH_DEALS
    for starter in range(52):
        if starter == a or starter == b or RANK_OF[starter] == JACK:
            continue
        jack = _JACK_OF_SUIT[SUIT_OF[starter]]
        total += NOBS * (comb(49, 2) if jack == a or jack == b else 48)
    return total


def crib_throw_total_brute(a: int, b: int) -> int:
    """Return the same total as crib_throw_total by counting each of the 58,800 deals (slow)."""
    rest = [c for c in range(52) if c != a and c != b]
    total = 0
    for i, c in enumerate(rest):
        for d in rest[i + 1:]:
            crib = (a, b, c, d)
            for starter in rest:
                if starter != c and starter != d:
                    total += show_total(crib, starter, True)
    return total


def _representatives(r1: int, r2: int) -> tuple[tuple[int, int], tuple[int, int] | None]:
    """Cards for a rank pair thrown off-suit (clubs, diamonds) and suited (clubs; None if a pair)."""
    offsuit = (r1, 13 + r2)
    return offsuit, (None if r1 == r2 else (r1, r2))


def compute_crib_table(brute: bool = False) -> dict:
    """Return the crib table document (as written to crib_table.json), counted afresh.

    With brute=True every one of the 58,800 deals of each of the 169 throws is scored by
    show_total (seconds); otherwise they are counted by rank classes (a fraction of a second).
    Both give the same document.
    """
    count = crib_throw_total_brute if brute else crib_throw_total
    suited_totals: list[list[int | None]] = [[None] * 13 for _ in range(13)]
    offsuit_totals: list[list[int]] = [[0] * 13 for _ in range(13)]
    for r1 in range(13):
        for r2 in range(r1, 13):
            offsuit, suited = _representatives(r1, r2)
            offsuit_totals[r1][r2] = offsuit_totals[r2][r1] = count(*offsuit)
            if suited is not None:
                suited_totals[r1][r2] = suited_totals[r2][r1] = count(*suited)

    def mean(total: int | None) -> float | None:
        return None if total is None else total / CRIB_DEALS

    average = [[offsuit_totals[r1][r2] / CRIB_DEALS if r1 == r2 else
                (suited_totals[r1][r2] + 3 * offsuit_totals[r1][r2]) / (4 * CRIB_DEALS)  # type: ignore[operator]
                for r2 in range(13)] for r1 in range(13)]
    single = []
    for r in range(13):  # one card thrown: the second crib card is any of the 51 others
        points = 3 * offsuit_totals[r][r] + sum(
            suited_totals[r][r2] + 3 * offsuit_totals[r][r2]  # type: ignore[operator]
            for r2 in range(13) if r2 != r)
        single.append(points / (51 * CRIB_DEALS))
    return {
        "format": CRIB_TABLE_FORMAT,
        "version": CRIB_TABLE_VERSION,
        "description": "Average crib points made by two cards thrown to it, by rank pair; rows and "
                       "columns are the ranks A to K. 'average' is the figure of the published "
                       "table; 'suited' and 'offsuit' are the two cases it weights; 'single' is "
                       "one card thrown (three or four players).",
        "method": CRIB_TABLE_METHOD,
        "generated_by": "python -m engine table",
        "ranks": list(RANKS),
        "deals_per_throw": CRIB_DEALS,
        "suited_chance": SUITED_CHANCE,
        "average": average,
        "suited": [[mean(t) for t in row] for row in suited_totals],
        "offsuit": [[mean(t) for t in row] for row in offsuit_totals],
        "single": single,
        "totals": {"suited": suited_totals, "offsuit": offsuit_totals},
    }


def crib_table_json(document: dict) -> str:
    """Return the table document as JSON text, one line per table row (stable and diffable)."""
    lines = ["{"]
    items = list(document.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i < len(items) - 1 else ""
        if isinstance(value, dict):
            inner = list(value.items())
            lines.append(f"  {json.dumps(key)}: {{")
            for j, (sub, matrix) in enumerate(inner):
                lines.append(f"    {json.dumps(sub)}: " + _matrix_json(matrix, "    ")
                             + ("," if j < len(inner) - 1 else ""))
            lines.append("  }" + comma)
        elif isinstance(value, list) and value and isinstance(value[0], list):
            lines.append(f"  {json.dumps(key)}: " + _matrix_json(value, "  ") + comma)
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _matrix_json(matrix: list, indent: str) -> str:
    rows = [indent + "  " + json.dumps(row) for row in matrix]
    return "[\n" + ",\n".join(rows) + "\n" + indent + "]"


def write_crib_table(path: str = CRIB_TABLE_PATH, document: dict | None = None) -> dict:
    """Compute the table (unless given) and write it as JSON to path; return the document."""
    import os  # the command line only

    if document is None:
        document = compute_crib_table()
    folder = os.path.dirname(os.fspath(path))
    if folder:
        os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as out:
        out.write(crib_table_json(document))
    return document


_CRIB_DATA: dict = {}


def _check_table_document(data: object, where: str) -> dict:
    if not isinstance(data, dict) or data.get("format") != CRIB_TABLE_FORMAT:
        raise ValueError(f"{where} is not a crib table (format {quoted(CRIB_TABLE_FORMAT)})")
    if data.get("version") != CRIB_TABLE_VERSION:
        raise ValueError(f"{where} is crib table version {data.get('version')!r}; "
                         f"this engine reads version {CRIB_TABLE_VERSION}")
    for kind in CRIB_TABLE_KINDS:
        matrix = data.get(kind)
        if not (isinstance(matrix, list) and len(matrix) == 13
                and all(isinstance(row, list) and len(row) == 13 for row in matrix)):
            raise ValueError(f"{where}: {quoted(kind)} must be 13 rows of 13 figures")
    single = data.get("single")
    if not (isinstance(single, list) and len(single) == 13):
        raise ValueError(f"{where}: 'single' must be 13 figures")
    return data


def load_crib_data(path: str | None = None) -> dict:
    """Return the crib table document shipped in engine/data (read once), or the one at path."""
    if path is None and _CRIB_DATA:
        return _CRIB_DATA
    source = str(path) if path is not None else CRIB_TABLE_PATH
    try:
        with open(source, encoding="utf-8") as stream:
            text = stream.read()
    except OSError:
        raise OSError(
            f"the crib table {source} is missing: generate it with 'python -m engine table'") from None
    try:
        data = json.loads(text)
    except ValueError as error:
        raise ValueError(f"{source} is not valid JSON ({error})") from None
    _check_table_document(data, source)
    if path is None:
        _CRIB_DATA.update(data)
        _CRIB_LOOKUP.clear()
    return data


def crib_table(kind: str = "average") -> list[list[float]]:
    """Return the 13 x 13 crib table (rows and columns A..K) as nested lists of floats.

    kind "average" is the published table; "suited" and "offsuit" are its two cases (the
    diagonal of "suited" is None: a pair cannot be suited).

    >>> table = crib_table()
    >>> round(table[6][7], 2), round(table[9][12], 1), table[3][4] == table[4][3]  # 7-8, 10-K
    (6.77, 3.4, True)
    """
    if kind not in CRIB_TABLE_KINDS:
        raise ValueError(f"unknown crib table {quoted(kind)} (one of {', '.join(CRIB_TABLE_KINDS)})")
    return [list(row) for row in load_crib_data()[kind]]


_CRIB_LOOKUP: list = []  # (suited, offsuit, single) as tuples, for crib_value


def crib_value(throw: "list[int]") -> float:
    """Return the expected crib of one or two thrown cards, from the shipped crib table.

    Two cards of one suit take the table's suited figure, two suits the off-suit figure (a
    pair is always off-suit); one card (three or four players) its 'single' figure.

    >>> from engine.cards import parse_cards
    >>> crib_value(parse_cards("5H 5S")) > crib_value(parse_cards("10H KS"))
    True
    """
    if not _CRIB_LOOKUP:
        data = load_crib_data()
        _CRIB_LOOKUP.extend((tuple(map(tuple, data["suited"])), tuple(map(tuple, data["offsuit"])),
                             tuple(data["single"])))
    suited, offsuit, single = _CRIB_LOOKUP
    if len(throw) == 2:
        a, b = throw
        if SUIT_OF[a] == SUIT_OF[b] and a != b:
            return suited[RANK_OF[a]][RANK_OF[b]]
        return offsuit[RANK_OF[a]][RANK_OF[b]]
    if len(throw) == 1:
        return single[RANK_OF[throw[0]]]
    raise ValueError(f"a throw to the crib is one or two cards, got {len(throw)}")


# --------------------------------------------------------------------------------------------
# The discard


class DiscardOption:
    """One way to keep four cards: the expected hand, the expected crib thrown and the net.

    Fields: keep (4 card ints, sorted), throw (the 1 or 2 thrown, sorted), hand_ev (exact mean
    show over every starter not among the dealt cards), crib_ev (expected crib of the throw),
    net (dealer: hand + crib; pone: hand - crib), hand_min and hand_max over those starters,
    hand_counts ((points, starters) pairs, ascending), is_dealer, crib_method ("exact" or
    "table": how crib_ev was found, see discard_options).
    """

    __slots__ = ("keep", "throw", "hand_ev", "crib_ev", "net", "hand_min", "hand_max",
                 "hand_counts", "is_dealer", "crib_method")

    def __init__(self, keep: tuple[int, ...], throw: tuple[int, ...], hand_ev: float, crib_ev: float,
                 hand_min: int, hand_max: int, hand_counts: tuple[tuple[int, int], ...],
                 is_dealer: bool, crib_method: str = "table") -> None:
        """Build an option; net follows from hand_ev, crib_ev and whose crib it is."""
        self.keep = keep
        self.throw = throw
        self.hand_ev = hand_ev
        self.crib_ev = crib_ev
        self.net = hand_ev + crib_ev if is_dealer else hand_ev - crib_ev
        self.hand_min = hand_min
        self.hand_max = hand_max
        self.hand_counts = hand_counts
        self.is_dealer = is_dealer
        self.crib_method = crib_method

    def chance_at_least(self, points: int) -> float:
        """Return the chance that the hand shows at least this many points (over the starters)."""
        starters = sum(n for _, n in self.hand_counts)
        return sum(n for p, n in self.hand_counts if p >= points) / starters

    def sort_key(self) -> tuple:
        """Best first: highest net, then highest hand, then the kept cards (deterministic)."""
        return (-round_to(self.net, 9), -round_to(self.hand_ev, 9), self.keep)

    def to_dict(self) -> dict:
        """Return a JSON-ready dict (figures rounded to 4 decimals; cards as ints and names)."""
        return {
            "keep": list(self.keep),
            "throw": list(self.throw),
            "keep_names": [card_name(c) for c in self.keep],
            "throw_names": [card_name(c) for c in self.throw],
            "hand_ev": round_to(self.hand_ev, 4),
            "crib_ev": round_to(self.crib_ev, 4),
            "net": round_to(self.net, 4),
            "hand_min": self.hand_min,
            "hand_max": self.hand_max,
            "hand_counts": [list(pair) for pair in self.hand_counts],
            "is_dealer": self.is_dealer,
            "crib_method": self.crib_method,
        }

    def __repr__(self) -> str:
        return (f"DiscardOption(keep={' '.join(card_name(c) for c in self.keep)}, "
                f"throw={' '.join(card_name(c) for c in self.throw)}, hand_ev={self.hand_ev:.3f}, "
                f"crib_ev={self.crib_ev:.3f}, net={self.net:.3f})")


CRIB_METHODS = ("exact", "table")

# The rank multisets of three cards, by shape: three ranks, a pair and another rank, three of a
# rank; _TRIPLE_KEYS holds their rank keys in that order (455 in all).
_TRIPLES_APART = [(x, y, z) for x in range(13) for y in range(x + 1, 13) for z in range(y + 1, 13)]
_TRIPLES_PAIRED = [(x, z) for x in range(13) for z in range(13) if z != x]
_TRIPLE_KEYS = ([_RANK_WEIGHT[x] + _RANK_WEIGHT[y] + _RANK_WEIGHT[z] for x, y, z in _TRIPLES_APART]
                + [2 * _RANK_WEIGHT[x] + _RANK_WEIGHT[z] for x, z in _TRIPLES_PAIRED]
                + [3 * _RANK_WEIGHT[x] for x in range(13)])
# A thrown pair of ranks (its rank key) -> the fifteens, pairs and runs of the crib with each of
# those triples (0 where the five ranks cannot be dealt): filled as throws are priced.
_CRIB_ROWS: dict[int, list[int]] = {}


def conditional_crib_values(dealt: "list[int]") -> dict[tuple[int, int], float]:
    """Return the exact expected crib of every two-card throw from six known cards.

    The other player's two discards are any two of the 46 cards this player cannot see (1,035
    ways) and the starter any of the 44 left: 45,540 crib deals per throw, the same model as
    the crib table but knowing which six cards are out of play. Keyed by the sorted throw.
    Fifteens, pairs and runs are summed by rank classes: the weight of each (two discards,
    starter) rank triple depends only on the unseen cards, so it is found once for all 15
    throws.

    >>> from engine.cards import parse_cards
    >>> values = conditional_crib_values(parse_cards("4C 5D 7H 8S 10D KC"))
    >>> round(values[tuple(sorted(parse_cards("7H 8S")))], 2)
    7.0
    """
    if len(dealt) != 6 or len(set(dealt)) != 6:
        raise ValueError(f"the exact crib needs the six cards dealt, got {len(dealt)}")
    table = build_tables()
    weight = _RANK_WEIGHT
    held = set(dealt)
    unseen = [c for c in range(52) if c not in held]
    left = [0] * 13
    suit_left = [0] * 4
    nonjacks_left = [0] * 4
    for c in unseen:
        left[RANK_OF[c]] += 1
        suit_left[SUIT_OF[c]] += 1
        if RANK_OF[c] != JACK:
            nonjacks_left[SUIT_OF[c]] += 1
    # Every rank multiset of the other two discards and the starter (in _TRIPLE_KEYS' order), with
    # the ways to draw three unseen cards of those ranks (prod C(left, m)); any of the three may be
    # the starter, hence 3 * ways deals.
    pairs = [m * (m - 1) // 2 for m in left]
    ways3 = ([left[x] * left[y] * left[z] for x, y, z in _TRIPLES_APART]
             + [pairs[x] * left[z] for x, z in _TRIPLES_PAIRED]
             + [m * (m - 1) * (m - 2) // 6 for m in left])
    n = len(unseen)
    deals = comb(n, 2) * (n - 2)
    # Nobs from a jack among the other discards: starter s (not a jack) and its suit's jack unseen.
    nobs_unseen = sum(n - 2 for s in unseen
                      if RANK_OF[s] != JACK and _JACK_OF_SUIT[SUIT_OF[s]] not in held)
    by_ranks: dict[int, int] = {}  # the throw's rank key -> fifteens, pairs and runs over every deal
    values = {}
    for a, b in combinations(sorted(dealt), 2):
        base = weight[RANK_OF[a]] + weight[RANK_OF[b]]
        ranked = by_ranks.get(base)
        if ranked is None:
            row = _CRIB_ROWS.get(base)
            if row is None:
                row = _CRIB_ROWS[base] = [table.get(base + key, 0) for key in _TRIPLE_KEYS]
            ranked = by_ranks[base] = 3 * sum([p * w for p, w in zip(row, ways3)])  # exact: whole numbers
        total = ranked + NOBS * nobs_unseen
        if SUIT_OF[a] == SUIT_OF[b]:
            m = suit_left[SUIT_OF[a]]
            total += FIVE_CARD_FLUSH * comb(m, 2) * (m - 2)
        for card in (a, b):
            if RANK_OF[card] == JACK:  # a thrown jack: any starter of its suit, any two discards
                total += NOBS * nonjacks_left[SUIT_OF[card]] * comb(n - 1, 2)
        values[(a, b)] = total / deals
    return values


def conditional_crib_brute(dealt: "list[int]", throw: "list[int]") -> float:
    """Return the same figure as conditional_crib_values by scoring each of the 45,540 deals (slow)."""
    held = set(dealt)
    unseen = [c for c in range(52) if c not in held]
    total = deals = 0
    for c, d in combinations(unseen, 2):
        crib = (throw[0], throw[1], c, d)
        for starter in unseen:
            if starter != c and starter != d:
                total += show_total(crib, starter, True)
                deals += 1
    return total / deals


def discard_options(cards: "list[int | str] | str", is_dealer: bool,
                    crib: str = "exact") -> list[DiscardOption]:
    """Return every way to keep four of the cards dealt, best first.

    Six cards (two players) give 15 options, five cards (three or four players, one thrown)
    give 5. The hand is averaged exactly over every starter not among the dealt cards (46 for
    six cards). The throw is priced, with crib="exact" (the default), by
    ``conditional_crib_values``: the crib table's model knowing the six cards dealt; with
    crib="table" by the crib table itself (``crib_value``: suited or off-suit figure). A
    one-card throw always takes the table's one-card figure. The dealer maximises hand + crib,
    the pone hand - crib; ties go to the higher hand, then the lower kept cards.

    >>> from engine.cards import parse_cards
    >>> pone = discard_options(parse_cards("5H 5S JD QC 2C 9S"), is_dealer=False)
    >>> len(pone), [card_name(c) for c in pone[0].keep]
    (15, ['QC', 'JD', '5H', '5S'])
    """
    dealt = parse_cards(cards)
    if len(dealt) not in (5, 6):
        raise ValueError(f"a discard starts from 6 cards (two players) or 5 (three or four), got {len(dealt)}")
    if not isinstance(is_dealer, bool):
        raise ValueError(f"is_dealer must be True or False, got {quoted(is_dealer)}")
    if crib not in CRIB_METHODS:
        raise ValueError(f"crib must be one of {', '.join(CRIB_METHODS)}, got {quoted(crib)}")
    exact = conditional_crib_values(dealt) if crib == "exact" and len(dealt) == 6 else None
    held = set(dealt)
    starters = [c for c in range(52) if c not in held]
    ordered = sorted(dealt)
    options = []
    for keep in combinations(ordered, 4):
        throw = tuple(c for c in ordered if c not in keep)
        totals = show_totals(keep, starters)
        crib_ev = exact[throw] if exact is not None else crib_value(throw)  # type: ignore[index]
        options.append(DiscardOption(
            keep, throw, sum(totals) / len(starters), crib_ev,
            min(totals), max(totals), tuple(value_counts(totals)), is_dealer,
            "exact" if exact is not None else "table"))
    options.sort(key=DiscardOption.sort_key)
    return options
