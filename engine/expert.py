"""The expert opponent: hard's discards, and in the play a search over the hands the other side may hold.

In a two-player game the expert reads the other hand before each card it lays: the cards it
cannot see, less those the other side cannot hold (a seat that said go at a count holds nothing
that fits under 31 there), are dealt out to the other side again and again (each deal a
sample, drawn by a generator fixed by the seed and the view). A careful player keeps fours that
already show points, so a sample is kept in proportion to how often hard's discard keeps such
a four (``keep_likelihood``). Each sample's play is searched to its end with both hands open
(engine.pegging_search); the card with the best average, plus half hard's price of it while no
side can get home this hand (the price is exact over the unseen cards where the samples are
few), wins.
The search plays for the game: a side that reaches the target in the play wins at once, and
near the end each sample's shows (the pone counts first) decide who gets home, so the expert
pegs out when it can and keeps the count safe when the other side is close.

With three or four players it plays as hard does (engine.players.HardPlayer).

>>> from engine.game import new_game
>>> state = new_game(seed="expert-doc")
>>> view = state.view(state.to_act)
>>> action = ExpertPlayer(seed=1).choose(view, view["legal_actions"])
>>> action in view["legal_actions"], action["type"]
(True, 'discard')
"""

from engine.cards import RANK_OF, SUIT_OF, VALUE_OF
from engine.compat import round_to
from engine.pegging_joint import JointSearch
from engine.pegging_search import Leaf, Search
from engine.reading import draw_hands, play_contexts
from engine.players import HardPlayer, four_card_points, owns_crib, unseen_cards
from engine.scoring import MAX_COUNT, show_total

SAMPLES_MAX = 24  # samples of the other hand drawn for one card
SAMPLES_MIN = 8  # searched whatever they cost
NODE_BUDGET = 2000  # positions searched for one card before the remaining samples are left out
PRICE_WEIGHT = 0.5  # hard's price of a card added to its searched value while nobody can get home
TIE_WEIGHT = 0.001  # near the end: hard's price only breaks ties between cards the search values alike

# How much likelier a careful player is to keep four cards than chance would make it, by the
# points the four show before the cut (four_card_points, 8 or more as 8) and the fives among
# them (0, 1, 2 or more): how often hard's discard kept such a four from 6,000 dealt hands, over
# how often any four of six is such a four. The dealer throws fives to its own crib, the pone
# keeps them. Sampled hands are kept in proportion (up to KEEP_SURE, kept always).
KEEP_LIKELIHOOD = {
    True: ((0.08, 0.02, 0.02), (1.0, 1.0, 1.0), (0.48, 0.02, 0.02), (1.06, 0.33, 1.0), (2.84, 0.67, 0.12),
           (2.64, 1.07, 1.0), (4.74, 2.22, 1.03), (5.29, 4.45, 1.0), (9.62, 7.93, 7.06)),
    False: ((0.06, 0.02, 0.02), (1.0, 1.0, 1.0), (0.38, 0.08, 0.08), (0.88, 0.93, 1.0), (2.75, 1.1, 2.48),
            (1.86, 2.05, 1.0), (4.01, 3.45, 1.5), (5.15, 4.26, 1.0), (8.67, 8.18, 7.55)),
}
KEEP_SURE = 5.0
DRAWS_PER_SAMPLE = 30  # draws tried for one sample before the last draw is taken as it is


def go_floor(view: dict) -> int:
    """The lowest value a card still held by the other side (two players) can have.

    A side that cannot lay a card at count c holds only cards worth more than 31 - c, and the
    cards it holds now were all in its hand then. The goes are read from the order of the cards
    laid: two cards in a row from the viewing seat in one count, a count that restarted before
    reaching 31, or the seat's own card last with the turn back to it.

    >>> # 10C from the other side, 10D, 3C from the other, 5D, 2H: nothing came back at 28
    >>> go_floor({"seat": 0, "laid": [[1, 9], [0, 22], [1, 2], [0, 17], [0, 27]],
    ...           "hand_sizes": [0, 2], "to_act": 1})
    4
    """
    seat = view["seat"]
    other = 1 - seat
    left = 4 if view.get("hand_sizes") is None else view["hand_sizes"][other] + sum(
        1 for s, _ in view["laid"] if s == other)
    floor = 1
    count = 0
    last = None
    for s, card in view["laid"]:
        value = VALUE_OF[card]
        if count == MAX_COUNT:
            count, last = 0, None
        elif count + value > MAX_COUNT:  # nobody could lay a card: a new count began
            if last == seat and left > 0:
                floor = max(floor, MAX_COUNT + 1 - count)
            count, last = 0, None
        elif last == seat and s == seat and left > 0:  # the other side said go
            floor = max(floor, MAX_COUNT + 1 - count)
        count += value
        last = s
        if s == other:
            left -= 1
    if last == seat and view.get("to_act") == seat and left > 0 and count < MAX_COUNT:
        floor = max(floor, MAX_COUNT + 1 - count)
    return floor


