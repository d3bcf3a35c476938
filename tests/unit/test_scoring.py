"""Counting the show and the play: worked examples, known bugs of other games, properties."""

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from engine.cards import parse_card, parse_cards
from engine.scoring import (
    DOUBLE_PAIR_ROYAL, FIFTEEN, FIVE_CARD_FLUSH, HAND_FLUSH, MAX_COUNT, NOBS, PAIR, PAIR_ROYAL,
    THIRTY_ONE, count_of, number_name, score_play, score_show, show_total, show_totals,
)


def show(hand, starter, crib=False):
    result = score_show(parse_cards(hand), parse_card(starter), crib)
    assert show_total(parse_cards(hand), parse_card(starter), crib) == result.total
    return result


def kinds(result):
    return dict(Counter(item.kind for item in result.items))


# (hand, starter, crib, total, breakdown by kind or None). Suits are chosen to add no flush or
# nobs where the worked example gives ranks only.
WORKED_EXAMPLES = [
    ("5S 5H 5D JC", "5C", False, 29, {"fifteen": 8, "pair": 6, "nobs": 1}),
    ("5S 5H 5D 5C", "10D", False, 28, {"fifteen": 8, "pair": 6}),
    ("5S 5H 5D 5C", "JD", False, 28, {"fifteen": 8, "pair": 6}),
    ("5S 5H 5D 5C", "QH", False, 28, {"fifteen": 8, "pair": 6}),
    ("5S 5H 5D 5C", "KS", False, 28, {"fifteen": 8, "pair": 6}),
    ("4C 4D 5H 5S", "6C", False, 24, {"fifteen": 4, "pair": 2, "run": 4}),
    ("4C 5D 6H 6S", "5C", False, 24, {"fifteen": 4, "pair": 2, "run": 4}),
    ("7C 7D 8H 8S", "9C", False, 24, {"fifteen": 4, "pair": 2, "run": 4}),
    ("4C 5D 5H 6S", "9C", False, 14, {"fifteen": 3, "pair": 1, "run": 2}),
    ("2C 4D 6S 8H", "KD", False, 0, {}),
    ("7C 8D 8S 9H", "KC", False, 12, {"fifteen": 2, "pair": 1, "run": 2}),
    ("5H 5S JC KD", "5C", False, 21, {"fifteen": 7, "pair": 3, "nobs": 1}),
    ("2H 6H 9H QH", "KS", False, 6, {"fifteen": 1, "flush": 1}),
    ("2H 6H 9H QH", "KS", True, 2, {"fifteen": 1}),
    ("2C 5C 9C KC", "6C", True, 9, {"fifteen": 2, "flush": 1}),
    ("2C 5C 9C KC", "6C", False, 9, {"fifteen": 2, "flush": 1}),
    ("5S 5H 5D JC", "2H", False, 14, {"fifteen": 4, "pair": 3}),  # 5 5 5 J before the cut: 14
    ("5S 5H 5D JC", "QD", False, 20, {"fifteen": 7, "pair": 3}),
    ("5S 5H 5D JC", "KC", False, 21, {"fifteen": 7, "pair": 3, "nobs": 1}),
    ("5S 5H 5D JC", "JD", False, 22, {"fifteen": 7, "pair": 4}),
    ("5C 5D 6H 7S", "KC", False, 12, {"fifteen": 2, "pair": 1, "run": 2}),
    ("4C 4D 4S 5D", "6S", False, 21, {"fifteen": 3, "pair": 3, "run": 3}),
]


@pytest.mark.parametrize("hand, starter, crib, total, breakdown", WORKED_EXAMPLES)
def test_worked_examples(hand, starter, crib, total, breakdown):
    result = show(hand, starter, crib)
    assert result.total == total
    assert kinds(result) == breakdown
    assert sum(item.points for item in result.items) == total


@pytest.mark.parametrize("hand, starter, crib, total, breakdown",
                         [e for e in WORKED_EXAMPLES if not e[2]])
def test_worked_examples_as_crib(hand, starter, crib, total, breakdown):
    # As a crib the count is the same unless a four-card flush was counted.
    four_card_flush = any(i.kind == "flush" and i.points == HAND_FLUSH for i in show(hand, starter).items)
    assert show(hand, starter, crib=True).total == total - (HAND_FLUSH if four_card_flush else 0)


