"""Counting: the show (hand or crib plus the starter) and the play (pegging), itemised and spoken.

Every scoring combination is an immutable ``ScoreItem``; results carry the items in the order
players count them and the count as it is said aloud. ``show_total`` is the fast path for
analysis loops: a table keyed by the rank multiset of the five cards (built on first use, about
6,000 entries) plus cheap suit tests for the flush and nobs.

>>> from engine.cards import parse_cards
>>> hand = parse_cards("5S 5H 5D JC")
>>> result = score_show(hand, parse_cards("5C")[0])
>>> result.total, show_total(hand, parse_cards("5C")[0])
(29, 29)
>>> result.spoken.split(", ")[-2:]
['a double pair royal is twenty-eight', 'and nobs is twenty-nine']
>>> score_play(parse_cards("4H 6S 5D")).spoken
'fifteen for five'
"""

from collections import namedtuple
from engine.cards import CARD_NAMES, JACK, RANK_OF, SUIT_OF, VALUE_OF, card_name, is_card, parse_card
from engine.compat import combinations, combinations_with_replacement, product
from engine.messages import quoted

# Points, used by the game, the printable chart and the pages; never retyped elsewhere.
FIFTEEN = 2
THIRTY_ONE = 2
PAIR = 2
PAIR_ROYAL = 6
DOUBLE_PAIR_ROYAL = 12
GO = 1
LAST_CARD = 1
HIS_HEELS = 2
NOBS = 1
HAND_FLUSH = 4
FIVE_CARD_FLUSH = 5
MAX_COUNT = 31

SOURCES = ("pegging", "hand", "crib", "heels", "muggins")  # where a game's points come from (a score event's "source")

SHOW_KINDS = ("fifteen", "pair", "run", "flush", "nobs")
PLAY_KINDS = ("fifteen", "thirty_one", "pair", "pair_royal", "double_pair_royal", "run")
IMPOSSIBLE_SHOW_TOTALS = frozenset({19, 25, 26, 27})
MAX_SHOW_TOTAL = 29

