"""Every page's Content-Security-Policy <meta>: static pages and pages that run Python."""

from __future__ import annotations

import re

from site_src.builder.settings import BuildError

CSP_STATIC = {
    "default-src": ("'none'",),
    "script-src": ("'self'",),
    "style-src": ("'self'",),
    "img-src": ("'self'",),
    "manifest-src": ("'self'",),
    "worker-src": ("'self'",),  # the offline service worker, /sw.js
    "base-uri": ("'none'",),
    "form-action": ("'self'",),
}
"""The policy of a page that runs no Python: only the site's own files, nothing inline, no eval."""

CSP_PYTHON_EXTRA = {
    # PyScript 0.7 compiles its plugin hooks with Function() on the page; 'unsafe-eval' also
    # covers compiling MicroPython's WebAssembly.
    "script-src": ("'unsafe-eval'",),
    "connect-src": ("'self'",),  # fetch() of the configs, the .mpy modules and MicroPython's wasm
    "worker-src": ("blob:",),  # PyScript starts a page's own worker (the bot lab's) from a blob: URL
}
"""What a page that runs Python (PyScript with MicroPython, the engine's worker) needs on top."""
# No Trusted Types: with require-trusted-types-for 'script', PyScript 0.7 cannot start (it
# builds its hooks with Function(), which Trusted Types refuse; measured). The site's own HTML
# sinks, the board's SVG and its legend (site_src/app/board_draw.py), hold only numbers and fixed
# words, and pages that run no Python have no sink at all.

SANDBOX_RE = re.compile(r'\sdata-sandbox-srcdoc="([^"]*)"')
"""A sandboxed frame's document written into the page (the bot lab's: site_src/builder/botlab.py).
Such a frame (``<iframe sandbox="allow-scripts" srcdoc>``, of an opaque origin) inherits the
page's policy, so the page allows the frame's inline scripts by their hashes, and ``blob:`` in
script-src: the frame's worker loads Pyodide's modules from the bytes the page hands it, because
the frame can fetch nothing of the site's. Creating a blob: script takes running script already
(as eval does, which these pages allow), so no markup can bring one in."""
INLINE_SCRIPT_RE = re.compile(r"<script>(.*?)</script>", re.S)

EDITOR_SHADOW_STYLE = ":host { all: initial; }"
"""The one <style> PyScript's code editor writes (into its shadow root, so the page's styles
stay out of it): a page with ``<script type="mpy-editor">`` allows exactly this text by its hash."""
EDITOR_RE = re.compile(r'<script\b[^>]*\stype="(?:mpy|py)-editor"')


def style_hash(text: str) -> str:
    """The CSP source that allows one inline <style> with exactly this text."""
    import base64
    import hashlib

    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def sandbox_script_sources(page_html: str) -> list[str]:
    """The script-src sources a page's sandboxed frames need: each inline script's hash, and blob:."""
    import html

    sources = []
    for found in SANDBOX_RE.finditer(page_html):
        scripts = INLINE_SCRIPT_RE.findall(html.unescape(found.group(1)))
        sources += [style_hash(script) for script in scripts]  # a script's hash is made as a style's
    return sources + ["blob:"] if sources else []


MEET_FRAME_RE = re.compile(r'\sdata-meet-frame(?:="")?[\s>]')
"""A page that may open the meeting point's frame (meet.html: site_src/builder/meeting.py) for a
friend game: its policy allows frames of the site's own (the frame's own policy, not this
page's, says what it may contact)."""

CSP_META_RE = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')
CHARSET_META = '<meta charset="utf-8">'
RUNS_PYTHON_RE = re.compile(r'<script\b[^>]*\stype="(?:mpy|py)"|/pyscript/core\.js"|/python-on-demand\.js"')
STYLE_ATTR_RE = re.compile(r'<[a-zA-Z][^>]*?\sstyle="([^"]*)"')


def runs_python(page_html: str) -> bool:
    """True if the page starts PyScript, at once or on demand (static/python-on-demand.js)."""
    return bool(RUNS_PYTHON_RE.search(page_html))


def content_security_policy(page_html: str) -> str:
    """The policy for one rendered page: CSP_STATIC, plus CSP_PYTHON_EXTRA if it runs Python.

    No inline style="" attributes are allowed: pages style through the site's own stylesheets.
    """
    policy = {name: list(sources) for name, sources in CSP_STATIC.items()}
    if runs_python(page_html):
        for name, sources in CSP_PYTHON_EXTRA.items():
            policy.setdefault(name, []).extend(sources)
    if EDITOR_RE.search(page_html):
        policy["style-src"].append(style_hash(EDITOR_SHADOW_STYLE))
    policy["script-src"].extend(sandbox_script_sources(page_html))
    if MEET_FRAME_RE.search(page_html):
        policy["frame-src"] = ["'self'"]
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in policy.items())


def with_csp(page_html: str, where: str) -> str:
    """The page with its Content-Security-Policy <meta> first in <head>, right after the charset."""
    if CSP_META_RE.search(page_html):
        raise BuildError(f"{where}: has its own Content-Security-Policy; build.py writes it")
    if CHARSET_META not in page_html:
        raise BuildError(f"{where}: needs {CHARSET_META} first in <head> (the policy follows it)")
    meta = f'<meta http-equiv="Content-Security-Policy" content="{content_security_policy(page_html)}">'
    return page_html.replace(CHARSET_META, f"{CHARSET_META}\n{meta}", 1)
