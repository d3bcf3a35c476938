"""How the engine's error messages quote what they were given: a short piece, never the whole input.

A message may reach a player (the pages show bad-input messages as they are), so it quotes at
most ``QUOTE_LIMIT`` characters of a value, with an ellipsis, and writes a value the same way in
CPython and MicroPython (lists and dicts as compact JSON with sorted keys, never a ``repr``
whose order could differ).

>>> quoted("5X"), quoted(7), quoted(None), quoted([1, {"b": 2, "a": 1}])
("'5X'", '7', 'None', '[1,{"a":1,"b":2}]')
>>> quoted("x" * 100)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…'"
"""

from engine.compat import canonical_json, float_text

QUOTE_LIMIT = 40  # characters of a value quoted in a message
ELLIPSIS = "\u2026"
INVISIBLE_RANGES = ((0x0000, 0x001F), (0x007F, 0x009F), (0x00AD, 0x00AD), (0x034F, 0x034F),
                    (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
                    (0x200B, 0x200F), (0x2028, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
                    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFFB),
                    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))
"""Control, format and other characters that draw nothing (zero widths, direction overrides,
variation selectors, fillers): they can hide or reverse text, so messages and names drop them."""


def is_invisible(ch: str) -> bool:
    """True for a character that draws nothing or changes how the text around it is drawn.

    >>> is_invisible("\u202e"), is_invisible("\u200b"), is_invisible("é"), is_invisible(" ")
    (True, True, False, False)
    """
    code = ord(ch)
    for low, high in INVISIBLE_RANGES:
        if low <= code <= high:
            return True
    return False


def visible_text(text: str) -> str:
    """The text without its invisible characters, with runs of white space made one space.

    >>> visible_text("  Ann\u200b \u202eBob ")
    'Ann Bob'
    """
    return " ".join("".join(ch for ch in text if not is_invisible(ch)).split())


def shortened(text: str, limit: int = QUOTE_LIMIT) -> str:
    """The text, cut to ``limit`` characters with an ellipsis if it is longer.

    >>> shortened("abcdef", 4)
    'abc…'
    """
    text = str(text)
    return text if len(text) <= limit else text[:limit - 1] + ELLIPSIS


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A value as a message quotes it: text in quotes, numbers as they are, the rest as JSON;
    cut to ``limit`` characters with an ellipsis."""
    if isinstance(value, str):
        inner = shortened(value, limit)
        inner = "".join("\\u%04x" % ord(ch) if is_invisible(ch) else ch for ch in inner)
        return "'" + inner.replace("'", "\\'") + "'"
    if value is None or isinstance(value, bool) or type(value) is int:
        return shortened(repr(value), limit)
    if type(value) is float:
        return shortened(float_text(value), limit)
    try:
        return shortened(canonical_json(value), limit)
    except (TypeError, ValueError, RuntimeError):  # not JSON (or nested too deep): say what it is
        return "a " + type(value).__name__
