"""The board's drawing (site_src/app/board_draw.py): its geometry, its markup, the first paint's
board the build writes into the game page, and the same markup from the browser's MicroPython."""

import json
import re
from pathlib import Path

import pytest

from tests.unit.app_python import import_app, needs_node, run_in_micropython

ROOT = Path(__file__).resolve().parents[2]
board_draw = import_app("board_draw")
COMPACT, GEOMETRIES, WIDE = board_draw.COMPACT, board_draw.GEOMETRIES, board_draw.WIDE
board_svg, first_paint_markup, hole_xy, size = (board_draw.board_svg, board_draw.first_paint_markup,
                                                board_draw.hole_xy, board_draw.size)

BOARDS = [(geo["name"], target, lanes) for geo in GEOMETRIES for target in (121, 61) for lanes in (2, 3)]
GEOMETRY = {geo["name"]: geo for geo in GEOMETRIES}


@pytest.mark.parametrize("value,text", [(0, "0"), (-12, "-12"), (2.3, "2.3"), (64.4, "64.4"),
                                        (84.59999999999999, "84.6"), (6.25, "6.3"), (-0.04, "0"), (-0.05, "-0.1"),
                                        (-12.5, "-12.5"), (0.95, "1"), (1e-9, "0")])
def test_a_coordinate_is_written_in_tenths(value, text):
    assert board_draw.coord(value) == text


@pytest.mark.parametrize("name,target,lanes", BOARDS)
def test_every_hole_is_its_own_and_inside_the_board(name, target, lanes):
    geo = GEOMETRY[name]
    width, height = size(geo, lanes, target)
    holes = [hole_xy(geo, lanes, target, lane, score) for lane in range(lanes) for score in range(-1, target)]
    assert len(set(holes)) == len(holes) == lanes * (target + 1)
    assert all(0 < x < width and 0 < y < height for x, y in holes)
    game = hole_xy(geo, lanes, target, 0, target)
    assert 0 < game[0] < width and game not in holes
    markup = board_svg(geo, target, lanes)
    assert re.search(r'<g class="board-holes"[^>]*>(.*?)</g>', markup).group(1).count("<circle ") == len(holes)
    assert f'viewBox="0 0 {board_draw.coord(width)} {board_draw.coord(height)}"' in markup


@pytest.mark.parametrize("name,target,lanes", BOARDS)
def test_the_track_snakes_through_three_streets_in_groups_of_five(name, target, lanes):
    geo = GEOMETRY[name]
    per = board_draw.street_length(target)
    xs = [hole_xy(geo, lanes, target, 0, score)[0] for score in range(1, target)]
    first, second, third = xs[:per], xs[per:2 * per], xs[2 * per:]
    assert first == sorted(first) and third == sorted(third) and second == sorted(second, reverse=True)
    gaps = [b - a for a, b in zip(first, first[1:])]
    assert gaps.count(geo["pitch"] + geo["group_gap"]) == per // 5 - 1


def test_the_first_paint_board_is_a_new_game_to_121_in_both_geometries():
    markup = first_paint_markup()
    svgs = re.findall(r"<svg .*?</svg>", markup)
    assert [re.search(r'data-geometry="(\w+)"', svg).group(1) for svg in svgs] == ["wide", "compact"]
    for svg, geo in zip(svgs, (WIDE, COMPACT)):
        ids = re.findall(r'\bid="([^"]+)"', svg)
        assert sorted(ids) == sorted(["board-wood-" + geo["name"], "board-hole-" + geo["name"]])
        for lane in (0, 1):  # each lane's front peg in hole 0, its back one in hole -1
            for which, hole in ((0, 0), (1, -1)):
                x, y = hole_xy(geo, 2, 121, lane, hole)
                placed = f'data-peg="{lane}-{which}" transform="translate({board_draw.coord(x)} {board_draw.coord(y)})"'
                assert placed in svg
        # The same board the page draws, but for the pegs' places and its label.
        unplaced = re.sub(r' transform="translate\([^)]*\)"', "", svg)
        unplaced = re.sub(r' role="img" aria-label="[^"]*"', "", unplaced)
        assert unplaced == board_svg(geo, 121, 2)
        assert 'aria-label="Cribbage board, game to 121: You 0, Computer 0."' in svg
    names = r'<span class="crib-board-name">([^<]*)</span>'
    assert re.findall(names, markup) == ["You", "Computer"]
    assert re.findall(names, board_draw.legend_markup(3)) == ["", "", ""]  # the page's: names filled in as text


def test_the_swatches_have_the_pegs_colours_in_the_stylesheet():
    css = (ROOT / "site_src" / "static" / "board.css").read_text()
    for lane, (fill, _) in enumerate(board_draw.PEG_COLOURS):
        assert f'.crib-board-swatch[data-lane="{lane}"] {{ background: {fill}; }}' in css


@needs_node
def test_micropython_draws_the_same_boards():
    program = (
        "geos = {g['name']: g for g in board_draw.GEOMETRIES}\n"
        "for name, target, lanes in json.loads(" + repr(json.dumps(BOARDS)) + "):\n"
        "    print(json.dumps(board_draw.board_svg(geos[name], target, lanes)))\n"
        "print(json.dumps(board_draw.first_paint_markup()))\n"
        "print(json.dumps([board_draw.coord(v) for v in (64.4, 84.59999999999999, 6.25, -0.05, 0.95)]))\n"
    )
    expected = [board_svg(GEOMETRY[name], target, lanes) for name, target, lanes in BOARDS] + [first_paint_markup()]
    expected.append(["64.4", "84.6", "6.3", "-0.1", "1"])
    assert run_in_micropython("board_draw", program) == expected


def test_the_first_paints_places_for_other_boards_are_their_sizes():
    """first-paint.css keeps the place of a board the page will draw (three tracks, or a game to
    61) by its aspect ratio in each geometry: the sizes board_draw gives those boards."""
    css = (ROOT / "site_src/static/first-paint.css").read_text()
    rule = re.compile(r'html((?:\[data-start-(?:seats|target)="[^"]+"\])+) \.crib-board\[data-first-paint\] '
                      r'\.crib-board-frame\[data-geometry="(\w+)"\] \.crib-board-svg \{ aspect-ratio: ([\d.]+) / ([\d.]+); \}')
    found = {}
    for marks, geometry, width, height in rule.findall(css):
        target = 61 if 'data-start-target="61"' in marks else 121
        lanes = 3 if 'data-start-seats="3"' in marks else 2
        found[(geometry, target, lanes)] = (float(width), float(height))
    expected = {(name, target, lanes) for name, target, lanes in BOARDS if (target, lanes) != (121, 2)}
    assert set(found) == expected
    for (name, target, lanes), ratio in found.items():
        assert ratio == tuple(float(v) for v in size(GEOMETRY[name], lanes, target)), (name, target, lanes)
