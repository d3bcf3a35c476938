"""The coach's reviews on the game page: a hand's review after each hand, the game's summary after it.

Part of the game page (site_src/app/game.py is its entry point; coach.py owns the coach's
panel and its hints). "Review hand" asks the engine's ``review_hand`` endpoint for the hand just
finished: the discard and each play with a choice against the best, and in muggins games the
points the counts missed. "Game summary" asks ``review_game`` once the game is over: the points
lost to discards, pegging and miscounts, and the costliest decisions. A discard or a count links
to its cards in the calculator (the ``discard``/``dealer`` or ``hand``/``starter``/``crib``
parameters site_src/app/calculator.py reads); a play links to the replay, opened at the moment
the card was about to be laid (``at``, sharing.at_text).
"""

import js

import bridge
import sharing
from cardview import decimal
from table.coach import COACH, WORKING, can_coach, close, names, open_panel, points, reveal, text_line, write
from table.state import S, cap, make, seating_request


# --- the hand's review -------------------------------------------------------------------------


def on_review(event=None):
    """Review the hand just finished."""
    if COACH["kind"] == "review" and COACH["game"] == S["game"]:
        close()
        return None
    if COACH["asking"] or not can_coach() or S["waiting"] not in ("next", "over"):
        return None
    return ask_review()


async def ask(kind, endpoint, title):
    """One review call with the panel saying it is working; the reply, or None if the game moved on."""
    started = js.performance.now()
    game = S["game"]
    body = open_panel(kind, title)
    body.append(make("p", "coach-working", WORKING))
    COACH["asking"] = True
    try:
        request = {"game": game}
        request.update(seating_request())
        reply = await bridge.call(endpoint, request)
    finally:
        COACH["asking"] = False
    if S["game"] != game or COACH["kind"] != kind:
        return None, started
    S["cards"].update(reply["cards"])
    try:  # the game's code, for the links that open a play at its moment in the replay
        COACH["code"] = (await bridge.call("share_code", {"game": game}))["code"]
    except bridge.EngineError:
        COACH["code"] = None
    return reply, started


async def ask_and_draw(kind, endpoint, title, draw):
    """Ask the engine for a review (``ask``) and, if it still applies, draw it and show it."""
    review, started = await ask(kind, endpoint, title)
    if review is not None:
        draw(review)
        reveal(started)


async def ask_review():
    """Ask for the last finished hand's review and draw it."""
    await ask_and_draw("review", "review_hand", "Review of the hand", draw_review)


def draw_review(review):
    """The hand's decisions against the best: the discard, the plays, the counts."""
    body = open_panel("review", "Review of hand " + str(review["hand_number"]))
    decisions = review["decisions"]
    total = review["total"]
    if total > 0:
        parts = [decimal(review["discard"]) + " in the discard", decimal(review["pegging"]) + " in the play"]
        if any(d["kind"] in ("count", "claim") for d in decisions):
            parts.append(decimal(review["miscount"]) + " in your counts")
        summary = ("Against the best choices this hand cost you " + points(total) + ": "
                   + ", ".join(parts) + ".")
    else:
        summary = "You made the best choice every time this hand."
    body.append(make("p", "coach-lead", summary))
    for decision in decisions:
        if decision["kind"] == "discard":
            discard_lines(body, decision)
    plays = [d for d in decisions if d["kind"] == "play"]
    if plays:
        body.append(play_table(plays))
    for decision in decisions:
        if decision["kind"] == "count":
            count_line(body, decision)
        elif decision["kind"] == "claim" and decision["loss"] > 0:
            claim_line(body, decision)


def discard_lines(body, decision):
    """The discard against the best one, with the six cards' link to the calculator."""
    line = text_line(body, "coach-discard", "You threw ", decision["threw"], " from ", decision["cards"], ". ")
    if decision["loss"] > 0:
        write(line, ["The best was ", decision["best"], ", " + points(decision["loss"]) + " better. "])
    else:
        write(line, ["That was the best throw. "])
    line.append(calculator_link(decision))


def play_table(plays):
    """Each play with a choice: the count, the card laid, the best card, points made and given."""
    wrap = make("div", "table-wrap coach-table-wrap")
    table = make("table", "coach-plays")
    table.append(make("caption", None, "Your plays (where you had a choice)"))
    head = make("thead")
    row = make("tr")
    for label, cls in (("Count", "num"), ("You laid", None), ("Best", None), ("Made", "num"),
                       ("Gave away", "num"), ("Cost", "num"), ("", None)):
        cell = make("th", cls, label)
        cell.setAttribute("scope", "col")
        row.append(cell)
    head.append(row)
    rows = make("tbody")
    for play in plays:
        line = make("tr", "is-costly" if play["loss"] > 0 else None)
        line.setAttribute("data-card", str(play["card"]))
        count = make("th", "num", str(play["count"]))
        count.setAttribute("scope", "row")
        line.append(count)
        for card in (play["card"], play["best"]):
            cell = make("td")
            write(cell, [[card]])
            line.append(cell)
        line.append(make("td", "num", str(play["made"])))
        line.append(make("td", "num", str(play["gave"])))
        line.append(make("td", "num coach-cost", decimal(play["loss"])))
        see = make("td")
        link = moment_link(play)
        if link is not None:
            see.append(link)
        line.append(see)
        rows.append(line)
    table.append(head, rows)
    wrap.append(table)
    return wrap


