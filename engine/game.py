"""The whole game of cribbage as one JSON-serialisable state object, in the OpenSpiel shape.

A game is made by ``new_game`` (or loaded by ``engine.record.from_json``) and driven by actions::

    state = new_game(seed="practice-1")          # seed=None: fresh fair-deal seeds every hand
    while not state.is_over:
        seat = state.to_act                       # whose decision it is
        view = state.view(seat)                   # everything that seat may know, nothing more
        action = choose(view["legal_actions"])    # a UI or a computer opponent decides
        events = state.apply(action)              # what happened, up to the next decision
        for seat_events in (events_for(s, events) for s in range(state.players)): ...
    state.winner, state.scores

>>> state = new_game(seed="doctest")
>>> state.phase, state.to_act, len(state.legal_actions())
('discard', 0, 15)
>>> events = state.apply(state.legal_actions()[0])
>>> [e["type"] for e in events], state.to_act
(['discard'], 1)
>>> from engine.record import from_json
>>> from_json(state.to_json()).to_json() == state.to_json()
True

Seats are numbered 0..players-1 clockwise: the seat after the dealer (dealer + 1) is the pone,
who leads the play and counts first. Two players are the standard game; three players (five
cards each, one dealt to the crib, one discard each) and four players in two partnerships
(seats 0 and 2 against 1 and 3, five cards each, one discard each, one score per partnership)
follow the same rules. ``scores`` is always a list by seat (partners show the same score).
A score never passes the target: the game ends the moment a side reaches it, mid-show included,
so points the winning move makes past it never reach the board (``on_board``). They stay in the
``tally`` (what the cards made, by source), so a winner's tally may add up to more than its score.

Phases (``state.phase``)
------------------------
- ``"discard"``: every seat must throw to the crib; ``to_act`` is the lowest seat that has not.
- ``"play"``: the pegging; ``to_act`` is the seat to lay a card. A seat that cannot lay a card
  without passing 31 says go automatically (an event); it is never asked.
- ``"claim"``: muggins games with pegging claims only (``peg_claims``): the person (a ``"person"``
  seat) who has just laid a card must claim the points that card makes (fifteen, thirty-one,
  pairs, runs; the go and the last card are pegged by the game). Computers' cards are scored
  at once, always right.
- ``"count"``: muggins games only: ``to_act`` must claim the count of the hand (or crib) that is
  being shown. Without muggins the show is counted automatically and this phase never rests.
- ``"over"``: ``to_act`` is None, ``winner`` is the seat that reached the target.

Actions (plain dicts; an optional ``"seat"`` key, if present, must equal ``to_act``)
-----------------------------------------------------------------------------------
- ``{"type": "discard", "cards": [c1, c2]}``  (one card with 3 or 4 players; any order)
- ``{"type": "play", "card": c}``
- ``{"type": "claim", "points": n}``  (pegging claims only; 0 <= n <= MAX_CLAIM)
- ``{"type": "count", "points": n}``  (muggins only; 0 <= n <= MAX_CLAIM)

Muggins claims (the show and, with ``peg_claims``, the play) follow one rule. A claim of exactly
what the cards hold scores it. A claim short of it scores what was claimed, and the next seat
clockwise pegs the points missed ("muggins"). A claim over it scores what the cards hold, and
the next seat clockwise pegs the excess ("overclaim"): an over-claim costs the points claimed
too many. The claimer's points go on first, so a true count that reaches the target wins.

Cards are ints 0..51 (``engine.cards``). ``legal_actions()`` lists every legal action in
canonical form (discard cards sorted). Anything else raises ``IllegalActionError`` (a
``ValueError``) naming what is wrong, and changes nothing. In the count and claim phases the
legal actions run from 0 to MAX_CLAIM whatever the cards hold, so they give nothing away.

Events (plain dicts, returned by ``apply``; ``state.start_events`` holds those of the cut and
the first deal)
------------------------------------------------------------------------------------------
- ``{"type": "cut", "seed", "commitment", "cuts": [[seat, card], ...], "dealer"}``
  the cut for first deal, drawn from its own seed, which is revealed at once.
- ``{"type": "deal", "hand_number", "dealer", "commitment", "cards_each"}``
- ``{"type": "hand", "seat", "cards", "visible_to": [seat]}``  PRIVATE: one per seat per deal.
- ``{"type": "discard", "seat", "count"}``  (which cards stays private; the seat knows them)
- ``{"type": "starter", "card", "dealer"}``
- ``{"type": "play", "seat", "card", "count"}``  (count after the card)
- ``{"type": "go", "seat", "count"}``  the seat cannot lay a card (a seat that laid the last card
  and cannot continue does not say go, it pegs it)
- ``{"type": "reset", "next"}``  the count goes back to 0 and ``next`` leads
- ``{"type": "claim", "seat", "card", "claimed", "total", "items"}``  pegging claims: the seat's
  claim for the card it laid, against what the card made (``items``: ``{"reason", "points",
  "cards"}`` as in the score events)
- ``{"type": "count_turn", "seat", "show", "cards", "starter"}``  muggins: the seat must count
  these cards (``show`` is "hand" or "crib"; the crib becomes visible to everyone here)
- ``{"type": "show", "seat", "show", "cards", "starter", "total", "spoken", "items", "claimed"}``
  a hand or crib counted; ``items`` are ``scoring.ScoreItem.to_dict()``; ``claimed`` is the
  muggins claim or None
- ``{"type": "score", "seat", "points", "reason", "source", "cards", "total"}`` plus
  ``"show": "hand"|"crib"`` for show points. Every point ever scored is one of these;
  ``total`` is the scorer's (partnership's) score after it, at most the target. Reasons: his_heels; in the play
  fifteen, thirty_one, pair, pair_royal, double_pair_royal, run, go, last_card; in the show one
  event per item: fifteen, pair, run, flush, nobs; muggins games add "count" (an undercount:
  the points the seat claimed, as one event; in the play too with pegging claims), "muggins"
  (the points it missed, given to the next seat clockwise) and "overclaim" (the points claimed
  over what the cards hold, given to the next seat clockwise). ``source`` is one of ``SOURCES``:
  pegging, hand, crib, heels, muggins (both "muggins" and "overclaim").
- ``{"type": "hand_end", "hand_number", "dealer", "seed", "commitment", "points"}``  the seed is
  revealed; ``points`` are this hand's points by seat. Also sent when the game ends mid-hand.
- ``{"type": "game_over", "winner", "winners", "scores", "skunk", "skunks", "target"}``  skunk is
  "none", "skunk" or "double_skunk" for the losing side (three players: the worst among the
  losers; ``skunks`` gives each seat's); ``target`` is the game's (121 or 61).

Private events carry ``"visible_to": [seats]``; every other event is public. Give a seat only
``events_for(seat, events)`` (also ``state.events_for``), which drops the private events of
other seats. The only private event is the dealt hand (``start_events`` holds two of them).

The view (``state.view(seat)``): exactly what that seat may know
-----------------------------------------------------------------
``{"seat", "players", "target", "muggins", "hand_number", "phase", "to_act", "dealer", "pone",
"scores", "backs": by seat, each side's score before its last move on the board (where its back
peg stands; 0 before it has scored), "tally": [{source: points}] by seat (whole game),
"hand_points": the same for this hand, "hand": own cards not yet laid, "discards": own discards
or None, "played": own cards laid, "hand_sizes", "discarded": [bool] by seat, "crib_owner", "crib_size", "crib": cards or None (only
once shown, or while a muggins count of it is due), "starter": card or None, "laid": [[seat, card]] this hand in order, "count",
"current": [[seat, card]] since the count last reset, "go": seats that said go in this count,
"shown": [show records as in the show event] of this hand, "counting": the count_turn record or
None, "claiming": {"seat", "card"} while a pegging claim is due, else None, "peg_claims",
"legal_actions" (empty unless it is this seat's turn), "commitment" (always),
"seed" (None until the hand is over), "last_hand": {"hand_number", "dealer", "seed",
"commitment", "points"} or None, "is_over", "winner", "winners", "skunk", "revealed": None, or
once the game is over {"hands", "crib_dealt", "starter"} as dealt, with where the cards ended:
"held" (by seat, the cards not laid when the game ended), "discards" (by seat) and "crib"}``.

A move on the board is one scoring: a card's points in the play (fifteen and a pair together),
one hand or crib counted, a go, last card, his heels, a muggins claim (the claimer's points and
the others' muggins are separate moves). Its points go on at once,
so the back peg stays where the move began.

Fair deals and seeds
--------------------
Each hand is dealt by ``fairdeal.deal`` from its own seed, whose commitment is public from the
deal on and which is revealed when the hand ends. ``seed=None`` takes every seed (and the cut's)
from ``fairdeal.new_seed()`` when it is needed; a given seed (str or int) derives them: the first
32 hex digits of sha256 of ``f"{seed}:{hand_number}"`` (``f"{seed}:cut"`` for the cut). A sealed
friend game's hands are dealt from joint seeds, one part from each player (``engine.seeds``).

Saved games
-----------
``to_json()`` is the game's record (``engine.record``): its rules, seating, seed and every
action of every hand, and nothing that follows from them. ``engine.record.from_json`` replays it and
refuses, with ``GameFormatError`` (a ``ValueError``), anything that is not exactly such a game.
The record holds the seed, so it is for the device's own storage, never for an opponent
(opponents and the UI get views).

Skunks: with a target of 121 the loser is skunked at 90 or fewer and double-skunked below 61;
in the 61-point game a loser below 31 is skunked (there is no double skunk).
"""

