"""Build the static site: pages/*.md + site_src/ + engine/ + the vendored browser runtime -> dist/.

``python build.py`` (or ``build()``) writes dist/. Settings come from the environment:
SITE_URL (absolute address the site is served from, for canonical URLs and the sitemap;
default https://cribbage.example).

Pages are Markdown with YAML front matter (see README.md). A line holding only
``<!-- data:NAME -->`` is replaced by the HTML of the data provider NAME; a provider is one
function decorated with ``@provider`` below, returning an HTML string computed from the engine.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import sys
import time
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit
from xml.sax.saxutils import escape as xml_escape

import jinja2
import markdown
import yaml
from markupsafe import Markup

ROOT = Path(__file__).resolve().parent
PAGES_DIR = ROOT / "pages"
SITE_SRC = ROOT / "site_src"
TEMPLATES_DIR = SITE_SRC / "templates"
STATIC_DIR = SITE_SRC / "static"
APP_DIR = SITE_SRC / "app"
ENGINE_DIR = ROOT / "engine"
NODE_MODULES = ROOT / "node_modules"

DEFAULT_SITE_URL = "https://cribbage.example"
SITE_NAME = "Cribbage"
SITE_TAGLINE = "Free cribbage in your browser"
LANGUAGE = "en"

PAGE_TEMPLATES = ("page", "game", "calculator")
FRONT_MATTER_KEYS = {
    "title", "h1", "description", "slug", "nav", "nav_order", "template", "updated", "faq",
}
REQUIRED_KEYS = ("title", "description")
SLUG_RE = re.compile(r"^(?:index|[a-z0-9]+(?:-[a-z0-9]+)*)$")
TOC_MIN_HEADINGS = 4
"""A page with at least this many ## headings gets an "On this page" list."""
HEADER_NAV_MAX_ORDER = 100
"""Pages whose ``nav_order`` is below this (and that have a ``nav`` label) go in the header."""

MARKDOWN_EXTENSIONS = ["tables", "attr_list", "toc", "fenced_code"]
MARKDOWN_CONFIG = {"tables": {"use_align_attribute": True}, "toc": {"toc_depth": "2-4"}}

PLACEHOLDER_RE = re.compile(r"^[ \t]*<!--[ \t]*data:([A-Za-z0-9_-]+)[ \t]*-->[ \t]*$", re.M)
PLACEHOLDER_ANY_RE = re.compile(r"<!--\s*data:\s*([^\s>]*)")

# Files the browser needs from node_modules: (package folder, files or None for "all but maps").
RUNTIME_FILES = {
    "pyodide": ("pyodide", [
        "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
        "pyodide-lock.json",
    ]),
    "pyscript": ("@pyscript/core/dist", None),
    "micropython": ("@micropython/micropython-webassembly-pyscript", [
        "micropython.mjs", "micropython.wasm",
    ]),
}
OUT_MARKER = ".cribbage-build"
ENGINE_WORKER = "worker.py"
UI_CONFIG = "ui.toml"
ENGINE_CONFIG = "engine.toml"

# Attributes whose values are URLs the build rewrites and checks.
URL_ATTR_RE = re.compile(r'(\s(?:href|src|config|action|poster|data-src)=")([^"]*)(")')
ID_RE = re.compile(r'\sid="([^"]+)"')
SRCSET_ATTR_RE = re.compile(r'(\ssrcset=")([^"]*)(")')


class BuildError(Exception):
    """The sources cannot be built; the message says which file and why."""


# --- pages -----------------------------------------------------------------------------------


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


# --- data providers --------------------------------------------------------------------------

PROVIDERS: dict[str, Callable[[], str]] = {}
"""Placeholder name -> function returning the HTML that replaces ``<!-- data:NAME -->``."""


def provider(func: Callable[[], str]) -> Callable[[], str]:
    """Register ``func`` as the data provider named after it (one function per placeholder)."""
    PROVIDERS[func.__name__] = func
    return func


def _num(value: float) -> str:
    return f"{value:,}"


@provider
def score_distribution() -> str:
    """Show scores over every (four-card hand, starter): bar chart and table, hand and crib."""
    from engine import analysis

    hand = list(analysis.score_distribution(crib=False))
    crib = list(analysis.score_distribution(crib=True))
    return render_distribution(hand, crib)


