"""The game page's question to the person: the prompt, the buttons on offer, focus and announcements.

Part of the game page (site_src/app/game.py is its entry point). ``set_waiting`` shows the
controls for the decision on offer (#game[data-await]); ``announce`` says what happened (live
region, game log, callout). Reads the display model; calls no engine.
"""

from dom import document

from table import coach, fit
from table.state import (LIVE_KEEP, LOG_KEEP, S, can_discard_ahead, discard_need, display_phase, info,
                         is_multi, make, others_left, q, shown, whose)
from table.view import render_hand


SEALING_PROMPT = "Sealing the deck\u2026"  # a sealed friend game's first deal
WAITING_HOOKS = []
"""Functions called after every decision offered (friend_play.on_turn: the friend game's bar)."""


def crib_words(model):
    """Whose crib the person's discard goes to, as the prompt says it."""
    if model["dealer"] == S["me"]:
        return "your crib"
    return whose(model["dealer"], False) + " crib" if is_multi() else "the computer's crib"


def prompt_text(waiting, model):
    """The instruction under the table for the decision on offer."""
    if waiting == "pass":
        return ""
    if waiting == "friend" and S["view"] is not None and S["view"].get("sealing"):
        return SEALING_PROMPT
    if waiting == "friend" and S["ahead"] is not None and S["view"] is not None and S["view"]["phase"] == "discard":
        return "Your two go to " + crib_words(model) + " as soon as " + S["names"][1 - S["me"]] + " has thrown."
    if waiting == "friend" and can_discard_ahead():
        return ("Waiting for " + S["names"][1 - S["me"]] + " to discard. Choose your two for "
                + crib_words(model) + " meanwhile.")
    if waiting == "friend":
        seat = S["view"]["to_act"] if S["view"] is not None else None
        doing = {"discard": "discard", "play": "lay a card", "count": "count", "claim": "claim"}
        what = doing.get(S["view"]["phase"], "move") if S["view"] is not None else "move"
        return ("Waiting for " + S["names"][seat] + " to " + what + "\u2026") if seat is not None else ""
    if waiting == "discard" and is_multi():
        crib = crib_words(model)
        return ("Throw this card to " + crib + "?" if S["selected"] else "Choose a card for " + crib + ".") \
            if discard_need() == 1 else ("Throw these two to " + crib + "?" if len(S["selected"]) == 2
                                        else "Choose two cards for " + crib + ".")
    if waiting == "discard":
        crib_of = crib_words(model)
        n = len(S["selected"])
        if n == 2:
            return "Throw these two to " + crib_of + "?"
        return "Choose two cards for " + crib_of + (" (one more)." if n == 1 else ".")
    if waiting == "play" and S["passing"]:
        return S["names"][S["me"]] + ", your turn: lay a card. The count is " + str(model["count"]) + "."
    if waiting == "play":
        return "Your turn: lay a card. The count is " + str(model["count"]) + "."
    if waiting == "go":
        return "You have no card that keeps the count at 31 or under."
    if waiting == "count":
        counting = model["counting"] or {}
        what = "your crib" if counting.get("show") == "crib" else "your hand"
        return "Count " + what + " with the starter."
    if waiting == "claim":
        card = model["laid"][-1][1] if model["laid"] else None
        what = "the " + info(card)["spoken"] if card is not None else "your card"
        return ("Muggins: what did " + what + " make at " + str(model["count"]) + "? Claim its fifteen, "
                "thirty-one, pairs and runs; the go and last card are pegged for you.")
    if waiting == "next":
        return "The hand is over."
    if waiting == "retry":
        return "The engine did not answer."
    if not waiting and display_phase(model) == "play" and not model["hand"] and others_left(model) \
            and not S["hidden"]:
        return ("You have no cards left: the others lay the rest of theirs." if is_multi()
                else "You have no cards left: the computer lays the rest of its cards.")
    return ""


def set_waiting(waiting):
    """Show the controls for the person's next decision ("" while the page is busy)."""
    S["waiting"] = waiting
    if waiting:
        S["skip_show"] = False  # a decision (or the next hand) ends a counting shown at once
        shown("skip-show", False)
    q("game").setAttribute("data-await", waiting)
    if waiting and S["offered"] != (waiting, S["replies"]):  # the same decision offered again (as the
        S["offered"] = (waiting, S["replies"])               # deal ends) is not a new one
        S["turns"] += 1
        q("game").setAttribute("data-turn", str(S["turns"]))
    model = S["model"]
    picking = waiting == "discard" or can_discard_ahead()
    shown("throw-button", picking)
    shown("go-button", waiting == "go")
    shown("next-button", waiting == "next")
    shown("retry-button", waiting == "retry")
    shown("count-form", waiting in ("count", "claim"))
    shown("claim-none", waiting == "claim")
    if waiting in ("count", "claim"):
        q("count-label").textContent = "Your count" if waiting == "count" else "Points for your card"
    shown("game-over", waiting == "over")
    shown("pass-screen", waiting == "pass")
    if picking and model is not None:  # its words stay the first paint's: the prompt says whose crib
        q("throw-button").disabled = len(S["selected"]) != discard_need()
    if waiting == "next" and model is not None:
        q("next-button").textContent = "Deal hand " + str(model["hand_number"] + 1)
    coach.on_waiting(waiting)
    for hook in WAITING_HOOKS:
        hook()
    if model is not None:
        q("prompt").textContent = prompt_text(waiting, model)
        render_hand(model)
    else:
        q("prompt").textContent = ""
    if waiting and waiting != "setup":
        bring_into_view(NEEDED.get(waiting, "actions"))
    focus_primary()


NEEDED = {"over": "game-over", "pass": "pass-screen", "discard": "seat-you", "play": "seat-you"}
"""The part of the table a decision needs most, shown first when the table is taller than the window."""


def bring_into_view(element):
    """Show the whole table if it fits the window, else this element (or id), if the table is
    being watched (fit.py)."""
    fit.keep_in_view(q(element) if isinstance(element, str) else element)


def focus_primary():
    """Put the keyboard focus on the control the person needs, for keyboard players only and
    only while they are at the table (never pulled away from elsewhere on the page)."""
    if not S["keyboard"]:
        return
    active = document.activeElement
    felt = q("felt")
    if active is not None and active != document.body and not felt.contains(active):
        return
    waiting = S["waiting"]
    target = None
    if waiting in ("discard", "play"):
        if active is not None and q("my-hand").contains(active):
            return
        selector = "button[data-card]:not([aria-disabled])"
        target = q("my-hand").querySelector(selector)
    elif waiting == "go":
        target = q("go-button")
    elif waiting in ("count", "claim"):
        target = q("count-input")
    elif waiting == "next":
        target = q("next-button")
    elif waiting == "over":
        target = q("again-button")
    elif waiting == "retry":
        target = q("retry-button")
    elif waiting == "pass":
        target = q("pass-button")
    if target is not None:
        target.focus()


def announce(text, visible=True):
    """Say it in the live region and the game log, and (usually) show it on the table."""
    if not text:
        return
    if visible:
        q("callout").textContent = text
    live = q("announce")
    live.append(make("p", None, text))
    while live.children.length > LIVE_KEEP:
        live.firstElementChild.remove()
    log = q("log")
    log.prepend(make("li", None, text))
    while log.children.length > LOG_KEEP:
        log.lastElementChild.remove()
