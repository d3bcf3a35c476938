"""Saved games as records: the rules, the seating and every action of every hand, replayed on load.

A saved game holds nothing that can be worked out from the rest. Its record is::

    {"format": "cribbage-game", "version": 2, "players": 2, "target": 121, "muggins": false,
     "practice": false, "seed": "<the game's seed>", "seats": ["person", "hard"], "names": null,
     "hands": [{"commitment": "<SHA-256 of the hand's seed>", "actions": [...]}, ...],
     "check": "<16 hex digits>"}

and ``"hinted": true`` in a game where a person asked for a hint (the statistics mark it), and
``"peg_claims": true`` in a muggins game where people claim their own points in the play (muggins
games saved before pegging claims lack it, and load with the play scored for everyone).

Every deal follows from the game's seed (``seeds.derive_seed``); each hand keeps the commitment
that was shown before its first card, and the actions taken in it (``GameState.apply``'s
canonical actions, in order). Loading replays the game from its seed and actions, so the
scores, the back pegs, the finished hands, whose turn it is and whether the game is over are
the replay's, never the text's: no score or history can be edited into a different game. Any
text that is not exactly such a record is refused with ``GameFormatError``: unknown or missing
fields, an action that is not legal when replayed, a hand whose actions stop before it ends or
run past it, a commitment that is not its hand's, or a ``check`` (the first 16 hex digits of
the SHA-256 of the record's canonical text without it) that does not match. The check is no
secret (anyone with the engine can recompute it): it catches damage and casual edits, and the
replay makes any other edit a whole, consistent game.

``seats`` names who sits where: ``"person"`` or a computer's level. The host (engine/host.py)
lets people act only for people's seats and the computer only for its own, and a computer
seated at a level always decides as ``players.get_player(level, COMPUTER_SEED)`` does from its
seat's view: the replay asks it again and refuses a record whose computer did anything else.

>>> from engine.game import new_game
>>> state = new_game(seed="record-doc", seats=["person", "hard"])
>>> _ = state.apply(state.legal_actions()[0])
>>> text = state.to_json()
>>> from_json(text).to_json() == text
True
"""

from engine import fairdeal
from engine.compat import strict_json
from engine.game import (MAX_HANDS, MAX_SEED_TEXT, PERSON, PLAYER_COUNTS, TARGETS, GameFormatError, GameState,
                         IllegalActionError, new_game)
from engine.messages import quoted, visible_text
from engine.record_format import CHECK_DIGITS, FORMAT_NAME, FORMAT_VERSION, record_check
from engine.players import PLAYER_NAMES, get_player

COMPUTER_SEED = "table"  # a seated computer's decisions depend only on this, its level and its view
MAX_ACTIONS = 64  # far more than one hand can take
MAX_NAME = 40  # characters of a person's name kept with the game
LEVEL_CHARS = "abcdefghijklmnopqrstuvwxyz"
RECORD_KEYS = ("format", "version", "players", "target", "muggins", "practice", "seed", "seats", "names",
               "hands", "check")
OPTIONAL_KEYS = ("hinted", "peg_claims")  # written only when true, so older records keep their check
HAND_KEYS = ("commitment", "actions")


_SEATED: dict = {}  # level -> the seated computer of that level (its decisions depend on its view only)


def computer_action(state: GameState) -> dict:
    """The action the computer seated at the seat to act takes: what ``get_player(level,
    COMPUTER_SEED)`` chooses from that seat's view, as the table, the records and the codes have it.

    >>> from engine.game import new_game
    >>> game = new_game(seed="seated-doc", seats=["easy", "person"])
    >>> computer_action(game)["type"]
    'discard'
    """
    level = state.seats[state.to_act]
    if level not in _SEATED:
        _SEATED[level] = get_player(level, seed=COMPUTER_SEED)
    view = state.view(state.to_act)
    return _SEATED[level].choose(view, view["legal_actions"])


def restart(state: GameState) -> GameState:
    """The game dealt again from its seed, with its rules, seats and names, before any action."""
    return new_game(seed=state.base_seed, target=state.target, muggins=state.muggins, players=state.players,
                    seats=list(state.seats), names=state.names, peg_claims=state.peg_claims)


def all_actions(state: GameState) -> list:
    """Every action of the game so far, in order (the finished hands', then the current one's)."""
    out = []
    for hand in state.history:
        out.extend(hand["actions"])
    out.extend(state.actions)
    return out


