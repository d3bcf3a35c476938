"""The bot lab's build-time parts: the example bots, the API reference read from the engine's
docstrings, and the sandbox the visitor's bot runs in (its frame's document, its runner, the list
of files the page hands it)."""

from __future__ import annotations

import html
import inspect
import re
from importlib import import_module
from pathlib import Path

from site_src.builder.output import copy_if_changed
from site_src.builder.settings import APP_DIR, SITE_SRC, WORKERS_DIR, BuildError

BOTS_DIR = SITE_SRC / "bots"
EXAMPLES = (
    ("beginner", "A beginner (plays like easy)"),
    ("greedy_pegger", "A greedy pegger"),
    ("expected_value", "Discards by expected value"),
)
"""The example bots the page offers (site_src/bots/NAME.py), the first one prefilled."""

GAME_SECTIONS = ("Actions", "The view")
"""Sections of engine.game's docstring that the reference shows (by the start of their title)."""

HELPERS = (
    ("engine.analysis", "discard_options"),
    ("engine.analysis", "DiscardOption"),
    ("engine.players", "peg_points"),
    ("engine.players", "four_card_points"),
    ("engine.players", "unseen_cards"),
    ("engine.players", "owns_crib"),
    ("engine.players", "get_player"),
    ("engine.scoring", "score_show"),
    ("engine.scoring", "show_total"),
    ("engine.cards", "card_name"),
    ("engine.cards", "parse_cards"),
)
"""The helpers a bot may import, documented on the page by their own docstrings."""


def examples() -> list[dict]:
    """The example bots: id, label and source text (which must not end a <script> early)."""
    found = []
    for name, label in EXAMPLES:
        path = BOTS_DIR / f"{name}.py"
        if not path.is_file():
            raise BuildError(f"{path} is missing: the bot lab offers it as an example")
        source = path.read_text(encoding="utf-8")
        if "</" in source:
            raise BuildError(f"{path}: an example bot may not contain '</' (it is embedded in a <script>)")
        found.append({"id": name, "label": label, "source": source})
    return found


# --- docstrings to HTML ------------------------------------------------------------------------

HEADING_RULE_RE = re.compile(r"^[-=~]{3,}$")
INLINE_CODE_RE = re.compile(r"``(.+?)``")


def inline(text: str) -> str:
    """Escape text and turn ``code`` into <code> elements."""
    return INLINE_CODE_RE.sub(lambda m: f"<code>{m.group(1)}</code>", html.escape(text, quote=False))


def docstring_html(text: str, heading_level: int = 4) -> str:
    """A docstring (reST-like: paragraphs, ``code``, "- " lists, ``>>>`` examples, ``::``
    literal blocks, underlined titles) as HTML."""
    lines = inspect.cleandoc(text).splitlines()
    out: list[str] = []
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if line.lstrip().startswith(">>>"):
            block = []
            while i < n and lines[i].strip():
                block.append(lines[i])
                i += 1
            out.append(code_block(block))
            continue
        if line.startswith("- "):
            items: list[list[str]] = []
            while i < n and (lines[i].startswith("- ") or (lines[i].startswith("  ") and items)):
                if lines[i].startswith("- "):
                    items.append([lines[i][2:].strip()])
                else:
                    items[-1].append(lines[i].strip())
                i += 1
            out.append("<ul>" + "".join(f"<li>{inline(' '.join(item))}</li>" for item in items) + "</ul>")
            continue
        para = []
        heading = False
        while i < n and lines[i].strip() and not lines[i].startswith("- ") and not lines[i].lstrip().startswith(">>>"):
            para.append(lines[i].strip())
            i += 1
            if i < n and HEADING_RULE_RE.match(lines[i].strip()):  # a title (of one line or more)
                heading = True
                i += 1
                break
        if heading:
            out.append(f"<h{heading_level}>{inline(' '.join(para))}</h{heading_level}>")
            continue
        literal = bool(para) and para[-1].endswith("::")
        if para:
            if literal:
                para[-1] = para[-1][:-1]
            out.append(f"<p>{inline(' '.join(para))}</p>")
        if literal:
            while i < n and not lines[i].strip():
                i += 1
            block = []
            while i < n and (lines[i].startswith((" ", "\t")) or not lines[i].strip()):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            out.append(code_block(block))
    return "\n".join(out)


def code_block(lines: list[str]) -> str:
    """Lines of code, their common indentation removed, as <pre><code>."""
    indent = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
    body = "\n".join(x[indent:] for x in lines)
    return f'<pre class="code" tabindex="0"><code>{html.escape(body, quote=False)}</code></pre>'


