"""Muggins between two people on one device, and bigger tables picked up again after a reload.

- Pass and play with muggins: each person claims their own points, each card in the play and
  their own hand when the show reaches it. A count below what the cards hold is accepted and the
  other person takes the points missed, announced by name ("Muggins! Ann takes the two points Bob
  missed."); a count above it scores what the cards hold and the other person pegs the excess
  ("Muggins! Ann pegs the three points Bob claimed too many."); a true count is simply accepted.
- Three players, and four in partnerships: a reload in the middle of the play brings back the
  same hand, the same cards on the table, the same seats and scores and the same pegs, and the
  saved game text is unchanged; a reload at "Deal hand 2" comes back to that button; the game
  then goes on exactly as the engine in CPython plays it.
- Pass and play: after a reload nobody's cards show: the pass screen comes back for the person
  whose turn it is, and their tap shows their cards (never the other person's).

Practice games (``/?seed=...``) deal the same cards every time, so CPython replays the very game
the page shows with the policy the tests click (see test_game_play and test_game_multi).
"""

from __future__ import annotations

import time

from engine import host
from engine.cards import CARD_SPOKEN
from engine.scoring import number_name, score_show
from tests.e2e.test_game_gaps import cards_in, game_page, reload, saved  # noqa: F401  (game_page: fixture)
from tests.e2e.test_game_multi import multi_move, multi_step, seat_list
from tests.e2e.test_game_play import (GAME_TIMEOUT_S, hand_buttons, log_lines, move, open_practice,
                                      person_move, turn, wait_decision)

NAMES = ["Ann", "Bob"]
PASS_PARAMS = {"pass": 1, "name1": NAMES[0], "name2": NAMES[1]}
PASSING = {"pass_and_play": True, "names": NAMES}


# --- the same games in CPython ---------------------------------------------------------------


def pass_view(game_json: str, seat: int | None = None) -> dict:
    """The engine's reply for a pass-and-play game from one seat (default: the seat to act)."""
    if seat is None:
        seat = host.resume({"game": game_json, **PASSING})["to_act"]
    return host.resume({"game": game_json, **PASSING, "seat": seat})


def true_count(view: dict) -> int:
    counting = view["counting"]
    return score_show(counting["cards"], counting["starter"], crib=counting["show"] == "crib").total


def pass_first_hand(seed: str, under: int = 0, target: int = 121, muggins: bool = True):
    """Hand 1 of a pass-and-play practice game, both people by the tests' policy; the first
    count claims ``under`` points less than the cards hold, the others the true count.
    Returns (the counts in order as (seat, show, total), the reply when hand 2 is dealt)."""
    reply = host.start({"difficulty": "easy", "target": target, "muggins": muggins, "seed": seed, **PASSING})
    counts = []
    while True:
        reply = pass_view(reply["game"])
        if reply["view"]["hand_number"] > 1 or reply["awaiting"] == "over":
            return counts, reply
        seat = reply["to_act"]
        if reply["awaiting"] == "count":
            total = true_count(reply["view"])
            claim = total - under if not counts else total
            counts.append((seat, reply["view"]["counting"]["show"], total))
            action = {"type": "count", "points": claim}
        else:
            action = person_move(reply)
        reply = host.act({"game": reply["game"], "action": action, **PASSING, "seat": seat})


def pone_undercounts_two(seed: str) -> bool:
    """Hand 1 with muggins: the pone's hand holds 3 or more (an undercount of two still claims
    something), the dealer's hand 1 or more, and nobody reaches the target."""
    counts, reply = pass_first_hand(seed, under=2)
    return (len(counts) == 3 and counts[0][2] >= 3 and counts[1][2] >= 1
            and counts[0][0] != counts[1][0] and reply["view"]["hand_number"] == 2)


def multi_replies(seed: str, players: int, target: int = 61):
    """Every reply of a practice game with computers, seat 0 by the tests' policy."""
    reply = host.start({"difficulty": "easy", "target": target, "seed": seed, "players": players})
    yield reply
    while reply["awaiting"] != "over":
        if reply["awaiting"] == "computer":
            reply = host.computer_move({"game": reply["game"], "difficulty": "easy"})
        else:
            reply = host.act({"game": reply["game"], "action": multi_move(reply)})
        yield reply


def scores_at_hand_2(seed: str, players: int) -> list[int]:
    return next(r for r in multi_replies(seed, players) if r["view"]["hand_number"] == 2)["view"]["scores"]


