"""The statistics record (engine/stats.py), its endpoints, and its twin in site_src/app/table/store.py."""

from __future__ import annotations

import copy
import json
import random
from functools import lru_cache
from pathlib import Path

import pytest

from engine import api, stats
from engine.game import SOURCES, new_game
from engine.record import from_json
from engine.players import get_player

ROOT = Path(__file__).resolve().parents[2]


# --- helpers ---------------------------------------------------------------------------------


def play_out(seed, target=121, muggins=False, kinds=("easy", "easy")):
    """Play a whole game between two computer players; return the state and every event."""
    state = new_game(seed=seed, target=target, muggins=muggins)
    events = list(state.start_events)
    movers = [get_player(kind, seed=f"{seed}:{i}") for i, kind in enumerate(kinds)]
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        events += state.apply(movers[seat].choose(view, view["legal_actions"]))
    return state, events


def play_random(seed, target=61):
    """Play a whole game with uniformly random legal actions."""
    rng = random.Random(seed)
    state = new_game(seed=seed, target=target)
    events = list(state.start_events)
    while not state.is_over:
        events += state.apply(rng.choice(state.legal_actions()))
    return state, events


@lru_cache(maxsize=None)
def finished(seed, target=121, muggins=False):
    state, events = play_out(seed, target, muggins)
    return state.to_json(), json.dumps(events)


def summary(**changes):
    """A valid hand-made summary (a won 121-point game against easy), with changes."""
    base = {
        "version": 1, "id": "0" * 19 + "1", "seat": 0, "players": 2, "target": 121,
        "muggins": False, "difficulty": "easy", "winner": 0, "won": True, "scores": [121, 100],
        "skunk_given": "none", "skunk_taken": "none",
        "points": {"pegging": 30, "hand": 60, "crib": 25, "heels": 2, "muggins": 0},
        "hands": 10, "shows": 10, "cribs": 5, "best_hand": 16, "best_crib": 12, "twenty_nines": 0,
        "hinted": False,
    }
    base.update(changes)
    return base


def loss(**changes):
    changes.setdefault("won", False)
    changes.setdefault("winner", 1)
    changes.setdefault("scores", [100, 121])
    return summary(**changes)


_ids = iter(range(1, 10**6))


def fresh_id():
    return "%020x" % next(_ids)


# --- new_stats and parse_stats ---------------------------------------------------------------


def test_new_stats_is_valid_and_round_trips_through_json():
    record = stats.new_stats()
    assert stats.parse_stats(record) == record
    assert stats.parse_stats(json.loads(json.dumps(record))) == record
    assert record["games"] == 0 and record["best_hand"] is None


def test_parse_stats_returns_a_copy():
    record = stats.record_game(stats.new_stats(), summary())
    clean = stats.parse_stats(record)
    clean["points"]["hand"] += 1
    clean["recent"].append("ab" * 10)
    assert record["points"]["hand"] == 60 and len(record["recent"]) == 1


def valid_record():
    record = stats.new_stats()
    for won in (True, True, False):
        record = stats.record_game(record, summary(id=fresh_id()) if won else loss(id=fresh_id()))
    return record


