"""engine.api endpoints of the hand calculator, the discard helper and the deal checker."""

import json

import pytest

from engine import analysis, api, fairdeal
from engine.__main__ import main as cli_main
from engine.cards import card_pretty, parse_card, parse_cards
from engine.scoring import score_show


def reply(name, request):
    return json.loads(api.call(name, json.dumps(request)))


def result(name, request):
    answer = reply(name, request)
    assert answer["ok"], answer
    return answer["result"]


def error(name, request):
    answer = reply(name, request)
    assert answer["ok"] is False, answer
    assert answer["error"]["kind"] == "bad_input", answer
    return answer["error"]["message"]


def test_the_endpoints_are_registered():
    for name in ("score_hand", "discard_options", "verify_deal"):
        assert name in api.ENDPOINTS


# --- score_hand -------------------------------------------------------------------------------

@pytest.mark.parametrize("hand, starter, crib", [
    ("5H 5S 5D JC", "5C", False),
    ("5H 5S 6D 7C", "KH", False),
    ("2H 4H 6H 8H", "KS", False),
    ("2H 4H 6H 8H", "KS", True),
    ("2H 4H 6H 8H", "KH", True),
    ("AC 3D 9H QS", "7C", False),
])
def test_score_hand_is_the_engines_count(hand, starter, crib):
    expected = score_show(parse_cards(hand), parse_card(starter), crib=crib).to_dict()
    got = result("score_hand", {"hand": hand.split(), "starter": starter, "crib": crib})
    for key, value in expected.items():
        if key != "items":
            assert got[key] == value, key
    assert [{k: item[k] for k in ("kind", "cards", "names", "points")} for item in got["items"]] == expected["items"]
    assert [item["pretty"] for item in got["items"]] == [
        [card_pretty(c) for c in item["cards"]] for item in expected["items"]
    ]


def test_score_hand_display_data():
    got = result("score_hand", {"hand": "5H,5S,5D,JC", "starter": "5C"})
    assert got["total"] == 29
    assert got["hand_cards"][0] == {"card": parse_card("5H"), "name": "5H", "pretty": "5♥",
                                    "spoken": "five of hearts", "rank": "5", "suit": "H", "glyph": "♥",
                                    "value": 5}
    assert got["starter_card"]["spoken"] == "five of clubs"
    assert got["spoken"].endswith("and nobs is twenty-nine")


def test_five_typed_cards_put_the_starter_last():
    typed = result("score_hand", {"cards": "5h 5♠ 5D jc 5C", "crib": 0})
    apart = result("score_hand", {"hand": ["5H", "5S", "5D", "JC"], "starter": "5C"})
    assert typed == apart


def test_crib_flags_from_an_address():
    hand = {"hand": "2H 4H 6H 8H", "starter": "KS"}
    assert result("score_hand", dict(hand, crib="1"))["crib"] is True
    assert result("score_hand", dict(hand, crib="0"))["crib"] is False
    assert "crib" in error("score_hand", dict(hand, crib="maybe"))


@pytest.mark.parametrize("request_, words", [
    ({"cards": "5H 5H 5D JC 5C"}, "duplicate card '5H' (the five of hearts appears twice)"),
    ({"hand": "5H 5S 5D JC", "starter": "5H"}, "duplicate card '5H'"),
    ({"cards": "5H 5S 5D JX 5C"}, "unknown suit 'X' in card 'JX'"),
    ({"cards": "5H 5S 5D ZC 5C"}, "unknown rank 'Z'"),
    ({"cards": "5H 5S 5D JC"}, "Enter five cards: the four in the hand, then the starter (got 4)."),
    ({"cards": ""}, "(got 0)"),
    ({"hand": "5H 5S 5D", "starter": "5C"}, "A hand has four cards (got 3)."),
    ({"hand": "5H 5S 5D JC", "starter": "5C 6C"}, "The starter is one card"),
    ({"hand": "5H 5S 5D JC", "starter": ""}, "The starter is one card"),
    ({"hand": "5H 5S 5D JC"}, "missing 'starter'"),
    ({"cards": 5}, "cards must be card names"),
])
def test_score_hand_refuses_bad_cards_with_a_clear_message(request_, words):
    assert words in error("score_hand", request_)


# --- discard_options --------------------------------------------------------------------------

