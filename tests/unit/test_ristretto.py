"""ristretto255 (engine/ristretto.py): RFC 9496's test vectors, the group laws, decoding and the card points."""

import hashlib
import random

import pytest

from engine import card_points, ristretto as r
from engine.ristretto import (
    BASE, IDENTITY, ORDER, P, add, card_of, decode, encode, equal, from_uniform_bytes, inverse_scalar, mul,
    neg, scalar_from_bytes,
)

# RFC 9496, Appendix A.1: the encodings of 0*B, 1*B, ..., 15*B.
MULTIPLES = [
    "0000000000000000000000000000000000000000000000000000000000000000",
    "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76",
    "6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919",
    "94741f5d5d52755ece4f23f044ee27d5d1ea1e2bd196b462166b16152a9d0259",
    "da80862773358b466ffadfe0b3293ab3d9fd53c5ea6c955358f568322daf6a57",
    "e882b131016b52c1d3337080187cf768423efccbb517bb495ab812c4160ff44e",
    "f64746d3c92b13050ed8d80236a7f0007c3b3f962f5ba793d19a601ebb1df403",
    "44f53520926ec81fbd5a387845beb7df85a96a24ece18738bdcfa6a7822a176d",
    "903293d8f2287ebe10e2374dc1a53e0bc887e592699f02d077d5263cdd55601c",
    "02622ace8f7303a31cafc63f8fc48fdc16e1c8c8d234b2f0d6685282a9076031",
    "20706fd788b2720a1ed2a5dad4952b01f413bcf0e7564de8cdc816689e2db95f",
    "bce83f8ba5dd2fa572864c24ba1810f9522bc6004afe95877ac73241cafdab42",
    "e4549ee16b9aa03099ca208c67adafcafa4c3f3e4e5303de6026e3ca8ff84460",
    "aa52e000df2e16f55fb1032fc33bc42742dad6bd5a8fc0be0167436c5948501f",
    "46376b80f409b29dc2b5f6f0c52591990896e5716f41477cd30085ab7f10301e",
    "e0c418f7c8d9c4cdd7395b93ea124f3ad99021bb681dfc3302a9d99a2e53e64e",
]

# RFC 9496, Appendix A.2: encodings every decoder must reject.
NON_CANONICAL = [
    "00ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "f3ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "0100000000000000000000000000000000000000000000000000000000000080",
]
NEGATIVE = [
    "0100000000000000000000000000000000000000000000000000000000000000",
    "01ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "ed57ffd8c914fb201471d1c3d245ce3c746fcbe63a3679d51b6a516ebebe0e20",
    "c34c4e1826e5d403b78e246e88aa051c36ccf0aafebffe137d148a2bf9104562",
    "c940e5a4404157cfb1628b108db051a8d439e1a421394ec4ebccb9ec92a8ac78",
    "47cfc5497c53dc8e61c91d17fd626ffb1c49e2bca94eed052281b510b1117a24",
    "f1c6165d33367351b0da8f6e4511010c68174a03b6581212c71c0e1d026c3c72",
    "87260f7a2f12495118360f02c26a470f450dadf34a413d21042b43b9d93e1309",
]
NON_SQUARE_X2 = [
    "26948d35ca62e643e26a83177332e6b6afeb9d08e4268b650f1f5bbd8d81d371",
    "4eac077a713c57b4f4397629a4145982c661f48044dd3f96427d40b147d9742f",
    "de6a7b00deadc788eb6b6c8d20c0ae96c2f2019078fa604fee5b87d6e989ad7b",
    "bcab477be20861e01e4a0e295284146a510150d9817763caf1a6f4b422d67042",
    "2a292df7e32cababbd9de088d1d1abec9fc0440f637ed2fba145094dc14bea08",
    "f4a9e534fc0d216c44b218fa0c42d99635a0127ee2e53c712f70609649fdff22",
    "8268436f8c4126196cf64b3c7ddbda90746a378625f9813dd9b8457077256731",
    "2810e5cbc2cc4d4eece54f61c6f69758e289aa7ab440b3cbeaa21995c2f4232b",
]
NEGATIVE_XY = [
    "3eb858e78f5a7254d8c9731174a94f76755fd3941c0ac93735c07ba14579630e",
    "a45fdc55c76448c049a1ab33f17023edfb2be3581e9c7aade8a6125215e04220",
    "d483fe813c6ba647ebbfd3ec41adca1c6130c2beeee9d9bf065c8d151c5f396e",
    "8a2e1d30050198c65a54483123960ccc38aef6848e1ec8f5f780e8523769ba32",
    "32888462f8b486c68ad7dd9610be5192bbeaf3b443951ac1a8118419d9fa097b",
    "227142501b9d4355ccba290404bde41575b037693cef1f438c47f8fbf35d1165",
    "5c37cc491da847cfeb9281d407efc41e15144c876e0170b499a96a22ed31e01e",
    "445425117cb8c90edcbc7c1cc0e74f747f2c1efa5630a967c64f287792a48a4b",
]
S_MINUS_ONE = ["ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"]