def doc_sections(text: str, titles: tuple[str, ...]) -> str:
    """The sections of a docstring whose underlined titles start with one of ``titles``."""
    lines = inspect.cleandoc(text).splitlines()
    starts = []
    for i in range(1, len(lines)):
        if HEADING_RULE_RE.match(lines[i].strip()) and lines[i - 1].strip():
            start = i - 1
            while start > 0 and lines[start - 1].strip():  # a title may take more than one line
                start -= 1
            starts.append(start)
    chosen = []
    for k, start in enumerate(starts):
        if lines[start].strip().startswith(titles):
            end = starts[k + 1] if k + 1 < len(starts) else len(lines)
            chosen.append("\n".join(lines[start:end]))
    if len(chosen) != len(titles):
        raise BuildError(f"the docstring has no section starting {titles}: the bot lab's reference needs them")
    return "\n\n".join(chosen)


def signature(obj) -> str:
    """``name(params)`` of a function or class, without annotations."""
    try:
        params = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return obj.__name__
    shown = []
    for p in params:
        if p.name == "self":
            continue
        text = p.name
        if p.default is not inspect.Parameter.empty:
            text += "=" + repr(p.default)
        shown.append(text)
    return f"{obj.__name__}({', '.join(shown)})"


def api_reference() -> str:
    """The reference a bot writer reads: engine.bots' guide, the actions and the view as
    engine.game describes them, and the helpers' own docstrings."""
    bots = import_module("engine.bots")
    game = import_module("engine.game")
    parts = ['<div class="api-doc" id="api-guide">', docstring_html(bots.__doc__), "</div>",
             '<h3 id="api-view">The actions and the view, as the engine documents them</h3>',
             '<div class="api-doc">', docstring_html(doc_sections(game.__doc__, GAME_SECTIONS)), "</div>",
             '<h3 id="api-helpers">Helpers</h3>', '<dl class="api-helpers">']
    for module_name, name in HELPERS:
        obj = getattr(import_module(module_name), name, None)
        if obj is None or not obj.__doc__:
            raise BuildError(f"{module_name}.{name} is missing or has no docstring (the bot lab documents it)")
        anchor = f"api-{name.lower()}"
        parts.append(f'<dt id="{anchor}"><code>{html.escape(module_name)}.{html.escape(signature(obj))}</code></dt>')
        parts.append(f"<dd>{docstring_html(obj.__doc__, heading_level=5)}</dd>")
    parts.append("</dl>")
    return "\n".join(parts)


# --- the sandbox ------------------------------------------------------------------------------

SANDBOX_FRAME = APP_DIR / "botlab_frame.js"
"""The script of the frame the bot runs in, inline in the frame's document (the page's policy
allows it by its hash, see site_src/builder/security.py)."""
SANDBOX_RUNNER = "botlab_runner.js"  # site_src/workers/: the frame's worker, dist/app/botlab_runner.js
SANDBOX_MANIFEST = "botlab_sandbox.json"  # dist/app/: what the page fetches and hands to the runner
WORKER_CONFIG = "botlab_worker.toml"  # dist/app/: the worker's files (browser_python.py), read here and removed
WORKER_SOURCE = "botlab_worker.py"
PYODIDE_INDEX = "../runtime/pyodide/"  # from dist/app/
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""Pyodide's files the runner boots from: the loader, the runtime, its wasm, the standard library and the lock."""


def sandbox_srcdoc() -> str:
    """The document of the bot's frame: a charset and botlab_frame.js, inline."""
    script = SANDBOX_FRAME.read_text(encoding="utf-8")
    if "</" in script:
        raise BuildError(f"{SANDBOX_FRAME}: may not contain '</' (it is inlined in a <script>)")
    return f'<!doctype html><meta charset="utf-8"><script>{script}</script>'


def write_sandbox(out: Path) -> None:
    """dist/app/botlab_runner.js and dist/app/botlab_sandbox.json: the runner's address, Pyodide's
    files and the Python files (the worker's config's [files], and botlab_worker.py) with their
    paths in Pyodide's file system; addresses are relative to app/. The config, which nothing
    loads once the manifest is written, is removed (so it is neither served nor precached)."""
    import json
    import tomllib

    app = out / "app"
    config = app / WORKER_CONFIG
    if not config.is_file() or not (app / WORKER_SOURCE).is_file():
        raise BuildError(f"{config} or {WORKER_SOURCE} is missing: the bot lab's sandbox needs them")
    listed = tomllib.loads(config.read_text(encoding="utf-8")).get("files", {})
    files = [[source, target.removeprefix("./")] for source, target in sorted(listed.items())]
    files.append([WORKER_SOURCE, WORKER_SOURCE])
    missing = [source for source, _ in files if not (app / source).is_file()]
    missing += [name for name in PYODIDE_FILES if not (app / PYODIDE_INDEX / name).is_file()]
    if missing:
        raise BuildError(f"the bot lab's sandbox would hand over missing files: {', '.join(missing)}")
    copy_if_changed(WORKERS_DIR / SANDBOX_RUNNER, app / SANDBOX_RUNNER)
    manifest = {"runner": SANDBOX_RUNNER, "index": PYODIDE_INDEX, "pyodide": list(PYODIDE_FILES), "files": files}
    (app / SANDBOX_MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    config.unlink()  # the manifest hands the runner its files: no page loads the config itself