from engine import fairdeal, record_format
from engine.cards import JACK, RANK_OF, VALUE_OF, card_name, is_card
from engine.compat import Memo, combinations
from engine.messages import quoted
from engine.scoring import GO, HIS_HEELS, LAST_CARD, MAX_COUNT, SOURCES, score_play, score_show
from engine.seeds import cut_seed, hand_seed
from engine.views import seat_view

TARGETS = (121, 61)
PLAYER_COUNTS = (2, 3, 4)
ACTION_TYPES = ("discard", "play", "claim", "count")
SKUNK_KINDS = ("none", "skunk", "double_skunk")
SKUNK_LINES = {121: (91, 61), 61: (31, None)}  # below the first: skunk; below the second: double
DISCARDS_EACH = {2: 2, 3: 1, 4: 1}
CARDS_EACH = {2: 6, 3: 5, 4: 5}
MAX_SEED_TEXT = 200
PERSON = "person"  # a seat played by a person (the others are computers, by level)
MAX_CLAIM = 29  # a muggins claim (show or play): a whole number of points from 0 to the highest count
MAX_HANDS = 400  # far more than any game can take (every hand scores at least the last card)

_ACTION_FIELD = {"discard": "cards", "play": "card", "claim": "points", "count": "points"}
_PEGGING, _HAND, _CRIB, _HEELS, _MUGGINS = range(5)


