"""The reference pages after a careful reader's corrections: each error stays fixed, each gap stays filled.

Every test reads the built site (or the provider and template it comes from), so a later edit that
brings an error back, or drops what filled a gap, fails here.
"""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

import pytest
from pypdf import PdfReader

import build
from site_src.builder import providers
from engine import scoring

ROOT = Path(__file__).resolve().parents[2]


def plain(fragment: str) -> str:
    """Visible text of an HTML fragment, whitespace collapsed."""
    fragment = re.sub(r"<(script|style)\b.*?</\1>", " ", fragment, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


class Site:
    """Read parts of the built pages as HTML or as plain text."""

    def __init__(self, root: Path):
        self.root = root

    def html(self, slug: str) -> str:
        path = self.root / ("index.html" if slug == "index" else f"{slug}/index.html")
        return path.read_text(encoding="utf-8")

    def main(self, slug: str) -> str:
        """The page's <main> as HTML."""
        return re.search(r"<main\b.*?</main>", self.html(slug), re.S).group(0)

    def text(self, slug: str) -> str:
        return plain(self.main(slug))

    def section(self, slug: str, anchor: str) -> str:
        """Text from the heading with id ``anchor`` up to the next heading of the same or a higher level."""
        page = self.main(slug)
        match = re.search(rf'<h([2-4])\b[^>]*\bid="{re.escape(anchor)}"', page)
        assert match, f"/{slug}/ has no heading #{anchor}"
        level = int(match.group(1))
        end = re.compile(rf"<h[1-{level}]\b").search(page, match.end())
        return plain(page[match.start(): end.start() if end else None])

    def row(self, slug: str, anchor: str) -> str:
        """Text of the table row holding the element with id ``anchor`` (a glossary entry)."""
        for row in re.findall(r"<tr>.*?</tr>", self.main(slug), re.S):
            if f'id="{anchor}"' in row:
                return plain(row)
        raise AssertionError(f"/{slug}/ has no table row with #{anchor}")

    def faq(self, slug: str, question: str) -> str:
        """The answer to an FAQ question, from the page's own front matter as built."""
        page = next(p for p in build.load_pages(ROOT / "pages") if p.slug == slug)
        for item in page.faq:
            if item["q"] == question:
                answer = " ".join(item["a"].split())
                assert answer in self.text(slug).replace("*", ""), "the answer is not on the built page"
                return answer
        raise AssertionError(f"/{slug}/ has no question {question!r}")


@pytest.fixture(scope="module")
def site(built_site, pages_dir) -> Site:
    if pages_dir != ROOT / "pages":
        pytest.skip("the site's own pages are not the ones built")
    return Site(built_site)


# --- the errors -------------------------------------------------------------------------------


def test_1_his_heels_is_charted_at_the_cut_not_in_the_show():
    chart = providers.scoring_chart()
    tables = dict(re.findall(r'<table class="scoring-chart (chart-\w+)">(.*?)</table>', chart, re.S))
    assert "His heels" not in tables["chart-show"] and "His heels" not in tables["chart-play"]
    cut = tables["chart-cut"]
    assert "<caption>At the cut" in cut
    assert f'<th scope="row">His heels</th><td class="points">{scoring.HIS_HEELS}</td>' in cut


def test_1_the_scoring_page_and_the_printed_sheet_follow(site):
    assert re.search(r'<caption>At the cut[^<]*</caption>.*?His heels', site.main("scoring"), re.S)
    for name in ("cribbage-score-sheet.pdf", "cribbage-score-sheet-a4.pdf"):
        reader = PdfReader(io.BytesIO((site.root / "downloads" / name).read_bytes()))
        for page in reader.pages:
            lines = [line.strip() for line in page.extract_text().splitlines()]
            cut = next(i for i, line in enumerate(lines) if line.startswith("AT THE CUT"))
            heels = next(i for i, line in enumerate(lines) if line.startswith("His heels"))
            assert heels == cut + 1, name  # the heels row sits under "At the cut", in no other table


def test_2_lurch_is_half_the_game_not_an_old_word_for_a_skunk(site):
    lurch = site.row("glossary", "lurch")
    assert "an old word for a skunk" not in lurch.lower()
    assert "half the game" in lurch and "31 in a game to 61" in lurch and "61 in a game to 121" in lurch
    assert "loosely" in lurch


def test_3_stink_hole_names_the_house_rule(site):
    row = site.row("glossary", "stink-hole")
    answer = site.faq("glossary", "What is a stink hole in cribbage?")
    for text in (row, answer, site.section("rules", "winning")):
        assert "house rule" in text and "go" in text and "his heels" in text, text
        assert "no rule is attached" not in text.lower()


def test_4_six_players_only_four_discards_reach_the_crib(site):
    glance = site.section("players", "at-a-glance")
    assert "only four of those cards can go to the crib" in glance
    six_row = next(r for r in re.findall(r"<tr>.*?</tr>", site.main("players"), re.S)
                   if plain(r).startswith("6 "))
    assert "4 of the 6 discards" in plain(six_row) and "set aside" in plain(six_row)
    six = site.section("players", "six-handed")
    assert "Only four of the six discards can go to the crib" in six
    assert "dealer's partner put their discards aside" in six and "at random" in six


def test_5_home_and_about_offer_the_whole_game(site):
    for slug in ("index", "about"):
        text = site.text(slug)
        assert "two-player cribbage against the computer" not in text
        assert "two-player game against" not in text
        for needed in ("three-handed", "four-handed", "partner", "device", "61", "muggins", "Easy", "Hard",
                       "Expert"):
            assert needed in text, (slug, needed)


def test_6_rules_opening_runs_muggins_and_the_go_row(site):
    text = site.text("rules")
    assert "a two-player card game" not in text
    assert re.search(r'<h2 id="cribbage-at-a-glance">.*?href="\.\./players/"', site.main("rules"), re.S)
    assert "1 per card for every run" not in text
    show = site.section("rules", "the-show")
    assert "Count only the longest run" in show and "4-5-5-6 is two runs of three" in show
    muggins = site.section("rules", "muggins")
    assert "in the play as well as in the show" in muggins and "announced in advance" in muggins
    rows = [plain(r) for r in re.findall(r"<tr>.*?</tr>", site.main("rules"), re.S)]
    go_row = next(r for r in rows if r.startswith("8 Dealer"))
    assert "Pone 1" not in go_row and "scores nothing" in go_row
    assert any(r.startswith("Pone — 26 Pone 1") for r in rows)  # the pone's own row pegs the go


def test_7_the_starter_is_required_for_a_crib_flush(site):
    answer = site.faq("flush", "Does the starter card count toward a flush?")
    assert "Only as a bonus" not in answer and "as a bonus" not in site.text("flush")
    assert "the starter is required" in answer


def test_8_streets_crib_and_box(site):
    assert "91–120 the fourth" in site.row("glossary", "street")
    crib = site.row("glossary", "crib")
    assert "thrown away by the two players" not in crib
    assert "With two players each throws two; with three" in crib and "with four, each throws one" in crib
    assert "Britain and Canada" in site.row("glossary", "box")


@pytest.mark.parametrize("slug, gone, now", [
    ("best-hand", "the same cards, 4-5-5-6-6", "a different double double run, 4-5-5-6-6"),
    ("strategy", "a strong pair of cards", "two strong cards"),
    ("strategy", "Players call this the expected value", "Statisticians call this the expected value"),
    ("scoring", "the last five turned up", "the fourth five turned up"),
    ("players", "Partners of the dealer", "The dealer's partner is"),
    ("players", "lets go of one card", "each player discards one card"),
])
def test_9_smaller_slips(site, slug, gone, now):
    text = site.text(slug)
    assert gone not in text and now in text


def test_10_no_unsourced_claim_about_what_the_acc_sanctions(site):
    text = site.text("players")
    assert "sanctioned by the American Cribbage Congress" not in text
    assert "the two forms sanctioned" not in text


def test_11_the_discard_table_carries_its_caveat(site):
    crib_values = site.main("strategy").split('id="crib-values"', 1)[1].split('id="pegging"', 1)[0]
    after_table = plain(crib_values.split("</figure>", 1)[1])
    caveat = after_table.split("Some reference points", 1)[0]
    assert "random" in caveat and "defensively" in caveat
    assert "8.5 for 5-5" in caveat and "2.7 for 10-K" in caveat
    assert "costs a little more" in caveat and "barely changes" in caveat


# --- the gaps ---------------------------------------------------------------------------------


def test_crib_is_the_same_game(site):
    answer = site.faq("rules", "Is crib the same game as cribbage?")
    assert answer.startswith("Yes.") and "Britain and Canada" in answer
    assert "or crib for short" in site.section("rules", "cribbage-at-a-glance")
    assert "short name of the game itself" in site.row("glossary", "crib")


def test_rules_name_their_source_and_the_tournament_details(site):
    sources = site.section("rules", "sources")
    assert "American Cribbage Congress" in sources
    for differs in ("muggins", "skunks", "stink hole"):
        assert differs in sources
    assert "2 for a win and 3 for a skunk" in site.section("rules", "skunks")
    assert "must peg them before laying a card in the play" in site.section("rules", "the-starter")


def test_a_short_history(site):
    history = site.section("rules", "history")
    assert "Noddy" in history and "Sir John Suckling" in history and "17th century" in history


def test_five_card_cribbage(site):
    five = site.section("rules", "five-card")
    assert "five cards" in five and "61" in five and "three cards plus the starter" in five
    assert "pegged 3" in five


def test_strategy_real_play_averages_and_position(site):
    section = site.section("strategy", "twenty-six")
    for figure in ("8.1", "8.0", "4.7", "2.0", "3.5", "26 points every two deals"):
        assert figure in section, figure
    par = [plain(r) for r in re.findall(r"<tr>.*?</tr>", site.main("strategy").split('id="twenty-six"')[1], re.S)]
    assert "1 16 26" in par and "2 42 52" in par and "3 68 78" in par and "4 94 104" in par
    assert "play off" in section and "play on" in section
    assert "Is cribbage luck or skill?" in site.text("strategy")


def test_strategy_par_holes_follow_from_the_averages():
    """16 as dealer and 10 as pone: par after n deals is 26n - 10 for the first dealer, 26n for the other."""
    dealer, pone = round(8.0 + 4.7 + 3.5), round(8.1 + 2.0)
    assert (dealer, pone) == (16, 10)
    assert [dealer * n + pone * (n - 1) for n in range(1, 6)] == [16, 42, 68, 94, 120]
    assert [(dealer + pone) * n for n in range(1, 5)] == [26, 52, 78, 104]


def test_players_page_additions(site):
    assert "player on the dealer's left cuts the pack" in site.section("players", "three-handed")
    assert "One player on each side keeps the pegs" in site.section("players", "four-handed")
    five = site.section("players", "five-handed")
    assert "sit out each deal" in five and "only four to themselves" in five
    assert site.faq("players", "How many people can play cribbage?").startswith("Two to six.")
    assert "121" in site.faq("players", "Do you still play to 121 with more players?")
    glance = site.main("players").split('id="at-a-glance"', 1)[1].split("<h2", 1)[0]
    assert re.search(r'Our <a href="\.\./">game</a> plays three-handed', glance)
    assert "four-handed partnerships" in plain(glance)


@pytest.mark.parametrize("anchor, words", [
    ("eldest-hand", "leads and counts first"),
    ("non-dealer", "pone"),
    ("rubber", "best of three"),
    ("corner", "end of a street"),
    ("knave", "jack"),
    ("noddy", "cribbage grew from"),
    ("play-on", "inviting"),
    ("play-off", "little to score"),
])
def test_glossary_new_terms(site, anchor, words):
    assert words in site.row("glossary", anchor)


def test_glossary_spellings_and_site_terms(site):
    assert "knobs" in site.row("glossary", "knave") and "knibs" in site.row("glossary", "knave")
    assert "knobs" in site.row("glossary", "nobs") and "knibs" in site.row("glossary", "nibs")
    for anchor in ("commitment", "seed"):
        assert "(this site)" in site.row("glossary", anchor)
    assert "this site's own words" in site.section("glossary", "how-to-use-this-glossary")


def test_rules_link_to_how_our_game_handles_the_go_and_muggins(site):
    rules = site.main("rules")
    go = rules.split('id="go"', 1)[1].split("<h3", 1)[0]
    assert 'href="../#go-in-our-game"' in go
    muggins = rules.split('id="muggins"', 1)[1].split("<h", 1)[0]
    assert 'href="../#muggins-in-our-game"' in muggins
    go_text = site.section("index", "go-in-our-game")
    assert "says go for you" in go_text and "Go" in go_text
    assert "Our game follows the home rule" in muggins and "overpeg is corrected" in muggins
    assert "the opponent pegs the excess" in muggins
    muggins_text = site.section("index", "muggins-in-our-game")
    assert "no second try" in muggins_text and "score only what the cards made" in muggins_text
    assert "the points you missed go to the next player" in muggins_text
    assert "pegs the points you claimed over that" in muggins_text
    assert "after every card you lay the game asks what it made" in muggins_text


def test_home_page_says_what_cribbage_is(site):
    intro = site.section("index", "free-cribbage-ready-when-you-are")
    assert "Cribbage is a card game" in intro and "121" in intro


def test_fair_deal_panel_leads_with_what_it_means():
    """Both the page's first paint and the table view module's later text say what it means before SHA-256."""
    template = (ROOT / "site_src" / "templates" / "game.html").read_text(encoding="utf-8")
    intro = re.search(r'<p class="fair-intro" id="fair-intro">(.*?)</p>', template, re.S).group(1)
    module = (ROOT / "site_src" / "app" / "table" / "view.py").read_text(encoding="utf-8")
    start = module.index('("Every deal', module.index('q("fair-intro").textContent = ("Every deal'))
    later = "".join(re.findall(r'"([^"]*)"', module[start: module.index(")\n", start)]))
    assert later == intro
    assert intro.index("can pick the cards") < intro.index("SHA-256")


def test_practice_games_are_explained(site):
    source = (ROOT / "site_src" / "app" / "table" / "stats_panel.py").read_text(encoding="utf-8")
    empty = "".join(re.findall(r'"([^"]*)"', source.split("EMPTY_TEXT = (", 1)[1].split(")\n", 1)[0]))
    assert "practice deals do not" not in empty
    assert "Practice games do not" in empty and "seed" in empty and "replay the same cards" in empty
    practice = site.section("index", "practice-games")
    assert "?seed=" in practice and "not counted in your statistics" in practice


def _string_constant(module: str, name: str) -> str:
    return re.search(rf'^{name} = "([^"]*)"', module, re.M).group(1)


def test_the_deal_of_the_day_says_one_thing_about_its_computer_and_where_it_counts(site):
    """The deal of the day is against the hard computer (the expert is stronger), is no practice
    game, and counts in the daily results: the setup, the fair-deal page, the fair-deal panel and
    game over say so in the same words."""
    from engine import daily

    assert daily.daily_level() == "hard"
    finished = (ROOT / "site_src" / "app" / "table" / "finished.py").read_text(encoding="utf-8")
    note = _string_constant(finished, "DAILY_NOTE")
    assert note == "The deal of the day counts in your daily results, not in your other statistics."
    setup = plain(re.search(r'<p id="daily-about">.*?</p>', site.html("index"), re.S).group(0))
    assert "against the hard computer" in setup and note in setup
    fair = site.section("fair-deals", "daily")
    assert "against the hard computer" in fair and note in " ".join(fair.split())
    for text in (setup, fair, plain(site.html("index")), site.text("fair-deals")):
        assert "strongest" not in text
    view = (ROOT / "site_src" / "app" / "table" / "view.py").read_text(encoding="utf-8")
    panel = view[view.index("finished.is_daily_game():"):view.index("    elif meta.get(\"practice\"):\n")]
    assert "finished.DAILY_NOTE" in panel and "not counted" not in panel
    assert 'BADGES = {True: "Deal of the day", False: "Practice game"}' in finished
    for module in ("table/view.py", "table/setup.py"):
        source = (ROOT / "site_src" / "app" / module).read_text(encoding="utf-8")
        assert 'shown("practice-badge"' not in source and "finished.show_badge(" in source


def test_the_engines_worker_collects_garbage_in_large_steps_and_when_idle():
    """The build's MicroPython schedules a whole collection after every 16 KB allocated and runs
    it as the call returns, so nearly every engine call ended in one; the worker sets a threshold
    of megabytes instead and collects when idle."""
    worker = (ROOT / "site_src" / "workers" / "engine_worker.py").read_text(encoding="utf-8")
    runner = (ROOT / "site_src" / "workers" / "engine_worker.mjs").read_text(encoding="utf-8")
    assert "gc.threshold(GC_EVERY)" in worker
    every = re.search(r"^GC_EVERY = (.+?)  #", worker, re.M).group(1)
    assert eval(every, {}) >= 1024 * 1024, every
    assert "worker.idle()" in runner and "def idle():" in worker and "gc.collect()" in worker
    # ... and builds the show table then if the page's warm-up left it (engine/api.py: WARM_UP_TABLES)
    assert "scoring.build_tables()" in worker.split("def idle():")[1]