# RFC 9496, Appendix A.3: from_uniform_bytes(SHA-512(label)).
UNIFORM = [
    ("Ristretto is traditionally a short shot of espresso coffee",
     "3066f82a1a747d45120d1740f14358531a8f04bbffe6a819f86dfe50f44a0a46"),
    ("made with the normal amount of ground coffee but extracted with",
     "f26e5b6f7d362d2d2a94c5d0e7602cb4773c95a2e5c31a64f133189fa76ed61b"),
    ("about half the amount of water in the same amount of time",
     "006ccd2a9e6867e6a2c5cea83d3302cc9de128dd2a9a57dd8ee7b9d7ffe02826"),
    ("by using a finer grind.",
     "f8f0c87cf237953c5890aec3998169005dae3eca1fbb04548c635953c817f92a"),
    ("This produces a concentrated shot of coffee per volume.",
     "ae81e7dedf20a497e10c304a765c1767a42d6e06029758d2d7e8ef7cc4c41179"),
    ("Just pulling a normal shot short will produce a weaker shot",
     "e2705652ff9f5e44d3e841bf1c251cf7dddb77d140870d1ab2ed64f1a9ce8628"),
    ("and is not a Ristretto as some believe.",
     "80bd07262511cdde4863f8a7434cef696750681cb9510eea557088f76d9e5065"),
]

TORSION_4 = (r.SQRT_M1, 0, 1, 0)  # (sqrt(-1), 0): a point of order 4, in every ristretto class's coset


def random_points(n, seed):
    rng = random.Random(seed)
    return [from_uniform_bytes(rng.randbytes(64)) for _ in range(n)]


def double_and_add(k, point):
    """k*point the slow way, with add alone."""
    result, k = IDENTITY, k % ORDER
    while k:
        if k & 1:
            result = add(result, point)
        point = add(point, point)
        k >>= 1
    return result


def test_constants():
    assert P == 2**255 - 19 and ORDER == 2**252 + 27742317777372353535851937790883648493
    d = r.D
    assert d * 121666 % P == -121665 % P
    assert r.SQRT_M1 ** 2 % P == P - 1 and r.SQRT_M1 % 2 == 0
    assert r.SQRT_AD_MINUS_ONE ** 2 % P == (-d - 1) % P
    assert r.INVSQRT_A_MINUS_D ** 2 * (-1 - d) % P == 1
    assert r.ONE_MINUS_D_SQ == (1 - d * d) % P and r.D_MINUS_ONE_SQ == (d - 1) ** 2 % P
    x, y, z, t = BASE
    assert (-x * x + y * y) % P == (1 + d * x * x * y * y) % P and x * y % P == t * z % P
    assert encode(IDENTITY) == bytes(32)


@pytest.mark.parametrize("k", range(16))
def test_multiples_of_the_generator(k):
    expected = bytes.fromhex(MULTIPLES[k])
    assert encode(mul(k, BASE)) == expected
    assert encode(double_and_add(k, BASE)) == expected
    point = decode(expected)
    assert equal(point, mul(k, BASE)) and encode(point) == expected


def test_multiples_by_repeated_addition():
    point = IDENTITY
    for expected in MULTIPLES:
        assert encode(point).hex() == expected
        point = add(point, BASE)


@pytest.mark.parametrize("text", NON_CANONICAL + NEGATIVE + NON_SQUARE_X2 + NEGATIVE_XY + S_MINUS_ONE)
def test_invalid_encodings_are_refused(text):
    with pytest.raises(ValueError):
        decode(bytes.fromhex(text))


