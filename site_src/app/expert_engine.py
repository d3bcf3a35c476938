"""The expert opponent's CPython on the game page: a Pyodide worker for games against the expert.

The expert searches the rest of the play against samples of the other hand. The engine's
MicroPython worker does that too slowly for a turn at the table (seconds for the first cards of
a hand), and a saved game is checked by replaying it, the computer's every decision worked out
again. So when a game against the expert is picked, set up or resumed, ``prepare`` starts a
Pyodide worker (app/expert_worker.py, with the engine's source) in the background and shows its
loading, and every call about such a game (a request whose "game" seats the expert: the moves,
the hints, the statistics) goes to it (``bridge.route``); it keeps the game it answered last, as
the engine's worker does, so no call replays the game twice. Other calls, the deal of a new game
and the game's first moves while CPython is still loading stay in the MicroPython worker (its
first answer then replays the few moves made so far); resuming a saved game waits for CPython.
The replay page sends it the replay of a shared game against the expert (``call``). Both
interpreters choose the same moves (the conformance test plays the expert in both), so a game
never depends on which one answered. If CPython cannot start (offline before it was ever
loaded, say), MicroPython answers and the page says so.

Markers: html[data-expert] is loading, ready or fallback (#expert-status says it in words);
html[data-expert-moves] counts the computer's moves CPython has worked out.
"""

import asyncio
import json

from pyscript import document, workers

import bridge

WORKER_NAME = "expert-cpython"
WORKER_SRC = "app/expert_worker.py"
WORKER_CONFIG = "app/expert_worker.toml"
STATUS_ID = "expert-status"
EXPERT = "expert"
WAIT_FOR_CPYTHON = ("resume_game", "replay_game")
"""Calls that wait for CPython even while it loads: a saved or shared game is checked by
replaying it, every move of the expert's worked out again, which takes MicroPython far too long."""

LOADING = ("Getting the expert ready: its deeper search needs a faster engine, about 4 MB the first "
           "time and kept on this device after. You can play meanwhile.")
FALLBACK = ("The expert’s faster engine could not be loaded, so the expert thinks with the page’s own: "
            "its moves may take a few seconds.")

_state = {"started": False, "worker": None, "done": None, "moves": 0, "seen": (None, False)}


def _show(state, text=None):
    document.documentElement.setAttribute("data-expert", state)
    line = document.getElementById(STATUS_ID)
    if line is not None:
        line.textContent = text or ""
        line.hidden = not text


def is_expert(meta):
    """True if the game these page notes describe is played against the expert."""
    return (meta or {}).get("difficulty") == EXPERT


def is_expert_game(text):
    """True if a game's JSON text seats the expert (the last text asked about is remembered)."""
    if not isinstance(text, str):
        return False
    seen_text, seen = _state["seen"]
    if text is seen_text or text == seen_text:
        return seen
    try:
        seats = json.loads(text).get("seats") or []
    except (ValueError, AttributeError):
        seats = []  # not a game: the engine's worker says so
    found = EXPERT in seats
    _state["seen"] = (text, found)
    return found


def prepare():
    """Start CPython for the expert in the background (once); returns at once."""
    if _state["started"]:
        return
    _state["started"] = True
    _state["done"] = asyncio.Event()
    bridge.launch(_start(), quiet=True)


async def _tick():
    """Seconds spent so far, after the loading line, until the engine is ready."""
    seconds = 0
    while not _state["done"].is_set():
        await asyncio.sleep(1)
        seconds += 1
        if not _state["done"].is_set():
            _show("loading", LOADING + " (" + str(seconds) + " s)")


async def _start():
    _show("loading", LOADING)
    bridge.launch(_tick(), quiet=True)
    try:
        bridge.add_pyodide_worker(WORKER_NAME, WORKER_SRC, WORKER_CONFIG)
        worker = await workers[WORKER_NAME]
        await bridge.call_worker(worker, "ping", {})
        _state["worker"] = worker
        _show("ready")
    except Exception as error:  # Pyodide did not come: MicroPython answers
        bridge._log("The expert's CPython did not start:", error)
        _show("fallback", FALLBACK)
    _state["done"].set()


def route(name, payload):
    """``bridge.route``'s handler: a call about a game against the expert goes to CPython."""
    if not is_expert_game(payload.get("game")):
        return None
    return call(name, payload)


async def call(name, payload):
    """Engine function ``name`` answered by CPython (loaded first if need be), or by the engine's
    MicroPython worker while CPython loads (calls not in WAIT_FOR_CPYTHON) or if it cannot."""
    prepare()
    if not _state["done"].is_set() and name not in WAIT_FOR_CPYTHON:
        return await bridge.call_engine(name, payload)  # MicroPython answers while CPython loads
    await _state["done"].wait()
    worker = _state["worker"]
    if worker is not None:
        try:
            reply = await bridge.call_worker(worker, name, payload)
        except bridge.EngineError as error:
            if error.kind == "bad_input":
                raise
            _state["worker"] = None  # it failed: MicroPython answers from now on
            _show("fallback", FALLBACK)
        else:
            if name == "computer_move":
                _state["moves"] += 1
                document.documentElement.setAttribute("data-expert-moves", str(_state["moves"]))
            return reply
    return await bridge.call_engine(name, payload)
