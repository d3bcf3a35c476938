"""The ristretto255 prime-order group (RFC 9496): points, their encodings, scalars and the card points.

A point is an opaque value (extended Edwards coordinates ``(X, Y, Z, T)`` of edwards25519, with
x = X/Z, y = Y/Z and x*y = T/Z); many such values stand for one group element, so points are
compared with ``equal`` or by their canonical 32-byte ``encode``, never with ``==``. ``decode``
takes only canonical encodings of group elements and raises ``ValueError`` for anything else.
``from_uniform_bytes`` is RFC 9496's element derivation (the one-way map from 64 uniform bytes).
Scalars are ints modulo ``ORDER``; ``mul`` reduces its scalar, so any int will do.

``CARD_POINTS[i]`` is the point of card i (0..51): ``from_uniform_bytes(SHA-512(b"cribbage card %d"
% i))``. MicroPython's hashlib has no SHA-512, so the module holds the 52 encodings and decodes
them on first use of ``CARD_POINTS``; ``card_of`` tells which card a point is. The arithmetic is
plain Python ints, the same in CPython and MicroPython, and not constant-time.

>>> encode(mul(2, BASE)).hex()
'6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919'
>>> equal(add(BASE, BASE), decode(encode(mul(2, BASE)))), equal(mul(ORDER + 1, BASE), BASE)
(True, True)
>>> from engine.ristretto import CARD_POINTS
>>> card_of(CARD_POINTS[7]), card_of(BASE)
(7, None)
>>> decode(bytes(31))
Traceback (most recent call last):
ValueError: a ristretto255 encoding is 32 bytes
"""

P = 2**255 - 19
"""The field prime."""

ORDER = 2**252 + 27742317777372353535851937790883648493
"""The prime order of the group (l)."""

D = 37095705934669439343138083508754565189542113879843219016388785533085940283555
"""The edwards25519 curve constant d = -121665/121666."""

D2 = 2 * D % P
"""2*d, used by the addition formulas."""

SQRT_M1 = 19681161376707505956807079304988542015446066515923890162744021073123829784752
"""The non-negative square root of -1."""

SQRT_AD_MINUS_ONE = 25063068953384623474111414158702152701244531502492656460079210482610430750235
"""sqrt(a*d - 1), a = -1 (RFC 9496, section 4.1)."""

INVSQRT_A_MINUS_D = 54469307008909316920995813868745141605393597292927456921205312896311721017578
"""1/sqrt(a - d) (RFC 9496, section 4.1)."""

ONE_MINUS_D_SQ = 1159843021668779879193775521855586647937357759715417654439879720876111806838
"""1 - d^2 (RFC 9496, section 4.1)."""

D_MINUS_ONE_SQ = 40440834346308536858101042469323190826248399146238708352240133220865137265952
"""(d - 1)^2 (RFC 9496, section 4.1)."""

_SQRT_EXP = (P - 5) // 8
_MASK = 2**255 - 1
_BX = 15112221349535400772501151409588531511454012693041857206046113283949847762202
_BY = 46316835694926478169428394003475163141307993866256225615783033603165251855960

IDENTITY = (0, 1, 1, 0)
"""The group's neutral element."""

BASE = (_BX, _BY, 1, _BX * _BY % P)
"""The generator (the edwards25519 base point), whose encoding is e2f2ae0a...e08d2d76."""


def _sqrt_ratio_m1(u, v):
    """(was_square, r): r = the non-negative sqrt(u/v) if u/v is a square, else sqrt(SQRT_M1*u/v)."""
    v3 = v * v % P * v % P
    uv7 = u * v3 % P * v3 % P * v % P
    r = u * v3 % P * pow(uv7, _SQRT_EXP, P) % P
    check = v * r % P * r % P
    u = u % P
    correct = check == u
    flipped = check == (-u) % P
    if flipped or check == (-u) * SQRT_M1 % P:
        r = r * SQRT_M1 % P
    if r & 1:
        r = P - r
    return correct or flipped, r