def scored_play_in_hand_1(seed: str, players: int) -> bool:
    """Hand 1: the person lays a card after two or more are down and someone has scored."""
    for reply in multi_replies(seed, players):
        view = reply["view"]
        if view["hand_number"] > 1:
            return False
        if reply["awaiting"] == "play" and len(view["laid"]) >= 2 and any(view["scores"]):
            return True
    return False


def find_seed(prefix: str, wanted, *args) -> str:
    for n in range(200):
        seed = f"{prefix}-{n}"
        if wanted(seed, *args):
            return seed
    raise AssertionError(f"no {prefix} seed found")


# --- the page --------------------------------------------------------------------------------


def pass_step(page, kind: str) -> int:
    """The tests' policy move, or the tap on the pass screen; returns the turn before it."""
    if kind == "pass":
        before = turn(page)
        page.click("#pass-button")
        return before
    return move(page, kind)


def pass_seat(page) -> int:
    return int(page.get_attribute("#pass-button", "data-seat"))


def scores_by_seat(page) -> list[int]:
    seats = {s["seat"]: s["score"] for s in seat_list(page)}
    return [seats[s] for s in sorted(seats)]


def laid_items(page) -> list[list]:
    """The cards laid this hand with the classes that say who laid them and which count."""
    return page.eval_on_selector_all("#laid .laid-item", """items => items.map(i => [
        i.className, i.querySelector('[data-card]').dataset.card, i.textContent])""")


def lane_pegs(page) -> list[list[int]]:
    """Each lane's pegs as [front, back] (the pegs leapfrog, so which element leads varies)."""
    pegs = page.eval_on_selector_all("#board .peg", "els => els.map(e => [e.id, +e.dataset.hole])")
    lanes: dict[str, list[int]] = {}
    for peg_id, hole in pegs:
        lanes.setdefault(peg_id.rsplit("-", 1)[0], []).append(hole)
    return [sorted(lanes[lane], reverse=True) for lane in sorted(lanes)]


def table_view(page) -> dict:
    """What the table shows, for a before/after comparison."""
    return {
        "hand": cards_in(page, "#my-hand"),
        "disabled": page.eval_on_selector_all("#my-hand button[data-card]",
                                              "els => els.map(e => e.getAttribute('aria-disabled'))"),
        "laid": laid_items(page),
        "starter": cards_in(page, "#starter"),
        "crib": page.get_attribute("#crib", "data-size"),
        "count": page.inner_text("#count"),
        "seats": seat_list(page),
        "pegs": lane_pegs(page),
        "status": page.inner_text("#status-hand"),
        "phase": page.get_attribute("#game", "data-phase"),
        "prompt": page.inner_text("#prompt"),
        "show": page.inner_text("#show-area") if page.is_visible("#show-area") else "",
    }


def play_on(page, kind: str, players: int, until, deadline: float) -> str:
    """Play the tests' policy until ``until(kind)`` holds; returns that decision."""
    while not until(kind):
        assert kind != "over", "the game ended first"
        assert time.monotonic() < deadline, "the game took too long"
        before = multi_step(page, kind, players)
        kind = wait_decision(page, before)
    return kind


def nothing_private_shown(page, hands: list[list[int]]) -> None:
    """None of these held cards is on the page, as a card or in words (log and table)."""
    laid = {int(c) for c in page.eval_on_selector_all("#laid [data-card]", "e => e.map(x => x.dataset.card)")}
    # The cut for first deal names public cards that go back into the pack, so a held card may
    # have been cut then: that line is not a leak.
    said = [line for line in log_lines(page) if "deals first" not in line]
    text = page.inner_text("#felt") + "\n".join(said)
    for hand in hands:
        for card in set(hand) - laid:
            assert page.locator(f'[data-card="{card}"]').count() == 0, card
            assert CARD_SPOKEN[card] not in text, CARD_SPOKEN[card]


# --- tests -----------------------------------------------------------------------------------


