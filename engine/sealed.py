"""The sealed deck of one two-player hand: shuffled and locked by both sides, each card opened only for who may see it.

Mental poker over ristretto255 (``engine/ristretto.py``), a group of prime order in which
no card can be told from another without the keys. Card ``c`` is the point ``CARD_POINTS[c]``.
Each side's part of hand ``k`` follows from one seed of 32 hex digits (its hand seed), drawn
from its own secret and committed (``fairdeal.commitment``) in its first message of the hand:

- its order: ``fairdeal.shuffled_deck(seed)``;
- seat 0's lock ``x``, and seat 1's keys ``y_0 .. y_51`` and masks ``r_0 .. r_51`` (one per
  position of the final deck; a position uses one or the other): each the SHA-256 of
  ``"<seed>:<label>:0"`` then of ``"<seed>:<label>:1"`` (64 bytes, read little-endian), reduced
  modulo ``ORDER - 1``, plus one (never zero); the labels are ``lock``, ``key:<position>`` and
  ``mask:<position>``.

The hand, in three messages before anyone sees a card:

1. seat 0 sends ``first[i] = x * CARD(order0[i])``, its shuffle of the deck, every card locked,
   with ``U = x^-1 * BASE``, the point that lets seat 1 take its masks off (below), and the proof
   that the deck holds each card once under that one lock (``engine/shuffle_proof.py``), which
   seat 1 checks before it sends anything on the cards it reads (``check_shuffle``): a card of
   seat 0's locked otherwise would otherwise fail seat 1's reading exactly when seat 1 held it;
2. seat 1 shuffles that deck again. Position j of the final deck holds
   ``fairdeal.shuffled_deck(joint)[j]`` for the joint seed ``"<seed0>:<seed1>"``, which is how
   the hand is dealt (``fairdeal``, step 6). Seat 0's six cards it opens at once by index
   (``order1[j]``: which card of seat 0's own deck position j holds, telling seat 0 only its
   own cards), so seat 0 reads them with no arithmetic at all. Its own six positions it sends
   masked: ``final[j] = first[order1[j]] + r_j * BASE``, under a mask ``r_j`` of its own (a
   uniformly random point added, so the masked card tells seat 0 nothing of which card it is);
   every other position it locks under a key of its own, ``final[j] = y_j * first[order1[j]]``,
   and sends them before it makes its first move of the hand. Each position is under its own
   key or mask, so a part of the deck tells no more than the whole;
3. openings: seat 0 opens a position j for seat 1 with ``x^-1 * final[j]`` (an encoded point),
   from which seat 1 takes its own part off: ``y_j^-1 * share``, or for its own six
   ``share - r_j * U`` (``r_j * U`` is worked out while seat 0 works on its openings). Seat 1
   opens a position for seat 0 with its key ``y_j``, or the mask ``r_j`` of one of its own six
   (64 hex digits, the scalar little-endian): seat 0 reads ``(x * y_j)^-1 * final[j]``, or finds
   ``final[j] - r_j * BASE`` in its own locked deck. The reader must find a card.

The points of those three messages (seat 0's deck and ``U``, seat 1's masked six, seat 0's
openings of them) travel with their decoding roots (``roots_text``: the square root RFC 9496's
decoding works out, which the sender gets for all its points with one inversion), so the
receiver checks each root instead of working it out: the same points, or a damaged one refused,
for two multiplications in place of an exponentiation each. The cards read are told by their
keys (``ristretto.cards_of``), one inversion for all six. Seat 0 works its openings of the
masked six out as halves, ``(x^-1 / 2) * final[j]``, and encodes their doubles together
(``ristretto.double_encodings``): the same encodings, with no square root for any of them.

Seat 1's six cards thus cost it additions only while the connection waits (the masks
``r_j * BASE`` are worked out ahead, ``prepare``); the one exchange of openings costs seat 0 a
multiplication per card. This is the blinded evaluation of a verifiable oblivious PRF with
additive blinding (RFC 9497's construction, its "public key" being ``U``): seat 0 applies its
key to points it cannot tell from random ones, and proves it did (``prove_openings``: one
batched Chaum-Pedersen proof that every ``share_j`` is ``x^-1 * final[j]`` for the ``x^-1`` of
``U``), in a message of its own right after the openings. Without the proof, seat 0 could open a
card wrongly on purpose, so that it reads as a card only if it is the one seat 0 guesses, and
learn from whether seat 1 goes on; seat 1 checks the proof before it sends anything more in the
hand (its rest, its first move), so it goes on only after honest openings.

Each side opens its own hand's positions for the other only when the rules show the card (a
card laid), both open the starter once both have discarded, and the crib is read at the end
from the revealed seeds. At the end of the hand each side reveals its seed; ``check`` re-does
the other side's work from it and refuses the hand, saying what was wrong, if the seed does not
match its commitment, a deck received is not the one the seed makes (a duplicated or replaced
card, a shuffle that is not a permutation), or a card read is not the one the deck holds there.
The decks are compared in one weighted sum each (``ristretto.mul_sum``), with 64-bit weights
drawn from the checking side's own seed, which the other side did not know when it sent its
deck: a deck that differs anywhere passes with a chance of 2**-64. Seat 1 also checks that
``U`` is ``x^-1 * BASE``.

What it promises: neither side can read a card the rules have not shown it, nor steer the deal
(the deal is the product of two shuffles, each hidden from the other side when it is chosen),
and every cheat in the hand is found at the end of it. What it cannot promise: that a side
finishes the hand (leaving is always possible, and the game ends there), or that the crib's
cards are hidden from their own discarders (they chose them).
"""

