"""The game page after a reload and at the final board: nothing on the table is lost.

- A reload while the show waits for "Deal hand N" comes back to that show and that button; the
  next deal is the one the engine already made (never dealt again).
- A reload at a go the person must acknowledge comes back to the go.
- Both pegs of each side stand where they stood before the reload (the back peg too).
- When the game ends in the play, the cards still held are turned up on the final board.
- What the table shows after a reload comes from the engine's replay of the saved game, never
  from display data stored beside it: notes added to the saved game change nothing.

Practice games from a fixed seed (``/?seed=...``) deal the same cards every time; the engine in
CPython replays them with the policy these tests click (the first two cards shown to the crib,
the first card that may be laid), so the tests know what the page must show.
"""

from __future__ import annotations

import json

import pytest

from engine import host
from engine.record import from_json
from tests.e2e.conftest import engine_ready, ui_ready
from tests.e2e.test_game_play import person_move, wait_decision
from tests.e2e.test_game_play import move as policy_move

KEY_GAME = "cribbage.game.v1"
KEY_PRACTICE = "cribbage.practice.v1"  # a practice link's game has a slot of its own
KEY_SETTINGS = "cribbage.settings.v1"
FAST = {"v": 1, "difficulty": "easy", "target": 61, "muggins": False, "speed": "fast", "go": "hand"}


# --- the same game in CPython ----------------------------------------------------------------


def replies(seed: str, target: int = 61):
    """Every reply of the practice game played with the tests' policy, in order."""
    reply = host.start({"difficulty": "easy", "target": target, "muggins": False, "seed": seed})
    yield reply
    while reply["awaiting"] != "over":
        if reply["awaiting"] == "computer":
            reply = host.computer_move({"game": reply["game"], "difficulty": "easy"})
        else:
            reply = host.act({"game": reply["game"], "action": person_move(reply)})
        yield reply


def first_hand_events(seed: str) -> list[dict]:
    events = []
    for reply in replies(seed):
        events += reply["events"]
        if any(e["type"] == "hand_end" for e in reply["events"]):
            return events
    raise AssertionError("the first hand did not end")


def go_with_cards(seed: str) -> bool:
    """Hand 1: the person must say go while still holding cards."""
    held = 0
    for e in first_hand_events(seed):
        if e["type"] == "hand" and e["seat"] == 0:
            held = len(e["cards"]) - 2
        elif e["type"] == "play" and e["seat"] == 0:
            held -= 1
        elif e["type"] == "go" and e["seat"] == 0 and held > 0:
            return True
    return False


def both_peg_twice(seed: str) -> bool:
    """Hand 1: each side scores in at least two moves (so both back pegs leave the start)."""
    for reply in replies(seed):
        if reply["view"]["hand_number"] == 2:
            return min(reply["view"]["backs"]) > 0
    return False


def find_seed(prefix: str, wanted) -> str:
    for n in range(300):
        seed = f"{prefix}-{n}"
        if wanted(seed):
            return seed
    raise AssertionError(f"no {prefix} seed found")


def ends_in_the_play(seed: str):
    """The practice game ends during the play with the computer still holding cards: the reply at
    the person's discard of that last hand, and the final reply; else None."""
    at_discard = None
    for reply in replies(seed):
        if reply["awaiting"] == "discard":
            at_discard = reply
        final = reply
    view = final["view"]
    if view["revealed"]["held"][1] and not view["shown"] and at_discard["view"]["hand_number"] == view["hand_number"]:
        return at_discard, final
    return None


# --- the page --------------------------------------------------------------------------------


@pytest.fixture
def game_page(page, problems):
    """The page with quick settings (fast computer, 61 points) on every load."""
    page.context.add_init_script(
        f"localStorage.setItem({json.dumps(KEY_SETTINGS)}, {json.dumps(json.dumps(FAST))});")
    return page


def open_page(page, url: str) -> None:
    page.goto(url)
    ui_ready(page)
    engine_ready(page)


def reload(page) -> None:
    page.reload()
    ui_ready(page)
    engine_ready(page)


def move(page, kind: str) -> str:
    """Make the tests' policy move for this decision; returns the next decision."""
    return wait_decision(page, policy_move(page, kind))


