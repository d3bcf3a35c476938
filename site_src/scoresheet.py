"""Printable cribbage score sheets (US Letter and A4) with a scoring chart from the engine's constants.

Each PDF has two pages: three games for two players, then two games for three players. Every
player gets a track of the totals 1 to 121 to cross off as they score, with the double skunk line
(60 | 61) and the skunk line (90 | 91) drawn across it. The chart's point values come straight from
``engine.scoring``, so the sheet can never disagree with the game.

Run as a script to write the two files into a folder::

    python site_src/scoresheet.py dist/downloads
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

if __name__ == "__main__":  # run as a script: make the project root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fpdf import FPDF  # noqa: E402

from engine import scoring  # noqa: E402

SITE_NAME = "Cribbage"
AUTHOR = "Cribbage site"
GAME_POINTS = 121
DOUBLE_SKUNK_LINE = 61  # a loser below this (60 or fewer) is double skunked
SKUNK_LINE = 91  # a loser below this (90 or fewer) is skunked
# A fixed date keeps the files byte-for-byte reproducible; SOURCE_DATE_EPOCH overrides it.
FIXED_DATE = datetime(2026, 1, 1, tzinfo=timezone.utc)

LETTER_FILE = "cribbage-score-sheet.pdf"
A4_FILE = "cribbage-score-sheet-a4.pdf"
PAPERS: tuple[tuple[str, str, str], ...] = (
    # (fpdf2 format, file name, name printed on the sheet)
    ("Letter", LETTER_FILE, "US Letter"),
    ("A4", A4_FILE, "A4"),
)

MARGIN = 12.0  # mm on every side; printers need at least 10
CELLS_PER_ROW = 5  # holes per row, grouped in fives as on a board
ROWS_PER_BAND = 6  # 30 totals per band, like one street of a board


def run_points_per_card() -> int:
    """Points a run earns per card, as the engine scores ace, two, three laid in the play."""
    (run,) = scoring.score_play([0, 1, 2]).items  # the count is 6: the run is the only score
    return run.points // len(run.cards)


THIRTY_ONE_WORDS = scoring.number_name(scoring.MAX_COUNT)


# The chart rows: (label, points) with the points taken from the engine, never retyped.
SHOW_CHART: tuple[tuple[str, int], ...] = (
    ("Fifteen, each different combination", scoring.FIFTEEN),
    ("Pair", scoring.PAIR),
    ("Three of a kind (pair royal)", scoring.PAIR_ROYAL),
    ("Four of a kind (double pair royal)", scoring.DOUBLE_PAIR_ROYAL),
    ("Run of three or more, each card", run_points_per_card()),
    ("Flush, four cards in the hand", scoring.HAND_FLUSH),
    ("Flush, five cards with the starter", scoring.FIVE_CARD_FLUSH),
    ("His nobs: jack of the starter's suit", scoring.NOBS),
)
PLAY_CHART: tuple[tuple[str, int], ...] = (
    ("Count of fifteen", scoring.FIFTEEN),
    (f"Count of {THIRTY_ONE_WORDS}", scoring.THIRTY_ONE),
    ("Pair with the card before", scoring.PAIR),
    ("Pair royal (third of a rank)", scoring.PAIR_ROYAL),
    ("Double pair royal (fourth)", scoring.DOUBLE_PAIR_ROYAL),
    ("Run of three or more, each card", run_points_per_card()),
    ("Go: last card before the count starts again", scoring.GO),
    (f"Last card of the play, unless it makes {THIRTY_ONE_WORDS}", scoring.LAST_CARD),
)
CUT_CHART: tuple[tuple[str, int], ...] = (
    ("His heels: jack turned as starter (dealer)", scoring.HIS_HEELS),
)
SHOW_NOTES = (
    "Count the pone's hand, then the dealer's hand, then the crib. "
    "Every distinct run counts. A crib scores a flush only with all five cards."
)
PLAY_NOTES = (
    f"The count never passes {THIRTY_ONE_WORDS}; when nobody can play it starts again. "
    f"Go and {THIRTY_ONE_WORDS} never score on the same card."
)


@dataclass(frozen=True)
class Variant:
    """One page of the sheet: how many players share a game and how many games fit."""

    players: int
    games: int
    heading: str
    note: str


VARIANTS: tuple[Variant, ...] = (
    Variant(2, 3, "Two players", "Six cards each; each player throws two to the crib."),
    Variant(
        3,
        2,
        "Three players",
        "Five cards each and one from the pack to the crib; each player throws one.",
    ),
)

GAME_WORDS = {2: "two", 3: "three", 4: "four"}

BLACK = 0
INK_GREY = 90  # secondary text: dark enough to print crisply in black and white
RULE_GREY = 120  # cell borders
FILL_GREY = 232  # header bands


def creation_date() -> datetime:
    """The date stamped in the PDF: SOURCE_DATE_EPOCH if set, else a fixed date."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return datetime.fromtimestamp(int(epoch), tz=timezone.utc)
    return FIXED_DATE


