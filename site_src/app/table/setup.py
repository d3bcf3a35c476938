"""The game page's new games: the setup form, settings, starting and resuming games (a practice
link's too: what its address asks for is link.py's).

Part of the game page (site_src/app/game.py is its entry point). ``start_game`` and
``resume_game`` ask the engine for a new or saved game and put it on the table (the events are
then shown by flow.py); the form's handlers run them through ``flow.flow``.
"""

import js

from dom import document, window

import board
import bridge
import local_storage
from table import finished, history, link, log, store

GAME_REFUSED = "Your saved game could not be resumed, so a new one was started."
CHECK_PAUSE = 0.1  # seconds: a resumed game's check waits while the page is busy
PRACTICE_REFUSED = "Your saved practice game could not be resumed, so it was dealt again."
CHOICE_PRACTICE = ("Your practice game from the seed \u201c{seed}\u201d is not finished. This link deals "
                   "another game; the practice game in progress ends if you play it.")
CHOICE_DAILY = ("Your deal of the day of {day} is not finished, and this link plays it another way; "
                "the game in progress ends if you play it so.")
CHOICE_BACK = "Go back to the game in progress"
CHOICE_NEW = "Deal this link's game"
from table.state import (YOUR_SEAT, NAMES, S, blank_model, board_names, board_scores, cap,
                         is_multi, make, model_from_view, q, shown)
from table.view import render
from table.prompt import announce, set_waiting
from table.flow import SHOWN, flow, hide_if_passing, take, until_free


def read_setup():
    """The options chosen in the new-game form."""
    form = q("setup")
    difficulty = form.querySelector('input[name="difficulty"]:checked')
    target = form.querySelector('input[name="target"]:checked')
    table = form.querySelector('input[name="table"]:checked')
    table = str(table.value) if table is not None else "2"
    level = str(difficulty.value) if difficulty is not None else "easy"
    if level == "expert" and table != "2":
        level = "hard"  # the expert plays two-player games
    options = {
        "difficulty": level,
        "target": int(target.value) if target is not None else 121,
        "muggins": bool(q("setup-muggins").checked),
        "players": 2 if table == "pass" else int(table),
    }
    if table == "pass":
        options["pass_and_play"] = True
        options["names"] = [str(q("name-0").value), str(q("name-1").value)]
    return options


def on_table_choice(event=None):
    """Show the name fields only for two players on one device, the expert only for two players."""
    form = q("setup")
    choice = form.querySelector('input[name="table"]:checked')
    table = str(choice.value) if choice is not None else "2"
    passing = table == "pass"
    shown("setup-names", passing)
    shown("setup-opponent", not passing)
    shown("setup-expert", table == "2")
    expert = form.querySelector('input[name="difficulty"][value="expert"]')
    if table != "2" and expert is not None and expert.checked:
        form.querySelector('input[name="difficulty"][value="hard"]').checked = True


def apply_seating(options, reply=None):
    """Keep the table's seating (players, names, pass and play) from the options or a reply; a
    friend game leaves the table (friend_seat.seat_table seats one)."""
    S["friend"] = None
    shown("friend-bar", False)
    S["players"] = int(options.get("players", 2))
    S["passing"] = bool(options.get("pass_and_play"))
    if reply is not None and reply.get("names"):
        S["names"] = list(reply["names"])
    elif S["passing"]:
        S["names"] = list(options.get("names") or ["Player 1", "Player 2"])
    else:
        S["names"] = list(NAMES)
    S["me"] = YOUR_SEAT
    S["hidden"] = S["passing"]


def fill_setup(settings):
    """Set the new-game form to these settings."""
    form = q("setup")
    for name in ("difficulty", "target"):
        for radio in form.querySelectorAll('input[name="' + name + '"]'):
            radio.checked = str(radio.value) == str(settings.get(name))
    q("setup-muggins").checked = bool(settings.get("muggins"))
    table = "pass" if S["passing"] else str(S["players"])
    for radio in form.querySelectorAll('input[name="table"]'):
        radio.checked = str(radio.value) == table
    on_table_choice()


def show_passing(names):
    """Set the new-game form to two players on one device, these names in its fields, and put
    the cursor in the one to mend: the first left empty, else the second (a doubled name)."""
    for radio in q("setup").querySelectorAll('input[name="table"]'):
        radio.checked = str(radio.value) == "pass"
    on_table_choice()
    fields = [q("name-0"), q("name-1")]
    for field, name in zip(fields, names):
        field.value = str(name)
    empty = [field for field in fields if not str(field.value).strip()]
    (empty[0] if empty else fields[1]).focus()


