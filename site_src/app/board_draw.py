"""The cribbage board's drawing: its geometry and its SVG markup, for the page's board (board.py)
and the board the build writes into the game page for its first paint.

Pure Python that CPython and MicroPython both run (numbers and fixed words only: no names, no
browser). The board is laid out in three streets that the track snakes through (1-40 left to
right, 41-80 back, 81-120 forward again, then the game hole), each street holding one lane of
holes per player, in groups of five as on a wooden board. Two start holes per lane sit before
hole 1; the skunk line (between 90 and 91) and the double-skunk line (between 60 and 61) cross
the lanes. A 61-point game uses the same board at half length: three streets of 20 holes, the
game hole at 61 and the skunk line between 30 and 31 (no double skunk there).

Every function takes the geometry (``WIDE`` or ``COMPACT``) and the number of lanes.
"""

SVG_NS = "http://www.w3.org/2000/svg"
STREETS = 3
GROUP = 5
COMPACT_QUERY = "(max-width: 599px)"
"""Where the compact geometry is used (board.py asks the page; board.css hides the other first-paint board)."""

# Geometry in SVG user units: the roomy board for wide screens, a tighter one with bigger pegs
# for phones (the board is scaled to the container's width either way).
WIDE = {"name": "wide", "pitch": 10, "group_gap": 6, "lane": 11, "street_gap": 17, "pad_x": 14, "pad_y": 13,
        "start_w": 30, "end_w": 30, "hole_r": 2.3, "peg_r": 3.9, "game_r": 4.6}
COMPACT = {"name": "compact", "pitch": 10, "group_gap": 4, "lane": 12.5, "street_gap": 16, "pad_x": 7,
           "pad_y": 13, "start_w": 25, "end_w": 26, "hole_r": 2.7, "peg_r": 5.2, "game_r": 5.4}
GEOMETRIES = (WIDE, COMPACT)

PEG_COLOURS = (("#c8372d", "#7a1a14"), ("#2360b8", "#123668"), ("#e0a21a", "#7d5606"))
"""Each lane's peg (fill, edge); board.css gives the legend's swatches the same fills."""
LANE_TINTS = ("#b3342b", "#1f5aad", "#c98f12")
SKUNK_LINES = {121: (90, 60), 61: (30,)}


