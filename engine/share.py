"""Games as short codes to share, their replay step by step, and the deal of the day.

A game code holds the rules, the seating, the game's seed and every move of the game, each as
its place in the list of legal actions when it was made::

    c1.<base64url of the bytes below>

    version 2 | flags: players - 2 (2 bits), target 61 (1), muggins (1), practice (1), hinted (1),
                pegging claims (1; codes made before them have 0 and replay without)
    one byte per seat: 0 a person, else 1 + the computer's level in players.PLAYER_NAMES
    the seed: 16 bytes, or for a practice game its text's UTF-8 length (1 byte) and bytes
    the people's names, if any: for each seat its UTF-8 length (1 byte) and bytes; else 0
    every move in order, a byte each; then 4 bytes of SHA-256 of everything before

A whole two-player game to 121 takes about 150 characters. Decoding replays the game from its
seed, each move checked for being legal then. A seated computer always makes the move
``players.get_player(level, record.COMPUTER_SEED)`` makes from its view, and ``decode`` checks
each computer's move against it unless told not to (``check=False``): asking the expert again
for a whole game takes seconds in MicroPython, so a page shows the game first and checks it
after (``is_checked`` says whether a code's decoding without the check left anything to check).

Codes of version 1 wrote down the people's decisions only, then how many computer moves
followed the last of them; they still decode, the computers being asked for their moves again.

The table after every move of a decoded game is ``engine.replay.replay_steps``'s.

>>> from engine.game import new_game
>>> state = new_game(seed="share-doc", seats=["person", "hard"])
>>> _ = state.apply(state.legal_actions()[3])
>>> code = encode(state)
>>> code.startswith("c1."), decode(code).to_json() == state.to_json()
(True, True)
"""

from engine.compat import B64URL_ALPHABET, b64url_bytes, b64url_text, sha256_hex, utf8_text
from engine.game import PERSON, GameState, IllegalActionError, new_game
from engine.messages import visible_text
from engine.players import PLAYER_NAMES
from engine.record import MAX_NAME, computer_action, replay_moves

CODE_PREFIX = "c1."
CODE_ALPHABET = frozenset(B64URL_ALPHABET)
CODE_VERSION = 2
DECISIONS_ONLY = 1  # the version that wrote down the people's decisions only (still read)
CHECK_BYTES = 4
MAX_CODE = 4000  # characters: far more than a whole game needs


class CodeError(ValueError):
    """A game code that is damaged, forged or not a code at all (the message says which)."""


def _fail(message: str) -> CodeError:
    return CodeError(f"not a game code: {message}")


def _moves(state: GameState) -> list:
    """Every move of a game, each as its place among the legal actions when it was made."""
    return [move.game.legal_actions().index(move.action) for move in replay_moves(state)]


def _text_bytes(text: str) -> bytes:
    data = text.encode("utf-8")
    if len(data) > 255:
        raise ValueError("a name or practice seed is too long for a game code")
    return bytes([len(data)]) + data


def encode(state: GameState) -> str:
    """The game as a code (see the module's docstring)."""
    flags = (state.players - 2) | ((1 if state.target == 61 else 0) << 2) | (int(state.muggins) << 3) \
        | (int(state.practice) << 4) | (int(state.hinted) << 5) | (int(state.peg_claims) << 6)
    out = [bytes([CODE_VERSION, flags])]
    out.append(bytes([0 if kind == PERSON else 1 + PLAYER_NAMES.index(kind) for kind in state.seats]))
    if state.practice:
        out.append(_text_bytes(state.base_seed))
    else:
        out.append(bytes(int(state.base_seed[i:i + 2], 16) for i in range(0, 32, 2)))
    if state.names is None:
        out.append(b"\x00")
    else:
        out.append(b"\x01" + b"".join(_text_bytes(name) for name in state.names))
    moves = _moves(state)
    if any(m > 255 for m in moves):
        raise ValueError("a move does not fit a game code")
    out.append(bytes(moves))
    body = b"".join(out)
    check = bytes(int(sha256_hex(body)[2 * i:2 * i + 2], 16) for i in range(CHECK_BYTES))
    return CODE_PREFIX + b64url_text(body + check)


def _read_text(data: bytes, at: int) -> tuple:
    if at >= len(data):
        raise _fail("it ends too soon")
    n = data[at]
    if at + 1 + n > len(data):
        raise _fail("it ends too soon")
    try:
        return utf8_text(data[at + 1:at + 1 + n]), at + 1 + n  # MicroPython's decode takes overlong forms
    except ValueError:  # UnicodeError is one
        raise _fail("a name is not text") from None


def code_seats(code: object) -> list:
    """Who sits where in the game a code holds (``"person"`` or a computer's level), read from
    the code alone, without replaying the game; CodeError if the code is damaged or forged.

    >>> from engine.game import new_game
    >>> code_seats(encode(new_game(seed="seats-doc", seats=["person", "expert"])))
    ['person', 'expert']
    """
    return _read_seats(code)[3]


