"""Friend games between two devices: the invitation, the reply, the shared deal, every message checked.

Two people play one two-player game, each on a device of their own, with no server between
them. Each page runs the whole game with its own engine: it applies its player's moves and the
friend's, and refuses anything that is not legal for that seat at that moment. Scores are never
sent; each side works them out from the moves.

The deal neither side can choose: the inviter (seat 0) draws a secret and puts its commitment
(``fairdeal.commitment``, the SHA-256 of the secret) in the invitation; the friend (seat 1)
draws a secret of its own and sends it in the reply, having seen only the commitment; the
inviter's secret follows in its first message and must match the commitment. The game's seed is
``"friend:<inviter's secret>:<friend's secret>"``, from which every hand is dealt as in any
practice game (``seeds.derive_seed``), so neither side can pick, steer or re-roll the cards, and
every hand can be checked afterwards like any other. Both pages then know every card to come:
that is a game played by link, whose invitation and reply carry no connection details. A game
whose reply answers a live connection offer is sealed (``is_sealed_game``: both pages read it
from the same two texts), and is played with ``engine/friend_sealed.py``; ``start`` refuses to
begin it here, so no page takes an unsealed start, greeting, game code or move link of it.

Texts that travel (each prefixed, then base64url of compact JSON):

- the invitation ``fi1.``: ``{"v": 1, "name", "target", "muggins", "commit", "signal"}``, where
  ``signal`` is the inviter's compact connection offer or null (play by link only), and with an
  offer ``"seal"``: the inviter's commitment to the secret its sealed deck follows from
  (``engine/sealed_game.py``), in short (``seal_digest``);
- the reply ``fr1.``: ``{"v": 1, "id", "name", "secret", "signal"}`` (the friend's answer), and
  with an answer to an invitation that has ``seal``, ``"open"``: the friend's openings of the
  inviter's first six (``seeds.reply_opens``), so that the inviter reads its first hand of a
  live game as soon as the reply is pasted.

A game's ``id`` is the first 16 hex digits of the inviter's commitment. Messages between the two
pages (over the direct connection) are JSON objects ``{"t": type, "id": game id, ...}``:

- ``hello``: ``{"n": moves this side holds, "secret": the inviter's secret (seat 0 only)}``;
- ``act``: ``{"n": the move's place in the game (moves before it), "a": the action}``;
- ``sync``: ``{"code": the whole game as a share code}`` (also what a move link carries);
- ``chat``: ``{"text": a line of at most MAX_CHAT characters}``.

Moves that leave no choice (a single legal card, a claim of a count that is zero) are made at
once on both sides, for either seat (``play_forced``), so they are never sent.

>>> a, b = "0" * 32, "1" * 32
>>> invite = read_invite(make_invite("Ann", 61, False, a))
>>> reply = read_reply(make_reply(invite, "Bob", b), invite)
>>> state = start(invite, reply, a)
>>> state.names, state.target, state.base_seed == "friend:" + a + ":" + b
(['Ann', 'Bob'], 61, True)
"""

from binascii import unhexlify

from engine import fairdeal, share
from engine.record import all_actions, replay_moves
from engine.compat import B64URL_ALPHABET, b64url_bytes, b64url_text, canonical_json, strict_json, utf8_text
from engine.game import PERSON, TARGETS, GameState, IllegalActionError, new_game
from engine.messages import visible_text

