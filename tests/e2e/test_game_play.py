"""The game in the browser: whole games played through the page as a person plays them.

Practice games from a fixed seed (``/?seed=...``) deal the same cards every time, so the engine
in CPython can replay the very game the page shows, with the same simple policy the tests click:
throw the first two cards shown, lay the first card that may be laid, count correctly. The page
marks the decision it waits for in #game[data-await] (discard, play, go, claim, count, next, over) and
counts the decisions offered in #game[data-turn].

One browser page serves the whole module; each test opens its own practice game. Screenshots of
the discard, a go, the show and a finished game, at phone and desktop widths, go to
screenshots/ (not committed).
"""

from __future__ import annotations

import hashlib
import json
import re
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from engine import host
from engine.record import from_json
from engine.scoring import number_name, score_play, score_show
from tests.e2e.conftest import PageProblems, engine_ready, ui_ready

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "screenshots"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 780}
SETTINGS = {"v": 1, "difficulty": "easy", "target": 61, "muggins": False, "speed": "fast", "go": "hand"}
DECISION_TIMEOUT_MS = 60_000
GAME_TIMEOUT_S = 240


# --- the same game in CPython ----------------------------------------------------------------


def person_move(reply: dict, claim=None) -> dict:
    """The tests' policy: first two cards shown, first card that may be laid, the true count."""
    view = reply["view"]
    if reply["awaiting"] == "discard":
        return {"type": "discard", "cards": view["hand"][:2]}
    if reply["awaiting"] == "play":
        legal = {a["card"] for a in view["legal_actions"]}
        return {"type": "play", "card": next(c for c in view["hand"] if c in legal)}
    if reply["awaiting"] == "claim":
        return {"type": "claim", "points": score_play([c for _, c in view["current"]]).total}
    counting = view["counting"]
    return {"type": "count", "points": score_show(counting["cards"], counting["starter"],
                                                  crib=counting["show"] == "crib").total}


def replay(seed: str, target: int = 61, muggins: bool = False, hands: int | None = None):
    """Play the practice game in CPython with the tests' policy; returns (last reply, events)."""
    reply = host.start({"difficulty": "easy", "target": target, "muggins": muggins, "seed": seed})
    events = list(reply["events"])
    while reply["awaiting"] != "over":
        if hands is not None and reply["view"]["hand_number"] > hands:
            break
        if reply["awaiting"] == "computer":
            reply = host.computer_move({"game": reply["game"], "difficulty": "easy"})
        else:
            reply = host.act({"game": reply["game"], "action": person_move(reply)})
        events += reply["events"]
    return reply, events


def first_hand(events: list[dict]) -> list[dict]:
    end = next(i for i, e in enumerate(events) if e["type"] in ("hand_end", "game_over"))
    return events[:end + 1]


def find_seed(prefix: str, wanted, **options) -> str:
    """The first practice seed ``prefix-N`` whose game (by the tests' policy) satisfies wanted."""
    for n in range(400):
        seed = f"{prefix}-{n}"
        if wanted(seed, **options):
            return seed
    raise AssertionError(f"no {prefix} seed found")


def has_go_and_31(seed: str) -> bool:
    """Hand 1: the person must say go while holding cards, and someone makes 31."""
    _, events = replay(seed, hands=1)
    held, go, thirty_one = 0, False, False
    for e in first_hand(events):
        if e["type"] == "hand":
            held = len(e["cards"]) - 2
        elif e["type"] == "play" and e["seat"] == 0:
            held -= 1
        elif e["type"] == "go" and e["seat"] == 0 and held > 0:
            go = True
        elif e["type"] == "score" and e["reason"] == "thirty_one":
            thirty_one = True
    return go and thirty_one


def person_counts_first(seed: str) -> bool:
    """Muggins, hand 1: the person is pone (counts first) and the hand is worth 3 or more."""
    _, events = replay(seed, target=121, muggins=True, hands=1)
    shows = [e for e in first_hand(events) if e["type"] == "show"]
    return bool(shows) and shows[0]["seat"] == 0 and shows[0]["total"] >= 3