from hashlib import sha256
from binascii import hexlify, unhexlify

from engine import fairdeal, ristretto, shuffle_proof
from engine.fairdeal import DECK_SIZE

POINT_BYTES = 32
HALF = (ristretto.ORDER + 1) // 2  # the inverse of 2 modulo the group's order
SCALAR_BYTES = 32
SHARE_HEX = 2 * POINT_BYTES  # characters of one point or key in a message
HEAD = 13
"""Positions of the final deck a two-player hand reads before the show (both hands and the
starter: 0..12)."""
CHUNK = 7
"""Cards one step of the shuffles locks (``first_step``, ``final_step``): a move asked for
meanwhile waits for one step only."""
MASKED = 6
"""Seat 1's own positions in a hand, masked rather than locked (its six cards)."""
REST = list(range(HEAD, 52))
"""The positions of the final deck past the head (no card of them is read before the show)."""
_PREPARED: list = []  # [seat, seed, what was worked out] ahead of a game (``prepare``), the last two


class SealError(ValueError):
    """Something from the other side that breaks the sealed deal; the message says what."""


def _scalar(seed: str, label: str) -> int:
    data = (sha256((seed + ":" + label + ":0").encode("ascii")).digest()
            + sha256((seed + ":" + label + ":1").encode("ascii")).digest())
    return int.from_bytes(data, "little") % (ristretto.ORDER - 1) + 1


def _weight(seed: str, index: int) -> int:
    """A 64-bit weight of the end-of-hand check, from the checking side's own seed."""
    return int.from_bytes(sha256((seed + ":check:%d" % index).encode("ascii")).digest()[:8], "little") | 1


def lock_of(seed: str) -> int:
    """Seat 0's lock for a hand seed."""
    return _scalar(seed, "lock")


def key_of(seed: str, position: int) -> int:
    """Seat 1's key for one position of the final deck."""
    return _scalar(seed, "key:%d" % position)


def mask_of(seed: str, position: int) -> int:
    """Seat 1's mask for one of its own positions of the final deck."""
    return _scalar(seed, "mask:%d" % position)


def _hex_point(point) -> str:
    return hexlify(ristretto.encode(point)).decode("ascii")


def _digest_scalar(size: int, *parts) -> int:
    """A scalar of ``size`` bytes from the SHA-256 of byte strings (a proof's weights and challenge)."""
    digest = sha256(b"cribbage sealed opening proof")
    for part in parts:
        digest.update(part)
    return int.from_bytes(digest.digest()[:size], "little")


def _weights(unlock: str, masked: list, shares: list) -> list:
    """The batched proof's weights, one per opening (64 bits), drawn from all of them: one check
    then covers the six but for a chance of 2**-64."""
    seed = sha256("".join([unlock] + masked + shares).encode("ascii")).digest()
    return [_digest_scalar(8, seed, b"%d" % j) | 1 for j in range(len(masked))]


def _challenge(unlock: str, m, z, a1, a2) -> int:
    return _digest_scalar(16, unhexlify(unlock), *(ristretto.encode(p) for p in (m, z, a1, a2)))


