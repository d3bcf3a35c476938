"""Reading built HTML for the checks: the URLs a page references, its ids, its metadata."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

URL_ATTRS = {"href", "src", "srcset", "config", "poster", "data", "action", "data-src"}
# Tags whose URL is loaded into the page (as opposed to a link the visitor may follow).
RESOURCE_TAGS = {"script", "img", "iframe", "frame", "source", "video", "audio", "track",
                 "embed", "object", "input", "image", "use"}
FOLLOW_LINK_RELS = {"canonical", "alternate", "author", "help", "license", "next", "prev",
                    "search", "bookmark", "external", "nofollow", "noopener", "noreferrer"}


@dataclass
class Ref:
    """One URL found in a page."""

    tag: str
    attr: str
    url: str
    attrs: dict

    @property
    def is_resource(self) -> bool:
        """True when the browser loads it (scripts, styles, images, frames, configs ...)."""
        if self.attr in ("config",):
            return True
        if self.tag == "link":
            rels = set((self.attrs.get("rel") or "").lower().split())
            return not rels or not rels <= FOLLOW_LINK_RELS
        return self.tag in RESOURCE_TAGS


@dataclass
class ScannedPage:
    """What a built HTML file holds."""

    path: Path
    refs: list[Ref] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    title: str = ""
    meta: dict[str, str] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)
    scripts: list[tuple[dict, str]] = field(default_factory=list)
    headings: list[int] = field(default_factory=list)
    inline_handlers: list[str] = field(default_factory=list)
    style_attrs: int = 0


class _Scanner(HTMLParser):
    def __init__(self, page: ScannedPage):
        super().__init__(convert_charrefs=True)
        self.page = page
        self._in_title = False
        self._script: dict | None = None
        self._script_text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = {k: (v if v is not None else "") for k, v in attrs}
        page = self.page
        if "id" in attrs:
            page.ids.add(attrs["id"])
        if tag == "a" and "name" in attrs:
            page.ids.add(attrs["name"])
        for name, value in attrs.items():
            if name.startswith("on"):
                page.inline_handlers.append(f"<{tag} {name}>")
            if name == "style":
                page.style_attrs += 1
            if name == "srcset":
                for item in value.split(","):
                    if item.strip():
                        page.refs.append(Ref(tag, name, item.strip().split()[0], attrs))
            elif name in URL_ATTRS or (tag in ("use", "image") and name == "xlink:href"):
                page.refs.append(Ref(tag, name, value, attrs))
        if tag == "title" and not page.title:
            self._in_title = True
        elif tag == "meta":
            key = attrs.get("name") or attrs.get("property")
            if key:
                page.meta[key] = attrs.get("content", "")
        elif tag == "link" and attrs.get("rel") in ("canonical",):
            page.links[attrs["rel"]] = attrs.get("href", "")
        elif tag == "script":
            self._script = attrs
            self._script_text = []
        if re.fullmatch(r"h[1-6]", tag):
            page.headings.append(int(tag[1]))

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False
        elif tag == "script" and self._script is not None:
            self.page.scripts.append((self._script, "".join(self._script_text)))
            self._script = None

    def handle_data(self, data):
        if self._in_title:
            self.page.title += data
        if self._script is not None:
            self._script_text.append(data)


def scan(path: Path) -> ScannedPage:
    """Parse one built HTML file."""
    page = ScannedPage(path)
    scanner = _Scanner(page)
    scanner.feed(path.read_text(encoding="utf-8"))
    scanner.close()
    page.title = " ".join(page.title.split())
    return page


def is_remote(url: str) -> bool:
    """True for a URL on another host (http:, https:, protocol-relative, or other schemes)."""
    parts = urlsplit(url)
    if url.startswith("//"):
        return True
    return bool(parts.scheme) and parts.scheme not in ("data", "blob", "about")


def local_target(site: Path, page: Path, url: str) -> tuple[Path, str] | None:
    """The file a local URL in ``page`` points at, and its #fragment; None for remote URLs.

    Root-relative URLs (only 404.html uses them) resolve from the site root.
    """
    if is_remote(url) or url.startswith(("mailto:", "tel:", "data:", "javascript:")):
        return None
    base = "http://site.invalid/" + page.relative_to(site).as_posix()
    full = urlsplit(urljoin(base, url))
    path = unquote(full.path).lstrip("/")
    target = site / path
    if path == "" or path.endswith("/"):
        target = target / "index.html"
    return target, full.fragment