PROTOCOL = 1
INVITE_PREFIX = "fi1."
REPLY_PREFIX = "fr1."
SEED_PREFIX = "friend:"
ID_DIGITS = 16
MAX_NAME = 20  # characters of a player's name, as on the table
MAX_CHAT = 200  # characters of a chat line
MAX_SIGNAL = 1200  # characters of a compact connection description
MAX_TEXT = 4000  # characters of an invitation or a reply
MAX_MESSAGE = 8000  # characters of a message between the pages (a whole game's code fits)
MESSAGE_TYPES = ("hello", "act", "sync", "chat")
PHRASES = ("Good luck!", "Nice hand!", "Well played!", "Good game!", "Thanks!")
INVITE_KEYS = ("v", "name", "target", "muggins", "commit", "signal")
REPLY_KEYS = ("v", "id", "name", "secret", "signal")
SEAL_KEY, OPEN_KEY, MEET_KEY = "seal", "open", "meet"
MEET_SIGNAL = "meet"  # the ``signal`` of a game whose pages find each other through a meeting point
MAX_MEET_URL = 200  # characters of a meeting point's address
"""The optional fields of an invitation and of a reply for a live game (see the module docstring)."""
OPENS = 12  # the reply's openings: six for each dealer of the first hand
SEAL_DIGEST_BYTES = 24
"""Bytes of a commitment an invitation carries as its ``seal`` (192 bits: finding two secrets
that share one takes about 2**96 hashes), in base64url: 32 characters."""
DECK_SIZE = fairdeal.DECK_SIZE
_B64_ALPHABET = frozenset(B64URL_ALPHABET)
SEALED_ONLY = ("{}'s page began this game as one whose cards both pages know, but the reply agreed a "
               "sealed deck: that start was refused.")


class FriendError(ValueError):
    """Something from the other side (or a pasted text) that cannot be taken; the message says what."""


def new_secret() -> str:
    """A fresh secret for one side's part of the deal (32 hex digits from a cryptographic source)."""
    return fairdeal.new_seed()


def commitment(secret: str) -> str:
    """The commitment to a secret: its SHA-256, as the fair-deal verifier computes it."""
    return fairdeal.commitment(secret)


def seal_digest(commit: str) -> str:
    """An invitation's short form of a commitment (64 hex digits): its first
    ``SEAL_DIGEST_BYTES``, base64url.

    >>> seal_digest("00" * 32) == "A" * 32
    True
    """
    return b64url_text(unhexlify(commit)[:SEAL_DIGEST_BYTES])


def game_id(commit: str) -> str:
    """The game's id: the first ID_DIGITS hex digits of the inviter's commitment."""
    return commit[:ID_DIGITS]


def game_seed(inviter_secret: str, friend_secret: str) -> str:
    """The seed every hand of the game is dealt from."""
    return SEED_PREFIX + inviter_secret + ":" + friend_secret


def clean_name(name: object) -> str:
    """A player's name as the table shows it (invisible characters gone), or FriendError.

    >>> clean_name("  Ann\\u202e ")
    'Ann'
    """
    text = visible_text(name) if isinstance(name, str) else ""
    if not text:
        raise FriendError("A name is needed.")
    if len(text) > MAX_NAME:
        raise FriendError(f"A name is at most {MAX_NAME} characters.")
    return text


def _same_name(one: str, other: str) -> bool:
    def lower(text):
        return "".join(chr(ord(ch) + 32) if "A" <= ch <= "Z" else ch for ch in text)
    return lower(one) == lower(other)


def _pack(prefix: str, fields: dict) -> str:
    return prefix + b64url_text(canonical_json(fields).encode("utf-8"))


def _unpack(prefix: str, text: object, what: str, keys: tuple, optional: tuple) -> dict:
    """The fields of a packed text (``keys``, and perhaps some of ``optional``), checked for shape;
    FriendError naming ``what`` otherwise."""
    if not isinstance(text, str):
        raise FriendError(f"This is not {what}.")
    text = text.strip()
    cut = text.rfind(prefix)  # a whole link may be pasted: take what follows the prefix
    if cut < 0 or len(text) > MAX_TEXT:
        raise FriendError(f"This is not {what}: it should start with {prefix}")
    body = text[cut + len(prefix):]
    try:
        data = strict_json(utf8_text(b64url_bytes(body)))  # empty text is no JSON: refused too
    except ValueError:
        raise FriendError(f"This is not {what}: part of it is missing or changed.") from None
    if not isinstance(data, dict) or sorted(k for k in data if k not in optional) != sorted(keys):
        raise FriendError(f"This is not {what}: its fields are not the ones expected.")
    if data["v"] != PROTOCOL or type(data["v"]) is not int:
        raise FriendError(f"This {what} is from another version of the site.")
    signal = data["signal"]
    if signal is not None and (not isinstance(signal, str) or len(signal) > MAX_SIGNAL):
        raise FriendError(f"This is not {what}: its connection details are damaged.")
    return data


