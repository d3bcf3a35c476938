"""The home page: a game of cribbage against the computer, or between people on one device.

Runs in MicroPython on the main thread (keep to the subset). The page draws what the engine
returns; every rule, count, decision and word of commentary comes from the engine in its worker
(engine/host.py, called through bridge.call). The page keeps the game's JSON, sends it with
each call and saves what comes back (table/store.py), so a reload picks the game up where it was.

This module is the entry point: it sends a practice link's first deal to the engine before
importing the rest (table.link), ``setup`` binds the page's controls, ``begin`` puts the first
game on the table. The rest of the page lives in its own modules, lowest first:

- table.state: ``S`` (the page's state), the seating, the display model, DOM helpers;
- table.view: drawing the table from the display model;
- table.prompt: the decision on offer (#game[data-await]: discard, play, go, count, next, over,
  pass, setup or retry; empty while the page is busy), focus and announcements;
- table.flow: ``flow(step)`` runs one engine call, then shows the reply's events one by one and
  lets the computer move until the person has to decide;
- table.link: what a practice link in the address asks for (``?seed=``), and its first deal sent ahead;
- table.setup: the setup form, settings, starting and resuming games;
- table.coach and table.review: the coach's hints, each hand's review and the game's summary;

How a click travels: a card button's click reaches ``on_hand_click`` here, which runs
``flow(lambda: send(action))``; ``send`` calls the engine's ``act`` endpoint (bridge.call, JSON
text to the worker and back) and ``take`` keeps the reply (game JSON, the view, the events) and
saves it; ``pump`` shows each event (table.flow.show_event) on the display model and redraws
(table.view.render), asks for ``computer_move`` while the computer is to act, and finally offers
the next decision (table.prompt.set_waiting).
"""

import json

from dom import document, window

import bridge
from table import link, store
from table.state import S

S["settings"] = store.load_settings()  # read first: a link's first deal leaves with them now, and
link.deal_ahead(S["settings"])  # the engine deals it while the page imports the rest and binds itself

import board
import friend_play
from table import coach, finished, motion, pick, review
from table.flow import SHOWN, flow, on_pass, on_skip_key, on_skip_show, save, take, until_free
from table.prompt import WAITING_HOOKS, announce, set_waiting
from table.setup import (end_first_paint, fill_setup, is_same_link, offer_choice, on_again, on_cancel_setup,
                         on_change, on_choice_back, on_choice_new, on_new_game, on_setup_submit,
                         on_go_choice, on_lay_choice, on_speed, on_table_choice, open_setup, resume_game,
                         show_notices, start_game)
from table.state import NAMES, cap, discard_need, info, is_picking, q, seating_request
from table.view import render_stats


def on_hand_click(event):
    """A card in the person's hand: pick it for the crib, or lay it."""
    button = event.target.closest("button[data-card]")
    if button is None or S["busy"]:
        return None
    card = int(button.getAttribute("data-card"))
    waiting = S["waiting"]
    if is_picking():
        selected = S["selected"]
        if card in selected:
            selected.remove(card)
        else:
            selected.append(card)
            if len(selected) > discard_need():
                selected.pop(0)
        set_waiting(waiting)
        return None
    if waiting == "play":
        if button.getAttribute("aria-disabled") == "true":
            q("prompt").textContent = ("The " + info(card)["spoken"] + " would take the count past 31. "
                                       "Choose another card.")
            return None
        if not pick.is_second_tap(event, card):
            return None  # the first tap only raises the card: a slip of the finger costs nothing
        return flow(lambda: send({"type": "play", "card": card}))
    return None


def on_throw(event):
    """Throw the two picked cards to the crib (in a friend game whose other side is still to
    discard, as soon as the discard is the person's: ``throw_ahead``)."""
    if not is_picking() or len(S["selected"]) != discard_need():
        return None
    if S["waiting"] != "discard":
        S["ahead"] = list(S["selected"])
        set_waiting(S["waiting"])
        return None
    S["thrown"] = list(S["selected"])
    return flow(lambda: send({"type": "discard", "cards": list(S["thrown"])}))


