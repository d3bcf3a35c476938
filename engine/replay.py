"""A game told again step by step: the table after every deal, discard, card laid, go and count.

``replay_steps(state)`` replays a game (finished or not) from its seed and actions and returns
one step for every event the table announces, in order. A step is the table as the first
person at it saw it at that moment, with the words said::

    {"say", "kind", "hand_number", "dealer", "scores", "backs",
     "held": by seat, the cards in hand, or how many they are while they are hidden,
     "crib": its cards once shown or once the hand is over, else how many they are,
     "starter", "laid": [[seat, card]] this hand, "count_start", "count",
     "shown": [{"seat", "show", "cards", "starter", "total", "spoken", "claimed"}],
     "cut": [[seat, card]] the cut for first deal (the first steps only)}

Every hand is face up from the end of its hand on: the replay has nothing to hide then. Until
then a seat's cards are seen only from that seat, in the table and in the words alike (another
seat's dealt hand is told as so many cards face down). A game still being played is seen only
from a person's seat (``may_view``): a replay of it shows the cards that person held, and no
computer's before its hand is over.

>>> from engine.game import new_game
>>> steps = replay_steps(new_game(seed="replay-doc", seats=["person", "easy"]))
>>> [s["kind"] for s in steps][:3], steps[-1]["held"][1]
(['cut', 'deal', 'hand'], 6)
"""

from engine.game import PERSON, GameState
from engine.record import replay_moves, restart
from engine.narration import Seating, narrate
from engine.scoring import number_name

MAX_STEPS = 3000  # far more than a game to 121 takes


def first_viewer(state: GameState) -> int:
    """The seat a replay is seen from unless another is asked for: the first person's, else 0."""
    return state.seats.index(PERSON) if PERSON in state.seats else 0


def may_view(state: GameState, seat: int) -> bool:
    """True if a replay of this game may be seen from ``seat``: any seat once the game is over,
    else only a person's (the one who held those cards), never a computer's while it plays on.

    >>> from engine.game import new_game
    >>> game = new_game(seed="view-doc", seats=["person", "easy"])
    >>> may_view(game, 0), may_view(game, 1)
    (True, False)
    """
    return state.is_over or state.seats[seat] == PERSON


def hidden_hand_words(seating: Seating, seat: int, cards: int) -> str:
    """How a replay tells a seat's dealt hand that its viewer does not see: "The computer's six
    cards are dealt face down."."""
    whose = seating.possessive(seat)
    return f"{whose[:1].upper()}{whose[1:]} {number_name(cards)} cards are dealt face down."


class _Table:
    """The table as the viewer sees it, moved on event by event."""

    def __init__(self, state: GameState, viewer: int):
        n = state.players
        self.n, self.viewer = n, viewer
        self.scores, self.backs = [0] * n, [0] * n
        self.hand_number, self.dealer = 0, 0
        self.held = [[] for _ in range(n)]
        self.open = False  # the hand is over: every card face up
        self.crib, self.crib_open, self.starter = [], False, None
        self.laid, self.count_start, self.count = [], 0, 0
        self.shown, self.cut = [], None

    def take(self, event: dict, action: "dict | None") -> None:
        kind = event["type"]
        if kind == "cut":
            self.cut = [list(pair) for pair in event["cuts"][-self.n:]]
        elif kind == "deal":
            self.hand_number, self.dealer = event["hand_number"], event["dealer"]
            self.held = [[] for _ in range(self.n)]
            self.crib, self.crib_open, self.starter, self.open = [], False, None, False
            self.laid, self.count_start, self.count, self.shown = [], 0, 0, []
        elif kind == "hand":
            self.held[event["seat"]] = sorted(event["cards"])
        elif kind == "discard" and action is not None:
            for card in action["cards"]:
                self.held[event["seat"]].remove(card)
            self.crib = sorted(self.crib + list(action["cards"]))
        elif kind == "starter":
            self.starter = event["card"]
        elif kind == "play":
            self.held[event["seat"]].remove(event["card"])
            self.laid.append([event["seat"], event["card"]])
            self.count = event["count"]
        elif kind == "reset":
            self.count_start, self.count = len(self.laid), 0
        elif kind == "show":
            self.shown.append({key: event[key] for key in
                               ("seat", "show", "cards", "starter", "total", "spoken", "claimed")})
            if event["show"] == "crib":
                self.crib_open = True
        elif kind == "score":
            for seat in range(self.n):
                if seat == event["seat"] or (self.n == 4 and seat % 2 == event["seat"] % 2):
                    self.backs[seat] = self.scores[seat]
                    self.scores[seat] = event["total"]
        elif kind in ("hand_end", "game_over"):
            self.open = True

    def sees(self, seat: int) -> bool:
        """True if the viewer sees this seat's cards now (its own, or any once the hand is over)."""
        return self.open or seat == self.viewer

    def step(self, event: dict) -> dict:
        visible = [self.sees(seat) for seat in range(self.n)]
        return {
            "say": event["say"], "kind": event["type"], "hand_number": self.hand_number,
            "dealer": self.dealer, "scores": list(self.scores), "backs": list(self.backs),
            "held": [list(h) if visible[s] else len(h) for s, h in enumerate(self.held)],
            "crib": list(self.crib) if (self.open or self.crib_open) else len(self.crib),
            "starter": self.starter, "laid": [list(p) for p in self.laid], "count_start": self.count_start,
            "count": self.count, "shown": [dict(record) for record in self.shown],
            "cut": [list(p) for p in self.cut] if self.cut and self.hand_number <= 1 else None,
        }


def replay_steps(state: GameState, viewer: "int | None" = None) -> list[dict]:
    """Every step of a game, from its first cut to where it stands (see the module's docstring),
    as ``viewer`` saw it (a seat; by default the first person's, else seat 0). ValueError for a
    seat the game may not be seen from yet (``may_view``)."""
    if viewer is None:
        viewer = first_viewer(state)
    if not may_view(state, viewer):
        raise ValueError("this game is not over yet, so its replay is seen only from a person's seat, "
                         f"not from seat {viewer + 1}, the {state.seats[viewer]} computer's")
    seating = Seating.of(state)
    replayed = restart(state)
    table = _Table(state, viewer)
    steps = []

    def tell(events: list, action: "dict | None") -> None:
        for event in narrate(events, seating):
            table.take(event, action if event["type"] == "discard" else None)
            if event["type"] == "hand" and not table.sees(event["seat"]):
                event["say"] = hidden_hand_words(seating, event["seat"], len(event["cards"]))
            if event["say"] and len(steps) < MAX_STEPS:
                steps.append(table.step(event))
            elif steps:  # said with the step before (the points of a card or a show)
                said = table.step(event)
                said["say"], said["kind"] = steps[-1]["say"], steps[-1]["kind"]
                steps[-1] = said

    tell(replayed.start_events, None)
    for move in replay_moves(state, replayed):
        tell(move.apply(), move.action)
    return steps