BAD_RECORDS = [
    # (change, words the message must contain)
    (lambda r: r.update(version=2), "unsupported statistics version 2"),
    (lambda r: r.update(version="1"), "unsupported statistics version '1'"),
    (lambda r: r.pop("version"), "unsupported statistics version None"),
    (lambda r: r.pop("games"), "lacks games"),
    (lambda r: r.update(colour="red"), "unknown field colour"),
    (lambda r: r.update(games=-1, wins=-1), "games must not be negative"),
    (lambda r: r.update(wins=True), "wins must be a whole number, got True"),
    (lambda r: r.update(hands=3.0), "hands must be a whole number, got 3.0"),
    (lambda r: r.update(losses="1"), "losses must be a whole number, got '1'"),
    (lambda r: r.update(wins=r["wins"] + 1), "do not add up to games"),
    (lambda r: r.update(games=r["games"] + 1, losses=r["losses"] + 1), "by_difficulty counts 3 games but the record has 4"),
    (lambda r: r["by_difficulty"].update(wizard=r["by_difficulty"].pop("easy")), "by_difficulty has unknown entry 'wizard'"),
    (lambda r: r["by_target"]["121"].update(wins=0), "by_target.121: wins (0) and losses (1) do not add up to games (3)"),
    (lambda r: r["by_target"].update({"121": []}), "by_target.121 must be an object"),
    (lambda r: r.update(by_target=[]), "by_target must be an object"),
    (lambda r: r.update(best_streak=3), "best_streak (3) exceeds wins (2)"),
    (lambda r: r.update(streak=0, best_streak=0), None),  # fine: a streak may have ended
    (lambda r: r.update(streak=2, best_streak=1), "streak (2) exceeds best_streak (1)"),
    (lambda r: r.update(best_hand=30), "best_hand must be null or a whole number from 0 to 29, got 30"),
    (lambda r: r.update(best_hand=None), "best_hand is missing although 30 hands were counted"),
    (lambda r: r.update(skunks_given=2, double_skunks_given=1), "more skunks given than games won"),
    (lambda r: r.update(skunks_taken=2), "more skunks taken than games lost"),
    (lambda r: r.update(hands=2), "hands (2) is fewer than games (3)"),
    (lambda r: r.update(shows=31), "shows (31) exceeds hands (30)"),
    (lambda r: r.update(twenty_nines=1), "twenty_nines is counted but no hand or crib of 29"),
    (lambda r: r["points"].pop("heels"), "points lacks heels"),
    (lambda r: r["points"].update(hand=-5), "points.hand must not be negative"),
    (lambda r: r.update(recent="abc"), "recent must be a list"),
    (lambda r: r["recent"].append("not-hex-at-all!"), "not a game id"),
    (lambda r: r["recent"].append(r["recent"][0]), "recent lists a game twice"),
]


@pytest.mark.parametrize("change, message", BAD_RECORDS)
def test_parse_stats_rejects_bad_records_naming_the_problem(change, message):
    record = valid_record()
    change(record)
    if message is None:
        stats.parse_stats(record)
        return
    with pytest.raises(ValueError) as caught:
        stats.parse_stats(record)
    assert message in str(caught.value)


@pytest.mark.parametrize("value", [None, [], "stats", 7, [stats.new_stats()]])
def test_parse_stats_rejects_what_is_not_an_object(value):
    with pytest.raises(ValueError, match="the statistics must be an object"):
        stats.parse_stats(value)


def test_check_stats_text_refuses_missing_corrupt_and_foreign_data():
    assert stats.check_stats_text(None) == {"stats": stats.new_stats(), "mended": [], "problem": None}
    assert stats.check_stats_text("  ")["problem"] is None
    record = valid_record()
    assert stats.check_stats_text(json.dumps(record)) == {"stats": record, "mended": [], "problem": None}
    for text, reason in [("garbage{", "not JSON"), ('{"games": 3}', "version"),
                         ("[1, 2]", "must be an object"), ('{"version": 9}', "version 9"),
                         ("[" * 5000, "not JSON")]:
        checked = stats.check_stats_text(text)
        assert checked["stats"] == stats.new_stats()
        assert reason in checked["problem"]


def test_unknown_fields_and_a_long_recent_list_are_mended_not_refused():
    record = valid_record()
    newer = dict(record, theme="dark", achievements={"x": 1})
    newer["points"] = dict(record["points"], bonus=3)
    checked = stats.check_stats_text(json.dumps(newer))
    assert checked["problem"] is None and checked["stats"] == record
    assert len(checked["mended"]) == 3 and "'theme'" in " ".join(checked["mended"])
    many = stats.new_stats()
    for i in range(stats.RECENT_MAX + 1):
        many = stats.record_game(many, summary(id=fresh_id()))
    grown = dict(many, recent=["%020x" % 7] + many["recent"])
    assert len(grown["recent"]) == stats.RECENT_MAX + 1
    checked = stats.check_stats_text(json.dumps(grown))
    assert checked["problem"] is None and checked["stats"]["recent"] == many["recent"]
    assert checked["stats"]["games"] == many["games"]


