"""The ristretto255 prime-order group (RFC 9496): points, their encodings, scalars and the card points.

A point is an opaque value (extended Edwards coordinates ``(X, Y, Z, T)`` of edwards25519, with
x = X/Z, y = Y/Z and x*y = T/Z); many such values stand for one group element, so points are
compared with ``equal`` or by their canonical 32-byte ``encode``, never with ``==``. ``decode``
takes only canonical encodings of group elements and raises ``ValueError`` for anything else.
``from_uniform_bytes`` is RFC 9496's element derivation (the one-way map from 64 uniform bytes).
Scalars are ints modulo ``ORDER``; ``mul`` reduces its scalar, so any int will do.

``CARD_POINTS[i]`` is the point of card i (0..51): ``from_uniform_bytes(SHA-512(b"cribbage card %d"
% i))``. MicroPython's hashlib has no SHA-512, so ``engine/card_points.py`` holds the 52
encodings, decoded on first use of ``CARD_POINTS``; ``card_of`` and ``cards_of`` tell which card
a point is, by a key kept there too. The arithmetic is plain Python ints, the same in CPython
and MicroPython, and not constant-time.

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

from engine.card_points import CARD_ENCODINGS, CARD_KEYS

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


_BASE_TABLE = []  # [i][d - 1]: d * 16**i * BASE, cached (``_cached``), i = 0..63, d = 1..8; made on first use


def _mul_base(k):
    """k * BASE for 0 < k < ORDER by a fixed-base comb: k's signed 4-bit digits pick one entry of
    a table of BASE's multiples each (worked out once, 512 points), added up with no doubling."""
    if not _BASE_TABLE:
        point = BASE
        for _ in range(64):
            step = _cached(point)
            multiples = [point, _double(point)]
            for _ in range(6):
                multiples.append(_add_cached(multiples[-1], step))
            _BASE_TABLE.append([step] + [_cached(q) for q in multiples[1:]])
            point = _double(multiples[7])  # 16 times the row's point
    acc = IDENTITY
    for row, d in zip(_BASE_TABLE, _digits(k)):
        if d > 0:
            acc = _add_cached(acc, row[d - 1])
        elif d:
            c0, c1, c2, c3 = row[-d - 1]
            acc = _add_cached(acc, (c1, c0, P - c2, c3))
    return acc


def mul(k, point):
    """k times a point, for any int k (reduced modulo ORDER; a multiple of ORDER gives IDENTITY).
    The generator's multiples come from a table of its own (``_mul_base``)."""
    k %= ORDER
    if not k:
        return IDENTITY
    if point is BASE:
        return _mul_base(k)
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


def double_encodings(points):
    """The encodings of twice each point (``encode(add(p, p))``), with one inversion for them all
    and no square root: the same bytes for a fraction of the cost of an ``encode`` each.

    Twice (X:Y:Z:T) is (e*h : g*f : f*h : e*g) for e = 2XY, f = Z^2 + d*T^2, g = Y^2 + X^2 and
    h = Z^2 - d*T^2, and the inverse square root ``encode`` works out for that point follows
    from these values (the ristretto255 authors' batched double-and-encode): one inverse of
    e*f*g*h per point, shared by Montgomery's trick, gives the encoding. A point where that
    product is zero (the identity, or a point whose double has order 4 or less) is encoded the
    long way."""
    states = []
    for x, y, z, t in points:
        zz = z * z % P
        dtt = t * t % P * D % P
        e = 2 * x * y % P
        f = (zz + dtt) % P
        g = (y * y + x * x) % P
        h = (zz - dtt) % P
        states.append((e, f, g, h, e * g % P, f * h % P))
    inverses = _inverses([eg * fh % P for _, _, _, _, eg, fh in states])
    out = []
    for point, (e, f, g, h, eg, fh), inverse in zip(points, states, inverses):
        if not inverse:
            out.append(encode(_double(point)))
            continue
        z_inv = eg * inverse % P  # 1 / (f*h): the inverse of the double's Z
        t_inv = fh * inverse % P  # 1 / (e*g): of the double's T
        magic = INVSQRT_A_MINUS_D
        if eg * z_inv % P & 1:  # rotated, as ``encode`` rotates a point whose t/z is negative
            e, g, h = g, (-e) % P, f * SQRT_M1 % P
            magic = SQRT_M1
        if h * e % P * z_inv % P & 1:
            g = (-g) % P
        s = (h - g) * (magic * (g * t_inv % P) % P) % P
        if s & 1:
            s = P - s
        out.append(s.to_bytes(32, "little"))
    return out


