"""engine.compat: the stand-ins MicroPython runs give what CPython's own pieces give."""

import itertools
import json
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import compat, fairdeal

POOLS = [(), (1,), (1, 2, 3), tuple("abcde"), tuple(range(7))]


@pytest.mark.parametrize("pool", POOLS)
@pytest.mark.parametrize("k", range(0, 8))
def test_combinations_match_itertools(pool, k):
    assert list(compat.pure_combinations(pool, k)) == list(itertools.combinations(pool, k))
    assert (list(compat.pure_combinations_with_replacement(pool, k))
            == list(itertools.combinations_with_replacement(pool, k)))


def test_product_matches_itertools():
    for pools in [(), ((1, 2),), ((1, 2), "ab", (3,)), ((1, 2), ())]:
        assert list(compat.pure_product(*pools)) == list(itertools.product(*pools))


def test_comb_matches_math():
    for n in range(0, 60):
        for k in range(0, 62):
            assert compat.pure_comb(n, k) == math.comb(n, k)
    with pytest.raises(ValueError):
        compat.pure_comb(-1, 2)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=6), inner, max_size=5),
    max_leaves=25)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_canonical_json_is_json_dumps_with_sorted_keys(value):
    assert compat.canonical_json(value) == json.dumps(value, sort_keys=True, separators=(",", ":"))


def test_canonical_json_escapes_like_json_dumps():
    text = "".join(chr(i) for i in range(0, 0x100)) + "\u2028\U0001F600é\"\\"
    value = {text: [text, {"b": 1, "a": 2}]}
    assert compat.canonical_json(value) == json.dumps(value, sort_keys=True, separators=(",", ":"))


def test_canonical_json_writes_a_short_text_once_and_the_same_every_time(monkeypatch):
    monkeypatch.setattr(compat, "_STRING_JSON", {})
    short, long = "é\"quote", "x" * (compat.STRING_JSON_SHORT + 1)
    for _ in range(2):
        assert compat.canonical_json({short: long}) == json.dumps({short: long}, separators=(",", ":"))
    assert set(compat._STRING_JSON) == {short}
    monkeypatch.setattr(compat, "STRING_JSON_KEEP", 3)
    texts = [str(i) * 2 for i in range(10)]
    assert compat.canonical_json(texts) == json.dumps(texts, separators=(",", ":"))
    assert len(compat._STRING_JSON) == 3


def test_canonical_json_refuses_what_json_cannot_hold():
    for bad in ({1: 2}, {"a": {3}}, [float("nan")], object()):
        with pytest.raises((TypeError, ValueError)):
            compat.canonical_json(bad)


@settings(max_examples=500, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e9, max_value=1e9))
def test_float_text_reads_back_as_the_same_float(value):
    text = compat.float_text(value)
    assert float(text) == value
    if value == 0 or abs(value) >= 1e-4:  # tinier magnitudes may fall back to repr
        assert "." in text and "e" not in text


@settings(max_examples=500, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6), st.integers(0, 9))
def test_round_to_is_cpythons_round(value, digits):
    assert compat.round_to(value, digits) == round(value, digits)


def test_round_to_rounds_exact_halves_to_even():
    for value, digits, expected in ((12.125, 2, 12.12), (-12.125, 2, -12.12), (0.375, 2, 0.38), (2.5, 0, 2.0),
                                    (3.5, 0, 4.0), (0.0009765625, 9, 0.000976562), (1234567.8125, 3, 1234567.812)):
        assert compat.round_to(value, digits) == expected == round(value, digits)
    assert str(compat.round_to(-0.001, 2)) == str(round(-0.001, 2)) == "-0.0"
    assert compat.round_to(1e300, 2) == 1e300 and compat.round_to(float("inf"), 2) == float("inf")


def test_value_counts_and_memo():
    assert compat.value_counts("abca") == [("a", 2), ("b", 1), ("c", 1)]
    calls = []
    memo = compat.Memo(lambda x: calls.append(x) or x * 2, size=2)
    assert [memo(1), memo(1), memo(2), memo(3), memo(1)] == [2, 2, 4, 6, 2]
    assert calls == [1, 2, 3, 1] and len(memo.results) == 2


def test_sha256_hex():
    assert compat.sha256_hex(b"") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert compat.sha256_hex("é") == compat.sha256_hex("é".encode("utf-8"))


