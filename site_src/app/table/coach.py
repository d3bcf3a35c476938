"""The coach on the game page: its panel, the Hints setting and the Hint button.

Part of the game page (site_src/app/game.py is its entry point). Runs in MicroPython on the main
thread. The engine does the work (engine/coach.py, through the ``hint``, ``review_hand`` and
``review_game`` endpoints); this module asks for it and draws the replies into ``#coach``
(site_src/templates/_coach.html), with DOM calls and textContent only.

- Hints (the "hints" setting, off by default): at the discard, the ranked discards as the
  calculator's discard helper shows them; at the play, the card to lay lit up in the hand with
  its reasons. Asking marks the game as played with hints (the engine's reply is the new game,
  which is saved).
- After each hand, "Review hand", and after the game, "Game summary" (review.py, which
  draws into the same panel).

Markers for tests: #coach[data-kind] is hint, review or summary while the panel shows one, and
#coach[data-ms] how long the last answer took to appear (milliseconds from the click); a hint on
the table sets the performance mark "hint-shown".
"""

import js
from dom import create_proxy, document

import bridge
import cardview
from cardview import card_texts, decimal
from table import store
from table.state import S, make, q, seating_request, shown
from table.view import render_hand

HINT_MARK = "hint-shown"
HINT_WAITS = ("discard", "play")
KIND_WAITS = {"hint": HINT_WAITS, "review": ("next", "over"), "summary": ("over",)}
NET_NOTE = ("Expected points. Net: the hand's average over every starter, plus the crib's when "
            "the crib is yours, minus it when it is the other side's.")
PLAY_NOTE = ("Cost: the expected points a card gives up against the best one, weighing what it scores "
             "now against what the other side can make in reply.")
WORKING = "Working it out\u2026"

COACH = {
    "kind": "",        # what the panel shows: "", hint, review or summary
    "game": None,      # the game text the panel's content belongs to
    "save": None,      # saves the game after a hint marks it (flow.save, set by setup)
    "asking": False,   # a coach call is on its way
    "prepared": None,  # the game text whose hint the engine has been asked to work out
    "code": None,      # the reviewed game's share code, for links into its replay (review.py)
    "listeners": [],   # event proxies kept alive for the page's lifetime
}


# --- when the coach is offered -----------------------------------------------------------------


def is_on():
    """True when the player has turned hints on."""
    return bool(S["settings"].get("hints"))


SEALED_GAME = '"format":"cribbage-sealed-friend-'  # a sealed friend game's text, any version (engine/friend_sealed.py)


def can_coach():
    """The coach works for one person against the computer (never on a shared device, where it
    would show one person's cards to the other, nor in a sealed friend game before it ends: this
    page does not know the other hand)."""
    game = S["game"]
    return game is not None and not S["passing"] and not S["readonly"] and SEALED_GAME not in game


def can_hint(waiting):
    """True when a Hint button belongs on the table for this decision."""
    return is_on() and can_coach() and waiting in HINT_WAITS


def on_waiting(waiting):
    """The decision on offer changed (prompt.set_waiting): show the coach's buttons that
    fit it, and close a panel that belongs to another moment of the game."""
    shown("hint-button", can_hint(waiting))
    shown("review-button", can_coach() and waiting in ("next", "over"))
    shown("summary-button", can_coach() and waiting == "over")
    kind = COACH["kind"]
    if kind and (COACH["game"] != S["game"] or waiting not in KIND_WAITS[kind]):
        close()
    if can_hint(waiting) and COACH["prepared"] != S["game"]:
        COACH["prepared"] = S["game"]
        bridge.launch(prepare(S["game"]), quiet=True)


async def prepare(game):
    """Let the engine work out the hint while the player looks at the cards (ranking the discards
    takes a few hundred milliseconds there), so that the Hint button answers at once."""
    request = {"game": game}
    request.update(seating_request())
    await bridge.call("prepare_hint", request)


# --- the panel ---------------------------------------------------------------------------------


def open_panel(kind, title):
    """Show the panel for this kind of content, empty but for its title."""
    if COACH["kind"] == "hint" and kind != "hint":
        light([])
    COACH["kind"] = kind
    COACH["game"] = S["game"]
    panel = q("coach")
    panel.setAttribute("data-kind", kind)
    panel.removeAttribute("data-ms")
    q("coach-title").textContent = title
    body = q("coach-body")
    body.replaceChildren()
    panel.hidden = False
    return body


