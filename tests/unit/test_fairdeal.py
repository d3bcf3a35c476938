"""Fair deals: the exact algorithm, checked against an independent JavaScript implementation."""

import hashlib
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from engine.cards import RANK_OF
from engine.fairdeal import (
    DEAL_SIZES, Sfc32, commitment, cut_for_deal, deal, deal_owners, deal_seats, new_seed,
    parse_seed, shuffled_deck, verify,
)

REF_JS = Path(__file__).with_name("fairdeal_ref.mjs")
FIXED_SEEDS = [
    "00000000000000000000000000000000",
    "ffffffffffffffffffffffffffffffff",
    "000102030405060708090a0b0c0d0e0f",
    "0123456789abcdef0123456789abcdef",
    "deadbeefcafebabe8badf00d0ddba11f",
]
# Known answer, confirmed by fairdeal_ref.mjs; guards the algorithm even where node is missing.
KNOWN_SEED = "000102030405060708090a0b0c0d0e0f"
KNOWN_OUTPUTS = [858807458, 1403912697, 1845977855, 1504073547]
KNOWN_DECK = [40, 30, 4, 6, 50, 1, 12, 45, 8, 15, 29, 41, 26, 3, 13, 19, 9, 10, 38, 36, 14, 51, 20,
              11, 43, 24, 16, 37, 28, 32, 35, 49, 22, 46, 18, 33, 21, 23, 47, 7, 39, 42, 44, 0, 27,
              31, 34, 17, 25, 5, 48, 2]
KNOWN_COMMITMENT = "d65df89f702eec58ca3c7bf2001c9ffc7cd80553ae01d42a799ba26756142d96"


def run_reference(seeds):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    done = subprocess.run([node, str(REF_JS)], input=json.dumps(seeds), capture_output=True,
                          text=True, timeout=120, check=True)
    return json.loads(done.stdout)


def test_known_answer():
    rng = Sfc32(KNOWN_SEED)
    assert [rng.next_u32() for _ in range(4)] == KNOWN_OUTPUTS
    assert shuffled_deck(KNOWN_SEED) == KNOWN_DECK
    assert commitment(KNOWN_SEED) == KNOWN_COMMITMENT


def test_fixed_seeds_match_reference():
    for ref in run_reference(FIXED_SEEDS):
        rng = Sfc32(ref["seed"])
        assert [rng.next_u32() for _ in range(4)] == ref["outputs"]
        assert shuffled_deck(ref["seed"]) == ref["deck"]
        assert commitment(ref["seed"]) == ref["commitment"]


def test_random_seeds_match_reference():
    rng = random.Random(52)
    seeds = [f"{rng.getrandbits(128):032x}" for _ in range(1500)]
    refs = run_reference(seeds)
    assert len(refs) == len(seeds)
    for seed, ref in zip(seeds, refs):
        assert ref["seed"] == seed
        assert shuffled_deck(seed) == ref["deck"], seed
        assert commitment(seed) == ref["commitment"], seed


def test_commitment_matches_hashlib_and_sha256sum():
    seed = FIXED_SEEDS[4]
    assert commitment(seed) == hashlib.sha256(seed.encode("ascii")).hexdigest()
    if shutil.which("sha256sum") is None:
        pytest.skip("sha256sum is not installed")
    out = subprocess.run(f"printf %s {seed} | sha256sum", shell=True, capture_output=True,
                         text=True, check=True).stdout
    assert out.split()[0] == commitment(seed)


def test_new_seed_and_verify():
    seed = new_seed()
    assert len(seed) == 32 and seed == seed.lower() and int(seed, 16) >= 0
    assert new_seed() != seed
    assert verify(seed, commitment(seed))
    assert verify("  " + seed.upper() + "\n", commitment(seed).upper() + " ")
    assert not verify(seed, commitment(FIXED_SEEDS[0]))
    assert not verify(seed, "not a commitment")
    assert not verify(seed, None)  # type: ignore[arg-type]


def test_parse_seed_normalises():
    assert parse_seed(" DEADBEEFCAFEBABE8BADF00D0DDBA11F\n") == FIXED_SEEDS[4]
    assert shuffled_deck(FIXED_SEEDS[4].upper()) == shuffled_deck(FIXED_SEEDS[4])
    assert commitment(FIXED_SEEDS[4].upper()) == commitment(FIXED_SEEDS[4])


@pytest.mark.parametrize("bad, message", [
    ("", "32 hex digits; this one has 0"),
    ("abc", "this one has 3"),
    ("0" * 31, "this one has 31"),
    ("0" * 33, "this one has 33"),
    ("g" * 32, "'g' is not one"),
    ("0x" + "0" * 30, "'x' is not one"),
    ("0000 0000000000000000000000000000", "' ' is not one"),
    (None, "not NoneType"),
    (123, "not int"),
])
def test_bad_seeds(bad, message):
    for func in (parse_seed, commitment, shuffled_deck, deal, cut_for_deal):
        with pytest.raises(ValueError, match=message):
            func(bad)
    with pytest.raises(ValueError):
        verify(bad, "0" * 64)