def test_the_refusals_say_why():
    with pytest.raises(ValueError, match="32 bytes"):
        decode(bytes(31))
    with pytest.raises(ValueError, match="32 bytes"):
        decode(bytes(33))
    with pytest.raises(ValueError, match="32 bytes"):
        decode("00" * 32)
    for text in NON_CANONICAL + NEGATIVE:
        with pytest.raises(ValueError, match="non-canonical"):
            decode(bytes.fromhex(text))
    for text in NON_SQUARE_X2 + NEGATIVE_XY + S_MINUS_ONE:
        with pytest.raises(ValueError, match="invalid"):
            decode(bytes.fromhex(text))


def test_the_other_encoding_of_each_multiple_is_refused():
    """2P - s is even and congruent to -s, so only the check s < P refuses it."""
    for text in MULTIPLES[1:]:
        s = int.from_bytes(bytes.fromhex(text), "little")
        with pytest.raises(ValueError, match="non-canonical"):
            decode((2 * P - s).to_bytes(32, "little"))


@pytest.mark.parametrize("label, expected", UNIFORM)
def test_from_uniform_bytes_vectors(label, expected):
    assert encode(from_uniform_bytes(hashlib.sha512(label.encode()).digest())).hex() == expected


def test_from_uniform_bytes_takes_64_bytes():
    for data in (bytes(63), bytes(65), b"", "x" * 64):
        with pytest.raises(ValueError):
            from_uniform_bytes(data)
    assert encode(from_uniform_bytes(bytearray(64))) == encode(from_uniform_bytes(bytes(64)))


def test_group_laws():
    a, b, c = random_points(3, "laws")
    assert equal(add(add(a, b), c), add(a, add(b, c)))
    assert equal(add(a, b), add(b, a))
    assert equal(add(a, IDENTITY), a) and equal(add(IDENTITY, a), a)
    assert equal(add(a, neg(a)), IDENTITY) and encode(add(a, neg(a))) == bytes(32)
    assert equal(neg(neg(a)), a) and equal(neg(IDENTITY), IDENTITY)
    assert equal(add(a, a), mul(2, a))
    assert not equal(a, b) and not equal(a, IDENTITY)


def test_mul_distributes_and_composes():
    rng = random.Random("mul")
    point, other = random_points(2, "mul")
    for _ in range(5):
        x, y = rng.randrange(ORDER), rng.randrange(ORDER)
        assert equal(mul(x + y, point), add(mul(x, point), mul(y, point)))
        assert equal(mul(x, add(point, other)), add(mul(x, point), mul(x, other)))
        assert equal(mul(x, mul(y, point)), mul(x * y, point))
        assert equal(mul(-x, point), neg(mul(x, point)))


def test_mul_against_double_and_add():
    rng = random.Random("reference")
    point = random_points(1, "reference")[0]
    scalars = list(range(40)) + [2**252, ORDER - 1, ORDER - 8, ORDER + 5, -1, -ORDER, 16**63, 2**253 - 1]
    scalars += [rng.randrange(ORDER) for _ in range(10)] + [rng.randrange(-2**600, 2**600) for _ in range(3)]
    for k in scalars:
        assert encode(mul(k, point)) == encode(double_and_add(k, point)), k


def test_the_order_kills_every_point():
    for point in [BASE] + random_points(3, "order"):
        assert encode(mul(ORDER, point)) == bytes(32)
        assert equal(mul(ORDER + 1, point), point)
        assert equal(mul(0, point), IDENTITY) and mul(0, point) == IDENTITY
    assert equal(mul(12345, IDENTITY), IDENTITY)


def test_inverse_scalar():
    rng = random.Random("inverse")
    point = random_points(1, "inverse")[0]
    for k in [1, 2, ORDER - 1, -3] + [rng.randrange(1, ORDER) for _ in range(5)]:
        inverse = inverse_scalar(k)
        assert 0 < inverse < ORDER and k * inverse % ORDER == 1
        assert equal(mul(inverse, mul(k, point)), point)
    for k in (0, ORDER, -2 * ORDER):
        with pytest.raises(ValueError):
            inverse_scalar(k)


