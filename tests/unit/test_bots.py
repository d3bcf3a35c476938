"""Bots written in Python (engine.bots), matches with them (engine.match), the command line's
--bot, the example bots the bot lab offers and the bot lab's worker (site_src/workers/botlab_worker.py)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import bots, match
from engine.game import new_game

ROOT = Path(__file__).resolve().parents[2]
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
PYTHON = str(VENV_PYTHON if VENV_PYTHON.exists() else Path(sys.executable))
EXAMPLES = sorted((ROOT / "site_src" / "bots").glob("*.py"))

FIRST = "def choose(view, legal_actions):\n    return legal_actions[0]\n"
RAISES = ("def helper(x):\n"
          "    return 1 / x\n"
          "\n"
          "def choose(view, legal_actions):\n"
          "    return legal_actions[helper(0)]\n")


@pytest.fixture(scope="module")
def worker():
    sys.path.insert(0, str(ROOT / "site_src" / "workers"))
    try:
        import botlab_worker
    finally:
        sys.path.remove(str(ROOT / "site_src" / "workers"))
    return botlab_worker


def a_view():
    state = new_game(seed="bots")
    return state.view(state.to_act)


def test_a_bot_chooses_a_legal_action_and_gets_copies():
    source = ("def choose(view, legal_actions):\n"
              "    view['scores'][0] = 99\n"
              "    legal_actions[0]['cards'].reverse()\n"
              "    return legal_actions[0]\n")
    view = a_view()
    player = bots.bot_from_source(source)
    action = player.choose(view, view["legal_actions"])
    assert action is view["legal_actions"][0]  # the very dict, in its own order
    assert view["scores"] == [0, 0] and action["cards"] == sorted(action["cards"])


def test_a_discard_in_any_order_is_the_legal_one():
    view = a_view()
    player = bots.BotPlayer(lambda v, legal: {"type": "discard", "cards": legal[3]["cards"][::-1]})
    assert player.choose(view, view["legal_actions"]) is view["legal_actions"][3]


def test_an_answer_that_is_not_legal_is_refused_clearly():
    view = a_view()
    player = bots.BotPlayer(lambda v, legal: {"type": "play", "card": 60})
    with pytest.raises(bots.BotError, match=r"choose returned \{'type': 'play', 'card': 60\}, which is not one "
                                            r"of the legal actions \(.* and 11 more\)") as caught:
        player.choose(view, view["legal_actions"])
    assert caught.value.kind == "answer"


def test_a_syntax_error_names_its_line():
    with pytest.raises(bots.BotError) as caught:
        bots.load_bot("def choose(view, legal_actions):\n    return legal_actions[0\n\nx = 1\n")
    error = caught.value
    assert error.kind == "syntax" and error.line in (2, 4)
    assert f"line {error.line}" in error.message and "SyntaxError" in error.message
    assert error.to_dict()["report"].splitlines()[-1] == error.message


def test_an_exception_shows_the_bots_own_lines():
    player = bots.bot_from_source(RAISES, "mybot.py", "mybot.py")
    view = a_view()
    with pytest.raises(bots.BotError) as caught:
        player.choose(view, view["legal_actions"])
    error = caught.value
    assert error.message == "ZeroDivisionError: division by zero" and error.line == 2
    assert error.frames == [(5, "choose", "    return legal_actions[helper(0)]"), (2, "helper", "    return 1 / x")]
    assert error.report().splitlines() == [
        "Traceback (the bot's own lines, most recent call last):",
        "  mybot.py, line 5, in choose", "    return legal_actions[helper(0)]",
        "  mybot.py, line 2, in helper", "    return 1 / x",
        "ZeroDivisionError: division by zero"]


@pytest.mark.parametrize("source, kind, message", [
    ("x = 1\n", "missing", "defines no function choose"),
    ("raise SystemExit(3)\n", "exception", "SystemExit: 3"),
    ("import no_such_module_here\n", "exception", "ModuleNotFoundError"),
    ("a\0b", "syntax", "cannot be read|null bytes"),
])
def test_a_bot_that_cannot_load_says_why(source, kind, message):
    with pytest.raises(bots.BotError, match=message) as caught:
        bots.load_bot(source)
    assert caught.value.kind == kind


def test_a_bot_file_loads_and_a_missing_one_is_said(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(FIRST, encoding="utf-8")
    player = bots.bot_from_file(str(path))
    assert player.name == "mine.py"
    with pytest.raises(bots.BotError, match="cannot read"):
        bots.bot_from_file(str(tmp_path / "none.py"))


def test_a_match_with_a_bot_file_plays_the_same_games_with_any_jobs(tmp_path):
    path = tmp_path / "first.py"
    path.write_text(FIRST, encoding="utf-8")
    one = match.play_match(str(path), "easy", games=4, seed="bot", jobs=1).to_dict()
    two = match.play_match(str(path), "easy", games=4, seed="bot", jobs=2).to_dict()
    assert one["players"] == ["first.py", "easy"]
    for key in ("wins", "hands", "points_per_hand", "skunks"):
        assert one[key] == two[key], key


def test_match_run_plays_the_games_play_match_plays():
    run = match.MatchRun("easy", "hard", games=4, seed="steps")
    steps = 0
    while not run.is_done:
        assert run.step(seconds=0.0) == 1
        steps += 1
        assert run.progress()["done"] == steps
    assert steps == 4 and run.step() == 0
    same = match.play_match("easy", "hard", games=4, seed="steps").to_dict()
    got = run.result().to_dict()
    for key in ("wins", "hands", "points_per_hand", "skunks", "decisions"):
        assert got[key] == same[key], key
    assert [g["first_seat"] for g in run.played] == [0, 1, 0, 1]
    assert sum(g["won"] for g in run.played) == got["wins"]
    with pytest.raises(ValueError):
        match.MatchRun("easy", "hard", games=0)


def test_match_run_keeps_each_games_code_which_replays_it_exactly():
    from engine import share

    player = bots.bot_from_source(FIRST, "mybot.py")
    run = match.MatchRun(lambda seed: player, "easy", games=2, seed="codes", names=("Your bot", "Easy"))
    games = []
    while not run.is_done:
        run.step(seconds=0.0)
    for entry in run.played:
        match.play_game(lambda seed: player, "easy", entry["seed"], entry["first_seat"], on_end=games.append)
    for entry, played in zip(run.played, games):
        state = share.decode(entry["code"])  # neither player is asked again: every move is in the code
        assert state.is_over and state.scores == played.scores and state.winner == played.winner
        assert state.history == played.history
        bot_seat = entry["first_seat"]
        assert state.names[bot_seat] == "Your bot" and state.names[1 - bot_seat] == "Easy"
        assert (state.winner == bot_seat) == entry["won"]
    plain = match.MatchRun(lambda seed: player, "easy", games=1, seed="codes")
    plain.step(seconds=0.0)
    assert "code" not in plain.played[0]  # codes only when the players are named


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.stem)
def test_every_example_bot_plays_legally(example):
    result = match.play_match(str(example), "easy", games=2, seed="examples")
    assert result.games == 2


def run_cli(*args, cwd=ROOT):
    return subprocess.run([PYTHON, "-m", "engine", "match", *args], cwd=cwd, capture_output=True,
                          text=True, encoding="utf-8", timeout=120)


def test_cli_plays_a_bot_file(tmp_path):
    path = tmp_path / "mybot.py"
    path.write_text(FIRST, encoding="utf-8")
    done = run_cli("--bot", str(path), "easy", "--games", "2", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["players"] == ["mybot.py", "easy"] and data["games"] == 2
    done = run_cli(str(path), "easy", "--games", "2")
    assert done.returncode == 0 and done.stdout.startswith("mybot.py (first) against easy")


def test_cli_says_what_is_wrong_with_a_bot(tmp_path):
    path = tmp_path / "mybot.py"
    path.write_text(RAISES, encoding="utf-8")
    done = run_cli("--bot", str(path), "easy", "--games", "2")
    assert done.returncode == 1 and "Traceback" not in done.stderr.splitlines()[0]
    assert done.stderr.splitlines()[-1] == "ZeroDivisionError: division by zero"
    assert "line 2, in helper" in done.stderr
    for args, message in ((("--bot", str(path), "easy", "hard"), "a match has two players"),
                          (("--bot", str(tmp_path / "none.py"), "easy"), "no bot file"),
                          (("easy", "medium"), "no player called 'medium'")):
        done = run_cli(*args)
        assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("raised", ["KeyboardInterrupt", "SystemExit(0)", "SystemExit('bye')"])
@pytest.mark.parametrize("where", ["choose", "load"])
def test_a_bot_raising_an_interrupt_or_an_exit_ends_its_match_with_a_message(tmp_path, raised, where):
    """KeyboardInterrupt and SystemExit from a bot's code end its own match (a BotError, its line
    named), never the program running it: not the command line, not the bot lab's worker."""
    body = (f"raise {raised}\n\ndef choose(view, legal_actions):\n    return legal_actions[0]\n" if where == "load"
            else f"def choose(view, legal_actions):\n    raise {raised}\n")
    name = raised.split("(")[0]
    with pytest.raises(bots.BotError, match=name) as caught:
        match.play_match(lambda seed: bots.bot_from_source(body, "mybot", "mybot.py"), "easy", games=1, seed="stop")
    assert caught.value.kind == "exception" and caught.value.line == (1 if where == "load" else 2)
    path = tmp_path / "mybot.py"
    path.write_text(body, encoding="utf-8")
    done = run_cli("--bot", str(path), "easy", "--games", "2")
    assert done.returncode == 1 and "Traceback (most recent call last)" not in done.stderr
    assert "match: the bot failed:" in done.stderr.splitlines()[0]
    assert done.stderr.splitlines()[-1].startswith(name)


