"""Fair deals: a seed committed by its SHA-256 before the deal, a deck anyone can rebuild from it.

The algorithm, exactly (any implementation that follows it gets the same cards):

1. Seed: 16 bytes from a cryptographic source, written as 32 lowercase hex digits. Surrounding whitespace
   and uppercase digits are accepted on input and normalised to lowercase.
2. Commitment: SHA-256 of the ASCII text of those 32 hex digits, as 64 lowercase hex digits,
   so ``printf %s SEED | sha256sum`` reproduces it.
3. Generator: sfc32 with a, b, c, d = the seed's four 32-bit big-endian words in order
   (hex digits 1-8, 9-16, 17-24, 25-32); the first 12 outputs are discarded. One step, all
   arithmetic mod 2**32: t = a + b + d; d = d + 1; a = b xor (b >> 9); b = c + (c << 3);
   c = (c << 21) | (c >> 11); c = c + t; the output is t.
4. Start order: clubs, diamonds, hearts, spades, each A 2 ... 10 J Q K (position 0 = A♣,
   position 51 = K♠), which is the engine's card numbering.
5. Shuffle: Fisher-Yates for i = 51 down to 1: draw j uniformly from 0..i by rejection
   (n = i + 1, limit = 2**32 - (2**32 mod n); draw outputs until one, r, is below limit;
   j = r mod n), then swap positions i and j.
6. Deal: hands in seat order from the dealer's left, the dealer last, then any card dealt
   straight to the crib, then the starter. Two players: shuffled positions 1-6 (one-based) are
   the pone's hand, 7-12 the dealer's, 13 the starter. Three players: 5 cards each, one to the
   crib, then the starter (position 17). Four players: 5 cards each, then the starter (21).
   Seats are numbered 0..players-1 going to the left, so the dealer's left is seat dealer + 1.

A joint seed ``"<seed>:<seed>"`` (two seeds of 32 hex digits, one from each player of a sealed
friend game, ``engine/sealed.py``) deals the deck the two shuffles make together: position j
holds ``shuffled_deck(first)[shuffled_deck(second)[j]]``. Its commitment is the two seeds'
commitments joined the same way, and the deal follows step 6 as for any seed.

The cut for the first deal (``cut_for_deal``) is drawn from the shuffled deck of its own seed,
read from the top: seat 0 takes the card at position 1, seat 1 the card at position 2, and so
on, one card per seat. The lowest rank deals (ace low; suits do not matter). If two or more
seats tie for the lowest rank, those seats alone cut again, in seat order, taking the next
unused positions, until one seat is lowest. (Should ties use up all 52 cards, which needs every
round to tie, the first of the seats still tied deals.) Use a fresh seed for the cut, committed
before the cut like any other, rather than the seed of the first hand.

>>> seed = "000102030405060708090a0b0c0d0e0f"
>>> verify(seed, commitment(seed)), len(shuffled_deck(seed)), sorted(shuffled_deck(seed)) == list(range(52))
(True, 52, True)
>>> d = deal(seed)
>>> d.hands[1] == d.deck[0:6], d.hands[0] == d.deck[6:12], d.starter == d.deck[12]
(True, True, True)
"""

from collections import namedtuple

from engine.cards import RANK_OF, card_name
from engine.compat import sha256_hex
from engine.messages import quoted

SEED_BYTES = 16
SEED_HEX_DIGITS = 2 * SEED_BYTES
DISCARDED_OUTPUTS = 12
DECK_SIZE = 52
# players -> (cards dealt to each seat, cards dealt straight to the crib)
DEAL_SIZES: dict[int, tuple[int, int]] = {2: (6, 0), 3: (5, 1), 4: (5, 0)}

_MASK = 0xFFFFFFFF
_HEX_DIGITS = frozenset("0123456789abcdef")
JOINT = ":"  # joins the two seeds of a joint seed, and their commitments


_SEED_SOURCE = []  # the source of random bytes set by use_seed_source, if any