def test_scalar_from_bytes():
    rng = random.Random("scalars")
    assert scalar_from_bytes(b"") == 0 and scalar_from_bytes(b"\x05") == 5
    for n in (1, 31, 32, 33, 64, 100):
        data = rng.randbytes(n)
        assert scalar_from_bytes(data) == int.from_bytes(data, "little") % ORDER
    assert scalar_from_bytes(ORDER.to_bytes(32, "little")) == 0
    assert scalar_from_bytes(bytearray(b"\x07" * 64)) == scalar_from_bytes(b"\x07" * 64)


def test_equality_is_of_group_elements_not_coordinates():
    for point in [IDENTITY, BASE] + random_points(4, "equality"):
        x, y, z, t = point
        scaled = (x * 7 % P, y * 7 % P, z * 7 % P, t * 7 % P)
        shifted = add(point, TORSION_4)  # the same ristretto element, another curve point
        assert scaled != point and shifted != point
        for other in (scaled, shifted, add(shifted, TORSION_4)):
            assert equal(point, other) and encode(other) == encode(point)
        assert not equal(point, add(point, BASE))


def test_encode_decode_round_trip():
    for point in random_points(20, "round trip") + [mul(k, BASE) for k in (1, 2, ORDER - 1)]:
        data = encode(point)
        assert len(data) == 32 and isinstance(data, bytes)
        again = decode(data)
        assert equal(again, point) and encode(again) == data
        assert encode(decode(bytearray(data))) == data


def test_decode_fuzz():
    """Random bytes decode to a point whose encoding they are, or raise ValueError, nothing else."""
    rng = random.Random("fuzz")
    decoded = 0
    for _ in range(3000):
        data = rng.randbytes(32)
        try:
            point = decode(data)
        except ValueError:
            continue
        decoded += 1
        assert encode(point) == data
    assert 0 < decoded < 3000
    for _ in range(300):  # even, below P: only the curve checks refuse these
        s = rng.randrange(P) & ~1
        data = s.to_bytes(32, "little")
        try:
            assert encode(decode(data)) == data
        except ValueError:
            pass


def test_card_points():
    cards = r.CARD_POINTS
    assert isinstance(cards, tuple) and len(cards) == 52
    assert cards is r.CARD_POINTS
    encodings = [encode(c) for c in cards]
    assert len(set(encodings)) == 52 and bytes(32) not in encodings
    for i, card in enumerate(cards):
        expected = from_uniform_bytes(hashlib.sha512(b"cribbage card %d" % i).digest())
        assert encode(card) == encode(expected) and equal(card, expected)
        assert card_of(card) == i and card_of(expected) == i
        assert card_of(add(card, TORSION_4)) == i
        assert card_points.CARD_ENCODINGS[i] == encode(card).hex()
    assert card_of(BASE) is None and card_of(IDENTITY) is None
    assert card_of(mul(2, cards[0])) is None


def test_the_card_label():
    assert card_points.CARD_LABEL % 51 == b"cribbage card 51"


def test_mul_sum_is_the_sum_of_the_products():
    rng = random.Random(7)
    points = [r.mul(rng.randrange(1, r.ORDER), r.BASE) for _ in range(9)]
    for bits in (8, 64, 253):
        scalars = [rng.randrange(0, 2**bits) for _ in points]
        expected = r.IDENTITY
        for k, point in zip(scalars, points):
            expected = r.add(expected, r.mul(k, point))
        assert r.equal(r.mul_sum(list(zip(scalars, points))), expected)
    assert r.equal(r.mul_sum([]), r.IDENTITY)
    assert r.equal(r.mul_sum([(r.ORDER - 1, points[0]), (1, points[0])]), r.IDENTITY)


def test_a_decoding_with_its_root_is_the_decoding():
    """decoding_roots gives, for each point and its encoding, the root decode works out: decoding
    with it gives the same point; any other number, or a root with another encoding, is refused;
    the roots of the RFC's multiples of the generator (the identity's among them) too."""
    points = random_points(12, "roots") + [add(p, TORSION_4) for p in random_points(4, "roots torsion")]
    points += [decode(bytes.fromhex(h)) for h in MULTIPLES]
    scaled = [(x * 5 % P, y * 5 % P, z * 5 % P, t * 5 % P) for x, y, z, t in points[:4]]
    points += scaled
    encodings = [encode(p) for p in points]
    roots = r.decoding_roots(points, encodings)
    assert len(roots) == len(points)
    for point, data, root in zip(points, encodings, roots):
        assert decode(data, root) == decode(data) and equal(decode(data, root), point)
        for wrong in ((root + 2) % P, P - root, root + P, 0, -root, str(root)):
            with pytest.raises(ValueError):
                decode(data, wrong)
    with pytest.raises(ValueError):
        decode(encodings[1], roots[0])