def render_distribution(hand: list[int], crib: list[int]) -> str:
    """The distribution figure: an SVG chart (static, labelled) and the same data as a table."""
    if len(hand) != len(crib):
        raise BuildError("score_distribution: hand and crib lists differ in length")
    total_hand, total_crib = sum(hand), sum(crib)
    share_h = [100 * n / total_hand for n in hand]
    share_c = [100 * n / total_crib for n in crib]
    mean_h = sum(p * n for p, n in enumerate(hand)) / total_hand
    mean_c = sum(p * n for p, n in enumerate(crib)) / total_crib
    top = max(max(share_h), max(share_c))
    step = 5 if top <= 30 else 10
    y_max = step * (int(top // step) + 1)

    width, height = 600, 290
    left, right, top_pad, bottom = 46, 8, 14, 50
    plot_w, plot_h = width - left - right, height - top_pad - bottom
    slot = plot_w / len(hand)
    bar = slot * 0.38

    def y(value: float) -> float:
        return top_pad + plot_h * (1 - value / y_max)

    parts = [
        f'<div class="chart-scroll" role="region" tabindex="0" aria-label="Chart: show scores, hand and crib">'
        f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
        f'aria-labelledby="dist-title dist-desc" xmlns="http://www.w3.org/2000/svg">',
        '<title id="dist-title">How often each show score occurs, hand and crib</title>',
        f'<desc id="dist-desc">Bar chart of the share of all {_num(total_hand)} hand-and-starter '
        f"combinations scoring 0 to {len(hand) - 1} points. The hand averages {mean_h:.2f} points "
        f"and the crib {mean_c:.2f}; the full figures are in the table that follows.</desc>",
    ]
    for tick in range(0, y_max + 1, step):
        ty = y(tick)
        parts.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{ty:.1f}" y2="{ty:.1f}"/>')
        parts.append(f'<text class="tick" x="{left - 6}" y="{ty + 5:.1f}" text-anchor="end">{tick}%</text>')
    for points, (sh, sc) in enumerate(zip(share_h, share_c)):
        x0 = left + points * slot + (slot - 2 * bar) / 2
        for offset, share, cls in ((0, sh, "bar-hand"), (bar, sc, "bar-crib")):
            if share > 0:
                parts.append(
                    f'<rect class="{cls}" x="{x0 + offset:.1f}" y="{y(share):.1f}" '
                    f'width="{bar:.1f}" height="{y(0) - y(share):.1f}"/>'
                )
        if points % 2 == 0:
            parts.append(
                f'<text class="tick" x="{left + (points + 0.5) * slot:.1f}" y="{height - bottom + 19}" '
                f'text-anchor="middle">{points}</text>'
            )
    parts.append(
        f'<text class="axis-label" x="{left + plot_w / 2:.1f}" y="{height - 6}" '
        f'text-anchor="middle">Points in the show</text>'
    )
    parts.append("</svg></div>")
    legend = (
        '<ul class="chart-legend" aria-hidden="true">'
        '<li><span class="swatch swatch-hand"></span>Hand (four cards and the starter)</li>'
        '<li><span class="swatch swatch-crib"></span>Crib (five-card flushes only)</li></ul>'
    )
    rows = []
    for points, (nh, nc) in enumerate(zip(hand, crib)):
        rows.append(
            f'<tr><th scope="row">{points}</th><td>{_num(nh)}</td><td>{share_h[points]:.3f}%</td>'
            f"<td>{_num(nc)}</td><td>{share_c[points]:.3f}%</td></tr>"
        )
    caption = "Show scores over every four-card hand and starter"
    table = (
        f'{table_wrap(caption)}<table class="numeric data-table">'
        f"<caption>{caption}</caption>"
        '<thead><tr><th scope="col" rowspan="2">Points</th>'
        '<th scope="colgroup" colspan="2">Hand</th><th scope="colgroup" colspan="2">Crib</th></tr>'
        '<tr><th scope="col">Ways</th><th scope="col">Share</th>'
        '<th scope="col">Ways</th><th scope="col">Share</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody>"
        f'<tfoot><tr><th scope="row">All</th><td>{_num(total_hand)}</td><td>100%</td>'
        f"<td>{_num(total_crib)}</td><td>100%</td></tr>"
        f'<tr><th scope="row">Average</th><td colspan="2">{mean_h:.2f} points</td>'
        f'<td colspan="2">{mean_c:.2f} points</td></tr></tfoot>'
        "</table></div>"
    )
    return (
        f'<figure class="data-figure">{"".join(parts)}{legend}'
        "<figcaption>Share of every hand-and-starter combination by show score. "
        "Hand and crib differ only in flushes.</figcaption></figure>\n" + table
    )


@provider
def scoring_chart() -> str:
    """The scoring chart (the show and the play) with every value from engine.scoring."""
    from engine import scoring as s

    def table(caption: str, rows: list[tuple[str, str, str]], cls: str) -> str:
        body = "".join(
            f'<tr><th scope="row">{what}</th><td class="points">{points}</td><td>{note}</td></tr>'
            for what, points, note in rows
        )
        return (
            f'{table_wrap(caption)}<table class="scoring-chart {cls}"><caption>{caption}</caption>'
            '<thead><tr><th scope="col">Combination</th><th scope="col">Points</th>'
            f'<th scope="col">Notes</th></tr></thead><tbody>{body}</tbody></table></div>'
        )

    pair3, pair4 = s.PAIR_ROYAL, s.DOUBLE_PAIR_ROYAL
    show = [
        ("Fifteen", str(s.FIFTEEN), "Each different set of cards adding up to 15"),
        ("Pair", str(s.PAIR), "Two cards of the same rank"),
        ("Three of a kind (pair royal)", str(pair3), "Three pairs"),
        ("Four of a kind (double pair royal)", str(pair4), "Six pairs"),
        ("Run of three, four or five", "1 a card", "Counted once for each different run"),
        ("Flush in the hand", str(s.HAND_FLUSH), f"All four hand cards of one suit; "
         f"{s.FIVE_CARD_FLUSH} if the starter matches too"),
        ("Flush in the crib", str(s.FIVE_CARD_FLUSH), "Only when the crib and the starter are all one suit"),
        ("His nobs", str(s.NOBS), "The jack of the starter's suit in the hand or crib"),
        ("His heels", str(s.HIS_HEELS), "Dealer, when the starter turned up is a jack"),
    ]
    runs = [
        ("Double run of three", str(2 * 3 + s.PAIR), "Two runs of three and a pair, as in 4 5 5 6"),
        ("Double run of four", str(2 * 4 + s.PAIR), "Two runs of four and a pair, as in 4 5 6 6 7"),
        ("Triple run", str(3 * 3 + pair3), "Three runs of three and three of a kind, as in 4 5 5 5 6"),
        ("Double double run", str(4 * 3 + 2 * s.PAIR), "Four runs of three and two pairs, as in 4 4 5 5 6"),
    ]
    play = [
        ("Count of fifteen", str(s.FIFTEEN), "The card that brings the count to exactly 15"),
        ("Count of thirty-one", str(s.THIRTY_ONE), f"Exactly {s.MAX_COUNT}; the count may never pass it"),
        ("Pair", str(s.PAIR), "Same rank as the card just played"),
        ("Pair royal", str(pair3), "Third card of the rank in a row"),
        ("Double pair royal", str(pair4), "Fourth card of the rank in a row"),
        ("Run", "1 a card", "The last three or more cards form a run, in any order"),
        ("Go", str(s.GO), f"Last to play when neither player can go on without passing {s.MAX_COUNT}"),
        ("Last card", str(s.LAST_CARD), f"The last card of the play, unless it made {s.MAX_COUNT}"),
    ]
    return "\n".join([
        table("The show: counting hands and the crib", show, "chart-show"),
        table("Runs with pairs in the show (fifteens not included)", runs, "chart-runs"),
        table("The play (pegging)", play, "chart-play"),
    ])


@provider
def discard_table() -> str:
    """The crib discard table (average crib of two thrown cards, by ranks) as a heat map."""
    from engine import analysis

    table = analysis.crib_table()
    ranks = analysis.load_crib_data()["ranks"]
    values = [v for row in table for v in row]
    low, high = min(values), max(values)
    stops = ((0.0, (0xD6, 0xEB, 0xDC)), (0.5, (0xFB, 0xF3, 0xDC)), (1.0, (0xEE, 0xA3, 0x6B)))

    def colour(value: float) -> str:
        t = (value - low) / (high - low) if high > low else 0.0
        for (t0, c0), (t1, c1) in zip(stops, stops[1:]):
            if t <= t1:
                f = (t - t0) / (t1 - t0)
                return "#" + "".join(f"{round(a + (b - a) * f):02x}" for a, b in zip(c0, c1))
        return "#" + "".join(f"{c:02x}" for c in stops[-1][1])

    def cell(value: float) -> str:
        return f'<td style="background-color:{colour(value)};color:#1c211e">{value:.2f}</td>'

    head = "".join(f'<th scope="col">{html.escape(r)}</th>' for r in ranks)
    rows = "".join(
        f'<tr><th scope="row">{html.escape(r)}</th>{"".join(cell(v) for v in row)}</tr>'
        for r, row in zip(ranks, table)
    )
    def pair_of(value: float) -> str:
        r1, r2 = next((i, j) for i in range(13) for j in range(i, 13) if table[i][j] == value)
        return f"{ranks[r1]}-{ranks[r2]}"

    marks = [low + (high - low) * i / 4 for i in range(5)]
    legend = "".join(
        f'<li><span class="swatch" style="background-color:{colour(m)}"></span>{m:.1f}</li>' for m in marks
    )
    return (
        '<figure class="data-figure discard-table">'
        '<div class="table-wrap"><table class="numeric data-table">'
        "<caption>Average crib points from two cards thrown, by rank: find one card's rank in the "
        "rows and the other's in the columns</caption>"
        f'<thead><tr><th scope="col">Ranks</th>{head}</tr></thead><tbody>{rows}</tbody></table></div>'
        f'<ul class="chart-legend" aria-label="Colour key, from the cheapest throw to the richest">{legend}</ul>'
        f"<figcaption>Each figure is the exact average over all {analysis.CRIB_DEALS:,} cribs the throw "
        "can make (the other player's two discards and the starter), suited and off-suit throws "
        "weighted by how often each happens. Pale green cells are the cheapest cards to give an "
        f"opponent's crib (least of all {pair_of(low)}, {low:.2f}); deep orange the richest "
        f"({pair_of(high)}, {high:.2f}).</figcaption></figure>"
    )


FAIR_DEAL_EXAMPLE_SEED = "5eedc0ffee15c0015eedc0ffee15c001"
FAIR_DEAL_CAPTION = "The first 13 cards of this seed's shuffled deck, two players"
OWNER_NAMES = {
    "pone": "Non-dealer (pone)",
    "dealer": "Dealer",
    "starter": "Starter",
    "crib": "Crib",
    "rest": "Rest of the deck",
}
SUIT_LETTERS = "CDHS"


def card_html(card: int, small: bool = True) -> str:
    """A playing card in the site's card style, with its spoken name for screen readers."""
    from engine import cards

    suit = SUIT_LETTERS[cards.SUIT_OF[card]]
    size = " card-sm" if small else ""
    return (
        f'<span class="card{size}" data-suit="{suit}" role="img" '
        f'aria-label="{html.escape(cards.card_spoken(card))}">{html.escape(cards.card_pretty(card))}</span>'
    )


def owner_name(label: object) -> str:
    """Readable name for one of fairdeal.deal_owners' labels."""
    text = str(label)
    return OWNER_NAMES.get(text.lower(), text.replace("_", " ").capitalize())


@provider
def fair_deal_example() -> str:
    """A fixed seed, its commitment and its first 13 shuffled cards with whose each one was."""
    from engine import fairdeal

    seed = fairdeal.parse_seed(FAIR_DEAL_EXAMPLE_SEED)
    deck = fairdeal.shuffled_deck(seed)
    owners = fairdeal.deal_owners(players=2, dealer=0)
    rows = "".join(
        f'<tr><th scope="row">{i + 1}</th><td>{card_html(deck[i])}</td><td>{html.escape(owner_name(owners[i]))}</td></tr>'
        for i in range(13)
    )
    return (
        '<dl class="fair-deal-example">'
        f"<dt>Seed</dt><dd><code>{seed}</code></dd>"
        f"<dt>Commitment (SHA-256), shown before the deal</dt><dd><code>{fairdeal.commitment(seed)}</code></dd>"
        "</dl>\n"
        f"{table_wrap(FAIR_DEAL_CAPTION)}<table class=\"fair-deal-cards\">"
        f"<caption>{html.escape(FAIR_DEAL_CAPTION)}</caption>"
        '<thead><tr><th scope="col">Position</th><th scope="col">Card</th><th scope="col">Goes to</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


# --- rendering -------------------------------------------------------------------------------


def site_url() -> str:
    """The SITE_URL setting without a trailing slash; must be an absolute http(s) address."""
    url = os.environ.get("SITE_URL", "").strip() or DEFAULT_SITE_URL
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise BuildError(f"SITE_URL must be an absolute http(s) address, got {url!r}")
    return url.rstrip("/")


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

    def __init__(self, providers: dict[str, Callable[[], str]] | None = None):
        self.providers = PROVIDERS if providers is None else providers
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


def json_ld(data: dict) -> Markup:
    """JSON for a <script type="application/ld+json"> block, safe inside HTML."""
    text = json.dumps(data, ensure_ascii=False, indent=1)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)


def nav_links(pages: list[Page]) -> tuple[list[Page], list[Page]]:
    """(header pages, footer pages): header = ``nav`` pages with nav_order below HEADER_NAV_MAX_ORDER."""

    def key(page: Page) -> tuple:
        return (page.nav_order if page.nav_order is not None else 10_000, page.label.lower())

    header = sorted(
        (p for p in pages if p.nav and (p.nav_order is None or p.nav_order < HEADER_NAV_MAX_ORDER)), key=key
    )
    footer = sorted((p for p in pages if p not in header), key=key)
    return header, footer


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


# --- files -----------------------------------------------------------------------------------


def prepare_out_dir(out: Path) -> None:
    """Empty ``out`` for a fresh build, refusing to empty a folder the build did not make."""
    if out.exists():
        if any(out.iterdir()) and not (out / OUT_MARKER).exists():
            raise BuildError(f"{out} exists and was not made by build.py; refusing to empty it")
        for child in out.iterdir():
            if child.name in ("runtime", OUT_MARKER):
                continue  # large vendored files are refreshed in place (copy_if_changed)
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
    out.mkdir(parents=True, exist_ok=True)
    (out / OUT_MARKER).write_text("Output of build.py; safe to delete.\n")


def copy_if_changed(src: Path, dst: Path) -> None:
    """Copy a file unless an identical-looking copy (same size and time) is already there."""
    if dst.exists():
        s, d = src.stat(), dst.stat()
        if s.st_size == d.st_size and int(s.st_mtime) == int(d.st_mtime):
            return
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dst)


def copy_tree(src: Path, dst: Path, keep: Callable[[Path], bool] = lambda p: True) -> list[Path]:
    """Copy the files under ``src`` that ``keep`` accepts; returns their paths relative to ``src``."""
    copied = []
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        if path.is_file() and "__pycache__" not in rel.parts and not path.name.startswith(".") and keep(path):
            copy_if_changed(path, dst / rel)
            copied.append(rel)
    return copied


def vendor_runtime(out: Path, node_modules: Path = NODE_MODULES) -> None:
    """Copy only the browser runtime files the site loads from node_modules into dist/runtime/."""
    if not node_modules.is_dir():
        raise BuildError(f"{node_modules} is missing: run `npm ci` (or `make deps`) first")
    wanted: set[Path] = set()
    for name, (package, files) in RUNTIME_FILES.items():
        src = node_modules / package
        if not src.is_dir():
            raise BuildError(f"{src} is missing: run `npm ci` (or `make deps`) to install the browser runtime")
        if files is None:
            rels = copy_tree(src, out / "runtime" / name, keep=lambda p: p.suffix != ".map")
            wanted.update(Path(name) / rel for rel in rels)
            continue
        for file in files:
            if not (src / file).is_file():
                raise BuildError(f"{src / file} is missing: the installed package does not match package.json")
            copy_if_changed(src / file, out / "runtime" / name / file)
            wanted.add(Path(name) / file)
    runtime = out / "runtime"
    for path in sorted(runtime.rglob("*"), reverse=True):  # drop files a previous version left
        if path.is_file() and path.relative_to(runtime) not in wanted:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def write_downloads(out: Path) -> list[Path]:
    """The printable files pages link to under /downloads/ (the score sheets, from the engine)."""
    from site_src import scoresheet

    return scoresheet.write_score_sheets(out / "downloads")


def toml_string(text: str) -> str:
    """A TOML basic string."""
    return json.dumps(text)


def write_python_files(out: Path) -> dict[str, list[str]]:
    """Copy engine/ and site_src/app/ into dist/ and write the two PyScript configs.

    dist/app/ui.toml is the main-thread (MicroPython) config: every app module but the worker.
    dist/app/engine.toml is the worker (Pyodide) config: every engine file, found afresh each build.
    """
    engine_files = copy_tree(
        ENGINE_DIR, out / "engine", keep=lambda p: p.suffix == ".py" or "data" in p.relative_to(ENGINE_DIR).parts[:1]
    )
    app_files = copy_tree(APP_DIR, out / "app", keep=lambda p: p.suffix == ".py" and p.parent == APP_DIR)
    if Path(ENGINE_WORKER) not in app_files:
        raise BuildError(f"{APP_DIR / ENGINE_WORKER} is missing")
    ui_modules = [str(rel) for rel in app_files if str(rel) != ENGINE_WORKER]
    engine_paths = [rel.as_posix() for rel in engine_files]
    header = "# Written by build.py; edit build.py, not this file.\n"
    ui = [
        header + "# Main thread: MicroPython for the page's UI.",
        f'interpreter = {toml_string("../runtime/micropython/micropython.mjs")}',
        'plugins = ["!error"]',
        "",
        "[files]",
        *(f"{toml_string('./' + name)} = {toml_string('./' + name)}" for name in ui_modules),
    ]
    worker = [
        header + "# Worker: Pyodide running the engine (no DOM access, so no special headers needed).",
        f'interpreter = {toml_string("../runtime/pyodide/pyodide.mjs")}',
        "sync_main_only = true",
        'plugins = ["!error"]',
        "",
        "[files]",
        *(f"{toml_string('../engine/' + p)} = {toml_string('./engine/' + p)}" for p in engine_paths),
    ]
    (out / "app" / UI_CONFIG).write_text("\n".join(ui) + "\n", encoding="utf-8")
    (out / "app" / ENGINE_CONFIG).write_text("\n".join(worker) + "\n", encoding="utf-8")
    return {"engine": engine_paths, "app": [str(rel) for rel in app_files]}


# --- the build -------------------------------------------------------------------------------


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


def build(out_dir: str | os.PathLike = "dist", pages_dir: str | os.PathLike | None = None,
          templates_dir: str | os.PathLike | None = None, quiet: bool = False) -> Path:
    """Build the whole site into ``out_dir`` (relative paths are taken from the project folder)."""
    started = time.perf_counter()
    out = Path(out_dir)
    if not out.is_absolute():
        out = ROOT / out
    base_url = site_url()
    if not NODE_MODULES.is_dir():
        raise BuildError(f"{NODE_MODULES} is missing: run `npm ci` (or `make deps`) first")
    pages = load_pages(Path(pages_dir) if pages_dir else PAGES_DIR)
    env = make_environment(Path(templates_dir) if templates_dir else TEMPLATES_DIR)
    renderer = Renderer()
    slugs = {p.slug for p in pages}
    links = Links(slugs)
    header_nav, footer_nav = nav_links(pages)
    site = {"name": SITE_NAME, "tagline": SITE_TAGLINE, "url": base_url, "lang": LANGUAGE}

    # Render everything before touching out_dir, so a failing build leaves the last good one.
    rendered: dict[str, str] = {}
    for page in pages:
        try:
            template = env.get_template(f"{page.template}.html")
            text = template.render(
                site=site, header_nav=header_nav, footer_nav=footer_nav, current=page.slug,
                root=relative_prefix(page.depth), **page_context(page, renderer, base_url),
            )
        except jinja2.TemplateError as error:
            raise BuildError(f"{page.source}: template {page.template}.html: {type(error).__name__}: {error}") from None
        rendered[page.output] = links.rewrite(text, page.depth, page.output)

    # 404.html is served at any missing address, so its links stay root-relative (from SITE_URL's path).
    base_path = urlsplit(base_url).path.rstrip("/")
    try:
        not_found = env.get_template("404.html").render(
            site=site, header_nav=header_nav, footer_nav=footer_nav, current="404", root=base_path + "/",
            has_home="index" in slugs,
        )
    except jinja2.TemplateError as error:
        raise BuildError(f"template 404.html: {type(error).__name__}: {error}") from None
    links.rewrite(not_found, 0, "404.html")  # only to check its links: the text keeps them root-relative
    if base_path:
        not_found = URL_ATTR_RE.sub(
            lambda m: m.group(1) + (base_path + m.group(2) if is_root_relative(m.group(2)) else m.group(2)) + m.group(3),
            not_found,
        )
    ids = {page.slug: set(ID_RE.findall(rendered[page.output])) for page in pages}
    for where, slug, fragment in links.anchors:
        if fragment not in ids[slug]:
            links.errors.append(f"{where}: links to #{fragment} on /{'' if slug == 'index' else slug + '/'} "
                                f"but that page has no such id (a heading's id or {{#id}})")
    if links.errors:
        raise BuildError("broken internal links:\n  " + "\n  ".join(dict.fromkeys(links.errors)))

    prepare_out_dir(out)
    copy_tree(STATIC_DIR, out / "static")
    write_downloads(out)
    vendor_runtime(out)
    write_python_files(out)
    for name, text in rendered.items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (out / "404.html").write_text(not_found, encoding="utf-8")
    write_sitemap(out, pages, base_url)
    (out / "robots.txt").write_text(f"User-agent: *\nAllow: /\n\nSitemap: {base_url}/sitemap.xml\n", encoding="utf-8")

    missing = sorted({f"{where}: {path}" for where, path in links.files if not (out / path).is_file()})
    if missing:
        raise BuildError("links to files that are not in the build:\n  " + "\n  ".join(missing))
    if not quiet:
        print(f"Built {len(pages)} pages into {out} in {time.perf_counter() - started:.2f} s ({base_url})")
    return out


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


# --- a local server --------------------------------------------------------------------------

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".wasm": "application/wasm",
    ".json": "application/json",
    ".toml": "text/plain; charset=utf-8",
    ".py": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".xml": "application/xml",
    ".txt": "text/plain; charset=utf-8",
    ".zip": "application/zip",
    ".pdf": "application/pdf",
    ".png": "image/png",
    ".ico": "image/x-icon",
}


