"""The game page's flow: engine replies kept and saved, their events shown at the player's pace.

Part of the game page (site_src/app/game.py is its entry point). ``flow(step)`` runs one step
of the person's (an engine call through bridge.call), then ``pump`` shows the reply's events one
by one on the display model, asks the engine for the computer's moves, and stops when the
person has a decision to make (prompt.set_waiting). ``take`` keeps a reply and ``save``
stores the game (store.py). Touches the table only through view.py and prompt.py.
"""

import asyncio


import board
import bridge
import friend_store
from table import finished, motion, store
from table.state import (YOUR_SEAT, S, board_scores, humans, is_multi, log_console, model_from_view, q,
                         seating_request, shown, side_seats, start_hand)
from table.view import render, render_stats
from table.prompt import announce, bring_into_view, set_waiting


BEATS = {"slow": 1.6, "normal": 0.9, "fast": 0.3, store.TEST_PACE: 0}  # seconds per beat of the computer's play
GO_PAUSE = 1.4  # seconds a go said for the person stays on the table, whatever the computer's speed (but the tests')
GO_SAID = "Go: you have no card to play."


async def beat(n):
    """Wait n beats at the chosen speed."""
    if n > 0:
        if S["catching_up"] or S["skip_show"]:
            await asyncio.sleep(0)  # a resumed game shows its last moves again without waiting
        else:
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
    start = motion.before(event)  # where moving cards come from, before the table changes
    wait = 0  # beats: the computer's speed paces its moves, never the person's own cards
    stop = None
    said_go = False
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
            if S["settings"].get("go") == "hand":
                stop = "go"
            else:
                said_go = True  # the only move: said for the person, who carries on without a click
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
    elif kind == "claim":
        moved = take_said_scores(model)  # a claim that was right, or too high, pegs what the card made
        wait = 1
    elif kind == "count_turn":
        model["counting"] = event
        wait = 0.3
        follow = True
        offer_skip()
    elif kind == "show":
        offer_skip()
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
    if not is_drawn_by_next(event):
        render()
        motion.after(event, start)
    if follow:
        blocks = q("show-area").querySelectorAll(".show-block")
        if blocks.length:
            bring_into_view(blocks.item(blocks.length - 1))
    if moved:
        peg(model)
    announce(event.get("say") or "", kind != "hand" and not said_go)
    if said_go:
        q("callout").textContent = (S["names"][S["me"]] + ": " if S["passing"] else "") + GO_SAID
        if not S["catching_up"] and S["settings"].get("speed") != store.TEST_PACE:
            await asyncio.sleep(GO_PAUSE)
    if stop:
        return stop
    await beat(wait)
    return None


DRAWN_BY_NEXT = ("cut", "deal")
"""Events that move nothing and never wait: with another event queued behind, shown at once, the
next one's drawing shows them too (a table drawn in between would never be painted)."""


def is_drawn_by_next(event):
    """True for an event whose own drawing is left to the next one (``DRAWN_BY_NEXT``)."""
    return event["type"] in DRAWN_BY_NEXT and bool(S["queue"])


def offer_skip():
    """The counting has begun: offer to show the rest of it at once (not while catching up)."""
    shown("skip-show", not (S["catching_up"] or S["skip_show"]))


def on_skip_show(event):
    """The rest of the counting at once: every count is still listed on the table to read."""
    if S["busy"] and not q("skip-show").hidden:
        S["skip_show"] = True
        shown("skip-show", False)


def on_skip_key(event):
    """N does what the Next button of the counting does (not while typing, not with a modifier)."""
    if event.key not in ("n", "N") or event.ctrlKey or event.metaKey or event.altKey or q("skip-show").hidden:
        return None
    target = event.target
    tag = str(target.tagName).lower() if target is not None and target.tagName else ""
    if tag in ("input", "textarea", "select"):
        return None
    return on_skip_show(event)


def sync_model():
    """Once every event is shown, the table is exactly the engine's view."""
    S["model"] = model_from_view(S["view"])
    S["selected"] = []
    hide_if_passing()
    board.set_scores(board_scores(S["model"]["scores"]), backs=view_backs())
    render()
    S["catching_up"] = False
    save(SHOWN)  # everything is on the table: a reload shows the engine's view as it is


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
    if awaiting in ("discard", "play", "claim", "count") and to_act != S["me"]:
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
    take(dict(reply, events=[]))  # only this person's view: what happened is on the table already
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
                S["catching_up"] = False
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
        if awaiting == "friend":  # the friend's move arrives by message or link (friend_play.py)
            set_waiting("friend")
            return
        if awaiting == "over":
            await finish()
            set_waiting("over")
            return
        if S["passing"] and S["hidden"]:
            show_pass_screen()
            return
        set_waiting(awaiting)
        return