def _secret(value: object, what: str) -> str:
    if not fairdeal.is_normal_seed(value):
        raise FriendError(f"The {what} is not a secret of 32 hex digits.")
    return value


def is_meet_url(url: object) -> bool:
    """True for a meeting point's address as the page may contact it: ws:// or wss://, a host
    and perhaps a port and path, with no spaces, quotes, brackets or credentials.

    >>> is_meet_url("wss://relay.example.org"), is_meet_url("wss://a@b.org"), is_meet_url("https://b.org")
    (True, False, False)
    """
    if not isinstance(url, str) or not 8 <= len(url) <= MAX_MEET_URL or not url.startswith(("ws://", "wss://")):
        return False
    rest = url[url.find("//") + 2:]
    host = rest.split("/")[0]
    return bool(host) and host[0] not in ".-:" and all(
        ch.isalpha() or ch.isdigit() or ch in ".-:" for ch in host) and all(
        33 <= ord(ch) < 127 and ch not in "\"'<>`@#{}|\\^[]" for ch in rest)


def _meet(value: object) -> list:
    """An invitation's meeting point, [address, key], checked; FriendError otherwise."""
    if not isinstance(value, list) or len(value) != 2 or not is_meet_url(value[0]) or not isinstance(value[1], str):
        raise FriendError("This invitation's meeting point is damaged.")
    from engine.meeting import NoteError, parse_meet_key

    try:
        parse_meet_key(value[1])
    except NoteError as error:
        raise FriendError(str(error)) from None
    return value


def make_invite(name: str, target: int, muggins: bool, secret: str, signal: "str | None" = None,
                seal: "str | None" = None, meet: "list | None" = None) -> str:
    """The invitation text (see the module's docstring); ``seal``: with a ``signal``, the
    inviter's secret for the sealed deck, whose commitment it carries; ``meet``: with the
    ``signal`` MEET_SIGNAL, the meeting point's [address, key]; FriendError for a bad name or
    rules."""
    if type(target) is not int or target not in TARGETS:
        raise FriendError("A game is played to 121 or to 61 points.")
    if not isinstance(muggins, bool):
        raise FriendError("Muggins is on or off.")
    fields = {"v": PROTOCOL, "name": clean_name(name), "target": target, "muggins": muggins,
              "commit": commitment(_secret(secret, "inviter's secret")), "signal": signal}
    if seal is not None and signal is not None:
        fields[SEAL_KEY] = seal_digest(commitment(_secret(seal, "inviter's sealing secret")))
    if (meet is not None) != (signal == MEET_SIGNAL):
        raise FriendError("A game through a meeting point needs its address and key, and only it has them.")
    if meet is not None:
        fields[MEET_KEY] = _meet(list(meet))
    return _pack(INVITE_PREFIX, fields)


def read_invite(text: object) -> dict:
    """An invitation's fields, with its game ``id``; FriendError saying what is wrong."""
    data = _unpack(INVITE_PREFIX, text, "an invitation", INVITE_KEYS, (SEAL_KEY, MEET_KEY))
    try:
        data["name"] = clean_name(data["name"])
    except FriendError as error:
        raise FriendError(f"This invitation's name cannot be used: {error}") from None
    if type(data["target"]) is not int or data["target"] not in TARGETS or not isinstance(data["muggins"], bool):
        raise FriendError("This invitation's rules are not ones the game has.")
    try:
        data["commit"] = fairdeal.parse_commitment(data["commit"])
    except (ValueError, TypeError):
        raise FriendError("This invitation's commitment is damaged.") from None
    seal = data.get(SEAL_KEY)
    if SEAL_KEY in data and (data["signal"] is None or not isinstance(seal, str) or len(seal) != 4 * SEAL_DIGEST_BYTES // 3
                             or any(ch not in _B64_ALPHABET for ch in seal)):
        raise FriendError("This invitation's commitment to its sealed deck is damaged.")
    if (MEET_KEY in data) != (data["signal"] == MEET_SIGNAL):
        raise FriendError("This invitation's meeting point is damaged.")
    if MEET_KEY in data:
        _meet(data[MEET_KEY])
    data["id"] = game_id(data["commit"])
    return data