def play_until(page, *kinds) -> str:
    kind = wait_decision(page)
    for _ in range(80):
        if kind in kinds:
            return kind
        assert kind != "over", f"the game ended before {kinds}"
        kind = move(page, kind)
    raise AssertionError(f"never reached {kinds}")


def cards_in(page, selector: str) -> list[int]:
    return [int(c) for c in page.eval_on_selector_all(f"{selector} [data-card]", "els => els.map(e => e.dataset.card)")]


def pegs(page) -> list[int]:
    """The holes of the pegs: lane 0 front, back, lane 1 front, back."""
    holes = page.eval_on_selector_all("#board .peg", "els => els.map(e => [e.id, +e.dataset.hole])")
    return [hole for _, hole in sorted(holes)]


def table_snapshot(page) -> dict:
    return {
        "show": page.inner_text("#show-area") if page.is_visible("#show-area") else "",
        "hand": cards_in(page, "#my-hand"),
        "laid": cards_in(page, "#laid"),
        "starter": cards_in(page, "#starter"),
        "count": page.inner_text("#count"),
        "scores": [page.inner_text("#score-0"), page.inner_text("#score-1")],
        "pegs": sorted_pegs(page),
        "status": page.inner_text("#status-hand"),
        "phase": page.get_attribute("#game", "data-phase"),
    }


def sorted_pegs(page) -> list[list[int]]:
    """Each lane's pegs as [front, back] (front = the higher hole)."""
    holes = pegs(page)
    return [sorted(holes[i:i + 2], reverse=True) for i in (0, 2)]


def saved(page) -> dict:
    """The saved game this page plays: the practice slot's if it has one, else the game's."""
    text = page.evaluate("(keys) => keys.map((k) => localStorage.getItem(k)).find((v) => v !== null)",
                         [KEY_PRACTICE, KEY_GAME])
    return json.loads(text)


def store_and_reload(page, envelope: dict) -> None:
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [KEY_GAME, json.dumps(envelope)])
    reload(page)


# --- tests -----------------------------------------------------------------------------------


def test_reload_at_deal_next_hand_keeps_the_show_and_the_pegs(game_page):
    page = game_page
    seed = find_seed("gap-next", both_peg_twice)
    open_page(page, f"/?seed={seed}")
    assert play_until(page, "next") == "next"
    before = table_snapshot(page)
    button = page.inner_text("#next-button")
    assert button == "Deal hand 2" and before["phase"] == "show"
    assert page.locator("#show-area .show-block").count() == 3
    game_before = saved(page)["game"]
    state = from_json(game_before)
    assert state.hand_number == 2  # the engine has dealt hand 2 already
    assert before["pegs"] == [[state.scores[0], state.backs[0]], [state.scores[1], state.backs[1]]]

    reload(page)
    assert wait_decision(page) == "next"  # the same stop, not hand 2's discard
    assert page.is_visible("#next-button") and page.inner_text("#next-button") == button
    assert table_snapshot(page) == before
    assert saved(page)["game"] == game_before

    # "Deal hand 2" shows the deal the engine made before the reload; the game is unchanged.
    assert move(page, "next") == "discard"
    expected = host.resume({"game": game_before})["view"]
    assert cards_in(page, "#my-hand") == expected["hand"]
    assert page.inner_text("#status-hand").startswith("Hand 2")
    assert saved(page)["game"] == game_before

    assert sorted_pegs(page) == before["pegs"]


def engine_pegs(view) -> list[list[int]]:
    """[front, back] by side as the board places them for the engine's view (0: a start hole)."""
    return [[min(score, view["target"]), back] for score, back in zip(view["scores"], view["backs"])]


def test_back_pegs_stand_where_they_were_after_a_reload(game_page):
    page = game_page
    seed = find_seed("gap-next", both_peg_twice)
    at_hand_2 = next(r for r in replies(seed) if r["view"]["hand_number"] == 2)
    assert at_hand_2["awaiting"] == "discard" and min(at_hand_2["view"]["backs"]) > 0
    envelope = {"v": 1, "game": at_hand_2["game"], "tab": "t-test", "rev": 1, "time": 0,
                "meta": {"difficulty": "easy", "practice": True, "practice_seed": seed, "stop": ""}}
    open_page(page, "/")
    store_and_reload(page, envelope)
    assert wait_decision(page) == "discard"
    assert sorted_pegs(page) == engine_pegs(at_hand_2["view"])

    # Into the play, then a reload: every peg stays where it stood.
    kind = move(page, "discard")
    while kind == "play" and int(page.inner_text("#score-0")) == at_hand_2["view"]["scores"][0]:
        kind = move(page, kind)
    before = sorted_pegs(page)
    assert before != engine_pegs(at_hand_2["view"])
    if kind == "play":  # every event shown: the board is the engine's view
        assert before == engine_pegs(from_json(saved(page)["game"]).view(0))
    reload(page)
    assert wait_decision(page) == kind
    assert sorted_pegs(page) == before



