"""Discards by expected value: engine.analysis.discard_options averages every way to keep four
cards over all 46 possible starters and prices the two cards thrown to the crib. In the play it
pegs greedily, as the greedy pegger does."""

from engine.analysis import discard_options
from engine.cards import RANK_OF, VALUE_OF
from engine.players import peg_points


def choose(view, legal_actions):
    if legal_actions[0]["type"] == "discard":
        my_crib = view["seat"] == view["dealer"]
        best = discard_options(view["hand"], is_dealer=my_crib)[0]  # best first
        for action in legal_actions:
            if sorted(action["cards"]) == sorted(best.throw):
                return action

    ranks = [RANK_OF[card] for seat, card in view["current"]]
    count = view["count"]

    def value(action):
        card = action["card"]
        after = count + VALUE_OF[card]
        points = peg_points(ranks + [RANK_OF[card]], after)
        risk = 2 if after in (5, 21) else 0
        return (points - risk, VALUE_OF[card], -card)

    return max(legal_actions, key=value)