# --- record_game -----------------------------------------------------------------------------


def test_record_game_counts_wins_losses_streaks_and_breakdowns():
    record = stats.new_stats()
    results = [True, True, False, True, True, True, False, True]
    streaks = []
    for i, won in enumerate(results):
        difficulty = "hard" if i % 2 else "easy"
        target = 61 if i == 3 else 121
        make = summary if won else loss
        record = stats.record_game(record, make(id=fresh_id(), difficulty=difficulty, target=target))
        streaks.append(record["streak"])
    assert streaks == [1, 2, 0, 1, 2, 3, 0, 1]
    assert record["best_streak"] == 3
    assert (record["games"], record["wins"], record["losses"]) == (8, 6, 2)
    assert record["by_difficulty"] == {"easy": {"games": 4, "wins": 2, "losses": 2},
                                       "hard": {"games": 4, "wins": 4, "losses": 0}}
    assert record["by_target"] == {"121": {"games": 7, "wins": 5, "losses": 2},
                                   "61": {"games": 1, "wins": 1, "losses": 0}}
    assert list(record["by_target"]) == ["121", "61"]


def test_record_game_sums_points_and_gives_averages_by_source():
    record = stats.new_stats()
    record = stats.record_game(record, summary(
        id=fresh_id(), hands=10, shows=10, cribs=5,
        points={"pegging": 40, "hand": 80, "crib": 30, "heels": 2, "muggins": 0}))
    record = stats.record_game(record, loss(
        id=fresh_id(), hands=6, shows=5, cribs=3,
        points={"pegging": 20, "hand": 40, "crib": 18, "heels": 0, "muggins": 0},
        best_hand=24, best_crib=8))
    assert (record["hands"], record["shows"], record["cribs"]) == (16, 15, 8)
    assert record["points"] == {"pegging": 60, "hand": 120, "crib": 48, "heels": 2, "muggins": 0}
    assert stats.averages(record) == {"pegging": 3.75, "hand": 8.0, "crib": 6.0}
    assert (record["best_hand"], record["best_crib"]) == (24, 12)


def test_record_game_counts_skunks_and_29s():
    record = stats.new_stats()
    record = stats.record_game(record, summary(id=fresh_id(), skunk_given="skunk"))
    record = stats.record_game(record, summary(id=fresh_id(), skunk_given="double_skunk",
                                               best_hand=29, twenty_nines=1))
    record = stats.record_game(record, loss(id=fresh_id(), skunk_taken="skunk"))
    record = stats.record_game(record, loss(id=fresh_id(), skunk_taken="double_skunk",
                                            best_crib=29, twenty_nines=1))
    assert (record["skunks_given"], record["double_skunks_given"]) == (1, 1)
    assert (record["skunks_taken"], record["double_skunks_taken"]) == (1, 1)
    assert record["twenty_nines"] == 2 and record["best_hand"] == 29 and record["best_crib"] == 29


def test_record_game_does_not_change_its_input_and_skips_a_game_already_counted():
    record = stats.record_game(stats.new_stats(), summary(id=fresh_id()))
    before = copy.deepcopy(record)
    again = summary(id=record["recent"][0])
    assert stats.record_game(record, again) == record
    assert record == before
    newer = stats.record_game(record, summary(id=fresh_id()))
    assert record == before and newer["games"] == 2


def test_recent_keeps_only_the_last_games():
    record = stats.new_stats()
    for _ in range(stats.RECENT_MAX + 5):
        record = stats.record_game(record, summary(id=fresh_id()))
    assert len(record["recent"]) == stats.RECENT_MAX
    assert record["games"] == stats.RECENT_MAX + 5