def test_pass_and_play_muggins_undercount_overcount_and_true_count(game_page):
    page = game_page
    seed = find_seed("pass-mug", pone_undercounts_two)
    counts, after_hand = pass_first_hand(seed, under=2)
    (pone, _, pone_total), (dealer, _, dealer_total), (_, _, crib_total) = counts
    open_practice(page, seed, target=121, muggins=1, **PASS_PARAMS)
    page.wait_for_function(  # the status line says the rules once the game is on the table
        "() => document.getElementById('status-hand').textContent.toLowerCase().includes('muggins')",
        timeout=30_000)

    deadline = time.monotonic() + GAME_TIMEOUT_S
    kind = wait_decision(page)
    while kind != "count":
        assert kind in ("pass", "discard", "play", "go", "claim"), kind  # claims in the play: exact
        assert time.monotonic() < deadline, "the hand took too long"
        kind = wait_decision(page, pass_step(page, kind))
    # The pone's count is due: their hand and the starter are shown, never the count.
    block = page.locator("#show-area .is-counting")
    assert block.is_visible() and block.locator(".show-total").count() == 0
    assert NAMES[pone] in block.locator(".show-title").inner_text()
    assert page.inner_text("#prompt") == "Count your hand with the starter."
    assert page.is_visible("#count-form")
    scores = scores_by_seat(page)

    # Two less than it holds: accepted, and the other person takes the two missed, by name.
    page.fill("#count-input", str(pone_total - 2))
    before = turn(page)
    page.click("#count-button")
    kind = wait_decision(page, before)
    said = "\n".join(log_lines(page))
    assert f"Muggins! {NAMES[dealer]} takes the two points {NAMES[pone]} missed." in said
    assert (f"{NAMES[pone]}'s hand: {NAMES[pone]} claimed {number_name(pone_total - 2)}, "
            f"but it holds {number_name(pone_total)}") in said
    assert "you missed" not in said.lower() and "The computer" not in said
    claim = page.locator("#show-area .show-block").first.locator(".show-claim")
    assert claim.inner_text() == f"{NAMES[pone]} claimed {pone_total - 2}; muggins took the other 2."
    expected = list(scores)
    expected[pone] += pone_total - 2
    expected[dealer] += 2
    assert scores_by_seat(page) == expected
    assert page.inner_text("#count-message") == ""

    # The dealer's hand is the other person's count: the device is passed first.
    assert kind == "pass" and pass_seat(page) == dealer
    assert page.inner_text("#pass-title") == f"Pass the device to {NAMES[dealer]}"
    assert hand_buttons(page).count() == 0
    kind = wait_decision(page, pass_step(page, kind))
    assert kind == "count"
    assert NAMES[dealer] in page.locator("#show-area .is-counting .show-title").inner_text()

    # More than the cards hold: final too; the true count scores, and the other person pegs the excess.
    muggins_lines = said.count("Muggins!") + 1
    page.fill("#count-input", str(dealer_total + 3))
    before = turn(page)
    page.click("#count-button")
    kind = wait_decision(page, before)
    assert kind == "count"  # the dealer's crib follows, same person, no pass
    said = "\n".join(log_lines(page))
    assert said.count("Muggins!") == muggins_lines, said
    assert f"Muggins! {NAMES[pone]} pegs the three points {NAMES[dealer]} claimed too many." in said
    dealer_block = page.locator("#show-area .show-block:not(.is-counting)").nth(1)
    assert dealer_block.locator(".show-claim").inner_text() == (
        f"{NAMES[dealer]} claimed {dealer_total + 3}, but the cards hold only {dealer_total}: "
        f"muggins took the 3 claimed too many.")
    assert dealer_block.locator(".show-total").inner_text() == str(dealer_total)
    expected[dealer] += dealer_total
    expected[pone] += 3
    assert scores_by_seat(page) == expected
    assert page.inner_text("#count-message") == ""
    assert "crib" in page.locator("#show-area .is-counting .show-title").inner_text()

    page.fill("#count-input", str(crib_total))
    before = turn(page)
    page.click("#count-button")
    assert wait_decision(page, before) == "next"
    expected[dealer] += crib_total
    exact = after_hand["view"]["scores"]  # CPython claimed the dealer's hand exactly
    assert scores_by_seat(page) == expected == [exact[s] + (3 if s == pone else 0) for s in range(2)]
    assert "\n".join(log_lines(page)).count("Muggins!") == muggins_lines
    assert page.locator("#show-area .show-claim").count() == 2  # the undercount and the overcount
    assert not page.is_visible("#app-error")