def test_run_multiplicities():
    assert [i.points for i in show("4C 5D 5H 6S", "9C").items if i.kind == "run"] == [3, 3]
    assert sum(i.points for i in show("4C 5D 5H 5S", "6C").items if i.kind in ("run", "pair")) == 15
    assert sum(i.points for i in show("4C 4D 5H 5S", "6C").items if i.kind in ("run", "pair")) == 16
    assert sum(i.points for i in show("4C 5D 5H 6S", "7C").items if i.kind in ("run", "pair")) == 10
    assert kinds(show("AC 2D 3H 4S", "5C")) == {"fifteen": 1, "run": 1}
    assert show("AC 2D 3H 4S", "5C").items[-1].points == 5
    assert kinds(show("QC KD AH 4S", "9C")) == {"fifteen": 2}  # Q-K-A is not a run


def test_flush_rules():
    assert show("2H 4H 6H 8H", "KH").total == FIVE_CARD_FLUSH  # no fifteens here: 5 for the flush
    assert show("2H 4H 6H 8H", "KH", crib=True).total == FIVE_CARD_FLUSH
    assert show("2H 4H 6H 8H", "KS").total == HAND_FLUSH
    assert show("2H 4H 6H 8H", "KS", crib=True).total == 0
    # three hand cards and a matching starter are no flush
    assert show("2H 4H 6H 8S", "KH").total == 0
    assert show("2H 4H 6H 8S", "KH", crib=True).total == 0


def test_nobs_rules():
    assert kinds(show("JH 2C 4S 6D", "8H")) == {"nobs": 1}
    assert kinds(show("JH 2C 4S 6D", "8C")) == {}       # jack of another suit
    assert kinds(show("2C 4S 6D 8S", "JH")) == {}       # the starter itself is never nobs
    assert show("JH 2C 4S 6D", "8H").items[-1].cards == (parse_card("JH"), parse_card("8H"))
    assert show("JH JC 2S 4D", "8H").total == PAIR + NOBS


def test_items_counting_order_and_cards():
    result = show("5S 5H 5D JC", "5C")
    order = ["fifteen", "pair", "run", "flush", "nobs"]
    positions = [order.index(i.kind) for i in result.items]
    assert positions == sorted(positions)
    for item in result.items:
        if item.kind == "fifteen":
            assert sum(min(c % 13 + 1, 10) for c in item.cards) == 15
        if item.kind == "pair":
            assert len(item.cards) == 2 and item.cards[0] % 13 == item.cards[1] % 13


@pytest.mark.parametrize("hand, starter, crib, spoken", [
    ("5S 5H 5D JC", "5C", False,
     "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
     "fifteen fourteen, fifteen sixteen, a double pair royal is twenty-eight, and nobs is twenty-nine"),
    ("7C 8D 8S 9H", "KC", False, "fifteen two, fifteen four, a pair is six, and two runs of three is twelve"),
    ("5H 5S JC KD", "5C", False,
     "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
     "fifteen fourteen, a pair royal is twenty, and nobs is twenty-one"),
    ("4C 4D 5H 5S", "6C", False,
     "fifteen two, fifteen four, fifteen six, fifteen eight, a pair is ten, another pair is twelve, "
     "and four runs of three is twenty-four"),
    ("2H 6H 9H QH", "KS", False, "fifteen two, and a flush of four is six"),
    ("2C 5C 9C KC", "6C", True, "fifteen two, fifteen four, and a flush of five is nine"),
    ("2C 4D 6S 8H", "KD", False, "nineteen (no points)"),
    ("KC 5D 2S 3H", "9D", False, "fifteen two, fifteen four"),
    ("JC QD KH AS", "3D", False, "a run of three is three"),
    ("10C JD QH KS", "AH", False, "a run of four is four"),
    ("JH 2C 4S 6D", "8H", False, "nobs is one"),
    ("5S 5H 5D JC", "JD", False,
     "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
     "fifteen fourteen, a pair royal is twenty, and another pair is twenty-two"),
])
def test_spoken_count(hand, starter, crib, spoken):
    assert show(hand, starter, crib).spoken == spoken