def close(event=None):
    """Hide the panel (and the hint's lit cards)."""
    if COACH["kind"] == "hint":
        light([])
    COACH["kind"] = ""
    COACH["game"] = None
    panel = q("coach")
    panel.hidden = True
    panel.setAttribute("data-kind", "")
    q("coach-body").replaceChildren()
    q("hint-button").setAttribute("aria-expanded", "false")


def light(cards):
    """Light up these cards in the player's hand (the hint's choice); none puts them back."""
    S["hint_cards"] = list(cards)
    if S["model"] is not None:
        render_hand(S["model"])


def mark_scroll(event=None):
    """Mark each of the panel's tables that is wider than the panel with the side that has more
    to see (data-more: left, right or both; coach.css fades that edge), or none."""
    for wrap in cardview.elements(q("coach"), ".coach-table-wrap"):
        hidden = wrap.scrollWidth - wrap.clientWidth
        left = wrap.scrollLeft > 1
        right = wrap.scrollLeft < hidden - 1
        more = "both" if left and right else ("left" if left else ("right" if right else ""))
        if more:
            wrap.setAttribute("data-more", more)
        else:
            wrap.removeAttribute("data-more")


def reveal(panel_start):
    """The answer is drawn: note how long it took and keep the panel in view."""
    elapsed = int(js.performance.now() - panel_start)
    q("coach").setAttribute("data-ms", str(elapsed))
    mark_scroll()
    box = q("coach").getBoundingClientRect()
    if box.bottom > js.window.innerHeight or box.top < 0:
        q("coach").scrollIntoView(False)


def text_line(parent, cls, *parts):
    """A paragraph of text and cards: each part is a string or a list of cards (ints, or the
    engine's display data)."""
    line = make("p", cls)
    write(line, parts)
    parent.append(line)
    return line


def write(element, parts):
    """Append text and cards to an element (see text_line)."""
    for part in parts:
        if isinstance(part, list):
            if part and not isinstance(part[0], dict):
                part = [S["cards"].get(str(c)) or card_stub(c) for c in sorted(part, key=held_order)]
            card_texts(element, part)
        else:
            element.append(document.createTextNode(part))


