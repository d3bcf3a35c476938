"""Stylesheets: the several a page links, joined into one file so the page waits on one download.

The templates link the stylesheets a page needs one by one (site.css, then the page's own). The
build replaces such a run of links with one link to ``static/styles-HASH.css``, the same files
joined in the same order (so the cascade is unchanged), named by a digest of their names. The link
says which sheets it holds (``data-sheets="site board game"``), so a page module that would add
a sheet of its own (the board's) sees it is there already. A page that links one sheet keeps it.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from site_src.builder.settings import BuildError

STYLE_RUN_RE = re.compile(r'(?:<link rel="stylesheet" href="(?:\.\./|\./)*static/[a-z0-9-]+\.css">\n)+')
STYLE_LINK_RE = re.compile(r'<link rel="stylesheet" href="((?:\.\./|\./)*)static/([a-z0-9-]+)\.css">')


def bundle_name(sheets: list[str]) -> str:
    """The joined file's name for these sheet names (in order): "styles-" and a digest."""
    return "styles-" + hashlib.sha256("|".join(sheets).encode("utf-8")).hexdigest()[:10] + ".css"


def with_style_bundle(page_html: str, bundles: dict[str, list[str]]) -> str:
    """The page with its first run of two or more stylesheet links replaced by one joined sheet;
    records the joined file in ``bundles`` (file name -> the sheets in it, in order)."""
    run = STYLE_RUN_RE.search(page_html)
    if run is None:
        return page_html
    links = STYLE_LINK_RE.findall(run.group(0))
    if len(links) < 2:
        return page_html
    prefix = links[0][0]
    sheets = [name for _, name in links]
    if len(set(sheets)) != len(sheets):
        raise BuildError(f"a page links a stylesheet twice: {', '.join(sheets)}")
    name = bundle_name(sheets)
    bundles[name] = sheets
    tag = f'<link rel="stylesheet" href="{prefix}static/{name}" data-sheets="{" ".join(sheets)}">\n'
    return page_html[:run.start()] + tag + page_html[run.end():]


def write_style_bundles(static: Path, bundles: dict[str, list[str]]) -> None:
    """Write each joined stylesheet into static/ (after the sheets themselves are in place)."""
    for name, sheets in sorted(bundles.items()):
        parts = []
        for sheet in sheets:
            path = static / f"{sheet}.css"
            if not path.is_file():
                raise BuildError(f"a page links static/{sheet}.css, which does not exist")
            parts.append(f"/* {sheet}.css */\n" + path.read_text(encoding="utf-8").rstrip("\n") + "\n")
        (static / name).write_text("".join(parts), encoding="utf-8")