def test_worker_runs_a_match_step_by_step(worker):
    assert json.loads(worker.ping())["result"]["interpreter"].startswith("cpython")
    source = (ROOT / "site_src" / "bots" / "beginner.py").read_text(encoding="utf-8")
    reply = json.loads(worker.start(json.dumps({"source": source, "opponent": "easy", "games": 4, "seed": "w"})))
    assert reply["ok"], reply
    assert reply["result"]["command"] == "python -m engine match --bot mybot.py easy --games 4 --seed w"
    seen, played = [], []
    while True:
        reply = json.loads(worker.step(json.dumps({"seconds": 0})))
        assert reply["ok"], reply
        seen.append(reply["result"]["done"])
        played.extend(reply["result"]["played"])
        if "result" in reply["result"]:
            break
    assert seen == [1, 2, 3, 4]
    assert [g["game"] for g in played] == [1, 2, 3, 4]
    assert all(g["code"].startswith("c1.") for g in played)
    figures = reply["result"]["result"]
    assert figures["players"] == ["mybot.py", "easy"] and figures["games"] == 4
    assert len(figures["played"]) == 4 and figures["interval"][0] <= figures["win_rate"] <= figures["interval"][1]
    same = match.play_match(str(ROOT / "site_src" / "bots" / "beginner.py"), "easy", games=4, seed="w").to_dict()
    assert figures["wins"] == same["wins"] and figures["points_per_hand"] == same["points_per_hand"]
    assert not json.loads(worker.step("{}"))["ok"]  # the match is over


