"""QR codes of text: the symbol's modules (byte mode, UTF-8) and an SVG drawing of them.

The encoder follows ISO/IEC 18004 (QR Code, model 2): versions 1 to 40, the smallest that holds
the text; error correction L, M (the default), Q or H; of the eight masks, the one with the
lowest penalty by the standard's four rules, scored before the format and version information
are drawn, as the standard's 2015 edition reads and segno does.

Written here, not vendored. The well-kept Python encoders (Project Nayuki's qrcodegen, segno)
are written for CPython (typing, enum-like classes, itertools, io) and would need most of their
lines changed to run in MicroPython, and would still be slow there: the browser's MicroPython
runs a Python loop some fifty times slower than CPython, and an encoder that visits every module
for each of the eight masks (as they do, and as a first version of this one did) took over a
second for an invitation link. Here a symbol is one big integer, its columns side by side, so
scoring a mask is a few dozen operations on it; the data bits go into each column as slices of
precomputed bit strings. segno, pinned in requirements.txt, is the reference the tests hold
this module to: the same modules for every version and level and every forced mask, and the
same choice of version and mask.

>>> rows = qr_matrix("cribbage")
>>> len(rows), len(rows[0]), rows[0][:8]
(21, 21, [True, True, True, True, True, True, True, False])
>>> qr_svg("hi", label="A & B").count('aria-label="A &amp; B"')
1
"""

from binascii import hexlify

from engine.compat import Memo

LEVELS = ("L", "M", "Q", "H")
MIN_VERSION = 1
MAX_VERSION = 40
QUIET_ZONE = 4  # modules of light margin the standard asks for around the symbol
DEFAULT_LABEL = "QR code"

FORMAT_LEVEL_BITS = {"L": 1, "M": 0, "Q": 3, "H": 2}
FORMAT_GENERATOR = 0x537
FORMAT_XOR = 0x5412
VERSION_GENERATOR = 0x1F25
BYTE_MODE = 0b0100
PAD_BYTES = (0xEC, 0x11)