_ONES = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
)
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number_name(n: int) -> str:
    """Return a number from 0 to 999 in words, as a count is said: "twenty-nine".

    >>> number_name(29), number_name(121), number_name(15)
    ('twenty-nine', 'one hundred twenty-one', 'fifteen')
    """
    if not 0 <= n < 1000:
        raise ValueError(f"no words for {quoted(n)} (0 to 999 only)")
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + ("-" + _ONES[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    return _ONES[hundreds] + " hundred" + (" " + number_name(rest) if rest else "")


class ScoreItem(namedtuple("ScoreItem", "kind cards points")):
    """One scoring combination: its kind, the cards that make it and the points it scores.

    Immutable (a named tuple): kind is a str, cards a tuple of card ints, points an int.
    """

    __slots__ = ()

    def to_dict(self) -> dict:
        """Return a JSON-ready dict: kind, cards (ints), names (short card names), points."""
        return {
            "kind": self.kind,
            "cards": list(self.cards),
            "names": [CARD_NAMES[c] for c in self.cards],
            "points": self.points,
        }


class ShowResult(namedtuple("ShowResult", "hand starter crib total items spoken_parts")):
    """The count of a hand or crib with the starter: total, items in counting order, words.

    Fields: hand (4 card ints), starter, crib (bool), total, items (ScoreItems in counting
    order), spoken_parts (the phrases of the spoken count).
    """

    __slots__ = ()

    @property
    def spoken(self) -> str:
        """The count as players say it, e.g. "fifteen two, fifteen four, and a pair is six"."""
        return ", ".join(self.spoken_parts) if self.spoken_parts else "nineteen (no points)"

    def to_dict(self) -> dict:
        """Return a JSON-ready dict of the whole count."""
        return {
            "hand": list(self.hand),
            "starter": self.starter,
            "crib": self.crib,
            "total": self.total,
            "items": [item.to_dict() for item in self.items],
            "spoken": self.spoken,
            "spoken_parts": list(self.spoken_parts),
        }


class PlayResult(namedtuple("PlayResult", "cards count total items")):
    """Points for the last card laid in the play: total, items, the new count and words.

    Fields: cards (the cards laid since the count last reset), count, total, items.
    """

    __slots__ = ()

    @property
    def spoken(self) -> str:
        """The count as the player announces it: "fifteen for two", "twenty-four"."""
        said = number_name(self.count)
        return f"{said} for {number_name(self.total)}" if self.total else said

    def to_dict(self) -> dict:
        """Return a JSON-ready dict: cards, count, total, items, spoken."""
        return {
            "cards": list(self.cards),
            "count": self.count,
            "total": self.total,
            "items": [item.to_dict() for item in self.items],
            "spoken": self.spoken,
        }


# --------------------------------------------------------------------------------------------
# Input checks


def _as_card(value: int | str) -> int:
    if isinstance(value, str):
        return parse_card(value)
    if not is_card(value):
        raise ValueError(f"not a card: {quoted(value)} (card ints run from 0 to 51)")
    return value  # type: ignore[return-value]


def _check_show(hand: "list[int | str]", starter: int | str) -> tuple[tuple[int, ...], int]:
    cards = tuple(_as_card(c) for c in hand)
    if len(cards) != 4:
        raise ValueError(f"a hand or crib has 4 cards, got {len(cards)}")
    start = _as_card(starter)
    seen: set[int] = set()
    for card in cards + (start,):
        if card in seen:
            raise ValueError(f"duplicate card {card_name(card)}")
        seen.add(card)
    return cards, start


# --------------------------------------------------------------------------------------------
# The show, itemised


def _run_length_and_ranks(ranks: "list[int]") -> tuple[int, list[int]]:
    """Return the longest run length (0 if under 3) and its ranks, for a rank multiset."""
    present = sorted(set(ranks))
    best: list[int] = []
    current: list[int] = []
    for r in present:
        if current and r == current[-1] + 1:
            current.append(r)
        else:
            current = [r]
        if len(current) > len(best):
            best = list(current)
    return (len(best), best) if len(best) >= 3 else (0, [])


def score_show(hand: "list[int | str]", starter: int | str, crib: bool = False) -> ShowResult:
    """Count a hand (or crib, crib=True) of four cards with the starter, item by item.

    >>> from engine.cards import parse_cards
    >>> r = score_show(parse_cards("7C 8D 8S 9H"), parse_cards("KC")[0])
    >>> r.total, [i.kind for i in r.items]
    (12, ['fifteen', 'fifteen', 'pair', 'run', 'run'])
    >>> r.spoken
    'fifteen two, fifteen four, a pair is six, and two runs of three is twelve'
    """
    cards4, start = _check_show(hand, starter)
    five = sorted(cards4 + (start,), key=lambda c: (RANK_OF[c], SUIT_OF[c]))
    items: list[ScoreItem] = []

    for size in (2, 3, 4, 5):
        for combo in combinations(five, size):
            if sum(VALUE_OF[c] for c in combo) == 15:
                items.append(ScoreItem("fifteen", combo, FIFTEEN))

    for a, b in combinations(five, 2):
        if RANK_OF[a] == RANK_OF[b]:
            items.append(ScoreItem("pair", (a, b), PAIR))

    length, run_ranks = _run_length_and_ranks([RANK_OF[c] for c in five])
    if length:
        choices = [[c for c in five if RANK_OF[c] == r] for r in run_ranks]
        for combo in product(*choices):
            items.append(ScoreItem("run", combo, length))

    suit = SUIT_OF[cards4[0]]
    if all(SUIT_OF[c] == suit for c in cards4):
        if SUIT_OF[start] == suit:
            items.append(ScoreItem("flush", tuple(five), FIVE_CARD_FLUSH))
        elif not crib:
            items.append(ScoreItem("flush", tuple(sorted(cards4, key=five.index)), HAND_FLUSH))

    for card in cards4:
        if RANK_OF[card] == JACK and SUIT_OF[card] == SUIT_OF[start]:
            items.append(ScoreItem("nobs", (card, start), NOBS))

    total = sum(item.points for item in items)
    return ShowResult(cards4, start, bool(crib), total, tuple(items), tuple(_spoken_show(items)))


_PAIR_GROUP_NAMES = {1: "a pair", 3: "a pair royal", 6: "a double pair royal"}


def _spoken_show(items: "list[ScoreItem]") -> list[str]:
    """Say a show the way players do: each fifteen, pairs by rank, runs together, flush, nobs."""
    phrases: list[tuple[str, str]] = []  # (kind, phrase)
    running = 0
    i = 0
    pair_groups = 0
    while i < len(items):
        item = items[i]
        if item.kind == "fifteen":
            running += item.points
            phrases.append(("fifteen", f"fifteen {number_name(running)}"))
            i += 1
        elif item.kind == "pair":
            rank = RANK_OF[item.cards[0]]
            j = i
            while j < len(items) and items[j].kind == "pair" and RANK_OF[items[j].cards[0]] == rank:
                running += items[j].points
                j += 1
            name = _PAIR_GROUP_NAMES[j - i]
            if pair_groups and name == "a pair":
                name = "another pair"
            pair_groups += 1
            phrases.append(("pair", f"{name} is {number_name(running)}"))
            i = j
        elif item.kind == "run":
            j = i
            while j < len(items) and items[j].kind == "run":
                running += items[j].points
                j += 1
            runs, length = j - i, len(item.cards)
            name = f"a run of {number_name(length)}" if runs == 1 else (
                f"{number_name(runs)} runs of {number_name(length)}")
            phrases.append(("run", f"{name} is {number_name(running)}"))
            i = j
        elif item.kind == "flush":
            running += item.points
            phrases.append(("flush", f"a flush of {number_name(item.points)} is {number_name(running)}"))
            i += 1
        else:  # nobs
            running += item.points
            phrases.append(("nobs", f"nobs is {number_name(running)}"))
            i += 1
    if len(phrases) > 1 and phrases[-1][0] != "fifteen":
        phrases[-1] = (phrases[-1][0], "and " + phrases[-1][1])
    return [p for _, p in phrases]


# --------------------------------------------------------------------------------------------
# The show, fast path

_RANK_WEIGHT = tuple(5 ** r for r in range(13))  # unique sums for rank multisets, multiplicity <= 4
_CARD_WEIGHT = tuple(_RANK_WEIGHT[r] for r in RANK_OF)
_NOBS_JACK = tuple(s * 13 + JACK for s in SUIT_OF)  # starter -> the jack that scores nobs with it
_RANK_TABLE: dict[int, int] = {}  # rank-multiset weight -> fifteens + pairs + runs; filled lazily


def _rank_points(ranks: "list[int]") -> int:
    """Fifteens, pairs and runs of a five-card rank multiset (suits play no part in these)."""
    ways = [1] + [0] * 15
    for r in ranks:
        v = r + 1 if r < 10 else 10
        for s in range(15, v - 1, -1):
            ways[s] += ways[s - v]
    points = FIFTEEN * ways[15]
    counts = [0] * 14
    for r in ranks:
        counts[r] += 1
    r = 0
    while r < 13:
        if counts[r]:
            start, multiplicity = r, 1
            while counts[r]:
                points += counts[r] * (counts[r] - 1)  # C(m, 2) pairs of 2 points each
                multiplicity *= counts[r]
                r += 1
            if r - start >= 3:
                points += (r - start) * multiplicity
        else:
            r += 1
    return points


SHOW_TABLE_PATH = __file__.replace("\\", "/").rsplit("/", 1)[0] + "/data/show_table.bin"
SHOW_TABLE_MAGIC = b"cribbage-show-table 2\n"
"""The shipped rank-multiset table: this line, the number of entries n (4 bytes, big-endian),
n keys (4 bytes each, big-endian) and n points (a byte each), ordered by points and then by
key. ``python -m engine table`` writes it; loading it is far quicker than counting it afresh,
which matters in the browser's interpreter. Grouped by points, the keys of one value go into
the table in one step (``dict.fromkeys``), with no Python loop over the 6,175 entries (such a
loop is slow in MicroPython)."""


def compute_show_table() -> dict[int, int]:
    """Count fifteens, pairs and runs of every five-card rank multiset afresh (6,175 of them)."""
    weight = _RANK_WEIGHT
    table = {}
    for ranks in combinations_with_replacement(range(13), 5):
        if ranks[0] == ranks[4]:
            continue  # five of one rank cannot happen
        table[weight[ranks[0]] + weight[ranks[1]] + weight[ranks[2]] + weight[ranks[3]]
              + weight[ranks[4]]] = _rank_points(ranks)
    return table


def show_table_bytes(table: dict[int, int]) -> bytes:
    """The table in the shipped binary form (see SHOW_TABLE_MAGIC)."""
    keys = sorted(table, key=lambda k: (table[k], k))
    return (SHOW_TABLE_MAGIC + len(keys).to_bytes(4, "big")
            + b"".join(k.to_bytes(4, "big") for k in keys) + bytes([table[k] for k in keys]))


def parse_show_table(data: bytes) -> dict[int, int]:
    """The table from its shipped binary form; ValueError if the data is not such a table."""
    import struct

    head = len(SHOW_TABLE_MAGIC)
    if data[:head] != SHOW_TABLE_MAGIC or len(data) < head + 4:
        raise ValueError("not a show table")
    n = int.from_bytes(data[head:head + 4], "big")
    keys_at, points_at = head + 4, head + 4 + 4 * n
    if len(data) != points_at + n:
        raise ValueError("a show table of the wrong length")
    keys = struct.unpack(">%dI" % n, data[keys_at:points_at])
    points = data[points_at:]
    table = dict.fromkeys(keys)  # room for every entry at once
    start = 0
    while start < n:
        value = points[start]
        end = start + 1
        for later in range(value + 1, 256):  # where the next value's keys begin (points ascend)
            found = points.find(bytes([later]), start)
            if found >= 0:
                end = found
                break
        else:
            end = n
        if points[end - 1] != value or (end < n and points[end] < value):
            raise ValueError("a show table out of order")
        table.update(dict.fromkeys(keys[start:end], value))
        start = end
    if len(table) != n:
        raise ValueError("a show table with a key twice")
    return table


def build_tables() -> dict[int, int]:
    """The rank-multiset table behind show_total: loaded once from the shipped file (counted
    afresh if the file is missing or damaged), and returned."""
    if not _RANK_TABLE:
        try:
            with open(SHOW_TABLE_PATH, "rb") as stream:
                table = parse_show_table(stream.read())
        except (OSError, ValueError):
            table = compute_show_table()
        _RANK_TABLE.update(table)
    return _RANK_TABLE


def _table_miss(hand: "list[int]", starter: int) -> int:
    if not _RANK_TABLE:
        build_tables()
        key = sum(_CARD_WEIGHT[c] for c in hand) + _CARD_WEIGHT[starter]
        if key in _RANK_TABLE:
            return _RANK_TABLE[key]
    _check_show(hand, starter)
    raise ValueError("not a valid hand and starter")


def show_total(hand: "list[int]", starter: int, crib: bool = False) -> int:
    """Return the show total alone, fast, for analysis loops (cards must be valid and distinct).

    >>> from engine.cards import parse_cards
    >>> show_total(parse_cards("2H 6H 9H QH"), parse_cards("KS")[0]), show_total(
    ...     parse_cards("2H 6H 9H QH"), parse_cards("KS")[0], crib=True)
    (6, 2)
    """
    a, b, c, d = hand
    try:
        total = _RANK_TABLE[_CARD_WEIGHT[a] + _CARD_WEIGHT[b] + _CARD_WEIGHT[c] + _CARD_WEIGHT[d]
                            + _CARD_WEIGHT[starter]]
    except KeyError:
        total = _table_miss(hand, starter)
    s = SUIT_OF[a]
    if s == SUIT_OF[b] == SUIT_OF[c] == SUIT_OF[d]:
        if SUIT_OF[starter] == s:
            total += FIVE_CARD_FLUSH
        elif not crib:
            total += HAND_FLUSH
    if _NOBS_JACK[starter] in hand:
        total += NOBS
    return total


def show_totals(hand: "list[int]", starters: "list[int]") -> list[int]:
    """Return the hand's show total (not a crib) with each of the starters, in their order: the
    quick path of the analysis loops (the cards must be valid, distinct and not in the hand).

    >>> from engine.cards import parse_cards
    >>> show_totals(parse_cards("5H 5S JD QC"), parse_cards("5D JH 2C"))
    [21, 16, 10]
    """
    if not _RANK_TABLE:
        build_tables()
    weight = _CARD_WEIGHT
    table = _RANK_TABLE
    a, b, c, d = hand
    key = weight[a] + weight[b] + weight[c] + weight[d]
    totals = [table[key + weight[s]] for s in starters]
    suit = SUIT_OF[a]
    flush = suit == SUIT_OF[b] == SUIT_OF[c] == SUIT_OF[d]
    jack_suits = [SUIT_OF[x] for x in hand if RANK_OF[x] == JACK]
    if flush or jack_suits:
        for i, s in enumerate(starters):
            s_suit = SUIT_OF[s]
            if flush:
                totals[i] += FIVE_CARD_FLUSH if s_suit == suit else HAND_FLUSH
            if s_suit in jack_suits:
                totals[i] += NOBS
    return totals


# --------------------------------------------------------------------------------------------
# The play


def count_of(cards: "list[int]") -> int:
    """Return the running count of cards laid: the sum of their counting values.

    >>> from engine.cards import parse_cards
    >>> count_of(parse_cards("KH 5S"))
    15
    """
    return sum(VALUE_OF[c] for c in cards)


def score_play(cards: "list[int | str]") -> PlayResult:
    """Score the last card of the cards laid since the count last reset (go and last card aside).

    >>> from engine.cards import parse_cards
    >>> r = score_play(parse_cards("AS 7H 7D"))
    >>> r.total, [i.kind for i in r.items], r.spoken
    (4, ['fifteen', 'pair'], 'fifteen for four')
    """
    laid = tuple(_as_card(c) for c in cards)
    if not laid:
        raise ValueError("no cards laid")
    if len(set(laid)) != len(laid):
        dup = next(c for c in laid if laid.count(c) > 1)
        raise ValueError(f"duplicate card {card_name(dup)}")
    count = sum(VALUE_OF[c] for c in laid)
    if count > MAX_COUNT:
        raise ValueError(f"the count would be {count}, past {MAX_COUNT}")
    items: list[ScoreItem] = []
    if count == 15:
        items.append(ScoreItem("fifteen", laid, FIFTEEN))
    elif count == MAX_COUNT:
        items.append(ScoreItem("thirty_one", laid, THIRTY_ONE))

    ranks = [RANK_OF[c] for c in laid]
    same = 1
    while same < len(ranks) and ranks[-1 - same] == ranks[-1]:
        same += 1
    if same > 1:
        kind, points = _PAIR_PLAY[same]
        items.append(ScoreItem(kind, laid[-same:], points))
    else:
        for k in range(len(ranks), 2, -1):
            tail = ranks[-k:]
            if max(tail) - min(tail) == k - 1 and len(set(tail)) == k:
                items.append(ScoreItem("run", laid[-k:], k))
                break
    return PlayResult(laid, count, sum(i.points for i in items), tuple(items))


_PAIR_PLAY = {2: ("pair", PAIR), 3: ("pair_royal", PAIR_ROYAL), 4: ("double_pair_royal", DOUBLE_PAIR_ROYAL)}
