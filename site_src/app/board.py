"""The cribbage board on a page: an SVG peg board whose pegs follow the scores.

Runs in MicroPython on the main thread (keep to the subset). board_draw.py draws the board (its
streets, lanes, holes and skunk lines); this module puts it in the page, in the geometry that
suits the width, and moves the pegs. The game page's first paint already holds the board of a
new two-player game to 121, drawn by the build from the same code; ``render`` takes that one
over instead of drawing it again.

Each player has two pegs. When a score changes, the back peg leapfrogs to the new score and the
old front peg becomes the back one, as on a real board; with prefers-reduced-motion (or
``animate=False``) the pegs jump without moving.

The SVG is one string built from numbers and fixed words only; player names go into the page
through ``textContent`` and ``aria-label``, never as markup. The board is role="img" with an
aria-label stating both scores, updated on every change.

    import board
    board.render("#board", ["You", "Computer"], target=121)
    board.set_scores([12, 7])                  # pegs move
    board.set_scores([57, 40], animate=False)  # a resumed game: no movement
"""

from dom import create_proxy, document, window

import bridge
from board_draw import (COMPACT, COMPACT_QUERY, SKUNK_LINES, WIDE, board_svg, coord, hole_xy, label_text,
                        legend_markup)

BOARD_CSS = "static/board.css"
FIRST_PAINT = "data-first-paint"
"""On the game page's container: the build drew the board for its first paint (two players, 121
points, both geometries); ``render`` takes it over when the game is that one."""

_geo = dict(WIDE)
_board = {"svg": None, "legend": None, "names": [], "target": 121, "scores": [], "pegs": [],
          "container": None, "watching": False, "geometry": None}
_proxies = []
_svg_cache = {}  # (target, lanes, geometry) -> markup


def _lanes():
    return max(2, len(_board["names"]))


def _ensure_css():
    """Link board.css if the page has not (pages that show the board link it themselves, most
    often inside the page's joined stylesheet, whose link lists the sheets it holds)."""
    if document.querySelector('link[href$="board.css"], link[data-sheets~="board"]') is not None:
        return
    link = document.createElement("link")
    link.rel = "stylesheet"
    link.href = bridge.root() + BOARD_CSS
    document.head.append(link)


def _is_compact():
    try:
        return bool(window.matchMedia(COMPACT_QUERY).matches)
    except Exception:
        return False


def _relayout(event=None):
    """Redraw in the geometry that suits the new width, keeping the pegs where they are."""
    container = _board["container"]
    if container is None or _board["svg"] is None:
        return
    positions = peg_positions()
    scores = list(_board["scores"])
    render(container, _board["names"], _board["target"])
    for lane in range(min(len(positions), len(_board["pegs"]))):
        _board["pegs"][lane][0][1] = positions[lane][0]
        _board["pegs"][lane][1][1] = positions[lane][1]
    _board["scores"] = scores
    _place_all(False)
    _label()


def _watch_width():
    if _board["watching"]:
        return
    _board["watching"] = True
    try:
        handler = create_proxy(_relayout)
        _proxies.append(handler)
        window.matchMedia(COMPACT_QUERY).addEventListener("change", handler)
    except Exception:
        pass


def render(container_selector, names, target=121):
    """Draw the board for these player names (two, or three) in the container; pegs at the start.

    ``target`` is 121 or 61. Calling it again for a new game puts the pegs back at the start,
    redrawing the board only if the number of players, the target or the geometry differ (other
    names only change the legend and the label).
    """
    _ensure_css()
    _watch_width()
    _geo.update(COMPACT if _is_compact() else WIDE)
    container = bridge.element(container_selector)
    names = [str(name) for name in names] or ["You", "Computer"]
    if target not in SKUNK_LINES:
        target = 121
    if (_board["svg"] is not None and container == _board["container"] and max(2, len(names)) == _lanes()
            and target == _board["target"] and _board["geometry"] == _geo["peg_r"]
            and container.contains(_board["svg"])):
        if names != _board["names"]:
            _board["names"] = names
            _name_lanes(names)
            _label()
        return _restart()
    _board["geometry"] = _geo["peg_r"]
    _board["names"] = names
    _board["target"] = target
    _board["container"] = container
    lanes = _lanes()
    drawn = _first_paint_board(container, target, lanes)
    if drawn is None:
        drawn = _draw(container, target, lanes)
    figure, legend = drawn
    figure.setAttribute("role", "img")
    _board["svg"] = figure
    _board["legend"] = legend
    _name_lanes(names)
    _board["scores"] = [0] * lanes
    # pegs[lane] = [[element, position], [element, position]]; index 0 is the front peg.
    _board["pegs"] = []
    for lane in range(lanes):
        front = figure.querySelector('[data-peg="' + str(lane) + '-0"]')
        back = figure.querySelector('[data-peg="' + str(lane) + '-1"]')
        _board["pegs"].append([[front, 0], [back, -1]])
    _place_all(False, fresh=True)
    _label()
    return figure


def _name_lanes(names):
    """The players' names in the legend (as text, never markup)."""
    for lane, item in enumerate(_board["legend"].querySelectorAll(".crib-board-name")):
        item.textContent = names[lane] if lane < len(names) else ""


