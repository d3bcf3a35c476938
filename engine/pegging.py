"""The play by ranks: the rank values, the points of a card laid, the danger a count leaves, and the tree of sequences that remembers them.

Suits play no part in the play, so here a card laid is its rank (0 = ace .. 12 = king) and is
worth ``RANK_VALUE[rank]`` to the count, which never passes ``MAX_COUNT``. ``peg_points`` gives
the points of the last card of the ranks laid since the count reset (the figures of
``scoring.score_play``, go and last card aside). The searches and the reading of the other hand
(engine.pegging_search, engine.pegging_joint, engine.reading) ask for the same sequences again
and again: ``SeqTree`` keeps every sequence met as a numbered node with its count, its points
(``peg``), the danger of the reply it leaves (``danger``) and the price a player who cannot see
the other hand puts on it (``model_choice``).

>>> peg_points([4, 4], 10)  # a pair of fives: ten, two for the pair
2
>>> danger(bytes((4,)), 5) > danger(bytes((2,)), 3)  # a five led leaves fifteen to every ten-card
True
"""

from engine.cards import VALUE_OF
from engine.scoring import DOUBLE_PAIR_ROYAL, FIFTEEN, MAX_COUNT, PAIR, PAIR_ROYAL, THIRTY_ONE

RANK_VALUE = VALUE_OF[:13]
"""A rank's value to the count (the cards 0..12 are the ranks of the first suit): ace 1 .. ten-cards 10."""

RANK_BYTES = tuple(bytes((r,)) for r in range(13))
"""Each rank as one byte, to add to a bytes sequence of ranks laid."""

PAIR_POINTS = (0, 0, PAIR, PAIR_ROYAL, DOUBLE_PAIR_ROYAL)
"""Points for the cards of one rank laid in a row at the end of a count, by how many (2, 3 or 4)."""

_GROWTH = 13 * 1024  # room for 1024 more nodes at a time (MicroPython's extend grows a list to the exact size)
_TREE_LIMIT = 60000  # sequences kept at most between searches (about 5 MB in MicroPython)
_INF = 1e9


def peg_points(ranks: "list[int]", count: int) -> int:
    """Points for the last card of a count, from the ranks laid since the reset and the count.

    The same figures as ``scoring.score_play``, without building its items (for search loops).

    >>> peg_points([3, 5, 4], 15)  # 4, 6, 5: fifteen and a run of three
    5
    """
    points = FIFTEEN if count == 15 else THIRTY_ONE if count == MAX_COUNT else 0
    n = len(ranks)
    last = ranks[-1]
    same = 1
    while same < n and ranks[n - 1 - same] == last:
        same += 1
    if same > 1:
        return points + PAIR_POINTS[min(same, 4)]
    # The longest run ending with the last card: grow the tail back while its ranks are
    # distinct (a repeated rank ends every longer tail's chance) and note when they are consecutive.
    low = high = last
    seen = 1 << last
    run = 0
    for i in range(n - 2, -1, -1):
        r = ranks[i]
        bit = 1 << r
        if seen & bit:
            break
        seen |= bit
        if r < low:
            low = r
        elif r > high:
            high = r
        if high - low == n - 1 - i >= 2:
            run = n - i
    return points + run


class SeqTree:
    """Every sequence of ranks laid since a reset that has been met, as nodes of a tree numbered
    from 0 (the empty sequence): the node after one more rank (``child``), each node's count,
    the points of its last card and the model's price of having laid it.

    Lists indexed by node number, not dicts: MicroPython hashes bytes into 16 bits and grows a
    dict only once it is full, so a cache of many sequences keyed by their bytes (or by numbers
    that follow one another) walks long runs of slots at every lookup.
    """

    __slots__ = ("next", "count", "parent", "rank", "peg", "danger", "price")

    def __init__(self) -> None:
        """The tree of the empty sequence alone."""
        self.next = [0] * _GROWTH  # node * 13 + rank -> the node with rank laid next (0: not met yet)
        self.count = [0]
        self.parent = [0]
        self.rank = [-1]
        self.peg = [0]
        self.danger: list = [None]
        self.price: list = [None]

    def child(self, node: int, r: int) -> int:
        """The node of node's ranks and then r (whose count must stay within 31), made when new."""
        at = node * 13 + r
        kid = self.next[at]
        if not kid:
            kid = len(self.count)
            self.next[at] = kid
            if len(self.next) < 13 * (kid + 1):
                self.next.extend([0] * _GROWTH)
            total = self.count[node] + RANK_VALUE[r]
            ranks = [r]
            up = node
            while up:
                ranks.append(self.rank[up])
                up = self.parent[up]
            ranks.reverse()
            self.count.append(total)
            self.parent.append(node)
            self.rank.append(r)
            self.peg.append(peg_points(ranks, total))
            self.danger.append(None)
            self.price.append(None)
        return kid

    def node(self, seq: "list[int]") -> int:
        """The node of the ranks seq."""
        node = 0
        for r in seq:
            node = self.child(node, r)
        return node

    def risk(self, node: int) -> float:
        """``danger`` of the node's sequence (the replies not met yet are counted, not made nodes)."""
        risk = self.danger[node]
        if risk is None:
            risk = 0.0
            count = self.count[node]
            ranks = None
            at = node * 13
            for r in range(13):
                total = count + RANK_VALUE[r]
                if total <= MAX_COUNT:
                    kid = self.next[at + r]
                    if kid:
                        risk += self.peg[kid]
                        continue
                    if ranks is None:
                        ranks = []
                        up = node
                        while up:
                            ranks.append(self.rank[up])
                            up = self.parent[up]
                        ranks.reverse()
                    ranks.append(r)
                    risk += peg_points(ranks, total)
                    ranks.pop()
            risk /= 13.0
            self.danger[node] = risk
        return risk

    def model_price(self, node: int) -> float:
        """What the model prices laying the node's last card at: its points less the reply's risk."""
        price = self.price[node]
        if price is None:
            price = self.peg[node] - (self.risk(node) if self.count[node] < MAX_COUNT else 0.0)
            self.price[node] = price
        return price


_TREE = None  # the tree in use, made when first asked for


def seq_tree() -> SeqTree:
    """The tree of sequences in use (a fresh one once it holds _TREE_LIMIT: whoever holds the old
    one keeps using it)."""
    global _TREE
    if _TREE is None or len(_TREE.count) > _TREE_LIMIT:
        _TREE = SeqTree()
    return _TREE


def peg(seq: bytes, total: int) -> int:
    """peg_points of the ranks since the reset (total is their count), remembered."""
    tree = seq_tree()
    return tree.peg[tree.node(seq)]


def danger(seq: bytes, count: int) -> float:
    """What a reply of one card of a random rank would peg after seq (count): the risk of a card.

    Ranks are equally likely (a four-in-thirteen chance of a ten-card), every card that fits.
    """
    tree = seq_tree()
    return tree.risk(tree.node(seq))


def model_choice(hand: bytes, seq: bytes, count: int) -> int:
    """The index in hand of the card a player who cannot see the other hand lays (one fits).

    The points it pegs now less the risk of the reply (``danger``); ties go to the higher card.
    """
    tree = seq_tree()
    node = tree.node(seq)
    best = -1
    best_price = -_INF
    prev = -1
    for i in range(len(hand)):
        r = hand[i]
        if r == prev:
            continue
        prev = r
        if count + RANK_VALUE[r] > MAX_COUNT:
            break
        price = tree.model_price(tree.child(node, r))
        if price >= best_price:
            best_price = price
            best = i
    return best