@pytest.mark.parametrize("change, message", [
    (dict(difficulty="master"), "unknown difficulty"),
    (dict(target=100), "unknown target"),
    (dict(won="yes"), "won must be true or false"),
    (dict(skunk_taken="skunk"), "given by the winner and taken by the loser"),
    (dict(shows=11), "hand counts do not fit"),
    (dict(best_hand=None), "best_hand is missing"),
    (dict(id="short"), "not a game id"),
    (dict(extra=1), "unknown field extra"),
])
def test_record_game_refuses_a_bad_summary(change, message):
    with pytest.raises(ValueError, match=message):
        stats.record_game(stats.new_stats(), summary(**change))


# --- game_summary from real games ------------------------------------------------------------


def shows_of(events, seat, what):
    return [e["total"] for e in events if e["type"] == "show" and e["seat"] == seat and e["show"] == what]


@pytest.mark.parametrize("seed, target", [("s1", 121), ("s2", 121), ("s3", 61), ("s4", 61), ("s5", 121)])
def test_game_summary_of_a_finished_easy_game(seed, target):
    text, events_text = finished(seed, target)
    events = json.loads(events_text)
    result = stats.game_summary(text, "easy")
    game_over = [e for e in events if e["type"] == "game_over"][0]
    hand_shows, crib_shows = shows_of(events, 0, "hand"), shows_of(events, 0, "crib")
    assert result["scores"] == game_over["scores"]
    assert result["winner"] == game_over["winner"] and result["won"] == (game_over["winner"] == 0)
    skunk = game_over["skunk"]
    assert (result["skunk_given"], result["skunk_taken"]) == ((skunk, "none") if result["won"] else ("none", skunk))
    assert min(sum(result["points"].values()), target) == game_over["scores"][0]  # the board stops at the target
    scored = {source: 0 for source in SOURCES}
    for e in events:
        if e["type"] == "score" and e["seat"] == 0:
            scored[e["source"]] += e["points"]
    assert result["points"] == scored
    assert result["hands"] == len([e for e in events if e["type"] == "deal"])
    assert result["shows"] == len(hand_shows) and result["cribs"] == len(crib_shows)
    assert result["best_hand"] == max(hand_shows, default=None)
    assert result["best_crib"] == max(crib_shows, default=None)
    assert result["twenty_nines"] == (hand_shows + crib_shows).count(29)
    assert result["target"] == target and result["difficulty"] == "easy"
    # The same game, given as a GameState or a dict, gives the same summary.
    from engine.record import from_json
    assert stats.game_summary(from_json(text), "easy") == result
    assert stats.game_summary(json.loads(text), "easy") == result
    record = stats.record_game(stats.new_stats(), result)
    assert stats.parse_stats(json.loads(json.dumps(record))) == record


@pytest.mark.parametrize("seed", ["r1", "r2", "r3"])
def test_game_summary_of_random_play_for_both_seats(seed):
    state, events = play_random(seed)
    for seat in (0, 1):
        result = stats.game_summary(state, "hard", seat=seat)
        assert min(sum(result["points"].values()), state.target) == state.scores[seat]
        assert result["best_hand"] == max(shows_of(events, seat, "hand"), default=None)
        assert result["best_crib"] == max(shows_of(events, seat, "crib"), default=None)
        assert result["won"] == (state.winner == seat)
    first, second = (stats.game_summary(state, "hard", seat=s) for s in (0, 1))
    assert first["id"] == second["id"]
    assert first["won"] != second["won"]


def test_game_summary_of_a_muggins_game_counts_the_points_scored():
    state, events = play_out("mug", target=61, muggins=True)
    result = stats.game_summary(state, "easy")
    assert sum(result["points"].values()) == state.scores[0]
    claimed = [e["claimed"] for e in events if e["type"] == "show" and e["seat"] == 0 and e["show"] == "hand"]
    assert result["shows"] == len(claimed)