def throw_ahead():
    """After every decision offered (prompt.WAITING_HOOKS): the person's discard is on offer and
    they threw ahead (their cards still in hand): throw those, once the page is free."""
    cards = S["ahead"]
    if S["waiting"] != "discard" or cards is None:
        return
    S["ahead"] = None
    if all(card in S["model"]["hand"] for card in cards):
        S["selected"] = list(cards)
        bridge.launch(throw_when_free())


async def throw_when_free():
    """``on_throw`` once the flow that offered the discard has ended."""
    await until_free()
    thrown = on_throw(None)
    if thrown is not None:
        await thrown


async def send(action):
    """Send the person's action; a refusal shows the engine's reason and changes nothing."""
    try:
        request = {"game": S["game"], "action": action}
        request.update(seating_request())
        reply = await friend_play.act_call(request)
    except bridge.EngineError as error:
        if error.kind != "bad_input":
            raise
        bridge.show_error(cap(error.message))  # the engine's reason; nothing has changed
        set_waiting(S["awaiting"])
        return False
    take(reply)
    return True


def on_count(event):
    """Muggins: claim the count typed in (a hand or crib), or the points of the card just laid."""
    if S["waiting"] not in ("count", "claim"):
        return None
    text = str(q("count-input").value).strip()
    message = q("count-message")
    if not text or not text.isdigit() or int(text) > 29:
        what = "your count" if S["waiting"] == "count" else "the card's points"
        message.textContent = "Enter " + what + " as a whole number from 0 to 29."
        return None
    kind = S["waiting"]
    return flow(lambda: claim(int(text), kind))


def on_no_points(event):
    """Muggins in the play: claim nothing for the card just laid."""
    if S["waiting"] != "claim":
        return None
    return flow(lambda: claim(0, "claim"))


async def claim(points, kind):
    """Send a muggins claim (a count, or a card's points in the play). A claim is final: the
    engine scores what the cards are worth, and the next seat takes what was missed, or the
    points claimed too many; the table then says which it was. ``kind``: "count" or "claim"."""
    try:
        request = {"game": S["game"], "action": {"type": kind, "points": points}}
        request.update(seating_request())
        reply = await friend_play.act_call(request)
    except bridge.EngineError as error:
        if error.kind != "bad_input":
            raise
        q("count-message").textContent = cap(error.message)
        set_waiting(kind)
        return False
    q("count-message").textContent = ""
    q("count-input").value = ""
    take(reply)
    return True


def on_continue(event):
    """Go, the next hand, or try again: carry on showing the game (after an engine that did not
    start, the step it failed on again: bridge.py starts the engine afresh)."""
    if S["waiting"] == "retry" and S.get("retry_step") is not None:
        step, S["retry_step"] = S["retry_step"], None
        return flow(step)
    if S["waiting"] in ("go", "next", "retry"):
        return flow()
    return None


def highlight(block, cards):
    """Light up these cards in a counted hand and dim the others (none: all plain)."""
    for face in block.querySelectorAll(".show-cards [data-card]"):
        card = int(face.getAttribute("data-card"))
        face.classList.toggle("is-highlighted", bool(cards) and card in cards)
        face.classList.toggle("is-dim", bool(cards) and card not in cards)


def record_of(index):
    """The show record drawn in block index."""
    shows = S["model"]["shown"] if S["model"] is not None else []
    return shows[index] if 0 <= index < len(shows) else None


def on_item_enter(event):
    """Hovering or focusing a scoring item lights up its cards."""
    button = event.target.closest(".show-item")
    if button is None:
        return
    index = int(button.getAttribute("data-block"))
    record = record_of(index)
    if record is None:
        return
    item = record["items"][int(button.getAttribute("data-item"))]
    highlight(button.closest(".show-block"), item["cards"])


def on_item_leave(event):
    """Leaving a scoring item puts the cards back."""
    button = event.target.closest(".show-item")
    if button is None:
        return
    block = button.closest(".show-block")
    highlight(block, [])