def _add(p, q):
    """The sum of two points in extended coordinates (a = -1, complete formulas)."""
    return _add_cached(p, _cached(q))


def _double(p):
    """Twice a point (the doubling formulas for a = -1, every coordinate negated)."""
    x, y, z, _ = p
    a = x * x % P
    b = y * y % P
    h = a + b
    e = (x + y) * (x + y) % P - h
    g = b - a
    f = (z * z % P << 1) - g
    return e * f % P, g * h % P, f * g % P, e * h % P


def _cached(p):
    """A point as (Y-X, Y+X, 2d*T, 2Z), the form its additions to another point take it in."""
    x, y, z, t = p
    return (y - x) % P, (y + x) % P, t * D2 % P, 2 * z % P


def add(p, q):
    """The sum of two points."""
    return _add(p, q)


def neg(p):
    """The inverse of a point."""
    x, y, z, t = p
    return (-x) % P, y, z, (-t) % P


def equal(p, q):
    """Whether two points are the same group element (ristretto equality, RFC 9496 section 4.3.3)."""
    x1, y1, _, _ = p
    x2, y2, _, _ = q
    return (x1 * y2 - y1 * x2) % P == 0 or (y1 * y2 - x1 * x2) % P == 0


def _digits(k):
    """k (0 < k < 2**253) as signed base-16 digits in -8..8, least significant first."""
    digits = []
    carry = 0
    for byte in k.to_bytes(32, "little"):
        low = (byte & 15) + carry
        carry = 1 if low > 8 else 0
        digits.append(low - 16 * carry)
        high = (byte >> 4) + carry
        carry = 1 if high > 8 else 0
        digits.append(high - 16 * carry)
    if carry:
        digits.append(1)
    while not digits[-1]:
        digits.pop()
    return digits


def mul(k, point):
    """k times a point, for any int k (reduced modulo ORDER; a multiple of ORDER gives IDENTITY)."""
    k %= ORDER
    if not k:
        return IDENTITY
    p = P
    m = _MASK
    multiples = [point, _double(point)]
    for _ in range(6):
        multiples.append(_add(multiples[-1], point))
    table = [None] + [_cached(q) for q in multiples]
    digits = _digits(k)
    x, y, z, t = multiples[digits.pop() - 1]
    last = False
    # Signed 4-bit windows, most significant first: four doublings (without T but the last before
    # an addition), then the addition of a table entry. A product of non-negative numbers is folded
    # (2**255 = 19 mod P) where only sums and differences of it are multiplied again.
    while digits:
        d = digits.pop()
        for _ in (0, 1, 2, 3):
            a = x * x
            a = (a & m) + 19 * (a >> 255)
            b = y * y
            b = (b & m) + 19 * (b >> 255)
            h = a + b
            e = x * y
            e = (e & m) + 19 * (e >> 255) << 1
            g = b - a
            f = z * z
            f = ((f & m) + 19 * (f >> 255) << 1) - g
            x = e * f % p
            y = g * h % p
            z = f * g % p
        if d:
            t = e * h % p
            if d > 0:
                c0, c1, c2, c3 = table[d]
            else:
                c1, c0, c2, c3 = table[-d]
                c2 = p - c2
            a = (y - x + p) * c0
            a = (a & m) + 19 * (a >> 255)
            b = (y + x) * c1
            b = (b & m) + 19 * (b >> 255)
            c = t * c2
            c = (c & m) + 19 * (c >> 255)
            f = z * c3
            f = (f & m) + 19 * (f >> 255)
            e = b - a
            g = f + c
            f = f - c
            h = b + a
            x = e * f % p
            y = g * h % p
            z = f * g % p
        last = True
    if last:
        t = e * h % p
    return x, y, z, t