def use_seed_source(random_bytes) -> None:
    """Take fresh seeds from ``random_bytes(n)``, which must return n bytes from a cryptographic
    source (the browser's worker passes the page's ``crypto.getRandomValues``); None goes back to
    the operating system's source."""
    _SEED_SOURCE.clear()
    if random_bytes is not None:
        _SEED_SOURCE.append(random_bytes)


def _system_random_bytes(n: int) -> bytes:
    import os  # the operating system's cryptographic source (what ``secrets`` uses)

    urandom = getattr(os, "urandom", None)
    if urandom is None:
        raise RuntimeError("no source of secure random numbers here: call fairdeal.use_seed_source first")
    return urandom(n)


def new_seed() -> str:
    """Return a fresh seed: 16 bytes from a cryptographic source as 32 lowercase hex digits.

    The source is the one given to ``use_seed_source``, else the operating system's; never a
    generator that could be predicted.
    """
    source = _SEED_SOURCE[0] if _SEED_SOURCE else _system_random_bytes
    data = bytes(source(SEED_BYTES))
    if len(data) != SEED_BYTES:
        raise RuntimeError(f"the seed source gave {len(data)} bytes, not {SEED_BYTES}")
    return "".join("%02x" % b for b in data)


def parse_seed(text: str) -> str:
    """Check a seed (or a joint seed) and normalise it (strip whitespace, lowercase); ValueError
    if it is not one.

    >>> parse_seed("  000102030405060708090A0B0C0D0E0F\\n")
    '000102030405060708090a0b0c0d0e0f'
    >>> parse_seed("0" * 32 + ":" + "1" * 32) == "0" * 32 + ":" + "1" * 32
    True
    """
    if not isinstance(text, str):
        raise ValueError(f"a seed is text of {SEED_HEX_DIGITS} hex digits, not {type(text).__name__}")
    if JOINT in text:
        parts = text.strip().split(JOINT)
        if len(parts) != 2:
            raise ValueError("a joint seed is two seeds joined by one colon")
        return _parse_one(parts[0]) + JOINT + _parse_one(parts[1])
    return _parse_one(text)


def _parse_one(text: str) -> str:
    seed = text.strip().lower()
    bad = next((ch for ch in seed if ch not in _HEX_DIGITS), None)
    if bad is not None:
        raise ValueError(f"a seed has hex digits only (0-9, a-f); {quoted(bad)} is not one")
    if len(seed) != SEED_HEX_DIGITS:
        raise ValueError(f"a seed has {SEED_HEX_DIGITS} hex digits; this one has {len(seed)}")
    return seed


def is_normal_seed(text: object) -> bool:
    """True for a seed in normal form: exactly 32 lowercase hex digits.

    >>> is_normal_seed("0" * 32), is_normal_seed("0" * 31 + "A")
    (True, False)
    """
    return (isinstance(text, str) and len(text) == SEED_HEX_DIGITS
            and all(ch in _HEX_DIGITS for ch in text))


def commitment(seed: str) -> str:
    """Return the commitment: SHA-256 of the seed's 32 hex digits (ASCII), as 64 hex digits (a
    joint seed's is its two seeds' commitments joined by a colon).

    >>> commitment("00000000000000000000000000000000")[:16]
    '84e0c0eafaa95a34'
    """
    return JOINT.join(sha256_hex(part.encode("ascii")) for part in parse_seed(seed).split(JOINT))


def joint_seed(first: str, second: str) -> str:
    """The joint seed of two players' seeds (see the module docstring); ValueError if either is
    not a seed."""
    return JOINT.join((_parse_one(first), _parse_one(second)))


COMMITMENT_HEX_DIGITS = 64


def parse_commitment(text: str) -> str:
    """Check a commitment (or a joint seed's) and normalise it (strip whitespace, lowercase);
    ValueError if it is not 64 hex digits (or two such joined by a colon).

    >>> parse_commitment(" " + "AB" * 32)[:4]
    'abab'
    """
    if not isinstance(text, str):
        raise ValueError(f"a commitment is text of {COMMITMENT_HEX_DIGITS} hex digits")
    parts = text.strip().split(JOINT)
    if len(parts) == 2:
        return _parse_one_commitment(parts[0]) + JOINT + _parse_one_commitment(parts[1])
    return _parse_one_commitment(text)


