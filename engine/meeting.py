"""Notes through a meeting point: a friend game's messages encrypted, tied to their seat, taken once and in order.

Two pages that are not on the same network find each other, and leave messages for each other
while one is away, through a public meeting point (a Nostr relay) that neither trusts. What the
meeting point holds are notes: each one message of a game (or part of a long one), encrypted and
authenticated with keys only the two players' pages hold, so it can read no card, name or chat
line, and cannot forge, change or move a note from one seat to the other.

Keys. The invitation carries the game's meeting key (``MEET_KEY_BYTES`` random bytes,
base64url). Every key below is HMAC-SHA256 of it with a fixed label (``_derive``):

- the topic the notes are filed under (``topic``): public, and shows nothing of the key;
- each seat's encryption and authentication keys, also bound to a ``tie``: the friend's reply is
  sent with an empty tie (anyone holding the invitation may answer it, as before), and every
  later note with the reply's secret as its tie, which only the two pages know, so that holding
  the invitation link after the reply no longer lets anyone speak for either seat.

A note (``seal_note``) is ``"n1." + seat + "." + hex(nonce | ciphertext | tag)``: a random
16-byte nonce, the plaintext XOR a SHA-256 counter stream of the seat's encryption key and the
nonce, and the first 16 bytes of HMAC-SHA256 over the seat's prefix, the nonce and the
ciphertext (encrypt, then authenticate). The plaintext is ``"<number>:<more>:<piece>"``: the
note's place in its seat's sequence, whether the message goes on in the next note ("+") or ends
here ("."), and the piece of the message's text. A message longer than ``PIECE`` characters is
cut into several notes, so each stays far below what public relays accept.

The receiver opens each note (``open_note``: a note that does not authenticate is refused with a
sentence) and hands it to its seat's mailbox (``take``), which gives back whole messages in
order, each once: a note repeated, replayed or come back from an earlier visit is dropped, one
that comes early waits for those before it.

>>> key, tie = "A" * 22, "0" * 32
>>> notes = seal_notes(key, tie, 1, 0, ["hello", "x" * 9000], nonces=[bytes(16)] * 3)
>>> [note[:5] for note in notes]
['n1.1.', 'n1.1.', 'n1.1.']
>>> box = new_box()
>>> took = [take(box, open_note(key, tie, 1, note)) for note in reversed(notes)]
>>> took[0], took[1], [len(text) for text in took[2]]
([], [], [5, 9000])
>>> take(box, open_note(key, tie, 1, notes[0]))
[]
"""

from binascii import hexlify, unhexlify
from hashlib import sha256

from engine import fairdeal
from engine.compat import b64url_bytes, utf8_text

VERSION_PREFIX = "n1."
MEET_KEY_BYTES = 16
NONCE_BYTES = 16
TAG_BYTES = 16
PIECE = 8000  # characters of a message's text in one note (hex then doubles its bytes)
MAX_NOTE = len(VERSION_PREFIX) + 2 + 2 * (NONCE_BYTES + TAG_BYTES + 3 * PIECE + 24)
MAX_HELD = 400  # notes waiting in a mailbox for one before them
MAX_MESSAGE = 64 * 1024  # characters of one whole message put together from its notes
TOPIC_DIGITS = 32
LABEL = b"cribbage meeting point v1|"

NOT_A_NOTE = "A note from the meeting point is not one of this game's: it was ignored."
WRONG_SEAT = "A note from the meeting point claims a seat it was not written for: it was ignored."
DAMAGED = "A note from the meeting point was changed on its way or written with another key: it was ignored."
TOO_LONG = "A message put together from the meeting point's notes is too long: it was ignored."

_BLOCK = 64
_IPAD = bytes(0x36 for _ in range(_BLOCK))
_OPAD = bytes(0x5C for _ in range(_BLOCK))


class NoteError(ValueError):
    """A note that cannot be taken; the message says why, fit to show a player."""


def _xor(data, pad):
    """Two byte strings of equal length, XORed (as one integer each: fast in both interpreters)."""
    if not data:
        return b""
    return (int.from_bytes(data, "big") ^ int.from_bytes(pad, "big")).to_bytes(len(data), "big")


