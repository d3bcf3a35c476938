"""The bot lab page: the visitor's bot in the editor, its matches and their results.

Runs in MicroPython on the main thread (keep to the subset). The bot is the text of PyScript's
editor (``<script type="mpy-editor" id="bot-source">``; the page's Run replaces the editor's).
Matches run in a Pyodide worker (site_src/workers/botlab_worker.py) inside a sandboxed frame of an
opaque origin (botlab_sandbox.py), so the bot's code can reach nothing of the site's; this
module starts it once the editor is ready: ``start`` runs the bot's code, then ``step`` is
called again and again, each call playing games for STEP_SECONDS, so the progress shows between
calls. Stop removes the frame, which ends its worker (a bot stuck in a loop cannot be
interrupted any other way), and starts a fresh one. The code is kept in localStorage as it is typed (local_storage.py), and the example
bots are embedded in the page (``<script type="text/x-python" id="bot-example-NAME">``). Each
game played comes back with its game code, and the games of a match (all of them once it is
done, those played before a Stop or a failure) are offered in a list whose links open them in
the replay page, seen from the bot's seat (``replay/?from=bot-lab&seat=...&code=...``; the list
is drawn when first opened).

Markers for tests: html[data-ui="ready"] once the editor and the controls work;
html[data-engine] is idle, loading, ready or error for the worker (bridge.set_state);
#lab[data-match] is idle, starting, running, done, failed or stopped.
"""

import asyncio
import json

import js
from dom import create_proxy, document, window

import botlab_sandbox
import bridge
import local_storage

CODE_KEY = "cribbage.botlab.code"
PREVIOUS_KEY = "cribbage.botlab.previous"
MAX_CODE = 100000  # characters kept in storage (a bot is a few kB)
SAVE_EVERY_MS = 800
STEP_SECONDS = 0.25  # each worker call plays games for about this long, then reports
STUCK_MS = 5000  # no word from the worker for this long while a match runs: suggest Stop
MIN_GAMES = 10
MAX_GAMES = 2000
BOT_FILE = "mybot.py"
OPPONENT_NAMES = {"easy": "Easy", "hard": "Hard"}
SOURCES = ("pegging", "hand", "crib")
REPLAY_PATH = "replay/?from=bot-lab&seat={}&code="  # the replay page from the site's root, seen from the bot's seat

LOADING = "Loading Python for the matches (CPython in a worker, about 5 MB the first time)…"
READY = "Python is ready: {} runs your bot in a sealed-off worker, away from the page and the site’s data."
BOOT_FAILED = "Python for the matches could not start. Reloading the page usually fixes this."
CALL_FAILED = "The match stopped unexpectedly. Please try again."
KEPT = "Your code is kept on this device as you type. Ctrl+Enter runs a match."
TOO_LONG = "Your code is too long to keep on this device (over 100,000 characters); download it to keep it."
HEADER = ("# A cribbage bot from the bot lab. From a copy of the site's source, run it with\n"
          "#   python -m engine match --bot mybot.py hard --games 100\n\n")

_state = {"script": None, "worker": None, "serial": 0, "booting": None, "run": 0, "saved": None,
          "editor": None, "played": 0, "heard": 0, "score": "", "games": [], "opponent": "hard",
          "listed": None}
_proxies = []


def by_id(name):
    """The element with this id."""
    return document.getElementById(name)


def set_text(name, text):
    """Set an element's text (never HTML)."""
    by_id(name).textContent = text


def show(name, shown=True):
    """Show or hide an element."""
    by_id(name).hidden = not shown


def set_match_state(state):
    """#lab[data-match]: idle, starting, running, done, failed or stopped."""
    by_id("lab").setAttribute("data-match", state)
    running = state in ("starting", "running")
    by_id("match-run").disabled = running
    by_id("match-stop").disabled = not running


def percent(x):
    """0.573 -> "57.3%"."""
    return "{:.1f}%".format(100 * x)


def opponent_name(name):
    """The opponent as the page names it."""
    return OPPONENT_NAMES.get(name, name)


# --- the editor and the code kept -------------------------------------------------------------


def editor_script():
    """The editor's <script> element."""
    return by_id("bot-source")


