"""REPORT_URL: where readers report a mistake, linked from the terms page and every footer when set."""

from __future__ import annotations

from pathlib import Path

import pytest

import build

ROOT = Path(__file__).resolve().parents[2]


def _pages(tmp_path: Path) -> Path:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "index.md").write_text("---\ntitle: Home\ndescription: d\n---\n## Hi\n\nHello.\n")
    (pages / "terms.md").write_text(
        "---\ntitle: Terms\ndescription: d\n---\n## Mistakes\n\n<!-- data:report_mistake -->\n"
    )
    (pages / "calculator.md").write_text("---\ntitle: Calc\ndescription: d\n---\n## Calc\n")
    (pages / "fair-deals.md").write_text(
        "---\ntitle: Fair\ndescription: d\ntemplate: verifier\n---\n## Fair\n\n<!-- deal-checker -->\n"
    )
    return pages


def test_the_terms_page_holds_the_report_placeholder():
    assert "<!-- data:report_mistake -->" in (ROOT / "pages" / "terms.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("setting, href, shown", [
    ("corrections@example.org", "mailto:corrections@example.org", "corrections@example.org"),
    ("mailto:corrections@example.org", "mailto:corrections@example.org", "corrections@example.org"),
    ("https://example.org/cribbage/issues/", "https://example.org/cribbage/issues/", "example.org/cribbage/issues"),
])
def test_report_url_links_the_terms_page_and_every_footer(tmp_path, monkeypatch, setting, href, shown):
    monkeypatch.setenv("REPORT_URL", setting)
    out = build.build(tmp_path / "out", pages_dir=_pages(tmp_path), quiet=True)
    terms = (out / "terms" / "index.html").read_text(encoding="utf-8")
    verb = "write to" if href.startswith("mailto:") else "go to"
    assert f'To report a mistake, {verb} <a href="{href}">{shown}</a>' in terms
    for page in ("index.html", "terms/index.html", "calculator/index.html", "404.html"):
        footer = (out / page).read_text(encoding="utf-8").split('<footer class="site-footer">', 1)[1]
        assert f'<a href="{href}">Report a mistake</a>' in footer, page


def test_without_report_url_no_link_is_promised(tmp_path, monkeypatch):
    monkeypatch.delenv("REPORT_URL", raising=False)
    out = build.build(tmp_path / "out", pages_dir=_pages(tmp_path), quiet=True)
    terms = (out / "terms" / "index.html").read_text(encoding="utf-8")
    assert "Report a mistake" not in terms and "To report a mistake" not in terms and "mailto:" not in terms
    assert 'href="../calculator/">hand calculator</a>' in terms
    assert 'href="../fair-deals/#check">deal checker</a>' in terms
    assert "Report a mistake" not in (out / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("setting", ["corrections", "ftp://example.org/", "javascript:alert(1)", "mailto:nobody"])
def test_a_bad_report_url_fails_the_build(tmp_path, monkeypatch, setting):
    monkeypatch.setenv("REPORT_URL", setting)
    with pytest.raises(build.BuildError, match="REPORT_URL must be"):
        build.build(tmp_path / "out", pages_dir=_pages(tmp_path), quiet=True)