def test_game_summary_refuses_unfinished_games_views_and_unknown_difficulties():
    state = new_game(seed="unfinished")
    with pytest.raises(ValueError, match="not finished"):
        stats.game_summary(state.to_json(), "easy")
    text, _ = finished("s3", 61)
    with pytest.raises(ValueError, match="difficulty must be one of easy, hard"):
        stats.game_summary(text, "impossible")
    with pytest.raises(ValueError, match="no seat 2"):
        stats.game_summary(text, "easy", seat=2)
    from engine.record import from_json
    with pytest.raises(ValueError, match="view is not enough"):
        stats.game_summary(from_json(text).view(0), "easy")
    with pytest.raises(ValueError, match="not a valid saved game"):
        stats.game_summary("{}", "easy")
    with pytest.raises(ValueError, match="expected a game"):
        stats.game_summary(42, "easy")




# --- endpoints -------------------------------------------------------------------------------


def call(name, request):
    return json.loads(api.call(name, json.dumps(request)))


def test_stats_check_endpoint():
    reply = call("stats_check", {"stats_text": None})["result"]
    assert reply["stats"] == stats.new_stats() and reply["notice"] is None and reply["kept_aside"] is False
    good = valid_record()
    checked = call("stats_check", {"stats_text": json.dumps(good)})["result"]
    assert checked["stats"] == good and checked["notice"] is None and not checked["kept_aside"]
    for text in ("garbage", json.dumps({"version": 1}), json.dumps(["foreign"])):
        result = call("stats_check", {"stats_text": text})["result"]
        assert result["stats"] == stats.new_stats() and result["kept_aside"] is True
        assert result["notice"] == stats.RESET_NOTICE and result["problem"]
    mended = call("stats_check", {"stats_text": json.dumps(dict(good, extra=1))})["result"]
    assert mended["stats"] == good and mended["notice"] == stats.REPAIR_NOTICE and not mended["kept_aside"]
    assert call("stats_check", {"stats_text": 5})["error"]["kind"] == "bad_input"


def test_stats_record_endpoint():
    text, _ = finished("s1", 121)
    reply = call("stats_record", {"stats": None, "game": text, "difficulty": "hard"})
    assert reply["ok"], reply
    record = reply["result"]["stats"]
    assert record["games"] == 1 and record["by_difficulty"] == {"hard": record["by_target"]["121"]}
    assert reply["result"]["recorded"] is True
    again = call("stats_record", {"stats": record, "game": text, "difficulty": "hard"})["result"]
    assert again["recorded"] is False and again["stats"] == record
    other, _ = finished("s3", 61)
    both = call("stats_record", {"stats": record, "game": json.loads(other), "difficulty": "easy"})["result"]
    assert both["stats"]["games"] == 2


def test_stats_record_endpoint_refuses_bad_requests():
    unfinished = new_game(seed="u").to_json()
    reply = call("stats_record", {"stats": None, "game": unfinished, "difficulty": "easy"})
    assert reply["error"] == {"kind": "bad_input",
                              "message": "The game is not finished yet, so it cannot be added to the statistics."}
    text, _ = finished("s1", 121)
    bad = call("stats_record", {"stats": {"version": 3}, "game": text, "difficulty": "easy"})
    assert bad["error"]["kind"] == "bad_input" and "version 3" in bad["error"]["message"]
    missing = call("stats_record", {"stats": None, "difficulty": "easy"})
    assert missing["error"]["message"] == "The request is missing 'game'."


# --- the page's copy of new_stats and the docstring examples ---------------------------------


def test_the_page_never_builds_a_record_itself():
    """store.py keeps no copy of the record's shape: it stores what the engine checked or made."""
    source = (ROOT / "site_src/app/table/store.py").read_text()
    assert "def new_stats" not in source and '"games": 0' not in source
    assert '"stats_check"' in source and '"stats_record"' in source


def test_the_difficulty_counted_is_the_one_the_game_was_played_at():
    """Editing the page's own notes cannot count an easy game as a hard one."""
    from engine.game import new_game

    from engine.players import get_player
    from engine.record import COMPUTER_SEED

    state = new_game(seed="level", target=61, seats=["person", "easy"])
    rng = random.Random(4)
    computer = get_player("easy", seed=COMPUTER_SEED)
    while not state.is_over:
        view = state.view(state.to_act)
        state.apply(computer.choose(view, view["legal_actions"]) if state.to_act == 1 else rng.choice(view["legal_actions"]))
    assert stats.game_summary(state.to_json(), "hard")["difficulty"] == "easy"


