"""Pages to HTML: Jinja2 templates, Markdown with data placeholders, tables, the TOC and JSON-LD."""

from __future__ import annotations

import html
import json
import re
from datetime import date
from pathlib import Path
from typing import Callable

import jinja2
import markdown
from markupsafe import Markup

from site_src.app.board_draw import first_paint_markup

from site_src.builder.pages import Page
from site_src.builder.settings import TEMPLATES_DIR, BuildError

TOC_MIN_HEADINGS = 4
"""A page with at least this many ## headings gets an "On this page" list."""

MARKDOWN_EXTENSIONS = ["tables", "attr_list", "toc", "fenced_code"]
MARKDOWN_CONFIG = {"tables": {"use_align_attribute": True}, "toc": {"toc_depth": "2-4"}}

PLACEHOLDER_RE = re.compile(r"^[ \t]*<!--[ \t]*data:([A-Za-z0-9_-]+)[ \t]*-->[ \t]*$", re.M)
PLACEHOLDER_ANY_RE = re.compile(r"<!--\s*data:\s*([^\s>]*)")


def make_environment(templates_dir: Path = TEMPLATES_DIR) -> jinja2.Environment:
    """The Jinja2 environment: autoescaping, and undefined names fail the build."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["long_date"] = long_date
    return env


def long_date(iso: str) -> str:
    """"2026-11-29" -> "29 November 2026"."""
    day = date.fromisoformat(str(iso)[:10])
    return f"{day.day} {day:%B %Y}"


def new_markdown() -> markdown.Markdown:
    """A Markdown converter with the site's extensions."""
    return markdown.Markdown(extensions=MARKDOWN_EXTENSIONS, extension_configs=MARKDOWN_CONFIG)


class Renderer:
    """Renders pages and fills data placeholders, computing each provider at most once."""

    def __init__(self, providers: dict[str, Callable[[], str]]):
        self.providers = providers  # placeholder name -> function returning its HTML
        self.cache: dict[str, str] = {}
        self.md = new_markdown()
        self.headings: list[dict] = []  # level-2 headings of the last body rendered

    def markdown(self, text: str) -> str:
        """Markdown to HTML (the converter is reset between documents)."""
        self.md.reset()
        return self.md.convert(text)

    def data(self, name: str, source: Path) -> str:
        """The HTML for placeholder ``name``."""
        if name not in self.providers:
            raise BuildError(
                f"{source}: unknown data placeholder <!-- data:{name} -->; "
                f"known: {', '.join(sorted(self.providers)) or 'none'}"
            )
        if name not in self.cache:
            try:
                self.cache[name] = self.providers[name]()
            except BuildError:
                raise
            except Exception as error:
                raise BuildError(f"{source}: data provider {name!r} failed: {type(error).__name__}: {error}") from error
        return self.cache[name]

    def body(self, page: Page) -> str:
        """The page's Markdown body as HTML with data placeholders filled and tables wrapped."""
        for match in PLACEHOLDER_ANY_RE.finditer(page.body):
            line_start = page.body.rfind("\n", 0, match.start()) + 1
            line_end = page.body.find("\n", match.end())
            line = page.body[line_start: None if line_end < 0 else line_end]
            if not PLACEHOLDER_RE.fullmatch(line):
                raise BuildError(
                    f"{page.source}: a data placeholder must be alone on its line as "
                    f"<!-- data:NAME -->, got {line.strip()!r}"
                )
        names = PLACEHOLDER_RE.findall(page.body)
        for name in names:
            self.data(name, page.source)  # unknown names fail before any Markdown work
        out = wrap_tables(self.markdown(page.body))
        self.headings = [
            {"id": token["id"], "name": html.unescape(token["name"])} for token in self.md.toc_tokens
        ]
        for name in names:
            marker = f"<!-- data:{name} -->"
            if marker not in out:
                raise BuildError(f"{page.source}: placeholder {marker} was lost in the Markdown conversion")
            out = out.replace(marker, self.data(name, page.source), 1)
        return out

    def inline(self, text: str) -> str:
        """Markdown for a short text (an FAQ answer)."""
        return wrap_tables(self.markdown(text))


def wrap_tables(body: str) -> str:
    """Give Markdown tables column header scopes and a box that scrolls on narrow screens;
    code blocks, which scroll too, become focusable so a keyboard can scroll them."""
    body = re.sub(r"<table>(.*?)</table>", _wrap_table, body, flags=re.S)
    return body.replace("<pre>", '<pre tabindex="0">')


def table_wrap(label: str) -> str:
    """Opening tag of the box a table scrolls in on narrow screens (focusable, so keyboards can scroll)."""
    return f'<div class="table-wrap" role="region" tabindex="0" aria-label="{html.escape(label, quote=True)}">'


def _wrap_table(match: re.Match) -> str:
    inner = match.group(1)
    inner = re.sub(
        r"<thead>(.*?)</thead>",
        lambda m: "<thead>" + re.sub(r"<th(?=[\s>])(?![^>]*scope=)", '<th scope="col"', m.group(1)) + "</thead>",
        inner,
        flags=re.S,
    )
    caption = re.search(r"<caption>(.*?)</caption>", inner, re.S)
    if caption:
        label = plain_text(caption.group(1))
    else:
        heads = [plain_text(h) for h in re.findall(r"<th\b[^>]*>(.*?)</th>", inner, re.S)]
        label = "Table: " + ", ".join(h for h in heads if h) if any(heads) else "Table"
    return f"{table_wrap(label)}<table>{inner}</table></div>"


def plain_text(fragment: str) -> str:
    """Text content of an HTML fragment, whitespace collapsed."""
    fragment = re.sub(r"<(?:br|/p|/li|/h\d|/div|/tr|/td|/th)\b[^>]*>", " ", fragment)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def first_paint_board() -> Markup:
    """The game page's board for its first paint, drawn by the page's own code
    (site_src/app/board_draw.py: numbers and fixed words only)."""
    return Markup(first_paint_markup())


def json_ld(data: dict) -> Markup:
    """JSON for a <script type="application/ld+json"> block, safe inside HTML."""
    text = json.dumps(data, ensure_ascii=False, indent=1)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)


def faq_answer_markdown(answer: str) -> str:
    """An FAQ answer's Markdown, except that "121. The first ..." stays a sentence, not a list."""
    return re.sub(r"^(\d+)\.(?=\s)", r"\1\\.", answer)


def page_context(page: Page, renderer: Renderer, base_url: str) -> dict:
    """Template variables for one page."""
    canonical = f"{base_url}/{page.path}"
    faq = [{"q": item["q"], "a": Markup(renderer.inline(faq_answer_markdown(item["a"])))} for item in page.faq]
    ld = None
    if faq:
        ld = json_ld({
            "@context": "https://schema.org",
            "@type": "FAQPage",
            "url": canonical,
            "mainEntity": [
                {
                    "@type": "Question",
                    "name": item["q"],
                    "acceptedAnswer": {"@type": "Answer", "text": plain_text(str(item["a"]))},
                }
                for item in faq
            ],
        })
    content = Markup(renderer.body(page))
    toc = renderer.headings
    return {
        "page": page,
        "content": content,
        "toc": toc if len(toc) >= TOC_MIN_HEADINGS else [],
        "faq": faq,
        "json_ld": ld,
        "canonical": canonical,
        "og_type": "website" if page.template != "page" else "article",
    }