def make_handler(directory: str | os.PathLike, log: bool = False):
    """A request handler serving ``directory`` like a static host: right MIME types, 404.html."""
    import http.server

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(directory), **kwargs)

        def send_error(self, code, message=None, explain=None):
            page = Path(self.directory) / "404.html"
            if code == 404 and page.is_file():
                body = page.read_bytes()
                self.send_response(404, message)
                self.send_header("Content-Type", MIME_TYPES[".html"])
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)
                return
            super().send_error(code, message, explain)

        def log_message(self, format, *args):
            if log:
                super().log_message(format, *args)

    return Handler


def serve(out_dir: str | os.PathLike = "dist", port: int = 8000, host: str = "127.0.0.1") -> None:
    """Serve a built site on http://host:port until interrupted."""
    import http.server

    out = Path(out_dir)
    if not out.is_absolute():
        out = ROOT / out
    server = http.server.ThreadingHTTPServer((host, port), make_handler(out, log=True))
    print(f"Serving {out} on http://{host}:{port}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def main(argv: list[str]) -> int:
    """Command line: ``python build.py [OUT_DIR]`` builds; ``--serve [--port N]`` then serves."""
    import argparse

    parser = argparse.ArgumentParser(description="Build the cribbage site into a folder.")
    parser.add_argument("out_dir", nargs="?", default="dist", help="output folder (default: dist)")
    parser.add_argument("--serve", action="store_true", help="serve the folder after building")
    parser.add_argument("--port", type=int, default=8000, help="port for --serve (default: 8000)")
    args = parser.parse_args(argv[1:])
    try:
        out = build(args.out_dir)
    except BuildError as error:
        print(f"build failed: {error}", file=sys.stderr)
        return 1
    if args.serve:
        serve(out, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
