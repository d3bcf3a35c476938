"""The replay page: a game code (from the address, a pasted link or a saved file) stepped through.

Runs in MicroPython on the main thread (keep to the subset). The engine's ``replay_game``
(engine/api.py) decodes the code, replays the game from its seed (a damaged or forged code is
refused with the reason) and returns one step per event; replay_view.py draws a step. The
buttons and the arrow keys (Home and End too) move through the steps; the share buttons copy the
link or save the code as a file (sharing.py).

A code writes down the computers' moves too, and the engine replays it taking them as written
(each a legal move), so the game is shown at once; the engine then asks each computer for its
moves again (``check_code``, seconds for a game against the expert), and a code whose computer
did not make its own moves is refused then, as a damaged one is at once.

Markers for tests: #replay[data-state] is empty, loading, ready or error; #replay[data-step] is
the step shown (from 0) and #replay[data-steps] how many there are; #replay[data-check] is
pending while the computers' moves are checked, then done (empty when nothing is left to check).
"""

import js
from dom import document, window

import bridge
import replay_view
import sharing
from replay_view import by_id

NO_CODE = "Paste a game code (it starts with c1.) or a replay link, or open a saved game file."
REFUSED = "This game code cannot be replayed: "
ENGINE_PREFIX = "not a game code: "  # how engine/share.py begins its reasons
FILE_TOO_BIG = "That file is too large to be a saved game."
MAX_FILE = 20000  # bytes: a saved game file is well under 1 kB

CHECKING = "Checking that each of the computer's moves is its own\u2026"
CHECKED = "Every move checked: the computer's are its own."

_game = {"game": None, "index": 0, "title": None, "seat": None, "loads": 0}
LAB_SOURCE = "bot-lab"  # ?from=bot-lab in the links of a bot lab game (the title follows from the engine's "lab")


def set_state(state):
    """Mark the page (empty, loading, ready, error)."""
    by_id("replay").setAttribute("data-state", state)


def set_check(state, text=""):
    """Mark and say where the check of the computers' moves stands (pending, done or empty)."""
    by_id("replay").setAttribute("data-check", state)
    line = by_id("replay-check")
    line.textContent = text
    line.hidden = not text


def set_message(text):
    """Show a message under the form (empty text hides it)."""
    box = by_id("replay-message")
    box.textContent = text
    box.hidden = not text


def refusal(reason):
    """The message for a code that cannot be replayed, with the engine's reason."""
    reason = reason[len(ENGINE_PREFIX):] if reason.startswith(ENGINE_PREFIX) else reason
    return REFUSED + reason.rstrip(".") + "."


def game_title(game):
    """A line about the game: the table, its length, and how it ended. "Deal of the day" and
    "Bot lab game" are what the engine found the game to be (its "daily" and "lab"), never
    what the address says."""
    parts = []
    computers = [kind for kind in game["seats"] if kind != "person"]
    people = len(game["seats"]) - len(computers)
    if game.get("lab") and len(game["names"]) == 2:
        parts.append("Bot lab game, " + " against ".join(game["names"]))
    else:
        if game.get("daily"):
            parts.append("Deal of the day, " + game["daily"])
        elif game.get("practice"):
            parts.append("Practice game")
        if people > 1:
            parts.append(" and ".join(game["names"]) + " on one device")
        else:
            level = computers[0] if computers else ""
            parts.append(str(game["players"]) + " players, " + level + (" computers" if len(computers) > 1 else " computer"))
    parts.append("game to " + str(game["target"]))
    result = game.get("result")
    if game.get("over") and result:
        parts.append(result["title"].rstrip("!") + " " + result["score"])
    else:
        parts.append("not finished yet")
    return " \u00b7 ".join(parts)


def source():
    """Where the game shown comes from, for the links that share it (None: a game of the site)."""
    game = _game["game"]
    return LAB_SOURCE if game is not None and game.get("lab") else None


def show(index, animate=True):
    """Show step ``index`` (kept within the game)."""
    game = _game["game"]
    if game is None:
        return
    index = max(0, min(index, len(game["steps"]) - 1))
    _game["index"] = index
    replay_view.draw(game, index, animate)
    last = len(game["steps"]) - 1
    by_id("replay-first").disabled = index == 0
    by_id("replay-prev").disabled = index == 0
    by_id("replay-next").disabled = index == last
    by_id("replay-last").disabled = index == last
    slider = by_id("replay-slider")
    slider.value = str(index)


def move(delta):
    """Step forward or back."""
    show(_game["index"] + delta)


async def load(code):
    """Ask the engine for the game a code holds and show its first step."""
    code = sharing.find_code(code) or str(code).strip()
    _game["loads"] += 1
    set_message("")
    set_check("")
    set_state("loading")
    by_id("replay-loading").hidden = False
    try:
        request = {"code": code}
        if _game["seat"] is not None:
            request["seat"] = _game["seat"]
        game = await bridge.call("replay_game", request)
    except bridge.EngineError as error:
        by_id("replay-loading").hidden = True
        set_state("error")
        if error.kind != "bad_input":
            raise
        by_id("replay-view").hidden = True
        set_message(refusal(error.message))
        by_id("replay-input").value = code
        return
    by_id("replay-loading").hidden = True
    _game["game"] = game
    if game.get("notice"):  # the seat asked for may not see this game yet: the engine chose another
        _game["seat"] = None
        set_message(game["notice"])
    _game["title"] = game_title(game)
    by_id("replay-summary").textContent = _game["title"]
    slider = by_id("replay-slider")
    slider.max = str(len(game["steps"]) - 1)
    by_id("replay").setAttribute("data-steps", str(len(game["steps"])))
    by_id("replay").setAttribute("data-target", str(game["target"]))
    by_id("replay-view").hidden = False
    by_id("share-box").hidden = True
    by_id("share-message").textContent = ""
    window.history.replaceState(None, "", sharing.replay_path(game["code"], source(), _game["seat"], here=True))
    replay_view.start_board(game)
    show(moment_step(game["steps"], _game.get("at")), False)
    replay_view.bring_into_view()
    set_state("ready")
    if not game.get("checked", True):
        await check(game["code"], _game["loads"])


