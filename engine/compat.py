"""The standard-library pieces the engine needs that MicroPython lacks, as small tested stand-ins.

The engine runs unchanged in CPython 3.11+ (the build, the tests, the command line) and in
MicroPython (the browser's worker). Everything either interpreter lacks is here, once:

- ``combinations``, ``combinations_with_replacement``, ``product`` (itertools) and ``comb``
  (math): CPython's built-ins where they exist, otherwise the pure versions below, which yield
  the same items in the same order (``tests/unit/test_compat.py`` compares them).
- ``sha256_hex``: hashlib's ``hexdigest`` (MicroPython's sha256 has only ``digest``).
- ``canonical_json``: JSON with sorted keys and no spaces, the same text in both interpreters
  (MicroPython's ``json.dumps`` neither sorts keys nor keeps a dict's insertion order).
  ``compact_json``: fast JSON without spaces, for replies whose key order does not matter.
- ``round_to``: rounding to a number of decimals that gives the same float in both
  (MicroPython's ``round(x, n)`` can differ from CPython's in the last place).
- ``value_counts`` (in place of ``collections.Counter``) and ``Memo`` (in place of functools'
  least-recently-used cache).
- ``strict_json``, ``utf8_text``, ``b64url_bytes`` and ``b64url_text``: one strict reader for
  every text the engine takes in, refusing in both interpreters what either would refuse
  (MicroPython's ``json`` takes ``[1,]`` and ``01``; its ``a2b_base64`` raises a bare error).

Two differences no stand-in can hide, which every engine module respects: MicroPython's dicts do
not keep insertion order (nothing may depend on a dict's order), and its sorts are not stable
(a sort key must never tie for items whose order matters). ``isinstance(True, int)`` is false
there, so the engine tests ``type(x) is int``.
"""

import json
from binascii import hexlify
from math import frexp
from hashlib import sha256


def pure_combinations(pool, k):
    """Yield every k-item combination of pool as a tuple, in itertools' (lexicographic) order.

    >>> list(pure_combinations("abc", 2))
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    pool = tuple(pool)
    n = len(pool)
    if k < 0 or k > n:
        return
    index = list(range(k))
    yield tuple(pool[i] for i in index)
    while True:
        i = k - 1
        while i >= 0 and index[i] == i + n - k:
            i -= 1
        if i < 0:
            return
        index[i] += 1
        for j in range(i + 1, k):
            index[j] = index[j - 1] + 1
        yield tuple(pool[i] for i in index)


def pure_combinations_with_replacement(pool, k):
    """Yield every k-item multiset of pool as a sorted tuple, in itertools' order.

    >>> list(pure_combinations_with_replacement("ab", 2))
    [('a', 'a'), ('a', 'b'), ('b', 'b')]
    """
    pool = tuple(pool)
    n = len(pool)
    if n == 0 and k:
        return
    index = [0] * k
    yield tuple(pool[i] for i in index)
    while True:
        i = k - 1
        while i >= 0 and index[i] == n - 1:
            i -= 1
        if i < 0:
            return
        value = index[i] + 1
        for j in range(i, k):
            index[j] = value
        yield tuple(pool[i] for i in index)


def pure_product(*pools):
    """Yield the Cartesian product of the pools as tuples, in itertools' order (last varies fastest).

    >>> list(pure_product("ab", "xy"))
    [('a', 'x'), ('a', 'y'), ('b', 'x'), ('b', 'y')]
    """
    result = [()]
    for pool in pools:
        pool = tuple(pool)
        result = [prefix + (item,) for prefix in result for item in pool]
    for combo in result:
        yield combo


def pure_comb(n, k):
    """The number of ways to choose k items from n, without order (0 when k > n).

    >>> pure_comb(52, 4), pure_comb(5, 7)
    (270725, 0)
    """
    if k < 0 or n < 0:
        raise ValueError("comb() needs whole numbers, 0 or more")
    if k > n:
        return 0
    k = min(k, n - k)
    result = 1
    for i in range(1, k + 1):
        result = result * (n - k + i) // i
    return result


try:
    from itertools import combinations, combinations_with_replacement, product
except ImportError:  # MicroPython
    combinations = pure_combinations
    combinations_with_replacement = pure_combinations_with_replacement
    product = pure_product

try:
    from math import comb
except ImportError:  # MicroPython
    comb = pure_comb


def sha256_hex(data):
    """The SHA-256 of bytes (or of text, as UTF-8) as 64 lowercase hex digits.

    >>> sha256_hex("abc")[:16]
    'ba7816bf8f01cfea'
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    return hexlify(sha256(data).digest()).decode("ascii")


