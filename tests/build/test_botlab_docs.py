"""The bot lab's build-time parts: the example bots and the API reference read from the engine's docstrings."""

from __future__ import annotations

import inspect

import pytest

from engine import analysis, bots, game
from site_src.builder import botlab
from site_src.builder.settings import BuildError


def test_reference_is_the_engines_own_text():
    html = botlab.api_reference()
    first = inspect.cleandoc(bots.__doc__).splitlines()[0]
    assert botlab.inline(first) in html
    assert "<h4>The view (<code>state.view(seat)</code>): exactly what that seat may know</h4>" in html
    assert "Events" not in html  # only the sections asked for
    for module, name in botlab.HELPERS:
        assert f'id="api-{name.lower()}"' in html and f"{module}.{name}(" in html
    summary = inspect.cleandoc(analysis.discard_options.__doc__).splitlines()[0]
    assert botlab.inline(summary) in html


def test_docstring_html_reads_the_engines_docstring_forms():
    text = '''Title of a section
    that takes two lines
    ------------------

    A paragraph with ``code`` and <b>.

    - an item
      that goes on
    - another::

        literal = 1

    >>> 1 + 1
    2
    '''
    html = botlab.docstring_html(text)
    assert "<h4>Title of a section that takes two lines</h4>" in html
    assert "<p>A paragraph with <code>code</code> and &lt;b&gt;.</p>" in html
    assert "<li>an item that goes on</li>" in html
    assert '<pre class="code" tabindex="0"><code>&gt;&gt;&gt; 1 + 1\n2</code></pre>' in html


def test_sections_must_exist():
    with pytest.raises(BuildError):
        botlab.doc_sections(game.__doc__, ("No such section",))


def test_examples_are_the_bots_shipped():
    found = botlab.examples()
    assert [e["id"] for e in found] == [name for name, _ in botlab.EXAMPLES]
    assert all("def choose(view, legal_actions):" in e["source"] for e in found)