def test_games_with_hints_are_counted_apart():
    record = stats.record_game(stats.new_stats(), summary(hinted=True))
    record = stats.record_game(record, loss(id="0" * 19 + "2", hinted=True))
    record = stats.record_game(record, summary(id="0" * 19 + "3"))
    assert (record["games"], record["hinted"], record["hinted_wins"]) == (3, 2, 1)
    with pytest.raises(ValueError, match="hints"):
        stats.parse_stats(dict(record, hinted=4))
    with pytest.raises(ValueError, match="hints"):
        stats.parse_stats(dict(record, hinted_wins=3))


def test_a_record_from_before_hints_reads_without_a_notice():
    old = stats.new_stats()
    del old["hinted"], old["hinted_wins"]
    checked = stats.check_stats_text(json.dumps(old))
    assert checked["problem"] is None and checked["mended"] == []
    assert checked["stats"] == stats.new_stats()


def test_the_summary_says_whether_hints_were_asked_for():
    from engine.players import get_player

    state = new_game(seed="hinted-summary", target=61)
    state.hinted = True
    while not state.is_over:
        view = state.view(state.to_act)
        state.apply(get_player("easy", seed=1).choose(view, view["legal_actions"]))
    assert stats.game_summary(state.to_json(), "easy")["hinted"] is True
    state.hinted = False
    assert stats.game_summary(state, "easy")["hinted"] is False


def test_games_against_friends_are_counted_apart_from_the_computer():
    """A friend game counts in "friends" only, once, for the seat that played it."""
    text, _ = finished("s1", 121)
    state = json.loads(text)
    record = stats.record_game(stats.new_stats(), summary())
    for seat in (0, 1):
        reply = call("stats_record", {"stats": record, "game": text, "seat": seat, "difficulty": stats.FRIEND})
        assert reply["ok"], reply
        mine = reply["result"]["stats"]
        assert reply["result"]["recorded"] is True
        assert (mine["games"], mine["wins"], mine["by_difficulty"]) == (1, 1, record["by_difficulty"])
        won = from_json(text).winner == seat  # worked out here, not taken from the reply
        assert reply["result"]["summary"]["won"] is won
        assert mine["friends"] == {"games": 1, "wins": int(won), "losses": int(not won)}
        assert mine["points"] == record["points"] and mine["hands"] == record["hands"]
        again = call("stats_record", {"stats": mine, "game": text, "seat": seat, "difficulty": stats.FRIEND})
        assert again["result"]["recorded"] is False and again["result"]["stats"] == mine
    assert state["seats"] == ["person", "person"]


def test_a_game_with_a_computer_is_never_a_friend_game():
    from engine.record import COMPUTER_SEED

    state = new_game(seed="level", target=61, seats=["person", "easy"])
    computer = get_player("easy", seed=COMPUTER_SEED)
    rng = random.Random(4)
    while not state.is_over:
        view = state.view(state.to_act)
        state.apply(computer.choose(view, view["legal_actions"]) if state.to_act == 1 else rng.choice(view["legal_actions"]))
    with pytest.raises(ValueError, match="between people"):
        stats.game_summary(state.to_json(), stats.FRIEND)


def test_a_record_from_before_friend_games_is_read_with_none_of_them():
    old = stats.record_game(stats.new_stats(), summary())
    del old["friends"]
    with pytest.raises(ValueError, match="friends"):
        stats.parse_stats(old)
    mended, notes = stats.repair_stats(old)
    assert mended["friends"] == {"games": 0, "wins": 0, "losses": 0} and notes == []
    bad = dict(stats.new_stats(), friends={"games": 1, "wins": 2, "losses": 0})
    with pytest.raises(ValueError, match="friends"):
        stats.parse_stats(bad)