def round_to(value, digits):
    """value rounded to a number of decimals, the same float in CPython and MicroPython.

    As CPython's ``round(value, digits)``: the exact binary value is rounded, halves to even,
    and the result is the float nearest that decimal. Worked out in whole numbers, because
    MicroPython's fixed-point formatting rounds an exact half up ("%.2f" % 12.125 is 12.13
    there, 12.12 in CPython). Up to 15 decimals; larger values keep CPython's formatting path.

    >>> round_to(2.675, 2), round_to(7.95649, 4), round_to(3, 1), round_to(12.125, 2), round_to(0.5, 0)
    (2.67, 7.9565, 3.0, 12.12, 0.0)
    """
    digits = int(digits)
    value = float(value)
    if value != value or value - value != 0 or not 0 <= digits <= 15:  # nan, infinities
        return float(("%." + str(digits) + "f") % value) if value - value == 0 else value
    mantissa, exponent = frexp(value)  # value == mantissa * 2 ** exponent, exactly
    shift = exponent - 53
    if shift >= 0:
        return value  # a whole number: nothing below the point to round
    scale = 10 ** digits
    whole, rest = divmod(abs(int(mantissa * _TWO_53)) * scale, 1 << -shift)
    half = 1 << (-shift - 1)
    if rest > half or (rest == half and whole % 2 == 1):
        whole += 1
    if whole >= _TWO_53:  # no longer exact as a float: formatting rounds such values alike
        return float(("%." + str(digits) + "f") % value)
    result = whole / scale
    return -result if value < 0 or (value == 0 and str(value)[0] == "-") else result


_TWO_53 = 1 << 53


def value_counts(values):
    """(value, how many times it occurs) pairs for an iterable, in ascending order of value.

    >>> value_counts([3, 1, 3, 2, 3])
    [(1, 1), (2, 1), (3, 3)]
    """
    counts = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return sorted(counts.items())


class Memo:
    """A small cache of a function's results by its arguments, dropping the oldest when full.

    >>> square = Memo(lambda x: x * x, size=2)
    >>> square(3), square(3), len(square.results)
    (9, 9, 1)
    """

    def __init__(self, func, size=16):
        """Cache func's results (the arguments must be hashable), keeping at most size of them."""
        self.func = func
        self.size = size
        self.results = {}
        self.order = []

    def __call__(self, *args):
        """func(*args), computed once while it stays among the newest ``size`` results."""
        try:
            return self.results[args]
        except KeyError:
            pass
        result = self.func(*args)
        if len(self.order) >= self.size:
            del self.results[self.order.pop(0)]
        self.results[args] = result
        self.order.append(args)
        return result


# --------------------------------------------------------------------------------------------
# JSON

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


_STRING_JSON = {}
"""Short texts already written as JSON strings (the keys of every dict, card names, kinds):
canonical JSON writes the same few again and again."""
STRING_JSON_KEEP = 1024  # entries at most
STRING_JSON_SHORT = 32  # characters: longer texts are written afresh each time


def _string_json(text):
    """A JSON string, escaped as CPython's json.dumps does by default (non-ASCII as \\uXXXX)."""
    known = _STRING_JSON.get(text)
    if known is not None:
        return known
    written = _write_string_json(text)
    if len(text) <= STRING_JSON_SHORT and len(_STRING_JSON) < STRING_JSON_KEEP:
        _STRING_JSON[text] = written
    return written


def _write_string_json(text):
    quick = json.dumps(text)  # the same text in both interpreters when it is ASCII with no escape
    if "\\" not in quick and len(quick) == len(quick.encode("utf-8")):
        return quick
    parts = ['"']
    for ch in text:
        if " " <= ch <= "~" and ch != '"' and ch != "\\":
            parts.append(ch)
            continue
        escaped = _ESCAPES.get(ch)
        if escaped is not None:
            parts.append(escaped)
            continue
        code = ord(ch)
        if code > 0xFFFF:  # outside the Basic Multilingual Plane: a surrogate pair
            code -= 0x10000
            parts.append("\\u%04x\\u%04x" % (0xD800 | (code >> 10), 0xDC00 | (code & 0x3FF)))
        else:
            parts.append("\\u%04x" % code)
    parts.append('"')
    return "".join(parts)


