"""The sealed deck of one two-player hand: shuffled and locked by both sides, each card opened only for who may see it.

Mental poker over ristretto255 (``engine/ristretto.py``), a group of prime order in which
no card can be told from another without the keys. Card ``c`` is the point ``CARD_POINTS[c]``.
Each side's part of hand ``k`` follows from one seed of 32 hex digits (its hand seed), drawn
from its own secret and committed (``fairdeal.commitment``) in its first message of the hand:

- its order: ``fairdeal.shuffled_deck(seed)``;
- seat 0's lock ``x``, and seat 1's keys ``y_0 .. y_51`` (one per position of the final deck):
  each the SHA-256 of ``"<seed>:<label>:0"`` then of ``"<seed>:<label>:1"`` (64 bytes, read
  little-endian), reduced modulo ``ORDER - 1``, plus one (never zero); the labels are ``lock``
  and ``key:<position>``.

The hand, in three messages before anyone sees a card:

1. seat 0 sends ``first[i] = x * CARD(order0[i])``, its shuffle of the deck, every card locked;
2. seat 1 sends ``final[j] = y_j * first[order1[j]]``: the deck shuffled again, each position
   under a key of its own. Position j now holds ``fairdeal.shuffled_deck(joint)[j]`` for the
   joint seed ``"<seed0>:<seed1>"``, which is how the hand is dealt (``fairdeal``, step 6);
3. openings: to let the other side read position j, seat 1 sends ``y_j`` (64 hex digits, the
   scalar little-endian) and seat 0 sends ``x^-1 * final[j]`` (an encoded point); the reader
   takes off its own part (``(x * y_j)^-1 * final[j]`` for seat 0, ``y_j^-1 * share`` for seat 1)
   and must find a card.

Each side opens its own hand's positions for the other only when the rules show the card (a
card laid), both open the starter once both have discarded, and the crib is read at the end
from the revealed seeds. At the end of the hand each side reveals its seed; ``check`` re-does
the other side's work from it and refuses the hand, saying what was wrong, if the seed does not
match its commitment, a deck received is not the one the seed makes (a duplicated or replaced
card, a shuffle that is not a permutation), or a card read is not the one the deck holds there.
The decks are compared in one weighted sum each (``ristretto.mul_sum``), with 64-bit weights
drawn from the checking side's own seed, which the other side did not know when it sent its
deck: a deck that differs anywhere passes with a chance of 2**-64.

What it promises: neither side can read a card the rules have not shown it, nor steer the deal
(the deal is the product of two shuffles, each hidden from the other side when it is chosen),
and every cheat in the hand is found at the end of it. What it cannot promise: that a side
finishes the hand (leaving is always possible, and the game ends there), or that the crib's
cards are hidden from their own discarders (they chose them).
"""

from hashlib import sha256
from binascii import hexlify, unhexlify

from engine import fairdeal, ristretto
from engine.fairdeal import DECK_SIZE

POINT_BYTES = 32
SCALAR_BYTES = 32
DECK_HEX = DECK_SIZE * POINT_BYTES * 2  # characters of a deck in a message
SHARE_HEX = 2 * POINT_BYTES  # characters of one opening (a point or a key)


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


def deck_text(points: list) -> str:
    """A deck of points as the hex text a message carries."""
    return "".join(hexlify(ristretto.encode(p)).decode("ascii") for p in points)