def test_inverses_in_one_go_give_zero_for_zero():
    """_inverses: each nonzero value's inverse modulo P, 0 where the value is 0, in their order."""
    values = [0, 1, 2, P - 1, 0, 12345678901234567890, P - 19, 0]
    inverses = r._inverses(values)
    assert len(inverses) == len(values)
    for value, inverse in zip(values, inverses):
        assert (inverse == 0) if value == 0 else (value * inverse % P == 1)
    assert r._inverses([]) == [] and r._inverses([0, 0]) == [0, 0]


def test_cards_of_tells_each_card_point_and_nothing_else():
    """cards_of agrees with the encodings: every card point in any of its representations is its
    card; the other points (a card's negation, its double, the generator, random ones, a point
    whose key is undefined) are none. The keys kept are the card points' keys."""
    cards = list(r.CARD_POINTS)
    keys = r._keys(cards)
    assert [int.from_bytes(bytes.fromhex(k), "little") for k in card_points.CARD_KEYS] == keys
    assert len(set(keys)) == 52 and None not in keys
    assert r.cards_of(cards) == list(range(52)) and len(r._CARD_KEYS) == 52
    shifted = [add(add(c, TORSION_4), IDENTITY) for c in cards]
    assert r.cards_of(shifted[::-1]) == list(range(51, -1, -1))
    others = [neg(cards[3]), mul(2, cards[0]), BASE, IDENTITY] + random_points(8, "not cards")
    assert r.cards_of(others) == [None] * len(others)
    assert r.cards_of([]) == [] and r._keys([(1, r.SQRT_M1, 1, r.SQRT_M1)]) == [None]
    for point in random_points(6, "keys"):  # one element's representatives share its key; -P's is -k
        k = r._keys([point])[0]
        assert r._keys([add(point, TORSION_4), add(add(point, TORSION_4), TORSION_4), neg(point)]) == [k, k, P - k]
    encodings = {encode(c): i for i, c in enumerate(cards)}
    for point in random_points(6, "cards") + cards[:6]:
        assert card_of(point) == encodings.get(encode(point))


def test_the_generators_table_gives_the_same_multiples():
    """mul(k, BASE) comes from a fixed-base table (``_mul_base``); the same point given as another
    tuple takes the general path: both agree for edge and random scalars."""
    same_point = tuple(list(BASE))
    assert same_point is not BASE
    rng = random.Random("base table")
    scalars = [1, 2, 8, 9, 15, 16, 17, 2**252, ORDER - 1, ORDER + 5, -3, 0] + [rng.randrange(ORDER) for _ in range(20)]
    for k in scalars:
        assert encode(mul(k, BASE)) == encode(mul(k, same_point)), k
    assert len(r._BASE_TABLE) == 64 and all(len(row) == 8 for row in r._BASE_TABLE)


def test_double_encodings_are_the_doubles_encodings():
    """double_encodings gives encode(add(p, p)) for each point, in one batch: random points,
    their other representatives (a 4-torsion point added, coordinates scaled), the RFC's
    multiples of the generator (the identity, whose double is encoded the long way, among them),
    a lone point and none."""
    points = random_points(16, "doubles") + [add(p, TORSION_4) for p in random_points(4, "doubles torsion")]
    points += [decode(bytes.fromhex(h)) for h in MULTIPLES] + [IDENTITY, TORSION_4, add(TORSION_4, TORSION_4)]
    points += [(x * 7 % P, y * 7 % P, z * 7 % P, t * 7 % P) for x, y, z, t in points[:4]]
    expected = [encode(add(p, p)) for p in points]
    assert r.double_encodings(points) == expected
    assert r.double_encodings(points[:1]) == expected[:1] and r.double_encodings([]) == []
    for i, h in enumerate(MULTIPLES[:8]):  # twice i*B is (2i)*B: the RFC's own encodings
        assert r.double_encodings([decode(bytes.fromhex(h))])[0].hex() == MULTIPLES[2 * i]