def float_text(value):
    """A float as the shortest fixed-point text (one decimal at least) that reads back as it.

    Fixed-point formatting is correctly rounded in both interpreters (``repr`` is not always the
    shortest in MicroPython), so this is one text for one float everywhere. Beyond 20 decimals
    (tiny magnitudes the engine never writes) it falls back to ``repr``.

    >>> float_text(7.9565), float_text(2.0), float_text(0.1 + 0.2), float_text(1e-7)
    ('7.9565', '2.0', '0.30000000000000004', '0.0000001')
    """
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError("JSON has no NaN or infinity")
    for places in range(1, 21):
        text = ("%." + str(places) + "f") % value
        if float(text) == value:
            return text
    return repr(value)


def _canonical_parts(value, parts):
    kind = type(value)
    if kind is int:
        parts.append(str(value))
    elif kind is str:
        parts.append(_string_json(value))
    elif kind is list or kind is tuple:
        if not value:
            parts.append("[]")
            return
        for item in value:
            if type(item) is not int:
                break
        else:  # whole numbers only: one join
            parts.append("[" + ",".join([str(item) for item in value]) + "]")
            return
        parts.append("[")
        for i, item in enumerate(value):
            if i:
                parts.append(",")
            _canonical_parts(item, parts)
        parts.append("]")
    elif kind is dict:
        keys = list(value)
        for key in keys:
            if type(key) is not str:
                raise TypeError("canonical JSON keys are text, not " + type(key).__name__)
        keys.sort()
        parts.append("{")
        first = True
        for key in keys:
            if not first:
                parts.append(",")
            first = False
            parts.append(_string_json(key))
            parts.append(":")
            _canonical_parts(value[key], parts)
        parts.append("}")
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif kind is float:
        parts.append(float_text(value))
    else:
        raise TypeError("canonical JSON cannot hold a " + type(value).__name__)


def canonical_json(value):
    """JSON text with keys sorted and no spaces: one text for one value in both interpreters.

    The same text as CPython's ``json.dumps`` with sorted keys and the separators "," and ":"
    for None, bools, ints, text, lists, tuples and dicts with text keys. Floats are written by
    ``float_text`` (shortest fixed-point), which can differ from CPython's ``repr`` in form.

    >>> canonical_json({"b": [1, None, True], "a": "é"})
    '{"a":"\\\\u00e9","b":[1,null,true]}'
    """
    parts = []
    _canonical_parts(value, parts)
    return "".join(parts)


def compact_json(value):
    """JSON text (without spaces in CPython), non-ASCII kept as it is; keys as the dict iterates.

    For replies read back as values (the pages' calls), where key order does not matter.
    """
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    except TypeError:  # MicroPython: no options (it writes ", " between items, non-ASCII as is)
        return json.dumps(value)


# --------------------------------------------------------------------------------------------
# Reading untrusted text: JSON and UTF-8 as strictly in both interpreters

_JSON_PUNCTUATION = (b"{", b"}", b"[", b"]", b",", b":")
_JSON_LITERALS = (b"true", b"false", b"null", b"S")  # S: a string, once strings are set aside
_JSON_SIMPLE_ESCAPES = (b'\\"', b"\\/", b"\\b", b"\\f", b"\\n", b"\\r", b"\\t")
_HEX = b"0123456789abcdefABCDEF"
_DIGITS = b"0123456789"
MAX_JSON_DEPTH = 200  # lists and objects inside one another: far more than any record has


class StrictJSONError(ValueError):
    """Text that is not JSON as RFC 8259 writes it (the message says why)."""


def _json_fail(why):
    return StrictJSONError("not JSON: " + why)


def _digits_end(data, at):
    while at < len(data) and data[at] in _DIGITS:
        at += 1
    return at


def _is_number(token):
    """True for a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?"""
    at = 1 if token[:1] == b"-" else 0
    if token[at:at + 1] == b"0":
        at += 1
    else:
        end = _digits_end(token, at)
        if end == at:
            return False
        at = end
    if token[at:at + 1] == b".":
        end = _digits_end(token, at + 1)
        if end == at + 1:
            return False
        at = end
    if token[at:at + 1] in (b"e", b"E"):
        at += 1
        if token[at:at + 1] in (b"+", b"-"):
            at += 1
        end = _digits_end(token, at)
        if end == at:
            return False
        at = end
    return at == len(token)