def test_show_to_dict_is_json():
    result = show("5S 5H 5D JC", "5C")
    data = json.loads(json.dumps(result.to_dict()))
    assert data["total"] == 29 and data["crib"] is False
    assert data["hand"] == parse_cards("5S 5H 5D JC") and data["starter"] == parse_card("5C")
    assert data["items"][0]["kind"] == "fifteen" and data["items"][0]["points"] == 2
    assert data["items"][-1] == {"kind": "nobs", "cards": parse_cards("JC 5C"), "names": ["JC", "5C"],
                                 "points": 1}
    assert data["spoken"] == result.spoken and data["spoken_parts"][-1] == "and nobs is twenty-nine"


def test_show_bad_input():
    with pytest.raises(ValueError, match="4 cards, got 3"):
        score_show(parse_cards("5S 5H 5D"), 0)
    with pytest.raises(ValueError, match="duplicate card 5C"):
        score_show(parse_cards("5S 5H 5D 5C"), parse_card("5C"))
    with pytest.raises(ValueError, match="52"):
        score_show([1, 2, 3, 52], 4)
    with pytest.raises(ValueError, match="'ZZ'"):
        score_show(["5S", "5H", "5D", "ZZ"], "5C")
    assert score_show(["5S", "5H", "5D", "JC"], "5C").total == 29


def test_show_total_matches_score_show_on_random_hands():
    rng = random.Random(20240601)
    for _ in range(3000):
        cards = rng.sample(range(52), 5)
        for crib in (False, True):
            assert show_total(cards[:4], cards[4], crib) == score_show(cards[:4], cards[4], crib).total
        assert show_total(tuple(cards[:4]), cards[4]) == show_total(cards[:4], cards[4])


def test_show_totals_are_show_total_for_each_starter():
    rng = random.Random(20261201)
    hands = [rng.sample(range(52), 4) for _ in range(300)]
    hands += [[s * 13 + r for r in ranks] for s in range(4) for ranks in ((0, 4, 9, 10), (2, 3, 10, 12))]  # flushes, jacks
    for hand in hands:
        starters = [c for c in range(52) if c not in hand]
        assert show_totals(hand, starters) == [show_total(hand, s) for s in starters]


def test_show_total_rejects_duplicate_five_of_a_rank():
    with pytest.raises(ValueError):
        show_total([4, 4, 17, 30], 43)


five_cards = st.lists(st.integers(min_value=0, max_value=51), min_size=5, max_size=5, unique=True)


@settings(max_examples=300)
@given(five_cards)
def test_show_properties(cards):
    hand, starter = cards[:4], cards[4]
    as_hand, as_crib = score_show(hand, starter), score_show(hand, starter, crib=True)
    for result in (as_hand, as_crib):
        assert 0 <= result.total <= 29
        assert result.total not in (19, 25, 26, 27)
        assert sum(item.points for item in result.items) == result.total
        assert result.total == show_total(hand, starter, result.crib)
        if result.total:
            assert result.spoken.endswith(number_name(result.total))
    assert as_crib.total <= as_hand.total


# ---------------------------------------------------------------------------------------------
# The play

PLAY_CASES = [
    # cards laid since the reset, points for the last card, kinds scored
    ("4H 6S 5D", 5, ["fifteen", "run"]),          # run out of order, and fifteen
    ("4H 6S 6D 5D", 0, []),                        # duplicate breaks the run
    ("4H 6S 5D 3C", 4, ["run"]),                   # run of four continues
    ("4H 6S 5D 7C", 4, ["run"]),
    ("2H 8S 6D 7C 5H", 4, ["run"]),                # 8 6 7 5 is a run of four
    ("AS 7H 7D", 4, ["fifteen", "pair"]),          # 15 and a pair
    ("KS 6H 7D 8C", 5, ["thirty_one", "run"]),     # 31 with a run
    ("AS 2S 3S 4S 5S 6S", 6, ["run"]),             # run of six
    ("3C 4C 2C 6C 5C AS 7S", 7, ["run"]),          # run of seven
    ("7C 7D 7H", 6, ["pair_royal"]),
    ("4C 4D 4H 4S", 12, ["double_pair_royal"]),
    ("5C 5D 5H", 8, ["fifteen", "pair_royal"]),
    ("5C 6D 5H", 0, []),                           # pair not scored with a non-adjacent card
    ("4H 6S KD 5C", 0, []),                        # a stranger breaks the run
    ("KC 5D", 2, ["fifteen"]),
    ("KC QD JH AS", 2, ["thirty_one"]),
    ("KC QD", 0, []),                              # king and queen are no pair
    ("QC KD AH", 0, []),                           # ace is low: Q K A is no run
    ("9C 10D JH", 3, ["run"]),
    ("2C AH 3D 3S", 2, ["pair"]),
    ("AC", 0, []),
]


