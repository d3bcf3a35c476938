"""engine.daily: which games are a deal of the day, the result to share, the stored days, the streak."""

import json
from datetime import date, timedelta

import pytest

from engine import api, daily, share
from engine.game import new_game
from engine.players import get_player
from engine.record import COMPUTER_SEED


def play_daily(day="2026-12-01", level=None, stop=None, **rules):
    """The day's game played to the end (or ``stop`` moves) by the easy policy as the person."""
    level = level or daily.daily_level()
    state = new_game(seed=daily.game_seed(day), seats=["person", level], **rules)
    state.practice = True
    me, them = get_player("easy", seed="me"), get_player(level, seed=COMPUTER_SEED)
    while not state.is_over and stop != 0:
        view = state.view(state.to_act)
        state.apply((me if state.to_act == 0 else them).choose(view, view["legal_actions"]))
        stop = None if stop is None else stop - 1
    return state


def test_only_the_days_game_under_its_rules_is_a_deal_of_the_day():
    assert daily.day_of(play_daily(stop=0)) == "2026-12-01"
    assert daily.day_of(play_daily(stop=0, level="easy")) is None
    assert daily.day_of(play_daily(stop=0, target=61)) is None
    assert daily.day_of(play_daily(stop=0, muggins=True)) is None
    other = new_game(seed="cribbage-daily:someday", seats=["person", daily.daily_level()])
    other.practice = True
    assert daily.day_of(other) is None


def test_the_result_to_share_adds_up():
    state = play_daily()
    result = daily.result(state)
    points = daily.hand_points(state)
    assert [sum(p[0] for p in points), sum(p[1] for p in points)] == state.scores
    assert result["scores"] == state.scores and result["won"] == (state.winner == 0)
    assert len(result["hands"]) == len(points)
    lines = result["text"].split("\n")
    assert lines[0] == "Cribbage, deal of the day 2026-12-01"
    assert lines[1] == ("I won " if result["won"] else "I lost ") + f"{state.scores[0]} to {state.scores[1]} " \
        f"against the {daily.daily_level()} computer"
    assert lines[2:] == result["picture"].split("\n") and len(lines) == 6
    assert lines[2] == "Me  " + daily.bar(state.scores[0]) + f" {state.scores[0]}"
    assert lines[3] == "CPU " + daily.bar(state.scores[1]) + f" {state.scores[1]}"
    assert lines[4] == "Hands " + "".join(daily.MARKS[h] for h in result["hands"])
    assert lines[5] == daily.LEGEND
    assert daily.bar(max(state.scores)) == daily.FULL * daily.BAR_CELLS
    with pytest.raises(ValueError, match="not finished"):
        daily.result(play_daily(stop=5))


def test_the_result_shows_the_winner_at_121_even_when_the_last_count_passes_it():
    state = play_daily("2026-12-01")  # the computer's last count makes 122
    winner = state.winner
    assert sum(state.tally[winner]) > daily.DAILY_TARGET
    result = daily.result(state)
    assert result["scores"][winner] == daily.DAILY_TARGET == state.scores[winner]
    mine, theirs = result["scores"]
    assert result["text"].split("\n")[1].startswith(("I won " if result["won"] else "I lost ") + f"{mine} to {theirs} ")
    assert "122" not in result["text"]
    points = daily.hand_points(state)
    assert [sum(p[0] for p in points), sum(p[1] for p in points)] == result["scores"]


def test_the_bars_are_proportional_and_only_121_fills_one():
    cells = [daily.bar(score).count(daily.FULL) for score in range(daily.DAILY_TARGET + 1)]
    assert all(len(daily.bar(score)) == daily.BAR_CELLS for score in range(daily.DAILY_TARGET + 1))
    assert cells[daily.DAILY_TARGET] == daily.BAR_CELLS and max(cells[:-1]) == daily.BAR_CELLS - 1
    assert cells == sorted(cells) and cells[0] == 0
    for score, full in enumerate(cells):  # within one cell of the score's share of the bar
        assert abs(full - score * daily.BAR_CELLS / daily.DAILY_TARGET) < 1
    assert daily.bar(119) != daily.bar(121) and daily.bar(100) != daily.bar(115)  # close scores differ


def test_the_marks_of_the_hands_are_explained():
    state = play_daily("2026-12-02")
    lines = daily.result(state)["text"].split("\n")
    assert lines[4].startswith("Hands ") and lines[5] == daily.LEGEND
    for mark in daily.MARKS.values():
        assert mark in daily.LEGEND
    assert "I scored more" in daily.LEGEND and "the computer" in daily.LEGEND


