"""The crib table and the discard analysis, checked against deal-by-deal counts."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest

from engine import analysis, scoring
from engine.analysis import (
    CRIB_DEALS,
    compute_crib_table,
    conditional_crib_brute,
    conditional_crib_values,
    crib_table,
    crib_throw_total,
    crib_throw_total_brute,
    crib_value,
    discard_options,
    load_crib_data,
)
from engine.cards import RANKS, make_card, parse_card, parse_cards
from engine.scoring import score_show

ROOT = Path(__file__).resolve().parents[2]
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
PYTHON = str(VENV_PYTHON if VENV_PYTHON.exists() else Path(sys.executable))

R = {name: i for i, name in enumerate(RANKS)}

# The published table, to the precision it is quoted.
ANCHORS = [("5", "5", 8.99, 2), ("2", "3", 6.84, 2), ("7", "8", 6.77, 2), ("4", "5", 7.0, 1),
           ("10", "K", 3.4, 1), ("5", "J", 7.3, 1), ("9", "K", 3.5, 1)]


def brute_cell(r1: int, r2: int) -> float:
    """A table cell recounted deal by deal: off-suit (and suited, weighted 1 in 4) throws."""
    offsuit = crib_throw_total_brute(make_card(r1, 0), make_card(r2, 1)) / CRIB_DEALS
    if r1 == r2:
        return offsuit
    suited = crib_throw_total_brute(make_card(r1, 2), make_card(r2, 2)) / CRIB_DEALS
    return 0.25 * suited + 0.75 * offsuit


# ------------------------------------------------------------------------------------------
# The crib table


@pytest.mark.parametrize("a, b, value, places", ANCHORS)
def test_shipped_table_reproduces_the_published_anchors(a, b, value, places):
    table = crib_table()
    assert round(table[R[a]][R[b]], places) == value
    assert table[R[a]][R[b]] == table[R[b]][R[a]]


@pytest.mark.parametrize("a, b, value, places", ANCHORS)
def test_anchor_cells_recounted_deal_by_deal(a, b, value, places):
    cell = brute_cell(R[a], R[b])
    assert round(cell, places) == value
    assert cell == pytest.approx(crib_table()[R[a]][R[b]], abs=1e-12)


@pytest.mark.parametrize("a, b", [("5C", "5D"), ("JC", "5C"), ("JH", "JS"), ("2S", "3S"),
                                  ("10D", "KH"), ("AC", "KC"), ("7H", "8D"), ("JD", "QD")])
def test_exact_count_equals_deal_by_deal_count(a, b):
    first, second = parse_card(a), parse_card(b)
    assert crib_throw_total(first, second) == crib_throw_total_brute(first, second)


def test_shipped_json_equals_a_fresh_computation():
    shipped = load_crib_data(analysis.CRIB_TABLE_PATH)
    fresh = compute_crib_table()
    assert shipped == json.loads(json.dumps(fresh))
    assert Path(analysis.CRIB_TABLE_PATH).read_text(encoding="utf-8") == analysis.crib_table_json(fresh)


def test_table_command_writes_the_shipped_file(tmp_path):
    out = tmp_path / "crib_table.json"
    show = tmp_path / "show_table.bin"
    done = subprocess.run([PYTHON, "-m", "engine", "table", "--out", str(out), "--show-out", str(show)], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8", timeout=60)
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8") == Path(analysis.CRIB_TABLE_PATH).read_text(encoding="utf-8")
    assert show.read_bytes() == Path(scoring.SHOW_TABLE_PATH).read_bytes()
    lines = done.stdout.splitlines()
    five = next(line for line in lines if line.split()[:1] == ["5"])
    assert "8.99" in five.split()
    assert "counted in" in done.stdout and f"wrote {out}" in done.stdout


def test_table_command_bad_path_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    done = subprocess.run([PYTHON, "-m", "engine", "table", "--out", str(blocker / "sub" / "t.json"),
                           "--show-out", str(tmp_path / "show.bin")],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


@pytest.mark.slow
def test_whole_table_regenerated_deal_by_deal(tmp_path):
    """The command with --check: all 169 x 58,800 deals also scored one by one, and written."""
    out = tmp_path / "crib_table.json"
    done = subprocess.run([PYTHON, "-m", "engine", "table", "--check", "--out", str(out),
                           "--show-out", str(tmp_path / "show.bin")], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "every deal scored one by one" in done.stdout and "same sums" in done.stdout
    assert out.read_text(encoding="utf-8") == Path(analysis.CRIB_TABLE_PATH).read_text(encoding="utf-8")


def test_table_shape_symmetry_and_weighting():
    data = load_crib_data()
    assert data["ranks"] == list(RANKS)
    assert data["deals_per_throw"] == 58_800 == CRIB_DEALS
    assert "1,225" in data["method"] and "58,800" in data["method"]
    average, suited, offsuit = crib_table(), crib_table("suited"), crib_table("offsuit")
    for r1 in range(13):
        assert suited[r1][r1] is None
        assert average[r1][r1] == offsuit[r1][r1]
        for r2 in range(13):
            assert isinstance(average[r1][r2], float)
            assert average[r1][r2] == average[r2][r1]
            if r1 != r2:
                assert suited[r1][r2] > offsuit[r1][r2]  # the suited throw adds flush chances
                assert average[r1][r2] == pytest.approx(0.25 * suited[r1][r2] + 0.75 * offsuit[r1][r2])
    assert max(v for row in average for v in row) == average[R["5"]][R["5"]]
    with pytest.raises(ValueError, match="unknown crib table"):
        crib_table("nonsense")


def test_crib_table_returns_copies():
    table = crib_table()
    table[0][0] = -1.0
    assert crib_table()[0][0] != -1.0


def test_one_card_figure_is_the_mean_over_the_second_card():
    for rank in (R["5"], R["J"], R["K"]):
        a = make_card(rank, 0)
        mean = sum(crib_throw_total(a, b) for b in range(52) if b != a) / (51 * CRIB_DEALS)
        assert load_crib_data()["single"][rank] == pytest.approx(mean, abs=1e-12)
        assert crib_value([a]) == pytest.approx(mean, abs=1e-12)


def test_crib_value_uses_suited_and_offsuit_figures():
    suited, offsuit = crib_table("suited"), crib_table("offsuit")
    assert crib_value(parse_cards("7H 8H")) == suited[R["7"]][R["8"]]
    assert crib_value(parse_cards("7H 8S")) == offsuit[R["7"]][R["8"]]
    assert crib_value(parse_cards("5H 5S")) == offsuit[R["5"]][R["5"]]
    with pytest.raises(ValueError):
        crib_value(parse_cards("7H 8S 9D"))


def test_corrupt_table_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "t.json"
    bad.write_text('{"format": "something else"}')
    with pytest.raises(ValueError, match="not a crib table"):
        load_crib_data(bad)
    with pytest.raises(OSError, match="python -m engine table"):
        load_crib_data(tmp_path / "missing.json")


# ------------------------------------------------------------------------------------------
# The discard


def random_sixes(count: int, seed: int = 11) -> list[list[int]]:
    rng = random.Random(seed)
    sixes = [rng.sample(range(52), 6) for _ in range(count)]
    sixes.append(parse_cards("5H 5S 5D JC 5C KD"))  # four fives and nobs
    sixes.append(parse_cards("2H 6H 9H QH 3H KH"))  # six of a suit: flushes
    sixes.append(parse_cards("JC JD JH JS 4C 5D"))  # every jack: nobs everywhere
    return sixes


@pytest.mark.parametrize("six", random_sixes(30))
def test_discard_options_agree_with_score_show_over_every_starter(six):
    dealer = sum(six) % 2 == 0
    options = discard_options(six, is_dealer=dealer)
    assert len(options) == 15
    assert {o.keep + o.throw for o in options} == {tuple(sorted(k)) + tuple(sorted(set(six) - set(k)))
                                                   for k in combinations(six, 4)}
    exact = conditional_crib_values(six)
    starters = [c for c in range(52) if c not in six]
    for o in options:
        totals = [score_show(o.keep, s).total for s in starters]
        assert len(totals) == 46
        assert o.hand_ev == pytest.approx(sum(totals) / 46, abs=1e-12)
        assert (o.hand_min, o.hand_max) == (min(totals), max(totals))
        assert sum(n for _, n in o.hand_counts) == 46
        assert o.crib_ev == exact[o.throw]
        assert o.net == pytest.approx(o.hand_ev + o.crib_ev if dealer else o.hand_ev - o.crib_ev)
    nets = [round(o.net, 9) for o in options]
    assert nets == sorted(nets, reverse=True)
    assert [o.keep for o in options] == [o.keep for o in discard_options(list(reversed(six)), dealer)]


@pytest.mark.parametrize("six", random_sixes(4, seed=5)[:3] + [parse_cards("JC JD 5H 5S 4C 9D")])
def test_exact_crib_equals_deal_by_deal_count(six):
    values = conditional_crib_values(six)
    assert len(values) == 15
    for throw in list(values)[::4]:
        assert values[throw] == pytest.approx(conditional_crib_brute(six, throw), abs=1e-12)


def figures(option):
    return round(option.hand_ev, 2), round(option.crib_ev, 2), round(option.net, 2)


def test_worked_example_on_the_strategy_page():
    six = parse_cards("4C 5D 7H 8S 10D KC")
    dealer = discard_options(six, is_dealer=True)
    pone = discard_options(six, is_dealer=False)
    best_dealer, best_pone = dealer[0], pone[0]
    assert sorted(best_dealer.throw) == sorted(parse_cards("7H 8S"))
    assert figures(best_dealer) == (6.43, 7.0, 13.44)
    assert sorted(best_pone.throw) == sorted(parse_cards("4C KC"))
    assert figures(best_pone) == (6.57, 4.0, 2.56)
    tidy = next(o for o in dealer if sorted(o.throw) == sorted(parse_cards("10D KC")))
    assert (round(tidy.hand_ev, 2), round(tidy.crib_ev, 2)) == (5.17, 3.29)


def test_table_pricing_uses_the_suited_figure():
    six = parse_cards("7H 8H 2C 3D JS QC")
    options = discard_options(six, is_dealer=True, crib="table")
    throw_78 = next(o for o in options if o.throw == tuple(sorted(parse_cards("7H 8H"))))
    assert throw_78.crib_ev == crib_table("suited")[R["7"]][R["8"]]
    assert throw_78.crib_method == "table"
    assert all(o.crib_ev == crib_value(o.throw) for o in options)


def test_five_cards_throw_one():
    options = discard_options("5H 5S JD QC 2C", is_dealer=False)
    assert len(options) == 5 and all(len(o.throw) == 1 for o in options)
    assert all(o.crib_ev == crib_value(o.throw) for o in options)
    starters = [c for c in range(52) if c not in parse_cards("5H 5S JD QC 2C")]
    for o in options:
        assert o.hand_ev == pytest.approx(sum(score_show(o.keep, s).total for s in starters) / 47)


def test_ties_break_deterministically():
    six = parse_cards("2C 2D 2H 2S 9C 9D")  # throws of two twos tie with each other
    options = discard_options(six, is_dealer=False)
    keys = [o.sort_key() for o in options]
    assert keys == sorted(keys)
    assert [o.keep for o in options] == [o.keep for o in discard_options(six[::-1], is_dealer=False)]


def test_to_dict_is_json_ready():
    options = discard_options("5H 5S JD QC 2C 9S", is_dealer=True)
    data = json.loads(json.dumps([o.to_dict() for o in options]))
    first = data[0]
    assert set(first) >= {"keep", "throw", "hand_ev", "crib_ev", "net", "hand_min", "hand_max"}
    assert first["keep_names"] == ["QC", "JD", "5H", "5S"] and first["throw_names"] == ["2C", "9S"]
    assert first["hand_min"] <= first["hand_ev"] <= first["hand_max"]
    assert first["crib_method"] == "exact"


@pytest.mark.parametrize("cards, dealer, message", [
    ("5H 5S JD QC", True, "6 cards"),
    ("5H 5S JD QC 2C 5H", True, "duplicate"),
    ("5H 5S JD QC 2C 9S", "yes", "is_dealer"),
])
def test_discard_options_bad_input(cards, dealer, message):
    with pytest.raises(ValueError, match=message):
        discard_options(cards, is_dealer=dealer)
    with pytest.raises(ValueError, match="crib must be"):
        discard_options("5H 5S JD QC 2C 9S", True, crib="guess")


def test_chance_at_least():
    option = discard_options("5H 5S 5D JC 2C 9S", is_dealer=True)[0]
    assert option.chance_at_least(0) == 1.0
    assert option.chance_at_least(option.hand_max + 1) == 0.0
    assert option.chance_at_least(option.hand_max) > 0
