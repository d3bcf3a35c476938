"""The discard table provider: the crib table as an accessible, colour-scaled HTML table."""

from __future__ import annotations

import re
from pathlib import Path

from site_src.builder import providers
from engine import analysis

ROOT = Path(__file__).resolve().parents[2]
INK = (0x1C, 0x21, 0x1E)


def luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_discard_table_is_registered_and_fills_the_strategy_page():
    assert "discard_table" in providers.PROVIDERS
    strategy = ROOT / "pages" / "strategy.md"
    if strategy.is_file():
        assert "<!-- data:discard_table -->" in strategy.read_text(encoding="utf-8")


def test_discard_table_cells_headers_and_colours():
    html = providers.discard_table()
    table = analysis.crib_table()
    ranks = analysis.load_crib_data()["ranks"]
    assert "<caption>" in html and "<figcaption>" in html and "chart-legend" in html
    assert re.findall(r'<th scope="col">([^<]+)</th>', html)[1:] == ranks
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th>(.*?)</tr>', html)
    assert [r for r, _ in rows] == ranks
    shades = []
    for (rank, cells), expected in zip(rows, table):
        found = re.findall(r'<td class="heat-(\d+)">([\d.]+)</td>', cells)
        assert [float(v) for _, v in found] == [round(v, 2) for v in expected]
        shades += [int(n) for n, _ in found]
    assert min(shades) == 0 and max(shades) == providers.HEAT_SHADES - 1  # the whole scale is used
    css = providers.heat_css()
    for n in range(providers.HEAT_SHADES):
        colour = re.search(rf"\.heat-{n} {{ background-color: #([0-9a-f]{{6}}); color: #1c211e; }}", css).group(1)
        rgb = tuple(int(colour[i:i + 2], 16) for i in (0, 2, 4))
        contrast = (luminance(rgb) + 0.05) / (luminance(INK) + 0.05)
        assert contrast >= 4.5
    assert 'style="' not in html
    assert "8.99" in html and "3.42" in html and "58,800" in html
    assert "<script" not in html
