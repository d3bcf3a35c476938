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
2. seat 1 shuffles that deck again and locks each position under a key of its own:
   ``final[j] = y_j * first[order1[j]]``. Position j now holds
   ``fairdeal.shuffled_deck(joint)[j]`` for the joint seed ``"<seed0>:<seed1>"``, which is how
   the hand is dealt (``fairdeal``, step 6). Seat 0's six cards it opens at once by index
   (``order1[j]``: which card of seat 0's own deck position j holds, telling seat 0 only its
   own cards), so seat 0 reads them with no arithmetic at all. It sends the final deck in
   parts: first its own six positions, then the others before it makes its first move of the
   hand; each position is under its own key, so a part tells no more than the whole;
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
SHARE_HEX = 2 * POINT_BYTES  # characters of one point or key in a message
HEAD = 13
"""Positions of the final deck a two-player hand reads before the show (both hands and the
starter: 0..12)."""
CHUNK = 7
"""Cards one step of the shuffles locks (``first_step``, ``final_step``): a move asked for
meanwhile waits for one step only."""
REST = list(range(HEAD, 52))
"""The positions of the final deck past the head (no card of them is read before the show)."""
_PREPARED: list = []  # [seed, locked deck] worked out ahead of a game (``prepare``), the last two


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
    """A deck of points (or part of one) as the hex text a message carries."""
    return "".join(hexlify(ristretto.encode(p)).decode("ascii") for p in points)


def prepare(seed: str) -> None:
    """Lock seat 0's shuffle for a hand seed ahead of its game: the next ``SealedHand`` of that
    seed at seat 0 takes it instead of working it out."""
    hand = SealedHand(0, seed, "")
    text = hand.first_deck()
    _PREPARED.append([hand.seed, hand.first, text])
    del _PREPARED[:-2]


def _prepared(seed: str) -> tuple:
    """The locked deck and its text worked out ahead for a seed (taken once), or ([], None)."""
    for entry in _PREPARED:
        if entry[0] == seed:
            _PREPARED.remove(entry)
            return list(entry[1]), entry[2]
    return [], None


def _parts(text: object, count: int, who: str, seen: set) -> list:
    """A deck text's ``count`` encodings, each new to ``seen`` (which takes them); SealError
    naming ``who`` otherwise. Nothing is decoded yet."""
    if not isinstance(text, str) or len(text) != count * SHARE_HEX:
        raise SealError(f"{who}'s deck is not {DECK_SIZE} sealed cards.")
    parts = []
    for i in range(count):
        part = text[i * SHARE_HEX:(i + 1) * SHARE_HEX]
        if part in seen:
            raise SealError(f"{who}'s deck holds the same sealed card twice, so it is not a shuffle of the deck.")
        seen.add(part)
        parts.append(part)
    return parts


