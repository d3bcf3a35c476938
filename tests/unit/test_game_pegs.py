"""The back pegs in the saved game and the view, and the final board revealed at game over."""

from __future__ import annotations

import json
import random

import pytest

from engine import host, narration
from engine.game import GameFormatError, new_game
from engine.record import from_json


def play_randomly(state, rng, until=lambda s: s.is_over):
    """Apply random legal actions until ``until(state)``; yields every batch of events."""
    while not until(state) and not state.is_over:
        yield state.apply(rng.choice(state.legal_actions()))


def peg_moves(events, players):
    """The board moves the page makes: the items of one card or one show together, the rest one by one."""
    moves = []
    for i, e in enumerate(events):
        if e["type"] != "score":
            continue
        before = events[i - 1] if i else None
        joined = (before is not None and before["type"] == "score" and before["seat"] == e["seat"]
                  and before["reason"] not in ("go", "last_card", "his_heels", "muggins", "count")
                  and e["reason"] not in ("go", "last_card", "his_heels", "muggins", "count")
                  and before.get("show") == e.get("show"))
        side = e["seat"] % 2 if players == 4 else e["seat"]
        if joined and moves and moves[-1][0] == side:
            moves[-1][2] = e["total"]
        else:
            moves.append([side, e["total"] - e["points"], e["total"]])
    return moves


@pytest.mark.parametrize("options", [{}, {"muggins": True}, {"players": 3}, {"players": 4}, {"target": 61}])
def test_back_pegs_follow_each_move_on_the_board(options):
    rng = random.Random(5)
    state = new_game(seed="pegs", **options)
    n = state.players
    fronts = [0] * n
    backs = [0] * n
    assert state.backs == [0] * n and state.view(0)["backs"] == [0] * n
    for events in play_randomly(state, rng):
        for side, start, end in peg_moves(events, n):
            for s in state.side_seats(side):
                # The move that reaches the target stops there: its points may pass it.
                assert fronts[s] == start or (end == state.target and start < fronts[s] < end)
                backs[s], fronts[s] = fronts[s], end
        assert state.scores == fronts
        assert state.backs == backs
        for seat in range(n):
            assert state.view(seat)["backs"] == backs
        assert all(b < f or b == f == 0 for b, f in zip(backs, fronts))


def test_a_counted_show_is_one_move_and_last_card_another():
    state = new_game(seed="pegs-show")
    rng = random.Random(1)
    checked = 0
    for events in play_randomly(state, rng):
        shows = [i for i, e in enumerate(events) if e["type"] == "show" and len(e["items"]) > 1]
        if not shows or state.is_over:
            continue
        i = shows[-1]
        show = events[i]
        if any(e["type"] == "score" and e["seat"] == show["seat"] for e in events[i + 1 + len(show["items"]):]):
            continue
        first = events[i + 1]
        assert first["type"] == "score" and first.get("show") == show["show"]
        assert state.backs[show["seat"]] == first["total"] - first["points"]
        checked += 1
    assert checked >= 3
    # With muggins the batch stops at the first count, so the last card is often the last move.
    for k in range(20):
        state = new_game(seed=f"pegs-last-{k}", muggins=True)
        for events in play_randomly(state, rng):
            for i, e in enumerate(events):
                if e["type"] == "score" and e["reason"] == "last_card" and events[i - 1]["type"] == "score" \
                        and not any(x["type"] == "score" and x["seat"] == e["seat"] for x in events[i + 1:]):
                    assert state.backs[e["seat"]] == e["total"] - 1
                    return
    raise AssertionError("no points for last card straight after points in the play")


def test_backs_come_back_from_the_replay():
    """The back pegs are never stored: loading replays the game, which puts them where they were."""
    for options in ({}, {"players": 4}):
        state = new_game(seed="pegs-save", **options)
        rng = random.Random(2)
        for _ in play_randomly(state, rng, until=lambda s: s.hand_number >= 3 and s.phase == "play"):
            pass
        text = state.to_json()
        assert "backs" not in json.loads(text)
        loaded = from_json(text)
        assert loaded.backs == state.backs and loaded.to_json() == text
        reply = host.resume({"game": text})
        assert reply["view"]["backs"] == state.backs


def test_an_edited_back_peg_is_not_a_saved_game():
    state = new_game(seed="pegs-tamper", target=61)
    data = json.loads(state.to_json())
    data["backs"] = [0, 0]
    with pytest.raises(GameFormatError, match="unknown field"):
        from_json(json.dumps(data))


def ended_in_the_play(players=2):
    """A game that ended during the play, with cards still in the other seats' hands."""
    for k in range(400):
        state = new_game(seed=f"end-play-{k}", target=61, players=players)
        rng = random.Random(k)
        for _ in play_randomly(state, rng):
            pass
        if state.laid and any(state.held[s] for s in range(players) if s != 0) and not state.view(0)["shown"]:
            return state
    raise AssertionError("no game ended in the play")


def test_the_final_view_turns_up_the_cards_left_in_every_hand():
    state = ended_in_the_play()
    view = state.view(0)
    revealed = view["revealed"]
    assert revealed["held"] == state.held and revealed["held"][1]
    assert revealed["discards"] == state.discards and revealed["crib"] == state.crib
    assert sorted(revealed["held"][1] + [c for s, c in state.laid if s == 1] + revealed["discards"][1]) \
        == revealed["hands"][1]
    # The page's reply has display data for every card it may now show, in playing order.
    reply = host.resume({"game": state.to_json()})
    held = reply["view"]["revealed"]["held"][1]
    assert held == sorted(state.held[1], key=narration.display_order)
    assert all(str(c) in reply["cards"] for c in held + revealed["crib"])


def test_nothing_is_revealed_before_the_end():
    state = new_game(seed="pegs-hidden", players=3)
    rng = random.Random(4)
    for _ in play_randomly(state, rng):
        if not state.is_over:
            assert all(state.view(s)["revealed"] is None for s in range(3))
    assert all(state.view(s)["revealed"]["held"] == state.held for s in range(3))
