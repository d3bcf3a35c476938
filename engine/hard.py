"""The hard opponent: discards by exact expectation and pegs by pricing every card it can lay.

It discards by ``analysis.discard_options`` (the dealer maximises the expected hand plus the
crib, the pone the hand minus the crib, exactly over the 46 possible starters); near the end of
the game the pone keeps the hand most likely to count out. In the play it prices every legal
card: the points it scores now, minus the next player's expected best reply over the cards it
cannot see (weighted by how many of each rank are unseen, and by the chance of holding one), net
of its own best counter, with the habits of strong players (no five led, four or lower
preferred as a lead, lead from a pair, low cards kept for the end of a count). Near the end it
plays the board: it pegs out when it can, and when its own count will take it home it plays
only to keep the dealer from pegging out first.

Three and four players (one card thrown, several opponents) are played by the same rules:
the throw is priced by the crib table's one-card figure, the reply by the next seat to play.

>>> from engine.game import new_game
>>> state = new_game(seed="doc")
>>> view = state.view(state.to_act)
>>> action = HardPlayer(seed=1).choose(view, view["legal_actions"])
>>> action in view["legal_actions"], action["type"]
(True, 'discard')
"""

from engine.analysis import discard_options
from engine.cards import RANK_OF, VALUE_OF
from engine.compat import comb, round_to
from engine.opponent import Player, owns_crib, side_of, unseen_cards
from engine.pegging import MAX_COUNT, RANK_VALUE, peg_points
from engine.scoring import show_total

WIN = 1000.0  # the value of pegging out: beats any number of points
LOSS = 60.0  # what a reply that pegs the opponent out costs (about a game's worth of points)
SAFE_OWN_WEIGHT = 0.1  # the pone whose count gets it home: its own pegging barely matters
PONE_PEG_ALLOWANCE = 1  # points the pone may count on pegging before its hand is counted
HOME_WEIGHT = 20.0  # the discard value of certainty of counting out, in points of net


