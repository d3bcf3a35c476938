"""The cribbage board: an SVG peg board whose pegs follow the scores.

Runs in MicroPython on the main thread (keep to the subset). The board is laid out in three
streets that the track snakes through (1-40 left to right, 41-80 back, 81-120 forward again,
then the game hole), each street holding one lane of holes per player, in groups of five as on
a wooden board. Two start holes per lane sit before hole 1; the skunk line (between 90 and 91)
and the double-skunk line (between 60 and 61) cross the lanes. A 61-point game uses the same
board at half length: three streets of 20 holes, the game hole at 61 and the skunk line between
30 and 31 (no double skunk there).

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

BOARD_CSS = "static/board.css"
SVG_NS = "http://www.w3.org/2000/svg"
STREETS = 3
GROUP = 5
COMPACT_QUERY = "(max-width: 599px)"

# Geometry in SVG user units: the roomy board for wide screens, a tighter one with bigger pegs
# for phones (the board is scaled to the container's width either way).
WIDE = {"pitch": 10, "group_gap": 6, "lane": 11, "street_gap": 17, "pad_x": 14, "pad_y": 13,
        "start_w": 30, "end_w": 30, "hole_r": 2.3, "peg_r": 3.9, "game_r": 4.6}
COMPACT = {"pitch": 10, "group_gap": 4, "lane": 12.5, "street_gap": 16, "pad_x": 7, "pad_y": 13,
           "start_w": 25, "end_w": 26, "hole_r": 2.7, "peg_r": 5.2, "game_r": 5.4}

PEG_COLOURS = (("#c8372d", "#7a1a14"), ("#2360b8", "#123668"), ("#e0a21a", "#7d5606"))
LANE_TINTS = ("#b3342b", "#1f5aad", "#c98f12")
SKUNK_LINES = {121: (90, 60), 61: (30,)}

_geo = dict(WIDE)
_board = {"svg": None, "legend": None, "names": [], "target": 121, "scores": [], "pegs": [],
          "container": None, "watching": False, "geometry": None}
_proxies = []
_svg_cache = {}  # (target, lanes, geometry) -> markup


def _n(value):
    """A coordinate as short text (whole numbers without a decimal point)."""
    if value == int(value):
        return str(int(value))
    return str(round(value * 10) / 10)


def street_length(target):
    """Holes per street: 40 for the 121-point game, 20 for the 61-point game."""
    return (target - 1) // STREETS


def _lanes():
    return max(2, len(_board["names"]))


def _street_width(target):
    per = street_length(target)
    return (per - 1) * _geo["pitch"] + (per // GROUP - 1) * _geo["group_gap"]


def _street_top(street):
    return _geo["pad_y"] + street * ((_lanes() - 1) * _geo["lane"] + _geo["street_gap"])


def size(target):
    """The board's (width, height) in SVG user units."""
    width = _geo["pad_x"] + _geo["start_w"] + _street_width(target) + _geo["end_w"] + _geo["pad_x"]
    height = 2 * _geo["pad_y"] + STREETS * (_lanes() - 1) * _geo["lane"] + (STREETS - 1) * _geo["street_gap"]
    return width, height


