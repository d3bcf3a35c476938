"""The game page's two-tap play: a first tap or click raises a card, a second one lays it.

Part of the game page (site_src/app/game.py is its entry point). A card laid cannot be taken
back, so a pointer lays a card only with a second tap on the same card; the keyboard (Enter or
Space on a focused card, a click with no pointer behind it) lays it at once, as a keyboard
player has already chosen by moving the focus. The raised card is ``S["selected"]`` while the
play is on offer (table_view marks it .is-selected; a redraw of the engine's view clears it).
"""

from table_state import S, info, q
from table_view import render_hand


def is_second_tap(event, card):
    """Should this click on a playable card lay it? If not, the card is raised and the prompt
    says how to lay it."""
    if not event.detail or S["selected"] == [card]:  # the keyboard, or the second tap
        S["selected"] = []
        return True
    S["selected"] = [card]
    render_hand(S["model"])
    q("prompt").textContent = "Tap the " + info(card)["spoken"] + " again to lay it, or pick another card."
    return False