class GameError(ValueError):
    """Base class of the game's errors (a ValueError, so callers can treat it as bad input)."""


class IllegalActionError(GameError):
    """An action that is not legal in the current state; the state is left unchanged."""


class GameFormatError(GameError):
    """Saved-game JSON that is corrupt, tampered with or from an unknown format version."""


_dealt = Memo(fairdeal.deal)
"""The fair deal of (seed, players, dealer), cached: a hand is re-dealt on every load; never mutate it."""

_cut = Memo(fairdeal.cut_for_deal)
"""The cut for first deal drawn from (seed, players), cached like _dealt."""


def events_for(seat: int, events: "list[dict]") -> list[dict]:
    """Return the events a seat may see: public ones and the private ones addressed to it."""
    return [e for e in events if "visible_to" not in e or seat in e["visible_to"]]


def _is_int(value: object) -> bool:
    return type(value) is int


def _skunk_kind(target: int, score: int) -> str:
    single, double = SKUNK_LINES[target]
    if double is not None and score < double:
        return "double_skunk"
    if score < single:
        return "skunk"
    return "none"


def on_board(score: int, target: int) -> int:
    """A side's points as its score on the board: at most the target, where the game ends.

    Every score the engine reports (``GameState.scores``, a score event's ``total``, the view's
    and the game-over event's ``scores``) is one of these, so every screen, replay and text shows
    the same final score.

    >>> on_board(128, 121), on_board(115, 121), on_board(63, 61)
    (121, 115, 61)
    """
    return target if score > target else score


def _normalise_base_seed(seed: object) -> str | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise ValueError(f"a game seed is text or a whole number, got {type(seed).__name__}")
    text = str(seed)
    if not text or len(text) > MAX_SEED_TEXT:
        raise ValueError(f"a game seed is 1 to {MAX_SEED_TEXT} characters long")
    return text