def coord(value):
    """A coordinate as short text: tenths, halves rounded up, whole numbers without a decimal point.
    Worked out in integers, so both interpreters write the same text (MicroPython's str() of a
    float such as 64.4 gives 64.40000000000001)."""
    tenths = int(abs(value) * 10 + 0.5)
    sign = "-" if value < 0 and tenths else ""
    if tenths % 10 == 0:
        return sign + str(tenths // 10)
    return sign + str(tenths // 10) + "." + str(tenths % 10)


def street_length(target):
    """Holes per street: 40 for the 121-point game, 20 for the 61-point game."""
    return (target - 1) // STREETS


def street_width(geo, target):
    """The width of one street's holes."""
    per = street_length(target)
    return (per - 1) * geo["pitch"] + (per // GROUP - 1) * geo["group_gap"]


def street_top(geo, lanes, street):
    """The y of a street's first lane."""
    return geo["pad_y"] + street * ((lanes - 1) * geo["lane"] + geo["street_gap"])


def size(geo, lanes, target):
    """The board's (width, height) in SVG user units."""
    width = geo["pad_x"] + geo["start_w"] + street_width(geo, target) + geo["end_w"] + geo["pad_x"]
    height = 2 * geo["pad_y"] + STREETS * (lanes - 1) * geo["lane"] + (STREETS - 1) * geo["street_gap"]
    return width, height


def hole_xy(geo, lanes, target, lane, score):
    """Centre of a lane's hole for a score: 0 and -1 are the start holes, target the game hole."""
    left = geo["pad_x"] + geo["start_w"]
    if score <= 0:
        y = street_top(geo, lanes, 0) + lane * geo["lane"]
        return left - 12 + score * geo["pitch"], y
    if score >= target:
        last = STREETS - 1
        x = left + street_width(geo, target) + geo["end_w"] / 2 + 2
        y = street_top(geo, lanes, last) + (lanes - 1) * geo["lane"] / 2
        return x, y
    per = street_length(target)
    street = (score - 1) // per
    i = (score - 1) % per
    if street % 2 == 1:
        i = per - 1 - i
    x = left + i * geo["pitch"] + (i // GROUP) * geo["group_gap"]
    y = street_top(geo, lanes, street) + lane * geo["lane"]
    return x, y


def line_x(geo, lanes, target, score):
    """x of the line between hole score and score + 1 (they share a street here)."""
    a = hole_xy(geo, lanes, target, 0, score)[0]
    b = hole_xy(geo, lanes, target, 0, score + 1)[0]
    return (a + b) / 2


def label_text(target, names, scores):
    """What the board says to a screen reader: the target and each lane's name and score."""
    parts = []
    for lane, score in enumerate(scores):
        name = names[lane] if lane < len(names) else "Player " + str(lane + 1)
        parts.append(name + " " + str(score))
    return "Cribbage board, game to " + str(target) + ": " + ", ".join(parts) + "."


def board_svg(geo, target, lanes, pegs_at_start=False, label=None):
    """The board's SVG markup in geometry ``geo`` (WIDE or COMPACT) for ``lanes`` players (numbers
    and fixed words only). The pegs are drawn at the origin, for the page to place; with
    ``pegs_at_start`` each lane's front peg stands in hole 0 and its back one in hole -1, as a new
    game starts, and ``label`` (fixed words) makes it an image with that label: the first paint's
    board, before the page's Python places the pegs and says the players' names."""
    width, height = size(geo, lanes, target)
    per = street_length(target)
    left = geo["pad_x"] + geo["start_w"]
    sw = street_width(geo, target)
    out = []
    add = out.append
    add('<svg xmlns="' + SVG_NS + '" class="crib-board-svg" data-geometry="' + geo["name"] + '" viewBox="0 0 '
        + coord(width) + " " + coord(height) + '" preserveAspectRatio="xMidYMid meet" focusable="false"'
        + ("" if label is None else ' role="img" aria-label="' + label + '"') + ">")
    wood = "board-wood-" + geo["name"]  # ids of its own: the first paint holds both geometries
    hole = "board-hole-" + geo["name"]
    add('<defs><linearGradient id="' + wood + '" x1="0" y1="0" x2="0" y2="1">'
        '<stop offset="0" stop-color="#d9a566"/><stop offset="0.45" stop-color="#c48a4a"/>'
        '<stop offset="1" stop-color="#a56a32"/></linearGradient>'
        '<radialGradient id="' + hole + '" cx="0.4" cy="0.35" r="0.7">'
        '<stop offset="0" stop-color="#2a1707"/><stop offset="1" stop-color="#4a2c12"/>'
        '</radialGradient></defs>')
    # The plank, its bevel and a little grain.
    add('<rect x="1" y="1" width="' + coord(width - 2) + '" height="' + coord(height - 2)
        + '" rx="9" fill="url(#' + wood + ')" stroke="#6e4219" stroke-width="1.5"/>')
    add('<rect x="4" y="4" width="' + coord(width - 8) + '" height="' + coord(height - 8)
        + '" rx="7" fill="none" stroke="#f3cf98" stroke-opacity="0.35" stroke-width="1"/>')
    grain = []
    for k in range(7):
        y = 8 + k * (height - 16) / 6
        bend = 3 if k % 2 else -3
        grain.append("M6 " + coord(y) + " C" + coord(width * 0.3) + " " + coord(y + bend) + " "
                     + coord(width * 0.6) + " " + coord(y - bend) + " " + coord(width - 6) + " " + coord(y + bend / 2))
    add('<path d="' + " ".join(grain) + '" fill="none" stroke="#8a5526" stroke-opacity="0.16" '
        'stroke-width="0.8"/>')
    # Grooves where the track turns from one street into the next.
    for street in range(STREETS - 1):
        top = street_top(geo, lanes, street)
        bottom = street_top(geo, lanes, street + 1) + (lanes - 1) * geo["lane"]
        if street % 2 == 0:
            x = left + sw + 7
            sweep = "1"
        else:
            x = left - 7
            sweep = "0"
        add('<path d="M' + coord(x) + " " + coord(top - 4) + " A" + coord((bottom - top) / 2 + 4) + " "
            + coord((bottom - top) / 2 + 4) + " 0 0 " + sweep + " " + coord(x) + " " + coord(bottom + 4)
            + '" fill="none" stroke="#6e4219" stroke-opacity="0.35" stroke-width="1.2"/>')
    # Lane inlays: a pale strip under each lane's holes, edged in the lane's peg colour.
    for street in range(STREETS):
        for lane in range(lanes):
            y = street_top(geo, lanes, street) + lane * geo["lane"]
            edge = y - 4.6 if lane == 0 else y + 4.6 if lane == lanes - 1 else None
            add('<rect x="' + coord(left - 5) + '" y="' + coord(y - 4) + '" width="' + coord(sw + 10)
                + '" height="8" rx="4" fill="#f7dcae" fill-opacity="0.38"/>')
            if edge is not None:
                add('<line x1="' + coord(left - 2) + '" y1="' + coord(edge) + '" x2="' + coord(left + sw + 2)
                    + '" y2="' + coord(edge) + '" stroke="' + LANE_TINTS[lane % len(LANE_TINTS)]
                    + '" stroke-opacity="0.75" stroke-width="0.9" stroke-linecap="round"/>')
    # Start holes: a short inlay of their own, ringed in the lane's colour.
    for lane in range(lanes):
        x0, y0 = hole_xy(geo, lanes, target, lane, -1)
        add('<rect x="' + coord(x0 - 5) + '" y="' + coord(y0 - 4) + '" width="' + coord(geo["pitch"] + 10)
            + '" height="8" rx="4" fill="#f7dcae" fill-opacity="0.38" stroke="'
            + LANE_TINTS[lane % len(LANE_TINTS)] + '" stroke-opacity="0.7" stroke-width="0.8"/>')
    holes = []
    for lane in range(lanes):
        for score in range(-1, target):
            x, y = hole_xy(geo, lanes, target, lane, score)
            holes.append('<circle cx="' + coord(x) + '" cy="' + coord(y) + '" r="' + coord(geo["hole_r"]) + '"/>')
    add('<g class="board-holes" fill="url(#' + hole + ')" stroke="#f0c68c" stroke-opacity="0.55" stroke-width="0.6">'
        + "".join(holes) + "</g>")
    # The game hole.
    gx, gy = hole_xy(geo, lanes, target, 0, target)
    add('<circle cx="' + coord(gx) + '" cy="' + coord(gy) + '" r="' + coord(geo["game_r"] + 2.6)
        + '" fill="none" stroke="#6e4219" stroke-opacity="0.6" stroke-width="1"/>')
    add('<circle cx="' + coord(gx) + '" cy="' + coord(gy) + '" r="' + coord(geo["game_r"])
        + '" fill="url(#' + hole + ')" stroke="#f0c68c" stroke-opacity="0.6" stroke-width="0.7"/>')
    add('<text x="' + coord(gx) + '" y="' + coord(gy - geo["game_r"] - 5) + '" class="board-label" '
        'text-anchor="middle">' + str(target) + "</text>")
    # Skunk lines.
    for k, line in enumerate(SKUNK_LINES.get(target, ())):
        per_street = (line - 1) // per
        x = line_x(geo, lanes, target, line)
        top = street_top(geo, lanes, per_street) - 5
        bottom = street_top(geo, lanes, per_street) + (lanes - 1) * geo["lane"] + 5
        add('<line x1="' + coord(x) + '" y1="' + coord(top) + '" x2="' + coord(x) + '" y2="' + coord(bottom)
            + '" stroke="#5a300d" stroke-width="1.3" stroke-dasharray="' + ("3 1.6" if k else "none")
            + '"/>')
        add('<text x="' + coord(x) + '" y="' + coord(top - 1) + '" class="board-label" '
            'text-anchor="middle">' + ("SS" if k else "S") + "</text>")
    # Street-end numbers.
    for street in range(STREETS):
        last = (street + 1) * per
        x, y = hole_xy(geo, lanes, target, 0, last)
        dx = 9 if street % 2 == 0 else -9
        if street < STREETS - 1:
            add('<text x="' + coord(x + dx) + '" y="' + coord(y + (lanes - 1) * geo["lane"] / 2 + 2.5)
                + '" class="board-label board-label-small" text-anchor="middle">' + str(last) + "</text>")
    # Pegs: two per lane, drawn at the origin and placed with a CSS transform.
    for lane in range(lanes):
        fill, edge = PEG_COLOURS[lane % len(PEG_COLOURS)]
        for which in range(2):
            placed = ""
            if pegs_at_start:
                x, y = hole_xy(geo, lanes, target, lane, -which)
                placed = ' transform="translate(' + coord(x) + " " + coord(y) + ')"'
            add('<g class="peg' + ("" if which else " is-front") + '" data-peg="' + str(lane) + "-" + str(which)
                + '"' + placed + '>'
                '<circle cx="0.9" cy="1.2" r="' + coord(geo["peg_r"]) + '" fill="#000" fill-opacity="0.3"/>'
                '<circle r="' + coord(geo["peg_r"]) + '" fill="' + fill + '" stroke="' + edge
                + '" stroke-width="0.9"/><circle cx="-1.2" cy="-1.3" r="1.2" fill="#fff" '
                'fill-opacity="0.55"/></g>')
    add("</svg>")
    return "".join(out)


def legend_markup(lanes, names=None):
    """The legend under the board: a swatch of each lane's peg colour (board.css), its player's
    name (blank unless ``names``: fixed words only; the page fills in the players' names with
    textContent) and a score of 0."""
    items = []
    for lane in range(lanes):
        name = names[lane] if names is not None and lane < len(names) else ""
        items.append('<li class="crib-board-player"><span class="crib-board-swatch" data-lane="'
                     + str(lane % len(PEG_COLOURS)) + '"></span><span class="crib-board-name">' + name
                     + '</span><span class="crib-board-score">0</span></li>')
    return '<ul class="crib-board-legend" aria-hidden="true">' + "".join(items) + "</ul>"


FIRST_PAINT_NAMES = ("You", "Computer")


def first_paint_markup():
    """The board of a new game against the computer to 121, in both geometries (board.css shows
    the one for the width) with its legend: what the build writes into the game page, so that
    its first paint shows the board the page's Python then takes over (board.py)."""
    label = label_text(121, FIRST_PAINT_NAMES, [0, 0])
    frames = []
    for geo in GEOMETRIES:
        svg = board_svg(geo, 121, 2, pegs_at_start=True, label=label)
        frames.append('<div class="crib-board-frame" data-geometry="' + geo["name"] + '">' + svg + "</div>")
    return "".join(frames) + legend_markup(2, FIRST_PAINT_NAMES)