def is_editor_ready():
    """True once PyScript's editor has drawn CodeMirror (its code can then be read and set)."""
    box = by_id("bot-editor")
    inner = box.querySelector(".mpy-editor-input > div") if box is not None else None
    root = inner.shadowRoot if inner is not None else None
    return root is not None and root.querySelector(".cm-editor") is not None


def get_code():
    """The bot's code as it stands in the editor."""
    return str(editor_script().code)


def set_code(text):
    """Replace the editor's text (an edit like any other: Ctrl+Z takes it back)."""
    editor_script().code = text


def example_source(name):
    """The source of an example bot embedded in the page."""
    element = by_id("bot-example-" + name)
    return str(element.textContent) if element is not None else None


def save_code(force=False):
    """Keep the editor's code in localStorage if it changed; say so under the editor."""
    code = get_code()
    if code == _state["saved"] and not force:
        return
    _state["saved"] = code
    if len(code) > MAX_CODE:
        set_text("bot-saved", TOO_LONG)
        return
    if local_storage.write(CODE_KEY, code):
        set_text("bot-saved", KEPT)


def autosave(*args):
    """Called every SAVE_EVERY_MS: keep the code if it changed (and watch a running match)."""
    try:
        save_code()
        watch_match()
    except Exception as error:
        bridge._log("Saving the bot's code failed:", error)


def heard():
    """The worker answered: a match is moving."""
    _state["heard"] = js.performance.now()


