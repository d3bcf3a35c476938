"""The game page's card motion: cards travel from the deck at the deal, from a hand to the pile,
to the crib, and back out of the hands and the crib for the show.

Part of the game page (site_src/app/game.py is its entry point). flow.py calls ``before``
with each event before the table is redrawn (where the cards are now) and ``after`` once it is
redrawn (where they land); at the next frame, the landed cards get ``.is-arriving`` with
``--from-x``/``--from-y`` set to where they came from, and table-fit.css slides them home. Their
places are read then, in the frame's own layout: read at once, they made the browser lay the
newly drawn table out twice, once for the reading and again after the rest of the redraw. Quick
(a quarter of a second), skipped by any tap or key (``skip``), and never run when the person asks
for reduced motion or while a resumed game's last moves are shown again. #game[data-motion]
counts the moves made, #game[data-moved] names the last (the event that moved cards).
"""

from dom import document, window

import bridge

from cardview import elements
from table.state import S, humans, is_multi, q

STAGGER_MS = 45  # between the cards of one deal
DURATION_MS = 260  # as .is-arriving's animation in table-fit.css
MOVING = "is-arriving"


def is_reduced():
    """Does the person ask for reduced motion (or is there nothing to move)?"""
    try:
        return bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)
    except Exception:
        return True


def _rect(element):
    """An element's box, or None when it is not drawn (hidden, or no size)."""
    if element is None:
        return None
    box = element.getBoundingClientRect()
    if box.width <= 0 or box.height <= 0:
        return None
    return box


def _centre(box):
    return (box.left + box.width / 2, box.top + box.height / 2)


def _seat_box(seat):
    """Where another seat's cards are: the computer's hand, or its place in the seat list."""
    if is_multi():
        return _rect(document.querySelector('#seat-list [data-seat="' + str(seat) + '"]'))
    return _rect(q("cpu-hand")) or _rect(q("seat-cpu"))


def _edge(top):
    """A point at the top (the others' side) or the bottom (the person's) of the table."""
    felt = _rect(q("felt"))
    if felt is None:
        return None
    return (felt.left + felt.width / 2, felt.top + 20 if top else felt.bottom - 20)


def before(event):
    """Where the cards an event moves start from (a point), read before the table is redrawn;
    None when nothing moves."""
    if S["catching_up"] or S["skip_show"] or is_reduced():
        return None
    kind = event["type"]
    seat = event.get("seat")
    mine = seat == S["me"] and seat in humans() and not S["hidden"]
    if kind == "hand":
        return _deck  # the deck stays where it is while the hand is drawn: read it as the cards land
    if kind == "discard" or kind == "play":
        if mine:
            card = event.get("card")
            button = None
            if card is not None:
                button = q("my-hand").querySelector('[data-card="' + str(card) + '"]')
            elif S["thrown"]:
                button = q("my-hand").querySelector('[data-card="' + str(S["thrown"][0]) + '"]')
            box = _rect(button) or _rect(q("my-hand"))
            return _centre(box) if box is not None else _edge(False)
        box = _seat_box(seat)
        return _centre(box) if box is not None else _edge(True)
    if kind == "show":
        if event.get("show") == "crib":
            box = _rect(q("crib"))
            if box is not None:
                return _centre(box)
        return _edge(not mine)
    return None


def _deck():
    """Where dealt cards come from: the deck (the starter's place), else the crib or the far edge."""
    box = _rect(q("starter")) or _rect(q("crib"))
    return _centre(box) if box is not None else _edge(True)


def _targets(event):
    """The cards that landed for this event, as (CSS selector, index) pairs: the table is redrawn
    often, so a moving card is found again by where it is, not by its element."""
    kind = event["type"]
    if kind == "hand":
        return [('#my-hand button[data-card="' + str(button.getAttribute("data-card")) + '"]', 0)
                for button in elements(q("my-hand"), "button[data-card]")]
    if kind == "discard":
        size = len(elements(q("crib"), ".pcard"))
        return [("#crib .pcard", i) for i in range(max(0, size - int(event.get("count", 1))), size)]
    if kind == "play":
        size = len(elements(q("laid"), ".laid-item .pcard"))
        return [("#laid .laid-item .pcard", size - 1)] if size else []
    if kind == "show":
        blocks = len(elements(q("show-area"), ".show-block"))
        if not blocks:
            return []
        selector = "#show-area > .show-block:nth-child(" + str(blocks) + ") .show-cards .pcard"
        return [(selector, i) for i in range(len(elements(document, selector)))]
    return []


