"""The command line, run as users run it: python -m engine in a subprocess."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cards import card_name
from engine.fairdeal import commitment, shuffled_deck

ROOT = Path(__file__).resolve().parents[2]
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
PYTHON = str(VENV_PYTHON if VENV_PYTHON.exists() else Path(sys.executable))
SEED = "000102030405060708090a0b0c0d0e0f"


def engine(*args):
    return subprocess.run([PYTHON, "-m", "engine", *args], cwd=ROOT, capture_output=True,
                          text=True, encoding="utf-8", timeout=60)


def test_score_text():
    done = engine("score", "5H", "5S", "5D", "JC", "--starter", "5C")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "hand 5H 5S 5D JC, starter 5C"
    assert lines[1].startswith("fifteen two, fifteen four,")
    assert lines[1].endswith("a double pair royal is twenty-eight, and nobs is twenty-nine")
    assert lines[-1] == "total 29"
    assert sum(1 for line in lines if line.startswith("  fifteen ")) == 8


def test_score_crib_and_card_forms():
    done = engine("score", "2h 6♥ 9H QH", "--starter", "K♠", "--crib")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "crib 2H 6H 9H QH, starter KS"
    assert done.stdout.splitlines()[-1] == "total 2"


def test_score_json():
    done = engine("score", "5H", "5S", "5D", "JC", "--starter", "5C", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["total"] == 29 and data["crib"] is False
    assert data["hand_names"] == ["5H", "5S", "5D", "JC"] and data["starter_name"] == "5C"
    assert sum(item["points"] for item in data["items"]) == 29
    assert data["spoken"].endswith("and nobs is twenty-nine")


def test_deck_text():
    done = engine("deck", SEED.upper())
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["seed", SEED]
    assert lines[1].split() == ["commitment", commitment(SEED)]
    rows = [line.split() for line in lines[3:]]
    assert len(rows) == 52
    deck = shuffled_deck(SEED)
    assert [row[1] for row in rows] == [card_name(c) for c in deck]
    assert [row[0] for row in rows] == [str(n) for n in range(1, 53)]
    assert [row[2] for row in rows] == ["pone"] * 6 + ["dealer"] * 6 + ["starter"] + ["rest"] * 39


def test_deck_json():
    done = engine("deck", SEED, "--json", "--players", "3", "--dealer", "2")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["commitment"] == commitment(SEED)
    assert [c["card"] for c in data["cards"]] == shuffled_deck(SEED)
    assert [c["owner"] for c in data["cards"]][14:17] == ["dealer", "crib", "starter"]


def test_cut_and_verify():
    done = engine("cut", SEED, "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["dealer"] == 0
    assert engine("verify", SEED, commitment(SEED)).returncode == 0
    assert engine("verify", SEED, "0" * 64).returncode == 1


@pytest.mark.parametrize("args, message", [
    (["score", "5H", "5S", "5D", "--starter", "5C"], "4 cards, got 3"),
    (["score", "5H", "5S", "5D", "JX", "--starter", "5C"], "'JX'"),
    (["score", "5H", "5S", "5D", "5C", "--starter", "5C"], "duplicate card 5C"),
    (["score", "5H", "5S", "5D", "JC"], "--starter"),
    (["score", "5H", "5S", "5D", "JC", "--starter", "1C"], "'1'"),
    (["deck", "0001"], "32 hex digits"),
    (["deck", "z" * 32], "'z' is not one"),
    (["deck", SEED, "--dealer", "5"], "dealer"),
    (["deck", SEED, "--players", "9"], "--players"),
    (["nonsense"], "invalid choice"),
    ([], "required"),
])
def test_bad_input_exit_2_one_line_no_traceback(args, message):
    done = engine(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "error" in done.stderr and message in done.stderr