def watch_match():
    """While a match runs, say so when the worker has not answered for STUCK_MS."""
    if by_id("lab").getAttribute("data-match") != "running":
        return
    quiet = js.performance.now() - _state["heard"]
    if quiet >= STUCK_MS:
        set_text("match-score", "{} · no game has finished for {} s: if your bot is stuck in a loop, press Stop.".format(
            _state["score"], int(quiet // 1000)))


def load_example(event):
    """Put the chosen example in the editor; the code it replaces can be brought back."""
    name = by_id("bot-example").value
    source = example_source(name)
    if source is None:
        return
    current = get_code()
    if current.strip() != source.strip() and not is_example(current):
        if len(current) <= MAX_CODE and local_storage.write(PREVIOUS_KEY, current):
            show("bot-restore")
    set_code(source)
    save_code()
    set_text("bot-saved", "Example loaded. " + ("“Bring back my code” or Ctrl+Z returns to yours."
                                               if not by_id("bot-restore").hidden else KEPT))


def is_example(code):
    """True if the code is one of the examples as shipped."""
    for option in by_id("bot-example").options:
        source = example_source(option.value)
        if source is not None and source.strip() == code.strip():
            return True
    return False


def restore_code(event):
    """Bring back the code an example replaced."""
    previous = local_storage.read(PREVIOUS_KEY)
    if previous is None:
        show("bot-restore", False)
        return
    current = get_code()
    set_code(previous)
    if not is_example(current):
        local_storage.write(PREVIOUS_KEY, current)
    else:
        local_storage.remove(PREVIOUS_KEY)
        show("bot-restore", False)
    save_code()
    set_text("bot-saved", "Your code is back. " + KEPT)


def download(event):
    """Save the code as mybot.py (with a line saying how to run it)."""
    code = get_code()
    if not code.startswith("# A cribbage bot from the bot lab."):
        code = HEADER + code
    if not code.endswith("\n"):
        code += "\n"
    blob = js.Blob.new([code], {"type": "text/x-python"})
    url = js.URL.createObjectURL(blob)
    link = document.createElement("a")
    link.href = url
    link.download = BOT_FILE
    document.body.append(link)
    link.click()
    link.remove()

    def revoke(*args):
        js.URL.revokeObjectURL(url)

    handler = create_proxy(revoke)
    _proxies.append(handler)
    window.setTimeout(handler, 1000)


# --- the worker ---------------------------------------------------------------------------------


async def boot_worker():
    """Start the Pyodide worker (once; again after a Stop) and wait until it answers."""
    if _state["worker"] is not None:
        return _state["worker"]
    if _state["booting"] is not None:
        return await _state["booting"]
    _state["booting"] = asyncio.create_task(_spawn())
    try:
        return await _state["booting"]
    finally:
        _state["booting"] = None


async def _spawn():
    """A fresh sandbox (a new frame each time: a stopped one is gone for good)."""
    _state["serial"] += 1
    bridge.set_state("loading", LOADING)
    sandbox = botlab_sandbox.Sandbox()
    _state["script"] = sandbox
    try:
        info = json.loads(await sandbox.start())
        interpreter = info["result"]["interpreter"]
    except Exception as error:
        if _state["script"] is not sandbox:  # stopped while starting
            raise bridge.EngineError(CALL_FAILED, "stopped")
        bridge._log("The bot lab's worker failed to start:", error)
        bridge.set_state("error", BOOT_FAILED)
        raise bridge.EngineError(BOOT_FAILED, "boot")
    if _state["script"] is not sandbox:  # stopped while starting
        raise bridge.EngineError(CALL_FAILED, "stopped")
    _state["worker"] = sandbox
    bridge.set_state("ready", READY.format(interpreter))
    return sandbox


def end_worker():
    """End the worker at once (whatever it is running: its frame is removed) and forget it."""
    sandbox = _state["script"]
    _state["script"] = None
    _state["worker"] = None
    _state["booting"] = None
    if sandbox is not None:
        sandbox.end()


async def request(worker, name, payload):
    """One call to the worker: JSON text both ways; the reply's dict."""
    try:
        reply = json.loads(await worker.call(name, json.dumps(payload)))
        if not isinstance(reply, dict):
            raise ValueError("the reply is not a JSON object")
    except botlab_sandbox.Stopped:  # Stop ended the worker: nothing went wrong
        raise bridge.EngineError(CALL_FAILED, "stopped")
    except Exception as error:
        bridge._log("The bot lab's worker failed in", name, ":", error)
        raise bridge.EngineError(CALL_FAILED, "internal")
    return reply


# --- a match --------------------------------------------------------------------------------------


def read_games():
    """The number of games asked for, or None (and a message) if it is not 10 to 2,000."""
    text = str(by_id("match-games").value).strip()
    message = "Enter a number of games from {} to {:,}.".format(MIN_GAMES, MAX_GAMES)
    try:
        games = int(text)
    except ValueError:
        games = None
    if games is None or not MIN_GAMES <= games <= MAX_GAMES:
        show_message(message)
        return None
    return games


def show_message(text):
    """The line under the match form (empty hides it)."""
    box = by_id("match-message")
    box.textContent = text
    if text:
        box.classList.add("is-shown")
    else:
        box.classList.remove("is-shown")


def new_seed():
    """A fresh match seed: 8 hex digits from the browser's cryptographic generator."""
    buffer = js.Uint8Array.new(4)
    js.crypto.getRandomValues(buffer)
    return "".join("{:02x}".format(buffer[i]) for i in range(4))


def clear_results():
    """Hide the last match's error, results, games and output."""
    _state["games"] = []
    _state["listed"] = None
    show("bot-error", False)
    show("match-result", False)
    show("match-replays", False)
    by_id("match-replay-list").replaceChildren()
    show("bot-output", False)
    set_text("bot-output-text", "")
    show_message("")


NOT_A_REPLY = ("The match stopped: the sandbox answered with something that is not a match's progress "
               "(your bot's code may have sent it). Run the match again.")


def _checked(result, keys):
    """A reply's result, if it is a JSON object with ``keys``; ValueError otherwise."""
    if not isinstance(result, dict) or any(key not in result for key in keys):
        raise ValueError("the reply's result is not the one asked for")
    return result


async def run_match(event=None):
    """Run a match of the editor's bot against the chosen opponent, showing its progress."""
    if by_id("match-run").disabled:
        return
    games = read_games()
    if games is None:
        return
    save_code(force=True)
    code = get_code()
    opponent = by_id("match-opponent").value
    _state["opponent"] = opponent
    _state["run"] += 1
    _state["played"] = 0
    run = _state["run"]
    clear_results()
    set_match_state("starting")
    show("match-progress")
    by_id("match-bar").max = games
    by_id("match-bar").value = 0
    set_text("match-score", "Starting Python…" if _state["worker"] is None else "Running your bot’s code…")
    try:
        worker = await boot_worker()
        if run != _state["run"]:
            return
        set_text("match-score", "Running your bot’s code…")
        reply = await request(worker, "start", {"source": code, "opponent": opponent, "games": games,
                                                 "seed": new_seed()})
        if run != _state["run"]:
            return
        if not reply.get("ok"):
            fail(reply, opponent)
            return
        started = _checked(reply["result"], ("command",))
        add_output(started.get("output"))
        heard()
        _state["score"] = "0 of {} games".format(games)
        set_match_state("running")
        seconds = 0  # the first step plays one game, so the bar moves as soon as it can
        while True:
            reply = await request(worker, "step", {"seconds": seconds})
            seconds = STEP_SECONDS
            if run != _state["run"]:
                return
            if not reply.get("ok"):
                fail(reply, opponent)
                return
            progress = _checked(reply["result"], ())
            if not isinstance(progress.get("played") or [], list):
                raise ValueError("the games played are not a list")
            heard()
            add_output(progress.get("output"))
            _state["games"].extend(progress.get("played") or [])
            show_progress(progress, opponent)
            if "result" in progress:
                show_result(progress["result"], opponent, started["command"])
                show_games(opponent)
                set_match_state("done")
                return
    except bridge.EngineError as error:
        if run == _state["run"]:
            set_match_state("failed")
            show_message(error.message)
    except Exception as error:  # a reply of the wrong shape (a bot can post into its own worker)
        bridge._log("The bot lab's match stopped on a reply it could not read:", error)
        if run == _state["run"]:
            set_match_state("failed")
            show("match-progress", False)
            show_message(NOT_A_REPLY)


def show_progress(progress, opponent):
    """The bar and the running score."""
    done, games = progress["done"], progress["games"]
    _state["played"] = done
    by_id("match-bar").value = done
    _state["score"] = "{} of {} games · your bot {} won, {} {} · {:.1f} s".format(
        done, games, progress["wins"], opponent_name(opponent), progress["losses"], progress["elapsed_s"])
    set_text("match-score", _state["score"])


def show_result(result, opponent, command):
    """The win rate with its interval, the points by source, the command line."""
    lo, hi = result["interval"]
    set_text("match-headline", "Your bot won {} of {} games against {}: {} (95% interval {} to {}).".format(
        result["wins"], result["games"], opponent_name(opponent), percent(result["win_rate"]),
        percent(lo), percent(hi)))
    body = by_id("match-points")
    body.replaceChildren()
    for i, name in enumerate(("Your bot", opponent_name(opponent))):
        figures = result["points_text"][i]
        row = document.createElement("tr")
        head = document.createElement("th")
        head.scope = "row"
        head.textContent = name
        row.append(head)
        for key in SOURCES + ("total",):
            cell = document.createElement("td")
            cell.className = "num"
            cell.textContent = figures[key]
            row.append(cell)
        body.append(row)
    skunks = result["skunks"]
    set_text("match-details", "Over {} complete hands. Skunks: your bot {}, {} {}. The first dealer won {} of the games. "
             "{:.1f} games a second.".format(result["hands"], skunks[0], opponent_name(opponent), skunks[1],
                                             percent(result["first_dealer_win_rate"]), result["games_per_s"]))
    set_text("match-command", command)
    show("match-result")


CODE_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_."  # a game code's (engine/share.py)


def is_replayable(game):
    """True for a game the sandbox reported with a code fit for a link: its characters the code
    alphabet's alone, its seat 0 or 1 (the sandbox runs the visitor's code, so its word is checked)."""
    if not isinstance(game, dict):
        return False
    code = game.get("code")
    if not isinstance(code, str) or not code or any(ch not in CODE_CHARACTERS for ch in code):
        return False
    return game.get("first_seat", 0) in (0, 1) and isinstance(game.get("game"), int)


def show_games(opponent):
    """Offer the games played so far for replay: their number now, their links (each opens the
    game in the replay page, in a new tab) once the list is opened."""
    games = [g for g in _state["games"] if is_replayable(g)]
    _state["listed"] = None
    by_id("match-replay-list").replaceChildren()
    by_id("match-replays").open = False
    if not games:
        show("match-replays", False)
        return
    _state["listed"] = (games, opponent_name(opponent))
    set_text("match-replays-count", "{} game{}".format(len(games), "" if len(games) == 1 else "s"))
    show("match-replays")


def list_games(event=None):
    """Draw the links of the games offered, the first time their list is opened."""
    listed = _state.get("listed")
    if listed is None or not by_id("match-replays").open:
        return
    _state["listed"] = None
    games, rival = listed
    items = document.createDocumentFragment()
    root = bridge.root()
    for game in games:
        item = document.createElement("li")
        link = document.createElement("a")
        link.href = root + REPLAY_PATH.format(game.get("first_seat", 0)) + game["code"]
        link.target = "_blank"
        link.rel = "noopener"
        link.className = "match-replay is-won" if game["won"] else "match-replay"
        link.setAttribute("data-game", str(game["game"]))
        link.textContent = "Game {}: {}".format(game["game"], "won" if game["won"] else rival + " won")
        item.append(link)
        items.append(item)
    by_id("match-replay-list").replaceChildren(items)


def fail(reply, opponent):
    """Show why the match stopped: the bot's error with its lines, or a plain message."""
    problem = reply.get("error") or {}
    add_output(reply.get("output"))
    set_match_state("failed")
    show("match-progress", False)
    show_games(opponent)
    if problem.get("kind") != "bot":
        bridge._log("The bot lab's worker refused a request:", problem.get("message"))
        show_message(CALL_FAILED)
        return
    if problem.get("kind") == "bot" and problem.get("game"):
        where = "in game {}".format(problem["game"])
    else:
        where = "before the first game"
    if problem.get("line"):
        title = "Your bot stopped {} at line {}: {}".format(where, problem["line"], problem["message"])
    else:
        title = "Your bot stopped {}: {}".format(where, problem["message"])
    set_text("bot-error-title", title)
    set_text("bot-error-report", problem.get("report") or problem.get("message") or "")
    show("bot-error")


def add_output(text):
    """Add what the bot printed to the output box."""
    if not text:
        return
    box = by_id("bot-output-text")
    box.textContent = str(box.textContent) + text
    show("bot-output")


def stop_match(event=None):
    """End the match at once: terminate the worker, then start a fresh one."""
    _state["run"] += 1
    end_worker()
    set_match_state("stopped")
    set_text("match-score", "Stopped after {} games. Python is starting again for the next match.".format(
        _state["played"]))
    show_games(_state["opponent"])
    bridge.launch(boot_worker(), quiet=True)


def on_editor_run(event):
    """The editor's own Run (Ctrl+Enter, Shift+Enter) runs a match instead; returns False so
    PyScript's editor does not run the code itself."""
    bridge.launch(run_match())
    return False


# --- start ----------------------------------------------------------------------------------------


async def setup():
    """Wait for the editor, put the kept code in it, bind the controls, then start Python."""
    local_storage.use_words(
        unavailable="This browser is not letting the site store anything, so your bot’s code will not be "
                    "kept after you leave the page: download it to keep it.",
        save_failed="Your bot’s code could not be kept on this device (storage is full or blocked): "
                    "download it to keep it.",
        too_big="Something stored by this site was far too large to be a bot’s code, so it was set aside.",
        too_big_left="Something stored by this site was far too large to be a bot’s code, and too large to "
                     "keep a copy of on this device, so the page carried on without it.")
    while not is_editor_ready():
        await asyncio.sleep(0.02)
    script = editor_script()
    handler = create_proxy(on_editor_run)
    _proxies.append(handler)
    script.handleEvent = handler
    kept = local_storage.read(CODE_KEY)
    current = get_code()
    _state["saved"] = kept if kept is not None else (current if is_example(current) else None)
    if kept is not None and kept != current:
        if is_example(current):
            set_code(kept)
        elif len(kept) <= MAX_CODE:
            # Typed into the editor before this ran: what was typed stays, the kept code is
            # one click away ("Bring back my code").
            local_storage.write(PREVIOUS_KEY, kept)
    save_code()
    if local_storage.read(PREVIOUS_KEY) is not None:
        show("bot-restore")
    bridge.on("#bot-load", "click", load_example)
    bridge.on("#bot-restore", "click", restore_code)
    bridge.on("#bot-download", "click", download)
    bridge.on("#match-form", "submit", run_match, prevent_default=True)
    bridge.on("#match-stop", "click", stop_match)
    bridge.on("#match-replays", "toggle", list_games)
    saver = create_proxy(autosave)
    _proxies.append(saver)
    window.setInterval(saver, SAVE_EVERY_MS)
    hidden = create_proxy(autosave)  # leaving the page (or its tab) keeps the latest code too
    _proxies.append(hidden)
    document.addEventListener("visibilitychange", hidden)
    set_match_state("idle")
    bridge.ui_ready()
    js.performance.mark("botlab-editor-ready")
    bridge.launch(boot_worker(), quiet=True)


bridge.launch(setup())