class ExpertPlayer(HardPlayer):
    """Hard's discards; in the play, a search to the end of the play over sampled other hands."""

    name = "expert"
    reader = True
    read_play = True
    joint = True
    samples = 24
    chooser = None

    def choose_play(self, view: dict, legal_actions: "Sequence[dict]") -> dict:
        """Lay the card whose searched value, averaged over the samples, is best."""
        if view["players"] != 2 or len(legal_actions) == 1:
            return HardPlayer.choose_play(self, view, legal_actions)
        values, far = self.play_values(view)
        cards = [a["card"] for a in legal_actions]
        prices = self.play_prices(view, cards)
        weight = PRICE_WEIGHT if far else TIE_WEIGHT
        best = max(range(len(cards)), key=lambda i: (
            round_to(values[RANK_OF[cards[i]]] + weight * prices[i], 9), -cards[i]))
        return legal_actions[best]

    def play_values(self, view: dict) -> dict:
        """The average searched value of each rank the seat may lay now ({rank: value}), and
        whether no sample could take either side home this hand (only points then count)."""
        seat = view["seat"]
        other = 1 - seat
        target, scores = view["target"], view["scores"]
        starter = view["starter"]
        mine_cards = list(view["hand"])
        kept = mine_cards + list(view.get("played") or ())
        their_laid = [c for s, c in view["laid"] if s == other]
        held = view["hand_sizes"][other]
        discards = list(view.get("discards") or ())
        is_dealer = owns_crib(view)
        pone = 1 if is_dealer else 0
        my_show = show_total(kept, starter) if len(kept) == 4 else 0
        mine = tuple(sorted(RANK_OF[c] for c in mine_cards))
        seq = tuple(RANK_OF[c] for _, c in view["current"])
        count = view["count"]
        gone = 2 if other in (view.get("go") or ()) else 0
        need = (target - scores[seat], target - scores[other])

        pool = unseen_cards(view)
        floor = go_floor(view)
        fits = [c for c in pool if VALUE_OF[c] >= floor]
        if len(fits) < held:
            fits = pool
        rng = self.rng(view, "play")
        contexts = play_contexts(view["laid"], other) if self.read_play else None
        totals: dict = {}
        weight = 0
        memo: dict = {}
        nodes = 0
        far = True
        leaves, hands = [], []
        drawn = draw_hands(rng, pool, their_laid, held, floor, not is_dealer, contexts,
                           self.samples) if self.joint else None
        for k in range(self.samples if self.joint else SAMPLES_MAX):
            if not self.joint and k >= SAMPLES_MIN and nodes >= NODE_BUDGET:
                break
            if drawn is not None:
                hand, crib_rest = drawn[k]
            elif self.reader:
                hand, crib_rest = draw_hands(rng, pool, their_laid, held, floor, not is_dealer, contexts, 1, 400)[0]
            else:
                hand = self.likely_hand(rng, fits, held, their_laid, not is_dealer)
                rest = [c for c in pool if c not in hand]
                crib_rest = _draw(rng, rest, 2) if len(rest) >= 2 else []
            theirs = tuple(sorted(RANK_OF[c] for c in hand))
            their_kept = hand + their_laid
            their_show = show_total(their_kept, starter) if len(their_kept) == 4 else 0
            crib = discards + crib_rest
            crib_show = show_total(crib, starter, True) if len(crib) == 4 else 0
            shows = (my_show + crib_show, their_show) if is_dealer else (my_show, their_show + crib_show)
            leaf = Leaf(need, shows, pone)
            far = far and leaf.is_far
            if self.joint:
                leaves.append(leaf)
                hands.append(theirs)
                continue
            search = Search(leaf, memo if leaf.is_far else None)
            values = search.card_values(mine, theirs, seq, count, gone)
            nodes += search.nodes
            for r in values:
                totals[r] = totals.get(r, 0.0) + values[r]
            weight += 1
        if self.joint:
            return JointSearch(leaves, self.chooser).card_values(mine, hands, seq, count, gone), far
        return {r: totals[r] / weight for r in totals}, far

    def likely_hand(self, rng, fits: list, held: int, their_laid: list, dealer: bool) -> list:
        """held cards drawn from fits for the other side, as likely as a careful discard makes them.

        Each draw (with the cards they have laid, the four they kept) is taken with a chance in
        proportion to keep_likelihood; dealer: the other side dealt this hand.
        """
        for _ in range(DRAWS_PER_SAMPLE):
            hand = _draw(rng, fits, held)
            if rng.random() * KEEP_SURE < keep_likelihood(hand + their_laid, dealer):
                break
        return hand


def keep_likelihood(kept: list, dealer: bool) -> float:
    """How much likelier a careful player (dealer or pone) keeps these four than chance would.

    >>> from engine.cards import parse_cards
    >>> keep_likelihood(parse_cards("5H 5S JD 4C"), False) > 1 > keep_likelihood(parse_cards("AC 3D 8H KS"), False)
    True
    """
    if len(kept) != 4:
        return KEEP_SURE
    ranks = sorted(RANK_OF[c] for c in kept)
    suit = SUIT_OF[kept[0]]
    flush = 1 if all(SUIT_OF[c] == suit for c in kept) else 0
    key = bytes(ranks + [flush])
    points = _FOUR_POINTS.get(key)
    if points is None:
        points = _FOUR_POINTS[key] = four_card_points(kept)
    return KEEP_LIKELIHOOD[dealer][min(points, 8)][min(ranks.count(4), 2)]


_FOUR_POINTS: dict = {}  # four_card_points by the four's ranks and whether they are one suit


def _draw(rng, cards: list, k: int) -> list:
    """k distinct cards drawn from cards (a partial shuffle of a copy), in the order drawn."""
    pool = list(cards)
    out = []
    for i in range(k):
        j = i + rng.below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
        out.append(pool[i])
    return out