class HardPlayer(Player):
    """Discards by exact expectation (analysis.discard_options); pegs by pricing every card it can lay."""

    name = "hard"

    # -- the discard --------------------------------------------------------------------------

    def discard_value(self, view: dict, option) -> float:
        """The worth of a discard option: its net, or near home the chance to count out first."""
        value = option.net
        seat = view["seat"]
        need = view["target"] - view["scores"][seat]
        if not owns_crib(view) and view["players"] == 2 and need <= 29 + PONE_PEG_ALLOWANCE:
            # The pone counts first: the hand that most often gets home wins the game.
            value += HOME_WEIGHT * option.chance_at_least(need - PONE_PEG_ALLOWANCE)
        return value

    def choose_discard(self, view: dict, legal_actions: "list[dict]") -> dict:
        """Throw what the best discard option throws."""
        by_cards = {tuple(a["cards"]): a for a in legal_actions}
        options = discard_options(view["hand"], owns_crib(view))
        best = max(options, key=lambda o: (round_to(self.discard_value(view, o), 9), [-c for c in o.keep]))
        return by_cards[tuple(sorted(best.throw))]

    # -- the play -----------------------------------------------------------------------------

    def choose_play(self, view: dict, legal_actions: "list[dict]") -> dict:
        """Lay the card with the best price (ties: the lower card)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        prices = self.play_prices(view, [a["card"] for a in legal_actions])
        best = max(range(len(legal_actions)), key=lambda i: (round_to(prices[i], 9), -legal_actions[i]["card"]))
        return legal_actions[best]

    def play_prices(self, view: dict, candidates: "list[int]") -> list[float]:
        """Price each card the seat may lay now (higher is better)."""
        seat, n = view["seat"], view["players"]
        hand = list(view["hand"])
        ranks_now = [RANK_OF[c] for _, c in view["current"]]
        count = view["count"]
        scores, target = view["scores"], view["target"]
        my_need = target - scores[seat]
        gone = set(view.get("go") or ())
        sizes = view["hand_sizes"]

        nxt = None  # the next seat that may lay a card after this one
        for i in range(1, n):
            s = (seat + i) % n
            if sizes[s] > 0 and s not in gone:
                nxt = s
                break
        others_out = all(sizes[s] == 0 for s in range(n) if s != seat)

        unseen = unseen_cards(view)
        unseen_by_rank = [0] * 13
        for c in unseen:
            unseen_by_rank[RANK_OF[c]] += 1

        # Board position: when the seat's own count will take it home and it counts before the
        # dealer (the pone), only the dealer pegging out can lose the game: its own points are
        # then worth next to nothing and every point the dealer pegs brings a peg-out nearer.
        mine = 1.0  # the weight of this seat's own points
        if n == 2 and not owns_crib(view) and view.get("starter") is not None:
            kept = hand + list(view.get("played") or ())
            if len(kept) == 4 and scores[seat] + show_total(kept, view["starter"]) >= target:
                mine = SAFE_OWN_WEIGHT
        opponent_next = nxt is not None and side_of(view, nxt) != side_of(view, seat)
        opp_need = target - scores[nxt] if nxt is not None else 999

        prices = []
        hand_ranks = [RANK_OF[c] for c in hand]
        for card in candidates:
            r = RANK_OF[card]
            total = count + VALUE_OF[card]
            seq = ranks_now + [r]
            points = peg_points(seq, total)
            rest = list(hand_ranks)
            rest.remove(r)

            if nxt is None:  # nobody else can lay a card in this count
                gain = points + _solo(seq, total, rest, others_out)
                habit = _habits(ranks_now, r, rest, total, points)
                prices.append(WIN + gain if gain >= my_need else gain + habit)
                continue
            if points >= my_need:
                prices.append(WIN + points)
                continue

            if total == MAX_COUNT:
                reply = 0.0
            else:
                replies = []
                for rr in range(13):
                    if not unseen_by_rank[rr] or total + RANK_VALUE[rr] > MAX_COUNT:
                        continue
                    seq2 = seq + [rr]
                    total2 = total + RANK_VALUE[rr]
                    their = peg_points(seq2, total2)
                    if opponent_next and their >= opp_need:
                        replies.append((LOSS, unseen_by_rank[rr]))
                        continue
                    counter = -1  # no card to answer with: they go on, or take the go
                    for i, d in enumerate(rest):
                        if total2 + RANK_VALUE[d] <= MAX_COUNT and d not in rest[:i]:
                            counter = max(counter, peg_points(seq2 + [d], total2 + RANK_VALUE[d]))
                    if not opponent_next:
                        value = float(their)
                    elif counter < 0:
                        value = their + 1.0
                    else:
                        value = their - mine * counter
                    replies.append((value, unseen_by_rank[rr]))
                none_value = -mine * _solo(seq, total, rest, False) if opponent_next else 0.0
                reply = _expected_best(replies, len(unseen), sizes[nxt], none_value)
            if opponent_next:
                price = mine * points - reply
            else:
                price = points + 0.5 * reply  # a partner's reply scores for this side
            prices.append(price + mine * _habits(ranks_now, r, rest, total, points))
        return prices


def _habits(ranks_now: list[int], r: int, rest: list[int], total: int, points: int) -> float:
    """Small adjustments strong players make beyond the immediate arithmetic."""
    bonus = 0.0
    if not ranks_now:  # a lead
        if r == 4:
            bonus -= 1.0  # never lead a five
        elif RANK_VALUE[r] <= 4:
            bonus += 0.4  # nothing makes fifteen on it
        if r in rest:
            bonus += 0.3  # lead from a pair: a pair back is answered with three of a kind
        if rest and RANK_VALUE[r] >= 10 and any(RANK_VALUE[d] == 5 for d in rest):
            bonus += 0.1  # a ten led with a five kept can answer a five with fifteen
    elif points == 0 and RANK_VALUE[r] <= 4 and total <= 20 and any(RANK_VALUE[d] > 4 for d in rest):
        bonus -= 0.3  # keep low cards for the end of a count
    return bonus


def _solo(ranks: list[int], count: int, rest: list[int], across: bool) -> int:
    """Most points a seat makes laying its rest cards alone (nobody else can lay a card).

    It must go on laying while a card fits; when none does it pegs the go (1, or nothing more
    after 31, which scored already). With across=True the others are out of cards, so it leads
    again after each reset until its cards are gone (the last card pegs 1 the same way).
    """
    best = -1
    for i, r in enumerate(rest):
        value = RANK_VALUE[r]
        if count + value <= MAX_COUNT and (i == 0 or r not in rest[:i]):
            total = count + value
            seq = ranks + [r]
            points = peg_points(seq, total) + _solo(seq, total, rest[:i] + rest[i + 1:], across)
            if points > best:
                best = points
    if best >= 0:
        return best
    end = 0 if count == MAX_COUNT or not ranks else 1
    if across and rest:
        return end + _solo([], 0, rest, across)
    return end


def _expected_best(replies: list[tuple[float, int]], unseen: int, held: int, none_value: float) -> float:
    """Expected value of the best reply a hand of `held` cards drawn from `unseen` cards holds.

    replies: (value to the replier, number of unseen cards giving it); none_value: the value
    when the hand holds no card that can be laid. Exact for a hand drawn uniformly.
    """
    if held <= 0 or unseen <= 0:
        return none_value
    held = min(held, unseen)
    all_hands = comb(unseen, held)
    expected = 0.0
    seen = 0
    p_none = 1.0
    for value, cards in sorted(replies, key=lambda item: (-item[0], -item[1])):  # no ties: same order everywhere
        seen += cards
        p_after = comb(unseen - seen, held) / all_hands
        expected += value * (p_none - p_after)
        p_none = p_after
    return expected + p_none * none_value
