"""The expert's search of the play over many sampled other hands at once, its own cards chosen as it sees them.

engine.pegging_search searches one sampled deal with both hands open: in that search the
searching side knows the other hand at every later card, which it does not (a sample's best
line may keep a card for a reply it could only find by seeing the cards). Here the samples go
down one tree together. The other side lays, in each sample, the card a player who cannot see
the searching side's hand lays (``pegging.model_choice``; near the end it pegs out when
it can), so its cards and its goes split the samples into groups that have seen the same play;
the searching side chooses one card for a whole group (the best summed over the group), as it
would at the table, knowing only what has been laid. A position's value is summed over its
group's samples: in points pegged (side 0 less side 1) far from the end of the game, and near
the end with the same leaves as engine.pegging_search (``Leaf``: the shows decide who gets home
and a side that reaches its target wins there and then).

>>> from engine.pegging_search import Leaf
>>> leaf = Leaf(need=(121, 121), shows=(0, 0), pone=1)
>>> values = JointSearch([leaf, leaf]).card_values((4, 12), [(9, 9), (0, 1)], (), 0)
>>> values[12] > values[4]  # a five led gives fifteen away against the tens
True
"""

from engine.pegging import MAX_COUNT, RANK_VALUE, seq_tree
from engine.pegging_search import WIN_VALUE

_INF = 1e9
_HANDS = 1 << 14  # hand numbers one search may give (a radix of its memo keys; 255 samples need far fewer)
_UNSPLIT = object()