def _read_deck(text: object, who: str) -> list:
    """The 52 distinct points of a deck's text; SealError naming ``who`` otherwise."""
    if not isinstance(text, str) or len(text) != DECK_HEX:
        raise SealError(f"{who}'s deck is not {DECK_SIZE} sealed cards.")
    seen = set()
    points = []
    for i in range(DECK_SIZE):
        part = text[i * SHARE_HEX:(i + 1) * SHARE_HEX]
        if part in seen:
            raise SealError(f"{who}'s deck holds the same sealed card twice, so it is not a shuffle of the deck.")
        seen.add(part)
        try:
            points.append(ristretto.decode(unhexlify(part)))
        except ValueError:
            raise SealError(f"{who}'s deck holds something that is not a sealed card.") from None
    return points


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
    >>> b.take_first(a.first_deck(), a.commitment)
    >>> a.take_final(b.final_deck(), b.commitment)
    >>> card = a.read(0, b.share(0))
    >>> card == fairdeal.shuffled_deck("0" * 32 + ":" + "1" * 32)[0]
    True
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
        self.first = None  # the deck after seat 0's shuffle (points)
        self.final = None  # the deck after seat 1's (points)
        self.read_cards: dict = {}  # position -> card this side read
        self.shared: list = []  # positions this side opened for the other
        self._secret = lock_of(self.seed) if seat == 0 else None
        self._keys: dict = {}

    def _key(self, position: int) -> int:
        key = self._keys.get(position)
        if key is None:
            key = self._keys[position] = key_of(self.seed, position)
        return key

    def _take_commitment(self, commitment: object) -> None:
        try:
            self.their_commitment = fairdeal.parse_commitment(commitment)
        except (TypeError, ValueError):
            raise SealError(f"{self.other}'s commitment for this hand is damaged.") from None

    # --- the two shuffles ------------------------------------------------------------------

    def first_deck(self) -> str:
        """Seat 0: the deck shuffled and locked, as the first message carries it."""
        assert self.seat == 0
        order = fairdeal.shuffled_deck(self.seed)
        lock = self._secret
        self.first = [ristretto.mul(lock, ristretto.CARD_POINTS[c]) for c in order]
        return deck_text(self.first)

    def take_first(self, text: object, commitment: object) -> None:
        """Seat 1: seat 0's deck and its commitment; SealError if the deck is not 52 sealed cards."""
        assert self.seat == 1
        self._take_commitment(commitment)
        self.first = _read_deck(text, self.other)

    def final_deck(self) -> str:
        """Seat 1: seat 0's deck shuffled again, each position under its own key."""
        assert self.seat == 1 and self.first is not None
        order = fairdeal.shuffled_deck(self.seed)
        self.final = [ristretto.mul(self._key(j), self.first[order[j]]) for j in range(DECK_SIZE)]
        return deck_text(self.final)

    def take_final(self, text: object, commitment: object) -> None:
        """Seat 0: seat 1's deck and its commitment; SealError if it is not 52 sealed cards."""
        assert self.seat == 0 and self.first is not None
        self._take_commitment(commitment)
        self.final = _read_deck(text, self.other)

    # --- openings -------------------------------------------------------------------------

    def share(self, position: int) -> str:
        """What the other side needs to read the card at ``position`` (this side's part off)."""
        self.shared.append(position)
        if self.seat == 1:
            return hexlify(self._key(position).to_bytes(SCALAR_BYTES, "little")).decode("ascii")
        unlocked = ristretto.mul(ristretto.inverse_scalar(self._secret), self.final[position])
        return hexlify(ristretto.encode(unlocked)).decode("ascii")

    def read(self, position: int, share: object) -> int:
        """The card at ``position``, from the other side's opening; SealError if none is there."""
        data = _hex_bytes(share, self.other)
        if self.seat == 0:
            key = int.from_bytes(data, "little")
            if not 0 < key < ristretto.ORDER:
                raise SealError(f"{self.other}'s opening of a card is not a key.")
            point = ristretto.mul(ristretto.inverse_scalar(self._secret * key % ristretto.ORDER),
                                  self.final[position])
        else:
            try:
                unlocked = ristretto.decode(data)
            except ValueError:
                raise SealError(f"{self.other}'s opening of a card is not a sealed card.") from None
            point = ristretto.mul(ristretto.inverse_scalar(self._key(position)), unlocked)
        card = ristretto.card_of(point)
        if card is None:
            raise SealError(f"{self.other}'s opening of position {position + 1} is not a card.")
        self.read_cards[position] = card
        return card

    # --- the end of the hand ----------------------------------------------------------------

    def check(self, their_seed: object) -> str:
        """Re-do the other side's work from its revealed seed: the hand's joint seed, or SealError
        saying what does not match."""
        if not fairdeal.is_normal_seed(their_seed):
            raise SealError(f"{self.other}'s key for this hand is not a seed of 32 hex digits.")
        if self.their_commitment is None or fairdeal.commitment(their_seed) != self.their_commitment:
            raise SealError(f"{self.other}'s key for this hand does not match the commitment sent before it.")
        order = fairdeal.shuffled_deck(their_seed)
        weights = [_weight(self.seed, i) for i in range(DECK_SIZE)]
        if self.seat == 1:
            # sum w_i * first[i] == lock * sum w_i * CARD(order[i]), for weights the other side
            # could not know when it sent its deck: a deck that differs anywhere fails but for a
            # chance of 2**-64 (one check in place of 52 multiplications).
            sent = ristretto.mul_sum(list(zip(weights, self.first)))
            made = ristretto.mul(lock_of(their_seed), ristretto.mul_sum(
                [(w, ristretto.CARD_POINTS[c]) for w, c in zip(weights, order)]))
            joint = fairdeal.joint_seed(their_seed, self.seed)
        else:
            sent = ristretto.mul_sum(list(zip(weights, self.final)))
            made = ristretto.mul_sum([(w * key_of(their_seed, j) % ristretto.ORDER, self.first[order[j]])
                                      for j, w in enumerate(weights)])
            joint = fairdeal.joint_seed(self.seed, their_seed)
        if not ristretto.equal(sent, made):
            raise SealError(f"{self.other}'s shuffle is not the one its key makes, so the deck was not fair.")
        deck = fairdeal.shuffled_deck(joint)
        for position in sorted(self.read_cards):
            if deck[position] != self.read_cards[position]:
                raise SealError(f"{self.other} opened position {position + 1} as a card it does not hold.")
        return joint