def _point(part: str, who: str):
    try:
        return ristretto.decode(unhexlify(part))
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
    >>> b.take_first(a.first_deck(), a.commitment)
    >>> while not b.final_step(): pass
    >>> a.take_final(b.commitment)
    >>> a.read_own(0, b.own_index(0)) == fairdeal.shuffled_deck("0" * 32 + ":" + "1" * 32)[0]
    True
    >>> a.take_part(b.final_part(list(range(52))), list(range(52)))
    >>> a.read(7, b.share(7)) == fairdeal.shuffled_deck("0" * 32 + ":" + "1" * 32)[7]
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
        self.first = None  # the deck after seat 0's shuffle (points; at seat 1, None until decoded)
        self.final = None  # the deck after seat 1's: position -> point, as its parts are made or come
        self._order = None  # its shuffle (seat 1: once seat 0's deck has come)
        self.read_cards: dict = {}  # position -> card this side read
        self.shared: list = []  # positions this side opened for the other
        self._secret = lock_of(self.seed) if seat == 0 else None
        self._keys: dict = {}
        self._inverses: dict = {}  # seat 1: position -> the inverse of its key (invert_keys)
        self._inverse = None  # seat 0: the inverse of its lock (_unlock)
        self._made: list = []  # seat 0: the part of its deck locked so far
        self._first_text = None  # seat 0: its deck's text, once made
        self._texts: list = []  # seat 1: seat 0's deck as it came (decoded as it is used)
        self._seen: set = set()

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

    def invert_keys(self, positions: list) -> None:
        """Seat 1: the inverses of its keys at ``positions``, worked out together (one inversion
        for them all), ready for ``read``."""
        todo = [j for j in positions if j not in self._inverses]
        if not todo:
            return
        product = 1
        prefix = []
        for j in todo:
            prefix.append(product)
            product = product * self._key(j) % ristretto.ORDER
        inverse = ristretto.inverse_scalar(product)
        for j, before in zip(reversed(todo), reversed(prefix)):
            self._inverses[j] = inverse * before % ristretto.ORDER
            inverse = inverse * self._key(j) % ristretto.ORDER

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
        if not self._made:
            self._made, self._first_text = _prepared(self.seed)
        if self._order is None:
            self._order = fairdeal.shuffled_deck(self.seed)
        start = len(self._made)
        self._made.extend(ristretto.mul(self._secret, ristretto.CARD_POINTS[c])
                          for c in self._order[start:start + CHUNK])
        if len(self._made) == DECK_SIZE:
            self.first = self._made
        return self.first is not None

    def first_deck(self) -> str:
        """Seat 0: the deck shuffled and locked, as the first message carries it."""
        while not self.first_step():
            pass
        if self._first_text is None:
            self._first_text = deck_text(self.first)
        return self._first_text

    def take_first(self, text: object, commitment: object) -> None:
        """Seat 1: seat 0's deck and its commitment; SealError if it is not 52 distinct sealed
        cards (each is decoded as the shuffle reaches it)."""
        assert self.seat == 1
        self._take_commitment(commitment)
        self._texts = _parts(text, DECK_SIZE, self.other, set())
        self.first = [None] * DECK_SIZE

    def _first_point(self, i: int):
        if self.first[i] is None:
            self.first[i] = _point(self._texts[i], self.other)
        return self.first[i]

    def _lock(self, j: int) -> None:
        self.final[j] = ristretto.mul(self._key(j), self._first_point(self._order[j]))

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

    def final_step(self) -> bool:
        """Seat 1: ``CHUNK`` more positions of its deck; True once the whole deck is done."""
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

    def take_part(self, text: object, positions: list) -> None:
        """Seat 0: a part of seat 1's deck, at ``positions``; SealError if it is not distinct
        sealed cards, new to the parts before."""
        assert self.seat == 0 and self.final is not None
        parts = _parts(text, len(positions), self.other, self._seen)
        for j, part in zip(positions, parts):
            if j in self.final:
                raise SealError(f"{self.other} sent position {j + 1} of the deck twice.")
            self.final[j] = _point(part, self.other)

    def has_whole_deck(self) -> bool:
        """True once this side holds the whole final deck (seat 0: the rest has come)."""
        return self.final is not None and len(self.final) == DECK_SIZE

    # --- openings -------------------------------------------------------------------------

    def share(self, position: int) -> str:
        """What the other side needs to read the card at ``position`` (this side's part off)."""
        self.shared.append(position)
        if self.seat == 1:
            return hexlify(self._key(position).to_bytes(SCALAR_BYTES, "little")).decode("ascii")
        unlocked = ristretto.mul(self._unlock(), self.final[position])
        return hexlify(ristretto.encode(unlocked)).decode("ascii")

    def read(self, position: int, share: object) -> int:
        """The card at ``position``, from the other side's opening; SealError if none is there."""
        data = _hex_bytes(share, self.other)
        if self.seat == 0:
            key = int.from_bytes(data, "little")
            if not 0 < key < ristretto.ORDER:
                raise SealError(f"{self.other}'s opening of a card is not a key.")
            point = ristretto.mul(self._unlock() * ristretto.inverse_scalar(key) % ristretto.ORDER,
                                  self.final[position])
        else:
            try:
                unlocked = ristretto.decode(data)
            except ValueError:
                raise SealError(f"{self.other}'s opening of a card is not a sealed card.") from None
            self.invert_keys([position])
            point = ristretto.mul(self._inverses[position], unlocked)
        card = ristretto.card_of(point)
        if card is None:
            raise SealError(f"{self.other}'s opening of position {position + 1} is not a card.")
        self.read_cards[position] = card
        return card

    def read_own(self, position: int, index: object) -> int:
        """Seat 0: its own card at ``position``, which seat 1 opened as the ``index`` of seat 0's
        deck it holds (``own_index``); SealError if that is no card of the deck or one read before."""
        assert self.seat == 0 and self._order is not None
        if type(index) is not int or not 0 <= index < DECK_SIZE:
            raise SealError(f"{self.other}'s opening of position {position + 1} is not a card.")
        card = self._order[index]
        if card in self.read_cards.values():
            raise SealError(f"{self.other} opened the same card twice.")
        self.read_cards[position] = card
        return card

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
            sent = ristretto.mul_sum([(w, self._first_point(i)) for i, w in enumerate(weights)])
            made = ristretto.mul(lock_of(their_seed), ristretto.mul_sum(
                [(w, ristretto.CARD_POINTS[c]) for w, c in zip(weights, order)]))
            joint = fairdeal.joint_seed(their_seed, self.seed)
        else:
            sent = ristretto.mul_sum([(w, self.final[j]) for j, w in enumerate(weights)])
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
