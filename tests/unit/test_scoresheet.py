"""The printable score sheets: pages, paper sizes, margins, text, engine values, reproducibility."""

import importlib
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fpdf import FPDF
from pypdf import PdfReader
from pypdf.generic import ContentStream

from engine import scoring
from site_src import scoresheet

ROOT = Path(__file__).resolve().parents[2]
MM = 72 / 25.4  # points per millimetre
PAGE_SIZES = {  # file name -> (width, height) in points
    "cribbage-score-sheet.pdf": (612.0, 792.0),  # US Letter
    "cribbage-score-sheet-a4.pdf": (595.28, 841.89),  # A4
}

# Each chart label and the engine constant its points must equal. Kept apart from the module's
# own table so that a retyped or mismatched number shows up here.
RUN = "run, per card"
SHOW_ROWS = {
    "Fifteen, each different combination": "FIFTEEN",
    "Pair": "PAIR",
    "Three of a kind (pair royal)": "PAIR_ROYAL",
    "Four of a kind (double pair royal)": "DOUBLE_PAIR_ROYAL",
    "Run of three or more, each card": RUN,
    "Flush, four cards in the hand": "HAND_FLUSH",
    "Flush, five cards with the starter": "FIVE_CARD_FLUSH",
    "His nobs: jack of the starter's suit": "NOBS",
}
PLAY_ROWS = {
    "Count of fifteen": "FIFTEEN",
    "Count of thirty-one": "THIRTY_ONE",
    "Pair with the card before": "PAIR",
    "Pair royal (third of a rank)": "PAIR_ROYAL",
    "Double pair royal (fourth)": "DOUBLE_PAIR_ROYAL",
    "Run of three or more, each card": RUN,
    "Go: last card before the count starts again": "GO",
    "Last card of the play, unless it makes thirty-one": "LAST_CARD",
}
CUT_ROWS = {  # his heels is pegged at the cut, not in the play or the show
    "His heels: jack turned as starter (dealer)": "HIS_HEELS",
}
CHARTS = (("THE SHOW", SHOW_ROWS), ("THE PLAY", PLAY_ROWS), ("AT THE CUT", CUT_ROWS))


def engine_points(name):
    """The engine's points for a chart row: a constant, or a run's points per card."""
    if name == RUN:
        (run,) = scoring.score_play([0, 1, 2, 3]).items  # A 2 3 4 of clubs, count 10: a run of four
        return run.points // len(run.cards)
    return getattr(scoring, name)


def chart_rows(text, heading):
    """Parse "label points" lines following a chart heading in extracted page text."""
    lines = [line.strip() for line in text.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith(heading))
    rows = {}
    for line in lines[start + 1:]:
        match = re.fullmatch(r"(.*\S)\s+(\d+)", line)
        if not match:
            break
        rows[match.group(1)] = int(match.group(2))
    return rows


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    out = tmp_path_factory.mktemp("downloads")
    paths = scoresheet.write_score_sheets(out)
    return {path.name: path for path in paths}


@pytest.fixture(scope="module")
def readers(sheets):
    return {name: PdfReader(path) for name, path in sheets.items()}


def test_writes_letter_and_a4(sheets):
    assert sorted(sheets) == sorted(PAGE_SIZES)
    for path in sheets.values():
        assert path.read_bytes().startswith(b"%PDF-")


@pytest.mark.parametrize("name", sorted(PAGE_SIZES))
def test_two_pages_of_the_paper_size(readers, name):
    reader = readers[name]
    assert len(reader.pages) == 2
    width, height = PAGE_SIZES[name]
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(width, abs=1)
        assert float(page.mediabox.height) == pytest.approx(height, abs=1)


@pytest.mark.parametrize("name", sorted(PAGE_SIZES))
def test_page_text(readers, name):
    two, three = (page.extract_text() for page in readers[name].pages)
    for text in (two, three):
        lowered = " ".join(text.lower().split())
        assert "121" in text
        assert "skunk line 90 | 91" in lowered
        assert "double skunk line 60 | 61" in lowered
        assert "fifteen" in lowered
        assert "player 1" in lowered and "player 2" in lowered
        assert "the show" in lowered and "the play" in lowered and "at the cut" in lowered
        assert "cribbage score sheet" in lowered
    assert "two players" in two.lower() and "game 3" in two.lower()
    assert "three players" in three.lower() and "player 3" in three.lower()
    assert "game 3" not in three.lower()


@pytest.mark.parametrize("name", sorted(PAGE_SIZES))
def test_every_total_appears_on_each_track(readers, name):
    for page, tracks in zip(readers[name].pages, (6, 6)):
        numbers = [int(n) for n in re.findall(r"\b\d+\b", page.extract_text())]
        for total in (1, 30, 31, 60, 61, 90, 91, 120, 121):
            assert numbers.count(total) >= tracks, total


