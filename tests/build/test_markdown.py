"""Markdown rendering details: tables, headings, FAQ answers, JSON-LD escaping."""

from __future__ import annotations

import json
from pathlib import Path

from site_src.builder import pages, render


def body(text: str) -> str:
    page = pages.Page(source=Path("x.md"), slug="x", title="X", h1="X", description="d", body=text)
    return render.Renderer(providers={}).body(page)


def test_tables_get_column_scopes_align_attributes_and_a_scroll_wrapper():
    html = body("| Card | Value |\n|:--|--:|\n| Ace | 1 |\n")
    assert '<div class="table-wrap" role="region" tabindex="0" aria-label="Table: Card, Value"><table>' in html
    assert '<th scope="col" align="left">Card</th>' in html
    assert '<td align="right">1</td>' in html
    assert "style=" not in html  # alignment without inline styles keeps a strict CSP possible


def test_headings_get_ids_and_attr_list_works():
    html = body("## The show\n\n## Muggins {#muggins}\n\nText {: .note }\n")
    assert '<h2 id="the-show">The show</h2>' in html and '<h2 id="muggins">Muggins</h2>' in html


def test_faq_answer_starting_with_a_number_stays_a_sentence():
    renderer = render.Renderer(providers={})
    html = renderer.inline(render.faq_answer_markdown("121. The first player to reach it wins."))
    assert html == "<p>121. The first player to reach it wins.</p>"


def test_json_ld_cannot_close_its_script_element():
    text = str(render.json_ld({"text": "</script><script>alert(1)</script> & more"}))
    assert "</" not in text and "<" not in text
    assert json.loads(text)["text"] == "</script><script>alert(1)</script> & more"


def test_plain_text_of_an_answer():
    assert render.plain_text("<p>No. See <a href='/x/'>the chart</a>.</p><p>Next.</p>") == "No. See the chart. Next."
