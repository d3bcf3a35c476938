"""The game page's view: keep the table in the window while a game is played.

Part of the game page (site_src/app/game.py is its entry point). The table is laid out
(table-fit.css) to fit the window's height; ``keep_in_view`` scrolls the page just enough to show
all of it when a decision is offered or a hand is being counted, and never pulls the page back
while the person is reading something else on it. It reads the table's place at the next frame,
in the layout the browser makes for that frame, not in one forced at once on a table just redrawn.
"""

from dom import window

import bridge

from table.state import q

MARGIN = 6  # pixels left between the table and the window's edge


def is_watched(box, height):
    """Is the table at least partly in the window (the person is at the table)?"""
    return box.bottom > 0 and box.top < height


_asked = []  # [focus]: the part to show, while a frame is asked for (keep_in_view)


def keep_in_view(focus=None):
    """At the next frame, scroll the least that brings the whole table into the window; a table
    taller than the window brings ``focus`` (the part the decision needs) into view instead. Asked
    again before that frame, the latest ``focus`` counts."""
    _asked[:] = [focus]
    bridge.at_next_frame(_on_frame)


def _on_frame():
    focus = _asked[0] if _asked else None
    _asked[:] = []
    _scroll_into_view(focus)


def _scroll_into_view(focus):
    """keep_in_view's scrolling, now."""
    felt = q("felt")
    if felt is None:
        return
    box = felt.getBoundingClientRect()
    height = window.innerHeight
    if not is_watched(box, height):
        return
    if box.top >= 0 and box.bottom <= height:
        return
    if box.height + 2 * MARGIN <= height:
        if box.top < 0:
            window.scrollBy(0, box.top - MARGIN)
        else:
            window.scrollBy(0, min(box.bottom - height + MARGIN, box.top - MARGIN))
        return
    target = focus if focus is not None else felt
    part = target.getBoundingClientRect()
    if part.top < 0 or part.height >= height:
        window.scrollBy(0, part.top - MARGIN)
    elif part.bottom > height:
        window.scrollBy(0, part.bottom - height + MARGIN)
