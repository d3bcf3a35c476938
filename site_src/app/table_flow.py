"""The game page's flow: engine replies kept and saved, their events shown at the player's pace.

Part of the game page (site_src/app/game.py is its entry point). ``flow(step)`` runs one step
of the person's (an engine call through bridge.call), then ``pump`` shows the reply's events one
by one on the display model, asks the engine for the computer's moves, and stops when the
person has a decision to make (table_prompt.set_waiting). ``take`` keeps a reply and ``save``
stores the game (store.py). Touches the table only through table_view and table_prompt.
"""

import asyncio


import board
import bridge
import store
from table_state import (HUMAN, S, board_scores, humans, is_multi, log_console, model_from_view, q,
                         seating_request, shown, side_seats, start_hand)
from table_view import render, render_stats
from table_prompt import announce, bring_into_view, set_waiting


BEATS = {"slow": 1.6, "normal": 0.9, "fast": 0.3}  # seconds per beat of the computer's play


async def beat(n):
    """Wait n beats at the chosen speed."""
    if n > 0:
        await asyncio.sleep(n * BEATS.get(S["settings"].get("speed"), BEATS["normal"]))


def peg(model):
    """Move the pegs to the scores on the table."""
    board.set_scores(board_scores(model["scores"]))


def take_said_scores(model):
    """Apply the score events already announced with the card or show before them."""
    moved = False
    while S["queue"] and S["queue"][0]["type"] == "score" and S["queue"][0].get("said"):
        event = S["queue"].pop(0)
        for seat in side_seats(event["seat"]):
            model["scores"][seat] = event["total"]
        moved = True
    return moved


async def show_event(event):
    """Put one event on the table; returns "go" or "next" when the person must click to go on."""
    model = S["model"]
    kind = event["type"]
    wait = 0  # beats: the computer's speed paces its moves, never the person's own cards
    stop = None
    moved = False
    follow = False
    if kind == "cut":
        model["cut"] = event
        S["opening_cut"] = event  # shown beside the first hand, which is playable at once
    elif kind == "deal":
        start_hand(model, event)
    elif kind == "hand":
        model["hand"] = list(event["cards"])
        model["left"] = [len(event["cards"])] * len(model["left"])
        model["cut"] = None
    elif kind == "discard":
        model["cut"] = None
        S["opening_cut"] = None
        seat = event["seat"]
        model["left"][seat] = max(0, model["left"][seat] - event["count"])
        if seat == S["me"] and seat in humans():
            model["hand"] = [c for c in model["hand"] if c not in S["thrown"]]
            model["discards"] = list(S["thrown"])
        else:
            wait = 0.6
        model["crib_size"] += event["count"]
    elif kind == "starter":
        model["starter"] = event["card"]
        wait = 1
    elif kind == "play":
        seat = event["seat"]
        model["laid"].append([seat, event["card"]])
        model["count"] = event["count"]
        model["left"][seat] = max(0, model["left"][seat] - 1)
        if seat == S["me"]:
            model["hand"] = [c for c in model["hand"] if c != event["card"]]
            model["played"].append(event["card"])
        moved = take_said_scores(model)
        wait = 0.4 if seat in humans() else 1
        if moved:
            wait += 0.5
    elif kind == "go":
        model["go"].append(event["seat"])
        if event["seat"] == S["me"] and model["hand"] and not S["hidden"]:
            stop = "go"
        else:
            wait = 0.9
    elif kind == "reset":
        await beat(0.6)
        model["count_start"] = len(model["laid"])
        model["count"] = 0
        model["go"] = []
        wait = 0.3
    elif kind == "score":
        for seat in side_seats(event["seat"]):
            model["scores"][seat] = event["total"]
        moved = True
        wait = 1
    elif kind == "count_turn":
        model["counting"] = event
        wait = 0.3
        follow = True
    elif kind == "show":
        model["counting"] = None
        model["shown"].append(event)
        if event["show"] == "crib":
            model["crib"] = event["cards"]
        moved = take_said_scores(model)
        wait = 2.2
        follow = True
    elif kind == "hand_end":
        model["seed"] = event["seed"]
        model["commitment"] = event["commitment"]
        if not (S["queue"] and S["queue"][0]["type"] == "game_over"):
            stop = "next"
    elif kind == "game_over":
        model["over"] = True
        model["winner"] = event["winner"]
    render()
    if follow:
        blocks = q("show-area").querySelectorAll(".show-block")
        if blocks.length:
            bring_into_view(blocks.item(blocks.length - 1))
    if moved:
        peg(model)
    announce(event.get("say") or "", kind != "hand")
    if stop:
        return stop
    await beat(wait)
    return None


def sync_model():
    """Once every event is shown, the table is exactly the engine's view."""
    S["model"] = model_from_view(S["view"])
    S["selected"] = []
    hide_if_passing()
    board.set_scores(board_scores(S["model"]["scores"]), backs=view_backs())
    render()
    if S["placed"]:
        save()  # nothing left to show: a reload starts from the engine's view


def view_backs():
    """The back pegs for the board's tracks, as the engine's view has them (None if it has none)."""
    backs = S["view"].get("backs") if S["view"] is not None else None
    return board_scores(backs) if backs else None


def hide_if_passing():
    """Pass and play: when the other person must decide, hide the hand on the table."""
    if not S["passing"] or S["model"] is None:
        return
    awaiting = S["awaiting"]
    to_act = S["view"]["to_act"] if S["view"] is not None else None
    if awaiting in ("discard", "play", "count") and to_act != S["me"]:
        S["hidden"] = True
    if S["hidden"]:
        S["model"]["hand"] = []
        S["model"]["discards"] = None
        S["model"]["legal"] = []


