"""The pages: pages/*.md read into Page objects, front matter checked, the navigation ordered."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

import yaml

from site_src.builder.settings import PAGES_DIR, BuildError

PAGE_TEMPLATES = ("page", "game", "calculator", "verifier", "botlab", "replay")
FRONT_MATTER_KEYS = {
    "title", "h1", "description", "slug", "nav", "nav_order", "template", "updated", "faq",
}
REQUIRED_KEYS = ("title", "description")
SLUG_RE = re.compile(r"^(?:index|[a-z0-9]+(?:-[a-z0-9]+)*)$")
HEADER_NAV_MAX_ORDER = 100
"""Pages whose ``nav_order`` is below this (and that have a ``nav`` label) go in the header."""


@dataclass
class Page:
    """One Markdown page and its front matter."""

    source: Path
    slug: str
    title: str
    h1: str
    description: str
    body: str
    template: str = "page"
    nav: str | None = None
    nav_order: float | None = None
    updated: str | None = None
    faq: list[dict] = field(default_factory=list)

    @property
    def path(self) -> str:
        """Site path without the leading slash: "" for home, "rules/" otherwise."""
        return "" if self.slug == "index" else f"{self.slug}/"

    @property
    def output(self) -> str:
        """File path of the page inside dist/."""
        return f"{self.path}index.html"

    @property
    def depth(self) -> int:
        """How many folders below the site root the page's file sits."""
        return self.path.count("/")

    @property
    def label(self) -> str:
        """Short name for links to the page."""
        return self.nav or self.h1


def split_front_matter(text: str, source: Path) -> tuple[dict, str]:
    """Split ``---`` YAML front matter from the Markdown body."""
    text = text.lstrip("\ufeff")
    match = re.match(r"^---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|$)", text, re.S)
    if not match:
        raise BuildError(f"{source}: must start with YAML front matter between '---' lines")
    try:
        meta = yaml.safe_load(match.group(1)) or {}
    except yaml.YAMLError as error:
        hint = " (put quotes around a value that contains ': ')" if "mapping values" in str(error) else ""
        raise BuildError(f"{source}: front matter is not valid YAML{hint}: {error}") from None
    if not isinstance(meta, dict):
        raise BuildError(f"{source}: front matter must be a mapping of keys to values")
    return meta, text[match.end():]


def _text(meta: dict, key: str, source: Path, required: bool = False) -> str | None:
    value = meta.get(key)
    if value is None:
        if required:
            raise BuildError(f"{source}: front matter needs '{key}'")
        return None
    if isinstance(value, (date, datetime)):
        return value.isoformat()[:10]
    if not isinstance(value, (str, int, float)) or isinstance(value, bool) or not str(value).strip():
        raise BuildError(f"{source}: '{key}' must be non-empty text, got {value!r}")
    return str(value).strip()


def parse_page(source: Path) -> Page:
    """Read one pages/*.md file into a Page, checking its front matter against the contract."""
    meta, body = split_front_matter(source.read_text(encoding="utf-8"), source)
    unknown = sorted(set(meta) - FRONT_MATTER_KEYS)
    if unknown:
        raise BuildError(
            f"{source}: unknown front matter key(s) {', '.join(unknown)}; "
            f"allowed: {', '.join(sorted(FRONT_MATTER_KEYS))}"
        )
    title = _text(meta, "title", source, required=True)
    slug = _text(meta, "slug", source) or source.stem
    if not SLUG_RE.match(slug):
        raise BuildError(f"{source}: slug {slug!r} must be lowercase letters, digits and hyphens")
    template = _text(meta, "template", source) or "page"
    if template not in PAGE_TEMPLATES:
        raise BuildError(f"{source}: template {template!r} is not one of {', '.join(PAGE_TEMPLATES)}")
    nav_order = meta.get("nav_order")
    if nav_order is not None and (isinstance(nav_order, bool) or not isinstance(nav_order, (int, float))):
        raise BuildError(f"{source}: nav_order must be a number, got {nav_order!r}")
    faq = meta.get("faq") or []
    if not isinstance(faq, list) or not all(
        isinstance(item, dict) and set(item) == {"q", "a"} and all(
            isinstance(item[k], str) and item[k].strip() for k in ("q", "a"))
        for item in faq
    ):
        raise BuildError(f"{source}: faq must be a list of entries with text 'q' and 'a'")
    return Page(
        source=source,
        slug=slug,
        title=title,
        h1=_text(meta, "h1", source) or title,
        description=_text(meta, "description", source, required=True),
        body=body,
        template=template,
        nav=_text(meta, "nav", source),
        nav_order=nav_order,
        updated=_text(meta, "updated", source),
        faq=[{"q": item["q"].strip(), "a": item["a"].strip()} for item in faq],
    )


def load_pages(pages_dir: Path = PAGES_DIR) -> list[Page]:
    """Every pages/*.md as a Page, in file-name order; slugs must be unique."""
    pages = [parse_page(path) for path in sorted(pages_dir.glob("*.md"))]
    seen: dict[str, Path] = {}
    for page in pages:
        if page.slug in seen:
            raise BuildError(f"{page.source}: slug {page.slug!r} is already used by {seen[page.slug]}")
        seen[page.slug] = page.source
    return pages


def nav_links(pages: list[Page]) -> tuple[list[Page], list[Page]]:
    """(header pages, footer pages): header = ``nav`` pages with nav_order below HEADER_NAV_MAX_ORDER."""

    def key(page: Page) -> tuple:
        return (page.nav_order if page.nav_order is not None else 10_000, page.label.lower())

    header = sorted(
        (p for p in pages if p.nav and (p.nav_order is None or p.nav_order < HEADER_NAV_MAX_ORDER)), key=key
    )
    footer = sorted((p for p in pages if p not in header), key=key)
    return header, footer