@pytest.mark.parametrize("dealt", ["5H 5S JD QC 2C 9S", "AC 2D 3H 4S 5C 6D", "JH QH KH 10H 9H 8C"])
@pytest.mark.parametrize("dealer", [True, False])
def test_discard_options_rank_like_the_engine(dealt, dealer):
    expected = [o.to_dict() for o in analysis.discard_options(parse_cards(dealt), is_dealer=dealer)]
    got = result("discard_options", {"cards": dealt, "dealer": dealer})
    assert got["dealer"] is dealer
    assert [c["name"] for c in got["cards"]] == dealt.split()
    assert len(got["options"]) == 15
    for rank, (mine, theirs) in enumerate(zip(got["options"], expected), start=1):
        assert mine["rank"] == rank
        assert {k: mine[k] for k in theirs} == theirs
        assert sorted(c["name"] for c in mine["keep_cards"]) == sorted(theirs["keep_names"])
        assert sorted(c["name"] for c in mine["throw_cards"]) == sorted(theirs["throw_names"])
        ranks = [parse_card(c["name"]) % 13 for c in mine["keep_cards"]]
        assert ranks == sorted(ranks)


@pytest.mark.parametrize("request_, words", [
    ({"cards": "5H 5S JD QC 2C", "dealer": True}, "Pick the six cards you were dealt (got 5)."),
    ({"cards": "5H 5S JD QC 2C 9S 9H", "dealer": True}, "(got 7)"),
    ({"cards": "5H 5S JD QC 2C 5H", "dealer": True}, "duplicate card '5H'"),
    ({"cards": "5H 5S JD QC 2C 9S", "dealer": "yes"}, "dealer must be true or false"),
    ({"dealer": True}, "missing 'cards'"),
])
def test_discard_options_refuse_bad_input(request_, words):
    assert words in error("discard_options", request_)


# --- verify_deal ------------------------------------------------------------------------------

SEEDS = ["5eedc0ffee15c0015eedc0ffee15c001", "00112233445566778899aabbccddeeff",
         "00000000000000000000000000000000", "ffffffffffffffffffffffffffffffff"]


def cli_deck(seed, capsys):
    assert cli_main(["deck", seed, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("seed", SEEDS)
def test_verify_deal_matches_the_command_line(seed, capsys):
    cli = cli_deck(seed, capsys)
    got = result("verify_deal", {"seed": seed})
    for key in ("seed", "commitment", "players", "dealer"):
        assert got[key] == cli[key]
    assert [{k: card[k] for k in ("position", "card", "name", "owner")} for card in got["cards"]] == cli["cards"]
    assert got["matches"] is None and got["given_commitment"] is None
    assert got["cards"][12]["owner"] == "starter" and got["cards"][0]["spoken"]


def test_verify_deal_checks_the_commitment():
    seed = SEEDS[0]
    good = fairdeal.commitment(seed)
    assert result("verify_deal", {"seed": seed, "commitment": good})["matches"] is True
    assert result("verify_deal", {"seed": "  " + seed.upper() + "\n", "commitment": " " + good.upper()})["matches"] is True
    wrong = result("verify_deal", {"seed": seed, "commitment": fairdeal.commitment(SEEDS[1])})
    assert wrong["matches"] is False and wrong["given_commitment"] == fairdeal.commitment(SEEDS[1])
    assert result("verify_deal", {"seed": seed, "commitment": "  "})["matches"] is None


@pytest.mark.parametrize("request_, words", [
    ({"seed": "5eedc0ffee15c0015eedc0ffee15c00"}, "a seed has 32 hex digits; this one has 31"),
    ({"seed": "5eedc0ffee15c0015eedc0ffee15c0zz"}, "a seed has hex digits only (0-9, a-f); 'z' is not one"),
    ({"seed": ""}, "this one has 0"),
    ({"seed": 12}, "a seed is text"),
    ({}, "missing 'seed'"),
    ({"seed": SEEDS[0], "commitment": "abc"}, "a commitment has 64 hex digits; this one has 3"),
    ({"seed": SEEDS[0], "commitment": "x" * 64}, "hex digits only"),
    ({"seed": SEEDS[0], "commitment": 7}, "must be text"),
])
def test_verify_deal_refuses_bad_input(request_, words):
    assert words in error("verify_deal", request_)
