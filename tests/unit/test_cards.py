"""Cards: ints, lookup tables, parsing and names."""

import pytest
from hypothesis import given, strategies as st

from engine.cards import (
    CARD_NAMES, DECK, RANK_OF, RANKS, SUIT_GLYPHS, SUIT_OF, SUITS, VALUE_OF,
    card_name, card_pretty, card_spoken, cards_name, is_card, make_card, parse_card, parse_cards,
)


def test_deck_order_and_tables():
    assert DECK == tuple(range(52))
    assert card_name(0) == "AC" and card_name(51) == "KS"
    assert card_name(13) == "AD" and card_name(26) == "AH" and card_name(39) == "AS"
    assert [VALUE_OF[c] for c in range(13)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert all(RANK_OF[c] == c % 13 and SUIT_OF[c] == c // 13 for c in DECK)
    assert len(RANKS) == 13 and len(SUITS) == len(SUIT_GLYPHS) == 4
    assert len(set(CARD_NAMES)) == 52


@pytest.mark.parametrize("text, name", [
    ("5H", "5H"), ("5h", "5H"), ("10S", "10S"), ("10s", "10S"), ("TS", "10S"), ("ts", "10S"),
    ("J♦", "JD"), ("Q♣", "QC"), ("a♠", "AS"), ("K♥", "KH"), ("k♡", "KH"), ("2♢", "2D"),
    (" 9c ", "9C"), ("A♥\ufe0f", "AH"), ("jd", "JD"),
])
def test_parse_card_forms(text, name):
    assert card_name(parse_card(text)) == name


@pytest.mark.parametrize("text, fragment", [
    ("1H", "'1'"), ("11H", "'11'"), ("ZS", "'Z'"), ("5X", "'X'"), ("5", "'5'"), ("", "''"),
    ("HH", "'H'"), ("5♤♤", "'5♤'"),
])
def test_parse_card_errors_name_the_token(text, fragment):
    with pytest.raises(ValueError) as info:
        parse_card(text)
    assert fragment in str(info.value)


def test_parse_card_rejects_non_strings():
    with pytest.raises(ValueError):
        parse_card(5)  # type: ignore[arg-type]


def test_parse_cards_separators_and_iterables():
    assert cards_name(parse_cards("5H 5S,5D ,  jc")) == "5H 5S 5D JC"
    assert cards_name(parse_cards(["5H", 17, "TS"])) == "5H 5D 10S"
    assert parse_cards("") == []


def test_parse_cards_duplicate_names_the_card():
    with pytest.raises(ValueError, match="duplicate card '5h'"):
        parse_cards("5H 6D 5h")
    with pytest.raises(ValueError, match="duplicate"):
        parse_cards([3, 3])


def test_parse_cards_count():
    assert len(parse_cards("AC 2C 3C 4C", count=4)) == 4
    with pytest.raises(ValueError, match="expected 4 cards, got 3"):
        parse_cards("AC 2C 3C", count=4)
    with pytest.raises(ValueError, match="expected 4 cards, got 5"):
        parse_cards("AC 2C 3C 4C 5C", count=4)


def test_parse_cards_bad_token_named():
    with pytest.raises(ValueError, match="'QX'"):
        parse_cards("5H QX 7D")
    with pytest.raises(ValueError, match="52"):
        parse_cards([52])
    with pytest.raises(ValueError):
        parse_cards([True])


def test_names():
    five_h = parse_card("5H")
    assert card_name(five_h) == "5H"
    assert card_pretty(five_h) == "5♥"
    assert card_pretty(parse_card("10S")) == "10♠"
    assert card_spoken(five_h) == "five of hearts"
    assert card_spoken(parse_card("AC")) == "ace of clubs"
    assert card_spoken(parse_card("KD")) == "king of diamonds"
    for bad in (-1, 52, "5H", None):
        with pytest.raises(ValueError):
            card_name(bad)  # type: ignore[arg-type]


def test_make_card_and_is_card():
    assert make_card(4, 2) == parse_card("5H")
    with pytest.raises(ValueError):
        make_card(13, 0)
    assert is_card(0) and is_card(51)
    assert not is_card(52) and not is_card(-1) and not is_card(True) and not is_card("5H")


@given(st.integers(min_value=0, max_value=51))
def test_name_round_trip(card):
    assert parse_card(card_name(card)) == card
    assert parse_card(card_pretty(card)) == card
    assert parse_card(card_name(card).lower()) == card