def person_pegs_points(seed: str) -> bool:
    """Muggins, hand 1: a card the person lays makes 2 or more, and a later one makes points too."""
    _, events = replay(seed, target=121, muggins=True, hands=1)
    claims = [e["total"] for e in first_hand(events) if e["type"] == "claim" and e["seat"] == 0]
    first = next((i for i, total in enumerate(claims) if total >= 2), None)
    return first is not None and any(total >= 1 for total in claims[first + 1:])


# --- the page -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def game(browser, base_url):
    """One page for the module, with quick settings stored: the fast computer, easy, 61 points."""
    context = browser.new_context(base_url=base_url, viewport=DESKTOP)
    context.add_init_script(
        f"localStorage.setItem('cribbage.settings.v1', {json.dumps(json.dumps(SETTINGS))});")
    page = context.new_page()
    watch = PageProblems(page)
    yield page, watch
    context.close()


@pytest.fixture
def page_and_problems(game):
    page, watch = game
    before = len(watch.found)
    yield page, watch
    new = [p for p in watch.problems[before:]] if len(watch.problems) >= before else watch.problems
    assert not new, "the page reported problems:\n" + "\n".join(new)


def open_practice(page, seed: str, **params) -> None:
    query = "&".join([f"seed={seed}"] + [f"{k}={v}" for k, v in params.items()])
    page.evaluate("() => { try { localStorage.clear(); } catch (e) {} }")  # a new link, not a slot taken
    page.goto(f"/?{query}")
    ui_ready(page)
    engine_ready(page)


def awaiting(page) -> str:
    return page.get_attribute("#game", "data-await") or ""


def turn(page) -> int:
    return int(page.get_attribute("#game", "data-turn") or 0)


def decision(page) -> tuple[str, int]:
    """The decision on offer and its turn, read together: read one at a time, a click being
    handled in between can pair the last decision with the next one's turn."""
    kind, now = page.evaluate("""() => { const game = document.getElementById('game');
        return [game.dataset.await || '', Number(game.dataset.turn || 0)]; }""")
    return kind, int(now)


def wait_decision(page, after: int = -1, timeout: int = DECISION_TIMEOUT_MS) -> str:
    """Wait for the next decision offered after turn ``after``; returns its kind."""
    kind = page.wait_for_function(
        """(after) => {
            const game = document.getElementById('game');
            const kind = game.getAttribute('data-await') || '';
            const turn = parseInt(game.getAttribute('data-turn') || '0', 10);
            return kind !== '' && turn > after && kind;
        }""", arg=after, timeout=timeout, polling=50).json_value()  # read once: no race
    if kind == "retry":
        raise AssertionError("the engine failed: " + page.inner_text("#app-error"))
    return kind


def hand_buttons(page):
    return page.locator("#my-hand button[data-card]")


def playable(page):
    return page.locator("#my-hand button[data-card]:not([aria-disabled='true'])")


def lay(card) -> None:
    """Lay a card with the mouse: one click lays it, or, where the page only raised it (the
    "confirm" setting, or a click just as the play was offered), a second click on it does."""
    handle = card.element_handle()
    handle.click()
    if handle.evaluate("(el) => el.isConnected && el.classList.contains('is-selected')"):
        handle.click()


def discard_first_two(page) -> int:
    cards = hand_buttons(page)
    cards.nth(0).click()
    cards.nth(1).click()
    assert page.get_attribute("#my-hand button[data-card] >> nth=0", "aria-pressed") == "true"
    before = turn(page)
    page.click("#throw-button")
    return before


def claim_due(page) -> int:
    """The points the card just laid made (muggins), from the game the page saved."""
    texts = page.evaluate("""() => Object.keys(localStorage).map((k) => {
        try { const v = JSON.parse(localStorage.getItem(k)); return v && typeof v.game === 'string' ? v.game : null; }
        catch (e) { return null; } }).filter((g) => g)""")
    due = [state for state in map(from_json, texts) if state.phase == "claim"]
    assert len(due) == 1, "one saved game waits for a claim"
    return score_play([c for _, c in due[0].view(0)["current"]]).total


def claim_points(page, points: int) -> int:
    """Type a claim for the card just laid and send it; returns the turn before it."""
    before = turn(page)
    if points == 0:
        page.click("#claim-none")
    else:
        page.fill("#count-input", str(points))
        page.click("#count-button")
    return before