def test_the_endpoints_share_and_count_days():
    def call(name, request):
        return json.loads(api.call(name, json.dumps(request)))

    state = play_daily()
    reply = call("daily_result", {"game": state.to_json(), "started": "2026-12-01"})["result"]
    assert share.decode(reply["code"]).to_json() == state.to_json() and reply["day"] == "2026-12-01"
    assert "not a deal of the day" in call("daily_result", {"game": play_daily(level="easy").to_json()})[
        "error"]["message"]
    days = {"2026-11-30": {"won": True, "scores": [121, 80], "code": "c1.x"},
            "2026-12-01": {"won": False, "scores": [99, 121], "code": reply["code"]},
            "2026-12-40": {"won": True, "scores": [121, 0], "code": "c1.y"},
            "2026-11-29": {"won": "yes", "scores": [121, 0], "code": "c1.z"},
            "2026-11-28": {"won": True, "scores": [121], "code": "c1.z"}}
    stats = call("daily_stats", {"days": days, "today": "2026-12-02"})["result"]
    assert sorted(stats["days"]) == ["2026-11-30", "2026-12-01"]
    assert (stats["played"], stats["won"], stats["current"], stats["best"], stats["today"]) == (2, 1, 2, 2, False)
    assert call("daily_stats", {"days": days, "today": "2026-12-03"})["result"]["current"] == 0
    assert call("daily_stats", {"days": "junk", "today": "2026-12-03"})["result"]["played"] == 0
    rule = call("daily_seed", {"day": "2026-12-01"})["result"]
    assert rule["level"] == daily.daily_level() and rule["target"] == 121


def test_streaks_and_day_numbers():
    start = date(2000, 1, 1)
    for i in range(0, 3000, 7):
        day = start + timedelta(days=i)
        assert daily.day_number(day.isoformat()) == (day - date(1970, 1, 1)).days
    run = {(date(2027, 2, 25) + timedelta(days=i)).isoformat(): {"won": i % 2 == 0} for i in range(6)}
    run["2027-01-01"] = {"won": True}
    got = daily.streak(run, "2027-03-02")
    assert (got["played"], got["won"], got["current"], got["best"], got["today"]) == (7, 4, 6, 6, True)
    assert daily.streak({}, "2027-03-02") == {"played": 0, "won": 0, "current": 0, "best": 0, "today": False}
    many = {(date(2020, 1, 1) + timedelta(days=i)).isoformat(): {"won": True, "scores": [121, 1], "code": "c1.a"}
            for i in range(daily.MAX_DAYS + 20)}
    kept = daily.check_days(many)
    assert len(kept) == daily.MAX_DAYS and min(kept) == (date(2020, 1, 1) + timedelta(days=20)).isoformat()


def test_a_game_counts_only_for_the_day_it_was_started_on():
    state = play_daily()
    assert daily.counted_day(state, "2026-12-01") == "2026-12-01"
    for started in ("2026-11-30", "2026-12-02", None, "", "2026-12-1", "2026-02-30", 20261201, ["2026-12-01"]):
        assert daily.counted_day(state, started) is None, started
    assert "started on 2026-11-30" in daily.not_counted_reason(state, "2026-11-30")
    assert "does not count for 2026-12-01" in daily.not_counted_reason(state, "2026-12-02")
    assert "no day it was started on" in daily.not_counted_reason(state, None)
    assert daily.not_counted_reason(state, "2026-12-01") is None
    practice = play_daily(level="easy")  # not a deal of the day at all: no day, and no reason
    assert daily.counted_day(practice, "2026-12-01") is None and daily.not_counted_reason(practice, "2026-12-01") is None


def test_the_days_rules_make_a_game_of_that_day():
    state = daily.new_daily_game("2026-12-01")
    assert daily.day_of(state) == "2026-12-01" and state.practice
    assert state.held[0] == play_daily(stop=0).held[0]  # the same cards as any other start of that day
    with pytest.raises(ValueError):
        daily.new_daily_game("2026-13-01")


def test_the_result_endpoint_refuses_a_game_started_on_another_day():
    def call(name, request):
        return json.loads(api.call(name, json.dumps(request)))

    game = play_daily().to_json()
    assert call("daily_result", {"game": game, "started": "2026-12-01"})["result"]["day"] == "2026-12-01"
    for started in ("2026-11-30", "2026-12-02"):
        error = call("daily_result", {"game": game, "started": started})["error"]
        assert error["kind"] == "bad_input" and f"started on {started}" in error["message"]
    for request in ({"game": game}, {"game": game, "started": "x" * 5000}):
        error = call("daily_result", request)["error"]
        assert "no day it was started on" in error["message"] and len(error["message"]) < 200
    unfinished = play_daily(stop=5).to_json()
    assert "not finished" in call("daily_result", {"game": unfinished, "started": "2026-12-01"})["error"]["message"]


def test_a_result_dated_after_today_never_breaks_the_streak():
    days = {"2026-11-29": {"won": True}, "2026-11-30": {"won": False}, "2026-12-01": {"won": True},
            "2026-12-25": {"won": True}, "2027-06-01": {"won": False}}
    got = daily.streak(days, "2026-12-01")
    assert (got["played"], got["won"], got["current"], got["best"], got["today"]) == (3, 2, 3, 3, True)
    got = daily.streak(days, "2026-12-02")  # today's deal still to play: the run up to yesterday holds
    assert got["current"] == 3 and not got["today"]
    assert daily.streak({"2026-12-05": {"won": True}}, "2026-12-01")["current"] == 0
    assert daily.streak(days, "2026-12-25")["played"] == 4  # its day come, it counts