def mul_sum(pairs):
    """The sum of k * point over (k, point) pairs, the doublings shared (Straus' method, signed
    4-bit windows): far cheaper than one ``mul`` per pair."""
    terms = []
    for k, point in pairs:
        k %= ORDER
        if not k:
            continue
        multiples = [point, _double(point)]
        for _ in range(6):
            multiples.append(_add(multiples[-1], point))
        terms.append(([_cached(q) for q in multiples], _digits(k)))
    if not terms:
        return IDENTITY
    top = max(len(digits) for _, digits in terms)
    acc = IDENTITY
    for i in range(top - 1, -1, -1):
        if i != top - 1:
            acc = _double(_double(_double(_double(acc))))
        for table, digits in terms:
            if i < len(digits) and digits[i]:
                d = digits[i]
                if d > 0:
                    acc = _add_cached(acc, table[d - 1])
                else:
                    c0, c1, c2, c3 = table[-d - 1]
                    acc = _add_cached(acc, (c1, c0, P - c2, c3))
    return acc


def _add_cached(p, c):
    """A point plus a cached point (``_cached``)."""
    x, y, z, t = p
    c0, c1, c2, c3 = c
    a = (y - x) * c0 % P
    b = (y + x) * c1 % P
    cc = t * c2 % P
    d = z * c3 % P
    e = b - a
    f = d - cc
    g = d + cc
    h = b + a
    return e * f % P, g * h % P, f * g % P, e * h % P


def encode(point):
    """The canonical 32-byte encoding of a point (RFC 9496, section 4.3.2)."""
    x0, y0, z0, t0 = point
    u1 = (z0 + y0) * (z0 - y0) % P
    u2 = x0 * y0 % P
    _, invsqrt = _sqrt_ratio_m1(1, u1 * u2 % P * u2 % P)
    den1 = invsqrt * u1 % P
    den2 = invsqrt * u2 % P
    z_inv = den1 * den2 % P * t0 % P
    if t0 * z_inv % P & 1:
        x = y0 * SQRT_M1 % P
        y = x0 * SQRT_M1 % P
        den_inv = den1 * INVSQRT_A_MINUS_D % P
    else:
        x, y, den_inv = x0, y0, den2
    if x * z_inv % P & 1:
        y = -y
    s = den_inv * (z0 - y) % P
    if s & 1:
        s = P - s
    return s.to_bytes(32, "little")


def decode(data):
    """The point a canonical 32-byte encoding stands for (RFC 9496, section 4.3.1); ValueError
    for anything else: a wrong length, a non-canonical encoding or one of no group element."""
    if not isinstance(data, (bytes, bytearray)) or len(data) != 32:
        raise ValueError("a ristretto255 encoding is 32 bytes")
    s = int.from_bytes(data, "little")
    if s >= P or s & 1:
        raise ValueError("non-canonical ristretto255 encoding")
    ss = s * s % P
    u1 = 1 - ss
    u2 = 1 + ss
    u2_sqr = u2 * u2 % P
    v = (-D * u1 % P * u1 - u2_sqr) % P
    was_square, invsqrt = _sqrt_ratio_m1(1, v * u2_sqr % P)
    den_x = invsqrt * u2 % P
    den_y = invsqrt * den_x % P * v % P
    x = 2 * s * den_x % P
    if x & 1:
        x = P - x
    y = u1 * den_y % P
    t = x * y % P
    if not was_square or t & 1 or not y:
        raise ValueError("invalid ristretto255 encoding")
    return x, y, 1, t


def _map(t):
    """RFC 9496's MAP (section 4.3.4): a field element to a point, the Elligator half of
    from_uniform_bytes."""
    r = SQRT_M1 * t % P * t % P
    u = (r + 1) * ONE_MINUS_D_SQ % P
    v = (-1 - r * D) * (r + D) % P
    was_square, s = _sqrt_ratio_m1(u, v)
    if was_square:
        c = -1
    else:
        s = s * t % P
        if not s & 1:
            s = (-s) % P
        c = r
    n = (c * (r - 1) % P * D_MINUS_ONE_SQ - v) % P
    ss = s * s % P
    w0 = 2 * s * v % P
    w1 = n * SQRT_AD_MINUS_ONE % P
    w2 = 1 - ss
    w3 = 1 + ss
    return w0 * w3 % P, w2 * w1 % P, w1 * w3 % P, w0 * w2 % P