@pytest.mark.parametrize("cards, total, kinds_scored", PLAY_CASES)
def test_play(cards, total, kinds_scored):
    result = score_play(parse_cards(cards))
    assert result.total == total
    assert [i.kind for i in result.items] == kinds_scored
    assert sum(i.points for i in result.items) == total
    assert result.count == count_of(parse_cards(cards))


def test_play_item_cards():
    result = score_play(parse_cards("2H 8S 6D 7C 5H"))
    assert result.items[0].cards == tuple(parse_cards("8S 6D 7C 5H"))
    result = score_play(parse_cards("AS 7H 7D"))
    assert result.items[0].cards == tuple(parse_cards("AS 7H 7D"))
    assert result.items[1].cards == tuple(parse_cards("7H 7D"))


def test_play_points_constants():
    assert (FIFTEEN, THIRTY_ONE, PAIR, PAIR_ROYAL, DOUBLE_PAIR_ROYAL, MAX_COUNT) == (2, 2, 2, 6, 12, 31)


def test_play_spoken_and_dict():
    assert score_play(parse_cards("KC 5D")).spoken == "fifteen for two"
    assert score_play(parse_cards("KC 6D")).spoken == "sixteen"
    assert score_play(parse_cards("KS 6H 7D 8C")).spoken == "thirty-one for five"
    data = json.loads(json.dumps(score_play(parse_cards("AS 7H 7D")).to_dict()))
    assert data == {
        "cards": parse_cards("AS 7H 7D"), "count": 15, "total": 4, "spoken": "fifteen for four",
        "items": [
            {"kind": "fifteen", "cards": parse_cards("AS 7H 7D"), "names": ["AS", "7H", "7D"], "points": 2},
            {"kind": "pair", "cards": parse_cards("7H 7D"), "names": ["7H", "7D"], "points": 2},
        ],
    }


def test_play_bad_input():
    with pytest.raises(ValueError, match="past 31"):
        score_play(parse_cards("KC QD JH 2S"))
    with pytest.raises(ValueError, match="duplicate"):
        score_play([3, 3])
    with pytest.raises(ValueError, match="no cards"):
        score_play([])


def test_number_name():
    assert [number_name(n) for n in (0, 7, 15, 20, 29, 31, 61, 100, 121)] == [
        "zero", "seven", "fifteen", "twenty", "twenty-nine", "thirty-one", "sixty-one",
        "one hundred", "one hundred twenty-one"]
    with pytest.raises(ValueError):
        number_name(-1)


def test_shipped_show_table_is_the_count_afresh():
    from pathlib import Path

    from engine import scoring

    fresh = scoring.compute_show_table()
    shipped = Path(scoring.SHOW_TABLE_PATH).read_bytes()
    assert shipped == scoring.show_table_bytes(fresh)
    assert scoring.parse_show_table(shipped) == fresh and scoring.build_tables() == fresh
    for bad in (b"", shipped[:-1], b"x" + shipped[1:], shipped + b"\0"):
        with pytest.raises(ValueError):
            scoring.parse_show_table(bad)
    head = len(scoring.SHOW_TABLE_MAGIC) + 4
    n = len(fresh)
    swapped = bytearray(shipped)  # points no longer in order
    swapped[head + 4 * n], swapped[-1] = swapped[-1], swapped[head + 4 * n]
    twice = bytearray(shipped)  # one key listed twice
    twice[head:head + 4] = shipped[head + 4:head + 8]
    for bad in (bytes(swapped), bytes(twice)):
        with pytest.raises(ValueError):
            scoring.parse_show_table(bad)


def test_show_table_loads_grouped_by_points():
    """The shipped order puts each value's keys together, lowest points first."""
    from engine import scoring

    table = {5 ** 4: 2, 3: 0, 5 ** 7 + 1: 2, 7: 28}
    data = scoring.show_table_bytes(table)
    head = len(scoring.SHOW_TABLE_MAGIC) + 4
    assert data[head + 4 * 4:] == bytes([0, 2, 2, 28])
    assert scoring.parse_show_table(data) == table