def prove_openings(seed: str, secret: int, unlock: str, masked: list, shares: list, points: list) -> str:
    """Seat 0's proof that each of ``shares`` is ``secret`` times the masked point in ``masked``
    (hex texts, in order; ``points``: the masked points themselves), for the ``secret`` whose
    ``secret * BASE`` is ``unlock``: a batched Chaum-Pedersen proof, ``e`` (16 bytes) then ``s``
    (32), in hex, its nonce drawn from ``seed`` and the points."""
    m = ristretto.mul_sum(list(zip(_weights(unlock, masked, shares), points)))
    z = ristretto.mul(secret, m)
    nonce = _scalar(seed, "proof:" + "".join(masked) + "".join(shares))
    a1, a2 = ristretto.mul(nonce, ristretto.BASE), ristretto.mul(nonce, m)
    e = _challenge(unlock, m, z, a1, a2)
    s = (nonce - e * secret) % ristretto.ORDER
    return hexlify(e.to_bytes(16, "little") + s.to_bytes(SCALAR_BYTES, "little")).decode("ascii")


def is_proof(unlock: str, masked: list, shares: list, proof: object) -> bool:
    """Whether ``proof`` (``prove_openings``) shows each share is the masked point times the
    secret of ``unlock``."""
    if not isinstance(proof, str) or len(proof) != 2 * (16 + SCALAR_BYTES):
        return False
    try:
        data = unhexlify(proof)
        weights = _weights(unlock, masked, shares)
        m = ristretto.mul_sum([(w, ristretto.decode(unhexlify(t))) for w, t in zip(weights, masked)])
        z = ristretto.mul_sum([(w, ristretto.decode(unhexlify(t))) for w, t in zip(weights, shares)])
        u = ristretto.decode(unhexlify(unlock))
    except ValueError:
        return False
    e, s = int.from_bytes(data[:16], "little"), int.from_bytes(data[16:], "little")
    if s >= ristretto.ORDER:
        return False
    a1 = ristretto.mul_sum([(s, ristretto.BASE), (e, u)])
    a2 = ristretto.mul_sum([(s, m), (e, z)])
    return _challenge(unlock, m, z, a1, a2) == e


def deck_text(points: list) -> str:
    """A deck of points (or part of one) as the hex text a message carries."""
    return "".join(_hex_point(p) for p in points)


def prepare(seed: str, seat: int = 0, positions: "list | None" = None) -> None:
    """Work a hand seed's heavy part out ahead of its game, for the next ``SealedHand`` of that
    seed and seat, which takes it instead of working it out: seat 0's locked shuffle and ``U``;
    seat 1's masks ``r_j * BASE`` for ``positions`` (by default those of either hand, 0..11)."""
    hand = SealedHand(seat, seed, "")
    if seat == 0:
        made = [hand.first_deck(), hand.first, hand.unlock_text(), hand.first_roots(), hand.shuffle_text()]
    else:
        made = [{j: hand._mask_point(j) for j in (range(2 * MASKED) if positions is None else positions)}]
    _PREPARED.append([seat, hand.seed] + made)
    del _PREPARED[:-2]


def _prepared(seat: int, seed: str) -> "list | None":
    """What ``prepare`` worked out for a seed and seat (taken once), or None."""
    for entry in _PREPARED:
        if entry[0] == seat and entry[1] == seed:
            _PREPARED.remove(entry)
            return entry[2:]
    return None


def _pieces(text: str) -> list:
    """A text of points (or roots) as the 64 hex digits of each."""
    return [text[i:i + SHARE_HEX] for i in range(0, len(text), SHARE_HEX)]


def _parts(text: object, count: int, who: str, seen: set) -> list:
    """A deck text's ``count`` encodings, each new to ``seen`` (which takes them once all are
    checked); SealError naming ``who`` otherwise. Nothing is decoded yet."""
    if not isinstance(text, str) or len(text) != count * SHARE_HEX:
        raise SealError(f"{who}'s deck is not {DECK_SIZE} sealed cards.")
    parts = _pieces(text)
    fresh = set(parts)
    if len(fresh) != len(parts) or any(part in seen for part in parts):
        raise SealError(f"{who}'s deck holds the same sealed card twice, so it is not a shuffle of the deck.")
    seen.update(fresh)
    return parts


def _point(part: str, who: str, root: "int | None" = None):
    try:
        return ristretto.decode(unhexlify(part), root)
    except ValueError:
        raise SealError(f"{who}'s deck holds something that is not a sealed card.") from None


def roots_text(points: list, texts: list) -> str:
    """The decoding roots (``ristretto.decoding_roots``) of points sent as these hex texts, as a
    message carries them beside the points (64 hex digits each): the receiver checks each root
    in place of working it out, an exponentiation a point."""
    roots = ristretto.decoding_roots(points, [unhexlify(t) for t in texts])
    return "".join(hexlify(r.to_bytes(POINT_BYTES, "little")).decode("ascii") for r in roots)


