"""A beginner, like the site's easy player: keeps the four cards that look best as dealt and
lays a card that scores at once, or else the first card that fits."""

from engine.cards import RANK_OF, VALUE_OF
from engine.players import four_card_points, peg_points


def choose(view, legal_actions):
    if legal_actions[0]["type"] == "discard":
        hand = view["hand"]

        def points_kept(action):
            kept = [card for card in hand if card not in action["cards"]]
            return four_card_points(kept)  # fifteens, pairs, runs, flush: no starter, no crib

        return max(legal_actions, key=points_kept)

    # The play: the ranks laid since the count went back to 0, and the count.
    ranks = [RANK_OF[card] for seat, card in view["current"]]
    for action in legal_actions:
        card = action["card"]
        if peg_points(ranks + [RANK_OF[card]], view["count"] + VALUE_OF[card]) > 0:
            return action
    return legal_actions[0]
