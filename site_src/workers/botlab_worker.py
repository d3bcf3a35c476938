"""The bot lab's worker: CPython (Pyodide) playing a visitor's bot against the engine's players.

The bot lab page (site_src/app/botlab.py) starts it as a named PyScript worker running Pyodide
(config app/botlab_worker.toml puts the engine's source in its file system) and calls its
exports with JSON text both ways:

- ``ping("{}")``: the interpreter's name and version, once the worker is up and the engine's
  modules and tables a match uses are loaded (so the first games do not pay for them);
- ``start('{"source", "opponent", "games", "seed"}')``: run the bot's code and prepare the match
  (engine.match.MatchRun, the games ``python -m engine match`` plays for the same seed);
- ``step('{"seconds"}')``: play games for about that long, then report the progress, with the
  games finished since the last step in "played" (number, "won" by the bot, "code", the game
  code the replay page opens, and "first_seat", the bot's seat in it); the step that plays the
  last game also carries the match's figures.

Replies are ``{"ok": true, "result": ...}`` or ``{"ok": false, "error": {...}}`` whose "kind" is
"bot" (the visitor's code failed: engine.bots.BotError's fields, its lines named) or
"bad_input" (a request the page should not send); a bot's error says its "cause" (syntax,
exception, answer or missing), "line", "frames" and "report", and "game" when a game was on. What the bot prints comes back as "output".
The visitor's code runs here, never on the page, which ends a runaway bot by terminating this
worker. Nothing here touches the page.
"""

import io
import json
import sys

from engine import bots, match
from engine.players import PLAYER_NAMES

MIN_GAMES = 1
MAX_GAMES = 2000
MAX_STEP_SECONDS = 2.0
MAX_OUTPUT = 4000  # characters of the bot's printed output kept for the page, per match
BOT_NAME = "mybot.py"  # the name of the visitor's bot in tracebacks, reports and downloads
PLAYER_LABEL = "Your bot"  # the bot's name in the replay of a game
OPPONENT_LABELS = {"easy": "Easy", "hard": "Hard", "expert": "Expert"}

_state = {"run": None, "output": "", "dropped": 0, "sent": 0}


class BadRequest(ValueError):
    """A request the page should never send."""


def _reply(result: dict) -> str:
    return json.dumps({"ok": True, "result": result})


def _error(kind: str, message: str, extra: dict | None = None) -> str:
    problem = dict(extra or {})
    if "kind" in problem:  # a BotError's own kind (syntax, exception, answer, missing)
        problem["cause"] = problem.pop("kind")
    problem.update({"kind": kind, "message": message})
    return json.dumps({"ok": False, "error": problem, "output": _take_output()})


def _request(text: str) -> dict:
    try:
        data = json.loads(str(text))
    except ValueError:
        raise BadRequest("the request is not JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the request is not a JSON object")
    return data


class _Capture:
    """Keeps what the bot prints (up to MAX_OUTPUT characters a match) while it runs."""

    def __enter__(self):
        self.stream = io.StringIO()
        self.saved = sys.stdout
        sys.stdout = self.stream
        return self

    def __exit__(self, *exc):
        sys.stdout = self.saved
        text = self.stream.getvalue()
        room = MAX_OUTPUT - len(_state["output"])
        _state["output"] += text[:max(0, room)]
        _state["dropped"] += max(0, len(text) - max(0, room))
        return False


def _take_output() -> str:
    text = _state["output"]
    _state["output"] = ""
    return text


WARM_UP_HAND = (0, 13, 4, 17, 30, 43)  # any six cards: one discard loads what the opponents use


def ping(request_json: str = "{}") -> str:
    """The interpreter running the bots (the page's proof that the worker is up), once the
    engine's modules and tables are loaded."""
    from engine import analysis, players, share  # noqa: F401 (the opponents, the games' codes)

    analysis.discard_options(list(WARM_UP_HAND), True)
    version = ".".join(str(n) for n in sys.version_info[:3])
    return _reply({"interpreter": f"{sys.implementation.name} {version}", "platform": sys.platform})


def start(request_json: str) -> str:
    """Run the bot's source and prepare a match against an engine player (no game played yet)."""
    _state["run"] = None
    _state["output"] = ""
    _state["dropped"] = 0
    _state["sent"] = 0
    try:
        request = _request(request_json)
        source = request.get("source")
        opponent = request.get("opponent")
        games = request.get("games")
        seed = str(request.get("seed") or "0")
        if not isinstance(source, str):
            raise BadRequest("the request has no bot source")
        if opponent not in PLAYER_NAMES:
            raise BadRequest(f"no opponent called {opponent!r}")
        if type(games) is not int or not MIN_GAMES <= games <= MAX_GAMES:
            raise BadRequest(f"games must be a whole number from {MIN_GAMES} to {MAX_GAMES}")
        with _Capture():
            player = bots.bot_from_source(source, BOT_NAME, BOT_NAME)
            names = (PLAYER_LABEL, OPPONENT_LABELS.get(opponent, opponent))
            run = match.MatchRun(_factory(player), opponent, games, seed, names=names)
    except BadRequest as error:
        return _error("bad_input", str(error))
    except bots.BotError as error:
        return _error("bot", error.message, error.to_dict())
    _state["run"] = run
    return _reply({"games": games, "opponent": opponent, "seed": seed, "output": _take_output(),
                   "command": command_line(opponent, games, seed)})


def _factory(player):
    def seat_bot(seed):
        return player

    seat_bot.label = BOT_NAME
    return seat_bot


def command_line(opponent: str, games: int, seed: str) -> str:
    """The command that plays the same match from the downloaded bot."""
    quoted = seed if seed.replace("-", "").replace("_", "").isalnum() else json.dumps(seed)
    return f"python -m engine match --bot {BOT_NAME} {opponent} --games {games} --seed {quoted}"


def step(request_json: str = "{}") -> str:
    """Play the match for about ``seconds`` (default 0.25 s); the progress, with the figures at the end."""
    run = _state["run"]
    try:
        request = _request(request_json)
        seconds = request.get("seconds", 0.25)
        if type(seconds) not in (int, float) or not 0 <= seconds <= MAX_STEP_SECONDS:
            raise BadRequest(f"seconds must be from 0 to {MAX_STEP_SECONDS}")
        if run is None:
            raise BadRequest("no match has been started")
        with _Capture():
            run.step(seconds)
    except BadRequest as error:
        return _error("bad_input", str(error))
    except bots.BotError as error:
        _state["run"] = None
        extra = error.to_dict()
        extra["game"] = run.done + 1
        return _error("bot", error.message, extra)
    progress = run.progress()
    progress["played"] = [{"game": g["game"], "won": g["won"], "code": g.get("code"), "first_seat": g["first_seat"]}
                          for g in run.played[_state["sent"]:]]
    _state["sent"] = len(run.played)
    progress["output"] = _take_output()
    progress["output_dropped"] = _state["dropped"]
    if run.is_done:
        figures = run.result().to_dict()
        figures["played"] = run.played
        # The points as the page shows them, written here by CPython: MicroPython's "%.2f" rounds
        # a figure that ends exactly in 5 up (12.125 -> 12.13) where CPython and the command line
        # round it to even (12.12).
        figures["points_text"] = [{key: "%.2f" % value for key, value in per_hand.items()}
                                  for per_hand in figures["points_per_hand"]]
        progress["result"] = figures
        _state["run"] = None
    return _reply(progress)


__export__ = ["ping", "start", "step"]