def _roots(text: object, count: int, who: str) -> list:
    """``count`` roots from a message's text (``roots_text``); all None if it sent none; SealError
    naming ``who`` if the text is not ``count`` roots."""
    if text is None:
        return [None] * count
    if not isinstance(text, str) or len(text) != count * SHARE_HEX:
        raise SealError(f"{who}'s deck holds something that is not a sealed card.")
    try:
        return [int.from_bytes(unhexlify(piece), "little") for piece in _pieces(text)]
    except ValueError:
        raise SealError(f"{who}'s deck holds something that is not a sealed card.") from None


def _hex_bytes(text: object, who: str) -> bytes:
    if not isinstance(text, str) or len(text) != SHARE_HEX:
        raise SealError(f"{who}'s opening of a card is damaged.")
    try:
        return unhexlify(text)
    except ValueError:
        raise SealError(f"{who}'s opening of a card is damaged.") from None


class SealedHand:
    """One side's part of one sealed two-player hand (see the module docstring).

    >>> a, b = SealedHand(0, "0" * 32, "Ann"), SealedHand(1, "1" * 32, "Bob")
    >>> deck = fairdeal.shuffled_deck("0" * 32 + ":" + "1" * 32)
    >>> b.take_first(a.first_deck(), a.commitment, a.unlock_text())
    >>> a.take_final(b.commitment)
    >>> a.read_own(0, b.own_index(0)) == deck[0]
    True
    >>> a.take_part(b.masked_part([6, 7]), [6, 7], masked=True)
    >>> b.read(6, a.share(6)) == deck[6], a.read(7, b.share(7)) == deck[7]
    (True, True)
    >>> while not b.final_step(): pass
    >>> rest = [j for j in range(52) if j not in (6, 7)]
    >>> a.take_part(b.final_part(rest), rest)
    >>> a.check(b.seed) == b.check(a.seed) == "0" * 32 + ":" + "1" * 32
    True
    """

    def __init__(self, seat: int, seed: str, other_name: str) -> None:
        """Seat 0 shuffles first; ``other_name`` is the other side's, for the messages."""
        if seat not in (0, 1):
            raise ValueError("a sealed hand has seats 0 and 1")
        self.seat = seat
        self.seed = fairdeal.parse_seed(seed)
        self.commitment = fairdeal.commitment(self.seed)
        self.other = other_name
        self.their_commitment = None
        self.first = None  # the deck after seat 0's shuffle (points; at seat 1, None until it comes, whole)
        self.final = None  # the deck after seat 1's: position -> point, as its parts are made or come
        self._order = None  # its shuffle (seat 1: once seat 0's deck has come)
        self.read_cards: dict = {}  # position -> card this side read
        self.shared: list = []  # positions this side opened for the other
        self._secret = lock_of(self.seed) if seat == 0 else None
        self._keys: dict = {}
        self._inverse = None  # seat 0: the inverse of its lock (_unlock)
        self._made: list = []  # seat 0: the part of its deck locked so far
        self._first_text = None  # seat 0: its deck's text, once made
        self._unlock_text = None  # U, the inverse of seat 0's lock times BASE, as a message carries it (made or received)
        self._roots_text = None  # seat 0: the decoding roots of its deck's points then of U (roots_text)
        self._first_roots: list = []  # seat 1: those roots as they came (None each if none came)
        self.masked_roots = ""  # seat 1: the roots of its masked six, as sent
        self.open_roots: list = []  # seat 0: the roots of its openings of the masked six, as sent
        self._indices = None  # seat 0: its deck's encodings -> their index (_index_of)
        self._texts: list = []  # seat 1: seat 0's deck as it came
        self._seen: set = set()
        self.masked: list = []  # seat 1's own positions, masked rather than locked (as they were sent)
        self._masked_texts: list = []  # their points, as they were sent
        self._opened: list = []  # the shares of the masked positions, in their order (for the proof)
        self.proved = False  # seat 1: the openings of its six shown right (``take_proof``)
        self._masks: dict = {}  # seat 1: position -> r_j * BASE
        self._unmasks: dict = {}  # seat 1: position -> r_j * U
        self._unlock_point = None  # seat 1: seat 0's U
        self._shuffle_text = None  # seat 0: the proof its deck holds each card once (shuffle_proof)
        self._proving = None  # seat 0: that proof in the making (shuffle_proof.proving)
        self._shuffle = None  # seat 1: seat 0's proof, as it came, until it is checked
        self.checked = False  # seat 1: seat 0's deck shown to hold each card once, under one lock
        made = _prepared(seat, self.seed)
        if made is not None and seat == 0:
            self._first_text, self._made, self._unlock_text, self._roots_text = made[0], list(made[1]), made[2], made[3]
            self._shuffle_text = made[4]
        elif made is not None:
            self._masks = made[0]

    def _key(self, position: int) -> int:
        key = self._keys.get(position)
        if key is None:
            key = self._keys[position] = key_of(self.seed, position)
        return key

    def _unlock(self) -> int:
        """Seat 0: the inverse of its lock (worked out once)."""
        if self._inverse is None:
            self._inverse = ristretto.inverse_scalar(self._secret)
        return self._inverse

    def unlock_text(self) -> str:
        """Seat 0: ``U = x^-1 * BASE``, as its first message carries it."""
        if self._unlock_text is None:
            self._unlock_text = _hex_point(ristretto.mul(self._unlock(), ristretto.BASE))
        return self._unlock_text

    def _mask_point(self, position: int):
        point = self._masks.get(position)
        if point is None:
            point = self._masks[position] = ristretto.mul(mask_of(self.seed, position), ristretto.BASE)
        return point

    def _index_of(self, point) -> "int | None":
        """Seat 0: the index in its own locked deck of a point, or None."""
        if self._indices is None:
            text = self.first_deck()
            self._indices = {part: i for i, part in enumerate(_pieces(text))}
        return self._indices.get(_hex_point(point))

    def _take_commitment(self, commitment: object) -> None:
        try:
            self.their_commitment = fairdeal.parse_commitment(commitment)
        except (TypeError, ValueError):
            raise SealError(f"{self.other}'s commitment for this hand is damaged.") from None

    # --- the two shuffles ------------------------------------------------------------------

    def first_step(self) -> bool:
        """Seat 0: lock the next ``CHUNK`` cards of its shuffle; True once the deck is done."""
        assert self.seat == 0
        if self.first is not None:
            return True
        if self._order is None:
            self._order = fairdeal.shuffled_deck(self.seed)
        start = len(self._made)
        self._made.extend(ristretto.mul(self._secret, ristretto.CARD_POINTS[c])
                          for c in self._order[start:start + CHUNK])
        if len(self._made) == DECK_SIZE:
            self.first = self._made
        return self.first is not None

    def shuffle_step(self) -> bool:
        """Seat 0, once its deck is locked: the next step of the proof that the deck holds each
        card once under its one lock (``shuffle_proof``); True once the proof is made."""
        assert self.seat == 0 and self.first is not None
        if self._shuffle_text is not None:
            return True
        if self._proving is None:
            unlock = ristretto.decode(unhexlify(self.unlock_text()))
            self._proving = shuffle_proof.proving(lambda label: _scalar(self.seed, "shuffle:" + label),
                                                  self._secret, self._order, self.first, unlock,
                                                  (_pieces(self.first_deck()), self.unlock_text()))
        text = next(self._proving)
        if text is not None:
            self._shuffle_text, self._proving = text, None
        return self._shuffle_text is not None

    def shuffle_text(self) -> str:
        """Seat 0: the proof that its deck holds each card once, as its first message carries it."""
        self.first_deck()
        while not self.shuffle_step():
            pass
        return self._shuffle_text

    def check_shuffle(self) -> None:
        """Seat 1: check seat 0's proof that its deck holds the 52 cards, each once, under the one
        lock ``U`` opens (the weights of the check drawn from this side's own seed); SealError if
        it does not hold. Done before this side sends anything after reading its cards, so that
        whether it goes on never depends on which cards it holds. A proof checked is let go."""
        if self.checked:
            return
        if self._shuffle is not None and not shuffle_proof.holds(self.first, self._unlock_point, self._shuffle,
                                                                  self.seed, (self._texts, self._unlock_text)):
            raise SealError(f"{self.other}'s deck is not the 52 cards each locked once under one lock, so "
                            "it could have been made to tell what you hold: the hand cannot go on.")
        self._shuffle = None
        self.checked = True

    def first_deck(self) -> str:
        """Seat 0: the deck shuffled and locked, as the first message carries it."""
        while not self.first_step():
            pass
        if self._first_text is None:
            self._first_text = deck_text(self.first)
        return self._first_text

    def first_roots(self) -> str:
        """Seat 0: the decoding roots of its deck's points, then of ``U``, as its first message
        carries them (``roots_text``)."""
        if self._roots_text is None:
            texts = _pieces(self.first_deck()) + [self.unlock_text()]  # the deck locked first
            self._roots_text = roots_text(self.first + [ristretto.decode(unhexlify(texts[-1]))], texts)
        return self._roots_text

    def take_first(self, text: object, commitment: object, unlock: object, roots: object = None,
                   shuffle: object = None) -> None:
        """Seat 1: seat 0's deck, its commitment, its ``U``, their decoding roots (optional) and
        the proof that the deck holds each card once (``shuffle_proof``, checked by
        ``check_shuffle``; None: a deck taken up again from this side's own record, its proof
        checked when it came); SealError if the deck is not 52 distinct sealed cards, ``U`` is no
        point or the proof is missing. Every point is decoded here (a root makes that a check), so
        nothing of a damaged deck is taken."""
        assert self.seat == 1
        if shuffle is not None and (not isinstance(shuffle, str) or len(shuffle) != shuffle_proof.PROOF_HEX):
            raise SealError(f"{self.other}'s deck came without the proof that it holds each card once.")
        texts = _parts(text, DECK_SIZE, self.other, set())
        found = _roots(roots, DECK_SIZE + 1, self.other)
        try:
            unlocked = ristretto.decode(unhexlify(unlock), found[DECK_SIZE]) if isinstance(unlock, str) else None
        except ValueError:
            unlocked = None
        if unlocked is None:
            raise SealError(f"{self.other}'s deck came without the point that opens your cards.")
        points = [_point(part, self.other, root) for part, root in zip(texts, found)]
        self._take_commitment(commitment)
        self._texts, self._first_roots, self._unlock_point, self.first = texts, found, unlocked, points
        self._unlock_text = unlock
        self._shuffle = shuffle

    def _lock(self, j: int) -> None:
        self.final[j] = ristretto.mul(self._key(j), self.first[self._order[j]])

    def _start_final(self) -> None:
        if self.final is None:
            self._order = fairdeal.shuffled_deck(self.seed)
            self.final = {}

    def own_index(self, position: int) -> int:
        """Seat 1: which card of seat 0's deck its ``position`` holds, to open one of seat 0's
        own cards for it (``read_own``)."""
        assert self.seat == 1 and self.first is not None
        self._start_final()
        self.shared.append(position)
        return self._order[position]

    def final_part(self, positions: list) -> str:
        """Seat 1: these positions of its deck (seat 0's deck shuffled again, each position under
        its own key), worked out if they are not yet, as a message carries them."""
        assert self.seat == 1 and self.first is not None
        self._start_final()
        for j in positions:
            if j not in self.final:
                self._lock(j)
        return deck_text([self.final[j] for j in positions])

    def masked_part(self, positions: list) -> str:
        """Seat 1: its own ``MASKED`` positions of its deck, each card masked (not locked), as a
        message carries them."""
        assert self.seat == 1 and self.first is not None and not self.masked
        self._start_final()
        for j in positions:
            self.final[j] = ristretto.add(self.first[self._order[j]], self._mask_point(j))
        self.masked = list(positions)
        self._masked_texts = [_hex_point(self.final[j]) for j in positions]
        self.masked_roots = roots_text([self.final[j] for j in positions], self._masked_texts)
        return "".join(self._masked_texts)

    def make_masks(self, positions: list) -> None:
        """Seat 1: ``r_j * BASE`` for its own positions, ahead of seat 0's deck."""
        for j in positions:
            self._mask_point(j)

    def open_masked(self) -> list:
        """Seat 0: its openings of seat 1's masked positions, ``[[position, share], ...]`` (their
        decoding roots in ``open_roots``)."""
        half = self._unlock() * HALF % ristretto.ORDER  # halves of the openings, encoded doubled together
        halves = [ristretto.mul(half, self.final[j]) for j in self.masked]
        self._opened = [hexlify(e).decode("ascii") for e in ristretto.double_encodings(halves)]
        self.shared.extend(self.masked)
        self.open_roots = _pieces(roots_text([ristretto.add(p, p) for p in halves], self._opened))
        return [[j, share] for j, share in zip(self.masked, self._opened)]

    def proof(self) -> str:
        """Seat 0: the proof that its openings of seat 1's masked positions are right."""
        return prove_openings(self.seed, self._unlock(), self.unlock_text(), self._masked_texts, self._opened,
                              [self.final[j] for j in self.masked])

    def take_opened(self, opens: list) -> None:
        """Seat 1: seat 0's openings of its masked positions, kept for their proof."""
        shares = dict((j, share) for j, share in opens)
        self._opened = [shares.get(j) for j in self.masked]

    def take_proof(self, proof: object) -> None:
        """Seat 1: seat 0's proof of its openings of the masked positions; SealError unless it
        shows them right."""
        unlock = _hex_point(self._unlock_point)
        if not (self._opened and all(isinstance(share, str) for share in self._opened)
                and is_proof(unlock, self._masked_texts, self._opened, proof)):
            raise SealError(f"{self.other}'s proof that it opened your cards right does not hold.")
        self.proved = True

    def unmask_step(self) -> None:
        """Seat 1: ``r_j * U`` for its masked positions, which take the masks off their openings."""
        for j in self.masked:
            if j not in self._unmasks:
                self._unmasks[j] = ristretto.mul(mask_of(self.seed, j), self._unlock_point)

    def final_step(self) -> bool:
        """Seat 1: ``CHUNK`` more positions of its deck (its masked ones sent before); True once
        the whole deck is done."""
        self._start_final()
        left = [j for j in range(DECK_SIZE) if j not in self.final][:CHUNK]
        for j in left:
            self._lock(j)
        return len(self.final) == DECK_SIZE

    def take_final(self, commitment: object) -> None:
        """Seat 0: seat 1's commitment, which comes with its shuffle (its deck comes in parts)."""
        assert self.seat == 0 and self.first is not None
        self._take_commitment(commitment)
        self.final = {}

    def take_part(self, text: object, positions: list, masked: bool = False, roots: object = None) -> None:
        """Seat 0: a part of seat 1's deck, at ``positions`` (``masked``: seat 1's own six), with
        their decoding roots (optional); SealError if it is not distinct sealed cards, new to the
        parts before."""
        assert self.seat == 0 and self.final is not None
        for j in positions:
            if j in self.final:
                raise SealError(f"{self.other} sent position {j + 1} of the deck twice.")
        seen = set(self._seen)
        parts = _parts(text, len(positions), self.other, seen)
        points = [_point(part, self.other, root)
                  for part, root in zip(parts, _roots(roots, len(positions), self.other))]
        self._seen = seen  # all of it checked: now it is taken
        for j, point in zip(positions, points):
            self.final[j] = point
        if masked:
            self.masked, self._masked_texts = list(positions), parts

    def has_whole_deck(self) -> bool:
        """True once this side holds the whole final deck (seat 0: the rest has come)."""
        return self.final is not None and len(self.final) == DECK_SIZE

    # --- openings -------------------------------------------------------------------------

    def share(self, position: int) -> str:
        """What the other side needs to read the card at ``position`` (this side's part off)."""
        self.shared.append(position)
        if self.seat == 1:
            scalar = mask_of(self.seed, position) if position in self.masked else self._key(position)
            return hexlify(scalar.to_bytes(SCALAR_BYTES, "little")).decode("ascii")
        return _hex_point(self._unlocked(position))

    def _unlocked(self, position: int):
        """Seat 0: the point at ``position`` of the final deck with its lock taken off."""
        return ristretto.mul(self._unlock(), self.final[position])

    def read(self, position: int, share: object) -> int:
        """The card at ``position``, from the other side's opening; SealError if none is there."""
        return self.read_all([[position, share]])[position]

    def read_all(self, opens: list, roots: "list | None" = None) -> dict:
        """The cards at positions the other side opened, ``[[position, share], ...]``, with their
        decoding roots if seat 0 sent them (``open_roots``): position -> card, the cards found
        together (``ristretto.cards_of``); SealError at the first that is no card."""
        roots = [None] * len(opens) if roots is None else roots
        cards, found = {}, []  # found: [position, point] to tell the card of
        for (position, share), root in zip(opens, roots):
            data = _hex_bytes(share, self.other)
            if self.seat == 0:
                key = int.from_bytes(data, "little")
                if not 0 < key < ristretto.ORDER:
                    raise SealError(f"{self.other}'s opening of a card is not a key.")
                if position in self.masked:  # the mask off: one of this side's own locked cards
                    index = self._index_of(ristretto.add(self.final[position],
                                                         ristretto.neg(ristretto.mul(key, ristretto.BASE))))
                    cards[position] = None if index is None else self._order[index]
                else:
                    found.append([position, ristretto.mul(self._unlock() * ristretto.inverse_scalar(key) % ristretto.ORDER,
                                                          self.final[position])])
                continue
            root = None if root is None else int.from_bytes(_hex_bytes(root, self.other), "little")
            try:
                unlocked = ristretto.decode(data, root)
            except ValueError:
                raise SealError(f"{self.other}'s opening of a card is not a sealed card.") from None
            if position in self.masked:
                self.unmask_step()
                found.append([position, ristretto.add(unlocked, ristretto.neg(self._unmasks[position]))])
            else:
                found.append([position, ristretto.mul(ristretto.inverse_scalar(self._key(position)), unlocked)])
        for (position, _), card in zip(found, ristretto.cards_of([point for _, point in found])):
            cards[position] = card
        for position, _ in opens:
            if cards[position] is None:
                raise SealError(f"{self.other}'s opening of position {position + 1} is not a card.")
            self.read_cards[position] = cards[position]
        return cards

    def read_own(self, position: int, index: object) -> int:
        """Seat 0: its own card at ``position``, which seat 1 opened as the ``index`` of seat 0's
        deck it holds (``own_index``); SealError if that is no card of the deck or one read before."""
        assert self.seat == 0
        if self._order is None:
            self._order = fairdeal.shuffled_deck(self.seed)
        if type(index) is not int or not 0 <= index < DECK_SIZE:
            raise SealError(f"{self.other}'s opening of position {position + 1} is not a card.")
        card = self._order[index]
        if card in self.read_cards.values():
            raise SealError(f"{self.other} opened the same card twice.")
        self.read_cards[position] = card
        return card

    def is_own_index(self, position: int, index: object) -> bool:
        """Seat 0: whether ``index`` of its own deck is the card it read at ``position``."""
        return type(index) is int and 0 <= index < DECK_SIZE and self._order is not None \
            and self.read_cards.get(position) == self._order[index]

    # --- the end of the hand ----------------------------------------------------------------

    def check(self, their_seed: object) -> str:
        """Re-do the other side's work from its revealed seed: the hand's joint seed, or SealError
        saying what does not match."""
        if not fairdeal.is_normal_seed(their_seed):
            raise SealError(f"{self.other}'s key for this hand is not a seed of 32 hex digits.")
        if not self.has_whole_deck():
            raise SealError(f"{self.other} showed the key for this hand before sending the whole deck.")
        if self.their_commitment is None or fairdeal.commitment(their_seed) != self.their_commitment:
            raise SealError(f"{self.other}'s key for this hand does not match the commitment sent before it.")
        order = fairdeal.shuffled_deck(their_seed)
        weights = [_weight(self.seed, i) for i in range(DECK_SIZE)]
        if self.seat == 1:
            # sum w_i * first[i] == lock * sum w_i * CARD(order[i]), for weights the other side
            # could not know when it sent its deck: a deck that differs anywhere fails but for a
            # chance of 2**-64 (one check in place of 52 multiplications).
            lock = lock_of(their_seed)
            if not ristretto.equal(ristretto.mul(lock, self._unlock_point), ristretto.BASE):
                raise SealError(f"{self.other}'s key for this hand does not match the point it sent to open your cards.")
            sent = ristretto.mul_sum([(w, self.first[i]) for i, w in enumerate(weights)])
            made = ristretto.mul(lock, ristretto.mul_sum(
                [(w, ristretto.CARD_POINTS[c]) for w, c in zip(weights, order)]))
            joint = fairdeal.joint_seed(their_seed, self.seed)
        else:
            # the same sum over seat 1's deck: a locked position is y_j * first[order[j]], a
            # masked one first[order[j]] + r_j * BASE (their masks summed into one term)
            sent = ristretto.mul_sum([(w, self.final[j]) for j, w in enumerate(weights)])
            masked = set(self.masked)
            terms = [(w if j in masked else w * key_of(their_seed, j) % ristretto.ORDER, self.first[order[j]])
                     for j, w in enumerate(weights)]
            masks = sum(weights[j] * mask_of(their_seed, j) for j in masked) % ristretto.ORDER
            made = ristretto.mul_sum(terms + [(masks, ristretto.BASE)])
            joint = fairdeal.joint_seed(self.seed, their_seed)
        if not ristretto.equal(sent, made):
            raise SealError(f"{self.other}'s shuffle is not the one its key makes, so the deck was not fair.")
        deck = fairdeal.shuffled_deck(joint)
        for position in sorted(self.read_cards):
            if deck[position] != self.read_cards[position]:
                raise SealError(f"{self.other} opened position {position + 1} as a card it does not hold.")
        return joint