def new_game(seed: "str | int | None" = None, target: int = 121, muggins: bool = False,
             players: int = 2, seats: "list[str] | None" = None,
             names: "list[str] | None" = None, peg_claims: "bool | None" = None,
             deal_source=None) -> "GameState":
    """Start a game: cut for first deal, then deal the first hand.

    ``seed`` makes a practice game whose deals anyone can repeat; without it the game draws a
    fresh secret seed (``fairdeal.new_seed``) that fixes its deals. ``seats`` says who sits
    where: ``"person"`` or a computer's level by seat (default: people everywhere); ``names``
    are the people's names (two people sharing a device), kept with the game. ``peg_claims``:
    people claim their own points in the play (muggins games only; default: with muggins).
    ``deal_source(hand_number, dealer)``, if given, returns each hand's ``fairdeal.Deal`` in
    place of the seed's (a sealed friend game's page, which knows only some of the cards; a
    deal with an empty seed has no commitment). It is not saved with the game.

    >>> g = new_game(seed=1, target=61)
    >>> g.target, g.phase, g.hand_number, g.scores, g.practice
    (61, 'discard', 1, [0, 0], True)
    """
    if not _is_int(players) or players not in PLAYER_COUNTS:
        raise ValueError(f"players must be one of {', '.join(map(str, PLAYER_COUNTS))}, got {quoted(players)}")
    if not _is_int(target) or target not in TARGETS:
        raise ValueError(f"target must be 121 or 61, got {quoted(target)}")
    if not isinstance(muggins, bool):
        raise ValueError(f"muggins must be True or False, got {quoted(muggins)}")
    if peg_claims is None:
        peg_claims = muggins
    if not isinstance(peg_claims, bool) or (peg_claims and not muggins):
        raise ValueError(f"pegging claims are on or off, and on only with muggins, got {quoted(peg_claims)}")
    if seats is None:
        seats = [PERSON] * players
    if not (isinstance(seats, list) and len(seats) == players and all(isinstance(k, str) for k in seats)):
        raise ValueError(f"seats must name who sits in each of the {players} seats")
    if names is not None and not (isinstance(names, list) and len(names) == players
                                  and all(isinstance(n, str) for n in names)):
        raise ValueError(f"names must give a name for each of the {players} seats")
    practice = seed is not None
    base = _normalise_base_seed(seed) if practice else fairdeal.new_seed()
    state = GameState(players, target, muggins, base, practice, list(seats), names)
    state.peg_claims = peg_claims
    state.deal_source = deal_source
    seed_of_cut = cut_seed(base)
    result = _cut(seed_of_cut, players)
    state.cut = {"seed": seed_of_cut, "cuts": [[int(s), int(c)] for s, c in result.cuts],
                 "dealer": int(result.dealer)}
    events: list[dict] = [{"type": "cut", "seed": seed_of_cut, "commitment": fairdeal.commitment(seed_of_cut),
                           "cuts": [list(pair) for pair in state.cut["cuts"]], "dealer": state.cut["dealer"]}]
    state._start_hand(1, state.cut["dealer"], events)
    state.start_events = events
    return state