def test_deck_is_a_permutation():
    rng = random.Random(7)
    for _ in range(50):
        assert sorted(shuffled_deck(f"{rng.getrandbits(128):032x}")) == list(range(52))


def test_rejection_sampling_uniform_range():
    gen = Sfc32(KNOWN_SEED)
    draws = [gen.below(3) for _ in range(3000)]
    assert set(draws) == {0, 1, 2}
    assert all(600 < draws.count(v) < 1400 for v in (0, 1, 2))


def test_two_player_deal_positions():
    for dealer in (0, 1):
        d = deal(KNOWN_SEED, 2, dealer)
        pone = 1 - dealer
        assert d.hands[pone] == KNOWN_DECK[0:6]
        assert d.hands[dealer] == KNOWN_DECK[6:12]
        assert d.starter == KNOWN_DECK[12]
        assert d.crib == [] and d.deck == KNOWN_DECK


def test_three_and_four_player_deals():
    d = deal(KNOWN_SEED, 3, dealer=1)
    assert deal_seats(3, 1) == [2, 0, 1]
    assert d.hands[2] == KNOWN_DECK[0:5] and d.hands[0] == KNOWN_DECK[5:10]
    assert d.hands[1] == KNOWN_DECK[10:15]
    assert d.crib == KNOWN_DECK[15:16] and d.starter == KNOWN_DECK[16]
    d = deal(KNOWN_SEED, 4, dealer=3)
    assert [d.hands[s] for s in (0, 1, 2, 3)] == [KNOWN_DECK[k:k + 5] for k in (0, 5, 10, 15)]
    assert d.crib == [] and d.starter == KNOWN_DECK[20]


def test_deal_bad_table():
    with pytest.raises(ValueError, match="players"):
        deal(KNOWN_SEED, players=7)
    with pytest.raises(ValueError, match="dealer"):
        deal(KNOWN_SEED, players=2, dealer=2)


def test_deal_owners():
    owners = deal_owners()
    assert owners == ["pone"] * 6 + ["dealer"] * 6 + ["starter"] + ["rest"] * 39
    assert deal_owners(2, 1) == owners
    assert deal_owners(3, 0) == (["seat 1"] * 5 + ["seat 2"] * 5 + ["dealer"] * 5 + ["crib", "starter"]
                                 + ["rest"] * 35)
    for players in DEAL_SIZES:
        for dealer in range(players):
            d, labels = deal(KNOWN_SEED, players, dealer), deal_owners(players, dealer)
            assert len(labels) == 52
            assert d.starter == KNOWN_DECK[labels.index("starter")]
            assert sorted(d.hands[dealer]) == sorted(
                c for c, who in zip(KNOWN_DECK, labels) if who == "dealer")


def test_deal_to_dict():
    data = json.loads(json.dumps(deal(KNOWN_SEED).to_dict()))
    assert data["commitment"] == KNOWN_COMMITMENT and data["deck"] == KNOWN_DECK
    assert data["hands"][1] == KNOWN_DECK[:6] and data["starter"] == KNOWN_DECK[12]


def cut_by_hand(deck, players):
    """The documented rule, written out again plainly."""
    cuts, position, tied = [], 0, list(range(players))
    while len(tied) > 1:
        this_round = []
        for seat in tied:
            this_round.append((seat, deck[position]))
            position += 1
        cuts += this_round
        low = min(RANK_OF[card] for _, card in this_round)
        tied = [seat for seat, card in this_round if RANK_OF[card] == low]
    return cuts, tied[0]


def test_cut_for_deal_rule():
    result = cut_for_deal(KNOWN_SEED)
    assert result.cuts == [(0, KNOWN_DECK[0]), (1, KNOWN_DECK[1])]
    assert result.dealer == 0  # seat 0 cut the 2 of spades, seat 1 the 5 of hearts: lower deals
    rng = random.Random(11)
    ties = 0
    for _ in range(400):
        seed = f"{rng.getrandbits(128):032x}"
        for players in (2, 3, 4):
            result = cut_for_deal(seed, players)
            cuts, dealer = cut_by_hand(shuffled_deck(seed), players)
            assert (result.cuts, result.dealer) == (cuts, dealer)
            ties += len(cuts) > players
    assert ties > 0  # the tie rule was exercised


def test_cut_to_dict():
    data = cut_for_deal(KNOWN_SEED).to_dict()
    assert data["cuts"][0] == {"position": 1, "seat": 0, "card": KNOWN_DECK[0],
                               "name": "2S"}
    assert data["dealer"] == 0