def test_reload_at_a_go_comes_back_to_the_go(game_page):
    page = game_page
    seed = find_seed("gap-go", go_with_cards)
    open_page(page, f"/?seed={seed}")
    assert play_until(page, "go") == "go"
    before = table_snapshot(page)
    assert before["hand"] and page.is_visible("#you-go")
    game_before = saved(page)["game"]

    reload(page)
    assert wait_decision(page) == "go"
    assert page.is_visible("#go-button") and page.is_visible("#you-go")
    assert table_snapshot(page) == before
    assert saved(page)["game"] == game_before

    # Going on after the go plays the hand out exactly as the engine has it.
    assert play_until(page, "next") == "next"
    after_hand = [r for r in replies(seed) if r["view"]["hand_number"] == 2][0]["view"]
    assert [int(page.inner_text("#score-0")), int(page.inner_text("#score-1"))] == after_hand["scores"]


def test_game_over_in_the_play_turns_up_the_cards_left(game_page):
    page = game_page
    found = None
    for n in range(200):
        seed = f"gap-end-{n}"
        found = ends_in_the_play(seed)
        if found:
            break
    assert found, "no practice game ends in the play"
    at_discard, final = found
    envelope = {"v": 1, "game": at_discard["game"], "tab": "t-test", "rev": 1, "time": 0,
                "meta": {"difficulty": "easy", "practice": True, "practice_seed": seed, "stop": ""}}
    open_page(page, "/")
    store_and_reload(page, envelope)
    assert play_until(page, "over") == "over"
    revealed = final["view"]["revealed"]
    computer_left = revealed["held"][1]
    assert computer_left

    def check_final_board():
        assert page.get_attribute("#game", "data-phase") == "over"
        assert cards_in(page, "#cpu-hand") == computer_left  # face up, in playing order
        assert page.locator("#cpu-hand .card-back").count() == 0
        label = page.get_attribute("#cpu-hand", "aria-label")
        assert label.startswith("The computer held ") and label.endswith(" at the end")
        for card in computer_left:
            assert final["cards"][str(card)]["spoken"] in label
        assert sorted(cards_in(page, "#crib")) == sorted(revealed["crib"]) and len(revealed["crib"]) == 4
        assert cards_in(page, "#my-hand") == revealed["held"][0]
        assert [int(page.inner_text("#score-0")), int(page.inner_text("#score-1"))] == [
            min(s, 61) for s in final["view"]["scores"]]
        assert sorted_pegs(page) == [[min(s, 61), b] for s, b in zip(final["view"]["scores"], final["view"]["backs"])]

    check_final_board()
    reload(page)  # the finished game on the table again, as it ended
    assert wait_decision(page) == "over"
    check_final_board()


def test_the_table_after_a_reload_comes_from_the_engine_not_from_stored_notes(game_page):
    """Display data stored beside the game (as an older version kept, or as anyone may add) is
    never shown: the engine replays the game, and the page shows its last moves from there."""
    page = game_page
    open_page(page, "/?seed=gap-bad-1")
    assert play_until(page, "next") == "next"
    good = saved(page)
    before = table_snapshot(page)
    forged_view = {"scores": [60, 0], "hand": [51, 50, 49, 48], "stop": "over"}
    for notes in ({"table": forged_view}, {"table": "garbage{"}, {"scores": [119, 0], "recorded": True}):
        envelope = json.loads(json.dumps(good))
        envelope["meta"].update(notes)
        page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                      [KEY_PRACTICE, json.dumps(envelope)])
        reload(page)
        assert wait_decision(page) == "next"
        assert table_snapshot(page) == before
        assert not page.is_visible("#app-error")
