"""Site addresses: root-relative links made relative and checked, the sitemap and robots.txt."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import urlsplit
from xml.sax.saxutils import escape as xml_escape

from site_src.builder.pages import Page
from site_src.builder.settings import BuildError

# Attributes whose values are URLs the build rewrites and checks.
URL_ATTR_RE = re.compile(r'(\s(?:href|src|config|action|poster|data-src)=")([^"]*)(")')
ID_RE = re.compile(r'\sid="([^"]+)"')
SRCSET_ATTR_RE = re.compile(r'(\ssrcset=")([^"]*)(")')


def is_root_relative(url: str) -> bool:
    """True for "/rules/" style addresses (not "//host/..." or relative ones)."""
    return url.startswith("/") and not url.startswith("//")


def relative_prefix(depth: int) -> str:
    """Path from a page ``depth`` folders down back to the site root ("./", "../", ...)."""
    return "../" * depth or "./"


class Links:
    """Rewrites root-relative URLs to relative ones and records what each page links to."""

    def __init__(self, slugs: set[str]):
        self.slugs = slugs
        self.files: list[tuple[str, str]] = []  # (page output, site path) to check once written
        self.anchors: list[tuple[str, str, str]] = []  # (page output, slug, #fragment) to check
        self.errors: list[str] = []

    def target(self, url: str, where: str) -> str | None:
        """Site path (no leading slash) for a root-relative URL, or None if it is not one."""
        if not is_root_relative(url):
            return None
        parts = urlsplit(url)
        path = parts.path.lstrip("/")
        suffix = (f"?{parts.query}" if parts.query else "") + (f"#{parts.fragment}" if parts.fragment else "")
        if path == "":
            if "index" not in self.slugs:
                self.errors.append(f"{where}: links to {url!r} but there is no home page (pages/index.md)")
            elif parts.fragment:
                self.anchors.append((where, "index", parts.fragment))
            return suffix or ""
        first = path.split("/", 1)[0]
        if path.rstrip("/") == first and "." not in first:
            if first not in self.slugs or first == "index":
                self.errors.append(f"{where}: links to {url!r} but no page has slug {first!r}")
            elif parts.fragment:
                self.anchors.append((where, first, parts.fragment))
            return f"{first}/{suffix}"
        self.files.append((where, path))
        return path + suffix

    def rewrite(self, text: str, depth: int, where: str) -> str:
        """Every root-relative href/src/config/srcset in ``text`` made relative to a page at ``depth``."""
        prefix = relative_prefix(depth)

        def one(url: str) -> str:
            target = self.target(url, where)
            return url if target is None else prefix + target

        def attr(match: re.Match) -> str:
            return match.group(1) + one(html.unescape(match.group(2))).replace("&", "&amp;") + match.group(3)

        def srcset(match: re.Match) -> str:
            items = []
            for item in match.group(2).split(","):
                bits = item.strip().split(None, 1)
                if bits:
                    bits[0] = one(bits[0])
                    items.append(" ".join(bits))
            return match.group(1) + ", ".join(items) + match.group(3)

        return SRCSET_ATTR_RE.sub(srcset, URL_ATTR_RE.sub(attr, text))

    def check_anchors(self, pages: dict[str, str]) -> None:
        """Check every #fragment against the ids of the rendered ``pages`` (slug -> HTML), then
        fail on every broken link found so far."""
        ids = {slug: set(ID_RE.findall(text)) for slug, text in pages.items()}
        for where, slug, fragment in self.anchors:
            if fragment not in ids[slug]:
                self.errors.append(f"{where}: links to #{fragment} on /{'' if slug == 'index' else slug + '/'} "
                                   f"but that page has no such id (a heading's id or {{#id}})")
        if self.errors:
            raise BuildError("broken internal links:\n  " + "\n  ".join(dict.fromkeys(self.errors)))

    def check_files(self, out: Path) -> None:
        """Fail if a page links to a file that is not in the build written to ``out``."""
        missing = sorted({f"{where}: {path}" for where, path in self.files if not (out / path).is_file()})
        if missing:
            raise BuildError("links to files that are not in the build:\n  " + "\n  ".join(missing))


def under_base_path(text: str, base_path: str) -> str:
    """``text`` with its root-relative links moved under ``base_path`` (SITE_URL's path, "" for none):
    for 404.html, which is served at any missing address and so cannot use relative links."""
    if not base_path:
        return text
    return URL_ATTR_RE.sub(
        lambda m: m.group(1) + (base_path + m.group(2) if is_root_relative(m.group(2)) else m.group(2)) + m.group(3),
        text,
    )


def write_sitemap(out: Path, pages: list[Page], base_url: str) -> None:
    """sitemap.xml listing every page's canonical address."""
    entries = []
    for page in sorted(pages, key=lambda p: (p.slug != "index", p.slug)):
        lastmod = f"<lastmod>{page.updated}</lastmod>" if page.updated else ""
        entries.append(f"  <url><loc>{xml_escape(base_url + '/' + page.path)}</loc>{lastmod}</url>")
    (out / "sitemap.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        + "\n".join(entries) + "\n</urlset>\n",
        encoding="utf-8",
    )


def write_robots(out: Path, base_url: str) -> None:
    """robots.txt: every page may be crawled, and where the sitemap is."""
    (out / "robots.txt").write_text(f"User-agent: *\nAllow: /\n\nSitemap: {base_url}/sitemap.xml\n", encoding="utf-8")
