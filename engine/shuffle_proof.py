"""The proof that a locked deck holds the 52 cards, each once, all under one lock: made by the side that shuffles first.

Seat 0 of a sealed hand (``engine/sealed.py``) sends its deck ``F_i = x * C[order[i]]`` (``C``:
the card points, ``order``: its shuffle, ``x``: its lock) with ``U = x^-1 * B``. Seat 1 reads its
own six cards through that deck, so a deck with a card locked otherwise (or a point that is no
card, or a card twice) would make seat 1's reading fail exactly when it holds that card: seat 0
could learn from whether seat 1 goes on. This proof shows, before seat 1 acts on any card it
reads, that every ``x^-1 * F_i`` is a card and each card is there once, and tells nothing of
``order`` or ``x``. A deck it does not hold for fails whatever cards seat 1 holds.

It is a proof of a shuffle of known content, built as Terelius and Wikström's proof of a shuffle
is: a commitment to the permutation matrix, column by column, and one Schnorr-style proof of
what the columns hold, made non-interactive with SHA-256 (Fiat-Shamir). With ``N`` = 52, ``B`` the
group's base, ``H_0 .. H_N-1`` and ``h`` points of unknown logarithm (``generators``):

1. for each card ``j``, the column ``u_j = r_j * B + H_p`` where ``p`` is the position of card
   ``j`` in the deck;
2. challenges ``e_j`` (128 bits, from the deck, ``U`` and the columns), and ``e'_i = e[order[i]]``,
   which ``sum_j e_j * u_j`` commits to; then a chain ``c_0 = h``,
   ``c_i = s_i * B + e'_i * c_(i-1)``, which ends at ``(prod e_j) * h`` plus a multiple of ``B``;
3. a proof of knowledge, one challenge for all, that: the columns sum to ``sum H_i`` plus a
   multiple of ``B`` (each row of the matrix sums to one); the chain multiplies the values
   ``sum_j e_j * u_j`` commits to and ends at ``prod e_j``; ``sum e'_i * F_i = x * sum e_j * C_j``
   and ``x * U = B``. The first two make the matrix a permutation; the third, for challenges
   drawn after the deck, makes ``x^-1 * F_i = C[order[i]]`` at every position.

The checking side verifies all its equations in one weighted sum (``ristretto.mul_sum``), the
weights drawn from its own secret seed, which the prover does not know.

>>> from engine import fairdeal
>>> order = fairdeal.shuffled_deck("5" * 32)
>>> lock = 12345
>>> deck = [ristretto.mul(lock, ristretto.CARD_POINTS[c]) for c in order]
>>> unlock = ristretto.mul(ristretto.inverse_scalar(lock), ristretto.BASE)
>>> proof = prove(lambda label: sum(ord(ch) * 31 ** k for k, ch in enumerate(label)), lock, order, deck, unlock)
>>> holds(deck, unlock, proof, "6" * 32)
True
>>> holds(deck[1:] + deck[:1], unlock, proof, "6" * 32)
False
"""

from hashlib import sha256
from binascii import hexlify, unhexlify

from engine import ristretto
from engine.fairdeal import DECK_SIZE

N = DECK_SIZE
POINT_HEX = 64
POINTS = 3 * N + 5  # the columns, the chain, the chain's commitments and five more
SCALARS = 2 * N + 4
PROOF_HEX = (POINTS + SCALARS) * POINT_HEX
"""Characters of a proof's text (hex): points, then scalars."""
CHALLENGE_BYTES = 16
_GENERATORS: list = []  # H_0 .. H_N-1, then h: made on first use


def generators() -> list:
    """``H_0 .. H_N-1`` and ``h``: points from SHA-256 of a label (two digests, 64 bytes,
    ``ristretto.from_uniform_bytes``), whose logarithms no one knows."""
    if not _GENERATORS:
        for i in range(N + 1):
            label = b"cribbage shuffle generator %d" % i
            data = sha256(label + b":0").digest() + sha256(label + b":1").digest()
            _GENERATORS.append(ristretto.from_uniform_bytes(data))
    return _GENERATORS


def _hex(point) -> str:
    return hexlify(ristretto.encode(point)).decode("ascii")


def _scalar_hex(value: int) -> str:
    return hexlify((value % ristretto.ORDER).to_bytes(32, "little")).decode("ascii")


