"""Two-player pegging search: the play of one known deal searched to its end (both hands known).

The expert (engine.expert) samples the other side's cards from what its view shows and asks this
module, for each sample, what each card it may lay is worth with both hands open: a minimax
search of the rest of the play with the rules of engine.game (goes, the go point, 31, the last
card). Only ranks matter in the play, so hands are ranks (0 = ace .. 12 = king), sorted, and
cards of one rank are one choice. Inside, hands and the ranks laid since the reset are bytes
and key the remembered positions; the points of a sequence and the model's prices are kept in
the tree of sequences (``pegging.SeqTree``) whose nodes are numbers.

Far from the end of the game (neither side within ``MAX_PEG + BOARD_MARGIN`` points and its
show of home) values are points pegged, side 0 (the searching side) less side 1, and positions
reached in different orders are searched once (``Search.memo``). Nearer the end a value is a
chance of winning on a scale of points, ``WIN_VALUE`` for a won game and minus that for a lost
one: a side that reaches its target in the play wins there and then; when the play ends without
a winner the ``Leaf`` decides: the pone's show is counted first, then the dealer's hand and
crib, and either may take its side home; otherwise the chance that side 0 wins from the points
each side then needs, with the pone of this hand dealing the next (engine.win_chance).

>>> search = Search(Leaf(need=(121, 121), shows=(0, 0), pone=1))
>>> values = search.card_values((4, 12), (9, 9), (), 0)  # 5 and K against two tens, side 0 leads
>>> values[12] > values[4]  # a five led gives fifteen away
True
"""

from engine.win_chance import win_chance
from engine.pegging import MAX_COUNT, RANK_BYTES, RANK_VALUE, model_choice, peg

WIN_VALUE = 60.0  # reaching the target: about a game's worth of points
MAX_PEG = 40  # more than one side pegs in any one play (for deciding that nobody can get home)
BOARD_MARGIN = 30  # this much further from home too, the end of the play is valued by the chance of winning
_INF = 1e9


class Leaf:
    """How a play that ends without a winner is valued: the shows, pone first, then the board.

    need: points each side still needs (side 0, side 1); shows: each side's show to come (the
    dealer's hand and crib together); pone: the side that counts first (0 or 1).
    """

    __slots__ = ("need", "shows", "pone", "is_far")

    def __init__(self, need: "tuple[int, int]", shows: "tuple[int, int]", pone: int) -> None:
        """Keep the needs, the shows and who counts first."""
        self.need = need
        self.shows = shows
        self.pone = pone
        self.is_far = (need[0] > shows[0] + MAX_PEG + BOARD_MARGIN
                       and need[1] > shows[1] + MAX_PEG + BOARD_MARGIN)

    def value(self, p0: int, p1: int) -> float:
        """The worth to side 0 of a play that ended with p0 and p1 points pegged (no winner in
        the play), near the end of the game: +-WIN_VALUE when a show takes a side home, else
        WIN_VALUE times (2 x side 0's chance of winning from there - 1)."""
        need, shows = self.need, self.shows
        pegged = (p0, p1)
        first = self.pone
        if pegged[first] + shows[first] >= need[first]:
            return WIN_VALUE if first == 0 else -WIN_VALUE
        second = 1 - first
        if pegged[second] + shows[second] >= need[second]:
            return WIN_VALUE if second == 0 else -WIN_VALUE
        left0 = need[0] - pegged[0] - shows[0]
        left1 = need[1] - pegged[1] - shows[1]
        if first == 0:  # side 0, the pone of this hand, deals the next
            chance = win_chance(left0, left1)
        else:
            chance = 1.0 - win_chance(left1, left0)
        return WIN_VALUE * (2.0 * chance - 1.0)