def _parse_one_commitment(text: str) -> str:
    value = text.strip().lower()
    bad = next((ch for ch in value if ch not in _HEX_DIGITS), None)
    if bad is not None:
        raise ValueError(f"a commitment has hex digits only (0-9, a-f); {quoted(bad)} is not one")
    if len(value) != COMMITMENT_HEX_DIGITS:
        raise ValueError(f"a commitment has {COMMITMENT_HEX_DIGITS} hex digits; this one has {len(value)}")
    return value


def verify(seed: str, commitment_hex: str) -> bool:
    """Tell whether a revealed seed matches a commitment shown before the deal."""
    expected = commitment(seed)
    if not isinstance(commitment_hex, str):
        return False
    return commitment_hex.strip().lower() == expected


class Sfc32:
    """The sfc32 generator keyed by a seed, with the first 12 outputs already discarded."""

    __slots__ = ("a", "b", "c", "d")

    def __init__(self, seed: str) -> None:
        """Start from the seed's four big-endian 32-bit words."""
        s = _parse_one(seed)
        self.a, self.b, self.c, self.d = (int(s[i:i + 8], 16) for i in range(0, 32, 8))
        for _ in range(DISCARDED_OUTPUTS):
            self.next_u32()

    def next_u32(self) -> int:
        """Return the next 32-bit output."""
        a, b, c, d = self.a, self.b, self.c, self.d
        t = (a + b + d) & _MASK
        self.d = (d + 1) & _MASK
        self.a = b ^ (b >> 9)
        self.b = (c + (c << 3)) & _MASK
        c = ((c << 21) | (c >> 11)) & _MASK
        self.c = (c + t) & _MASK
        return t

    def below(self, n: int) -> int:
        """Return an int uniform in 0..n-1, by rejection so that no value is favoured."""
        limit = 2**32 - (2**32 % n)
        r = self.next_u32()
        while r >= limit:
            r = self.next_u32()
        return r % n

    def random(self) -> float:
        """Return a float in [0, 1) with 32 random bits (the same in every interpreter)."""
        return self.next_u32() / 4294967296.0

    def choice(self, items):
        """Return one item of a non-empty sequence, each equally likely."""
        if not items:
            raise ValueError("cannot choose from an empty sequence")
        return items[self.below(len(items))]


def keyed_generator(key: str) -> Sfc32:
    """An sfc32 generator seeded by a text key (the first 32 hex digits of its SHA-256).

    The computer opponents draw their few random choices from one of these, keyed by their seed
    and what they can see, so a seed fixes every choice in CPython and MicroPython alike.

    >>> keyed_generator("easy|1").below(100) == keyed_generator("easy|1").below(100)
    True
    """
    return Sfc32(sha256_hex(key)[:SEED_HEX_DIGITS])