def _hash_scalar(parts: list, index: int = 0) -> int:
    """A 128-bit challenge from texts (and an index), never zero."""
    digest = sha256(b"cribbage shuffle proof:%d" % index)
    for part in parts:
        digest.update(part.encode("ascii"))
    return int.from_bytes(digest.digest()[:CHALLENGE_BYTES], "little") | 1


def _card_challenges(deck_texts: list, unlock_text: str, column_texts: list) -> list:
    seed = hexlify(sha256("".join([unlock_text] + deck_texts + column_texts).encode("ascii")).digest()).decode("ascii")
    return [_hash_scalar([seed], j) for j in range(N)]


def _product(values: list) -> int:
    out = 1
    for value in values:
        out = out * value % ristretto.ORDER
    return out


STEP_MULTIPLIES = 8
"""Multiplications a step of ``proving`` does at most: a move asked of the worker meanwhile
waits for one step only."""


def prove(nonce, lock: int, order: list, deck: list, unlock, texts: "tuple | None" = None) -> str:
    """The proof (hex) that ``deck[i] = lock * C[order[i]]`` for ``unlock = lock^-1 * B``;
    ``nonce(label)``: a secret scalar for each label (the prover's own, from its secret seed);
    ``texts``: the deck's points and ``unlock`` as hex, if the caller has them (else encoded here)."""
    for text in proving(nonce, lock, order, deck, unlock, texts):
        if text is not None:
            return text
    raise ValueError("the proof was not finished")


def _texts(deck: list, unlock, texts: "tuple | None") -> tuple:
    """The deck's points and ``unlock`` as hex: ``texts`` if given, else encoded (each point's
    encoding is one, so texts received for these points are the same)."""
    return texts if texts is not None else ([_hex(p) for p in deck], _hex(unlock))