FIRST_PAINT_MARKS = ("data-start", "data-start-link", "data-start-seats", "data-start-target")
"""static/first-paint.js's guesses on <html>, for first-paint.css, until the page shows the table or the form."""


def end_first_paint():
    """The first paint's guesses taken off: the page shows what it is now."""
    for mark in FIRST_PAINT_MARKS:
        document.documentElement.removeAttribute(mark)


def open_setup(in_game):
    """Show the new-game form on the table."""
    if S["waiting"] != "setup":
        S["before_setup"] = S["waiting"]
    fill_setup(S["settings"])
    end_first_paint()  # a first paint's table, if still up, is over
    q("setup").hidden = False
    q("game").classList.add("is-setup")
    shown("setup-warning", store.is_unfinished(store.GAME))  # what a new game replaces: the ordinary game
    shown("cancel-setup", in_game)
    set_waiting("setup")
    if in_game:
        q("deal-button").focus()


def close_setup():
    """Hide the new-game form."""
    q("setup").hidden = True
    q("game").classList.remove("is-setup")


def on_setup_submit(event):
    """Deal a new game with the chosen options (saved as the player's settings)."""
    options = read_setup()
    settings = dict(S["settings"])
    settings.update(options)
    S["settings"] = store.save_settings(settings)
    if S["busy"]:
        S["restart"] = lambda: start_game(options)  # the running flow stops at the next event, then deals
        return None
    return flow(lambda: start_game(options))


AGAIN_HOOKS = []
"""How a game against a person on another device is played again (friend_panels.invite_again):
a new invitation, not a game against the computer."""


def on_again(event):
    """Play again with the same options."""
    if S["busy"] or S["model"] is None:
        return None
    if S["friend"] is not None and AGAIN_HOOKS:
        return AGAIN_HOOKS[0]()
    if S["slot"] != store.GAME and store.is_unfinished(store.GAME):
        open_setup(False)  # a new game would end the ordinary game in progress: the setup says so
        return None
    options = {"difficulty": S["meta"].get("difficulty", "easy"), "target": S["model"]["target"],
               "muggins": S["model"]["muggins"], "players": S["players"]}
    if S["passing"]:
        options.update({"pass_and_play": True, "names": list(S["names"])})
    return flow(lambda: start_game(options))


def on_change(event):
    """Open the new-game form after a game."""
    open_setup(False)


def on_new_game(event):
    """Open the new-game form (it warns that the game in progress ends)."""
    open_setup(S["game"] is not None and not (S["model"] and S["model"]["over"]))


def on_cancel_setup(event):
    """Close the new-game form and go back to the game."""
    close_setup()
    if S["model"] is None:
        return None
    render()
    if S["busy"]:
        return None  # the running flow offers the next decision itself
    before = S["before_setup"]
    if before and before != "setup":
        set_waiting(before)
        return None
    return flow()


def on_speed(event):
    """Keep the computer's speed in the player's settings."""
    speed = str(q("speed").value)
    settings = dict(S["settings"])
    settings["speed"] = speed
    S["settings"] = store.save_settings(settings)


def on_go_choice(event):
    """Keep the go choice (said by itself, or pressed by hand) in the player's settings."""
    settings = dict(S["settings"])
    settings["go"] = "hand" if q("go-by-hand").checked else "auto"
    S["settings"] = store.save_settings(settings)


def on_lay_choice(event):
    """Keep the lay choice (one click of a mouse, or a click to raise and one to lay)."""
    settings = dict(S["settings"])
    settings["lay"] = "confirm" if q("lay-confirm").checked else "click"
    S["settings"] = store.save_settings(settings)


def reset_table(target):
    """Clear the table, the log and the board for a new game."""
    S["queue"] = []
    S["opening_cut"] = None
    S["selected"] = []
    S["thrown"] = []
    S["steps"] = {}
    S["hand_key"] = ""
    q("log").replaceChildren()
    q("callout").textContent = ""
    q("count-message").textContent = ""
    board.render("#board", board_names(), target)
    q("game").setAttribute("data-target", str(target))
    q("game").setAttribute("data-players", str(S["players"]))
    q("game").classList.toggle("is-multi", is_multi())
    q("game").classList.toggle("is-passing", S["passing"])


