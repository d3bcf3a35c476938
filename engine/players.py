"""The computer opponents by name: ``get_player(name, seed)`` returns a player that picks one legal action.

A player is asked ``player.choose(view, legal_actions)`` and returns one of ``legal_actions``
(the very dict from that list). It sees only what its seat may know: ``view`` is the plain dict
``GameState.view(seat)`` returns (see engine.game); no player ever gets the game state, and
this module does not import engine.game. Decisions depend on nothing but the seed and the
view: a player keeps no memory between calls, so a fresh player with the same seed makes the
same choice from the same view, and a page can make a new player for every move::

    view = state.view(seat)
    action = get_player("hard", seed=7).choose(view, view["legal_actions"])
    state.apply(action)

The players, each in its own module on the frame of engine.opponent (``Player``):

- ``easy`` (engine.easy): a beginner. Half the time it throws any two cards; otherwise it keeps
  the four that look best as dealt, never thinking of the starter or the crib. In the play it
  lays the first card that fits, unless a card scores at once.
- ``hard`` (engine.hard): discards by exact expectation (``analysis.discard_options``), the
  pone near the end keeping the hand most likely to count out; in the play it prices every
  legal card by the points it makes now less the next player's expected best reply over the
  cards it cannot see, with the habits of strong players, and plays the board near the end.
- ``expert`` (engine.expert, two players): hard's discards; in the play it deals the cards it
  cannot see out to the other side many times over, as likely as a careful discard makes each
  hand, and searches each deal to the end of the play (engine.pegging_joint), playing for the
  game near the end. With three or four players it plays as hard does.

Every player counts its own hand, and claims its own cards' points in the play, correctly under
muggins. The helpers a bot lab bot may import are here too: ``peg_points`` (engine.pegging),
``four_card_points`` (engine.easy), ``unseen_cards`` and ``owns_crib`` (engine.opponent).

>>> from engine.game import new_game
>>> state = new_game(seed="doc")
>>> view = state.view(state.to_act)
>>> action = get_player("hard", seed=1).choose(view, view["legal_actions"])
>>> action in view["legal_actions"], action["type"]
(True, 'discard')
"""

from engine.easy import EasyPlayer, four_card_points
from engine.expert import ExpertPlayer
from engine.hard import HardPlayer
from engine.opponent import Player, choose_claim, choose_count, owns_crib, seen_cards, side_of, unseen_cards
from engine.pegging import peg_points

__all__ = ("PLAYER_NAMES", "EasyPlayer", "ExpertPlayer", "HardPlayer", "Player", "choose_claim", "choose_count",
           "four_card_points", "get_player", "owns_crib", "peg_points", "seen_cards", "side_of", "unseen_cards")

PLAYER_NAMES = ("easy", "hard", "expert")  # append only: share codes store the index
_PLAYERS: dict = {"easy": EasyPlayer, "hard": HardPlayer, "expert": ExpertPlayer}


def get_player(name: str, seed: int | str = 0) -> Player:
    """Return the computer opponent called name ("easy", "hard" or "expert") with this seed.

    >>> get_player("easy", 3)
    EasyPlayer(seed='3')
    """
    cls = _PLAYERS.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"no computer opponent called {name!r} (choose from {', '.join(PLAYER_NAMES)})")
    return cls(seed)