def hmac_sha256(key, data):
    """HMAC-SHA256 (RFC 2104) of bytes under a key of at most 64 bytes.

    >>> hexlify(hmac_sha256(b"key", b"The quick brown fox jumps over the lazy dog"))[:16]
    b'f7bc83f430538424'
    """
    key = bytes(key) + bytes(_BLOCK - len(key))
    inner = sha256(_xor(key, _IPAD) + bytes(data)).digest()
    return sha256(_xor(key, _OPAD) + inner).digest()


def parse_meet_key(text):
    """The bytes of a meeting key written as base64url; NoteError if it is not one."""
    try:
        data = b64url_bytes(text)
    except ValueError:
        data = b""
    if len(data) != MEET_KEY_BYTES:
        raise NoteError("The invitation's key for the meeting point is damaged.")
    return data


def meet_key_text(data):
    """A meeting key's base64url text (``parse_meet_key`` reads it back)."""
    from engine.compat import b64url_text

    return b64url_text(bytes(data))


def new_meet_key():
    """A fresh meeting key (base64url text), from the engine's cryptographic source."""
    return meet_key_text(unhexlify(fairdeal.new_seed())[:MEET_KEY_BYTES])


def _derive(key, label):
    return hmac_sha256(parse_meet_key(key), LABEL + label)


def topic(key):
    """The public topic a game's notes are filed under (``TOPIC_DIGITS`` hex digits)."""
    return hexlify(_derive(key, b"topic")).decode("ascii")[:TOPIC_DIGITS]


def _seat_keys(key, tie, seat):
    base = _derive(key, b"tie|" + str(tie).encode("utf-8"))
    side = str(seat).encode("ascii")
    return hmac_sha256(base, b"encrypt|" + side), hmac_sha256(base, b"authenticate|" + side)