def reload_mid_hand_and_at_the_show(page, seed: str, players: int) -> None:
    assert scored_play_in_hand_1(seed, players)
    open_practice(page, seed, target=61, players=players)
    deadline = time.monotonic() + GAME_TIMEOUT_S
    assert play_on(page, wait_decision(page), players,
                   lambda k: k == "play" and page.locator("#laid .laid-item").count() >= 2
                   and any(scores_by_seat(page)), deadline) == "play"

    # In the middle of the play: the same hand, cards and scores come back.
    before = table_view(page)
    game_before = saved(page)["game"]
    engine = host.resume({"game": game_before})
    assert engine["awaiting"] == "play"
    assert before["hand"] == engine["view"]["hand"]
    assert [int(c) for _, c, _ in before["laid"]] == [c for _, c in engine["view"]["laid"]]
    assert scores_by_seat(page) == engine["view"]["scores"]
    assert len(before["seats"]) == players and before["phase"] == "play"
    reload(page)
    assert wait_decision(page) == "play"
    assert saved(page)["game"] == game_before
    assert table_view(page) == before

    # The game goes on as the engine plays it; a reload at "Deal hand 2" comes back to it.
    assert play_on(page, "play", players, lambda k: k == "next", deadline) == "next"
    assert scores_by_seat(page) == scores_at_hand_2(seed, players)
    at_show = table_view(page)
    game_at_show = saved(page)["game"]
    assert page.locator("#show-area .show-block").count() == players + 1
    reload(page)
    assert wait_decision(page) == "next"
    assert page.inner_text("#next-button") == "Deal hand 2"
    assert table_view(page) == at_show
    assert saved(page)["game"] == game_at_show
    assert wait_decision(page, multi_step(page, "next", players)) == "discard"
    assert cards_in(page, "#my-hand") == host.resume({"game": game_at_show})["view"]["hand"]
    assert page.inner_text("#status-hand").startswith("Hand 2")


def test_three_player_game_resumes_after_a_reload(game_page):
    seed = find_seed("resume-three", scored_play_in_hand_1, 3)
    reload_mid_hand_and_at_the_show(game_page, seed, 3)


def test_four_player_partnership_game_resumes_after_a_reload(game_page):
    page = game_page
    seed = find_seed("resume-four", scored_play_in_hand_1, 4)
    reload_mid_hand_and_at_the_show(page, seed, 4)
    assert page.inner_text("#you-name") == "You (with Partner)"
    scores = scores_by_seat(page)
    assert scores[0] == scores[2] and scores[1] == scores[3]


def test_pass_and_play_resumes_behind_the_pass_screen(game_page):
    page = game_page
    seed = "pass-resume-1"
    open_practice(page, seed, target=61, **PASS_PARAMS)
    deadline = time.monotonic() + GAME_TIMEOUT_S
    kind = wait_decision(page)
    # Into the play, to a pass to the second player (seat 1, not the seat a fresh load would
    # show by default) with cards already laid.
    while not (kind == "pass" and pass_seat(page) == 1 and page.locator("#laid .laid-item").count() >= 1):
        assert kind in ("pass", "discard", "play", "go"), kind
        assert time.monotonic() < deadline, "never passed to the second player in the play"
        kind = wait_decision(page, pass_step(page, kind))
    game_before = saved(page)["game"]
    hands = [pass_view(game_before, seat)["view"]["hand"] for seat in (0, 1)]
    assert all(hands)
    laid_before, seats_before = laid_items(page), seat_list(page)

    def check_pass_screen(seat: int) -> None:
        assert wait_decision(page) == "pass"
        assert page.is_visible("#pass-screen") and pass_seat(page) == seat
        assert page.inner_text("#pass-title") == f"Pass the device to {NAMES[seat]}"
        assert hand_buttons(page).count() == 0
        nothing_private_shown(page, hands)

    reload(page)  # at the pass screen
    check_pass_screen(1)
    assert saved(page)["game"] == game_before
    assert laid_items(page) == laid_before and seat_list(page) == seats_before

    kind = wait_decision(page, pass_step(page, "pass"))
    assert kind in ("play", "go")
    assert cards_in(page, "#my-hand") == hands[1]
    assert page.inner_text("#you-name") == NAMES[1]
    assert not set(cards_in(page, "#my-hand")) & set(hands[0])

    reload(page)  # with the second player's cards showing: hidden again until the tap
    check_pass_screen(1)
    assert saved(page)["game"] == game_before
    kind = wait_decision(page, pass_step(page, "pass"))
    assert cards_in(page, "#my-hand") == hands[1]

    # The game goes on: the next pass is to the first player, whose own cards show.
    kind = wait_decision(page, pass_step(page, kind))
    while kind != "pass":
        assert kind in ("play", "go", "next"), kind
        kind = wait_decision(page, pass_step(page, kind))
    assert pass_seat(page) == 0
    kind = wait_decision(page, pass_step(page, "pass"))
    assert cards_in(page, "#my-hand") == pass_view(saved(page)["game"], 0)["view"]["hand"]
    assert page.inner_text("#you-name") == NAMES[0]