def make_reply(invite: dict, name: str, secret: str, signal: "str | None" = None,
               opens: "list | None" = None) -> str:
    """The friend's reply to a read invitation: its name, its secret and its connection answer;
    ``opens``: with a ``signal`` to an invitation with ``seal``, the openings of the inviter's
    first six (``seeds.reply_opens``)."""
    name = clean_name(name)
    if _same_name(name, invite["name"]):
        raise FriendError(f"Choose a name other than {invite['name']}'s.")
    fields = {"v": PROTOCOL, "id": invite["id"], "name": name, "secret": _secret(secret, "friend's secret"),
              "signal": signal}
    if opens is not None and signal is not None and SEAL_KEY in invite:
        fields[OPEN_KEY] = list(opens)
    return _pack(REPLY_PREFIX, fields)


def read_reply(text: object, invite: dict) -> dict:
    """A reply's fields, checked against the invitation it answers; FriendError otherwise."""
    data = _unpack(REPLY_PREFIX, text, "a reply", REPLY_KEYS, (OPEN_KEY,))
    if data["id"] != invite["id"]:
        raise FriendError("This reply answers another invitation.")
    try:
        data["name"] = clean_name(data["name"])
    except FriendError as error:
        raise FriendError(f"This reply's name cannot be used: {error}") from None
    if _same_name(data["name"], invite["name"]):
        raise FriendError("This reply uses the inviter's own name.")
    _secret(data["secret"], "reply's secret")
    if (data["signal"] == MEET_SIGNAL) != (invite["signal"] == MEET_SIGNAL) and data["signal"] is not None:
        raise FriendError("This reply answers the invitation another way than the one it offered.")
    if OPEN_KEY in data:
        opens = data[OPEN_KEY]
        if SEAL_KEY not in invite or data["signal"] is None or not isinstance(opens, list) or len(opens) != OPENS \
                or not all(type(i) is int and 0 <= i < DECK_SIZE for i in opens) \
                or len(set(opens[:OPENS // 2])) != OPENS // 2 or len(set(opens[OPENS // 2:])) != OPENS // 2:
            raise FriendError("This reply's openings of the first hand are damaged.")
    return data


def is_sealed_game(invite: dict, reply: dict) -> bool:
    """True when the game an invitation and its reply (both read) begin is sealed: the friend
    answered a live connection offer. Both pages read the same two texts, so both know what the
    game is before its first message, and neither takes a start of the other kind."""
    return invite["signal"] is not None and reply["signal"] is not None


def is_early(invite: dict, reply: dict) -> bool:
    """True when a live game's first six for the inviter came in the reply (both texts read)."""
    return SEAL_KEY in invite and OPEN_KEY in reply


def start(invite: dict, reply: dict, inviter_secret: str) -> GameState:
    """The game both sides play by link, once the inviter's secret is known; FriendError if it
    does not match the invitation's commitment, or if the two texts agreed a sealed game
    (``is_sealed_game``): its cards are never dealt where both pages can read them."""
    if is_sealed_game(invite, reply):
        raise FriendError(SEALED_ONLY.format(invite["name"]))
    if not fairdeal.is_normal_seed(inviter_secret) or commitment(inviter_secret) != invite["commit"]:
        raise FriendError(f"{invite['name']}'s secret does not match the commitment in the invitation, "
                          "so the deal could have been chosen: the game cannot start.")
    state = new_game(seed=game_seed(inviter_secret, reply["secret"]), target=invite["target"],
                     muggins=invite["muggins"], players=2, seats=[PERSON, PERSON],
                     names=[invite["name"], reply["name"]])
    play_forced(state)
    return state


# --- moves ------------------------------------------------------------------------------------


def play_forced(state: GameState) -> list:
    """Make every move that leaves no choice, for either seat; return their events."""
    events = []
    while not state.is_over:
        legal = state.legal_actions()
        if len(legal) != 1:
            break
        events.extend(state.apply(legal[0]))
    return events


def apply_move(state: GameState, seat: int, action: object) -> list:
    """A seat's move applied (then every forced move); IllegalActionError says why it cannot be."""
    if state.is_over:
        raise IllegalActionError("the game is over")
    if state.to_act != seat:
        raise IllegalActionError(f"it is not {state.names[seat]}'s turn")
    if not isinstance(action, dict):
        raise IllegalActionError("a move is an action object")
    move = dict(action)
    move["seat"] = seat
    events = state.apply(move)
    return events + play_forced(state)


# --- messages between the pages ---------------------------------------------------------------


def _message(kind: str, gid: str, fields: dict) -> str:
    body = {"t": kind, "id": gid}
    body.update(fields)
    return canonical_json(body)


def hello_message(gid: str, count: int, secret: "str | None" = None) -> str:
    """The first message on a connection: how many moves this side holds (and seat 0's secret)."""
    fields = {"n": count}
    if secret is not None:
        fields["secret"] = secret
    return _message("hello", gid, fields)


def act_message(gid: str, count: int, action: dict) -> str:
    """A move, with its place in the game."""
    return _message("act", gid, {"n": count, "a": action})


def sync_message(gid: str, state: GameState) -> str:
    """The whole game as a code, for a side that is behind."""
    return _message("sync", gid, {"code": share.encode(state)})


def chat_message(gid: str, text: str) -> str:
    """A chat line (cleaned and cut as the other side will show it)."""
    return _message("chat", gid, {"text": clean_chat(text)})


def clean_chat(text: object) -> str:
    """A chat line as it is shown: plain text, invisible characters gone, at most MAX_CHAT.

    >>> clean_chat("<b>hi</b>\\u202e")
    '<b>hi</b>'
    """
    line = visible_text(text) if isinstance(text, str) else ""
    if not line:
        raise FriendError("A chat message needs some text.")
    return line[:MAX_CHAT]


def read_message(text: object, gid: str) -> dict:
    """A message from the other page, checked for shape (not yet for legality); FriendError."""
    if not isinstance(text, str):
        raise FriendError("The message is not text.")
    if len(text) > MAX_MESSAGE:
        raise FriendError(f"The message is too long ({len(text)} characters; at most {MAX_MESSAGE}).")
    try:
        data = strict_json(text)
    except ValueError:
        raise FriendError("The message is not valid JSON.") from None
    if not isinstance(data, dict) or data.get("t") not in MESSAGE_TYPES:
        raise FriendError("The message is of no known kind.")
    kind = data["t"]
    if data.get("id") != gid:
        raise FriendError("The message is about another game.")
    expected = {"hello": ("n",), "act": ("n", "a"), "sync": ("code",), "chat": ("text",)}[kind]
    extra = [k for k in data if k not in ("t", "id", "secret") + expected or (k == "secret" and kind != "hello")]
    missing = [k for k in expected if k not in data]
    if extra or missing:
        raise FriendError(f"The {kind} message has the wrong fields.")
    if "n" in data and (type(data["n"]) is not int or not 0 <= data["n"] <= 100000):
        raise FriendError(f"The {kind} message's move number is not a number of moves.")
    if kind == "act" and not isinstance(data["a"], dict):
        raise FriendError("The move is not an action.")
    if kind == "sync" and not isinstance(data["code"], str):
        raise FriendError("The game code is not text.")
    if kind == "chat":
        if not isinstance(data["text"], str) or len(data["text"]) > MAX_CHAT:
            raise FriendError(f"A chat message is text of at most {MAX_CHAT} characters.")
        data["text"] = clean_chat(data["text"])
    if "secret" in data:
        _secret(data["secret"], "inviter's secret")
    return data


def receive_act(state: GameState, me: int, message: dict) -> "list | None":
    """The other seat's move from an ``act`` message applied to ``state``: its events, or None
    when this side holds the move already; FriendError when it cannot be taken (the game is
    left as it was)."""
    held = all_actions(state)
    n = message["n"]
    if n < len(held):
        if _same_action(held[n], message["a"]):
            return None
        raise FriendError(f"Move {n + 1} does not match the game as this side has it.")
    if n > len(held):
        raise FriendError(f"Moves are missing before move {n + 1}: this side has {len(held)}.")
    other = 1 - me
    if state.to_act != other:
        raise FriendError(f"It is not {state.names[other]}'s turn, so their move cannot be taken.")
    try:
        return apply_move(state, other, message["a"])
    except IllegalActionError as error:
        raise FriendError(f"{state.names[other]}'s move was refused: {error}.") from None


def _same_action(held: dict, sent: object) -> bool:
    if not isinstance(sent, dict):
        return False
    sent = {k: v for k, v in sent.items() if k != "seat"}
    mine = {k: v for k, v in held.items() if k != "seat"}
    if sent.get("type") == "discard" and isinstance(sent.get("cards"), list):
        sent["cards"] = sorted(c for c in sent["cards"] if type(c) is int)
    return canonical_json(sent) == canonical_json(mine)


def read_code(code: object, me: int, secrets: list) -> GameState:
    """A friend game's code (a move link or a ``sync``) decoded and checked: the game must be
    this one, dealt from both known secrets (``secrets`` by seat; the inviter's may be None until
    it arrives, and is then checked by the caller against the commitment); FriendError if not."""
    try:
        theirs = share.decode(code)
    except ValueError as error:
        raise FriendError(f"The game link cannot be used: {error}.") from None
    seed = theirs.base_seed
    parts = seed[len(SEED_PREFIX):].split(":") if seed.startswith(SEED_PREFIX) else []
    if (len(parts) != 2 or theirs.players != 2 or theirs.seats != [PERSON, PERSON] or not theirs.practice
            or parts[me] != secrets[me] or (secrets[1 - me] is not None and parts[1 - me] != secrets[1 - me])):
        raise FriendError("This link is for another game.")
    return theirs


def catch_up(state: GameState, me: int, theirs: GameState) -> "list | None":
    """Bring ``state`` up to ``theirs`` (a checked code of the same game): the events of the
    moves it adds, None if it adds none; FriendError if the two games part ways or the code holds a
    move for this side's seat that this side did not make."""
    if (theirs.target, theirs.muggins, theirs.names) != (state.target, state.muggins, state.names):
        raise FriendError("The link's game has other rules or players than this one.")
    held, sent = all_actions(state), all_actions(theirs)
    if len(sent) < len(held):
        if all(_same_action(h, s) for h, s in zip(held, sent)):
            return None
        raise FriendError("The link's game does not match the game as this side has it.")
    if not all(_same_action(h, s) for h, s in zip(held, sent)):
        raise FriendError("The link's game does not match the game as this side has it.")
    if len(sent) == len(held):
        return None
    for k, move in enumerate(replay_moves(theirs)):  # checked in full before this side's game changes
        if k >= len(held) and move.game.to_act == me and len(move.game.legal_actions()) != 1:
            raise FriendError("The link holds a move of yours that you did not make.")
    events = []
    for action in sent[len(held):]:
        events.extend(state.apply(dict(action)))
    return events + play_forced(state)


def describe(state: "GameState | None", me: int) -> str:
    """Whose turn it is, in words for the list of friend games."""
    if state is None:
        return "Waiting for the reply" if me == 0 else "Waiting for the first move"
    if state.is_over:
        return "Over: " + ("you won" if state.winner == me else state.names[state.winner] + " won")
    return "Your turn" if state.to_act == me else state.names[state.to_act] + "'s turn"