def _stream(key, nonce, size):
    out = []
    for block in range((size + 31) // 32):
        out.append(sha256(key + nonce + block.to_bytes(4, "big")).digest())
    return b"".join(out)[:size]


def _prefix(seat):
    return VERSION_PREFIX + str(seat) + "."


def _seat(seat):
    if type(seat) is not int or seat not in (0, 1):
        raise NoteError("A note's seat is 0 or 1.")
    return seat


def seal_note(key, tie, seat, number, more, piece, nonce=None):
    """One note: ``piece`` (text) as the ``number``-th note of ``seat``, followed by more of the
    same message when ``more``; ``nonce`` (16 bytes) drawn fresh unless given."""
    _seat(seat)
    if type(number) is not int or number < 0:
        raise NoteError("A note's number is a whole number, 0 or more.")
    nonce = unhexlify(fairdeal.new_seed())[:NONCE_BYTES] if nonce is None else bytes(nonce)
    plain = (str(number) + (":+:" if more else ":.:") + piece).encode("utf-8")
    secret, auth = _seat_keys(key, tie, seat)
    cipher = _xor(plain, _stream(secret, nonce, len(plain)))
    prefix = _prefix(seat)
    tag = hmac_sha256(auth, prefix.encode("ascii") + nonce + cipher)[:TAG_BYTES]
    return prefix + hexlify(nonce + cipher + tag).decode("ascii")


def seal_notes(key, tie, seat, number, texts, nonces=None):
    """The notes of ``texts`` (in order) from ``seat``, numbered from ``number``: each text in
    pieces of at most ``PIECE`` characters. ``nonces``: one per note, for tests."""
    notes = []
    for text in texts:
        if not isinstance(text, str) or not text or len(text) > MAX_MESSAGE:
            raise NoteError("Only a message of 1 to 65,536 characters goes to the meeting point.")
        pieces = [text[at:at + PIECE] for at in range(0, len(text), PIECE)]
        for index, piece in enumerate(pieces):
            nonce = nonces[len(notes)] if nonces is not None else None
            notes.append(seal_note(key, tie, seat, number + len(notes), index < len(pieces) - 1, piece, nonce))
    return notes


def note_seat(note):
    """The seat a note says it is from (0 or 1), or None for a text that is no note."""
    if not isinstance(note, str) or len(note) < len(VERSION_PREFIX) + 2 or not note.startswith(VERSION_PREFIX):
        return None
    seat = note[len(VERSION_PREFIX)]
    if seat not in "01" or note[len(VERSION_PREFIX) + 1] != ".":
        return None
    return int(seat)


def open_note(key, tie, seat, note):
    """A note from ``seat`` opened: ``[number, more, piece]``; NoteError if it is not a note of
    this game from that seat, exactly as it was written."""
    _seat(seat)
    found = note_seat(note)
    if found is None or len(note) > MAX_NOTE:
        raise NoteError(NOT_A_NOTE)
    if found != seat:
        raise NoteError(WRONG_SEAT)
    prefix = _prefix(seat)
    body = note[len(prefix):]
    if len(body) % 2 or len(body) < 2 * (NONCE_BYTES + TAG_BYTES) or body.lower() != body:
        raise NoteError(NOT_A_NOTE)
    try:
        data = unhexlify(body)
    except (ValueError, TypeError):
        raise NoteError(NOT_A_NOTE) from None
    nonce, cipher, tag = data[:NONCE_BYTES], data[NONCE_BYTES:-TAG_BYTES], data[-TAG_BYTES:]
    secret, auth = _seat_keys(key, tie, seat)
    if not _same(hmac_sha256(auth, prefix.encode("ascii") + nonce + cipher)[:TAG_BYTES], tag):
        raise NoteError(DAMAGED)
    plain = _xor(cipher, _stream(secret, nonce, len(cipher)))
    try:
        text = plain.decode("ascii") if not plain or max(plain) < 0x80 else utf8_text(plain)
    except ValueError:
        raise NoteError(DAMAGED) from None
    head, sep, rest = text.partition(":")
    more, sep2, piece = rest.partition(":")
    if not sep or not sep2 or not head.isdigit() or len(head) > 9 or more not in ("+", ".") \
            or (head[0] == "0" and head != "0"):
        raise NoteError(DAMAGED)
    return [int(head), more == "+", piece]


def _same(one, other):
    """Equal byte strings, compared without stopping at the first difference."""
    if len(one) != len(other):
        return False
    diff = 0
    for a, b in zip(one, other):
        diff |= a ^ b
    return diff == 0


def new_box(next_number=0):
    """An empty mailbox for one seat's notes, expecting ``next_number`` first (JSON-serialisable)."""
    return {"next": next_number, "held": [], "part": ""}


def is_box(box):
    """True for a mailbox of the right shape (as kept by a page, which may have been changed)."""
    return isinstance(box, dict) and type(box.get("next")) is int and box["next"] >= 0 \
        and isinstance(box.get("held"), list) and isinstance(box.get("part"), str)


def take(box, opened):
    """Hand one opened note (``open_note``'s answer) to the mailbox (changed in place): the whole
    messages it completes, in order ([] when it completes none). A note already taken is dropped;
    one that comes early waits (at most ``MAX_HELD``); NoteError for a message too long."""
    number = opened[0]
    if number < box["next"] or number >= box["next"] + MAX_HELD:
        return []
    if not any(held[0] == number for held in box["held"]):
        box["held"].append(list(opened))
    out = []
    while True:
        found = [held for held in box["held"] if held[0] == box["next"]]
        if not found:
            return out
        held = found[0]
        box["held"] = [h for h in box["held"] if h[0] != box["next"]]
        box["next"] += 1
        part = box["part"] + held[2]
        if len(part) > MAX_MESSAGE:
            box["part"] = ""
            raise NoteError(TOO_LONG)
        if held[1]:
            box["part"] = part
        else:
            box["part"] = ""
            if part:
                out.append(part)


def open_notes(key, tie, seat, box, notes):
    """Notes from ``seat`` taken into its mailbox ``box`` (changed in place): ``[texts, waiting,
    refused]``, the whole messages now complete (in order), the notes that may open once the
    tie is known (``tie`` None: the reply not read yet) and a sentence for each note refused.
    The friend's reply, seat 1's note 0, is tied to nothing (``seal_notes`` with tie "")."""
    texts, waiting, refused = [], [], []
    for note in notes:
        try:
            opened = None
            if tie is not None:
                try:
                    opened = open_note(key, tie, seat, note)
                except NoteError as error:
                    if str(error) != DAMAGED or seat != 1:
                        raise
            if opened is None:
                try:
                    opened = open_note(key, "", seat, note)
                except NoteError as error:
                    if str(error) == DAMAGED and tie is None:
                        waiting.append(note)
                        continue
                    raise
                if opened[0] != 0 or seat != 1:
                    raise NoteError(DAMAGED)
            texts.extend(take(box, opened))
        except NoteError as error:
            refused.append(str(error))
    return [texts, waiting, refused]