async def start_game(options, seed=None, kind=None):
    """Ask the engine for a new game and put it on the table (the events are shown next).

    ``kind`` is the slot it is saved in (store.game_key): by default a seed's own (a practice
    link's, or its day's for a deal of the day), else the ordinary game's."""
    if kind is None:
        kind = store.link_kind(seed) if seed else store.GAME
    S["owed"] = None  # a resumed game's check is let go with it
    _take_choice()  # a choice still on offer is answered by this game
    ready = document.documentElement.getAttribute("data-engine") == "ready"
    q("prompt").textContent = ("Shuffling\u2026" if ready else
                               "Shuffling as soon as the card engine has loaded\u2026")
    finished.show_badge(seed, finished.is_daily_seed(seed))  # known at once: a practice game has a seed
    request = link.new_game_request(options, seed)
    try:
        reply = await bridge.call("new_game", request)
    except bridge.EngineError as error:
        if error.kind != "bad_input" or not options.get("pass_and_play"):
            raise
        q("prompt").textContent = ""
        q("setup-message").textContent = cap(error.message)  # a missing or doubled name
        open_setup(S["game"] is not None)
        show_passing(options.get("names") or [])  # the form as asked, its names there to mend
        return False
    q("prompt").textContent = ""
    q("setup-message").textContent = ""
    close_setup()
    apply_seating(request, reply)
    S["meta"] = meta_from(reply, started=history.today())
    S["slot"] = kind  # each kind of game in its own slot: never over another kind's game
    S["readonly"] = False
    store.play_in(kind)
    reset_table(options["target"])
    S["model"] = blank_model(reply["view"])
    take(reply)
    render()
    return True


async def resume_game(text, meta, kind=store.GAME):
    """Put the game saved in kind's slot back on the table: the engine replays it (refusing
    anything that is not a whole game) and its reply shows the last moves again, from where the
    person last acted."""
    practice = kind == store.PRACTICE or store.is_day_kind(kind)  # a link's game: from a seed
    _take_choice()
    q("prompt").textContent = "Picking up your game where you left it\u2026"
    finished.show_badge(practice or bool((meta or {}).get("practice")),
                            store.is_day_kind(kind) or finished.is_daily_seed((meta or {}).get("practice_seed")))
    try:
        reply = await bridge.call("resume_game", {"game": text, "log": True})
        q("prompt").textContent = ""
    except bridge.EngineError as error:
        if error.kind != "bad_input":
            raise
        return await refuse_saved(error, meta, kind)
    apply_seating({"players": reply["view"]["players"], "pass_and_play": reply.get("pass_and_play")}, reply)
    S["meta"] = meta_from(reply, bool((meta or {}).get("recorded")), (meta or {}).get("started"))
    S["slot"] = kind
    S["readonly"] = False
    store.play_in(kind)
    close_setup()
    reset_table(reply["view"]["target"])
    before = reply.get("view_before")
    said = list(reply.get("said") or [])  # the game log, up to the moves shown again
    if (meta or {}).get("stop") == SHOWN:  # everything had been shown: the table as it is
        said.extend(event["say"] for event in reply["events"] if event.get("say"))
        before, reply = reply["view"], dict(reply, events=[])
    S["model"] = blank_model(reply["view"]) if before is None else model_from_view(before)
    hide_if_passing()
    backs = board_scores(before["backs"]) if before is not None else None
    board.set_scores(board_scores(S["model"]["scores"]), False, backs=backs)
    S["catching_up"] = True
    take(reply, saved_stop=(meta or {}).get("stop"))
    render()
    log.fill(said)
    announce("Welcome back: your game is as you left it.")
    S["owed"] = None if reply.get("checked", True) else [kind, meta]
    if S["owed"] is not None:
        bridge.launch(check_resumed(S["owed"]))
    return True


async def refuse_saved(error, meta, kind):
    """The engine refused kind's saved game: set it aside with a notice and deal a new game (a
    link's or a day's game: its seed again)."""
    js.console.warn("Saved game refused:", error.message)  # expected after damage or an edit
    practice = kind == store.PRACTICE or store.is_day_kind(kind)
    store.reject_game(PRACTICE_REFUSED if practice else GAME_REFUSED, kind)
    show_notices()
    options = dict(S["settings"])
    if practice and (meta or {}).get("practice_seed"):
        options["seed"] = meta["practice_seed"]
    await start_game(options, options.get("seed"), kind)
    return True


