"""A greedy pegger: takes the most points it can with every card, and when nothing scores it
keeps the count away from 5 and 21 (a ten-card makes 15 or 31) and plays its highest card."""

from engine.cards import RANK_OF, VALUE_OF
from engine.players import four_card_points, peg_points

DANGER = (5, 21)  # counts where a ten, jack, queen or king scores two for the other side


def crib_points(cards):
    """A rough worth of two cards in a crib: a pair, a fifteen, and each five."""
    a, b = cards
    points = 2 if RANK_OF[a] == RANK_OF[b] else 0
    points += 2 if VALUE_OF[a] + VALUE_OF[b] == 15 else 0
    return points + sum(1 for card in cards if VALUE_OF[card] == 5)


def choose(view, legal_actions):
    if legal_actions[0]["type"] == "discard":
        hand = view["hand"]
        mine = view["seat"] == view["dealer"]

        def value(action):
            kept = [card for card in hand if card not in action["cards"]]
            thrown = crib_points(action["cards"])
            return four_card_points(kept) + (thrown if mine else -thrown)

        return max(legal_actions, key=value)

    ranks = [RANK_OF[card] for seat, card in view["current"]]
    count = view["count"]

    def value(action):
        card = action["card"]
        after = count + VALUE_OF[card]
        points = peg_points(ranks + [RANK_OF[card]], after)
        risk = 2 if after in DANGER else 0
        return (points - risk, VALUE_OF[card], -card)

    return max(legal_actions, key=value)
