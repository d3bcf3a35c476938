"""The built pages: one per Markdown page, with title, description, canonical URL and metadata."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from markupsafe import escape

from site_src.builder import settings
from htmlscan import scan


def output(built_site, page):
    return built_site / page.output


def test_every_markdown_page_is_built(built_site, site_pages):
    assert site_pages, "no pages to build"
    for page in site_pages:
        assert output(built_site, page).is_file(), f"{page.source.name} produced no {page.output}"
    assert (built_site / "index.html").is_file(), "the home page (slug index) is missing"
    assert (built_site / "404.html").is_file()


def test_each_page_has_title_description_and_canonical(built_site, site_pages):
    base = settings.site_url()
    for page in site_pages:
        scanned = scan(output(built_site, page))
        name = page.output
        assert scanned.title == page.title, name
        assert scanned.meta.get("description") == page.description, name
        canonical = scanned.links.get("canonical", "")
        assert canonical == f"{base}/{page.path}", name
        assert canonical.startswith(("https://", "http://")), name
        assert scanned.meta.get("og:title") == page.title, name
        assert scanned.meta.get("og:url") == canonical, name
        assert scanned.meta.get("og:description") == page.description, name
        assert scanned.meta.get("og:type") in ("website", "article"), name


def test_titles_and_canonicals_are_unique(built_site, site_pages):
    scans = [scan(output(built_site, page)) for page in site_pages]
    titles = [s.title for s in scans]
    canonicals = [s.links["canonical"] for s in scans]
    assert len(set(titles)) == len(titles)
    assert len(set(canonicals)) == len(canonicals)


def test_headings_start_at_one_h1_and_never_skip_a_level(built_site, site_pages):
    for page in site_pages:
        levels = scan(output(built_site, page)).headings
        assert levels and levels[0] == 1 and levels.count(1) == 1, f"{page.output}: {levels}"
        for before, after in zip(levels, levels[1:]):
            assert after <= before + 1, f"{page.output}: h{before} followed by h{after}"


def json_ld_blocks(scanned):
    return [json.loads(text) for attrs, text in scanned.scripts if attrs.get("type") == "application/ld+json"]


def test_json_ld_parses_and_matches_the_faq(built_site, site_pages):
    for page in site_pages:
        scanned = scan(output(built_site, page))
        blocks = json_ld_blocks(scanned)  # json.loads fails the test on invalid JSON
        faq_blocks = [b for b in blocks if b.get("@type") == "FAQPage"]
        if not page.faq:
            assert not faq_blocks, f"{page.output}: FAQPage without a faq"
            continue
        assert len(faq_blocks) == 1, page.output
        block = faq_blocks[0]
        assert block["@context"] == "https://schema.org"
        questions = block["mainEntity"]
        assert [q["name"] for q in questions] == [item["q"] for item in page.faq]
        for q in questions:
            assert q["@type"] == "Question"
            assert q["acceptedAnswer"]["@type"] == "Answer"
            assert q["acceptedAnswer"]["text"].strip()
            assert "<" not in q["acceptedAnswer"]["text"]
        html = output(built_site, page).read_text(encoding="utf-8")
        assert "Questions players ask" in html
        for item in page.faq:
            assert str(escape(item["q"])) in html


def test_sitemap_lists_every_page_and_robots_points_to_it(built_site, site_pages):
    base = settings.site_url()
    tree = ET.parse(built_site / "sitemap.xml")
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locs = {loc.text for loc in tree.findall("s:url/s:loc", ns)}
    assert locs == {f"{base}/{page.path}" for page in site_pages}
    robots = (built_site / "robots.txt").read_text()
    assert f"Sitemap: {base}/sitemap.xml" in robots


def test_navigation_marks_the_current_page(built_site, site_pages):
    for page in site_pages:
        html = output(built_site, page).read_text(encoding="utf-8")
        assert 'class="skip-link" href="#main"' in html
        assert '<main id="main"' in html
        assert re.search(r'<nav class="site-nav" aria-label="Main">', html) or not any(p.nav for p in site_pages)
        if page.nav:
            assert re.search(r'aria-current="page">' + re.escape(page.nav) + "<", html), page.output


def test_interactive_pages_load_pyscript_and_show_engine_status(built_site, site_pages):
    for page in site_pages:
        html = output(built_site, page).read_text(encoding="utf-8")
        if page.template in ("game", "calculator", "replay"):
            assert 'id="engine-status"' in html and 'role="status"' in html, page.output
            assert '<script type="module" src="' in html and "runtime/pyscript/core.js" in html
            assert re.search(rf'<script type="mpy" config="[./]*app/{page.template}\.json">\n'
                             rf'import asyncio\nawait asyncio.sleep\(0\)\nimport pack\n'
                             rf'pack.mount\("{page.template}.pack"\)\nimport {page.template}\n</script>', html)
            # The engine's worker starts as soon as its script arrives, never blocking the parser and
            # not waiting for the page to be read (async, not deferred).
            engine = re.search(r'<script src="[./]*static/engine\.js" async fetchpriority="high"></script>', html)
            assert engine, page.output
            assert engine.start() < html.index("runtime/pyscript/core.js"), page.output
            for file in ("pack.mpy", f"{page.template}.pack"):  # fetched while PyScript starts
                assert re.search(rf'<link rel="preload" href="[./]*app/{re.escape(file)}" as="fetch" crossorigin>',
                                 html), (page.output, file)
            assert not re.search(r'href="[./]*app/[a-z_]+\.mpy"', html.replace("app/pack.mpy", "")), page.output
        elif page.template == "botlab":  # its own worker (Pyodide), started by its module
            assert 'id="engine-status"' in html and "runtime/pyscript/core.js" in html
            assert re.search(r'<script type="mpy" config="[./]*app/botlab\.json">\n'
                             r'import asyncio\nawait asyncio.sleep\(0\)\nimport pack\n'
                             r'pack.mount\("botlab.pack"\)\nimport botlab\n</script>', html)
            assert "engine.js" not in html and 'type="mpy-editor"' in html
        else:
            assert "pyscript" not in html, f"{page.output}: a plain page should not load Python"


def test_a_pages_first_paint_script_waits_for_nothing_the_head_asks_for(built_site, site_pages):
    """With the policy in a <meta> tag, Chromium's preload scanner does not fetch ahead: every
    file the head names must come before the blocking first-paint script, which is fetched first
    of them (its preload at the top)."""
    found = 0
    for page in site_pages:
        html = output(built_site, page).read_text(encoding="utf-8")
        head = html[:html.index("</head>")]
        blocking = re.search(r'<script src="[./]*static/first-paint\.js"[^>]*></script>', head)
        if blocking is None:
            assert "first-paint.js" not in head, page.output
            continue
        found += 1
        fetched = [m.start() for m in re.finditer(r'<link rel="(?:stylesheet|preload|modulepreload)"|<script [^>]*src=', head)
                   if m.start() != blocking.start()]
        preload = re.search(r'<link rel="preload" href="[./]*static/first-paint\.js" as="script">', head)
        assert preload is not None and preload.start() == min(fetched), page.output
        assert max(fetched) < blocking.start(), page.output
    assert found >= 4  # the game, the calculator, the verifier, the replay


def test_tables_have_header_scopes(built_site, site_pages):
    for page in site_pages:
        html = output(built_site, page).read_text(encoding="utf-8")
        for th in re.findall(r"<th\b[^>]*>", html):
            assert "scope=" in th, f"{page.output}: {th}"


def test_the_game_pages_board_follows_its_table_in_the_page(built_site, site_pages):
    """The grid puts the board beside or below the table; in the page it comes after the table,
    so a page drawn before it is wholly read (a slow link, a busy phone) never shows the board
    above a table that then grows and pushes it down."""
    game = next(page for page in site_pages if page.template == "game")
    html = output(built_site, game).read_text(encoding="utf-8")
    felt, board, side = html.index('id="felt"'), html.index('id="board"'), html.index('class="game-side"')
    assert felt < board < side


def test_each_card_picker_lists_its_buttons_cards_in_their_order(built_site):
    """cardview.Picker reads a picker's cards from its data-cards and draws only the cards whose
    state changes, so each grid lists its buttons' cards in the buttons' order, and each button
    starts as a card not yet used."""
    from html.parser import HTMLParser

    class Pickers(HTMLParser):
        def __init__(self):
            super().__init__()
            self.listed, self.buttons, self.current = {}, {}, None

        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            if "picker" in (attrs.get("class") or "").split():
                self.current = attrs["id"]
                self.listed[self.current] = (attrs.get("data-cards") or "").split()
                self.buttons[self.current] = []
            elif tag == "button" and self.current and "pick" in (attrs.get("class") or "").split():
                self.buttons[self.current].append((attrs.get("data-card"), attrs.get("aria-disabled")))

    found = Pickers()
    found.feed((built_site / "calculator" / "index.html").read_text(encoding="utf-8"))
    assert sorted(found.listed) == ["calc-picker", "discard-picker"]
    for grid, names in found.listed.items():
        assert len(names) == 52 and len(set(names)) == 52, grid
        assert found.buttons[grid] == [(name, "false") for name in names], grid