class GameState:
    """A game in progress: rules, scores, the current hand; build with new_game or record.from_json."""

    def __init__(self, players: int, target: int, muggins: bool, base_seed: str, practice: bool = True,
                 seats: "list[str] | None" = None, names: "list[str] | None" = None) -> None:
        """Set up an empty game shell (use new_game or record.from_json instead)."""
        self.players = players
        self.target = target
        self.muggins = muggins
        self.peg_claims = False  # people claim their own points in the play (muggins games)
        self.base_seed = base_seed  # every deal follows from it (seeds.hand_seed)
        self.practice = practice  # the seed was given (a practice game), not drawn in secret
        self.hinted = False  # a person asked the coach for a hint (engine/coach.py) in this game
        self.seats = list(seats) if seats is not None else [PERSON] * players
        self.names = list(names) if names is not None else None
        self.cut: dict = {}
        self.history: list[dict] = []
        self.tally: list[list[int]] = [[0] * len(SOURCES) for _ in range(players)]
        self.backs: list[int] = [0] * players  # by seat: the side's score before its last peg move
        self.phase = "discard"
        self.to_act: int | None = None
        self.winner: int | None = None
        self.hand_number = 0
        self.dealer = 0
        self.seed = ""
        self.commitment = ""
        self.held: list[list[int]] = []
        self.discards: list[list[int] | None] = []
        self.crib: list[int] = []
        self.starter: int | None = None
        self.laid: list[list[int]] = []
        self.count_start = 0
        self.gone: list[int] = []
        self.show_step = 0
        self.claims: list[int] = []
        self.points: list[list[int]] = []
        self.actions: list[dict] = []
        self.start_events: list[dict] = []
        self._deal = None  # the fairdeal.Deal of the current hand
        self.deal_source = None  # (hand number, dealer) -> fairdeal.Deal, in place of the seeds

    # ----------------------------------------------------------------------------------------
    # Read-only facts

    @property
    def is_over(self) -> bool:
        """True once a side has reached the target."""
        return self.phase == "over"

    @property
    def pone(self) -> int:
        """The seat after the dealer: leads the play and counts first."""
        return (self.dealer + 1) % self.players

    def side_of(self, seat: int) -> int:
        """The side (score track) a seat plays for: its partnership with 4 players, else itself."""
        return seat % 2 if self.players == 4 else seat

    def side_seats(self, seat: int) -> list[int]:
        """The seats that share a seat's score track (partners included)."""
        return [seat % 2, seat % 2 + 2] if self.players == 4 else [seat]

    def _side_score(self, seat: int) -> int:
        """The seat's side's score on the board (``on_board``: at most the target)."""
        if self.players == 4:
            points = sum(self.tally[seat % 2]) + sum(self.tally[seat % 2 + 2])
        else:
            points = sum(self.tally[seat])
        return on_board(points, self.target)

    @property
    def scores(self) -> list[int]:
        """The score by seat (partners share one score), at most the target."""
        return [self._side_score(s) for s in range(self.players)]

    @property
    def winners(self) -> list[int]:
        """The seats of the winning side (empty while the game is on)."""
        return [] if self.winner is None else self.side_seats(self.winner)

    @property
    def skunk(self) -> str | None:
        """None while the game is on; then "none", "skunk" or "double_skunk" (worst loser)."""
        if self.winner is None:
            return None
        kinds = self.skunks
        return max(kinds, key=SKUNK_KINDS.index)

    @property
    def skunks(self) -> list[str] | None:
        """Each seat's skunk kind once the game is over ("none" for the winners)."""
        if self.winner is None:
            return None
        scores = self.scores
        win = self.side_of(self.winner)
        return ["none" if self.side_of(s) == win else _skunk_kind(self.target, scores[s])
                for s in range(self.players)]

    def count(self) -> int:
        """The running count of the play."""
        return sum(VALUE_OF[c] for _, c in self.laid[self.count_start:])

    def _show_order(self) -> list[tuple[int, str]]:
        n, d = self.players, self.dealer
        return [((d + i) % n, "hand") for i in range(1, n + 1)] + [(d, "crib")]

    def _show_cards(self, seat: int, what: str) -> list[int]:
        if what == "crib":
            return sorted(self.crib)
        return sorted(self.held[seat] + [c for s, c in self.laid if s == seat])

    # ----------------------------------------------------------------------------------------
    # Legal actions and the one place legality is checked

    def legal_actions(self) -> list[dict]:
        """Every legal action for the seat to act, in canonical form ([] once the game is over)."""
        seat = self.to_act
        if self.phase == "over" or seat is None:
            return []
        if self.phase == "discard":
            k = DISCARDS_EACH[self.players]
            return [{"type": "discard", "cards": list(combo)}
                    for combo in combinations(sorted(self.held[seat]), k)]
        if self.phase == "play":
            count = self.count()
            return [{"type": "play", "card": c} for c in sorted(self.held[seat])
                    if count + VALUE_OF[c] <= MAX_COUNT]
        return [{"type": self.phase, "points": n} for n in range(MAX_CLAIM + 1)]

    def _check(self, action: object) -> dict:
        """Return the canonical form of a legal action or raise IllegalActionError saying why."""
        if self.phase == "over":
            raise IllegalActionError("the game is over: no more actions")
        if not isinstance(action, dict):
            raise IllegalActionError(
                f"an action is a dict such as {{'type': 'play', 'card': 4}}, got {quoted(action)}")
        kind = action.get("type")
        if kind not in ACTION_TYPES:
            raise IllegalActionError(f"unknown action type {quoted(kind)} (expected discard, play, claim or count)")
        expected = self.phase  # each phase but "over" is named after the action it takes
        seat = self.to_act
        assert seat is not None
        if kind != expected:
            raise IllegalActionError(
                f"a {kind} action is not allowed now: it is the {self.phase} phase and seat {seat} "
                f"must {expected}")
        field = _ACTION_FIELD[kind]
        extra = sorted(set(action) - {"type", "seat", field}, key=str)
        if extra:
            raise IllegalActionError(f"unexpected key(s) {', '.join(map(quoted, extra))} in a {kind} action")
        if "seat" in action and (not _is_int(action["seat"]) or action["seat"] != seat):
            raise IllegalActionError(f"it is seat {seat}'s turn, not seat {quoted(action['seat'])}'s")
        if field not in action:
            raise IllegalActionError(f"a {kind} action needs {quoted(field)}")
        value = action[field]
        if kind == "discard":
            need = DISCARDS_EACH[self.players]
            if not isinstance(value, (list, tuple)):
                raise IllegalActionError(f"discard 'cards' must be a list of {need} card(s), got {quoted(value)}")
            if len(value) != need:
                raise IllegalActionError(f"discard exactly {need} card(s) to the crib, got {len(value)}")
            for c in value:
                if not is_card(c):
                    raise IllegalActionError(f"not a card: {quoted(c)} (card ints run from 0 to 51)")
            if len(set(value)) != len(value):
                raise IllegalActionError(f"the same card twice in a discard: {[card_name(c) for c in value]}")
            for c in value:
                if c not in self.held[seat]:
                    raise IllegalActionError(f"seat {seat} does not hold {card_name(c)}")
            return {"type": "discard", "cards": sorted(value)}
        if kind == "play":
            if not is_card(value):
                raise IllegalActionError(f"not a card: {quoted(value)} (card ints run from 0 to 51)")
            if value not in self.held[seat]:
                raise IllegalActionError(f"seat {seat} does not hold {card_name(value)}")
            count = self.count()
            if count + VALUE_OF[value] > MAX_COUNT:
                raise IllegalActionError(
                    f"{card_name(value)} would take the count from {count} to "
                    f"{count + VALUE_OF[value]}, past {MAX_COUNT}")
            return {"type": "play", "card": value}
        if not _is_int(value) or not 0 <= value <= MAX_CLAIM:
            raise IllegalActionError(f"a {kind} is a whole number of points from 0 to {MAX_CLAIM}, "
                                     f"got {quoted(value)}")
        return {"type": kind, "points": value}

    # ----------------------------------------------------------------------------------------
    # Applying actions

    def apply(self, action: dict) -> list[dict]:
        """Apply the action of the seat to act; return every event up to the next decision."""
        canonical = self._check(action)
        seat = self.to_act
        assert seat is not None
        events: list[dict] = []
        self.actions.append(canonical)
        kind = canonical["type"]
        if kind == "discard":
            self._do_discard(seat, canonical["cards"], events)
        elif kind == "play":
            self._do_play(seat, canonical["card"], events)
        elif kind == "claim":
            self._do_claim(seat, canonical["points"], events)
        else:
            self._do_count(seat, canonical["points"], events)
        return events

    def events_for(self, seat: int, events: "list[dict]") -> list[dict]:
        """Return the events a seat may see (see the module function events_for)."""
        self._check_seat(seat)
        return events_for(seat, events)

    def _add(self, seat: int, points: int, reason: str, cards: "list[int]", source: int,
             events: list[dict], show: str | None = None, joined: bool = False) -> None:
        """Peg points for a seat and record the score event (the only place points are added).

        ``joined``: these points go on the board in the same move as the seat's points just
        before (the items of one card in the play, or of one counted show), so the back peg
        stays where that move began.
        """
        if points <= 0:
            return
        if not joined:
            before = self._side_score(seat)
            for s in self.side_seats(seat):
                self.backs[s] = before
        self.tally[seat][source] += points
        self.points[seat][source] += points
        event = {"type": "score", "seat": seat, "points": points, "reason": reason,
                 "source": SOURCES[source], "cards": list(cards), "total": self._side_score(seat)}
        if show is not None:
            event["show"] = show
        events.append(event)

    def _won(self, seat: int, events: list[dict]) -> bool:
        """End the game at once if the seat's side has reached the target."""
        if self._side_score(seat) < self.target:
            return False
        self.winner = seat
        self.phase = "over"
        self.to_act = None
        events.append(self._hand_end_event())
        events.append({"type": "game_over", "winner": seat, "winners": self.winners,
                       "scores": self.scores, "skunk": self.skunk, "skunks": self.skunks,
                       "target": self.target})
        return True

    def _start_hand(self, number: int, dealer: int, events: list[dict]) -> None:
        """Deal hand `number` from its seed (derived from the game's) and open the discard."""
        n = self.players
        if self.deal_source is None:
            seed = hand_seed(self.base_seed, number)
            deal = _dealt(seed, n, dealer)
        else:
            deal = self.deal_source(number, dealer)
            seed = deal.seed
        self._deal = deal
        self.hand_number = number
        self.dealer = dealer
        self.seed = seed
        self.commitment = fairdeal.commitment(seed) if seed else ""
        self.held = [sorted(int(c) for c in deal.hands[s]) for s in range(n)]
        self.discards = [None] * n
        self.crib = sorted(int(c) for c in deal.crib)
        self.starter = None
        self.laid = []
        self.count_start = 0
        self.gone = []
        self.show_step = 0
        self.claims = []
        self.points = [[0] * len(SOURCES) for _ in range(n)]
        self.actions = []
        self.phase = "discard"
        self.to_act = 0
        events.append({"type": "deal", "hand_number": number, "dealer": dealer,
                       "commitment": self.commitment, "cards_each": CARDS_EACH[n]})
        for s in range(n):
            events.append({"type": "hand", "seat": s, "cards": list(self.held[s]), "visible_to": [s]})

    def _do_discard(self, seat: int, cards: list[int], events: list[dict]) -> None:
        held = self.held[seat]
        for c in cards:
            held.remove(c)
        self.discards[seat] = list(cards)
        self.crib = sorted(self.crib + cards)
        events.append({"type": "discard", "seat": seat, "count": len(cards)})
        waiting = [s for s in range(self.players) if self.discards[s] is None]
        if waiting:
            self.to_act = waiting[0]
            return
        starter = int(self._deal.starter)
        self.starter = starter
        events.append({"type": "starter", "card": starter, "dealer": self.dealer})
        if RANK_OF[starter] == JACK:
            self._add(self.dealer, HIS_HEELS, "his_heels", [starter], _HEELS, events)
            if self._won(self.dealer, events):
                return
        self.phase = "play"
        self._advance_play(self.pone, events)

    def _do_play(self, seat: int, card: int, events: list[dict]) -> None:
        self.held[seat].remove(card)
        self.laid.append([seat, card])
        current = [c for _, c in self.laid[self.count_start:]]
        result = score_play(current)
        events.append({"type": "play", "seat": seat, "card": card, "count": result.count})
        if self.peg_claims and self.seats[seat] == PERSON:
            self.phase = "claim"  # the person says what the card made (self.to_act stays)
            return
        for k, item in enumerate(result.items):
            self._add(seat, item.points, item.kind, item.cards, _PEGGING, events, joined=k > 0)
        if self._won(seat, events):
            return
        self._advance_play((seat + 1) % self.players, events)

    def _do_claim(self, seat: int, points: int, events: list[dict]) -> None:
        card = self.laid[-1][1]
        result = score_play([c for _, c in self.laid[self.count_start:]])
        events.append({"type": "claim", "seat": seat, "card": card, "claimed": points, "total": result.total,
                       "items": [{"reason": i.kind, "points": i.points, "cards": list(i.cards)}
                                 for i in result.items]})
        self.phase = "play"
        if self._settle(seat, points, result.items, result.total, _PEGGING, [card], events):
            return
        self._advance_play((seat + 1) % self.players, events)

    def _settle(self, seat: int, claimed: int, items, total: int, source: int, cards: list[int],
                events: list[dict], show: str | None = None) -> bool:
        """Score a muggins claim (see the module doc); True if it ended the game."""
        if claimed >= total:
            for k, item in enumerate(items):
                self._add(seat, item.points, item.kind, item.cards, source, events, show=show, joined=k > 0)
        else:
            self._add(seat, claimed, "count", cards, source, events, show=show)
        if self._won(seat, events):
            return True
        if claimed == total:
            return False
        other = (seat + 1) % self.players
        reason = "muggins" if claimed < total else "overclaim"
        self._add(other, abs(total - claimed), reason, cards, _MUGGINS, events, show=show)
        return self._won(other, events)

    def _advance_play(self, turn: int, events: list[dict]) -> None:
        """Find the next seat able to lay a card, declaring goes, go points, resets and the end."""
        n, held = self.players, self.held
        while True:
            if not any(held):
                seat, card = self.laid[-1]
                if self.count() != MAX_COUNT:
                    self._add(seat, LAST_CARD, "last_card", [card], _PEGGING, events)
                    if self._won(seat, events):
                        return
                self._start_show(events)
                return
            count = self.count()
            last = self.laid[-1][0] if len(self.laid) > self.count_start else None
            if count == MAX_COUNT:
                turn = self._reset(last, events)
                continue
            for i in range(n):
                s = (turn + i) % n
                if s in self.gone or not held[s]:
                    continue
                if any(count + VALUE_OF[c] <= MAX_COUNT for c in held[s]):
                    self.to_act = s
                    return
                if s != last:
                    self.gone.append(s)
                    events.append({"type": "go", "seat": s, "count": count})
            # Nobody can lay a card: the last card of this count pegs one for the go.
            assert last is not None
            self._add(last, GO, "go", [self.laid[-1][1]], _PEGGING, events)
            if self._won(last, events):
                return
            turn = self._reset(last, events)

    def _reset(self, last: int | None, events: list[dict]) -> int:
        """Start a new count; the next seat after the last card's player that holds cards leads."""
        assert last is not None
        n = self.players
        leader = next(s for s in ((last + i) % n for i in range(1, n + 1)) if self.held[s])
        self.count_start = len(self.laid)
        self.gone = []
        events.append({"type": "reset", "next": leader})
        return leader

    def _current_show(self):
        seat, what = self._show_order()[self.show_step]
        return score_show(self._show_cards(seat, what), self.starter, crib=(what == "crib"))

    def _show_event(self, step: int, result, claimed: int | None) -> dict:
        seat, what = self._show_order()[step]
        return {"type": "show", "seat": seat, "show": what, "cards": list(result.hand),
                "starter": result.starter, "total": result.total, "spoken": result.spoken,
                "items": [item.to_dict() for item in result.items], "claimed": claimed}

    def _start_show(self, events: list[dict]) -> None:
        """Count the shows in order from show_step; stop for a muggins claim or a win."""
        order = self._show_order()
        while self.show_step < len(order):
            seat, what = order[self.show_step]
            if self.muggins:
                self.phase = "count"
                self.to_act = seat
                events.append({"type": "count_turn", "seat": seat, "show": what,
                               "cards": self._show_cards(seat, what), "starter": self.starter})
                return
            result = self._current_show()
            events.append(self._show_event(self.show_step, result, None))
            source = _CRIB if what == "crib" else _HAND
            for k, item in enumerate(result.items):
                self._add(seat, item.points, item.kind, item.cards, source, events, show=what, joined=k > 0)
            self.show_step += 1
            if self._won(seat, events):
                return
        self._end_hand(events)

    def _do_count(self, seat: int, points: int, events: list[dict]) -> None:
        what = self._show_order()[self.show_step][1]
        result = self._current_show()
        events.append(self._show_event(self.show_step, result, points))
        source = _CRIB if what == "crib" else _HAND
        cards = list(result.hand) + [result.starter]
        self.claims.append(points)
        self.show_step += 1
        if self._settle(seat, points, result.items, result.total, source, cards, events, show=what):
            return
        self._start_show(events)

    def _hand_end_event(self) -> dict:
        return {"type": "hand_end", "hand_number": self.hand_number, "dealer": self.dealer,
                "seed": self.seed, "commitment": self.commitment,
                "points": [sum(p) for p in self.points]}

    def _end_hand(self, events: list[dict]) -> None:
        events.append(self._hand_end_event())
        self.history.append({"hand": self.hand_number, "dealer": self.dealer, "seed": self.seed,
                             "commitment": self.commitment, "points": [list(p) for p in self.points],
                             "actions": list(self.actions)})
        self._start_hand(self.hand_number + 1, (self.dealer + 1) % self.players, events)

    # ----------------------------------------------------------------------------------------
    # Views

    def _check_seat(self, seat: object) -> None:
        if not _is_int(seat) or not 0 <= seat < self.players:  # type: ignore[operator]
            raise ValueError(f"no seat {quoted(seat)} in a {self.players}-player game")

    def view(self, seat: int) -> dict:
        """Everything the seat may know now, and nothing it may not (JSON-ready; engine.views)."""
        self._check_seat(seat)
        return seat_view(self, seat)

    # ----------------------------------------------------------------------------------------
    # Saving (engine/record_format.py writes the record of its rules, seating and actions)

    def to_dict(self) -> dict:
        """The saved record as a fresh JSON-ready dict (engine.record_format; engine.record loads it)."""
        return record_format.to_record(self)

    def to_json(self) -> str:
        """The saved record as canonical JSON text (it holds the seed: not for other seats)."""
        return record_format.record_text(record_format.to_record(self))