# Error-correction codewords per block and number of blocks, by level, for versions 1 to 40
# (ISO/IEC 18004 table 9); index 0 is unused.
ECC_PER_BLOCK = {
    "L": (0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28,
          28, 28, 30, 30, 26, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
    "M": (0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26,
          26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28),
    "Q": (0, 13, 22, 18, 26, 18, 24, 18, 22, 20, 24, 28, 26, 24, 20, 30, 24, 28, 28, 26, 30,
          28, 30, 30, 30, 30, 28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
    "H": (0, 17, 28, 22, 16, 22, 28, 26, 26, 24, 28, 24, 28, 22, 24, 24, 30, 28, 28, 26, 28,
          30, 24, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30),
}
ECC_BLOCKS = {
    "L": (0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8,
          8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 24, 25),
    "M": (0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16,
          17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49),
    "Q": (0, 1, 1, 2, 2, 4, 4, 6, 6, 8, 8, 8, 10, 12, 16, 12, 17, 16, 18, 21, 20,
          23, 23, 25, 27, 29, 34, 34, 35, 38, 40, 43, 45, 48, 51, 53, 56, 59, 62, 65, 68),
    "H": (0, 1, 1, 2, 4, 4, 4, 5, 6, 8, 8, 11, 11, 16, 16, 18, 16, 19, 21, 25, 25,
          25, 34, 30, 32, 35, 37, 40, 42, 45, 48, 51, 54, 57, 60, 63, 66, 70, 74, 77, 81),
}

# The eight data masks: a module at column x, row y is inverted where the pattern is true.
MASK_PATTERNS = (
    lambda x, y: (x + y) % 2 == 0,
    lambda x, y: y % 2 == 0,
    lambda x, y: x % 3 == 0,
    lambda x, y: (x + y) % 3 == 0,
    lambda x, y: (x // 3 + y // 2) % 2 == 0,
    lambda x, y: x * y % 2 + x * y % 3 == 0,
    lambda x, y: (x * y % 2 + x * y % 3) % 2 == 0,
    lambda x, y: ((x + y) % 2 + x * y % 3) % 2 == 0,
)
MASK_PERIOD_X = 6  # every pattern repeats every 6 columns and every 12 rows
MASK_PERIOD_Y = 12
LONGEST_SIDE = 17 + 4 * MAX_VERSION

DARK = 49  # b"1"[0]: columns are ASCII digits, so int(column, 2) reads one as bits
LIGHT = 48


def _field_tables():
    """Exponents and logarithms of GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1."""
    exp = bytearray(512)
    log = bytearray(256)
    value = 1
    for power in range(255):
        exp[power] = value
        log[value] = power
        value <<= 1
        if value & 0x100:
            value ^= 0x11D
    for power in range(255, 512):
        exp[power] = exp[power - 255]
    return exp, log


EXP, LOG = _field_tables()
_REMAINDER_ROWS = {}  # error-correction length -> 256 register rows (see _remainder_rows)
_MASK_COLUMNS = []  # mask -> 6 columns of its pattern as integers, LONGEST_SIDE bits, by x % 6


def _check_level(level):
    if level not in LEVELS:
        raise ValueError("the error-correction level must be one of L, M, Q, H")


def _count_bits(version):
    """Bits of the byte count after the mode indicator."""
    return 8 if version < 10 else 16


def _raw_modules(version):
    """Modules left for data and error correction once the function patterns are drawn."""
    result = (16 * version + 128) * version + 64
    if version >= 2:
        aligns = version // 7 + 2
        result -= (25 * aligns - 10) * aligns - 55
        if version >= 7:
            result -= 36
    return result


def data_capacity(version, level="M"):
    """The number of data codewords (8-bit) of a symbol of this version and level.

    >>> data_capacity(1, "L"), data_capacity(40, "H")
    (19, 1276)
    """
    _check_level(level)
    return _raw_modules(version) // 8 - ECC_PER_BLOCK[level][version] * ECC_BLOCKS[level][version]


def max_bytes(version=MAX_VERSION, level="M"):
    """The longest text, in UTF-8 bytes, that a symbol of this version and level holds.

    >>> max_bytes(), max_bytes(1, "M"), max_bytes(40, "L")
    (2331, 14, 2953)
    """
    return (data_capacity(version, level) * 8 - 4 - _count_bits(version)) // 8


def smallest_version(length, level="M"):
    """The smallest version whose symbol holds this many bytes, or None if none does."""
    for version in range(MIN_VERSION, MAX_VERSION + 1):
        if length <= max_bytes(version, level):
            return version
    return None


def _data_codewords(data, version, level):
    """The data codewords: mode, count, the bytes, terminator and padding."""
    capacity = data_capacity(version, level)
    count_bits = _count_bits(version)
    bits = ((BYTE_MODE << count_bits | len(data)) << 8 * len(data)) | int.from_bytes(data, "big")
    used = 4 + count_bits + 8 * len(data)
    end = min(4, capacity * 8 - used)
    end += (-(used + end)) % 8
    codewords = bytearray((bits << end).to_bytes((used + end) // 8, "big"))
    for i in range(capacity - len(codewords)):
        codewords.append(PAD_BYTES[i % 2])
    return codewords


def _generator(degree):
    """The Reed-Solomon generator (x - a^0)...(x - a^(degree-1)), its coefficients below the
    leading 1, highest power first."""
    poly = bytearray(degree)
    poly[degree - 1] = 1
    root = 1
    for _ in range(degree):
        for j in range(degree):
            poly[j] = _multiply(poly[j], root) ^ (poly[j + 1] if j + 1 < degree else 0)
        root = _multiply(root, 2)
    return poly


def _multiply(a, b):
    if a == 0 or b == 0:
        return 0
    return EXP[LOG[a] + LOG[b]]


def _remainder_rows(degree):
    """For each feedback byte, what it adds to the division register (an integer of `degree`
    bytes), so each data byte costs one shift and one exclusive or."""
    rows = _REMAINDER_ROWS.get(degree)
    if rows is None:
        generator = _generator(degree)
        rows = [0] * 256
        for k in range(8):
            rows[1 << k] = int.from_bytes(bytes([_multiply(1 << k, g) for g in generator]), "big")
        for feedback in range(3, 256):
            low = feedback & -feedback
            if low != feedback:
                rows[feedback] = rows[feedback ^ low] ^ rows[low]
        _REMAINDER_ROWS[degree] = rows
    return rows


def _error_codewords(block, degree):
    """The Reed-Solomon error-correction codewords of one block."""
    rows = _remainder_rows(degree)
    top = 8 * (degree - 1)
    keep = (1 << top) - 1
    register = 0
    for byte in block:
        register = ((register & keep) << 8) ^ rows[byte ^ (register >> top)]
    return register.to_bytes(degree, "big")


def _codewords(data, version, level):
    """The final codeword sequence: data split into blocks, each with its error correction,
    interleaved."""
    data = _data_codewords(data, version, level)
    blocks = ECC_BLOCKS[level][version]
    degree = ECC_PER_BLOCK[level][version]
    total = _raw_modules(version) // 8
    short_blocks = blocks - total % blocks
    short_length = total // blocks - degree
    pieces = []
    ecc = []
    at = 0
    for b in range(blocks):
        length = short_length + (0 if b < short_blocks else 1)
        pieces.append(data[at:at + length])
        ecc.append(_error_codewords(data[at:at + length], degree))
        at += length
    result = bytearray()
    for i in range(short_length + 1):
        for b in range(blocks):
            if i < len(pieces[b]):
                result.append(pieces[b][i])
    for i in range(degree):
        for b in range(blocks):
            result.append(ecc[b][i])
    return result


def _alignment_centres(version):
    """Row and column numbers of the alignment patterns' centres."""
    if version == 1:
        return []
    count = version // 7 + 2
    step = (version * 8 + count * 3 + 5) // (count * 4 - 4) * 2
    centres = [6]
    last = 17 + 4 * version - 7
    for i in range(count - 1):
        centres.insert(1, last - i * step)
    return centres


def _format_bits(level, mask):
    """The 15 format bits (level and mask, BCH-protected, masked)."""
    data = FORMAT_LEVEL_BITS[level] << 3 | mask
    rem = data
    for _ in range(10):
        rem = (rem << 1) ^ ((rem >> 9) * FORMAT_GENERATOR)
    return (data << 10 | rem) ^ FORMAT_XOR


def _version_bits(version):
    """The 18 version bits (versions 7 and up)."""
    rem = version
    for _ in range(12):
        rem = (rem << 1) ^ ((rem >> 11) * VERSION_GENERATOR)
    return version << 12 | rem


def _bit_tables():
    """Each byte's eight bits as ASCII digits (first bit first), the same backwards, its bits
    0, 2, 4, 6 and 1, 3, 5, 7 (counting from the first), and those two backwards."""
    bits = ["{:08b}".format(b) for b in range(256)]
    return ([t.encode() for t in bits], [(t[7] + t[6] + t[5] + t[4] + t[3] + t[2] + t[1] + t[0]).encode() for t in bits],
            [(t[0] + t[2] + t[4] + t[6]).encode() for t in bits], [(t[1] + t[3] + t[5] + t[7]).encode() for t in bits],
            [(t[6] + t[4] + t[2] + t[0]).encode() for t in bits], [(t[7] + t[5] + t[3] + t[1]).encode() for t in bits])


BIT_TABLES = _bit_tables()  # in the order of the streams: BITS, BITS_BACK, EVEN, ODD, ...
FUNCTION = -1  # a piece of a column drawn by a function pattern, not taken from the data
BITS, BITS_BACK, EVEN, ODD, EVEN_BACK, ODD_BACK = range(6)  # the streams of _streams, in order
HAS_BIT_COUNT = hasattr(0, "bit_count")  # CPython's int.bit_count; MicroPython has none
GAP = 4  # light bits between two columns in a layout, so that no rule reads across them


class _Layout:
    """What every symbol of one version shares: its function patterns (as columns of ASCII
    digits, row 0 first), where each column's data bits come from, and the integers that score
    a mask. A "layout" integer holds the whole symbol, one column after another (column 0 in
    the highest bits, row 0 highest within a column), GAP light bits between columns."""

    def __init__(self, version):
        self.version = version
        self.size = size = 17 + 4 * version
        self.stride = size + GAP
        values, reserved = _function_patterns(version, size)
        self.values = [bytes(column) for column in values]
        self.reserved = [bytes(column) for column in reserved]
        self.format_cells = _format_cells(size)
        self.version_cells = _version_cells(size) if version >= 7 else []
        full = (1 << size) - 1
        self.free_columns = [full ^ int(column, 2) for column in self.reserved]
        self.lines = self.spread([full] * size)
        self.pairs = self.spread([full >> 1] * size)
        self.beside = self.lines >> self.stride
        length = (size * self.stride + 7) // 8 + 1
        self.length = length
        self.m55 = int.from_bytes(b"\x55" * length, "big")
        self.m33 = int.from_bytes(b"\x33" * length, "big")
        self.plan = _plan(self.reserved, self.values, size)
        cut = LONGEST_SIDE - size
        self.masks = []
        for columns in _mask_columns():
            pattern = [(columns[x % MASK_PERIOD_X] >> cut) & self.free_columns[x] for x in range(size)]
            self.masks.append((pattern, self.spread(pattern)))

    def spread(self, columns):
        """The layout integer of these columns (integers of `size` bits, row 0 highest)."""
        stride = self.stride
        value = 0
        for column in columns:
            value = (value << stride) | column
        return value

    def ones(self, value):
        """How many bits of a layout integer are set."""
        if HAS_BIT_COUNT:
            return value.bit_count()
        value -= (value >> 1) & self.m55
        value = (value & self.m33) + ((value >> 2) & self.m33)
        digits = hexlify(value.to_bytes(self.length, "big"))
        return digits.count(b"1") + 2 * digits.count(b"2") + 3 * digits.count(b"3") + 4 * digits.count(b"4")


def _function_patterns(version, size):
    """The function patterns as columns (bytearrays of ASCII digits, row 0 first): their modules,
    and which modules they hold. Format and version areas and the dark module stay light here:
    the masks are scored without them, as the standard's 2015 edition and segno do."""
    values = [bytearray(b"0" * size) for _ in range(size)]
    reserved = [bytearray(b"0" * size) for _ in range(size)]

    def put(x, y, dark):
        values[x][y] = DARK if dark else LIGHT
        reserved[x][y] = DARK

    for i in range(size):
        put(i, 6, i % 2 == 0)
        put(6, i, i % 2 == 0)
    for cx, cy in ((3, 3), (size - 4, 3), (3, size - 4)):
        for dy in range(-4, 5):
            for dx in range(-4, 5):
                if 0 <= cx + dx < size and 0 <= cy + dy < size:
                    distance = max(abs(dx), abs(dy))
                    put(cx + dx, cy + dy, distance != 2 and distance != 4)
    centres = _alignment_centres(version)
    last = len(centres) - 1
    for i in range(len(centres)):
        for j in range(len(centres)):
            if (i, j) not in ((0, 0), (0, last), (last, 0)):
                for dy in range(-2, 3):
                    for dx in range(-2, 3):
                        put(centres[i] + dx, centres[j] + dy, max(abs(dx), abs(dy)) != 1)
    for x, y in _format_cells(size):
        put(x, y, False)
    if version >= 7:
        for x, y in _version_cells(size):
            put(x, y, False)
    return values, reserved


def _format_cells(size):
    """(column, row) of each format bit, bit 0 first: the copy beside the top-left finder, then
    the other copy (beside the top-right and bottom-left finders), then the always-dark module."""
    first = [(8, y) for y in (0, 1, 2, 3, 4, 5, 7, 8)] + [(x, 8) for x in (7, 5, 4, 3, 2, 1, 0)]
    second = [(size - 1 - i, 8) for i in range(8)] + [(8, size - 15 + i) for i in range(8, 15)]
    return first + second + [(8, size - 8)]


def _version_cells(size):
    """(column, row) of each version bit, bit 0 first, bottom-left copy then top-right copy."""
    return [(i // 3, size - 11 + i % 3) for i in range(18)] + [(size - 11 + i % 3, i // 3) for i in range(18)]


def _changes(column):
    """The rows where a column's reserved/free state changes."""
    cuts = []
    at = 0
    while True:
        at = column.find(b"0" if column[at] == DARK else b"1", at)
        if at == -1:
            return cuts
        cuts.append(at)


def _slice(forward, backward, start, count, total, is_reversed):
    """The piece (source, start, stop) of `count` bits of a stream from `start`, read in order or
    from its last bit back (the backward source is the stream reversed, `total` long)."""
    if is_reversed:
        return (backward, total - start - count, total - start)
    return (forward, start, start + count)


def _plan(reserved, values, size):
    """For each column, its pieces from top to bottom: (FUNCTION, text, 0) for function modules,
    else (source, start, stop) of one of the six streams of _streams. The data go two columns at
    a time from the right edge, up then down, each row right column first, skipping column 6 and
    every function module; so where both columns are free they take every other bit (the even
    or odd stream), where one is, consecutive bits."""
    plan = [[] for _ in range(size)]
    total_bits = (_raw_modules((size - 17) // 4) // 8 + 1) * 8
    half = total_bits // 2
    at = 0
    right = size - 1
    upward = True
    while right >= 1:
        if right == 6:
            right = 5
        left = right - 1
        cuts = sorted(set([0, size] + _changes(reserved[right]) + _changes(reserved[left])))
        spans = [(cuts[i], cuts[i + 1]) for i in range(len(cuts) - 1)]
        if upward:
            spans.reverse()
        pieces_right = []
        pieces_left = []
        for top, bottom in spans:
            count = bottom - top
            free_right = reserved[right][top] == LIGHT
            free_left = reserved[left][top] == LIGHT
            if free_right and free_left:
                if at % 2 == 0:  # the right column takes the even stream from at // 2
                    pieces_right.append(_slice(EVEN, EVEN_BACK, at // 2, count, half, upward))
                    pieces_left.append(_slice(ODD, ODD_BACK, at // 2, count, half, upward))
                else:
                    pieces_right.append(_slice(ODD, ODD_BACK, at // 2, count, half, upward))
                    pieces_left.append(_slice(EVEN, EVEN_BACK, at // 2 + 1, count, half, upward))
                at += 2 * count
            else:
                for column, pieces, free in ((right, pieces_right, free_right), (left, pieces_left, free_left)):
                    if free:
                        pieces.append(_slice(BITS, BITS_BACK, at, count, total_bits, upward))
                        at += count
                    else:
                        pieces.append((FUNCTION, values[column][top:bottom], 0))
        if upward:
            pieces_right.reverse()
            pieces_left.reverse()
        plan[right] = pieces_right
        plan[left] = pieces_left
        upward = not upward
        right -= 2
    plan[6] = [(FUNCTION, values[6], 0)]
    return plan


_LAYOUTS = Memo(_Layout, size=8)


def _streams(codewords):
    """The six streams the plan reads, as ASCII digits: the codewords' bits, the bits at even
    places, at odd places, each followed by itself reversed (BITS, BITS_BACK, EVEN, ...); a zero
    byte at the end fills the remainder bits."""
    forward = bytearray(codewords)
    forward.append(0)
    backward = bytearray(reversed(forward))
    streams = []
    for table in range(6):
        bits = BIT_TABLES[table]
        order = backward if table in (BITS_BACK, EVEN_BACK, ODD_BACK) else forward
        streams.append(b"".join([bits[b] for b in order]))
    return streams


def _data_columns(layout, codewords):
    """The unmasked symbol's columns as ASCII digits (function patterns and data)."""
    streams = _streams(codewords)
    columns = []
    for pieces in layout.plan:
        columns.append(b"".join([piece[1] if piece[0] == FUNCTION else streams[piece[0]][piece[1]:piece[2]]
                                 for piece in pieces]))
    return columns


def _mask_columns():
    """Each mask's pattern as whole columns (by x % 6), integers of LONGEST_SIDE bits with row 0
    highest; a symbol's column is the top bits (shift right by the difference)."""
    if not _MASK_COLUMNS:
        repeats = LONGEST_SIDE // MASK_PERIOD_Y + 1
        for pattern in MASK_PATTERNS:
            columns = []
            for x in range(MASK_PERIOD_X):
                unit = "".join(["1" if pattern(x, y) else "0" for y in range(MASK_PERIOD_Y)])
                columns.append(int((unit * repeats)[:LONGEST_SIDE], 2))
            _MASK_COLUMNS.append(columns)
    return _MASK_COLUMNS


def _finder_points(layout, symbol, step):
    """Rule 3 in one direction (step 1: down the columns; the stride: along the rows): each run
    dark-light-dark-dark-dark-light-dark with four light modules before or after it (outside the
    symbol counts as light) scores 40. Runs are read from the start of each line and the search
    resumes after a run that scored, as segno reads the rule; so of two that overlap and both
    qualify, only the first counts."""
    run = (symbol & (symbol >> 2 * step) & (symbol >> 3 * step) & (symbol >> 4 * step)
           & (symbol >> 6 * step) & ~((symbol >> step) | (symbol >> 5 * step)))
    if not run:
        return 0
    before = (symbol << step) | (symbol << 2 * step) | (symbol << 3 * step) | (symbol << 4 * step)
    after = (symbol >> 7 * step) | (symbol >> 8 * step) | (symbol >> 9 * step) | (symbol >> 10 * step)
    hits = run & ~(before & after)
    if not hits:
        return 0
    shadowed = hits & ((hits >> 4 * step) | (hits >> 6 * step))
    return 40 * (layout.ones(hits) - (layout.ones(shadowed) if shadowed else 0))


def _penalty(layout, symbol):
    """The standard's penalty of a masked symbol, a layout integer (lower is better): 3 for each
    run of five alike in a row or column and 1 for each module past five; 3 for each 2x2 block
    alike; 40 for each finder-like run (see _finder_points); 10 for each 5% the share of dark
    modules is away from half."""
    stride = layout.stride
    ones = layout.ones
    down = layout.pairs & ~(symbol ^ (symbol >> 1))  # a module like the one above it
    along = layout.beside & ~(symbol ^ (symbol >> stride))  # a module like the one left of it
    score = 0
    for same, step in ((down, 1), (along, stride)):
        five = same & (same >> step) & (same >> 2 * step) & (same >> 3 * step)
        if five:
            score += ones(five) + 2 * ones(five & ~(five >> step))
        score += _finder_points(layout, symbol, step)
    blocks = along & (along >> 1) & down
    if blocks:
        score += 3 * ones(blocks)
    total = layout.size * layout.size
    return score + 10 * (abs(20 * ones(symbol) - 10 * total) // total)


def _symbol(data, level, version, mask):
    """(version, mask, columns as bytearrays of ASCII digits, row 0 first) of the QR code of
    these bytes; version and mask chosen by the standard's rules where None."""
    if version is None:
        version = smallest_version(len(data), level)
        if version is None:
            raise ValueError("the text is too long for a QR code: " + str(len(data)) + " bytes, at most "
                             + str(max_bytes(MAX_VERSION, level)) + " at level " + level)
    elif type(version) is not int or not MIN_VERSION <= version <= MAX_VERSION:
        raise ValueError("the version must be a whole number from 1 to 40")
    elif len(data) > max_bytes(version, level):
        raise ValueError("the text is too long for a version " + str(version) + " QR code at level " + level)
    if mask is not None and (type(mask) is not int or not 0 <= mask <= 7):
        raise ValueError("the mask must be a whole number from 0 to 7")
    layout = _LAYOUTS(version)
    columns = [int(column, 2) for column in _data_columns(layout, _codewords(data, version, level))]
    if mask is None:
        symbol = layout.spread(columns)
        best = None
        for m in range(8):
            score = _penalty(layout, symbol ^ layout.masks[m][1])
            if best is None or score < best:
                best, mask = score, m
    marker = 1 << layout.size
    pattern = layout.masks[mask][0]
    drawn = [bytearray(bin((columns[x] ^ pattern[x]) | marker)[3:].encode()) for x in range(layout.size)]
    _draw_format(drawn, layout, level, mask)
    return version, mask, drawn


def _draw_format(columns, layout, level, mask):
    """Draw the format bits of the level and mask, the version bits, and the dark module."""
    bits = _format_bits(level, mask)
    cells = layout.format_cells
    for i in range(15):
        on = DARK if (bits >> i) & 1 else LIGHT
        for x, y in (cells[i], cells[15 + i]):
            columns[x][y] = on
    x, y = cells[30]
    columns[x][y] = DARK
    if layout.version_cells:
        bits = _version_bits(layout.version)
        cells = layout.version_cells
        for i in range(18):
            on = DARK if (bits >> i) & 1 else LIGHT
            for x, y in (cells[i], cells[18 + i]):
                columns[x][y] = on


def _text_bytes(text):
    if type(text) is not str:
        raise ValueError("a QR code is made of text")
    return text.encode("utf-8")


def _rows(columns):
    """The rows of a symbol given by its columns (bytearrays), as text."""
    return [bytes([column[y] for column in columns]).decode() for y in range(len(columns))]


def qr_encode(text, level="M", version=None, mask=None):
    """(version, mask, rows) of the QR code of text: rows of the symbol's modules as strings of
    "1" (dark) and "0" (light), no quiet zone. The version (1-40) and mask (0-7) are chosen by
    the standard's rules unless given; a ValueError says what is wrong with the input.

    >>> version, mask, rows = qr_encode("https://example.test/")
    >>> version, len(rows), rows[0][:9]
    (2, 25, '111111101')
    """
    _check_level(level)
    version, mask, columns = _symbol(_text_bytes(text), level, version, mask)
    return version, mask, _rows(columns)


def qr_matrix(text: str, level: str = "M") -> list:
    """The QR code of text (UTF-8, byte mode) at error-correction level L, M, Q or H, as rows of
    booleans (True: a dark module), without the quiet zone; the smallest version that holds the
    text and the mask the standard's penalty picks. Text too long for any version (more than
    2,331 bytes at level M) raises a ValueError saying so.

    >>> [row[:7] for row in qr_matrix("a")[:2]]
    [[True, True, True, True, True, True, True], [True, False, False, False, False, False, True]]
    """
    _check_level(level)
    _, _, columns = _symbol(_text_bytes(text), level, None, None)
    return [[column[y] == DARK for column in columns] for y in range(len(columns))]


def escape_markup(text):
    """Text made safe inside an XML/HTML attribute or element.

    >>> escape_markup('<a href="x">&\\'')
    '&lt;a href=&quot;x&quot;&gt;&amp;&#39;'
    """
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def _path(columns, quiet):
    """The SVG path of the dark modules, to fill: one rectangle a module wide down each run of
    dark modules in a column, each after the first placed relative to the one before."""
    parts = []
    x_at = y_at = 0  # where the last rectangle began (a closed subpath leaves the pen there)
    for x in range(len(columns)):
        column = bytes(columns[x])
        top = column.find(b"1")
        while top != -1:
            bottom = column.find(b"0", top)
            if bottom == -1:
                bottom = len(column)
            height = bottom - top
            if parts:
                parts.append("m%d %dv%dh1v-%dz" % (x - x_at, top - y_at, height, height))
            else:
                parts.append("M%d %dv%dh1v-%dz" % (x + quiet, top + quiet, height, height))
            x_at, y_at = x, top
            top = column.find(b"1", bottom)
    return "".join(parts)


def qr_svg(text: str, level: str = "M", quiet: int = QUIET_ZONE, label: str = DEFAULT_LABEL) -> str:
    """A standalone SVG of the QR code of text (see qr_matrix): a white square with one black
    path of the dark modules, viewBox in modules (the symbol plus `quiet` modules of margin on
    each side), crisp edges, role="img" with the label as aria-label and title (escaped, so the
    string is safe to insert as markup). Size it with CSS; a ValueError for bad input.

    >>> svg = qr_svg("a", quiet=2)
    >>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 25 25"')
    True
    """
    _check_level(level)
    if type(quiet) is not int or not 0 <= quiet <= 100:
        raise ValueError("the quiet zone must be a whole number of modules from 0 to 100")
    if type(label) is not str:
        raise ValueError("the label must be text")
    _, _, columns = _symbol(_text_bytes(text), level, None, None)
    side = str(len(columns) + 2 * quiet)
    name = escape_markup(label)
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + side + " " + side
            + '" role="img" aria-label="' + name + '" shape-rendering="crispEdges"><title>' + name
            + '</title><rect width="' + side + '" height="' + side + '" fill="#fff"/><path fill="#000" d="'
            + _path(columns, quiet) + '"/></svg>')


def qr_path(text: str, level: str = "M") -> tuple:
    """The QR code of text for a page to draw itself: (modules a side, the SVG path of the dark
    modules to fill, in module units from the symbol's corner, no quiet zone); a ValueError for
    bad input (see qr_matrix).

    >>> qr_path("a")[0], qr_path("a")[1][:12]
    (21, 'M0 0v7h1v-7z')
    """
    _check_level(level)
    _, _, columns = _symbol(_text_bytes(text), level, None, None)
    return len(columns), _path(columns, 0)
