"""Three players, four in partnerships, and two people sharing one device, played in the page.

Practice games (``/?seed=...&players=3``) deal the same cards every time, so CPython replays the
very game the page shows with the same simple policy the tests click (the first card shown for
the crib, the first card that may be laid). Pass and play (``&pass=1&name1=..&name2=..``): every
hand stays hidden behind a "Pass the device to NAME" screen until its owner taps, and the page
never holds the other person's cards. Screenshots of the boards go to screenshots/.
"""

from __future__ import annotations

import time

from engine import host
from engine.cards import CARD_SPOKEN
from tests.e2e.test_game_play import (  # noqa: F401  (game, page_and_problems are fixtures)
    DESKTOP, GAME_TIMEOUT_S, PHONE, SCREENSHOTS, game, hand_buttons, log_lines, move, open_practice,
    page_and_problems, person_move, turn, wait_decision)


def multi_move(reply: dict) -> dict:
    """The tests' policy with one card to the crib."""
    action = person_move(reply)
    if action["type"] == "discard" and reply["view"]["players"] > 2:
        action["cards"] = action["cards"][:1]
    return action


def replay_multi(seed: str, players: int, target: int = 61):
    """The practice game in CPython, seat 0 by the tests' policy, the others the easy computers."""
    reply = host.start({"difficulty": "easy", "target": target, "seed": seed, "players": players})
    while reply["awaiting"] != "over":
        if reply["awaiting"] == "computer":
            reply = host.computer_move({"game": reply["game"], "difficulty": "easy"})
        else:
            reply = host.act({"game": reply["game"], "action": multi_move(reply)})
    return reply


def multi_step(page, kind: str, players: int) -> int:
    if kind == "discard" and players > 2:
        hand_buttons(page).nth(0).click()
        before = turn(page)
        page.click("#throw-button")
        return before
    return move(page, kind)


def seat_list(page) -> list[dict]:
    return page.eval_on_selector_all("#seat-list .seat-item", """items => items.map(i => ({
        seat: +i.dataset.seat, name: i.querySelector('.seat-item-name').textContent,
        chips: [...i.querySelectorAll('.seat-chip')].map(c => c.textContent),
        score: +i.querySelector('.seat-item-score').textContent}))""")