def held_order(card):
    """Sort key for cards as players hold them: by rank (ace low), then suit (the engine's order)."""
    return (card % 13, card // 13)


def card_stub(card):
    """Display data for a card the page was not told about (never expected)."""
    return {"name": str(card), "pretty": "?", "spoken": "a card", "suit": ""}


def names(cards):
    """The short names of cards, for the calculator's address."""
    return ",".join((S["cards"].get(str(c)) or card_stub(c))["name"] for c in cards)


def points(value):
    """"2.31 points", "1 point"."""
    text = decimal(value)
    return text + (" point" if text == "1.00" else " points")


# --- hints -------------------------------------------------------------------------------------


def on_hint(event=None):
    """The Hint button (or the H key): ask the engine, or close the hint on show."""
    if COACH["kind"] == "hint" and COACH["game"] == S["game"]:
        close()
        return None
    if S["busy"] or COACH["asking"] or not can_hint(S["waiting"]):
        return None
    return ask_hint()


async def ask_hint():
    """Ask for the hint (the page waits: no card moves meanwhile), keep the game it marks, draw it."""
    started = js.performance.now()
    waiting = S["waiting"]
    request = {"game": S["game"]}
    request.update(seating_request())
    S["busy"] = True
    COACH["asking"] = True
    try:
        reply = await bridge.call("hint", request)
    finally:
        S["busy"] = False
        COACH["asking"] = False
    S["game"] = reply["game"]
    S["cards"].update(reply["cards"])
    if COACH["save"] is not None:
        COACH["save"]()
    if S["waiting"] != waiting:
        return
    hint = reply["hint"]
    if hint["phase"] == "discard":
        draw_discard_hint(hint)
    else:
        draw_play_hint(hint)
    q("hint-button").setAttribute("aria-expanded", "true")
    reveal(started)
    js.performance.mark(HINT_MARK)


def crib_words(dealer):
    """Whose crib the discards go to, for the hint's caption."""
    if dealer:
        return "your side's crib" if S["players"] == 4 else "your crib"
    return "the other side's crib" if S["players"] > 2 else "the computer's crib"


def draw_discard_hint(hint):
    """The ranked discards, best first, the way the calculator's discard helper shows them."""
    options = hint["options"]
    body = open_panel("hint", "Hint: what to throw to " + crib_words(hint["dealer"]))
    best = options[0]
    text_line(body, "coach-lead", "Best: keep ", best["keep_cards"], ", throw ", best["throw_cards"], ".")
    caption = make("p", "coach-caption", "The " + str(len(options)) + " ways to throw, best first")
    caption.id = "coach-caption"
    body.append(caption)
    wrap = make("div", "table-wrap coach-table-wrap")
    wrap.setAttribute("role", "region")
    wrap.setAttribute("tabindex", "0")
    wrap.setAttribute("aria-labelledby", "coach-caption")
    table = make("table", "discard-ranking coach-discards")
    table.setAttribute("aria-labelledby", "coach-caption")
    head = make("thead")
    row = make("tr")
    crib = "Crib (yours)" if hint["dealer"] else "Crib (theirs)"
    for label, cls in (("#", "num"), ("Keep", None), ("Throw", None), ("Net", "num"), ("Hand", "num"),
                       (crib, "num"), ("Hand range", "num coach-range")):
        cell = make("th", cls, label)
        cell.setAttribute("scope", "col")
        row.append(cell)
    head.append(row)
    rows = make("tbody")
    for option in options:
        line = cardview.discard_row(option)
        line.lastElementChild.classList.add("coach-range")
        rows.append(line)
    table.append(head, rows)
    wrap.append(table)
    body.append(wrap)
    body.append(make("p", "coach-note", NET_NOTE))
    light(best["throw"])


def draw_play_hint(hint):
    """The card to lay, lit up in the hand, with its reasons; the other cards with their cost."""
    cards = hint["cards"]
    best = cards[0]
    body = open_panel("hint", "Hint: lay the " + best["spoken"])
    text_line(body, "coach-lead", "Lay ", [best["card"]], ": " + reason_words(best) + ".")
    others = cards[1:]
    if others:
        listing = make("ul", "coach-others")
        listing.setAttribute("aria-label", "The other cards")
        for other in others:
            item = make("li")
            item.setAttribute("data-card", str(other["card"]))
            text_line(item, None, "", [other["card"]], " costs " + points(other["loss"])
                      + (": " + reason_words(other) if other["reasons"] else "") + ".")
            listing.append(item)
        body.append(listing)
        body.append(make("p", "coach-note", PLAY_NOTE))
    light([best["card"]])


def reason_words(card):
    """A card's reasons in a few words ("scores 2 now; 3 unseen cards could make 31 on it")."""
    return "; ".join(card["reasons"]) if card["reasons"] else "the safest card"


# --- the setting and the keys ------------------------------------------------------------------


def on_setting(event):
    """The Hints switch: keep it in the settings and show or hide the Hint button at once."""
    settings = dict(S["settings"])
    settings["hints"] = bool(q("hints-setting").checked)
    S["settings"] = store.save_settings(settings)
    if not is_on() and COACH["kind"] == "hint":
        close()
    on_waiting(S["waiting"])


def on_key(event):
    """H asks for a hint (not while typing, not with a modifier key)."""
    if event.key not in ("h", "H") or event.ctrlKey or event.metaKey or event.altKey or event.repeat:
        return None
    target = event.target
    tag = str(target.tagName).lower() if target is not None and target.tagName else ""
    if tag in ("input", "textarea", "select") or not can_hint(S["waiting"]):
        return None
    return on_hint(event)


def setup(save):
    """Bind the coach's controls; ``save()`` saves the game once a hint has marked it."""
    COACH["save"] = save
    q("hints-setting").checked = is_on()
    bridge.on("#hints-setting", "change", on_setting)
    bridge.on("#hint-button", "click", on_hint)
    bridge.on("#coach-close", "click", close)
    bridge.on(document, "keydown", on_key)
    scrolled = create_proxy(mark_scroll)  # scroll does not bubble: caught on its way down
    resized = create_proxy(mark_scroll)
    COACH["listeners"] = [scrolled, resized]
    q("coach").addEventListener("scroll", scrolled, True)
    js.window.addEventListener("resize", resized)