def on_show_click(event):
    """Step through a count phrase by phrase, or light up a tapped item."""
    step = event.target.closest(".step-button")
    if step is not None:
        index = int(step.getAttribute("data-step"))
        record = record_of(index)
        if record is None:
            return
        phrases = record.get("phrases") or []
        at = S["steps"].get(index, -1) + 1
        block = step.closest(".show-block")
        spoken = block.querySelector(".show-spoken")
        if at >= len(phrases):
            S["steps"][index] = -1
            highlight(block, [])
            spoken.textContent = spoken.getAttribute("data-full")
            step.textContent = "Step through"
            return
        S["steps"][index] = at
        phrase = phrases[at]
        cards = []
        for i in phrase["items"]:
            cards.extend(record["items"][i]["cards"])
        highlight(block, cards)
        spoken.textContent = cap(phrase["text"])
        step.textContent = "Next" if at + 1 < len(phrases) else "Show the whole count"
        announce(cap(phrase["text"]))
        return
    on_item_enter(event)


def on_other_tab(message):
    """Another tab has taken the game over: stop playing and saving here."""
    S["readonly"] = True
    set_waiting("")
    q("prompt").textContent = "This game is being played in another tab."


def on_take_back(game_json):
    """The person took the game back: resume the latest saved state here."""
    S["readonly"] = False
    kind = store.playing()
    if game_json is None:
        return flow(lambda: start_game(S["settings"]))
    return flow(lambda: resume_game(game_json, store.load_game_meta(kind), kind))


async def begin():
    """Put the first game on the table, then fill the statistics below it (their engine calls
    wait until the first decision is on offer). Binding the page and drawing the first table are
    two tasks on the main thread, not one: the table is drawn from the engine's reply."""
    await first_table()
    render_stats()


EARLY = {"pending": None, "form": None}
"""What was done to the setup before this module was ready (static/first-paint.js noted it): the
button clicked (``pending``, an id) and the form's values (``form``), acted on by first_table."""


def take_early():
    """Take over from static/first-paint.js: what it noted, and it stops listening."""
    try:
        noted = json.loads(str(window.cribbageEarly.take()))
    except Exception:  # the script did not run (an old cached page): nothing was noted
        return
    EARLY["pending"] = noted.get("pending")
    EARLY["form"] = noted.get("form")


def act_on_early():
    """The setup as the person left it before the page was ready, and the button they pressed
    (Deal, the deal of the day, a friend), pressed now."""
    form, pending = EARLY["form"], EARLY["pending"]
    EARLY["form"] = EARLY["pending"] = None
    if S["waiting"] != "setup":
        return
    setup_form = q("setup")
    if isinstance(form, dict):
        for name in ("table", "difficulty", "target"):
            value = form.get(name)
            radio = setup_form.querySelector('input[name="' + name + '"][value="' + str(value) + '"]')
            if value is not None and radio is not None:
                radio.checked = True
        if "setup-muggins" in form:
            q("setup-muggins").checked = bool(form["setup-muggins"])
        for field in ("name-0", "name-1"):
            if storage_text(form.get(field)):
                q(field).value = form[field][:20]
        on_table_choice()
    button = q(pending) if storage_text(pending) else None
    if button is not None:
        q("setup-message").textContent = ""  # static/first-paint.js's word that it would be done
    if button is not None and setup_form.contains(button) and not button.hidden:
        button.click()


def storage_text(value):
    return isinstance(value, str) and value != ""


async def first_table():
    """Decide what the table shows first (what static/first-paint.js guessed for the first
    paint: html[data-start], removed once the table is drawn), then act on a press of the setup's
    buttons made before the page was ready."""
    try:
        await choose_first_table()
    finally:
        end_first_paint()
    act_on_early()


