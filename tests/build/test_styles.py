"""A page's stylesheets are joined into one file, in their order, and only pages with several are."""

from __future__ import annotations

import re

import pytest

from site_src.builder import styles
from site_src.builder.settings import BuildError, STATIC_DIR

LINK_RE = re.compile(r'<link rel="stylesheet" href="[./]*static/([^"]+)"( data-sheets="([^"]+)")?>')


def test_every_page_links_one_stylesheet_holding_its_sheets_in_order(built_site, site_pages):
    for page in site_pages:
        html = (built_site / page.output).read_text(encoding="utf-8")
        links = LINK_RE.findall(html)
        assert len(links) == 1, (page.output, links)
        name, _, sheets = links[0]
        if not sheets:
            assert name == "site.css", page.output
            continue
        listed = sheets.split()
        assert listed[0] == "site" and name == styles.bundle_name(listed), page.output
        joined = (built_site / "static" / name).read_text(encoding="utf-8")
        at = 0
        for sheet in listed:  # each whole sheet, in the order the template linked them
            text = (built_site / "static" / f"{sheet}.css").read_text(encoding="utf-8").rstrip("\n")
            found = joined.find(text, at)
            assert found >= 0, (page.output, sheet)
            at = found + len(text)


def test_the_game_page_joins_its_eight_sheets(built_site):
    html = (built_site / "index.html").read_text(encoding="utf-8")
    assert 'data-sheets="site board game table-fit records coach friend first-paint"' in html


def test_a_run_of_links_is_replaced_and_a_single_link_kept():
    bundles: dict = {}
    one = '<head>\n<link rel="stylesheet" href="./static/site.css">\n</head>'
    assert styles.with_style_bundle(one, bundles) == one and not bundles
    two = '<link rel="stylesheet" href="../static/site.css">\n<link rel="stylesheet" href="../static/tools.css">\n'
    out = styles.with_style_bundle(two, bundles)
    name = styles.bundle_name(["site", "tools"])
    assert out == f'<link rel="stylesheet" href="../static/{name}" data-sheets="site tools">\n'
    assert bundles == {name: ["site", "tools"]}
    with pytest.raises(BuildError):
        styles.with_style_bundle(two.replace("tools", "site"), {})


def test_a_missing_sheet_fails_the_build(tmp_path):
    (tmp_path / "site.css").write_text("a{}", encoding="utf-8")
    with pytest.raises(BuildError):
        styles.write_style_bundles(tmp_path, {"styles-x.css": ["site", "nowhere"]})
    assert (STATIC_DIR / "site.css").is_file()
