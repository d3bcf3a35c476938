"""The easy opponent: a beginner that keeps what looks good in the hand and lays the first card that fits.

Half the time it throws any two cards; otherwise it keeps the four that look best as dealt
(fifteens, pairs, runs and a flush among those four alone, ``four_card_points``), never
thinking of the starter or the crib. In the play it lays the first card that fits, unless a
card scores at once.

>>> from engine.game import new_game
>>> state = new_game(seed="easy-doc")
>>> view = state.view(state.to_act)
>>> EasyPlayer(seed=1).choose(view, view["legal_actions"]) in view["legal_actions"]
True
"""

from engine.cards import RANK_OF, SUIT_OF, VALUE_OF
from engine.compat import combinations
from engine.opponent import Player
from engine.pegging import RANK_VALUE, peg_points
from engine.scoring import FIFTEEN, HAND_FLUSH, PAIR


def four_card_points(cards: "list[int]") -> int:
    """Points a beginner sees in four cards before the cut: fifteens, pairs, runs, a flush.

    >>> from engine.cards import parse_cards
    >>> four_card_points(parse_cards("5H 5S JD 4C"))  # two fifteens and a pair
    6
    """
    ranks = [RANK_OF[c] for c in cards]
    points = 0
    for size in (2, 3, 4):
        for combo in combinations(ranks, size):
            if sum(RANK_VALUE[r] for r in combo) == 15:
                points += FIFTEEN
    for a, b in combinations(ranks, 2):
        if a == b:
            points += PAIR
    distinct = sorted(set(ranks))
    for length in (4, 3):
        runs = 0
        for start in range(len(distinct) - length + 1):
            window = distinct[start:start + length]
            if window[-1] - window[0] == length - 1:
                ways = 1
                for r in window:
                    ways *= ranks.count(r)
                runs += ways * length
        if runs:
            points += runs
            break
    if len({SUIT_OF[c] for c in cards}) == 1:
        points += HAND_FLUSH
    return points


EASY_CARELESS = 0.5  # the share of easy's discards made without looking


class EasyPlayer(Player):
    """A beginner: keeps what looks good in the hand, ignores the crib, lays the first card that fits."""

    name = "easy"

    def choose_discard(self, view: dict, legal_actions: "list[dict]") -> dict:
        """Half the time any old throw; else keep the four that look best as dealt (ties at random)."""
        rng = self.rng(view, "discard")
        if rng.random() < EASY_CARELESS:
            return rng.choice(list(legal_actions))
        hand = view["hand"]
        scored = []
        for action in legal_actions:
            keep = [c for c in hand if c not in action["cards"]]
            scored.append((four_card_points(keep), action))
        best = max(points for points, _ in scored)
        return rng.choice([a for points, a in scored if points == best])

    def choose_play(self, view: dict, legal_actions: "list[dict]") -> dict:
        """Lay a card that scores at once (fifteen, pair, run, 31) if any; else the first that fits."""
        ranks = [RANK_OF[c] for _, c in view["current"]]
        count = view["count"]
        for action in legal_actions:
            card = action["card"]
            if peg_points(ranks + [RANK_OF[card]], count + VALUE_OF[card]) >= 2:
                return action
        return legal_actions[0]
