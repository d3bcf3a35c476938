"""The game page's play of a card: one click of a mouse lays it; a tap raises it, a second lays it.

Part of the game page (site_src/app/game.py is its entry point). A card laid cannot be taken
back. A mouse is precise, so one click lays the card, as in the best card apps, unless the player
asked to confirm each card (the "lay" setting) or the click comes just as the play is offered
(the hand may have moved under the pointer): then, and always for a finger or a pen, the first
tap raises the card and a second tap on it lays it. The keyboard (Enter or Space on a focused
card, a click with no pointer behind it) lays it at once, as a keyboard player has already
chosen by moving the focus. The raised card is ``S["selected"]`` while the play is on offer
(view.py marks it .is-selected; a redraw of the engine's view clears it).
"""

import js

from table.state import S, info, q
from table.view import render_hand

SETTLE_MS = 350  # a click this soon after the play is offered only raises the card
_offered = [0.0]  # when the play was last offered (ms)


def note_offer():
    """After every decision offered (prompt.WAITING_HOOKS): remember when the play was."""
    if S["waiting"] == "play":
        _offered[0] = float(js.Date.now())


def is_precise(event):
    """True for a click made with a mouse (a PointerEvent's pointerType; where a browser gives
    none, whether the page's main pointer is fine)."""
    kind = str(getattr(event, "pointerType", "") or "")
    if kind:
        return kind == "mouse"
    return bool(js.window.matchMedia("(pointer: fine)").matches)


def is_second_tap(event, card):
    """Should this click on a playable card lay it? If not, the card is raised and the prompt
    says how to lay it."""
    if not event.detail or S["selected"] == [card]:  # the keyboard, or the second tap
        S["selected"] = []
        return True
    if (is_precise(event) and S["settings"].get("lay") != "confirm"
            and float(js.Date.now()) - _offered[0] >= SETTLE_MS):
        S["selected"] = []
        return True
    S["selected"] = [card]
    render_hand(S["model"])
    q("prompt").textContent = ("Tap the " + info(card)["spoken"] + " again to lay it, or pick another card."
                               if not is_precise(event) else
                               "Click the " + info(card)["spoken"] + " again to lay it, or pick another card.")
    return False