async def choose_first_table():
    """A link's game (a ``?seed=`` link: a practice game, or a deal of the day, each kind in its
    own slot, apart from the game in progress), the saved game, or the setup. A link never ends a
    game in progress in its slot unless the person says so."""
    store.move_old_saves()
    practice = link.url_options(S["settings"])
    if await friend_play.open_address() or (practice is None and await friend_play.resume_current()):
        show_notices()
        return
    if practice is not None:
        kind = store.link_kind(practice["seed"])
        saved = store.load_game(kind)
        meta = store.load_game_meta(kind) if saved is not None else None
        if saved is not None and is_same_link(meta, practice):
            await flow(lambda: resume_game(saved, meta, kind))
        elif saved is not None and store.is_unfinished(kind):
            offer_choice(kind, saved, meta, practice)
        else:
            await flow(lambda: start_game(practice, practice["seed"], kind))
        show_notices()
        return
    saved = store.load_game(store.GAME)
    meta = store.load_game_meta(store.GAME) if saved is not None else None
    if saved is not None:
        await flow(lambda: resume_game(saved, meta, store.GAME))
    else:
        open_setup(False)
        q("prompt").textContent = ""
    show_notices()


def on_key(event):
    """The keyboard is in use: let the focus follow the game."""
    if event.key in ("Tab", "Enter", " ", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"):
        S["keyboard"] = True


def on_pointer(event):
    """A mouse or a finger is in use: leave the focus alone."""
    S["keyboard"] = False


def setup():
    """Bind the page; the table is usable (setup, speed) before the engine has loaded."""
    q("speed").value = S["settings"]["speed"]
    q("go-by-hand").checked = S["settings"].get("go") == "hand"
    q("lay-confirm").checked = S["settings"].get("lay") == "confirm"
    fill_setup(S["settings"])
    if document.documentElement.getAttribute("data-start") != "table":  # a game's board comes with its table
        board.render("#board", NAMES, S["settings"]["target"])
    q("game").setAttribute("data-target", str(S["settings"]["target"]))
    bridge.on("#my-hand", "click", on_hand_click)
    bridge.on("#throw-button", "click", on_throw)
    bridge.on("#go-button", "click", on_continue)
    bridge.on("#next-button", "click", on_continue)
    bridge.on("#skip-show", "click", on_skip_show)
    bridge.on("#retry-button", "click", on_continue)
    bridge.on("#count-form", "submit", on_count, prevent_default=True)
    bridge.on("#claim-none", "click", on_no_points)
    bridge.on("#setup", "submit", on_setup_submit, prevent_default=True)
    bridge.on("#again-button", "click", on_again)
    bridge.on("#change-button", "click", on_change)
    bridge.on("#new-game-button", "click", on_new_game)
    bridge.on("#cancel-setup", "click", on_cancel_setup)
    bridge.on("#slot-choice-back", "click", on_choice_back)
    bridge.on("#slot-choice-new", "click", on_choice_new)
    bridge.on("#speed", "change", on_speed)
    bridge.on("#go-by-hand", "change", on_go_choice)
    bridge.on("#lay-confirm", "change", on_lay_choice)
    WAITING_HOOKS.append(pick.note_offer)
    WAITING_HOOKS.append(throw_ahead)
    bridge.on("#pass-button", "click", on_pass)
    bridge.on("#setup-table", "change", on_table_choice)
    bridge.on("#show-area", "mouseover", on_item_enter)
    bridge.on("#show-area", "focusin", on_item_enter)
    bridge.on("#show-area", "mouseout", on_item_leave)
    bridge.on("#show-area", "focusout", on_item_leave)
    bridge.on("#show-area", "click", on_show_click)
    bridge.on(document, "keydown", on_key)
    bridge.on(document, "keydown", on_skip_key)
    bridge.on(document, "pointerdown", on_pointer)
    finished.bind()
    motion.setup(bridge.on)
    coach.setup(lambda: save(SHOWN))
    review.setup()
    store.watch_other_tabs(on_other_tab, on_take_back)
    friend_play.setup()
    take_early()  # from here on the page's own handlers answer
    if document.documentElement.getAttribute("data-start") != "setup":
        q("setup").hidden = True  # a new visitor's setup stays as first painted
    q("prompt").textContent = "Setting up the table\u2026"
    bridge.ui_ready()


setup()
bridge.start()
bridge.launch(begin())