def proving(nonce, lock: int, order: list, deck: list, unlock, texts: "tuple | None" = None):
    """``prove`` in steps: yields None after each step of at most ``STEP_MULTIPLIES``
    multiplications, then the proof."""
    order_ = ristretto.ORDER
    gens = generators()
    base = ristretto.BASE
    deck_texts, unlock_text = _texts(deck, unlock, texts)
    where = [0] * N
    for i, card in enumerate(order):
        where[card] = i
    blinds = [nonce("column:%d" % j) for j in range(N)]
    columns = []
    for j in range(N):
        columns.append(ristretto.add(ristretto.mul(blinds[j], base), gens[where[j]]))
        if j % (2 * STEP_MULTIPLIES) == 2 * STEP_MULTIPLIES - 1:  # multiples of B are cheaper
            yield None
    column_texts = [_hex(p) for p in columns]
    e = _card_challenges(deck_texts, unlock_text, column_texts)
    e_at = [e[card] for card in order]  # e'_i
    chain_blinds = [nonce("chain:%d" % i) for i in range(N)]
    chain, links, last = [], [], gens[N]
    folded = 0  # the chain's multiple of B so far
    w_at = [nonce("w':%d" % i) for i in range(N)]
    w_chain = [nonce("w^:%d" % i) for i in range(N)]
    for i in range(N):  # multiples of B from its table; e'_i has 128 bits: half a multiplication
        links.append(ristretto.add(ristretto.mul(w_chain[i], base), ristretto.mul(w_at[i], last)))
        last = ristretto.add(ristretto.mul(chain_blinds[i], base), ristretto.mul(e_at[i], last))
        chain.append(last)
        folded = (chain_blinds[i] + e_at[i] * folded) % order_
        if i % (STEP_MULTIPLIES // 4) == STEP_MULTIPLIES // 4 - 1:
            yield None
    w1, w2, w3, w4 = (nonce(label) for label in ("w1", "w2", "w3", "w4"))
    total = sum(blinds) % order_
    weighted = sum(e[j] * blinds[j] for j in range(N)) % order_
    cards = ristretto.CARD_POINTS
    sum_e = ristretto.mul_sum([(e[j], cards[j]) for j in range(N)])
    yield None
    t1 = ristretto.mul(w1, base)
    t2 = ristretto.mul_sum([(w2, base)] + [(w_at[i], gens[i]) for i in range(N)])
    yield None
    t3 = ristretto.mul(w3, base)
    t4 = ristretto.mul_sum([(w_at[i], deck[i]) for i in range(N)] + [(order_ - w4, sum_e)])
    yield None
    t5 = ristretto.mul(w4, unlock)
    points = columns + chain + links + [t1, t2, t3, t4, t5]
    texts = [_hex(p) for p in points]
    c = _hash_scalar([unlock_text] + deck_texts + texts)
    scalars = [w1 + c * total, w2 + c * weighted] + [w_at[i] + c * e_at[i] for i in range(N)] \
        + [w_chain[i] + c * chain_blinds[i] for i in range(N)] + [w3 + c * folded, w4 + c * lock]
    yield "".join(texts) + "".join(_scalar_hex(k) for k in scalars)


def holds(deck: list, unlock, proof: object, seed: str, given: "tuple | None" = None) -> bool:
    """Whether ``proof`` shows that the points of ``deck`` are the 52 cards, each once, under the
    one lock whose inverse times B is ``unlock``; ``seed``: the checking side's own secret, from
    which the weights of its single check are drawn; ``given``: the texts of ``deck`` and
    ``unlock``, as for ``prove``."""
    if not isinstance(proof, str) or len(proof) != PROOF_HEX or len(deck) != N:
        return False
    order_ = ristretto.ORDER
    try:
        texts = [proof[k:k + POINT_HEX] for k in range(0, POINTS * POINT_HEX, POINT_HEX)]
        points = [ristretto.decode(unhexlify(t)) for t in texts]
        scalars = [int.from_bytes(unhexlify(proof[k:k + POINT_HEX]), "little")
                   for k in range(POINTS * POINT_HEX, PROOF_HEX, POINT_HEX)]
    except ValueError:
        return False
    if any(k >= order_ for k in scalars):
        return False
    columns, chain, links = points[:N], points[N:2 * N], points[2 * N:3 * N]
    t1, t2, t3, t4, t5 = points[3 * N:]
    k1, k2 = scalars[0], scalars[1]
    k_at, k_chain = scalars[2:2 + N], scalars[2 + N:2 + 2 * N]
    k3, k4 = scalars[2 + 2 * N], scalars[3 + 2 * N]
    deck_texts, unlock_text = _texts(deck, unlock, given)
    e = _card_challenges(deck_texts, unlock_text, texts[:N])
    c = _hash_scalar([unlock_text] + deck_texts + texts)
    gens, base, cards = generators(), ristretto.BASE, ristretto.CARD_POINTS
    beta = [int.from_bytes(sha256(("%s:shuffle check:%d" % (seed, k)).encode("ascii")).digest()[:8], "little") | 1
            for k in range(N + 5)]
    b1, b2, b4, b5, b6 = beta[N:]
    pairs = []

    def put(weight, point):
        pairs.append((weight % order_, point))

    # V1: k1*B - t1 - c*(sum u_j - sum H_i) = 0
    # V2: k2*B + sum k'_i*H_i - t2 - c*sum e_j*u_j = 0
    # V3_i: k^_i*B + k'_i*chain_(i-1) - link_i - c*chain_i = 0
    # V4: k3*B - t3 - c*chain_N + c*(prod e)*h = 0
    # V5: sum k'_i*F_i - k4*sum e_j*C_j - t4 = 0
    # V6: k4*U - t5 - c*B = 0
    b_coeff = b1 * k1 + b2 * k2 + sum(beta[i] * k_chain[i] for i in range(N)) + b4 * k3 - b6 * c
    put(b_coeff, base)
    put(-b1, t1)
    put(-b2, t2)
    put(-b4, t3)
    put(-b5, t4)
    put(-b6, t5)
    put(b6 * k4, unlock)
    for j in range(N):
        put(-b1 * c - b2 * c * e[j], columns[j])
        put(b1 * c + b2 * k_at[j], gens[j])
        put(-b5 * k4 * e[j], cards[j])
        put(b5 * k_at[j], deck[j])
        put(-beta[j], links[j])
    # chain: chain_(i-1) gets beta_i*k'_i (chain_-1 is h), chain_i gets -beta_i*c
    put(beta[0] * k_at[0] + b4 * c * _product(e), gens[N])
    for i in range(N):
        weight = -beta[i] * c
        if i + 1 < N:
            weight += beta[i + 1] * k_at[i + 1]
        else:
            weight -= b4 * c
        put(weight, chain[i])
    return ristretto.equal(ristretto.mul_sum(pairs), ristretto.IDENTITY)