def from_uniform_bytes(data):
    """The point of 64 uniform bytes (RFC 9496's element derivation, section 4.3.4: a one-way map;
    SHA-512 of a label is the usual input)."""
    if not isinstance(data, (bytes, bytearray)) or len(data) != 64:
        raise ValueError("from_uniform_bytes takes 64 bytes")
    mask = (1 << 255) - 1
    r0 = (int.from_bytes(data[:32], "little") & mask) % P
    r1 = (int.from_bytes(data[32:], "little") & mask) % P
    return _add(_map(r0), _map(r1))


def scalar_from_bytes(data):
    """A scalar from bytes of any length: their little-endian int modulo ORDER."""
    return int.from_bytes(bytes(data), "little") % ORDER


def inverse_scalar(k):
    """The inverse of a scalar modulo ORDER; ValueError for 0 (or a multiple of ORDER)."""
    k %= ORDER
    if not k:
        raise ValueError("the scalar 0 has no inverse")
    return pow(k, ORDER - 2, ORDER)


CARD_LABEL = b"cribbage card %d"
"""The label of card i's point: CARD_POINTS[i] = from_uniform_bytes(SHA-512(CARD_LABEL % i))."""

_CARD_ENCODINGS = (
    "36e47ad1c648f7173bbd0b541f8c6330fc04ffa2e1478c8fe89cd7b96a5cf206",
    "587d1911658c6d110c05b7affe82fb965265fe1f0e0741a9bc70221714438c26",
    "986e36ff65b80a253d0722a4ead73a57400b02fc17f294b141bf6e23d1eaf575",
    "e816d674df0e184ffca35c9a4ea14547a283513b88f076dc614b68368eb09626",
    "8689e0e12c1250dbc39bc858132954c4d774f44deb80bd7e0dca5c0993b37056",
    "eeaa5be5702fadc221b66a7738604fdf28423745b32cdac1569dbf103dd58117",
    "2c0e3f2bb5431d627626a6621428a73b0182d725260d650f37787e7c86b70b62",
    "f0eb069a8e4ea8ded2b7e098304b3c2d6381d769a4e688ba7af476fd80297a05",
    "1ac3fab94aaf57dab917be281ac21c2c1a8769b14cfd373b73ced26e6e3f7d49",
    "d0e9eb009579c76ec90b24902cb44f7e1c7c40d831c2abb3c1077ab701ec5c6a",
    "3488328f9b6d31ed025a87393f274589db28ce2b8747de21c008d0c3d3df2a77",
    "a08abe3ee7c25c0ff7de0f0f847d87ab2470a910b8930bb91d5125b91077fd23",
    "300162d2d10e92bb2af3c482f5ae73119fa379c89c124fc275730b29ab3fa429",
    "989208901b9e262683399a20742eee6ea6154d14ffad87cbd8096fc69af1e42b",
    "68d4a6297d88355ec22d83c54457d13f5f9bc829c192eb173c1a6b0c68b08331",
    "cadfd84d4dfdf50ec1c513ecbda94e36a0c4a888ecec0860a2bd17453b70af38",
    "325c9204355f2711b1665cb487358b5f021aec1b960ee44a0554f9cff3eb1123",
    "ce58387e320dc3bbe0ec6329d128cc60a0d3070b1e6b7400f9a17f88cd553074",
    "aa52b183bd14601f3f13b97f63078b66d01c1d2d886bfa09098bbf2f51de050a",
    "a8d71a706817ab0847c4dc59ff12b83798ae638296b00ad8f04238b9c7b8e150",
    "daea978e2eb3295c853e01afc0961926a477567496e4f50d04818f72bcdb8105",
    "34c92a5364972ba62ba2a3f5d9f39cdbb7f21372f148244d006aef14da6f9661",
    "eac435c66aa83c276edbdcb3451fb2a8608f150738ec38094a106c8d9df9a574",
    "84b948deccd3ba9d9ba2434fe2f10602bdbcfeee12b467a024964b28283b6319",
    "52089ddd87f87efdfc12b69ccf8ca0b07bd2dc50092c4b44bc73006d09e48407",
    "429889d03d447be80d7bbc588317ee4fe28907fc3d64520b174c15ad0d49f54c",
    "42d3421ef057046f099058895c4c8e5cf78d9cfe63e86945415dcc07c1cb8e1a",
    "c28a1786941d99f7ef5fce0a07068a73ad595be69979314cb2e95387fa66ea3c",
    "a870780b98e53896ed601899ae7b45fd5b14aae89c830fe38e4f041ca2092e5e",
    "5e95757fad6ba2f0e7f2bbd6ccae06024642020d239ed3c66c13912f767de866",
    "9648cbcb085cb48981535e620475354d79dbcba1ad566e7d6def28653b4c3a64",
    "485953bc21fb6c395455b035098843ff8bab5c83a2ca4dc6afc785e7d579946f",
    "327c1030dc4ecbd96a4f65ad4d0e28bc23eccce228920efe13d487f3c48bbb52",
    "c0f1a36b26d7315f3ea7faae8a8321a43f48f39e1e2ed115f4069b69bf94cf2e",
    "e21e2cc35e8c095a6f29f658bcf02f22f44be2cddb5cc368b0eb80aa33235356",
    "04b78968efbc662e3d25bb20a33e05fc6a50ac4480d63834409ed044db0ed830",
    "c6a30af3502a421030a069c06ce8f4f2dc470b471b773b0c95abed8c82606d52",
    "4cf383ff83cf28e04655762fc697859ee917cb3209a98e7ea4089e9b89577d03",
    "ca8ffbfa178018986a22b899e13fa4e041600e1eb09525dee726d7e336958b69",
    "1e23a997abc7dceb2811e10f08a5c8c6ab75e779722b43d3c6702686d8425510",
    "d814f1942a4d6684ae983f4c836c48e443a34fab43ae6782f93877be99065002",
    "ca968c9806211cc3965802c5af056bd0f9ece96e571c01257cca889d77ef1170",
    "981c99349c1ad41dc99edbf5f9970b53b5247a0a90838e36d66ce9c5446bd76f",
    "0ebab866599f968afe62db787305b134b38c062112ae77bb2913cacc369e7b63",
    "fc9648e721810f456ae697f8ab5d81f6fbbca974ea2fbf577f39e8ad9b48b70e",
    "8c1229d3c3ce80652187eb8b9080e74fbc20cd280e05d5daa078017630055f2b",
    "24c697e4b6f9e4cf968ba679b5e8b45a044bcf749a62da6d15d1af05708c322b",
    "7cb2aa6bf5e30810ce943f3802796c9990ead92f980d7074b7abe3ab3384c541",
    "dec15d5b7bcf06fe5972c47432d1f4198d7e60f25e84e9696510aba8a3202446",
    "8098cafe766f259b25df83e106e1cb0591968ad42265c2078da928471cb39442",
    "ec04585e6c7f898273a1e3a7a74e246bdc23ea978826f425841ba112050afb27",
    "54ae12a4e2cee5e417ef0c9bcc0c419b09d7d136a536bd529621ce53de84c354",
)

_CARD_INDEX = {}
for _i, _hex in enumerate(_CARD_ENCODINGS):
    _CARD_INDEX[bytes.fromhex(_hex)] = _i


def card_of(point):
    """The card (0..51) a point is, or None if it is none of CARD_POINTS."""
    return _CARD_INDEX.get(encode(point))


def __getattr__(name):
    """CARD_POINTS, the 52 card points, decoded from their encodings on first use."""
    if name == "CARD_POINTS":
        points = tuple(decode(bytes.fromhex(h)) for h in _CARD_ENCODINGS)
        globals()["CARD_POINTS"] = points
        return points
    raise AttributeError("module 'engine.ristretto' has no attribute '%s'" % name)
