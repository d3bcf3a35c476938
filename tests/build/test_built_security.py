"""The built pages' Content-Security-Policy: present first on every page, local only, strict."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import build
from site_src.builder import security
from site_src.builder.meeting import MEET_PAGE, SCRIPTS

META_RE = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


def html_files(site: Path) -> list[Path]:
    """The site's pages (the meeting point's frame is a document of its own: see its test)."""
    return sorted(p for p in site.rglob("*.html") if p.relative_to(site) != Path(MEET_PAGE))


def parse_policy(text: str) -> dict[str, list[str]]:
    policy = {}
    for part in text.split(";"):
        words = part.split()
        if words:
            assert words[0] not in policy, f"directive {words[0]} twice"
            policy[words[0]] = words[1:]
    return policy


@pytest.fixture(scope="module")
def policies(built_site) -> dict[str, tuple[str, dict[str, list[str]]]]:
    """Page file (relative) -> (its HTML, its parsed policy)."""
    found = {}
    for path in html_files(built_site):
        text = path.read_text(encoding="utf-8")
        metas = META_RE.findall(text)
        assert len(metas) == 1, f"{path.relative_to(built_site)}: {len(metas)} CSP meta tags"
        found[str(path.relative_to(built_site))] = (text, parse_policy(metas[0]))
    return found


def test_every_page_has_the_policy_first_in_head(built_site, policies):
    """The policy only covers what follows it, so it comes straight after the charset."""
    for name, (text, _) in policies.items():
        head = text.split("<head>", 1)[1]
        first_tags = re.findall(r"<[a-z][^>]*>", head)[:2]
        assert first_tags[0] == '<meta charset="utf-8">', name
        assert first_tags[1].startswith('<meta http-equiv="Content-Security-Policy"'), name


def test_policy_allows_no_other_host_and_nothing_inline(policies):
    for name, (text, policy) in policies.items():
        assert policy["default-src"] == ["'none'"], name
        for directive, sources in policy.items():
            for source in sources:
                allowed = source in ("'self'", "'none'", "'unsafe-eval'", "'unsafe-hashes'")
                allowed = allowed or (directive == "worker-src" and source == "blob:")
                allowed = allowed or (directive in ("style-src", "style-src-attr") and source.startswith("'sha256-"))
                allowed = allowed or (directive == "script-src" and source in security.sandbox_script_sources(text))
                assert allowed, f"{name}: {directive} allows {source}"
        assert "'unsafe-inline'" not in str(policy), name
        assert policy["base-uri"] == ["'none'"] and policy["form-action"] == ["'self'"], name
        assert "data:" not in str(policy), name
        for directive, sources in policy.items():  # PyScript starts the engine's worker from a blob:
            sandboxed = directive == "script-src" and security.SANDBOX_RE.search(text)  # the bot's frame
            assert "blob:" not in sources or directive == "worker-src" or sandboxed, f"{name}: {directive} allows blob:"


def test_only_pages_that_run_python_may_eval(policies):
    """'unsafe-eval' (PyScript needs it), connect-src and blob: workers (PyScript's way of starting
    the engine's worker) only where PyScript can start."""
    python_pages = []
    for name, (text, policy) in policies.items():
        python = bool(re.search(r'type="(?:mpy|py)"|pyscript/core\.js|python-on-demand\.js', text))
        if python:
            python_pages.append(name)
            assert policy["script-src"] == ["'self'", "'unsafe-eval'"] + security.sandbox_script_sources(text), name
            assert policy["connect-src"] == ["'self'"], name
            assert policy["worker-src"] == ["'self'", "blob:"], name
        else:
            assert policy["script-src"] == ["'self'"], name
            assert "connect-src" not in policy, name
            assert policy["worker-src"] == ["'self'"], name
    assert python_pages, "no page runs Python"
    assert "404.html" not in python_pages and "rules/index.html" not in python_pages


def test_no_page_has_inline_styles_or_allows_them(policies):
    """Only the site's stylesheets; the page with PyScript's code editor (the bot lab) also allows
    the one <style> the editor writes, by its hash."""
    editor = security.style_hash(security.EDITOR_SHADOW_STYLE)
    for name, (text, policy) in policies.items():
        assert not security.STYLE_ATTR_RE.findall(text), name
        expected = ["'self'", editor] if 'type="mpy-editor"' in text else ["'self'"]
        assert policy["style-src"] == expected and "style-src-attr" not in policy, name
    assert any(editor in policy["style-src"] for _, policy in policies.values())


def test_a_page_with_its_own_policy_or_no_charset_fails_the_build():
    page = '<!doctype html><html><head><meta charset="utf-8"><title>x</title></head><body></body></html>'
    assert security.with_csp(page, "x.html").count("Content-Security-Policy") == 1
    with pytest.raises(build.BuildError, match="its own Content-Security-Policy"):
        security.with_csp(security.with_csp(page, "x.html"), "x.html")
    with pytest.raises(build.BuildError, match="charset"):
        security.with_csp(page.replace('<meta charset="utf-8">', ""), "x.html")


def test_the_bot_lab_runs_the_bot_in_an_opaque_sandbox(built_site, policies):
    """The bot lab's frame: its document holds the frame's script and nothing else that runs,
    the page allows exactly that script by its hash (and blob: for the modules its worker makes),
    and the page module makes the frame with sandbox="allow-scripts" alone."""
    import html

    from site_src.builder import botlab

    if "bot-lab/index.html" not in policies:
        pytest.skip("the bot lab is not built")
    text, policy = policies["bot-lab/index.html"]
    found = security.SANDBOX_RE.findall(text)
    assert len(found) == 1
    document = html.unescape(found[0])
    assert document == botlab.sandbox_srcdoc()
    scripts = security.INLINE_SCRIPT_RE.findall(document)
    assert scripts == [botlab.SANDBOX_FRAME.read_text(encoding="utf-8")]
    assert document.count("<script") == 1 and "src=" not in document
    assert policy["script-src"] == ["'self'", "'unsafe-eval'", security.style_hash(scripts[0]), "blob:"]
    source = (botlab.APP_DIR / "botlab_sandbox.py").read_text(encoding="utf-8")
    assert 'SANDBOX = "allow-scripts"' in source and "allow-same-origin" not in source.split('SANDBOX = "', 1)[1].split("\n")[0]
    others = [name for name, (page, _) in policies.items() if security.SANDBOX_RE.search(page) and name != "bot-lab/index.html"]
    assert not others, others
    manifest = json.loads((built_site / "app" / botlab.SANDBOX_MANIFEST).read_text(encoding="utf-8"))
    assert (built_site / "app" / manifest["runner"]).is_file()
    assert [path for _, path in manifest["files"]][-1] == "botlab_worker.py"
    for source_path, _ in manifest["files"]:
        assert (built_site / "app" / source_path).is_file(), source_path


def test_the_meeting_point_frame_may_open_websockets_and_nothing_else(built_site, policies):
    """meet.html runs sandboxed, with its own policy: its two scripts from the site, WebSockets to
    the relay the page hands it, no inline script, no eval, nothing else; only the game page,
    which plays friend games, may frame it."""
    text = (built_site / MEET_PAGE).read_text(encoding="utf-8")
    policy = parse_policy(META_RE.search(text).group(1))
    assert policy == {"default-src": ["'none'"], "script-src": ["'self'"], "connect-src": ["ws:", "wss:"],
                      "base-uri": ["'none'"], "form-action": ["'none'"]}
    assert re.findall(r"<script[^>]*>", text) == [f'<script src="{src}">' for src in SCRIPTS]
    framed = {name: policy["frame-src"] for name, (_, policy) in policies.items() if "frame-src" in policy}
    assert framed == {"index.html": ["'self'"]}
