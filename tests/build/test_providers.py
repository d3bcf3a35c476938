"""Data placeholders: each provider's HTML is static, accessible and computed from the engine."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import build
from site_src.builder import providers
from engine import analysis, cards, fairdeal, scoring


def test_every_contract_placeholder_but_the_later_one_has_a_provider():
    assert {"score_distribution", "scoring_chart", "fair_deal_example"} <= set(providers.PROVIDERS)


def test_adding_a_provider_is_one_function(tmp_path, monkeypatch):
    monkeypatch.setattr(providers, "PROVIDERS", dict(providers.PROVIDERS))

    @providers.provider
    def greeting() -> str:
        return '<p class="greeting">hello</p>'

    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "index.md").write_text("---\ntitle: Home\ndescription: d\n---\n## Hi\n\n<!-- data:greeting -->\n")
    out = build.build(tmp_path / "out", pages_dir=pages, quiet=True)
    assert '<p class="greeting">hello</p>' in (out / "index.html").read_text()


def test_score_distribution_chart_and_table():
    html = providers.score_distribution()
    hand = analysis.score_distribution(crib=False)
    crib = analysis.score_distribution(crib=True)
    svg = re.search(r"<svg\b.*?</svg>", html, re.S).group(0)
    assert 'role="img"' in svg and "<title" in svg and "<desc" in svg and "aria-labelledby" in svg
    assert "<script" not in html and "style=" not in html
    table = re.search(r"<table\b.*?</table>", html, re.S).group(0)
    assert "<caption>" in table
    rows = re.findall(r'<tr><th scope="row">(\d+)</th><td>([\d,]+)</td><td>[\d.]+%</td><td>([\d,]+)</td>', table)
    assert len(rows) == len(hand) == 30
    for points, n_hand, n_crib in rows:
        assert int(n_hand.replace(",", "")) == hand[int(points)]
        assert int(n_crib.replace(",", "")) == crib[int(points)]
    bars = re.findall(r'<rect class="bar-(hand|crib)"', svg)
    assert bars.count("hand") == sum(1 for n in hand if n) and bars.count("crib") == sum(1 for n in crib if n)


def test_scoring_chart_values_come_from_engine_constants(monkeypatch):
    monkeypatch.setattr(scoring, "FIFTEEN", 97)
    monkeypatch.setattr(scoring, "HIS_HEELS", 93)
    monkeypatch.setattr(scoring, "LAST_CARD", 91)
    html = providers.scoring_chart()
    for value in ("97", "93", "91"):
        assert f'<td class="points">{value}</td>' in html


def test_scoring_chart_tables():
    html = providers.scoring_chart()
    assert html.count("<table") == 4 and html.count("<caption>") == 4
    assert f'<td class="points">{scoring.DOUBLE_PAIR_ROYAL}</td>' in html
    assert 'th scope="row"' in html and 'th scope="col"' in html


def test_fair_deal_example_is_reproducible_and_verifiable():
    html = providers.fair_deal_example()
    seed = fairdeal.parse_seed(providers.FAIR_DEAL_EXAMPLE_SEED)
    assert seed in html and fairdeal.commitment(seed) in html
    assert fairdeal.verify(seed, fairdeal.commitment(seed))
    deck = fairdeal.shuffled_deck(seed)
    shown = re.findall(r'<tr><th scope="row">(\d+)</th><td><span class="card card-sm" data-suit="([CDHS])"'
                       r' role="img" aria-label="([^"]+)">([^<]+)</span></td><td>([^<]+)</td></tr>', html)
    assert len(shown) == 13
    for (position, suit, spoken, pretty, owner), card in zip(shown, deck):
        assert pretty == cards.card_pretty(card) and spoken == cards.card_spoken(card)
        assert suit == "CDHS"[cards.SUIT_OF[card]]
    owners = [row[4] for row in shown]
    assert owners[:6] == ["Non-dealer (pone)"] * 6 and owners[6:12] == ["Dealer"] * 6 and owners[12] == "Starter"
    assert html == providers.fair_deal_example()


def test_provider_failure_names_the_page_and_provider(tmp_path, monkeypatch):
    def broken() -> str:
        raise RuntimeError("table missing")

    monkeypatch.setattr(providers, "PROVIDERS", {**providers.PROVIDERS, "scoring_chart": broken})
    with pytest.raises(build.BuildError, match=r"scoring\.md.*scoring_chart.*table missing"):
        build.build(tmp_path / "out", pages_dir=Path(__file__).parent / "fixtures" / "pages", quiet=True)