def _first_paint_board(container, target, lanes):
    """(figure, legend) of the board the build drew for the first paint, in the geometry in use,
    the other geometry's removed; None if there is none, or the game needs another board."""
    if not container.hasAttribute(FIRST_PAINT):
        return None
    container.removeAttribute(FIRST_PAINT)  # taken over now, or drawn again below
    figure = container.querySelector('.crib-board-svg[data-geometry="' + _geo["name"] + '"]')
    legend = container.querySelector(".crib-board-legend")
    if (figure is None or legend is None or target != 121 or lanes != 2
            or legend.querySelectorAll(".crib-board-player").length != lanes):
        return None
    for other in container.querySelectorAll(".crib-board-frame"):
        if not other.contains(figure):
            other.remove()
    return figure, legend


def _draw(container, target, lanes):
    """(figure, legend): the board drawn into the container (names filled in by ``render``)."""
    container.replaceChildren()
    container.classList.add("crib-board")
    container.setAttribute("data-target", str(target))
    frame = document.createElement("div")
    frame.className = "crib-board-frame"
    frame.setAttribute("data-geometry", _geo["name"])
    key = (target, lanes, _geo["name"])
    if key not in _svg_cache:
        _svg_cache[key] = board_svg(_geo, target, lanes)
    frame.innerHTML = _svg_cache[key]
    container.append(frame)
    container.insertAdjacentHTML("beforeend", legend_markup(lanes))
    return frame.firstElementChild, container.lastElementChild


def _restart():
    """The board as it is, every peg back at the start (a new game with the same players)."""
    lanes = len(_board["pegs"])
    if _board["scores"] != [0] * lanes or any(pegs[0][1] != 0 or pegs[1][1] != -1 for pegs in _board["pegs"]):
        for pegs in _board["pegs"]:
            pegs[0][1] = 0
            pegs[1][1] = -1
        _board["scores"] = [0] * lanes
        _place_all(False)
        _label()
    return _board["svg"]


def _place(element, lane, position):
    x, y = hole_xy(_geo, _lanes(), _board["target"], lane, position)
    element.style.transform = "translate(" + coord(x) + "px, " + coord(y) + "px)"
    element.setAttribute("data-hole", str(position))


def _place_all(animate, fresh=False):
    """Put every peg in its hole; ``animate=False`` jumps instead of moving. ``fresh``: the pegs
    were just drawn, so nothing can move yet and the jump needs no forced layout."""
    svg = _board["svg"]
    if svg is None:
        return
    if fresh:
        animate = True
    if not animate:
        svg.classList.add("is-still")
    for lane in range(len(_board["pegs"])):
        for index in range(2):
            element, position = _board["pegs"][lane][index]
            _place(element, lane, position)
            element.classList.toggle("is-front", index == 0)
    if not animate:
        svg.getBoundingClientRect()  # apply the jump before transitions come back
        svg.classList.remove("is-still")


def _label():
    """Update the accessible label and the legend with the current scores."""
    text = label_text(_board["target"], _board["names"], _board["scores"][:_lanes()])
    if _board["svg"] is not None:
        _board["svg"].setAttribute("aria-label", text)
    legend = _board["legend"]
    if legend is not None:
        for lane, item in enumerate(legend.querySelectorAll(".crib-board-score")):
            item.textContent = str(_board["scores"][lane])
    return text


def label():
    """The board's current accessible label (what a screen reader hears)."""
    return _label()


def _reduced_motion():
    try:
        return bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)
    except Exception:
        return False


def set_scores(scores, animate=True, backs=None):
    """Move the pegs to these scores (by lane; extra entries are ignored).

    For each changed score the back peg leapfrogs to the new score and the front one becomes the
    back peg; an unchanged score moves nothing. A lower score than before (a new or reloaded
    game) places the pegs directly. ``backs`` optionally gives the back pegs' scores (a resumed
    game); otherwise a back peg stays where it is. No movement if reduced motion is preferred.
    """
    if _board["svg"] is None:
        return
    animate = animate and not _reduced_motion()
    target = _board["target"]
    for lane in range(min(len(scores), len(_board["pegs"]))):
        new = max(0, min(int(scores[lane]), target))
        pegs = _board["pegs"][lane]
        front = pegs[0][1]
        if backs is not None and lane < len(backs) and backs[lane] is not None:
            back = max(-1, min(int(backs[lane]), new - 1))
            if back == 0 and new == 0:
                back = -1
            if new != front or pegs[1][1] != back:
                pegs[0][1] = new
                pegs[1][1] = back
        elif new > front:
            pegs[0], pegs[1] = pegs[1], pegs[0]
            pegs[0][1] = new
        elif new < front:
            pegs[0][1] = new
            pegs[1][1] = -1
        _board["scores"][lane] = max(0, int(scores[lane]))
    _place_all(animate)
    _label()


def peg_positions():
    """[[front, back], ...] by lane: the holes the pegs are in (0 and -1 are the start holes)."""
    return [[pegs[0][1], pegs[1][1]] for pegs in _board["pegs"]]
