"""The game page's view: keep the table in the window while a game is played.

Part of the game page (site_src/app/game.py is its entry point). The table is laid out
(table-fit.css) to fit the window's height; ``keep_in_view`` scrolls the page just enough to show
all of it when a decision is offered or a hand is being counted, and never pulls the page back
while the person is reading something else on it.
"""

from dom import window

from table.state import q

MARGIN = 6  # pixels left between the table and the window's edge


def is_watched(box, height):
    """Is the table at least partly in the window (the person is at the table)?"""
    return box.bottom > 0 and box.top < height


def keep_in_view(focus=None):
    """Scroll the least that brings the whole table into the window; a table taller than the
    window brings ``focus`` (the part the decision needs) into view instead."""
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