def test_worker_reports_the_bots_errors_and_output(worker):
    reply = json.loads(worker.start(json.dumps({"source": "def choose(v, a):\n    return a[0\n", "opponent": "hard",
                                                "games": 10})))
    assert not reply["ok"] and reply["error"]["kind"] == "bot" and reply["error"]["line"] == 2
    source = "print('hello')\n" + RAISES.replace("def helper(x):\n", "def helper(x):\n    print('x is', x)\n")
    reply = json.loads(worker.start(json.dumps({"source": source, "opponent": "easy", "games": 10})))
    assert reply["ok"] and reply["result"]["output"] == "hello\n"
    reply = json.loads(worker.step(json.dumps({"seconds": 0.1})))
    assert not reply["ok"] and reply["error"]["game"] == 1 and reply["error"]["line"] == 4
    assert reply["error"]["message"] == "ZeroDivisionError: division by zero"
    assert reply["output"].startswith("x is 0\n")


@pytest.mark.parametrize("request_", [
    "not json", "[]", {"source": FIRST, "opponent": "medium", "games": 10},
    {"source": FIRST, "opponent": "easy", "games": 0}, {"source": FIRST, "opponent": "easy", "games": 2001},
    {"source": 3, "opponent": "easy", "games": 10}, {"source": FIRST, "opponent": "easy", "games": True},
])
def test_worker_refuses_bad_requests(worker, request_):
    text = request_ if isinstance(request_, str) else json.dumps(request_)
    reply = json.loads(worker.start(text))
    assert not reply["ok"] and reply["error"]["kind"] == "bad_input"


def test_worker_output_is_limited(worker):
    source = "def choose(view, legal_actions):\n    print('x' * 100)\n    return legal_actions[0]\n"
    assert json.loads(worker.start(json.dumps({"source": source, "opponent": "easy", "games": 2})))["ok"]
    total = 0
    while True:
        reply = json.loads(worker.step(json.dumps({"seconds": 1})))["result"]
        total += len(reply["output"])
        if "result" in reply:
            break
    assert total == worker.MAX_OUTPUT and reply["output_dropped"] > 0
