"""The data placeholders' HTML: one ``@provider`` function per name, each computed from the engine."""

from __future__ import annotations

import html
from typing import Callable

from site_src.builder.render import table_wrap
from site_src.builder.settings import BuildError, report_url

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


@provider
def bot_api() -> str:
    """The bot lab's API reference, read from the engine's docstrings (site_src/builder/botlab.py)."""
    from site_src.builder.botlab import api_reference

    return api_reference()