def count_line(body, decision):
    """A muggins count: what was claimed against what the cards held."""
    what = "your crib" if decision["show"] == "crib" else "your hand"
    if decision["loss"] > 0:
        words = (cap(what) + ": you claimed " + str(decision["claimed"]) + ", the cards held "
                 + str(decision["total"]) + ", so " + str(int(decision["loss"]))
                 + (" went missing. " if decision["claimed"] < decision["total"] else " went to muggins. "))
    else:
        words = cap(what) + ": you counted all " + str(decision["total"]) + ". "
    line = text_line(body, "coach-count", words)
    line.append(calculator_link(decision))


def claim_line(body, decision):
    """A muggins claim in the play that missed: the card, what was claimed, what it made."""
    text_line(body, "coach-claim", "At " + str(decision["count"]) + " you laid ", [decision["card"]],
              " and claimed " + str(decision["claimed"]) + "; it made " + str(decision["total"]) + ". ")


def calculator_link(decision):
    """A link opening the decision's cards in the calculator: the six dealt cards in the discard
    helper for a discard, else the hand (or the crib counted) with the starter."""
    link = make("a", "coach-calc", "Open in the calculator")
    link.href = bridge.root() + "calculator/" + calculator_query(decision)
    return link


def moment_link(play):
    """A link opening the replay at the moment of a play (the table just before the card was
    laid), or None if the game's code is not known."""
    code = COACH.get("code")
    if not code:
        return None
    link = make("a", "coach-calc", "See it in the replay")
    seat = S["me"] if S["me"] != 0 else None
    link.href = sharing.replay_path(code, seat=seat, at=(play["hand_number"], play["card"]))
    link.setAttribute("aria-label", "See the play at " + str(play["count"]) + " in the replay")
    return link


def calculator_query(decision):
    """The calculator's address for a decision (the parameters site_src/app/calculator.py reads)."""
    if decision["kind"] == "discard" or decision.get("starter") is None:
        return ("?discard=" + names(decision["cards"]) + "&dealer=" + ("1" if decision["dealer"] else "0")
                + "#discard")
    counted = decision.get("counted") or decision["kept"]
    crib = "&crib=1" if decision["kind"] == "count" and decision.get("show") == "crib" else ""
    return "?hand=" + names(counted) + "&starter=" + names([decision["starter"]]) + crib + "#calculator"


# --- the game's summary ------------------------------------------------------------------------


def on_summary(event=None):
    """The game's summary, once it is over."""
    if COACH["kind"] == "summary" and COACH["game"] == S["game"]:
        close()
        return None
    if COACH["asking"] or not can_coach() or S["waiting"] != "over":
        return None
    return ask_summary()


async def ask_summary():
    """Ask for the whole game's review and draw its summary."""
    await ask_and_draw("summary", "review_game", "Game summary", draw_summary)


def draw_summary(review):
    """Points lost to discards, pegging and miscounts, hand by hand, and the costliest decisions."""
    body = open_panel("summary", "Game summary")
    muggins = S["model"] is not None and S["model"]["muggins"]
    body.append(make("p", "coach-lead", "Against the best choices you gave up about " + points(review["total"])
                     + " over " + str(len(review["hands"])) + " hands."))
    table = make("table", "coach-totals")
    table.append(make("caption", None, "Points lost"))
    rows = make("tbody")
    lines = [("To discards", review["discard"]), ("To pegging", review["pegging"])]
    if muggins:
        lines.append(("To miscounts", review["miscount"]))
    lines.append(("In all", review["total"]))
    for label, value in lines:
        row = make("tr")
        head = make("th", None, label)
        head.setAttribute("scope", "row")
        row.append(head, make("td", "num", decimal(value)))
        rows.append(row)
    table.append(rows)
    body.append(table)
    worst = review["worst"]
    if not worst:
        body.append(make("p", "coach-note", "No decision cost you anything: every one was the best."))
        return
    body.append(make("h4", "coach-subhead", "Costliest decisions"))
    listing = make("ol", "coach-worst")
    for decision in worst:
        item = make("li")
        item.setAttribute("data-kind", decision["kind"])
        item.append(decision_line(decision))
        if decision["kind"] == "play":  # the play at its moment in the replay, not a hand count
            link = moment_link(decision)
            if link is not None:
                item.append(link)
        elif decision["kind"] != "claim":  # a card's points in the play: nothing to open in the calculator
            item.append(calculator_link(decision))
        listing.append(item)
    body.append(listing)


def decision_line(decision):
    """One costly decision in a line: the hand, what was done, what was best, the cost."""
    line = make("span", "coach-decision")
    parts = ["Hand " + str(decision["hand_number"]) + ": "]
    kind = decision["kind"]
    if kind == "discard":
        parts += ["you threw ", decision["threw"], ", best was ", decision["best"]]
    elif kind == "play":
        parts += ["at " + str(decision["count"]) + " you laid ", [decision["card"]], ", best was ",
                  [decision["best"]]]
    elif kind == "claim":
        parts += ["you claimed " + str(decision["claimed"]) + " for ", [decision["card"]], " of "
                  + str(decision["total"])]
    else:
        parts += ["you claimed " + str(decision["claimed"]) + " for your " + decision["show"] + " of "
                  + str(decision["total"])]
    parts.append(" (" + points(decision["loss"]) + "). ")
    write(line, parts)
    return line


def setup():
    """Bind the review and summary buttons."""
    bridge.on("#review-button", "click", on_review)
    bridge.on("#summary-button", "click", on_summary)