def move(page, kind: str) -> int:
    """Make the tests' policy move for decision ``kind``; returns the turn before it."""
    if kind == "discard":
        return discard_first_two(page)
    if kind == "claim":
        return claim_points(page, claim_due(page))
    before = turn(page)
    if kind == "play":
        lay(playable(page).first)
    elif kind == "go":
        page.click("#go-button")
    elif kind == "next":
        page.click("#next-button")
    else:
        raise AssertionError(f"no policy move for {kind!r}")
    return before


def log_lines(page) -> list[str]:
    return page.eval_on_selector_all("#log li", "items => items.map(i => i.textContent)")[::-1]


def shoot(page, name: str) -> None:
    """Screenshots at desktop width (the top of the page) and phone width (the table in view)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        if label == "desktop":
            page.evaluate("window.scrollTo(0, 0)")
        else:
            page.evaluate("document.getElementById('game').scrollIntoView({block: 'start'})")
        page.wait_for_timeout(150)
        page.screenshot(path=str(SCREENSHOTS / f"game-{name}-{label}.png"))
    page.set_viewport_size(DESKTOP)


def axe_violations(page) -> list[str]:
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))  # the page's CSP blocks an inline script tag
    result = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations")
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in result if v["impact"] in ("serious", "critical")]


def score(page, seat: int) -> int:
    return int(page.inner_text(f"#score-{seat}"))


# --- tests ----------------------------------------------------------------------------------


def test_a_whole_game_against_the_easy_computer_to_its_end(page_and_problems):
    page, _ = page_and_problems
    seed = "game-117"
    final, events = replay(seed)
    expected_hands = final["view"]["hand_number"]
    started = time.monotonic()
    open_practice(page, seed, target=61)
    kind = wait_decision(page)
    assert kind == "discard"
    assert page.is_visible("#practice-badge")
    # The first hand's fingerprint is on the table with the cards; the seed comes after the hand.
    commitment = page.inner_text("#commitment").strip()
    assert re.fullmatch(r"[0-9a-f]{64}", commitment)
    assert not page.is_visible("#fair-last")
    assert len(log_lines(page)) >= 3 and "cut" in log_lines(page)[0]
    shoot(page, "discard")

    revealed = None
    shots = {"show"}
    while kind != "over":
        assert time.monotonic() - started < GAME_TIMEOUT_S, "the game took too long"
        if kind == "next":
            if revealed is None:
                revealed = page.inner_text("#last-seed").strip()
                href = page.get_attribute("#verify-link", "href")
            if "show" in shots:
                shots.discard("show")
                shoot(page, "show")
        before = move(page, kind)
        kind = wait_decision(page, before)

    # The commitment shown before hand 1 was SHA-256 of the seed revealed after it.
    assert revealed and hashlib.sha256(revealed.encode("ascii")).hexdigest() == commitment
    query = parse_qs(urlsplit(href).query)
    assert query == {"seed": [revealed], "commitment": [commitment]} and href.endswith("#check")
    assert "fair-deals/" in href

    # The page played exactly the game the engine plays in CPython, and ended it at once.
    assert page.is_visible("#game-over")
    result = final["result"]
    assert page.inner_text("#game-over-title") == result["title"]
    assert page.inner_text("#game-over-detail") == result["score"]
    assert "Practice games are not counted" in page.inner_text("#game-over-note")
    assert "\n".join(log_lines(page)).endswith(final["outcome"])
    over = events[-1]
    assert over["type"] == "game_over"
    shown = [min(s, 61) for s in over["scores"]]  # the winner's score shows as the target
    assert [score(page, 0), score(page, 1)] == shown
    assert max(over["scores"]) >= 61
    assert page.get_attribute("#game", "data-phase") == "over"
    assert page.is_visible("#game-over-title")
    assert result["title"] == ("You win!" if over["winner"] == 0 else "The computer wins")
    if over["skunks"][1 - over["winner"]] != "none":
        assert page.is_visible("#game-over-skunk")
        assert page.inner_text("#game-over-skunk") == result["skunk"] and "skunk" in result["skunk"].lower()
    else:
        assert not page.is_visible("#game-over-skunk")
    board_label = page.get_attribute("#board svg", "aria-label")
    assert str(shown[0]) in board_label and str(shown[1]) in board_label
    assert page.inner_text("#status-hand").startswith(f"Hand {expected_hands}")
    # A practice game never reaches the statistics.
    stats = page.evaluate("localStorage.getItem('cribbage.stats.v1')")
    assert stats is None or json.loads(stats)["games"] == 0
    shoot(page, "over")


def test_go_button_and_thirty_one_in_the_first_hand(page_and_problems):
    page, _ = page_and_problems
    seed = find_seed("go", has_go_and_31)
    open_practice(page, seed, target=61)
    kind = wait_decision(page)
    assert kind == "discard"
    assert not page.is_visible("#go-button")

    # The discard with the keyboard alone: focus a card, Space picks it, Tab, Space, then Enter.
    hand_buttons(page).nth(0).focus()
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    assert page.locator("#my-hand [aria-pressed='true']").count() == 2
    assert page.is_enabled("#throw-button")
    before = turn(page)
    page.focus("#throw-button")
    page.keyboard.press("Enter")
    kind = wait_decision(page, before)

    saw_go = False
    while kind not in ("next", "over"):
        if kind == "go":
            saw_go = True
            # Go appears only when no card may be laid, and there are cards left to lay.
            assert page.is_visible("#go-button")
            assert hand_buttons(page).count() > 0 and playable(page).count() == 0
            count = int(page.inner_text("#count"))
            names = page.eval_on_selector_all("#my-hand .pc-name", "names => names.map(n => n.textContent)")
            for label in names:
                assert "past 31" in label
            assert count > 21
            shoot(page, "go")
        else:
            assert not page.is_visible("#go-button")
        before = move(page, kind)
        kind = wait_decision(page, before)
    assert saw_go
    lines = log_lines(page)
    said = "\n".join(lines)
    assert "thirty-one for two" in said
    assert "You cannot lay a card without passing 31: go." in said
    assert "The count starts again from zero" in said
    assert re.search(r"(You|The computer): one for (last|the go)\.", said)


@pytest.mark.parametrize("claim", ["under", "over"])
def test_a_muggins_claim_is_final(page_and_problems, claim):
    """One claim, no retry and no hint: an undercount lets the computer take the rest; an
    overcount scores what the cards hold and the computer pegs the excess, and the show says so."""
    page, _ = page_and_problems
    seed = find_seed("mug", person_counts_first)
    final, events = replay(seed, target=121, muggins=True, hands=1)
    mine = next(e for e in events if e["type"] == "show" and e["seat"] == 0)
    total = mine["total"]
    if page.url.startswith("http"):  # the module's page may be fresh (about:blank has no storage)
        page.evaluate("localStorage.removeItem('cribbage.practice.v1')")  # deal it afresh each time
    open_practice(page, seed, target=121, muggins=1)

    kind = wait_decision(page)
    while kind != "count":
        assert kind in ("discard", "play", "go", "claim"), kind
        before = move(page, kind)
        kind = wait_decision(page, before)
    # The count is due: the cards are shown, the true count is not.
    block = page.locator("#show-area .is-counting")
    assert block.is_visible() and block.locator(".show-total").count() == 0
    assert page.locator("#show-area .show-block:not(.is-counting)").count() == 0
    scores = [score(page, 0), score(page, 1)]

    claimed = total - 2 if claim == "under" else total + 3
    page.fill("#count-input", str(claimed))
    before = turn(page)
    page.click("#count-button")
    kind = wait_decision(page, before)
    assert kind != "count"  # no second try
    said = "\n".join(log_lines(page))
    assert page.inner_text("#count-message") == "" and not page.is_visible("#app-error")
    claim_line = page.locator("#show-area .show-claim").first
    if claim == "under":
        assert "Muggins! The computer takes the two points you missed." in said
        assert f"you claimed {number_name(total - 2)}, but it holds {number_name(total)}" in said
        assert claim_line.inner_text().startswith(f"You claimed {total - 2}")
        assert score(page, 0) == scores[0] + total - 2
    else:
        assert "Muggins! The computer pegs the three points you claimed too many." in said
        assert f"you claimed {number_name(claimed)}, but it holds only {number_name(total)}" in said
        assert claim_line.inner_text() == (f"You claimed {claimed}, but the cards hold only {total}: "
                                           f"muggins took the 3 claimed too many.")
        assert score(page, 0) == scores[0] + total
        assert score(page, 1) >= scores[1] + 3


def test_muggins_in_the_play_every_card_is_claimed_and_a_wrong_claim_costs(page_and_problems):
    """With muggins the page asks for every card's points: No points for nothing, an over-claim
    scores what the card made and the computer pegs the excess, a short claim gives the computer
    what was missed."""
    page, _ = page_and_problems
    seed = find_seed("peg", person_pegs_points)
    if page.url.startswith("http"):
        page.evaluate("localStorage.removeItem('cribbage.practice.v1')")
    open_practice(page, seed, target=121, muggins=1)
    over = short = False
    claims = 0
    kind = wait_decision(page)
    while kind != "count":
        assert kind in ("discard", "play", "go", "claim"), kind
        if kind != "claim":
            kind = wait_decision(page, move(page, kind))
            continue
        claims += 1
        total = claim_due(page)
        assert page.is_visible("#count-form") and page.is_visible("#claim-none")
        assert page.inner_text("#count-label") == "Points for your card"
        prompt = page.inner_text("#prompt")
        assert prompt.startswith("Muggins: what did the ") and "the go and last card are pegged for you" in prompt
        if total >= 2 and not over:
            shoot(page, "claim")
            kind = wait_decision(page, claim_points(page, total + 2))
            over = True
            said = "\n".join(log_lines(page))
            assert f"You claim {number_name(total + 2)}, but the " in said
            assert f" made only {number_name(total)}: " in said
            assert "Muggins! The computer pegs the two points you claimed too many." in said
        elif total >= 1 and over and not short:
            kind = wait_decision(page, claim_points(page, 0))
            short = True
            said = "\n".join(log_lines(page))
            assert "You claim no points, but the " in said
            assert f"Muggins! The computer takes the {number_name(total)} point" in said
        else:
            kind = wait_decision(page, claim_points(page, total))
        assert page.inner_text("#count-message") == "" and not page.is_visible("#app-error")
    assert over and short and claims >= 4
    # The board shows the game's scores: the computer's include the muggins points it took.
    texts = page.evaluate("""() => Object.keys(localStorage).map((k) => {
        try { const v = JSON.parse(localStorage.getItem(k)); return v && typeof v.game === 'string' ? v.game : null; }
        catch (e) { return null; } }).filter((g) => g)""")
    state = next(s for s in map(from_json, texts) if s.base_seed == seed)
    assert state.tally[1][4] >= 3  # muggins: the two claimed too many, and at least one missed
    assert [score(page, 0), score(page, 1)] == state.scores


def test_no_serious_accessibility_problems_in_the_discard_and_the_show(page_and_problems):
    page, _ = page_and_problems
    open_practice(page, "axe-1", target=61)
    kind = wait_decision(page)
    assert kind == "discard"
    problems = axe_violations(page)
    assert not problems, "\n".join(problems)
    # Cards are named for screen readers and big enough to touch.
    for button in hand_buttons(page).all():
        label = button.locator(".pc-name").text_content()
        assert re.fullmatch(r"(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
                            r"(clubs|diamonds|hearts|spades)", label), label
        box = button.bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44
    while kind != "next":
        before = move(page, kind)
        kind = wait_decision(page, before)
    assert page.locator("#show-area .show-block").count() == 3
    problems = axe_violations(page)
    assert not problems, "\n".join(problems)
    # Hovering or focusing a scoring item lights up its cards.
    item = page.locator("#show-area .show-item").first
    if item.count():
        item.focus()
        assert page.locator("#show-area .is-highlighted").count() >= 2
    page.set_viewport_size(PHONE)
    for button in page.locator("#show-area button, #next-button").all():
        box = button.bounding_box()
        assert box and box["height"] >= 44, button.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(DESKTOP)