def test_seed_source_is_used_and_checked():
    try:
        fairdeal.use_seed_source(lambda n: bytes(range(n)))
        assert fairdeal.new_seed() == "000102030405060708090a0b0c0d0e0f"
        fairdeal.use_seed_source(lambda n: b"\x01")
        with pytest.raises(RuntimeError, match="1 bytes"):
            fairdeal.new_seed()
    finally:
        fairdeal.use_seed_source(None)
    assert fairdeal.new_seed() != fairdeal.new_seed()


def test_keyed_generator_draws():
    rng = fairdeal.keyed_generator("key")
    draws = [rng.random() for _ in range(1000)]
    assert all(0.0 <= x < 1.0 for x in draws) and 0.4 < sum(draws) / 1000 < 0.6
    again = fairdeal.keyed_generator("key")
    assert [again.random() for _ in range(1000)] == draws
    assert fairdeal.keyed_generator("k").choice("abc") in "abc"
    with pytest.raises(ValueError):
        fairdeal.keyed_generator("k").choice([])


STRICT_JSON_PIECES = ['{', '}', '[', ']', ',', ':', '"a"', '"\\u00e9"', '"\\ud83c\\udca1"', '"\\x"', '1', '-0', '01',
                      '1.', '.5', '1e5', '1E+2', '-', 'true', 'null', 'false', 'tru', 'NaN', 'Infinity', ' ', '\n',
                      '\t', '"\t"', '"é"', '\x00', '2.5', '"\\"', '"\\\\"', '"a\\/b"', '1e', '-01', '0.0e-0',
                      '\ufeff', '\x0b', '\x0c', '+1', '"\\u12"', '"\\u123g"', 'S', '"S"', '\\', '"\\U00000041"']


def _cpython_json(text):
    """CPython's strict reading (NaN and Infinity refused too), or None if it refuses."""
    def refuse(name):
        raise ValueError(name)

    try:
        value = json.loads(text, parse_constant=refuse)
    except (ValueError, RecursionError):
        return None
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in json.dumps(value, ensure_ascii=False)):
        return None  # a lone surrogate: CPython keeps it, the engine refuses it (MicroPython cannot hold it)
    return ("ok", value)


def test_strict_json_takes_exactly_what_cpython_takes():
    """compat.strict_json reads the same JSON as CPython's parser and refuses the rest (MicroPython's
    own parser takes trailing commas, leading zeros, text after a NUL, unknown escapes, ...)."""
    rng = random.Random(31)
    texts = {"".join(rng.choice(STRICT_JSON_PIECES) for _ in range(rng.randint(1, 7))) for _ in range(40000)}
    texts |= {'{"a":1,}', '[1,]', '[,1]', '{,"a":1}', '02', '2.', '{"a":1}\x00junk', '"\\q"', '"a\tb"', '[1 2]',
              '{"a" 1}', '{"a":1 "b":2}', '[' * 300 + ']' * 300, '"\\ud800"', '"\\udc00\\ud800"', ' [1] '}
    for text in sorted(texts):
        expected = _cpython_json(text)
        try:
            got = ("ok", compat.strict_json(text))
        except compat.StrictJSONError:
            got = None
        if text.startswith("[" * 300):
            assert got is None  # nested deeper than MAX_JSON_DEPTH
            continue
        assert got == expected, repr(text)
    assert compat.strict_json(b'{"a": "\xc3\xa9"}') == {"a": "é"}
    with pytest.raises(ValueError):
        compat.strict_json(b'"\xc0\xaf"')


def test_utf8_text_refuses_what_cpython_refuses():
    samples = [b"plain", "café ♣ \U0001f0a1".encode(), b"\xc0\xaf", b"\xe0\x80\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
               b"\xf5\x80\x80\x80", b"\x80", b"A\xe2\x82", b"\xff", b"\xc2", b"\xef\xbf\xbf", b"\xf0\x9f\x83\xa1"]
    rng = random.Random(5)
    samples += [bytes(rng.randrange(256) for _ in range(rng.randint(1, 4))) for _ in range(20000)]
    for data in samples:
        try:
            expected = data.decode("utf-8")
        except UnicodeDecodeError:
            expected = None
        try:
            got = compat.utf8_text(data)
        except ValueError:
            got = None
        assert got == expected, data