class JointSearch:
    """A search of the play over samples of the other hand, one ``Leaf`` per sample.

    Far from the end (every leaf far) positions reached in different orders are searched once.

    Every part of a position is a small number, so that a position's key is one int: hands (of
    either side) are numbered as they are met, each with its cards less one of each rank; the
    ranks laid since the reset are nodes of ``pegging.SeqTree`` (the points, the count and the
    model's prices kept by node, in lists); a group of samples, with the ranks
    side 1 has laid in it (which fix what each of its samples still holds), has a number, its
    positions their own small dict, and its splits are made once. MicroPython hashes a tuple by
    the sum of its items' hashes and bytes into 16 bits, and grows a dict only once it is full:
    one large dict keyed by those piles thousands of keys into a few runs of slots, and every
    lookup walks one.
    """

    def __init__(self, leaves: list) -> None:
        """Prepare the search; leaves[i] values the end of the play in sample i (at most 255
        samples: a group of samples is the bytes of their numbers)."""
        self.leaves = leaves
        self.far = all(leaf.is_far for leaf in leaves)
        self.need0, self.need1 = leaves[0].need
        self._radix = max(self.need0, self.need1, 0) + 1  # above any points pegged in a position kept
        self._hand_id: dict = {}  # sorted ranks (bytes) -> hand number
        self._hand_kids: list = []  # hand -> ((rank, value, hand without one card of it), ...), ranks ascending
        self._hand_low: list = []  # hand -> value of its lowest card (99: empty)
        self._hand_len: list = []
        self._tree = seq_tree()  # kept: a fresh tree made meanwhile does not renumber this one
        self._roots: dict = {}  # the samples' first hands (bytes of their numbers) -> a root number
        self._group_id: dict = {}  # group bytes, 255, side 1's laid ranks, 255, root -> group number
        self._groups: list = []  # group -> (samples as bytes, their hands, side 1's laid ranks, root)
        self._splits: list = []  # group -> {key: split}
        self._memos: list = []  # group -> {position: value} (far from the end)
        self._near: list = []  # group -> {p0 * radix + p1: {position: value}, -1 - that: the end's value}
        self._leaf_rows: dict = {}  # p0 * radix + p1 -> each sample's leaf value

    # -- numbering ------------------------------------------------------------------------

    def _hand(self, h: bytes) -> int:
        """The number of hand h (sorted ranks), numbering it and its smaller hands when new."""
        i = self._hand_id.get(h)
        if i is None:
            i = len(self._hand_len)
            if i >= _HANDS:
                raise ValueError("too many hands for one search")
            self._hand_id[h] = i
            self._hand_kids.append(())
            self._hand_low.append(RANK_VALUE[h[0]] if h else 99)
            self._hand_len.append(len(h))
            kids = []
            prev = -1
            for k in range(len(h)):
                r = h[k]
                if r == prev:
                    continue
                prev = r
                kids.append((r, RANK_VALUE[r], self._hand(h[:k] + h[k + 1:])))
            self._hand_kids[i] = tuple(kids)
        return i

    def _model(self, node: int, hand: int) -> tuple:
        """(rank, hand after it) of the card a player who cannot see the other hand lays from
        hand after node (pegging.model_choice: the points now less the reply's risk, ties
        to the higher card; one fits)."""
        tree = self._tree
        count = tree.count[node]
        base = node * 13
        nxt = tree.next
        price = tree.price
        got = None
        best_price = -_INF
        for r, v, kid in self._hand_kids[hand]:
            if count + v > MAX_COUNT:
                break
            child = nxt[base + r] or tree.child(node, r)
            p = price[child]
            if p is None:
                p = tree.model_price(child)
            if p >= best_price:
                best_price = p
                got = (r, kid)
        return got

    def _group(self, group: bytes, held: tuple, laid: bytes, root: bytes) -> int:
        """The number of a group of samples (their hands held, side 1's laid ranks, sorted)."""
        key = group + b"\xff" + laid + b"\xff" + root
        g = self._group_id.get(key)
        if g is None:
            g = len(self._groups)
            self._group_id[key] = g
            self._groups.append((group, held, laid, root))
            self._splits.append({})
            self._memos.append({})
            self._near.append({})
        return g

    def _root(self, hands: "list[list[int]]") -> int:
        """The group of every sample, holding hands."""
        held = tuple(self._hand(bytes(h)) for h in hands)
        ids = b"".join(i.to_bytes(2, "big") for i in held)
        root = self._roots.get(ids)
        if root is None:
            root = self._roots[ids] = len(self._roots).to_bytes(2, "big")
        return self._group(bytes(range(len(hands))), held, b"", root)

    # -- splits of a group ----------------------------------------------------------------

    def _leaf_row(self, p0: int, p1: int) -> list:
        """Each sample's leaf value of a play ended with p0 and p1 points pegged."""
        at = p0 * self._radix + p1
        row = self._leaf_rows.get(at)
        if row is None:
            row = self._leaf_rows[at] = [leaf.value(p0, p1) for leaf in self.leaves]
        return row

    def _fits(self, g: int, room: int):
        """None when every sample's side 1 has a card of value room or less, False when none has,
        else the two groups (those that can lay one, then those that cannot)."""
        cache = self._splits[g]
        got = cache.get(-1 - room, _UNSPLIT)
        if got is not _UNSPLIT:
            return got
        group, held, laid, root = self._groups[g]
        low = self._hand_low
        can = 0
        for h in held:
            if low[h] <= room:
                can += 1
        if can == len(held):
            got = None
        elif not can:
            got = False
        else:
            yes, yes_hands, no, no_hands = [], [], [], []
            for j in range(len(group)):
                h = held[j]
                if low[h] <= room:
                    yes.append(group[j])
                    yes_hands.append(h)
                else:
                    no.append(group[j])
                    no_hands.append(h)
            got = (self._group(bytes(yes), tuple(yes_hands), laid, root),
                   self._group(bytes(no), tuple(no_hands), laid, root))
        cache[-1 - room] = got
        return got

    def _choices(self, g: int, node: int, need: int = 0) -> list:
        """The samples grouped by the rank side 1 lays in each (the model's card), lowest rank
        first: (rank, group, its size). With need > 0, samples holding a card that pegs need
        points or more come first, as rank -1 (they peg out; no group)."""
        cache = self._splits[g]
        key = node * self._radix + need
        got = cache.get(key)
        if got is not None:
            return got
        group, held, laid, root = self._groups[g]
        tree = self._tree
        count = tree.count[node]
        kids = self._hand_kids
        by_rank = [None] * 13
        out_count = 0
        for j in range(len(group)):
            h = held[j]
            if need > 0:
                wins = False
                for r, v, _ in kids[h]:
                    if count + v <= MAX_COUNT and tree.peg[tree.child(node, r)] >= need:
                        wins = True
                        break
                if wins:
                    out_count += 1
                    continue
            r, kid = self._model(node, h)
            entry = by_rank[r]
            if entry is None:
                entry = by_rank[r] = ([], [])
            entry[0].append(group[j])
            entry[1].append(kid)
        got = [(-1, -1, out_count)] if out_count else []
        for r in range(13):
            entry = by_rank[r]
            if entry is not None:
                part = bytes(entry[0])
                now_laid = bytes(sorted(laid + bytes((r,))))
                got.append((r, self._group(part, tuple(entry[1]), now_laid, root), len(part)))
        cache[key] = got
        return got

    # -- the searches ---------------------------------------------------------------------

    def card_values(self, mine: "list[int]", hands: "list[list[int]]", seq: "list[int]",
                    count: int, gone: int = 0) -> dict:
        """The average value to side 0 over the samples of each rank it may lay now (its turn).

        mine: sorted ranks side 0 holds; hands: side 1's sorted ranks in each sample (all of one
        size); seq: the ranks laid since the count reset (count: their values summed); gone: bit
        1 set when side 1 has said go in this count. Returns {rank: value}.
        """
        h0 = self._hand(bytes(mine))
        tree = self._tree
        node = tree.node(bytes(seq))
        g = self._root(hands)
        n = len(hands)
        out = {}
        for r, v, rest in self._hand_kids[h0]:
            total = count + v
            if total > MAX_COUNT:
                continue
            child = tree.child(node, r)
            pts = tree.peg[child]
            if self.far:
                value = pts * n + self._future(rest, g, child, 1, 0, gone)
            elif pts >= self.need0:
                value = WIN_VALUE * n
            else:
                value = self._search(rest, g, child, 1, 0, gone, pts, 0)
            out[r] = value / n
        return out

    def play_value(self, mine: "list[int]", hands: "list[list[int]]", turn: int) -> float:
        """The average value to side 0 of a whole play to come, side turn leading (far from the
        end: points pegged, side 0 less side 1)."""
        return self._future(self._hand(bytes(mine)), self._root(hands), 0, turn, 1 - turn, 0) / len(hands)

    def _future(self, h0, g, node, turn, last, gone) -> float:
        """Points side 0 pegs less side 1 from here, summed over the group (nobody can win)."""
        memo = self._memos[g]
        key = ((node * _HANDS + h0) * 4 + turn * 2 + last) * 4 + gone
        known = memo.get(key)
        if known is not None:
            return known
        group, held, _, _ = self._groups[g]
        n = len(group)
        n1 = self._hand_len[held[0]]
        n0 = self._hand_len[h0]
        tree = self._tree
        count = tree.count[node]
        extra = 0
        while True:
            if not n0 and not n1:
                if count != MAX_COUNT:  # the last card pegs one
                    extra += 1 if last == 0 else -1
                memo[key] = extra * n
                return extra * n
            if count == MAX_COUNT:
                node, count, gone = 0, 0, 0
                turn = 1 - last if (n1 if last == 0 else n0) else last
                continue
            actor = -1
            for s in (turn, 1 - turn):
                if (gone >> s) & 1:
                    continue
                if s == 0:
                    if not n0:
                        continue
                    if count + self._hand_low[h0] <= MAX_COUNT:
                        actor = 0
                        break
                    if last != 0:
                        gone |= 1
                    continue
                if not n1:
                    continue
                split = self._fits(g, MAX_COUNT - count)
                if split is None:
                    actor = 1
                    break
                if split is not False:  # some samples can lay a card here and some cannot
                    value = extra * n
                    for part in split:
                        value += self._future(h0, part, node, s, last, gone)
                    memo[key] = value
                    return value
                if last != 1:
                    gone |= 2
            if actor >= 0:
                break
            extra += 1 if last == 0 else -1  # the go point, and a new count
            node, count, gone = 0, 0, 0
            turn = 1 - last if (n1 if last == 0 else n0) else last
        pegs = tree.peg
        if actor == 0:
            best = None
            nxt = tree.next
            base = node * 13
            for r, v, rest in self._hand_kids[h0]:
                if count + v > MAX_COUNT:
                    break
                child = nxt[base + r] or tree.child(node, r)
                v = pegs[child] * n + self._future(rest, g, child, 1, 0, gone)
                if best is None or v > best:
                    best = v
        else:
            best = 0.0
            for r, part, size in self._choices(g, node):
                child = tree.child(node, r)
                best += self._future(h0, part, child, 0, 1, gone) - pegs[child] * size
        best += extra * n
        memo[key] = best
        return best

    def _search(self, h0, g, node, turn, last, gone, p0, p1) -> float:
        """The value summed over the group to the end of the play, near the end of the game."""
        near = self._near[g]
        at = p0 * self._radix + p1
        memo = near.get(at)
        if memo is None:
            memo = near[at] = {}
        key = ((node * _HANDS + h0) * 4 + turn * 2 + last) * 4 + gone
        known = memo.get(key)
        if known is not None:
            return known
        group, held, _, _ = self._groups[g]
        n = len(group)
        n1 = self._hand_len[held[0]]
        n0 = self._hand_len[h0]
        tree = self._tree
        count = tree.count[node]
        need0, need1 = self.need0, self.need1
        while True:
            if not n0 and not n1:
                if count != MAX_COUNT:  # the last card pegs one
                    if last == 0:
                        p0 += 1
                        if p0 >= need0:
                            return WIN_VALUE * n
                    else:
                        p1 += 1
                        if p1 >= need1:
                            return -WIN_VALUE * n
                # The end's value depends on the group and the points alone: summed once.
                ends = self._near[g]
                at = -1 - (p0 * self._radix + p1)
                value = ends.get(at)
                if value is None:
                    row = self._leaf_row(p0, p1)
                    value = 0.0
                    for i in group:
                        value += row[i]
                    ends[at] = value
                memo[key] = value
                return value
            if count == MAX_COUNT:
                node, count, gone = 0, 0, 0
                turn = 1 - last if (n1 if last == 0 else n0) else last
                continue
            actor = -1
            for s in (turn, 1 - turn):
                if (gone >> s) & 1:
                    continue
                if s == 0:
                    if not n0:
                        continue
                    if count + self._hand_low[h0] <= MAX_COUNT:
                        actor = 0
                        break
                    if last != 0:
                        gone |= 1
                    continue
                if not n1:
                    continue
                split = self._fits(g, MAX_COUNT - count)
                if split is None:
                    actor = 1
                    break
                if split is not False:
                    value = 0.0
                    for part in split:
                        value += self._search(h0, part, node, s, last, gone, p0, p1)
                    memo[key] = value
                    return value
                if last != 1:
                    gone |= 2
            if actor >= 0:
                break
            # Nobody can lay a card: the go point to the last card's side, and a new count.
            if last == 0:
                p0 += 1
                if p0 >= need0:
                    return WIN_VALUE * n
            else:
                p1 += 1
                if p1 >= need1:
                    return -WIN_VALUE * n
            node, count, gone = 0, 0, 0
            turn = 1 - last if (n1 if last == 0 else n0) else last

        pegs = tree.peg
        if actor == 0:
            best = None
            for r, v, rest in self._hand_kids[h0]:
                if count + v > MAX_COUNT:
                    break
                child = tree.child(node, r)
                pts = pegs[child]
                if p0 + pts >= need0:
                    best = WIN_VALUE * n
                    break
                v = self._search(rest, g, child, 1, 0, gone, p0 + pts, p1)
                if best is None or v > best:
                    best = v
        else:
            best = 0.0
            for r, part, size in self._choices(g, node, need1 - p1):
                if r < 0:  # these samples peg out
                    best += -WIN_VALUE * size
                    continue
                child = tree.child(node, r)
                best += self._search(h0, part, child, 0, 1, gone, p0, p1 + pegs[child])
        memo[key] = best
        return best
