"""The built site ships the printable score sheets, and the rules and scoring pages link to them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from site_src import scoresheet

ROOT = Path(__file__).resolve().parents[2]
SHEETS = ("cribbage-score-sheet.pdf", "cribbage-score-sheet-a4.pdf")


@pytest.mark.parametrize("name", SHEETS)
def test_build_writes_the_score_sheets(built_site, name):
    path = built_site / "downloads" / name
    assert path.is_file(), f"{path} is missing from the build"
    paper = "A4" if name.endswith("-a4.pdf") else "Letter"
    assert path.read_bytes() == scoresheet.score_sheet_pdf(paper), "the build's PDF is not reproducible"


@pytest.mark.parametrize("slug", ["rules", "scoring"])
def test_pages_link_to_both_sheets(built_site, pages_dir, slug):
    if pages_dir != ROOT / "pages":
        pytest.skip("the site's own pages are not written yet")
    page = built_site / slug / "index.html"
    hrefs = re.findall(r'href="([^"]+)"', page.read_text(encoding="utf-8"))
    for name in SHEETS:
        assert f"../downloads/{name}" in hrefs, f"{slug} does not link to {name}"
        assert (page.parent / f"../downloads/{name}").resolve().is_file()