async def check_resumed(owed):
    """Have the engine ask a resumed game's computers for each of their moves again, one a call,
    while the game goes on (engine/host.py's check_step), and only while the page waits for the
    person: a move of theirs waits for one such call at most. A move that is not the computer's
    own refuses the game then, as a refused resume does. Stops once another game is on the table."""
    while S["owed"] is owed:
        await until_free(CHECK_PAUSE)
        if S["owed"] is not owed:
            return
        refused = None
        try:
            reply = await bridge.call("check_game", {})
        except bridge.EngineError as error:
            if error.kind != "bad_input":
                raise
            refused = error
        if S["owed"] is not owed:
            return
        if refused is None:
            if reply["done"]:
                S["owed"] = None
            continue
        S["owed"] = None
        step = lambda: refuse_saved(refused, owed[1], owed[0])
        if S["busy"]:
            S["restart"] = step  # the running flow stops at the next event, then deals
        else:
            await flow(step)
        return


def meta_from(reply, recorded=False, started=None):
    """The page's notes on a game, from the engine's reply: the computer's level, practice or
    not, the seating, whether the statistics have counted it, and the day it was started (a
    deal of the day counts for its day only if started that day: engine/daily.py)."""
    level = "easy"
    for kind in reply.get("seats") or []:
        if kind != "person":
            level = kind
            break
    return {"difficulty": level, "practice": bool(reply["practice"]), "practice_seed": reply["practice_seed"],
            "recorded": bool(recorded), "players": S["players"], "pass_and_play": S["passing"],
            "names": list(S["names"]), "started": started if store.is_day(started) else None}


def show_notices():
    """Show the storage notices (a saved game or statistics that could not be read)."""
    notices = local_storage.notices()
    box = q("game-notice")
    if not notices or box is None:
        return
    box.replaceChildren()
    for text in notices:
        box.append(make("p", None, text))
    box.hidden = False
    local_storage.clear_notices()


def is_same_link(meta, options):
    """True if a saved game (its meta) is the game a link's options ask for: the same seed and
    seating (the rest of a link's options only apply to a new deal)."""
    return (bool(meta) and meta.get("practice_seed") == options["seed"]
            and int(meta.get("players", 2)) == options.get("players", 2)
            and bool(meta.get("pass_and_play")) == bool(options.get("pass_and_play")))


_choice = {}  # the choice on offer: the kind, the saved game and its meta, the link's options


def offer_choice(kind, saved, meta, options):
    """A link asks for a game whose slot holds another game not finished: nothing is dealt until
    the person chooses between going back to that game and dealing the link's (which ends it)."""
    _choice.clear()
    _choice.update({"kind": kind, "saved": saved, "meta": meta, "options": options})
    if kind == store.PRACTICE:
        text = CHOICE_PRACTICE.format(seed=str(meta.get("practice_seed") or "")[:60])
    else:
        text = CHOICE_DAILY.format(day=kind.partition(":")[2])
    q("slot-choice-text").textContent = text
    q("slot-choice-back").textContent = CHOICE_BACK
    q("slot-choice-new").textContent = CHOICE_NEW
    close_setup()
    q("prompt").textContent = ""
    shown("slot-choice", True)
    set_waiting("choice")
    q("slot-choice-back").focus()


def _take_choice():
    chosen = dict(_choice)
    _choice.clear()
    shown("slot-choice", False)
    return chosen


def on_choice_back(event):
    """Go back to the game in progress; the address becomes its own link."""
    if S["busy"] or not _choice:
        return None
    chosen = _take_choice()
    return flow(lambda: resume_with_link(chosen["saved"], chosen["meta"], chosen["kind"]))


def on_choice_new(event):
    """Deal the link's game in the slot (the game in progress there ends: the person chose so)."""
    if S["busy"] or not _choice:
        return None
    chosen = _take_choice()
    return flow(lambda: start_game(chosen["options"], chosen["options"]["seed"], chosen["kind"]))


async def resume_with_link(saved, meta, kind):
    """Resume a saved game and show its own link in the address (a reload then resumes it)."""
    done = await resume_game(saved, meta, kind)
    window.history.replaceState(None, "", link.table_link())
    return done