class Move:
    """One action of a game being replayed (``replay_moves``): ``game`` as it stands before the
    action, and ``apply()``, which applies it (once) and returns the events it made."""

    def __init__(self, game: GameState, action: dict) -> None:
        self.game = game
        self.action = action
        self.events: "list | None" = None

    def apply(self) -> list:
        """Apply the action (if not yet applied) and return its events."""
        if self.events is None:
            self.events = self.game.apply(self.action)
        return self.events


def replay_moves(state: GameState, game: "GameState | None" = None):
    """Replay ``state`` from its seed (on ``game``, by default ``restart(state)``): yields a Move
    for each of its actions in order, the replayed game as it stands before that action. One game
    object is moved on: read ``move.game`` before ``move.apply()``; an action the loop did not
    apply is applied before the next one is yielded.

    >>> from engine.game import new_game
    >>> state = new_game(seed="moves-doc")
    >>> _ = state.apply(state.legal_actions()[0])
    >>> [move.game.phase for move in replay_moves(state)]
    ['discard']
    """
    game = restart(state) if game is None else game
    for action in all_actions(state):
        move = Move(game, action)
        yield move
        move.apply()


# --------------------------------------------------------------------------------------------
# Loading


def _fail(message: str) -> GameFormatError:
    return GameFormatError(f"not a valid saved game: {message}")


def _need(condition: bool, message: str) -> None:
    if not condition:
        raise _fail(message)


def _is_int(value: object) -> bool:
    return type(value) is int


def from_json(text: object) -> GameState:
    """Load a game saved by ``to_json``; anything but such a record raises GameFormatError."""
    return replay(_parse(text))[0]


def from_dict(data: object) -> GameState:
    """Load a game from its record (the dict form of ``to_json``), checked and replayed."""
    return replay(data)[0]


def _parse(text: object) -> object:
    if not isinstance(text, (str, bytes, bytearray)):
        raise _fail(f"expected JSON text, got a {type(text).__name__}")
    try:
        return strict_json(text)  # as strict in MicroPython as in CPython (engine.compat)
    except (ValueError, RuntimeError):  # RuntimeError: nested too deep
        raise _fail("the text is not JSON") from None


def check_record(data: object) -> dict:
    """The record's fields checked for shape and type (not yet replayed); GameFormatError if not."""
    _need(isinstance(data, dict), "the top level must be an object")
    _need(data.get("format") == FORMAT_NAME, f"format must be {FORMAT_NAME!r}, got {quoted(data.get('format'))}")
    version = data.get("version")
    _need(_is_int(version) and version == FORMAT_VERSION,
          f"this is a saved game of version {quoted(version)}; this engine reads version {FORMAT_VERSION}")
    keys = set(data)
    missing = sorted(set(RECORD_KEYS) - keys)
    _need(not missing, f"the game lacks {', '.join(missing)}")
    extra = sorted((quoted(k) for k in keys - set(RECORD_KEYS) - set(OPTIONAL_KEYS)))
    _need(not extra, f"the game has unknown field(s) {', '.join(extra)}")
    n = data["players"]
    _need(_is_int(n) and n in PLAYER_COUNTS, f"players must be one of 2, 3 or 4, got {quoted(n)}")
    _need(_is_int(data["target"]) and data["target"] in TARGETS, f"target must be 121 or 61, got {quoted(data['target'])}")
    _need(isinstance(data["muggins"], bool), "muggins must be true or false")
    _need(isinstance(data["practice"], bool), "practice must be true or false")
    _need(data.get("hinted", True) is True, "hinted, when present, must be true")
    _need(data.get("peg_claims", True) is True and ("peg_claims" not in data or data["muggins"] is True),
          "peg_claims, when present, must be true, in a muggins game")
    seed = data["seed"]
    _need(isinstance(seed, str) and 0 < len(seed) <= MAX_SEED_TEXT, "the game's seed must be a short text")
    _need(data["practice"] or fairdeal.is_normal_seed(seed), "a game's own seed is 32 lowercase hex digits")
    seats = data["seats"]
    _need(isinstance(seats, list) and len(seats) == n, f"seats must list {n} seats")
    for kind in seats:
        _need(isinstance(kind, str) and 0 < len(kind) <= 20 and all(ch in LEVEL_CHARS for ch in kind),
              f"a seat is {PERSON!r} or a computer's level, not {quoted(kind)}")
    _need(PERSON in seats, "a game needs a person at the table")
    names = data["names"]
    if names is not None:
        _need(isinstance(names, list) and len(names) == n
              and all(isinstance(x, str) and 0 < len(x) <= MAX_NAME for x in names),
              f"names must be null or {n} short names")
    hands = data["hands"]
    _need(isinstance(hands, list) and 0 < len(hands) <= MAX_HANDS, "hands must be a list of hands")
    for i, hand in enumerate(hands):
        where = f"hand {i + 1}"
        _need(isinstance(hand, dict) and set(hand) == set(HAND_KEYS), f"{where} must hold its commitment and actions")
        _need(isinstance(hand["commitment"], str) and len(hand["commitment"]) in (64, 129),
              f"{where}'s commitment must be 64 hex digits (two, joined by a colon, for a sealed hand)")
        actions = hand["actions"]
        _need(isinstance(actions, list) and len(actions) <= MAX_ACTIONS, f"{where}'s actions must be a list")
        for action in actions:
            _need(isinstance(action, dict) and action.get("type") in ("discard", "play", "claim", "count"),
                  f"{where} holds an action that is not one: {quoted(action)}")
    check = data["check"]
    _need(isinstance(check, str) and len(check) == CHECK_DIGITS, f"check must be {CHECK_DIGITS} hex digits")
    try:
        expected = record_check(data)
    except (KeyError, TypeError, ValueError):
        raise _fail("an action is not in its canonical form") from None
    _need(check == expected, "its check does not match: the record has been changed or damaged")
    return data