def _read_seats(code: object) -> tuple:
    """A code's bytes checked and read up to its seats: (body, flags, players, seats, next byte)."""
    if not isinstance(code, str):
        raise _fail("it is not text")
    code = code.strip()
    if not code.startswith(CODE_PREFIX) or len(code) > MAX_CODE:
        raise _fail(f"a code starts {CODE_PREFIX!r} and is at most {MAX_CODE} characters")
    text = code[len(CODE_PREFIX):]
    if any(ch not in CODE_ALPHABET for ch in text):
        raise _fail("it is not in the code's alphabet (letters, digits, - and _)")
    if len(text) % 4 == 1:  # no whole number of bytes is written so
        raise _fail("it ends too soon")
    try:
        data = b64url_bytes(text)
    except ValueError:  # unused bits set: no code is written so
        raise _fail("its last character is not one a code ends with") from None
    if len(data) < 2 + CHECK_BYTES:
        raise _fail("it is too short")
    body, check = data[:-CHECK_BYTES], data[-CHECK_BYTES:]
    if bytes(int(sha256_hex(body)[2 * i:2 * i + 2], 16) for i in range(CHECK_BYTES)) != check:
        raise CodeError("this code has been changed or damaged: its check does not match")
    if body[0] not in (DECISIONS_ONLY, CODE_VERSION):
        raise _fail(f"it is of version {body[0]}; this engine reads versions {DECISIONS_ONLY} and {CODE_VERSION}")
    flags = body[1]
    players = 2 + (flags & 3)
    if players > 4 or flags >> 7 or (flags & 64 and not flags & 8):
        raise _fail("its rules are not a game's")
    at = 2 + players
    if at > len(body):
        raise _fail("it ends too soon")
    seats = []
    for byte in body[2:at]:
        if byte > len(PLAYER_NAMES):
            raise _fail("it seats a computer of a level this engine does not know")
        seats.append(PERSON if byte == 0 else PLAYER_NAMES[byte - 1])
    return body, flags, players, seats, at


def decode(code: object, check: bool = True) -> GameState:
    """The game a code holds, replayed from its seed; CodeError if it is damaged or forged.
    ``check=False`` takes the computers' moves a code writes down as they are (each still a
    legal one); see ``is_checked``."""
    body, flags, players, seats, at = _read_seats(code)
    target, muggins, practice = (61 if flags & 4 else 121), bool(flags & 8), bool(flags & 16)
    if practice:
        seed, at = _read_text(body, at)
    else:
        if at + 16 > len(body):
            raise _fail("it ends too soon")
        seed, at = "".join("%02x" % b for b in body[at:at + 16]), at + 16
    names = None
    if at >= len(body):
        raise _fail("it ends too soon")
    has_names, at = body[at], at + 1
    if has_names:
        names = []
        for _ in range(players):
            name, at = _read_text(body, at)
            name = visible_text(name)  # as the table cleans names: no direction overrides, no invisibles
            if not name or len(name) > MAX_NAME:
                raise _fail("a name is empty or too long")
            names.append(name)
    try:
        state = new_game(seed=seed, target=target, muggins=muggins, players=players, seats=seats, names=names,
                         peg_claims=bool(flags & 64))
    except ValueError as error:
        raise _fail(str(error)) from None
    state.practice = practice
    state.hinted = bool(flags & 32)
    if body[0] == DECISIONS_ONLY:
        if at >= len(body):
            raise _fail("it ends too soon")
        _play_decisions(state, body[at:-1], body[-1])
    else:
        _play_moves(state, body[at:], check)
    return state


def is_checked(code: str) -> bool:
    """Whether ``decode(code, check=False)`` checks the game as much as ``decode(code)``: true
    unless the code writes down a computer's moves (version 2 with a computer seated), which
    only ``decode(code)`` asks the computer for again. The code must decode."""
    body, _, _, seats, _ = _read_seats(code)
    return body[0] == DECISIONS_ONLY or all(kind == PERSON for kind in seats)


def _apply(state: GameState, action: dict) -> None:
    try:
        state.apply(action)
    except IllegalActionError as error:
        raise _fail(str(error)) from None


def _play_moves(state: GameState, moves: bytes, check: bool) -> None:
    """Make every move in turn (version 2); with ``check``, each computer's must be the one it
    makes there."""
    for number, pick in enumerate(moves, 1):
        if state.is_over:
            raise _fail("it has moves after the end of the game")
        legal = state.legal_actions()
        if pick >= len(legal):
            raise _fail(f"move {number} is not one of the moves there were")
        action = legal[pick]
        kind = state.seats[state.to_act]
        if check and kind != PERSON and computer_action(state) != action:
            raise _fail(f"move {number} is not the one the {kind} computer makes there")
        _apply(state, action)


def _play_decisions(state: GameState, picks: bytes, after: int) -> None:
    """Version 1: make the people's decisions in turn, the computers' moves in between, and
    ``after`` computer moves once the last decision is made."""
    used = 0
    while not state.is_over:
        seat = state.to_act
        kind = state.seats[seat]
        if used == len(picks) and after == 0:
            return
        if kind == PERSON:
            if used == len(picks):
                raise _fail("it holds fewer decisions than its game needs")
            legal = state.legal_actions()
            if picks[used] >= len(legal):
                raise _fail(f"decision {used + 1} is not one of the moves there were")
            action = legal[picks[used]]
            used += 1
        else:
            action = computer_action(state)
            if used == len(picks):
                after -= 1
        _apply(state, action)
    if used != len(picks) or after:
        raise _fail("it has moves after the end of the game")
