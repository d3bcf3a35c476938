"""The expert opponent: discards priced by the play too, and in the play a search over the hands the other side may hold.

In a two-player game the expert discards as hard does, except that the keeps worth nearly as
much as the best (within PEG_MARGIN points of hand and crib, PEG_KEEPS at most) are also played
out, with the pone leading, against DISCARD_SAMPLES fours a careful player would keep from cards
it cannot see, and PEG_WEIGHT of the points each keep pegs more than the other side on average
is added to its value (the other side's play is a model, so its figure counts half: in matches
against hard the full figure bought pegging points with more hand and crib points than it won).
In the play the expert reads the other hand before each card it lays
(engine.reading): the other side's six cards are the cards it has laid and cards the expert
cannot see, kept only as often as a careful discard would have kept a four holding the cards
laid (and, after a go, nothing that would have fitted), and as often as a careful player with
those cards would have laid what it laid. The samples (drawn by a generator fixed by the seed
and the view) are searched together to the end of the play (engine.pegging_joint): the other
side lays what a player who cannot see the expert's cards lays, and the expert chooses one card
for all the samples that have seen the same play, as at the table. The card with the best
average, plus half hard's price of it while the points of the play alone decide, wins.
The search plays for the game: a side that reaches the target in the play wins at once, and
near the end each sample's shows (the pone counts first) decide who gets home, and when nobody
does, the chance of winning from the points each side then needs (engine.win_chance), so the expert
pegs out when it can, keeps the count safe when the other side is close, and weighs a point
pegged by what it is worth on the board.

With three or four players it plays as hard does (engine.hard.HardPlayer).

>>> from engine.game import new_game
>>> state = new_game(seed="expert-doc")
>>> view = state.view(state.to_act)
>>> action = ExpertPlayer(seed=1).choose(view, view["legal_actions"])
>>> action in view["legal_actions"], action["type"]
(True, 'discard')
"""

from engine.analysis import discard_options
from engine.cards import RANK_OF, VALUE_OF
from engine.compat import round_to
from engine.hard import HardPlayer
from engine.opponent import owns_crib, unseen_cards
from engine.pegging import MAX_COUNT
from engine.pegging_joint import JointSearch
from engine.pegging_search import Leaf
from engine.reading import draw_hands, play_contexts
from engine.scoring import show_total
from engine.win_chance import prepare

SAMPLES = 48  # samples of the other hand searched for one card
PRICE_WEIGHT = 0.5  # hard's price of a card added to its searched value while nobody can get home
TIE_WEIGHT = 0.001  # near the end: hard's price only breaks ties between cards the search values alike
PEG_WEIGHT = 0.5  # the share of a keep's searched pegging points added to its hand and crib value
PEG_MARGIN = 1.0  # keeps this far below the best in hand and crib are not played out
PEG_KEEPS = 4  # keeps played out at most
DISCARD_SAMPLES = 16  # other hands a keep is played out against
FAR_LEAF = Leaf((999, 999), (0, 0), 0)  # nobody can get home: the points of the play alone
BOARD_WORK = 30_000  # sums of the board's table (engine.win_chance) worked out ahead with each move


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
    """Hard's discards, the best few also priced by the play; in the play, a search to its end over sampled other hands."""

    name = "expert"
    samples = SAMPLES
    peg_weight = PEG_WEIGHT
    peg_margin = PEG_MARGIN
    peg_keeps = PEG_KEEPS
    discard_samples = DISCARD_SAMPLES

    def choose_discard(self, view: dict, legal_actions: "list[dict]") -> dict:
        """Hard's discard; with two players, the keeps worth nearly as much as the best also
        priced by the play they make against the fours a careful player keeps."""
        if view["players"] != 2 or not self.peg_weight:
            return HardPlayer.choose_discard(self, view, legal_actions)
        prepare(BOARD_WORK, 2 * view["target"])  # needed near the end; no move pays for it all
        by_cards = {tuple(a["cards"]): a for a in legal_actions}
        options = discard_options(view["hand"], owns_crib(view))
        values = [self.discard_value(view, o) for o in options]
        top = max(values)
        order = sorted(range(len(options)), key=lambda i: (-round_to(values[i], 9), [-c for c in options[i].keep]))
        near = [i for i in order if values[i] >= top - self.peg_margin][:self.peg_keeps]
        if len(near) > 1:
            pool = [c for c in range(52) if c not in view["hand"]]
            rng = self.rng(view, "discard")
            drawn = draw_hands(rng, pool, [], 4, 1, not owns_crib(view), None, self.discard_samples)
            hands = [tuple(sorted(RANK_OF[c] for c in hand)) for hand, _ in drawn]
            search = JointSearch([FAR_LEAF] * len(hands))
            turn = 1 if owns_crib(view) else 0  # the pone leads
            for i in near:
                mine = tuple(sorted(RANK_OF[c] for c in options[i].keep))
                values[i] += self.peg_weight * search.play_value(mine, hands, turn)
        best = max(near, key=lambda i: (round_to(values[i], 9), [-c for c in options[i].keep]))
        return by_cards[tuple(sorted(options[best].throw))]

    def choose_play(self, view: dict, legal_actions: "list[dict]") -> dict:
        """Lay the card whose searched value, averaged over the samples, is best."""
        if view["players"] != 2 or len(legal_actions) == 1:
            return HardPlayer.choose_play(self, view, legal_actions)
        prepare(BOARD_WORK, 2 * view["target"])
        values, far = self.play_values(view)
        cards = [a["card"] for a in legal_actions]
        prices = self.play_prices(view, cards)
        weight = PRICE_WEIGHT if far else TIE_WEIGHT
        best = max(range(len(cards)), key=lambda i: (
            round_to(values[RANK_OF[cards[i]]] + weight * prices[i], 9), -cards[i]))
        return legal_actions[best]

    def play_values(self, view: dict) -> dict:
        """The average searched value of each rank the seat may lay now ({rank: value}), and
        whether the points of the play alone decide it (no line searched took a side home)."""
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
        need = (target - scores[seat], target - scores[other])

        drawn = draw_hands(self.rng(view, "play"), unseen_cards(view), their_laid, held, go_floor(view),
                           not is_dealer, play_contexts(view["laid"], other), self.samples)
        leaves, hands = [], []
        for hand, thrown in drawn:
            their_kept = hand + their_laid
            their_show = show_total(their_kept, starter) if len(their_kept) == 4 else 0
            crib = discards + thrown
            crib_show = show_total(crib, starter, True) if len(crib) == 4 else 0
            shows = (my_show + crib_show, their_show) if is_dealer else (my_show, their_show + crib_show)
            leaves.append(Leaf(need, shows, pone))
            hands.append(sorted(RANK_OF[c] for c in hand))
        search = JointSearch(leaves)
        values = search.card_values(sorted(RANK_OF[c] for c in mine_cards), hands,
                                    [RANK_OF[c] for _, c in view["current"]], view["count"],
                                    2 if other in (view.get("go") or ()) else 0)
        return values, search.far