_moves = []  # [selector, index, start point, started (ms), delay (ms)] of the cards under way


def _now():
    return float(window.performance.now())


def after(event, start):
    """Send the landed cards on their way from ``start`` (see ``before``: a point, or a function
    that reads it at the next frame)."""
    if start is None:
        return
    now = _now()
    fresh = []
    for order, target in enumerate(_targets(event)):
        delay = order * STAGGER_MS if event["type"] == "hand" else 0
        fresh.append([target[0], target[1], start, now, delay])
    if not fresh:
        return
    _moves[:] = [move for move in _moves if move[3] + move[4] + DURATION_MS > now] + fresh
    game = q("game")
    game.setAttribute("data-motion", str(int(game.getAttribute("data-motion") or "0") + 1))
    game.setAttribute("data-moved", event["type"])
    replay()


def replay():
    """At the next frame, put the cards under way on the elements drawn then (a redraw makes new
    ones), each at the point of its journey it has reached."""
    if _moves:
        bridge.at_next_frame(_on_frame)


def _on_frame():
    _resolve_starts()
    _start()


def _resolve_starts():
    """Read the starting points left to be read now (``before``'s functions), each once."""
    read = {}
    for move in _moves:
        start = move[2]
        if callable(start):
            if start not in read:
                read[start] = start()
            move[2] = read[start]
    _moves[:] = [move for move in _moves if move[2] is not None]


def _start():
    """Every card's place is read before any is changed, so the page is laid out once, not once
    a card."""
    if not _moves:
        return
    now = _now()
    live = []
    starting = []  # [card, move, centre]
    for move in _moves:
        selector, index, start, started, delay = move
        if started + delay + DURATION_MS <= now:
            continue
        live.append(move)
        found = document.querySelectorAll(selector)
        if index >= found.length:
            continue
        card = found.item(index)
        if card.getAttribute("data-move") == str(int(started * 1000)):
            continue  # already on its way
        box = _rect(card)
        if box is not None:
            starting.append([card, move, _centre(box)])
    again = [card for card, _, _ in starting if card.classList.contains(MOVING)]
    for card in again:
        card.classList.remove(MOVING)
    if again:
        document.body.getBoundingClientRect()  # restart the animation of cards that moved before
    for card, move, centre in starting:
        start, started, delay = move[2], move[3], move[4]
        card.setAttribute("data-move", str(int(started * 1000)))
        card.style.setProperty("--from-x", str(int(start[0] - centre[0])) + "px")
        card.style.setProperty("--from-y", str(int(start[1] - centre[1])) + "px")
        card.style.setProperty("--motion-delay", str(int(delay - (now - started))) + "ms")
        card.classList.add(MOVING)
    _moves[:] = live


_pressed = []  # [card, time (ms)]: a card of the person's hand pressed while it was travelling
PRESS_KEPT_MS = 1500


def skip(event=None):
    """Any tap or key: every card still travelling lands at once.

    A card of the person's hand pressed on its way lands under the finger no more, so the click
    that follows reaches the table instead of the card: ``on_click`` gives it to the card.
    """
    _pressed[:] = []
    if _moves and event is not None and event.type == "pointerdown":
        target = event.target
        button = target.closest("#my-hand button[data-card]") if hasattr(target, "closest") else None
        if button is not None:
            _pressed[:] = [button.getAttribute("data-card"), _now()]
    _moves[:] = []
    try:
        for animation in document.getAnimations():
            if _is_finite(animation):
                animation.finish()
    except Exception:
        return


def _is_finite(animation):
    """Can this animation be finished (landed at once)? One that repeats forever cannot."""
    effect = animation.effect
    if effect is None:
        return False
    end = effect.getComputedTiming().endTime
    return end is not None and end == end and end < 1e300  # not NaN, not Infinity


def on_click(event):
    """A click after a card was pressed on its way (see ``skip``): if it missed the card, which
    has landed elsewhere meanwhile, the card gets it."""
    if not _pressed:
        return
    card, pressed_at = _pressed
    _pressed[:] = []
    target = event.target
    if hasattr(target, "closest") and target.closest("button[data-card]") is not None:
        return  # it reached the card itself
    if _now() - pressed_at > PRESS_KEPT_MS:
        return
    button = q("my-hand").querySelector('button[data-card="' + card + '"]')
    if button is not None:
        button.click()


def setup(on):
    """Bind the skipping (``on`` is bridge.on)."""
    on(document, "pointerdown", skip)
    on(document, "keydown", skip)
    on(document, "click", on_click)