class _Sheet:
    """Draws the score-sheet pages onto one FPDF document of a given paper size."""

    def __init__(self, paper: str, paper_name: str) -> None:
        """Start an empty document with metadata and fixed margins."""
        pdf = FPDF(orientation="portrait", unit="mm", format=paper)
        pdf.set_margins(MARGIN, MARGIN, MARGIN)
        pdf.set_auto_page_break(False)
        pdf.set_title(f"Cribbage score sheet ({paper_name})")
        pdf.set_subject("Cribbage score sheet for two and three players, with a scoring chart")
        pdf.set_author(AUTHOR)
        pdf.set_creator(AUTHOR)
        pdf.set_keywords("cribbage, score sheet, scoring chart, skunk")
        pdf.set_lang("en")
        pdf.set_creation_date(creation_date())
        pdf.set_display_mode(zoom="fullpage", layout="single")
        pdf.c_margin = 0  # text sits exactly where it is placed; padding is explicit
        self.pdf = pdf
        self.paper_name = paper_name

    # ----- small drawing helpers -------------------------------------------------------------

    def _font(self, size: float, style: str = "", grey: int = BLACK) -> None:
        """Select Helvetica at a size (pt) and style, with a grey level for text."""
        self.pdf.set_font("Helvetica", style, size)
        self.pdf.set_text_color(grey)

    def _text(self, x: float, y: float, w: float, h: float, text: str, align: str = "L") -> None:
        """Write one line of text in a box, vertically centred."""
        self.pdf.set_xy(x, y)
        self.pdf.cell(w, h, text, align=align)

    def _line(self, x1: float, y1: float, x2: float, y2: float, width: float, grey: int) -> None:
        """Draw a straight line with a width (mm) and grey level."""
        self.pdf.set_line_width(width)
        self.pdf.set_draw_color(grey)
        self.pdf.line(x1, y1, x2, y2)

    def _box(self, x: float, y: float, w: float, h: float, width: float, grey: int) -> None:
        """Draw an unfilled rectangle."""
        self.pdf.set_line_width(width)
        self.pdf.set_draw_color(grey)
        self.pdf.rect(x, y, w, h)

    # ----- page parts ------------------------------------------------------------------------

    def page(self, variant: Variant) -> None:
        """Add one page: header, the games, the scoring chart and a footer."""
        pdf = self.pdf
        pdf.add_page()
        top = self._header(variant)
        footer_h = 4.0
        chart_h = self._chart(dry_run=True)
        bottom = pdf.h - MARGIN - footer_h
        chart_top = bottom - chart_h
        self._games(variant, top + 3.0, chart_top - 5.0)
        self._chart(y=chart_top)
        self._footer(bottom)

    def _header(self, variant: Variant) -> float:
        """Draw the site name, title, date line and instructions; return the y below them."""
        pdf = self.pdf
        x, y, w = MARGIN, MARGIN, pdf.epw
        self._font(8, "B", INK_GREY)
        pdf.set_char_spacing(0.8)
        self._text(x, y, w / 2, 4, SITE_NAME.upper())
        games = GAME_WORDS.get(variant.games, str(variant.games))
        right = f"{variant.heading} \u00b7 {games} games to {GAME_POINTS}".upper()
        self._text(x + w / 2, y, w / 2, 4, right, align="R")
        pdf.set_char_spacing(0)
        y += 4.5
        self._font(20, "B")
        self._text(x, y, w * 0.6, 9, "Cribbage Score Sheet")
        self._font(9, "", INK_GREY)
        date_w = 58.0
        self._text(x + w - date_w, y + 2.5, 10, 6, "Date")
        self._line(x + w - date_w + 8, y + 7.5, x + w, y + 7.5, 0.2, BLACK)
        y += 10.5
        self._line(x, y, x + w, y, 0.5, BLACK)
        y += 1.5
        self._font(8, "", BLACK)
        pdf.set_xy(x, y)
        instructions = (
            f"Write the players' names at the top of each game and cross off each new total as "
            f"you score. The first to reach {GAME_POINTS} wins at once, even in the middle of the "
            f"play. A loser left on {SKUNK_LINE - 1} or fewer is skunked; on "
            f"{DOUBLE_SKUNK_LINE - 1} or fewer, double skunked. {variant.note}"
        )
        pdf.multi_cell(w, 3.7, instructions, new_x="LMARGIN", new_y="NEXT")
        return pdf.get_y()

    def _games(self, variant: Variant, top: float, bottom: float) -> None:
        """Lay out the game blocks side by side between top and bottom."""
        w = self.pdf.epw
        game_gap, track_gap = 7.0, 2.5
        tracks = variant.players * variant.games
        track_w = (w - game_gap * (variant.games - 1) - track_gap * (tracks - variant.games)) / tracks
        block_w = track_w * variant.players + track_gap * (variant.players - 1)
        for game in range(variant.games):
            x = MARGIN + game * (block_w + game_gap)
            self._game(game + 1, variant.players, x, top, block_w, track_w, track_gap, bottom)

    def _game(
        self,
        number: int,
        players: int,
        x: float,
        top: float,
        block_w: float,
        track_w: float,
        track_gap: float,
        bottom: float,
    ) -> None:
        """Draw one game: a title band, a name box and a 1-121 track per player, a result line."""
        pdf = self.pdf
        title_h, name_h, result_h = 6.0, 10.0, 12.5
        band_gap, line_gap = 1.6, 5.0  # between bands; around a skunk line
        finish_gap = 1.6
        bands = (GAME_POINTS - 1) // (CELLS_PER_ROW * ROWS_PER_BAND)  # 4 bands of 30
        rows = bands * ROWS_PER_BAND
        fixed = title_h + 1.5 + name_h + 1.5 + band_gap + 2 * line_gap + finish_gap + result_h
        row_h = min(5.6, (bottom - top - fixed) / (rows + 1.25))
        finish_h = row_h * 1.25

        # Title band.
        pdf.set_fill_color(FILL_GREY)
        pdf.set_draw_color(BLACK)
        pdf.set_line_width(0.3)
        pdf.rect(x, top, block_w, title_h, style="DF")
        self._font(9.5, "B")
        self._text(x + 2.2, top, block_w - 4.4, title_h, f"GAME {number}")
        self._font(7, "", INK_GREY)
        self._text(x + 2.2, top, block_w - 4.4, title_h, f"to {GAME_POINTS}", align="R")
        y = top + title_h + 1.5

        # Name boxes.
        for p in range(players):
            tx = x + p * (track_w + track_gap)
            self._box(tx, y, track_w, name_h, 0.3, BLACK)
            self._font(5.5, "B", INK_GREY)
            self._text(tx + 1.2, y + 0.5, track_w - 2.4, 3, f"PLAYER {p + 1}")
        y += name_h + 1.5

        # Band positions: a small gap after 30, the double skunk line after 60, the skunk line after 90.
        per_band = CELLS_PER_ROW * ROWS_PER_BAND
        band_tops: list[float] = []
        line_ys: list[tuple[float, int]] = []
        for band in range(bands):
            band_tops.append(y)
            y += ROWS_PER_BAND * row_h
            if band == bands - 1:
                break
            last = (band + 1) * per_band
            if last + 1 in (DOUBLE_SKUNK_LINE, SKUNK_LINE):
                line_ys.append((y + line_gap / 2, last))
                y += line_gap
            else:
                y += band_gap
        finish_y = y + finish_gap

        cell_w = track_w / CELLS_PER_ROW
        for p in range(players):
            tx = x + p * (track_w + track_gap)
            for band, band_y in enumerate(band_tops):
                self._band(tx, band_y, cell_w, row_h, band * per_band)
            # The game hole: one wide cell.
            self._box(tx, finish_y, track_w, finish_h, 0.5, BLACK)
            self._font(10, "B")
            self._text(tx, finish_y, track_w, finish_h, str(GAME_POINTS), align="C")

        for line_y, last in line_ys:
            self._skunk_line(x, line_y, block_w, last)

        # Result: winner and skunk boxes.
        y = finish_y + finish_h + 2.2
        self._font(7.5, "", INK_GREY)
        self._text(x, y, 12, 4, "Winner")
        self._line(x + 10, y + 3.4, x + block_w, y + 3.4, 0.2, BLACK)
        y += 5.6
        bx = x
        for label in ("Skunk", "Double skunk"):
            self._box(bx, y + 0.6, 2.8, 2.8, 0.25, BLACK)
            self._font(7.5, "", INK_GREY)
            self._text(bx + 3.8, y, 22, 4, label)
            bx += 4.0 + pdf.get_string_width(label) + 6.0

    def _band(self, x: float, y: float, cell_w: float, row_h: float, first: int) -> None:
        """Draw one band of 30 numbered cells (first + 1 .. first + 30) in rows of five."""
        self._font(7, "", BLACK)
        for i in range(CELLS_PER_ROW * ROWS_PER_BAND):
            row, col = divmod(i, CELLS_PER_ROW)
            cx, cy = x + col * cell_w, y + row * row_h
            self._box(cx, cy, cell_w, row_h, 0.15, RULE_GREY)
            self._text(cx, cy, cell_w, row_h, str(first + i + 1), align="C")
        self._box(x, y, cell_w * CELLS_PER_ROW, row_h * ROWS_PER_BAND, 0.35, BLACK)

    def _skunk_line(self, x: float, y: float, w: float, last: int) -> None:
        """Draw a labelled skunk line across a game block between last and last + 1."""
        pdf = self.pdf
        if last + 1 == DOUBLE_SKUNK_LINE:
            label = f"DOUBLE SKUNK LINE  {last} | {last + 1}"
            self._line(x, y - 0.55, x + w, y - 0.55, 0.45, BLACK)
            self._line(x, y + 0.55, x + w, y + 0.55, 0.45, BLACK)
        else:
            label = f"SKUNK LINE  {last} | {last + 1}"
            self._line(x, y, x + w, y, 0.8, BLACK)
        self._font(6.5, "B")
        pdf.set_char_spacing(0.4)
        label_w = pdf.get_string_width(label) + 3.0
        pdf.set_fill_color(255)
        pdf.set_xy(x + (w - label_w) / 2, y - 1.6)
        pdf.cell(label_w, 3.2, label, align="C", fill=True)
        pdf.set_char_spacing(0)

    def _chart(self, y: float = 0.0, dry_run: bool = False) -> float:
        """Draw the show, play and cut tables with their notes from y; return the height they take."""
        pdf = self.pdf
        x, w = MARGIN, pdf.epw
        gap = 8.0
        col_w = (w - gap) / 2
        title_h, row_h, note_line_h, table_gap = 5.5, 3.9, 3.1, 2.0
        columns = (  # each column's tables: (title, subtitle, rows, notes under the table or "")
            (("The show", "hand and crib, each with the starter", SHOW_CHART, SHOW_NOTES),),
            (("The play", "pegging, scored as the cards are laid", PLAY_CHART, PLAY_NOTES),
             ("At the cut", "the dealer's, before the play", CUT_CHART, "")),
        )
        self._font(6.8)

        def notes_h(notes: str) -> float:
            if not notes:
                return 0.0
            lines = len(pdf.multi_cell(col_w, note_line_h, notes, dry_run=True, output="LINES"))
            return 1.4 + lines * note_line_h

        height = 6.5 + max(
            sum(title_h + len(rows) * row_h + notes_h(notes) for _title, _sub, rows, notes in tables)
            + table_gap * (len(tables) - 1)
            for tables in columns
        ) + 1.0
        if dry_run:
            return height

        self._font(10, "B")
        self._text(x, y, w / 2, 5, "Scoring chart")
        self._line(x, y + 5.2, x + w, y + 5.2, 0.5, BLACK)
        y += 6.5
        for i, tables in enumerate(columns):
            cx = x + i * (col_w + gap)
            ry = y
            for k, (title, subtitle, chart, notes) in enumerate(tables):
                if k:
                    ry += table_gap
                self._font(8.5, "B")
                self._text(cx, ry, col_w, title_h, title.upper())
                tw = pdf.get_string_width(title.upper())
                self._font(7, "", INK_GREY)
                self._text(cx + tw + 2.5, ry, col_w - tw - 2.5, title_h, subtitle)
                self._font(6.5, "B", INK_GREY)
                self._text(cx, ry, col_w, title_h, "POINTS", align="R")
                self._line(cx, ry + title_h, cx + col_w, ry + title_h, 0.3, BLACK)
                ry += title_h
                for label, points in chart:
                    self._chart_row(cx, ry, col_w, row_h, label, points)
                    ry += row_h
                self._line(cx, ry, cx + col_w, ry, 0.3, BLACK)
                if notes:
                    self._font(6.8, "", INK_GREY)
                    h = notes_h(notes)
                    pdf.set_xy(cx, ry + 1.4)
                    pdf.multi_cell(col_w, note_line_h, notes, align="L")
                    ry += h
        return height

    def _chart_row(self, x: float, y: float, w: float, h: float, label: str, points: int) -> None:
        """Draw one chart row: the label, a dotted leader and the points."""
        pdf = self.pdf
        self._font(8)
        self._text(x, y, w - 10, h, label)
        label_end = x + pdf.get_string_width(label) + 1.5
        value_w = 7.0
        with pdf.local_context():
            pdf.set_dash_pattern(dash=0.25, gap=0.9)
            self._line(label_end, y + h * 0.68, x + w - value_w - 1.0, y + h * 0.68, 0.25, RULE_GREY)
        self._font(8.5, "B")
        self._text(x + w - value_w, y, value_w, h, str(points), align="R")
        self._line(x, y + h, x + w, y + h, 0.1, 200)

    def _footer(self, y: float) -> None:
        """Draw the footer line: the site, the paper size and a printing hint."""
        self._line(MARGIN, y + 0.6, MARGIN + self.pdf.epw, y + 0.6, 0.2, RULE_GREY)
        self._font(6.5, "", INK_GREY)
        self._text(MARGIN, y + 0.8, self.pdf.epw / 2, 3.2, f"{SITE_NAME} \u00b7 free printable score sheet")
        hint = f"{self.paper_name} \u00b7 print at actual size (100%)"
        self._text(MARGIN + self.pdf.epw / 2, y + 0.8, self.pdf.epw / 2, 3.2, hint, align="R")

    def output(self) -> bytes:
        """Return the finished PDF."""
        return bytes(self.pdf.output())


def score_sheet_pdf(paper: str = "Letter") -> bytes:
    """Return the two-page score sheet (two players, three players) for "Letter" or "A4"."""
    for fmt, _file_name, paper_name in PAPERS:
        if fmt.lower() == paper.lower():
            sheet = _Sheet(fmt, paper_name)
            for variant in VARIANTS:
                sheet.page(variant)
            return sheet.output()
    raise ValueError(f"unknown paper size {paper!r}; expected one of: Letter, A4")


def write_score_sheets(out_dir: Path) -> list[Path]:
    """Write the US Letter and A4 score sheets into out_dir and return their paths."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for fmt, file_name, _paper_name in PAPERS:
        path = out_dir / file_name
        path.write_bytes(score_sheet_pdf(fmt))
        paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    """Command line: write the score sheets into the folder given (default dist/downloads)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1 or (args and args[0] in ("-h", "--help")):
        print("usage: python site_src/scoresheet.py [OUTDIR]", file=sys.stderr)
        return 2
    out_dir = Path(args[0]) if args else Path(__file__).resolve().parent.parent / "dist" / "downloads"
    for path in write_score_sheets(out_dir):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