def shuffled_deck(seed: str) -> list[int]:
    """Return the 52 cards in their shuffled order for a seed or a joint seed (position 0 is
    dealt first).

    >>> a, b = "0" * 32, "1" * 32
    >>> shuffled_deck(a + ":" + b) == [shuffled_deck(a)[i] for i in shuffled_deck(b)]
    True
    """
    seed = parse_seed(seed)
    if JOINT in seed:
        first, second = seed.split(JOINT)
        order = shuffled_deck(first)
        return [order[i] for i in shuffled_deck(second)]
    rng = Sfc32(seed)
    deck = list(range(DECK_SIZE))
    for i in range(DECK_SIZE - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


class Deal(namedtuple("Deal", "hands crib starter deck seed players dealer")):
    """One hand's deal: hands by seat, cards dealt to the crib, the starter, the whole deck.

    Fields: hands (list of card lists, indexed by seat), crib (cards dealt straight to the
    crib), starter, deck (the 52 shuffled cards), seed, players, dealer.
    """

    __slots__ = ()

    def to_dict(self) -> dict:
        """Return a JSON-ready dict of the deal, with the commitment."""
        return {
            "seed": self.seed,
            "commitment": commitment(self.seed) if self.seed else "",
            "players": self.players,
            "dealer": self.dealer,
            "hands": [list(h) for h in self.hands],
            "crib": list(self.crib),
            "starter": self.starter,
            "deck": list(self.deck),
        }


def _check_table(players: int, dealer: int) -> tuple[int, int]:
    if players not in DEAL_SIZES:
        raise ValueError(f"deals are for {', '.join(map(str, sorted(DEAL_SIZES)))} players, not {quoted(players)}")
    if not (type(dealer) is int and 0 <= dealer < players):
        raise ValueError(f"the dealer must be a seat from 0 to {players - 1}, not {quoted(dealer)}")
    return DEAL_SIZES[players]


def deal_seats(players: int = 2, dealer: int = 0) -> list[int]:
    """Return the seats in the order their hands are dealt: from the dealer's left, dealer last.

    >>> deal_seats(2, 0), deal_seats(3, 1)
    ([1, 0], [2, 0, 1])
    """
    _check_table(players, dealer)
    return [(dealer + k) % players for k in range(1, players + 1)]


def deal(seed: str, players: int = 2, dealer: int = 0) -> Deal:
    """Deal one hand from a seed: hands by seat, crib cards, starter (see the module docstring)."""
    each, to_crib = _check_table(players, dealer)
    seed = parse_seed(seed)
    deck = shuffled_deck(seed)
    hands: list[list[int]] = [[] for _ in range(players)]
    pos = 0
    for seat in deal_seats(players, dealer):
        hands[seat] = deck[pos:pos + each]
        pos += each
    crib = deck[pos:pos + to_crib]
    pos += to_crib
    return Deal(hands, crib, deck[pos], deck, seed, players, dealer)


def deal_owners(players: int = 2, dealer: int = 0) -> list[str]:
    """Return 52 labels saying whose each shuffled position was: pone/dealer (or "seat N"),
    crib, starter, rest.

    >>> owners = deal_owners()
    >>> owners[0], owners[6], owners[12], owners[13], len(owners)
    ('pone', 'dealer', 'starter', 'rest', 52)
    """
    each, to_crib = _check_table(players, dealer)
    labels: list[str] = []
    for seat in deal_seats(players, dealer):
        if seat == dealer:
            label = "dealer"
        else:
            label = "pone" if players == 2 else f"seat {seat}"
        labels += [label] * each
    labels += ["crib"] * to_crib + ["starter"]
    return labels + ["rest"] * (DECK_SIZE - len(labels))


class CutResult(namedtuple("CutResult", "cuts dealer")):
    """The cut for the first deal: cuts, the (seat, card) pairs in the order cut (the i-th
    from shuffled position i + 1), and dealer, the seat that deals."""

    __slots__ = ()

    def to_dict(self) -> dict:
        """Return a JSON-ready dict: cuts as {position, seat, card, name}, and the dealer."""
        return {
            "cuts": [{"position": i + 1, "seat": seat, "card": card, "name": card_name(card)}
                     for i, (seat, card) in enumerate(self.cuts)],
            "dealer": self.dealer,
        }


def cut_for_deal(seed: str, players: int = 2) -> CutResult:
    """Cut for the first deal from a seed's shuffled deck; the lowest rank deals, ties cut again.

    >>> result = cut_for_deal("000102030405060708090a0b0c0d0e0f")
    >>> [seat for seat, _ in result.cuts[:2]], result.dealer in (0, 1)
    ([0, 1], True)
    """
    _check_table(players, 0)
    deck = shuffled_deck(seed)
    cuts: list[tuple[int, int]] = []
    pos = 0
    tied = list(range(players))
    while len(tied) > 1 and pos + len(tied) <= DECK_SIZE:
        round_cuts = [(seat, deck[pos + k]) for k, seat in enumerate(tied)]
        pos += len(tied)
        cuts += round_cuts
        low = min(RANK_OF[card] for _, card in round_cuts)
        tied = [seat for seat, card in round_cuts if RANK_OF[card] == low]
    return CutResult(cuts, tied[0])