def hole_xy(target, lane, score):
    """Centre of a lane's hole for a score: 0 and -1 are the start holes, target the game hole."""
    left = _geo["pad_x"] + _geo["start_w"]
    if score <= 0:
        y = _street_top(0) + lane * _geo["lane"]
        return left - 12 + score * _geo["pitch"], y
    if score >= target:
        last = STREETS - 1
        x = left + _street_width(target) + _geo["end_w"] / 2 + 2
        y = _street_top(last) + (_lanes() - 1) * _geo["lane"] / 2
        return x, y
    per = street_length(target)
    street = (score - 1) // per
    i = (score - 1) % per
    if street % 2 == 1:
        i = per - 1 - i
    x = left + i * _geo["pitch"] + (i // GROUP) * _geo["group_gap"]
    y = _street_top(street) + lane * _geo["lane"]
    return x, y


def _line_x(target, score):
    """x of the line between hole score and score + 1 (they share a street here)."""
    a = hole_xy(target, 0, score)[0]
    b = hole_xy(target, 0, score + 1)[0]
    return (a + b) / 2


def board_svg(target, lanes):
    """The board's SVG markup (numbers and fixed words only), without the pegs' positions."""
    width, height = size(target)
    per = street_length(target)
    left = _geo["pad_x"] + _geo["start_w"]
    sw = _street_width(target)
    out = []
    add = out.append
    add('<svg xmlns="' + SVG_NS + '" class="crib-board-svg" viewBox="0 0 ' + _n(width) + " "
        + _n(height) + '" preserveAspectRatio="xMidYMid meet" focusable="false">')
    add('<defs><linearGradient id="board-wood" x1="0" y1="0" x2="0" y2="1">'
        '<stop offset="0" stop-color="#d9a566"/><stop offset="0.45" stop-color="#c48a4a"/>'
        '<stop offset="1" stop-color="#a56a32"/></linearGradient>'
        '<radialGradient id="board-hole" cx="0.4" cy="0.35" r="0.7">'
        '<stop offset="0" stop-color="#2a1707"/><stop offset="1" stop-color="#4a2c12"/>'
        '</radialGradient></defs>')
    # The plank, its bevel and a little grain.
    add('<rect x="1" y="1" width="' + _n(width - 2) + '" height="' + _n(height - 2)
        + '" rx="9" fill="url(#board-wood)" stroke="#6e4219" stroke-width="1.5"/>')
    add('<rect x="4" y="4" width="' + _n(width - 8) + '" height="' + _n(height - 8)
        + '" rx="7" fill="none" stroke="#f3cf98" stroke-opacity="0.35" stroke-width="1"/>')
    grain = []
    for k in range(7):
        y = 8 + k * (height - 16) / 6
        bend = 3 if k % 2 else -3
        grain.append("M6 " + _n(y) + " C" + _n(width * 0.3) + " " + _n(y + bend) + " "
                     + _n(width * 0.6) + " " + _n(y - bend) + " " + _n(width - 6) + " " + _n(y + bend / 2))
    add('<path d="' + " ".join(grain) + '" fill="none" stroke="#8a5526" stroke-opacity="0.16" '
        'stroke-width="0.8"/>')
    # Grooves where the track turns from one street into the next.
    for street in range(STREETS - 1):
        top = _street_top(street)
        bottom = _street_top(street + 1) + (lanes - 1) * _geo["lane"]
        if street % 2 == 0:
            x = left + sw + 7
            sweep = "1"
        else:
            x = left - 7
            sweep = "0"
        add('<path d="M' + _n(x) + " " + _n(top - 4) + " A" + _n((bottom - top) / 2 + 4) + " "
            + _n((bottom - top) / 2 + 4) + " 0 0 " + sweep + " " + _n(x) + " " + _n(bottom + 4)
            + '" fill="none" stroke="#6e4219" stroke-opacity="0.35" stroke-width="1.2"/>')
    # Lane inlays: a pale strip under each lane's holes, edged in the lane's peg colour.
    for street in range(STREETS):
        for lane in range(lanes):
            y = _street_top(street) + lane * _geo["lane"]
            edge = y - 4.6 if lane == 0 else y + 4.6 if lane == lanes - 1 else None
            add('<rect x="' + _n(left - 5) + '" y="' + _n(y - 4) + '" width="' + _n(sw + 10)
                + '" height="8" rx="4" fill="#f7dcae" fill-opacity="0.38"/>')
            if edge is not None:
                add('<line x1="' + _n(left - 2) + '" y1="' + _n(edge) + '" x2="' + _n(left + sw + 2)
                    + '" y2="' + _n(edge) + '" stroke="' + LANE_TINTS[lane % len(LANE_TINTS)]
                    + '" stroke-opacity="0.75" stroke-width="0.9" stroke-linecap="round"/>')
    # Start holes: a short inlay of their own, ringed in the lane's colour.
    for lane in range(lanes):
        x0, y0 = hole_xy(target, lane, -1)
        add('<rect x="' + _n(x0 - 5) + '" y="' + _n(y0 - 4) + '" width="' + _n(_geo["pitch"] + 10)
            + '" height="8" rx="4" fill="#f7dcae" fill-opacity="0.38" stroke="'
            + LANE_TINTS[lane % len(LANE_TINTS)] + '" stroke-opacity="0.7" stroke-width="0.8"/>')
    holes = []
    for lane in range(lanes):
        for score in range(-1, target):
            x, y = hole_xy(target, lane, score)
            holes.append('<circle cx="' + _n(x) + '" cy="' + _n(y) + '" r="' + _n(_geo["hole_r"]) + '"/>')
    add('<g class="board-holes" fill="url(#board-hole)" stroke="#f0c68c" stroke-opacity="0.55" stroke-width="0.6">'
        + "".join(holes) + "</g>")
    # The game hole.
    gx, gy = hole_xy(target, 0, target)
    add('<circle cx="' + _n(gx) + '" cy="' + _n(gy) + '" r="' + _n(_geo["game_r"] + 2.6)
        + '" fill="none" stroke="#6e4219" stroke-opacity="0.6" stroke-width="1"/>')
    add('<circle cx="' + _n(gx) + '" cy="' + _n(gy) + '" r="' + _n(_geo["game_r"])
        + '" fill="url(#board-hole)" stroke="#f0c68c" stroke-opacity="0.6" stroke-width="0.7"/>')
    add('<text x="' + _n(gx) + '" y="' + _n(gy - _geo["game_r"] - 5) + '" class="board-label" '
        'text-anchor="middle">' + str(target) + "</text>")
    # Skunk lines.
    for k, line in enumerate(SKUNK_LINES.get(target, ())):
        per_street = (line - 1) // per
        x = _line_x(target, line)
        top = _street_top(per_street) - 5
        bottom = _street_top(per_street) + (lanes - 1) * _geo["lane"] + 5
        add('<line x1="' + _n(x) + '" y1="' + _n(top) + '" x2="' + _n(x) + '" y2="' + _n(bottom)
            + '" stroke="#5a300d" stroke-width="1.3" stroke-dasharray="' + ("3 1.6" if k else "none")
            + '"/>')
        add('<text x="' + _n(x) + '" y="' + _n(top - 1) + '" class="board-label" '
            'text-anchor="middle">' + ("SS" if k else "S") + "</text>")
    # Street-end numbers.
    for street in range(STREETS):
        last = (street + 1) * per
        x, y = hole_xy(target, 0, last)
        dx = 9 if street % 2 == 0 else -9
        if street < STREETS - 1:
            add('<text x="' + _n(x + dx) + '" y="' + _n(y + (lanes - 1) * _geo["lane"] / 2 + 2.5)
                + '" class="board-label board-label-small" text-anchor="middle">' + str(last) + "</text>")
    # Pegs: two per lane, drawn at the origin and placed with a CSS transform.
    for lane in range(lanes):
        fill, edge = PEG_COLOURS[lane % len(PEG_COLOURS)]
        for which in range(2):
            add('<g class="peg" id="board-peg-' + str(lane) + "-" + str(which) + '">'
                '<circle cx="0.9" cy="1.2" r="' + _n(_geo["peg_r"]) + '" fill="#000" fill-opacity="0.3"/>'
                '<circle r="' + _n(_geo["peg_r"]) + '" fill="' + fill + '" stroke="' + edge
                + '" stroke-width="0.9"/><circle cx="-1.2" cy="-1.3" r="1.2" fill="#fff" '
                'fill-opacity="0.55"/></g>')
    add("</svg>")
    return "".join(out)


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
    redrawing the board only if the names, the target or the geometry differ.
    """
    _ensure_css()
    _watch_width()
    _geo.update(COMPACT if _is_compact() else WIDE)
    container = bridge.element(container_selector)
    names = [str(name) for name in names] or ["You", "Computer"]
    if target not in SKUNK_LINES:
        target = 121
    if (_board["svg"] is not None and container == _board["container"] and names == _board["names"]
            and target == _board["target"] and _board["geometry"] == _geo["peg_r"]
            and container.contains(_board["svg"])):
        return _restart()
    _board["geometry"] = _geo["peg_r"]
    _board["names"] = names
    _board["target"] = target
    _board["container"] = container
    lanes = _lanes()
    container.replaceChildren()
    container.classList.add("crib-board")
    container.setAttribute("data-target", str(target))
    frame = document.createElement("div")
    frame.className = "crib-board-frame"
    key = (target, lanes, _geo["peg_r"])
    if key not in _svg_cache:
        _svg_cache[key] = board_svg(target, lanes)
    frame.innerHTML = _svg_cache[key]
    container.append(frame)
    figure = frame.firstElementChild
    figure.setAttribute("role", "img")
    legend = document.createElement("ul")
    legend.className = "crib-board-legend"
    legend.setAttribute("aria-hidden", "true")  # the board's label says the same
    for lane in range(lanes):
        item = document.createElement("li")
        item.className = "crib-board-player"
        swatch = document.createElement("span")
        swatch.className = "crib-board-swatch"
        swatch.style.background = PEG_COLOURS[lane % len(PEG_COLOURS)][0]
        name = document.createElement("span")
        name.className = "crib-board-name"
        name.textContent = names[lane] if lane < len(names) else ""
        score = document.createElement("span")
        score.className = "crib-board-score"
        score.textContent = "0"
        item.append(swatch, name, score)
        legend.append(item)
    container.append(legend)
    _board["svg"] = figure
    _board["legend"] = legend
    _board["scores"] = [0] * lanes
    # pegs[lane] = [[element, position], [element, position]]; index 0 is the front peg.
    _board["pegs"] = []
    for lane in range(lanes):
        front = document.getElementById("board-peg-" + str(lane) + "-0")
        back = document.getElementById("board-peg-" + str(lane) + "-1")
        _board["pegs"].append([[front, 0], [back, -1]])
    _place_all(False, fresh=True)
    _label()
    return figure


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
    x, y = hole_xy(_board["target"], lane, position)
    element.style.transform = "translate(" + _n(x) + "px, " + _n(y) + "px)"
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
    names = _board["names"]
    parts = []
    for lane in range(_lanes()):
        name = names[lane] if lane < len(names) else "Player " + str(lane + 1)
        parts.append(name + " " + str(_board["scores"][lane]))
    text = "Cribbage board, game to " + str(_board["target"]) + ": " + ", ".join(parts) + "."
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