@pytest.mark.parametrize("name", sorted(PAGE_SIZES))
def test_chart_points_are_the_engines(readers, name):
    for page in readers[name].pages:
        text = page.extract_text()
        for heading, expected in CHARTS:
            rows = chart_rows(text, heading)
            assert set(rows) == set(expected), heading
            for label, constant in expected.items():
                assert rows[label] == engine_points(constant), label


def test_chart_follows_the_engine_when_its_constants_change(monkeypatch):
    """Give every constant a distinct value: the chart must show each one in its own row."""
    names = sorted({c for c in (*SHOW_ROWS.values(), *PLAY_ROWS.values(), *CUT_ROWS.values()) if c != RUN})
    for i, constant in enumerate(names):
        monkeypatch.setattr(scoring, constant, 40 + i)
    try:
        module = importlib.reload(scoresheet)
        text = PdfReader(io.BytesIO(module.score_sheet_pdf("A4"))).pages[0].extract_text()
        for heading, expected in CHARTS:
            rows = chart_rows(text, heading)
            for label, constant in expected.items():
                assert rows[label] == engine_points(constant), label
    finally:
        monkeypatch.undo()
        importlib.reload(scoresheet)


def test_metadata(readers):
    for name, reader in readers.items():
        meta = reader.metadata
        assert meta.title.startswith("Cribbage score sheet")
        assert meta.author == scoresheet.AUTHOR
        stamp = scoresheet.creation_date().strftime("D:%Y%m%d%H%M%SZ")
        assert meta["/CreationDate"] == stamp  # fixed, never the time of the build


def test_builds_are_reproducible(sheets, tmp_path):
    """A second build, in a fresh process through the command line, gives identical bytes."""
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "SOURCE_DATE_EPOCH")}
    result = subprocess.run(
        [sys.executable, str(ROOT / "site_src" / "scoresheet.py"), str(tmp_path)],
        capture_output=True, text=True, env=env, cwd=tmp_path, check=False,
    )
    assert result.returncode == 0, result.stderr
    for name, path in sheets.items():
        assert (tmp_path / name).read_bytes() == path.read_bytes(), name


def test_unknown_paper_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown paper size 'B5'"):
        scoresheet.score_sheet_pdf("B5")


def _extents(reader, page):
    """Yield (what, x0, y0, x1, y1, size) in points for every rectangle, line and text on a page."""
    fonts = {key: ref.get_object()["/BaseFont"] for key, ref in page["/Resources"]["/Font"].items()}
    measure = FPDF(unit="pt")
    spacing = 0.0
    point = None
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"re":
            x, y, w, h = (float(v) for v in operands)
            yield "rect", min(x, x + w), min(y, y + h), max(x, x + w), max(y, y + h), 0
        elif op == b"m":
            point = [float(v) for v in operands]
        elif op == b"l":
            x, y = (float(v) for v in operands)
            yield "line", min(point[0], x), min(point[1], y), max(point[0], x), max(point[1], y), 0
        elif op == b"Tf":
            style = "B" if "Bold" in fonts[operands[0]] else ""
            size = float(operands[1])
            measure.set_font("Helvetica", style, size)
        elif op == b"Tc":
            spacing = float(operands[0])
        elif op == b"Td":
            point = [float(v) for v in operands]
        elif op == b"Tj":
            text = str(operands[0])
            width = measure.get_string_width(text) + spacing * len(text)
            size = measure.font_size_pt
            yield f"text {text!r}", point[0], point[1], point[0] + width, point[1] + size, size


@pytest.mark.parametrize("name", sorted(PAGE_SIZES))
def test_everything_inside_ten_millimetre_margins(readers, name):
    reader = readers[name]
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        low, high_x, high_y = 10 * MM, width - 10 * MM, height - 10 * MM
        drawn = list(_extents(reader, page))
        assert len(drawn) > 700
        for what, x0, y0, x1, y1, _size in drawn:
            assert low <= x0 and x1 <= high_x, what
            assert low <= y0 and y1 <= high_y, what


@pytest.mark.parametrize("name", sorted(PAGE_SIZES))
def test_readable_at_print_size(readers, name):
    """No text under 5.5 pt; the totals on the tracks and the chart at least 7 pt."""
    reader = readers[name]
    for page in reader.pages:
        texts = [(what, size) for what, *_box, size in _extents(reader, page) if what.startswith("text")]
        assert min(size for _what, size in texts) >= 5.5
        totals = [size for what, size in texts if re.fullmatch(r"text '\d+'", what)]
        assert len(totals) >= 121 * 6
        assert min(totals) >= 7