def decode(data, root=None):
    """The point a canonical 32-byte encoding stands for (RFC 9496, section 4.3.1); ValueError
    for anything else: a wrong length, a non-canonical encoding or one of no group element.

    ``root``, if given, is the square root the decoding works out (``decoding_roots``: the
    non-negative ``1/sqrt(v * u2^2)``), sent by whoever encoded the point: it is checked (two
    multiplications) instead of computed (an exponentiation). There is exactly one such root for
    an encoding of a group element and none for anything else, so a decoding with a root gives
    the same point as one without, or ValueError (a wrong root too)."""
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
    if root is None:
        was_square, invsqrt = _sqrt_ratio_m1(1, v * u2_sqr % P)
    else:
        was_square = type(root) is int and 0 <= root < P and not root & 1 and v * u2_sqr % P * root % P * root % P == 1
        invsqrt = root if was_square else 0
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


def _inverses(values):
    """The inverses modulo P of field elements, 0 for a 0, with one exponentiation for them all
    (Montgomery's trick)."""
    partial = []
    product = 1
    for value in values:
        partial.append(product)
        if value:
            product = product * value % P
    inverse = pow(product, P - 2, P)
    out = [0] * len(values)
    for i in range(len(values) - 1, -1, -1):
        if values[i]:
            out[i] = inverse * partial[i] % P
            inverse = inverse * values[i] % P
    return out


def decoding_roots(points, encodings):
    """For each point and its encoding (``encode``), the root its decoding works out (see
    ``decode``), with one inversion for them all: what lets the receiver of the encodings decode
    them without an exponentiation each.

    The decoding of ``s`` gives the element's representative with y = (1 - s^2)/(1 + s^2) and
    x = 2*s*(1 + s^2)*root, up to sign. Of the point's four representatives (x, y), (-x, -y),
    (i*y, i*x) and (-i*y, -i*x) the one with that y gives x, so root = +-x / (2*s*(1 + s^2)):
    the even one of the two."""
    numbers = [int.from_bytes(e, "little") for e in encodings]
    dens = [2 * s * (1 + s * s) % P for s in numbers]
    count = len(points)
    inverses = _inverses([p[2] for p in points] + dens)
    roots = []
    for i, (x0, y0, z0, _) in enumerate(points):
        s = numbers[i]
        den_inv = inverses[count + i]
        if not den_inv:  # s = 0, the identity's encoding: worked out the long way
            roots.append(_sqrt_ratio_m1(1, (-D - 1) % P)[1])
            continue
        z_inv = inverses[i]
        y = y0 * z_inv % P
        y_dec = (1 - s * s) * 2 * s % P * den_inv % P
        x = x0 * z_inv % P if y_dec == y or y_dec == P - y else y * SQRT_M1 % P
        root = x * den_inv % P
        roots.append(P - root if root & 1 else root)
    return roots


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


def card_of(point):
    """The card (0..51) a point is, or None if it is none of CARD_POINTS."""
    return cards_of([point])[0]


_CARD_KEYS = {}  # each card's key (``_keys``) -> the card, from card_points.CARD_KEYS on first use


def _keys(points):
    """x*y/(x^2 + y^2) of each point, None where x^2 + y^2 is 0.

    It is one group element's key: the same for its four representatives (x, y), (-x, -y),
    (i*y, i*x) and (-i*y, -i*x), and no other point's. The key gives t = x/y up to t <-> 1/t
    (the roots of k*t^2 - t + k); a point with x = t*y has y^2 a root of
    d*t^2*Y^2 - (1 - t^2)*Y + 1, whose roots multiply to 1/(d*t^2), so with d not a square only
    one of them is a square: the key names the pairs (x, y), (-x, -y) and (i*y, i*x),
    (-i*y, -i*x), one ristretto element."""
    inverses = _inverses([(x * x + y * y) % P for x, y, _, _ in points])
    return [x * y % P * inverse % P if inverse else None for (x, y, _, _), inverse in zip(points, inverses)]


def cards_of(points):
    """The card (0..51) each point is, or None for one that is none of CARD_POINTS: its key
    (``_keys``) looked up among the cards', one inversion for them all (in place of an encoding
    each, an exponentiation)."""
    if not _CARD_KEYS:
        for card, text in enumerate(CARD_KEYS):
            _CARD_KEYS[int.from_bytes(bytes.fromhex(text), "little")] = card
    return [_CARD_KEYS.get(key) for key in _keys(points)]


def __getattr__(name):
    """CARD_POINTS, the 52 card points, decoded from their encodings on first use."""
    if name == "CARD_POINTS":
        points = tuple(decode(bytes.fromhex(h)) for h in CARD_ENCODINGS)
        globals()["CARD_POINTS"] = points
        return points
    raise AttributeError("module 'engine.ristretto' has no attribute '%s'" % name)