def show_pass_screen():
    """Pass and play: both hands hidden; the next person taps to see theirs."""
    seat = S["view"]["to_act"]
    S["hidden"] = True
    hide_if_passing()
    render()
    name = S["names"][seat]
    q("pass-title").textContent = "Pass the device to " + name
    q("pass-button").textContent = "I am " + name + ": show my cards"
    q("pass-button").setAttribute("data-seat", str(seat))
    set_waiting("pass")


async def reveal(seat):
    """The person at this seat has the device: ask the engine for their view only."""
    request = {"game": S["game"], "difficulty": S["meta"].get("difficulty", "easy")}
    request.update(seating_request())
    request["seat"] = seat
    reply = await bridge.call("resume_game", request)
    S["me"] = seat
    S["hidden"] = False
    S["hand_key"] = ""
    take(reply)
    return True


def on_pass(event):
    """The tap on the pass screen."""
    if S["waiting"] != "pass" or S["view"] is None:
        return None
    seat = S["view"]["to_act"]
    return flow(lambda: reveal(seat))


async def pump():
    """Show the queued events and let the computer move until the person has to decide."""
    while True:
        if S["readonly"] or S["restart"] is not None:
            return
        while S["queue"]:
            if S["readonly"] or S["restart"] is not None:
                return
            event = S["queue"].pop(0)
            stop = await show_event(event)
            if stop:
                save(stop)  # a reload comes back to this very stop
                set_waiting(stop)
                return
        sync_model()
        awaiting = S["awaiting"]
        if awaiting == "computer":
            await beat(0.5)
            request = {"game": S["game"], "difficulty": S["meta"].get("difficulty", "easy")}
            request.update(seating_request())
            reply = await bridge.call("computer_move", request)
            take(reply)
            continue
        if awaiting == "over":
            await finish()
            set_waiting("over")
            return
        if S["passing"] and S["hidden"]:
            show_pass_screen()
            return
        set_waiting(awaiting)
        return


async def flow(step=None):
    """Run the person's step (an engine call), then everything up to their next decision."""
    if S["busy"]:
        return
    S["busy"] = True
    bridge.clear_error()
    set_waiting("")
    try:
        if step is not None:
            done = await step()
            if not done:
                return
        await pump()
    except bridge.EngineError as error:
        bridge.show_error(error)
        set_waiting("retry" if S["game"] is not None else "setup")
    except Exception as error:
        log_console("Game page error:", error)
        bridge.show_error(bridge.PAGE_FAILED)
        set_waiting("retry" if S["game"] is not None else "setup")
    finally:
        S["busy"] = False
        restart = S["restart"]  # the step dealing a new game asked for while the page was busy
        if restart is not None:
            S["restart"] = None
            bridge.launch(flow(restart))


def take(reply):
    """Keep an engine reply: the new game JSON (saved at once), view and events to show."""
    S["game"] = reply["game"]
    S["view"] = reply["view"]
    S["awaiting"] = reply["awaiting"]
    S["result"] = reply.get("result")
    S["cards"].update(reply["cards"])
    S["queue"].extend(reply["events"])
    save("" if S["queue"] else None)


def save(stop=None):
    """Save the game's JSON (unless another tab has taken the game over).

    With ``stop`` the save also keeps the table's position: "" while events are still to be
    shown, "go" or "next" while the page waits at that click. The engine's game has already
    moved on; this is only what the table shows, so a reload comes back to the same place.
    """
    if S["game"] is None or S.get("readonly"):
        return
    meta = S["meta"]
    if stop is not None and S["model"] is not None:
        meta = dict(meta)
        meta[store.TABLE_KEY] = table_position(stop)
    S["placed"] = stop is not None
    store.save_game(S["game"], meta)


def table_position(stop):
    """The table as shown and the events still to show (store.check_table validates it on load)."""
    return {"v": store.TABLE_VERSION, "game": store.fingerprint(S["game"]), "stop": stop,
            "model": S["model"], "queue": S["queue"], "thrown": S["thrown"], "me": S["me"],
            "pegs": board.peg_positions(), "cards": S["cards"]}


def restore_table(position):
    """Put the table back where the saved position says (the events still to show, the stop)."""
    S["cards"].update(position["cards"])
    S["model"] = position["model"]
    S["queue"] = list(position["queue"])
    S["thrown"] = list(position["thrown"])
    S["selected"] = []
    if S["passing"]:
        S["me"] = position["me"]
        S["hidden"] = True  # after a reload nobody's cards show until the right person taps
        hide_if_passing()
    board.set_scores(board_scores(S["model"]["scores"]), False,
                     backs=[pegs[1] for pegs in position["pegs"]])
    S["placed"] = True


async def finish():
    """The game is over: say so, and count it in the statistics once (never a practice game)."""
    result = S["result"] or {}
    won = result.get("won", result.get("winner") == HUMAN)
    q("game-over-title").textContent = result.get("title") or ""
    q("game-over-detail").textContent = result.get("score") or ""
    q("game-over-skunk").textContent = result.get("skunk") or ""
    shown("game-over-skunk", bool(result.get("skunk")))
    q("game-over").setAttribute("data-result", "won" if won else "lost")
    meta = S["meta"]
    practice = bool(meta.get("practice"))
    note = "Practice games are not counted in your statistics." if practice else ""
    if is_multi() and not practice:
        note = ("Pass-and-play games are not counted in your statistics." if S["passing"] else
                "Only two-player games against the computer are counted in your statistics.")
    q("game-over-note").textContent = note
    shown("game-over-note", bool(note))
    if practice or is_multi():
        return
    if meta.get("recorded") or S.get("readonly"):
        return
    try:
        stats = await store.record_game(S["game"], meta)
    except bridge.EngineError as error:
        bridge.show_error(error)
        return
    meta["recorded"] = True
    save()
    render_stats(stats)
