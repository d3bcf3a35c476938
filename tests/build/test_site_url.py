"""SITE_URL sets canonical addresses, the sitemap and robots.txt; pages stay folder-independent."""

from __future__ import annotations

from pathlib import Path

import build
from htmlscan import scan

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "pages"


def test_site_url_in_a_subfolder(tmp_path, monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://games.example.org/cribbage/")
    out = build.build(tmp_path / "out", pages_dir=FIXTURES, quiet=True)
    rules = scan(out / "rules" / "index.html")
    assert rules.links["canonical"] == "https://games.example.org/cribbage/rules/"
    assert scan(out / "index.html").links["canonical"] == "https://games.example.org/cribbage/"
    assert "<loc>https://games.example.org/cribbage/rules/</loc>" in (out / "sitemap.xml").read_text()
    assert "Sitemap: https://games.example.org/cribbage/sitemap.xml" in (out / "robots.txt").read_text()
    # Pages link relatively, so the same files work in any folder ...
    hrefs = {ref.url for ref in rules.refs}
    assert "../static/site.css" in hrefs and "../calculator/" in hrefs
    assert not any(url.startswith("/") for url in hrefs)
    # ... except 404.html, which a host serves at any address, so it links from the site's root.
    hrefs_404 = {ref.url for ref in scan(out / "404.html").refs}
    assert "/cribbage/static/site.css" in hrefs_404 and "/cribbage/rules/" in hrefs_404


def test_root_relative_links_become_relative(tmp_path):
    out = build.build(tmp_path / "out", pages_dir=FIXTURES, quiet=True)
    home = {ref.url for ref in scan(out / "index.html").refs}
    assert {"./rules/", "./calculator/", "./"} <= home
    assert any(url.startswith("./static/") and url.endswith(".css") for url in home)  # its joined stylesheet
    rules = {ref.url for ref in scan(out / "rules" / "index.html").refs}
    assert {"../glossary/#muggins", "../scoring/#chart", "../"} <= rules