class Search:
    """Searches of plays valued by one leaf.

    ``memo`` holds the positions searched far from the end (the points still to come do not
    depend on how the points so far were made), and may be shared by searches whose leaves are
    all far from the end.
    """

    def __init__(self, leaf: Leaf, memo: "dict | None" = None, model: bool = True) -> None:
        """Prepare searches against this leaf; model: side 1 lays model_choice's card, else its best."""
        self.leaf = leaf
        self.model = model
        self.memo = {} if memo is None else memo

    def card_values(self, mine: "list[int]", theirs: "list[int]", seq: "list[int]",
                    count: int, gone: int = 0) -> dict:
        """The value to side 0 of each rank it may lay now (its turn), both hands known.

        mine and theirs: sorted ranks still held; seq: the ranks laid since the count reset;
        gone: bit 1 set when side 1 has said go in this count. Returns {rank: value}.
        """
        mine, theirs, seq = bytes(mine), bytes(theirs), bytes(seq)
        out = {}
        leaf = self.leaf
        need0, need1 = leaf.need
        for i in range(len(mine)):
            r = mine[i]
            if i and mine[i - 1] == r:
                continue
            total = count + RANK_VALUE[r]
            if total > MAX_COUNT:
                continue
            s2 = seq + RANK_BYTES[r]
            pts = peg(s2, total)
            rest = mine[:i] + mine[i + 1:]
            if leaf.is_far:
                out[r] = pts + self._future(rest, theirs, s2, total, 1, 0, gone)
            elif pts >= need0:
                out[r] = WIN_VALUE
            else:
                out[r] = self._search(rest, theirs, s2, total, 1, 0, gone, pts, 0, need0, need1, -_INF, _INF)
        return out

    def _future(self, h0, h1, seq, count, turn, last, gone) -> float:
        """Points side 0 pegs less side 1 from here to the end of the play (nobody can win)."""
        key = (h0, h1, seq, turn, last, gone)
        memo = self.memo
        known = memo.get(key)
        if known is not None:
            return known
        extra = 0
        while True:
            if not h0 and not h1:
                if count != MAX_COUNT:  # the last card pegs one
                    extra += 1 if last == 0 else -1
                memo[key] = extra
                return extra
            if count == MAX_COUNT:
                seq, count, gone = b"", 0, 0
                turn = 1 - last if (h1 if last == 0 else h0) else last
                continue
            actor = -1
            for s in (turn, 1 - turn):
                if (gone >> s) & 1:
                    continue
                h = h0 if s == 0 else h1
                if not h:
                    continue
                if count + RANK_VALUE[h[0]] <= MAX_COUNT:
                    actor = s
                    break
                if s != last:
                    gone |= 1 << s
            if actor >= 0:
                break
            extra += 1 if last == 0 else -1  # the go point, and a new count
            seq, count, gone = b"", 0, 0
            turn = 1 - last if (h1 if last == 0 else h0) else last
        hand = h0 if actor == 0 else h1
        best = None
        prev = -1
        order = range(len(hand))
        if actor == 1 and self.model:
            order = (model_choice(hand, seq, count),)
        for i in order:
            r = hand[i]
            if r == prev:
                continue
            prev = r
            total = count + RANK_VALUE[r]
            if total > MAX_COUNT:
                break  # sorted by rank, so by value too: nothing further fits
            s2 = seq + RANK_BYTES[r]
            rest = hand[:i] + hand[i + 1:]
            if actor == 0:
                v = peg(s2, total) + self._future(rest, h1, s2, total, 1, 0, gone)
                if best is None or v > best:
                    best = v
            else:
                v = self._future(h0, rest, s2, total, 0, 1, gone) - peg(s2, total)
                if best is None or v < best:
                    best = v
        best += extra
        memo[key] = best
        return best

    def _search(self, h0, h1, seq, count, turn, last, gone, p0, p1, need0, need1, alpha, beta) -> float:
        """Minimax with alpha-beta to the end of the play, near the end of the game."""
        while True:
            if not h0 and not h1:
                if count != MAX_COUNT:  # the last card pegs one
                    if last == 0:
                        p0 += 1
                        if p0 >= need0:
                            return WIN_VALUE
                    else:
                        p1 += 1
                        if p1 >= need1:
                            return -WIN_VALUE
                return self.leaf.value(p0, p1)
            if count == MAX_COUNT:
                seq, count, gone = b"", 0, 0
                turn = 1 - last if (h1 if last == 0 else h0) else last
                continue
            actor = -1
            for s in (turn, 1 - turn):
                if (gone >> s) & 1:
                    continue
                h = h0 if s == 0 else h1
                if not h:
                    continue
                if count + RANK_VALUE[h[0]] <= MAX_COUNT:
                    actor = s
                    break
                if s != last:
                    gone |= 1 << s
            if actor >= 0:
                break
            # Nobody can lay a card: the go point to the last card's side, and a new count.
            if last == 0:
                p0 += 1
                if p0 >= need0:
                    return WIN_VALUE
            else:
                p1 += 1
                if p1 >= need1:
                    return -WIN_VALUE
            seq, count, gone = b"", 0, 0
            turn = 1 - last if (h1 if last == 0 else h0) else last

        hand = h0 if actor == 0 else h1
        best = -_INF if actor == 0 else _INF
        prev = -1
        order = range(len(hand))
        if actor == 1 and self.model:
            for r in hand:  # the model pegs out when it can
                if count + RANK_VALUE[r] <= MAX_COUNT and p1 + peg(seq + RANK_BYTES[r], count + RANK_VALUE[r]) >= need1:
                    return -WIN_VALUE
            order = (model_choice(hand, seq, count),)
        for i in order:
            r = hand[i]
            if r == prev:
                continue
            prev = r
            total = count + RANK_VALUE[r]
            if total > MAX_COUNT:
                break
            s2 = seq + RANK_BYTES[r]
            pts = peg(s2, total)
            rest = hand[:i] + hand[i + 1:]
            if actor == 0:
                if p0 + pts >= need0:
                    return WIN_VALUE
                v = self._search(rest, h1, s2, total, 1, 0, gone, p0 + pts, p1, need0, need1, alpha, beta)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            return best
            else:
                if p1 + pts >= need1:
                    return -WIN_VALUE
                v = self._search(h0, rest, s2, total, 0, 1, gone, p0, p1 + pts, need0, need1, alpha, beta)
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            return best
        return best