def replay(data: object, tail: bool = False, check: bool = True) -> tuple:
    """Check a record and replay it: returns (the game, events, views_before).

    ``check=False`` leaves out asking each seated computer again for its moves (seconds for a
    game against the expert in MicroPython): ``check_computers`` does that after, a move at a
    time. Every other check is made.

    With ``tail``, ``events`` are every event since a person last acted (that action's own
    events included; the whole game's so far if nobody has yet) and ``views_before`` gives
    each seat's view just before that action (None if nobody has acted): what a page needs to
    show the last moves again. Otherwise ``events`` is empty and ``views_before`` None.
    """
    record = check_record(data)
    hands = record["hands"]
    names = None if record["names"] is None else [visible_text(name) for name in record["names"]]
    _need(names is None or all(names), "a name is blank once its invisible characters are left out")
    state = new_game(seed=record["seed"], target=record["target"], muggins=record["muggins"],
                     players=record["players"], seats=list(record["seats"]), names=names,
                     peg_claims="peg_claims" in record)
    state.practice = record["practice"]
    state.hinted = "hinted" in record
    events = list(state.start_events) if tail else []
    before = None
    for i, hand in enumerate(hands):
        number = i + 1
        _need(state.hand_number == number, f"hand {number} follows a hand whose actions did not end it")
        _need(hand["commitment"] == state.commitment,
              f"hand {number}'s commitment is not the one its deal was shown with")
        for k, action in enumerate(hand["actions"]):
            _need(not state.is_over, f"hand {number} has actions after the end of the game")
            _need(state.hand_number == number, f"hand {number}'s actions run past its end")
            seat = state.to_act
            kind = state.seats[seat]
            if kind == PERSON:
                if tail:
                    before = _views(state)
                    events = []
            else:
                _need(kind in PLAYER_NAMES, f"no computer is called {quoted(kind)}")
                if check:
                    _check_own(state, action)
            try:
                happened = state.apply(action)
            except IllegalActionError as error:
                raise _fail(f"action {k + 1} of hand {number} is not legal: {error}") from None
            if tail:
                events.extend(happened)
        if i < len(hands) - 1:
            _need(state.hand_number == number + 1 and not state.is_over,
                  f"hand {number}'s actions do not end the hand")
    _need(state.hand_number == len(hands), "the last hand's actions run past its end")
    return state, events, before


def _check_own(state: GameState, action: dict) -> None:
    """The seated computer to act makes ``action`` there, or GameFormatError."""
    _need(computer_action(state) == action,
          f"action {len(state.actions) + 1} of hand {state.hand_number} is not the one the computer made")


def check_computers(state: GameState):
    """Ask each seated computer again for every move it has made in ``state`` so far (a game
    replayed with ``check=False``): an iterator that checks one such move a step and raises
    GameFormatError at the first that is not the computer's own. The moves are read now, so
    the game may go on meanwhile.

    >>> from engine.game import new_game
    >>> game = new_game(seed="check-doc", seats=["hard", "person"])
    >>> _ = game.apply(computer_action(game))
    >>> list(check_computers(game))
    [None]
    """
    return _checking(restart(state), all_actions(state))


def _checking(game: GameState, actions: list):
    for action in actions:
        if game.seats[game.to_act] != PERSON:
            _check_own(game, action)
            yield
        game.apply(action)


def _views(state: GameState):
    """Every seat's view at this moment of the replay, kept as it was (the game moves on)."""
    views = [state.view(seat) for seat in range(state.players)]
    return lambda seat: views[seat]