async def check(code, load_number):
    """Have the engine ask the computers for their moves again; refuse the game if one differs.
    A check whose game has since been replaced by another is let go."""
    set_check("pending", CHECKING)
    try:
        await bridge.call("check_code", {"code": code})
    except bridge.EngineError as error:
        if load_number != _game["loads"]:
            return
        if error.kind != "bad_input":
            raise
        _game["game"] = None
        set_check("")
        by_id("replay-view").hidden = True
        set_state("error")
        set_message(refusal(error.message))
        return
    if load_number == _game["loads"]:
        set_check("done", CHECKED)


def moment_step(steps, at):
    """The step to open first: for ``at`` (hand number, card), the one just before that card was
    laid in that hand (the moment of the decision); else, or if no such play is found, the first."""
    if at is None:
        return 0
    hand_number, card = at
    for index, step in enumerate(steps):
        laid = step.get("laid") or []
        if (step.get("kind") == "play" and step.get("hand_number") == hand_number and laid
                and laid[-1][1] == card):
            return max(0, index - 1)
    return 0


def on_submit(event):
    """The form: replay the pasted code or link."""
    text = str(by_id("replay-input").value)
    _game["seat"] = None
    if not sharing.find_code(text):
        set_state("error" if text.strip() else "empty")
        set_message(NO_CODE if not text.strip() else refusal("a game code starts with c1."))
        return None
    return load(text)


async def on_file(event):
    """A saved game file: read it and replay the code in it."""
    files = by_id("replay-file").files
    if not files or files.length == 0:
        return
    file = files.item(0)
    if int(file.size) > MAX_FILE:
        set_state("error")
        set_message(FILE_TOO_BIG)
        return
    text = str(await file.text())
    by_id("replay-file").value = ""
    _game["seat"] = None
    code = sharing.find_code(text)
    if code is None:
        set_state("error")
        set_message(refusal("the file holds no game code."))
        return
    by_id("replay-input").value = code
    await load(code)


def on_key(event):
    """Arrow keys step through the game; Home and End go to its ends."""
    if _game["game"] is None or event.altKey or event.ctrlKey or event.metaKey:
        return
    target = event.target
    tag = str(target.tagName).lower() if target is not None and target.tagName else ""
    if tag in ("input", "textarea", "select") and target.id != "replay-slider":
        return
    key = event.key
    moves = {"ArrowLeft": -1, "ArrowRight": 1}
    if key in moves and target is not None and target.id == "replay-slider":
        return  # the slider moves itself
    if key in moves:
        event.preventDefault()
        move(moves[key])
    elif key == "Home":
        event.preventDefault()
        show(0)
    elif key == "End":
        event.preventDefault()
        show(len(_game["game"]["steps"]) - 1)


def on_slider(event):
    """The slider: go to that step."""
    show(int(str(by_id("replay-slider").value)), False)


async def on_copy(event):
    """Copy the replay link (and show it, to copy by hand if the browser refuses)."""
    game = _game["game"]
    if game is None:
        return
    link = sharing.replay_link(game["code"], source(), _game["seat"])
    by_id("share-box").hidden = False
    field = by_id("share-link")
    field.value = link
    copied = await sharing.copy_text(link)
    by_id("share-message").textContent = ("Link copied." if copied else
                                          "Select the link above and copy it.")
    if not copied:
        field.focus()
        field.select()


def on_download(event):
    """Save the game's code as a small text file."""
    game = _game["game"]
    if game is None:
        return
    done = sharing.download(sharing.FILE_NAME, sharing.file_text(game["code"], _game["title"], source(), _game["seat"]))
    by_id("share-message").textContent = ("Saved " + sharing.FILE_NAME + "." if done else
                                          "This browser would not save the file.")


def setup():
    """Bind the page; replay the code in the address, if there is one."""
    bridge.on("#replay-form", "submit", on_submit, prevent_default=True)
    bridge.on("#replay-file", "change", on_file)
    bridge.on("#replay-first", "click", lambda event: show(0))
    bridge.on("#replay-prev", "click", lambda event: move(-1))
    bridge.on("#replay-next", "click", lambda event: move(1))
    bridge.on("#replay-last", "click", lambda event: show(len(_game["game"]["steps"]) - 1) if _game["game"] else None)
    bridge.on("#replay-slider", "input", on_slider)
    bridge.on("#copy-link", "click", on_copy)
    bridge.on("#download-file", "click", on_download)
    bridge.on(document, "keydown", on_key)
    params = js.URLSearchParams.new(window.location.search)
    code = params.get("code")
    seat = str(params.get("seat") or "")
    _game["seat"] = int(seat) if seat.isdigit() and len(seat) == 1 else None
    _game["at"] = sharing.parse_at(params.get("at"))
    bridge.ui_ready()
    if code is not None and str(code).strip():
        by_id("replay-input").value = str(code)
        bridge.launch(load(str(code)))


setup()
bridge.start()