def shoot_board(page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.evaluate("document.getElementById('game').scrollIntoView({block: 'start'})")
        page.wait_for_timeout(200)
        page.screenshot(path=str(SCREENSHOTS / f"game-{name}-{label}.png"))
    page.set_viewport_size(DESKTOP)


def play_to_the_end(page, seed: str, players: int) -> None:
    final = replay_multi(seed, players)
    open_practice(page, seed, target=61, players=players)
    kind = wait_decision(page)
    assert kind == "discard"
    assert page.is_visible("#seat-list") and not page.is_visible("#seat-cpu")
    seats = seat_list(page)
    assert len(seats) == players
    dealer = [s["seat"] for s in seats if "Dealer" in s["chips"]]
    assert len(dealer) == 1 and seats[0]["seat"] == (dealer[0] + 1) % players  # left of the dealer first
    lanes = page.locator("#board .crib-board-legend li, #board .crib-board-legend > *").count()
    shots, saw_go, saw_turn = True, False, False
    started = time.monotonic()
    while kind != "over":
        assert time.monotonic() - started < GAME_TIMEOUT_S, "the game took too long"
        if kind == "play":
            seats = seat_list(page)
            assert [s["seat"] for s in seats if "To play" in s["chips"]] == [0]
            saw_turn = True
            if shots and page.locator("#laid .laid-item").count() >= 2:
                shots = False
                shoot_board(page, f"{players}p")
        saw_go = saw_go or any("Go" in s["chips"] for s in seat_list(page))
        if kind == "next":
            # The show: each hand from the dealer's left, the dealer's, then the crib.
            titles = page.eval_on_selector_all("#show-area .show-title > span:first-child",
                                               "t => t.map(x => x.textContent)")
            assert len(titles) == players + 1 and titles[-1].endswith("crib")
        before = multi_step(page, kind, players)
        kind = wait_decision(page, before)
    assert saw_turn and saw_go and lanes >= 0
    result = final["result"]
    assert page.inner_text("#game-over-title") == result["title"]
    assert page.inner_text("#game-over-detail") == result["score"]
    scores = {s["seat"]: s["score"] for s in seat_list(page)}
    assert [scores[s] for s in range(players)] == [min(s, 61) for s in final["view"]["scores"]]
    assert "\n".join(log_lines(page)).endswith(final["outcome"])
    assert "not counted" in page.inner_text("#game-over-note")
    stats = page.evaluate("localStorage.getItem('cribbage.stats.v1')")
    assert stats is None or '"games":0' in stats.replace(" ", "")
    label = page.get_attribute("#board svg", "aria-label")
    for score in {min(s, 61) for s in final["view"]["scores"]}:
        assert str(score) in label


def test_three_player_game_to_the_end(page_and_problems):
    page, _ = page_and_problems
    play_to_the_end(page, "three-42", 3)  # three hands: one of the shortest games


def test_four_player_partnership_game_to_the_end(page_and_problems):
    page, _ = page_and_problems
    play_to_the_end(page, "four-1", 4)
    seats = seat_list(page)
    by_seat = {s["seat"]: s["score"] for s in seats}
    assert by_seat[0] == by_seat[2] and by_seat[1] == by_seat[3]


def test_pass_and_play_never_shows_the_other_hand(page_and_problems):
    page, _ = page_and_problems
    names = ["<b>Ann</b>", "Bob"]
    open_practice(page, "pass-1", target=61, **{"pass": 1, "name1": "%3Cb%3EAnn%3C%2Fb%3E", "name2": "Bob"})
    kind = wait_decision(page)
    known: dict[int, set[int]] = {0: set(), 1: set()}
    me = None
    passes = 0

    def others_hidden(other: int | None) -> None:
        laid = {int(c) for c in page.eval_on_selector_all("#laid [data-card]", "e => e.map(x => x.dataset.card)")}
        text = page.inner_text("#felt") + "\n".join(log_lines(page)[1:])  # the first line is the cut
        for seat in ([other] if other is not None else [0, 1]):
            for card in known[seat] - laid:
                assert page.locator(f'[data-card="{card}"]').count() == 0, (seat, card)
                assert CARD_SPOKEN[card] not in text, (seat, CARD_SPOKEN[card])

    while kind != "next":
        if kind == "pass":
            passes += 1
            assert hand_buttons(page).count() == 0
            others_hidden(None)
            title = page.locator("#pass-title")
            assert title.locator("b").count() == 0
            seat = int(page.get_attribute("#pass-button", "data-seat"))
            assert title.inner_text() == f"Pass the device to {names[seat]}"
            if passes == 1:
                shoot_board(page, "pass")
            before = turn(page)
            page.click("#pass-button")
            kind = wait_decision(page, before)
            me = seat
            continue
        assert me is not None
        held = {int(c) for c in page.eval_on_selector_all("#my-hand [data-card]", "e => e.map(x => x.dataset.card)")}
        known[me] |= held
        others_hidden(1 - me)
        before = move(page, kind)
        kind = wait_decision(page, before)
    assert passes >= 3
    assert page.locator("#seat-list b").count() == 0 and "<b>Ann</b>" in page.inner_text("#seat-list")


def test_a_pass_and_play_game_refused_for_its_names_keeps_the_form_as_asked(page, wait_for_ui):
    """Two names the same (or one missing, from a link) are refused with the reason, and the form
    stays on two players on one device with the names as given, the cursor in the one to mend."""
    page.goto("/")
    wait_for_ui(page)
    page.check("#setup input[name='table'][value='pass']")
    page.fill("#name-0", "Ann")
    page.fill("#name-1", "ann")
    page.click("#deal-button")
    page.wait_for_selector("#setup-message:has-text('different names')")
    assert page.is_checked("#setup input[name='table'][value='pass']")
    assert page.input_value("#name-1") == "ann" and page.is_visible("#name-1")
    assert page.evaluate("document.activeElement.id") == "name-1"
    page.goto("/?seed=no-names&pass=1&name2=Bob")
    wait_for_ui(page)
    page.wait_for_selector("#setup-message:has-text('Player 1 needs a name')")
    assert page.is_checked("#setup input[name='table'][value='pass']")
    assert page.input_value("#name-0") == "" and page.input_value("#name-1") == "Bob"
    assert page.evaluate("document.activeElement.id") == "name-0"
