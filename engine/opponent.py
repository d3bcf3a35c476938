"""What every computer opponent shares: the ``Player`` interface, what a seat's view tells it, and the true count and claim.

A player is asked ``player.choose(view, legal_actions)`` and returns one of ``legal_actions``
(the very dict from that list). It sees only what its seat may know: ``view`` is the plain dict
``GameState.view(seat)`` returns (see engine.game). Its random choices come from ``rng``, a
generator fixed by its seed and the decision's view, so it keeps no memory between calls. Every
opponent counts its own hand and claims its own cards' points in the play truly, under muggins
(``choose_count``, ``choose_claim``). The opponents themselves are engine.easy, engine.hard and
engine.expert; engine.players names them.

>>> view = {"seat": 1, "dealer": 0, "players": 2, "hand": [0, 13], "starter": 26}
>>> owns_crib(view), len(unseen_cards(view))
(False, 49)
"""

from engine.fairdeal import Sfc32, keyed_generator
from engine.scoring import score_play, score_show


class Player:
    """A computer opponent: ``choose(view, legal_actions)`` returns one of the legal actions."""

    name = "player"

    def __init__(self, seed: int | str = 0) -> None:
        """Make a player; the seed fixes every choice it makes (same seed, same view, same move)."""
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise ValueError(f"a player's seed is text or a whole number, got {type(seed).__name__}")
        self.seed = str(seed)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"

    def choose(self, view: dict, legal_actions: "list[dict]") -> dict:
        """Return one of legal_actions (the same dict) for the seat whose view this is."""
        if not isinstance(view, dict) or "hand" not in view:
            raise ValueError("choose needs a seat's view (the dict GameState.view(seat) returns)")
        if not legal_actions:
            raise ValueError("no legal actions: it is not this seat's turn")
        kind = legal_actions[0].get("type")
        if any(a.get("type") != kind for a in legal_actions):
            raise ValueError("legal_actions mixes action types")
        if kind == "discard":
            action = self.choose_discard(view, legal_actions)
        elif kind == "play":
            action = self.choose_play(view, legal_actions)
        elif kind == "count":
            action = choose_count(view, legal_actions)
        elif kind == "claim":
            action = choose_claim(view, legal_actions)
        else:
            raise ValueError(f"unknown action type {kind!r}")
        return action

    def choose_discard(self, view: dict, legal_actions: "list[dict]") -> dict:
        """Pick the cards to throw to the crib."""
        raise NotImplementedError

    def choose_play(self, view: dict, legal_actions: "list[dict]") -> dict:
        """Pick the card to lay in the play."""
        raise NotImplementedError

    def rng(self, view: dict, what: str) -> Sfc32:
        """A random source fixed by the seed and this decision's view (no state between calls)."""
        laid = len(view.get("laid") or ())
        return keyed_generator(f"{self.name}|{self.seed}|{view.get('commitment')}|"
                               f"{view.get('hand_number')}|{what}|{sorted(view['hand'])}|{laid}")


# --------------------------------------------------------------------------------------------
# What a view tells a seat


def side_of(view: dict, seat: int) -> int:
    """The score track a seat plays for: its partnership with four players, else itself."""
    return seat % 2 if view["players"] == 4 else seat


def owns_crib(view: dict) -> bool:
    """True when the crib of this hand counts for the viewing seat's side."""
    return side_of(view, view["seat"]) == side_of(view, view["dealer"])


def seen_cards(view: dict) -> set[int]:
    """Every card the viewing seat has seen this hand: its own, the starter, the cards laid."""
    seen = set(view["hand"])
    seen.update(view.get("discards") or ())
    seen.update(view.get("played") or ())
    seen.update(c for _, c in view.get("laid") or ())
    if view.get("starter") is not None:
        seen.add(view["starter"])
    if view.get("crib"):
        seen.update(view["crib"])
    return seen


def unseen_cards(view: dict) -> list[int]:
    """The cards the viewing seat cannot see: other hands, the crib, the rest of the deck."""
    seen = seen_cards(view)
    return [c for c in range(52) if c not in seen]


def choose_count(view: dict, legal_actions: "list[dict]") -> dict:
    """Claim the true count of the hand or crib being shown (muggins), from the view's record."""
    counting = view.get("counting")
    if not counting:
        raise ValueError("the view has no hand or crib being counted")
    total = score_show(counting["cards"], counting["starter"], crib=counting["show"] == "crib").total
    for action in legal_actions:
        if action.get("points") == total:
            return action
    return max(legal_actions, key=lambda a: a["points"])


def choose_claim(view: dict, legal_actions: "list[dict]") -> dict:
    """Claim the true points of the card just laid (muggins with pegging claims), from the view."""
    if not view.get("claiming") or not view.get("current"):
        raise ValueError("the view has no card whose points are to be claimed")
    total = score_play([c for _, c in view["current"]]).total
    for action in legal_actions:
        if action.get("points") == total:
            return action
    return max(legal_actions, key=lambda a: a["points"])
