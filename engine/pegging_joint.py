"""The expert's search of the play over many sampled other hands at once, its own cards chosen as it sees them.

engine.pegging_search searches one sampled deal with both hands open: in that search the
searching side knows the other hand at every later card, which it does not (a sample's best
line may keep a card for a reply it could only find by seeing the cards). Here the samples go
down one tree together. The other side lays, in each sample, the card a player who cannot see
the searching side's hand lays (``pegging_search.model_choice``; near the end it pegs out when
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

from engine.pegging_search import WIN_VALUE, model_choice, peg

MAX_COUNT = 31
_VALUE = tuple(min(r + 1, 10) for r in range(13))
_ONE = tuple(bytes((r,)) for r in range(13))


class JointSearch:
    """A search of the play over samples of the other hand, one ``Leaf`` per sample.

    Far from the end (every leaf far) positions reached in different orders are searched once.
    """

    def __init__(self, leaves: list) -> None:
        """Prepare the search; leaves[i] values the end of the play in sample i (at most 255
        samples: a group of samples is the bytes of their numbers)."""
        self.leaves = leaves
        self.far = all(leaf.is_far for leaf in leaves)
        self.need0, self.need1 = leaves[0].need
        self.memo: dict = {}

    def card_values(self, mine: "Sequence[int]", hands: "Sequence[Sequence[int]]", seq: "Sequence[int]",
                    count: int, gone: int = 0) -> dict:
        """The average value to side 0 over the samples of each rank it may lay now (its turn).

        mine: sorted ranks side 0 holds; hands: side 1's sorted ranks in each sample (all of one
        size); seq: the ranks laid since the count reset; gone: bit 1 set when side 1 has said
        go in this count. Returns {rank: value}.
        """
        mine, seq = bytes(mine), bytes(seq)
        group = bytes(range(len(hands)))
        held = tuple(bytes(h) for h in hands)
        n = len(group)
        out = {}
        for i in range(len(mine)):
            r = mine[i]
            if i and mine[i - 1] == r:
                continue
            total = count + _VALUE[r]
            if total > MAX_COUNT:
                continue
            s2 = seq + _ONE[r]
            pts = peg(s2, total)
            rest = mine[:i] + mine[i + 1:]
            if self.far:
                value = pts * n + self._future(rest, group, held, s2, total, 1, 0, gone)
            elif pts >= self.need0:
                value = WIN_VALUE * n
            else:
                value = self._search(rest, group, held, s2, total, 1, 0, gone, pts, 0)
            out[r] = value / n
        return out

    def play_value(self, mine: "Sequence[int]", hands: "Sequence[Sequence[int]]", turn: int) -> float:
        """The average value to side 0 of a whole play to come, side turn leading (far from the
        end: points pegged, side 0 less side 1)."""
        group = bytes(range(len(hands)))
        held = tuple(bytes(h) for h in hands)
        return self._future(bytes(mine), group, held, b"", 0, turn, 1 - turn, 0) / len(group)

    def _future(self, h0, group, held, seq, count, turn, last, gone) -> float:
        """Points side 0 pegs less side 1 from here, summed over the group (nobody can win)."""
        key = (h0, group, held, seq, turn, last, gone)
        memo = self.memo
        known = memo.get(key)
        if known is not None:
            return known
        n = len(group)
        extra = 0
        while True:
            n1 = len(held[0])
            if not h0 and not n1:
                if count != MAX_COUNT:  # the last card pegs one
                    extra += 1 if last == 0 else -1
                memo[key] = extra * n
                return extra * n
            if count == MAX_COUNT:
                seq, count, gone = b"", 0, 0
                turn = 1 - last if (n1 if last == 0 else h0) else last
                continue
            actor = -1
            for s in (turn, 1 - turn):
                if (gone >> s) & 1:
                    continue
                if s == 0:
                    if not h0:
                        continue
                    if count + _VALUE[h0[0]] <= MAX_COUNT:
                        actor = 0
                        break
                    if last != 0:
                        gone |= 1
                    continue
                if not n1:
                    continue
                split = _split_fits(group, held, MAX_COUNT - count)
                if split is None:
                    actor = 1
                    break
                if split is not False:  # some samples can lay a card here and some cannot
                    value = extra * n
                    for part, hands in split:
                        value += self._future(h0, part, hands, seq, count, s, last, gone)
                    memo[key] = value
                    return value
                if last != 1:
                    gone |= 2
            if actor >= 0:
                break
            extra += 1 if last == 0 else -1  # the go point, and a new count
            seq, count, gone = b"", 0, 0
            turn = 1 - last if (n1 if last == 0 else h0) else last
        if actor == 0:
            best = None
            prev = -1
            for i in range(len(h0)):
                r = h0[i]
                if r == prev:
                    continue
                prev = r
                total = count + _VALUE[r]
                if total > MAX_COUNT:
                    break
                s2 = seq + _ONE[r]
                v = peg(s2, total) * n + self._future(h0[:i] + h0[i + 1:], group, held, s2, total, 1, 0, gone)
                if best is None or v > best:
                    best = v
        else:
            best = 0.0
            for r, part, hands in _split_choices(group, held, seq, count):
                total = count + _VALUE[r]
                s2 = seq + _ONE[r]
                best += self._future(h0, part, hands, s2, total, 0, 1, gone) - peg(s2, total) * len(part)
        best += extra * n
        memo[key] = best
        return best

    def _search(self, h0, group, held, seq, count, turn, last, gone, p0, p1) -> float:
        """The value summed over the group to the end of the play, near the end of the game."""
        key = (h0, group, held, seq, turn, last, gone, p0, p1)
        memo = self.memo
        known = memo.get(key)
        if known is not None:
            return known
        n = len(group)
        need0, need1 = self.need0, self.need1
        while True:
            n1 = len(held[0])
            if not h0 and not n1:
                if count != MAX_COUNT:  # the last card pegs one
                    if last == 0:
                        p0 += 1
                        if p0 >= need0:
                            return WIN_VALUE * n
                    else:
                        p1 += 1
                        if p1 >= need1:
                            return -WIN_VALUE * n
                value = 0.0
                leaves = self.leaves
                for i in group:
                    value += leaves[i].value(p0, p1)
                memo[key] = value
                return value
            if count == MAX_COUNT:
                seq, count, gone = b"", 0, 0
                turn = 1 - last if (n1 if last == 0 else h0) else last
                continue
            actor = -1
            for s in (turn, 1 - turn):
                if (gone >> s) & 1:
                    continue
                if s == 0:
                    if not h0:
                        continue
                    if count + _VALUE[h0[0]] <= MAX_COUNT:
                        actor = 0
                        break
                    if last != 0:
                        gone |= 1
                    continue
                if not n1:
                    continue
                split = _split_fits(group, held, MAX_COUNT - count)
                if split is None:
                    actor = 1
                    break
                if split is not False:
                    value = 0.0
                    for part, hands in split:
                        value += self._search(h0, part, hands, seq, count, s, last, gone, p0, p1)
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
            seq, count, gone = b"", 0, 0
            turn = 1 - last if (n1 if last == 0 else h0) else last

        if actor == 0:
            best = None
            prev = -1
            for i in range(len(h0)):
                r = h0[i]
                if r == prev:
                    continue
                prev = r
                total = count + _VALUE[r]
                if total > MAX_COUNT:
                    break
                s2 = seq + _ONE[r]
                pts = peg(s2, total)
                if p0 + pts >= need0:
                    best = WIN_VALUE * n
                    break
                v = self._search(h0[:i] + h0[i + 1:], group, held, s2, total, 1, 0, gone, p0 + pts, p1)
                if best is None or v > best:
                    best = v
        else:
            best = 0.0
            for r, part, hands in _split_choices(group, held, seq, count, need1 - p1):
                if r < 0:  # these samples peg out
                    best += -WIN_VALUE * len(part)
                    continue
                total = count + _VALUE[r]
                s2 = seq + _ONE[r]
                best += self._search(h0, part, hands, s2, total, 0, 1, gone, p0, p1 + peg(s2, total))
        memo[key] = best
        return best


def _split_fits(group: bytes, held: tuple, room: int):
    """None when every sample's side 1 has a card of value room or less, False when none has,
    else the two groups ((samples, hands) that can lay one, then those that cannot)."""
    can = 0
    for h in held:
        if _VALUE[h[0]] <= room:
            can += 1
    if can == len(held):
        return None
    if not can:
        return False
    yes, yes_hands, no, no_hands = [], [], [], []
    for j in range(len(group)):
        h = held[j]
        if _VALUE[h[0]] <= room:
            yes.append(group[j])
            yes_hands.append(h)
        else:
            no.append(group[j])
            no_hands.append(h)
    return ((bytes(yes), tuple(yes_hands)), (bytes(no), tuple(no_hands)))


def _split_choices(group: bytes, held: tuple, seq: bytes, count: int, need: int = 0) -> list:
    """The samples grouped by the rank side 1 lays in each (model_choice), lowest rank first:
    (rank, samples, their hands after it). With need > 0, samples holding a card that pegs need
    points or more come first, as rank -1 (they peg out)."""
    by_rank: dict = {}
    out_group = []
    for j in range(len(group)):
        h = held[j]
        if need > 0:
            wins = False
            for r in h:
                total = count + _VALUE[r]
                if total <= MAX_COUNT and peg(seq + _ONE[r], total) >= need:
                    wins = True
                    break
            if wins:
                out_group.append(group[j])
                continue
        i = model_choice(h, seq, count)
        r = h[i]
        entry = by_rank.get(r)
        if entry is None:
            entry = by_rank[r] = ([], [])
        entry[0].append(group[j])
        entry[1].append(h[:i] + h[i + 1:])
    out = [(-1, bytes(out_group), ())] if out_group else []
    for r in sorted(by_rank):
        part, hands = by_rank[r]
        out.append((r, bytes(part), tuple(hands)))
    return out