def _unicode_escapes(data):
    """The text with its \\u escapes checked (four hex digits; surrogates only in pairs) and
    blanked out; any other backslash left is an unknown escape."""
    parts = data.split(b"\\u")
    if len(parts) == 1:
        return data
    out = [parts[0]]
    pending_high = False  # the last escape was a high surrogate: a low one must follow at once
    for part in parts[1:]:
        digits = part[:4]
        if len(digits) != 4 or any(d not in _HEX for d in digits):
            raise _json_fail("a \\u escape needs four hex digits")
        code = int(digits, 16)
        if pending_high != (0xDC00 <= code <= 0xDFFF) or (pending_high and out[-1]):
            raise _json_fail("a \\u escape is half a surrogate pair")
        pending_high = 0xD800 <= code <= 0xDBFF
        out.append(part[4:])
    if pending_high:
        raise _json_fail("a \\u escape is half a surrogate pair")
    return b"__".join(out)


def check_json(data):
    """Raise StrictJSONError unless the UTF-8 bytes ``data`` are exactly one JSON value (RFC
    8259), with white space around it at most: no NaN or Infinity, no trailing or leading
    commas, no leading zeros or bare decimal points, no unknown escapes or lone surrogates, no
    control characters in strings and nothing after the value (MicroPython's own parser takes
    all of these, CPython's some). Strings are set aside first, then the tokens between them
    are read, so the work is a few passes in C and one loop over the tokens.

    >>> check_json(b'{"a": [1, -2.5e3, "x\\\\n", null]}')
    >>> try:
    ...     check_json(b'[1,]')
    ... except StrictJSONError as error:
    ...     print(error)
    not JSON: a value is missing
    """
    data = bytes(data).replace(b"\\\\", b"__")
    for escape in _JSON_SIMPLE_ESCAPES:
        data = data.replace(escape, b"__")
    data = _unicode_escapes(data)
    if b"\\" in data:
        raise _json_fail("a string holds an unknown escape")
    parts = data.split(b'"')
    if len(parts) % 2 == 0:
        raise _json_fail("a string is not closed")
    inside = b"".join(parts[1::2])
    if inside and min(inside) < 0x20:
        raise _json_fail("a string holds a control character")
    outside = parts[0::2]
    for part in outside:
        if b"S" in part:
            raise _json_fail("a value is missing")
    skeleton = b" S ".join(outside).replace(b"\t", b" ").replace(b"\n", b" ").replace(b"\r", b" ")
    if skeleton and min(skeleton) < 0x20:
        raise _json_fail("there is a control character between values")
    for mark in _JSON_PUNCTUATION:
        skeleton = skeleton.replace(mark, b" " + mark + b" ")
    _check_tokens(skeleton.split())


def _check_tokens(tokens):
    """The tokens of JSON text (punctuation, S for a string, literals and numbers) in an order
    the grammar allows."""
    closers = []  # b"]" or b"}" of each open list or object
    numbers = {}  # tokens already read as numbers (a record repeats a few dozen)
    state = 0  # 0 a value, 1 a value or the end of an empty list, 2 a key or the end of an
    #            empty object, 3 a key, 4 the colon after a key, 5 after a value
    for token in tokens:
        if state == 5:
            if not closers:
                raise _json_fail("there is more after the value")
            if token == b",":
                state = 3 if closers[-1] == b"}" else 0
            elif token == closers[-1]:
                closers.pop()
            else:
                raise _json_fail("a comma or " + closers[-1].decode() + " is missing")
            continue
        if state == 4:
            if token != b":":
                raise _json_fail("a colon is missing")
            state = 0
            continue
        if state >= 2:
            if state == 2 and token == b"}":
                closers.pop()
                state = 5
            elif token == b"S":
                state = 4
            else:
                raise _json_fail("an object's key must be a string")
            continue
        if state == 1 and token == b"]":
            closers.pop()
            state = 5
        elif token == b"[" or token == b"{":
            if len(closers) >= MAX_JSON_DEPTH:
                raise _json_fail("lists and objects are nested too deep")
            closers.append(b"]" if token == b"[" else b"}")
            state = 1 if token == b"[" else 2
        elif token in _JSON_LITERALS:
            state = 5
        else:
            known = numbers.get(token)
            if known is None:
                known = numbers[token] = _is_number(token)
            if not known:
                raise _json_fail("a value is missing")
            state = 5
    if state != 5 or closers:
        raise _json_fail("it ends too soon")


def strict_json(text):
    """The value of JSON text (str, or UTF-8 bytes) read as strictly in every interpreter (see
    ``check_json``); StrictJSONError (a ValueError) if it is not exactly one JSON value.

    >>> strict_json('{"a": [1, 2.5]}')
    {'a': [1, 2.5]}
    """
    if isinstance(text, str):
        data = text.encode("utf-8")
    else:
        data = bytes(text)
        text = utf8_text(data)
    check_json(data)
    try:
        return json.loads(joined_surrogates(text))
    except (ValueError, RuntimeError):
        raise StrictJSONError("not JSON") from None