async def until_free(pause=0.02):
    """Wait until the page has finished what it is doing (no flow running)."""
    while S["busy"]:
        await asyncio.sleep(pause)


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
        if error.kind == "boot":  # the engine did not start: Try again runs this step again
            S["retry_step"] = step
            set_waiting("retry")
        else:
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


def take(reply, saved_stop=None):
    """Keep an engine reply: the new game JSON (saved at once), view and events to show.

    ``saved_stop``: the reply is a resumed game, saved already with this stop (see save).
    """
    S["replies"] += 1
    S["game"] = reply["game"]
    S["view"] = reply["view"]
    S["awaiting"] = reply["awaiting"]
    S["result"] = reply.get("result")
    S["cards"].update(reply["cards"])
    S["queue"].extend(reply["events"])
    if saved_stop is None:
        save(SHOWING)
    else:
        S["saved"] = (S["game"], saved_stop)


SHOWN, SHOWING = "", "showing"
"""Where the table stands when it saves: every event shown (SHOWN), events still to show
(SHOWING), or waiting at a click the engine knows nothing of ("go", "next")."""


def save(stop=None):
    """Save the game's JSON in its slot (S["slot"]: the ordinary game's, a practice link's, a day's),
    with where the table stands (``stop``: see SHOWN).

    The saved game is the engine's record; a reload asks the engine to replay it. The stop only
    says whether to show the last moves again (up to the same click) or the table as it is: it
    chooses among the engine's own replies, so a wrong one changes nothing else.
    """
    if S["game"] is None or S.get("readonly"):
        return
    meta = dict(S["meta"])
    if stop is not None:
        if (S["game"], stop) == S["saved"]:
            return  # saved as it is (a resumed game in another tab must not be taken for nothing)
        meta["stop"] = stop
        S["saved"] = (S["game"], stop)
    meta["over"] = S["awaiting"] == "over"  # a finished game may be replaced without asking
    S["meta"] = meta
    if S["friend"] is not None:
        friend_store.save_game(S["friend"]["id"], S["game"], meta, friend_turn())
        return
    friend_store.set_current(None)
    store.save_game(S["game"], meta, S["slot"])


def friend_turn():
    """Whose turn it is in a friend game, in words for the list of friend games."""
    view = S["view"] or {}
    if view.get("is_over"):
        return "Over: " + ("you won" if view.get("winner") == S["me"] else S["names"][view["winner"]] + " won")
    to_act = view.get("to_act")
    return "Your turn" if to_act == S["me"] else S["names"][to_act] + "\u2019s turn" if to_act is not None else ""


async def finish():
    """The game is over: say so, and count it in the statistics once (never a practice game)."""
    result = S["result"] or {}
    won = result.get("won", result.get("winner") == YOUR_SEAT)
    q("game-over-title").textContent = result.get("title") or ""
    q("game-over-detail").textContent = result.get("score") or ""
    q("game-over-skunk").textContent = result.get("skunk") or ""
    shown("game-over-skunk", bool(result.get("skunk")))
    q("game-over").setAttribute("data-result", "won" if won else "lost")
    meta = S["meta"]
    practice = bool(meta.get("practice")) and S["friend"] is None
    note = "Practice games are not counted in your statistics." if practice and not finished.is_daily_game() else ""
    if is_multi() and not practice:
        note = ("Pass-and-play games are not counted in your statistics." if S["passing"] else
                "Only two-player games against the computer are counted in your statistics.")
    friend = S["friend"] is not None
    q("again-button").textContent = ("Play again with " + S["names"][1 - S["me"]]) if friend else "Play again"
    if friend:
        note = "A game with a friend: it counts in your statistics under \u201cAgainst friends\u201d only."
    q("game-over-note").textContent = note
    shown("game-over-note", bool(note))
    bridge.launch(finished.keep())  # kept among the recent games; the deal of the day's result
    if practice or (is_multi() and not friend):
        return
    if meta.get("recorded") or S.get("readonly"):
        return
    try:
        stats = await (store.record_game(S["game"], S["me"], "friend") if friend else store.record_game(S["game"]))
    except bridge.EngineError as error:
        bridge.show_error(error)
        return
    meta["recorded"] = True
    save()
    render_stats(stats)