def _hex4(digits):
    """Four hex digits' value, or -1 for anything else."""
    if len(digits) != 4 or any(d not in "0123456789abcdefABCDEF" for d in digits):
        return -1
    return int(digits, 16)


def joined_surrogates(text):
    r"""JSON text with each escaped surrogate pair written as its one character (anything else as it was):
    MicroPython's json reads the two halves as two broken characters (an emoji sent as
    ``\ud83d\ude00`` would arrive garbled), CPython's joins them; both read the character alike.

    >>> joined_surrogates(r'["\\ud83d", "\ud83d\ude00"]') == r'["\\ud83d", "' + chr(0x1F600) + '"]'
    True
    """
    if "\\ud" not in text and "\\uD" not in text:
        return text
    out, at = [], 0
    while True:
        slash = text.find("\\", at)
        if slash < 0:
            out.append(text[at:])
            return "".join(out)
        if text[slash + 1] != "u":  # another escape (an escaped backslash among them): kept as it is
            out.append(text[at:slash + 2])
            at = slash + 2
            continue
        high = _hex4(text[slash + 2:slash + 6])
        low = _hex4(text[slash + 8:slash + 12]) if text[slash + 6:slash + 8] == "\\u" else -1
        if 0xD800 <= high <= 0xDBFF and 0xDC00 <= low <= 0xDFFF:
            out.append(text[at:slash])
            out.append(chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)))
            at = slash + 12
        else:
            out.append(text[at:slash + 6])
            at = slash + 6


def utf8_text(data):
    """Bytes read as UTF-8, refusing what is not (overlong forms, surrogates, codes past
    U+10FFFF, cut sequences) as CPython does and MicroPython's ``decode`` does not: ValueError.

    >>> utf8_text(b"caf\\xc3\\xa9")
    'café'
    """
    at, n = 0, len(data)
    while at < n:
        byte = data[at]
        if byte < 0x80:
            at += 1
            continue
        if 0xC2 <= byte <= 0xDF:
            size, low, high = 2, 0x80, 0xBF
        elif 0xE0 <= byte <= 0xEF:
            size = 3
            low = 0xA0 if byte == 0xE0 else 0x80
            high = 0x9F if byte == 0xED else 0xBF
        elif 0xF0 <= byte <= 0xF4:
            size = 4
            low = 0x90 if byte == 0xF0 else 0x80
            high = 0x8F if byte == 0xF4 else 0xBF
        else:
            raise ValueError("not UTF-8 text")
        tail = data[at + 1:at + size]
        if len(tail) != size - 1 or not low <= tail[0] <= high or any(not 0x80 <= b <= 0xBF for b in tail[1:]):
            raise ValueError("not UTF-8 text")
        at += size
    return bytes(data).decode("utf-8")


B64URL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_B64URL_VALUES = {ch: i for i, ch in enumerate(B64URL_ALPHABET)}


def b64url_text(data):
    """Bytes as base64url without padding (RFC 4648, section 5).

    >>> b64url_text(b"\\xfb\\xff")
    '-_8'
    """
    out = []
    for at in range(0, len(data), 3):
        chunk = bytes(data[at:at + 3])
        value = int.from_bytes(chunk + bytes(3 - len(chunk)), "big")
        chars = [B64URL_ALPHABET[(value >> shift) & 63] for shift in (18, 12, 6, 0)]
        out.append("".join(chars[:len(chunk) + 1]))
    return "".join(out)


def b64url_bytes(text):
    """The bytes of base64url text without padding, read strictly: ValueError (the same in both
    interpreters) for a character outside the alphabet, a length no bytes have (1 more than a
    multiple of 4) or unused bits that are not zero, so that each byte string has one text.

    >>> b64url_bytes("-_8")
    b'\\xfb\\xff'
    """
    if not isinstance(text, str):
        raise ValueError("not base64url text")
    if len(text) % 4 == 1:
        raise ValueError("its length is not one base64url has: part of it is missing")
    out = bytearray()
    for at in range(0, len(text), 4):
        chunk = text[at:at + 4]
        value = 0
        for ch in chunk:
            digit = _B64URL_VALUES.get(ch)
            if digit is None:
                raise ValueError("it holds a character base64url does not have")
            value = value << 6 | digit
        size = len(chunk) * 6 // 8
        spare = len(chunk) * 6 - size * 8
        if value & ((1 << spare) - 1):
            raise ValueError("its last character is not one base64url writes")
        out.extend((value >> spare).to_bytes(size, "big"))
    return bytes(out)
