"""The hand calculator, the discard helper and the deal checker in Chromium.

Every figure the pages show is compared with the engine run here in CPython (engine.scoring,
engine.analysis and `python -m engine deck`). Each page is loaded once per module where it can
be; screenshots go to screenshots/ (not committed) for a look by eye.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import analysis, fairdeal
from engine.cards import parse_card, parse_cards
from engine.scoring import score_show

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "screenshots"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
CONFTEST = Path(__file__).resolve().with_name("conftest.py")
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 780}

SEEDS = ["5eedc0ffee15c0015eedc0ffee15c001", "00112233445566778899aabbccddeeff",
         "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "ffffffffffffffffffffffffffffffff"]

AXE_SERIOUS = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
    .filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => v.id + ': ' + v.help + ' -> ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))"""

SHOWN_COUNT = """() => ({
    total: Number(document.getElementById('calc-total').textContent),
    items: [...document.querySelectorAll('#calc-items tr')].map(row => ({
        kind: row.dataset.kind, names: row.dataset.cards.split(' '), points: Number(row.dataset.points)})),
    said: document.getElementById('calc-said').textContent,
})"""


def helpers(config):
    """tests/e2e/conftest.py as a module (its PageProblems and wait helpers)."""
    module = config.pluginmanager.get_plugin(str(CONFTEST))
    assert module is not None, "tests/e2e/conftest.py is not loaded"
    return module


def expected_count(hand: str, starter: str, crib: bool) -> dict:
    """What engine.scoring says, in the shape the page shows it."""
    result = score_show(parse_cards(hand), parse_card(starter), crib=crib)
    spoken = result.spoken[0].upper() + result.spoken[1:]
    return {
        "total": result.total,
        "items": [{"kind": i["kind"], "names": i["names"], "points": i["points"]} for i in result.to_dict()["items"]],
        "said": "“" + spoken + ".”",
    }


def count_selector(hand: str, starter: str, crib: bool) -> str:
    return (f'#calc-result[data-state="done"][data-hand="{" ".join(hand.split())}"]'
            f'[data-starter="{starter}"][data-crib="{int(crib)}"]')


PAGE_STATE = """() => {
    const pick = (id, names) => {
        const el = document.getElementById(id);
        return el ? Object.fromEntries(names.map(n => [n, el.getAttribute(n) ?? el.textContent])) : null;
    };
    return {
        url: location.href,
        engine: document.documentElement.dataset.engine,
        status: document.getElementById('engine-status-text')?.textContent,
        error: document.getElementById('app-error')?.textContent,
        calc: pick('calc-result', ['data-state', 'data-hand', 'data-starter', 'data-crib']),
        calcMessage: document.getElementById('calc-message')?.textContent,
        discard: pick('discard-result', ['data-state', 'data-cards', 'data-dealer']),
        check: pick('check-result', ['data-state', 'data-seed', 'data-matches']),
        checkMessage: document.getElementById('check-message')?.textContent,
    };
}"""


def wait_for(page, selector: str) -> None:
    """Wait for a selector; on a timeout, fail with what the page was showing instead."""
    try:
        page.wait_for_selector(selector, state="attached", timeout=90_000)
    except Exception as error:
        raise AssertionError(f"waited for {selector}; the page shows {page.evaluate(PAGE_STATE)}") from error


def wait_count(page, hand: str, starter: str, crib: bool) -> dict:
    """Wait until the page shows the count of these cards; return what it shows."""
    wait_for(page, count_selector(hand, starter, crib))
    return page.evaluate(SHOWN_COUNT)


def count_as(page, crib: bool) -> None:
    """Choose hand or crib (the radio buttons are drawn as a switch: click the label)."""
    value = "crib" if crib else "hand"
    if not page.is_checked(f"input[name='calc-kind'][value='{value}']"):
        page.click(f"label:has(input[name='calc-kind'][value='{value}'])")


def type_hand(page, typed: str, crib: bool) -> None:
    count_as(page, crib)
    # Type only once no count is on its way: its reply may rewrite the input as it lands.
    page.wait_for_selector('#calc-result:not([data-state="counting"])', timeout=90_000)
    page.fill("#calc-input", typed)
    page.wait_for_function("t => document.querySelector('#calc-input').value === t", arg=typed)
    page.press("#calc-input", "Enter")


def ensure_count(page, hand: str, starter: str, crib: bool) -> dict:
    """Show this count, typing it only if the page is not already showing it."""
    if not page.locator(count_selector(hand, starter, crib)).count():
        type_hand(page, f"{hand} {starter}", crib)
    return wait_count(page, hand, starter, crib)


def axe_violations(page) -> list[str]:
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))  # not add_script_tag: the page's CSP blocks inline scripts
    return page.evaluate(AXE_SERIOUS)


def screenshot(page, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.mouse.move(0, 0)  # no hover effects in the pictures
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        page.wait_for_timeout(150)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["width"], f"{name}: the page is {width}px wide at {size['width']}px"
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{size['width']}.png"), full_page=True)


@pytest.fixture(scope="module")
def context(browser, browser_context_args, base_url):
    ctx = browser.new_context(**{**browser_context_args, "base_url": base_url, "viewport": DESKTOP})
    yield ctx
    ctx.close()


# --- the hand calculator ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def calc_session(context, pytestconfig):
    """One calculator page for the module, opened on a shared link to the 29 hand."""
    tools = helpers(pytestconfig)
    page = context.new_page()
    watch = tools.PageProblems(page)
    page.add_init_script(RESULT_STATES)
    page.goto("/calculator/?hand=5H,5S,5D,JC&starter=5C&crib=0")
    tools.ui_ready(page)
    # What the page shows once set up: the count, "counting…" with the cards (a slow engine), or
    # for a moment nothing yet (the count on its way, drawn with the cards when it comes).
    # Read in one go: read one by one, the page could move on between the reads.
    first = page.evaluate("""() => ({
        state: document.getElementById("calc-result").getAttribute("data-state"),
        note: document.getElementById("calc-note").innerText,
        slots: [...document.querySelectorAll("#calc-slots .slot")].map((x) => x.dataset.card),
        greyed: document.querySelector('#calc-picker [data-card="JC"]').getAttribute("aria-disabled"),
    })""")
    first["named"] = page.get_by_role("button", name="Hand card 1: five of hearts (select to take it back)",
                                      exact=True).count()
    yield page, watch, first
    page.close()


@pytest.fixture
def calc(calc_session):
    page, watch, _ = calc_session
    yield page
    watch.check()


def test_the_29_hand_from_a_shared_link(calc, calc_session):
    first = calc_session[2]
    if first["state"] == "empty":  # the count on its way: nothing of it drawn yet
        assert first["slots"] == [""] * 5 and first["greyed"] == "false"
    else:  # counted, or the engine was slow and the page said so, the cards laid meanwhile
        assert first["state"] in ("done", "counting"), first
        assert first["state"] == "done" or first["note"] == "Counting…"
        assert first["slots"] == ["5H", "5S", "5D", "JC", "5C"]
        assert first["named"] == 1  # what a screen reader says for the first slot
        assert first["greyed"] == "true"
    shown = wait_count(calc, "5H 5S 5D JC", "5C", False)
    # Whatever state the result showed on the way, the link's cards were in their slots then.
    for state, slots in calc.evaluate("window.__states"):
        assert slots == ["5H", "5S", "5D", "JC", "5C"], (state, slots)
    assert shown == expected_count("5H 5S 5D JC", "5C", False)
    assert shown["total"] == 29 and shown["said"].endswith("and nobs is twenty-nine.”")
    assert calc.locator("#calc-unit").inner_text() == "points in the hand"
    assert calc.locator("#calc-show .card").count() == 5
    assert calc.input_value("#calc-input") == "5H 5S 5D JC 5C"


# Test-only: each state the count's result box takes (data-state), with the slots' cards then.
RESULT_STATES = """
(() => {
  window.__states = [];
  new MutationObserver(() => {
    const result = document.getElementById("calc-result");
    const state = result && result.getAttribute("data-state");
    const last = window.__states[window.__states.length - 1];
    if (state && state !== "empty" && (!last || last[0] !== state)) {
      const slots = [...document.querySelectorAll("#calc-slots .slot")].map((slot) => slot.dataset.card);
      window.__states.push([state, slots]);
    }
  }).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-state"]});
})();
"""

# Test-only: the engine's count replies held back by HOLD_MS (engine.js's window.cribbageEngine,
# wrapped as it is set).
HELD_COUNT = """
(() => {
  let engine;
  Object.defineProperty(window, "cribbageEngine", {configurable: true, get: () => engine, set: (value) => {
    const call = value.call;
    value.call = (name, request) => name !== "score_hand" ? call(name, request)
      : call(name, request).then((reply) => new Promise((resolve) => setTimeout(() => resolve(reply), HOLD_MS)));
    engine = value;
  }});
})();
"""


def test_a_slow_count_from_a_link_shows_its_cards_and_says_it_is_counting(context, pytestconfig):
    """A link's count drawn with its cards when it comes; if it is slow to come, the page lays the
    link's cards and says "Counting…" meanwhile, then shows the count."""
    tools = helpers(pytestconfig)
    page = context.new_page()
    watch = tools.PageProblems(page)
    page.add_init_script(RESULT_STATES)
    page.add_init_script(HELD_COUNT.replace("HOLD_MS", "2500"))
    page.goto("/calculator/?hand=5H,5S,5D,JC&starter=5C&crib=0")
    page.wait_for_selector('#calc-result[data-state="counting"]', state="attached", timeout=60_000)
    assert page.locator("#calc-note").inner_text() == "Counting…"
    assert page.locator("#calc-slots .slot").evaluate_all("s => s.map(x => x.dataset.card)") == \
        ["5H", "5S", "5D", "JC", "5C"]
    assert page.get_attribute('#calc-picker [data-card="JC"]', "aria-disabled") == "true"
    assert wait_count(page, "5H 5S 5D JC", "5C", False)["total"] == 29
    states = page.evaluate("window.__states")
    page.close()
    watch.check()
    assert [state for state, _ in states] == ["counting", "done"], states


SENT_CALLS = """
(() => {
  window.__sent = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    const slot = document.querySelector("#calc-slots .slot");
    window.__sent.push({name: message && message.name, ui: document.documentElement.dataset.ui,
                        slot: slot ? slot.getAttribute("data-card") || "" : "",
                        bound: !!slot && slot.hasAttribute("data-slot")});
    return post.call(this, message, ...rest);
  };
  window.__rewrites = 0;
  const replace = history.replaceState;
  history.replaceState = function (...args) { window.__rewrites += 1; return replace.apply(this, args); };
})();
"""


def test_a_shared_link_asks_for_its_count_before_the_page_has_set_itself_up(context, pytestconfig):
    """The count from the address leaves for the engine before the page sets itself up (before
    its card pickers are bound, which numbers the slots: data-slot), not after: the engine counts
    while the page binds its controls and lays the cards. The first ping goes right behind it, and
    the address, already the count's, is not rewritten."""
    tools = helpers(pytestconfig)
    page = context.new_page()
    watch = tools.PageProblems(page)
    page.add_init_script(SENT_CALLS)
    page.goto("/calculator/?hand=5H,5S,5D,JC&starter=5C&crib=0")
    assert wait_count(page, "5H 5S 5D JC", "5C", False)["total"] == 29
    sent, rewrites = page.evaluate("[window.__sent, window.__rewrites]")
    page.close()
    watch.check()
    assert [call["name"] for call in sent][:3] == ["warm_up", "score_hand", "ping"], sent
    assert sent[1] == {"name": "score_hand", "ui": "loading", "slot": "", "bound": False}, sent
    assert sent[2]["ui"] == "loading", sent
    assert [call["name"] for call in sent].count("score_hand") == 1, sent
    assert rewrites == 0


def test_a_typed_double_run_with_a_king(calc):
    type_hand(calc, "5h 5♠ 6D 7c k♥", False)
    shown = wait_count(calc, "5H 5S 6D 7C", "KH", False)
    assert shown == expected_count("5H 5S 6D 7C", "KH", False)
    assert [i["kind"] for i in shown["items"]].count("run") == 2
    assert calc.url.endswith("/calculator/?hand=5H,5S,6D,7C&starter=KH&crib=0")
    assert calc.input_value("#calc-input") == "5H 5S 6D 7C KH"
    assert calc.get_attribute('#calc-picker [data-card="KH"]', "aria-disabled") == "true"
    assert calc.get_attribute('#calc-picker [data-card="KS"]', "aria-disabled") == "false"


def test_crib_flushes_picked_on_the_grid(calc):
    count_as(calc, False)
    calc.click("#calc-clear")
    assert calc.get_attribute("#calc-result", "data-state") == "empty"
    assert calc.locator('#calc-picker [aria-disabled="true"]').count() == 0
    for name in ("2H", "4H", "6H", "8H"):
        calc.click(f'#calc-picker [data-card="{name}"]')
    assert calc.locator("#calc-note").inner_text() == "Pick one more card."
    calc.click('#calc-picker [data-card="KS"]')
    shown = wait_count(calc, "2H 4H 6H 8H", "KS", False)
    assert shown == expected_count("2H 4H 6H 8H", "KS", False)
    assert any(i["kind"] == "flush" and i["points"] == 4 for i in shown["items"])  # a hand's four-card flush

    count_as(calc, True)
    shown = wait_count(calc, "2H 4H 6H 8H", "KS", True)
    assert shown == expected_count("2H 4H 6H 8H", "KS", True)
    assert not any(i["kind"] == "flush" for i in shown["items"])  # four of a suit in the crib: nothing
    assert calc.locator("#calc-unit").inner_text() == "points in the crib"
    assert "crib=1" in calc.url

    calc.click("#calc-slots .slot[data-slot='4']")  # take the starter back
    assert calc.get_attribute('#calc-picker [data-card="KS"]', "aria-disabled") == "false"
    calc.click('#calc-picker [data-card="KH"]')
    shown = wait_count(calc, "2H 4H 6H 8H", "KH", True)
    assert shown == expected_count("2H 4H 6H 8H", "KH", True)
    assert [i for i in shown["items"] if i["kind"] == "flush"][0]["points"] == 5


def test_the_address_round_trips_a_hand(calc, context):
    type_hand(calc, "7C 8D 8S 9H KC", True)
    shown = wait_count(calc, "7C 8D 8S 9H", "KC", True)
    assert shown == expected_count("7C 8D 8S 9H", "KC", True)
    assert calc.url.endswith("?hand=7C,8D,8S,9H&starter=KC&crib=1")
    other = context.new_page()
    try:
        other.goto(calc.url)
        assert wait_count(other, "7C 8D 8S 9H", "KC", True) == shown
        assert other.is_checked("input[name='calc-kind'][value='crib']")
    finally:
        other.close()


@pytest.mark.parametrize("typed, message", [
    ("5H 5H 5D JC 5C", "Duplicate card '5H' (the five of hearts appears twice)"),
    ("5H 5S 5D JX 5C", "Unknown suit 'X' in card 'JX' (suits: C D H S or ♣ ♦ ♥ ♠)"),
    ("5H 5S", "Enter five cards: the four in the hand, then the starter (got 2)."),
])
def test_bad_input_gets_a_clear_message(calc, typed, message):
    calc.fill("#calc-input", typed)
    calc.click("#calc-form button[type=submit]")
    calc.wait_for_function("text => document.getElementById('calc-message').textContent === text",
                           arg=message, timeout=90_000)
    assert calc.get_attribute("#calc-result", "data-state") == "error"
    assert calc.locator("#calc-message").is_visible()
    assert calc.get_attribute("#calc-input", "aria-invalid") == "true"
    assert calc.locator("#calc-note").inner_text() == "Fix the cards to see the count."
    body = calc.locator("body").inner_text()
    assert "Traceback" not in body and "Error" not in body


def test_a_used_card_cannot_be_picked_twice(calc):
    type_hand(calc, "5H 5S 5D JC 5C", False)
    wait_count(calc, "5H 5S 5D JC", "5C", False)
    assert calc.locator("#calc-message").inner_text() == ""
    calc.click('#calc-picker [data-card="5H"]', force=True)
    assert calc.get_attribute("#calc-result", "data-state") == "done"
    assert calc.locator("#calc-live").inner_text() == "Five of hearts is already picked."


def test_pointing_at_a_combination_lights_its_cards(calc):
    ensure_count(calc, "5H 5S 5D JC", "5C", False)
    lit = "() => [...document.querySelectorAll('#calc-show .card.is-highlighted')].map(c => c.dataset.card).sort()"
    rows = calc.locator("#calc-items tr")
    calc.hover("#calc-items tr >> nth=0")
    assert calc.evaluate(lit) == sorted(rows.nth(0).get_attribute("data-cards").split())
    assert calc.locator("#calc-show .card.is-dim").count() == 3
    calc.mouse.move(5, 5)  # away from the table: nothing is lit
    assert calc.evaluate(lit) == []
    last = rows.count() - 1
    rows.nth(last).focus()  # the keyboard does the same (nobs: the jack and the starter)
    assert calc.evaluate(lit) == ["5C", "JC"]
    calc.focus("#calc-input")
    assert calc.evaluate(lit) == []


def test_say_it_aloud_does_not_fail_without_voices(calc):
    ensure_count(calc, "5H 5S 5D JC", "5C", False)
    assert calc.locator("#calc-say").is_visible()  # Chromium has speechSynthesis, even headless
    calc.evaluate("""() => {
        window.__spoken = [];
        const speak = speechSynthesis.speak.bind(speechSynthesis);
        speechSynthesis.speak = (utterance) => { window.__spoken.push(utterance.text); speak(utterance); };
    }""")
    calc.click("#calc-say")
    calc.wait_for_function("() => window.__spoken.length === 1")
    said = calc.evaluate("() => window.__spoken[0]")
    assert said and calc.inner_text("#calc-said") == "\u201c" + said + "\u201d"  # the count, read aloud


def test_the_picker_works_from_the_keyboard(calc):
    calc.click("#calc-clear")
    start = calc.locator("#calc-picker [tabindex='0']")
    assert start.count() == 1
    start.focus()
    for _ in range(3):
        calc.keyboard.press("ArrowUp")  # to the clubs, whichever card had the tab stop
    calc.keyboard.press("Home")
    calc.keyboard.press("ArrowRight")
    calc.keyboard.press("ArrowDown")  # the 2 of diamonds
    assert calc.evaluate("document.activeElement.dataset.card") == "2D"
    calc.keyboard.press("Enter")
    calc.keyboard.press("ArrowDown")
    calc.keyboard.press(" ")  # the 2 of hearts
    assert calc.locator("#calc-picker [tabindex='0']").count() == 1
    cards = calc.locator("#calc-slots .slot").evaluate_all("s => s.map(x => x.dataset.card)")
    assert cards == ["2D", "2H", "", "", ""]
    named = calc.get_by_role("button", name="Hand card 2: two of hearts (select to take it back)", exact=True)
    assert named.count() == 1
    outline = calc.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"  # the focus is visible


# --- the discard helper -----------------------------------------------------------------------

def shown_discards(page) -> list[list[str]]:
    return page.locator("#discard-rows tr").evaluate_all("rows => rows.map(r => r.dataset.keep.split(' '))")


@pytest.mark.parametrize("dealt", ["5H 5S JD QC 2C 9S", "AC 2D 3H 4S 5C 6D"])
def test_the_discard_helper_ranks_like_the_engine(calc, dealt):
    calc.click("label:has(input[name='discard-kind'][value='dealer'])")
    calc.fill("#discard-input", dealt)
    calc.press("#discard-input", "Enter")
    for dealer in (True, False):
        if not dealer:
            calc.click("label:has(input[name='discard-kind'][value='pone'])")
        wait_for(calc, f'#discard-result[data-state="done"][data-cards="{dealt}"][data-dealer="{int(dealer)}"]')
        expected = [o.to_dict() for o in analysis.discard_options(parse_cards(dealt), is_dealer=dealer)]
        assert shown_discards(calc) == [o["keep_names"] for o in expected]
        nets = calc.locator("#discard-rows tr .discard-net").all_inner_texts()
        assert nets == [f"{o['net']:.2f}".replace("-", "−") for o in expected]
        assert calc.locator("#discard-crib-head").inner_text() == ("Crib (yours)" if dealer else "Crib (theirs)")
    assert f"discard={dealt.replace(' ', ',')}&dealer=0" in calc.url


def test_the_discard_helper_refuses_five_cards(calc):
    calc.fill("#discard-input", "5H 5S JD QC 2C")
    calc.press("#discard-input", "Enter")
    wait_for(calc, "#discard-result[data-state='error']")
    assert calc.locator("#discard-message").inner_text() == "Pick the six cards you were dealt (got 5)."


def test_calculator_accessibility_and_screenshots(calc):
    type_hand(calc, "5H 5S 5D JC 5C", False)
    wait_count(calc, "5H 5S 5D JC", "5C", False)
    calc.fill("#discard-input", "5H 5S JD QC 2C 9S")
    calc.press("#discard-input", "Enter")
    wait_for(calc, '#discard-result[data-state="done"][data-cards="5H 5S JD QC 2C 9S"]')
    violations = axe_violations(calc)
    assert not violations, "\n".join(violations)
    calc.evaluate("window.scrollTo(0, 0)")
    screenshot(calc, "calculator")


# --- the deal checker on the fair-deals page ---------------------------------------------------

def cli_deck(seed: str) -> dict:
    python = str(VENV_PYTHON) if VENV_PYTHON.exists() else sys.executable
    out = subprocess.run([python, "-m", "engine", "deck", seed, "--json"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def shown_deck(page) -> list[dict]:
    return page.locator("#check-deck li").evaluate_all(
        "items => items.map(li => ({position: Number(li.dataset.position), card: Number(li.dataset.card),"
        " name: li.dataset.name, owner: li.dataset.owner}))")


def check(page, seed: str, commitment: str = "", matches: str = "yes") -> None:
    """Check a seed (and a commitment) in the form; wait for the answer with this verdict."""
    page.fill("#check-seed", seed)
    page.fill("#check-commitment", commitment)
    page.click("#check-form button[type=submit]")
    wait_for(page, f'#check-result[data-state="done"][data-seed="{seed.strip().lower()}"][data-matches="{matches}"]')


@pytest.fixture(scope="module")
def checker_session(context, pytestconfig):
    """The fair-deals page as a reader finds it: plain, with no Python until the checker is used."""
    tools = helpers(pytestconfig)
    page = context.new_page()
    watch = tools.PageProblems(page)
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto("/fair-deals/", wait_until="load")
    page.wait_for_load_state("networkidle")
    plain = {"requests": list(requests), "app": page.get_attribute("html", "data-app"),
             "axe": axe_violations(page)}
    yield page, watch, tools, plain
    page.close()


@pytest.fixture
def checker(checker_session):
    page, watch, _, _ = checker_session
    yield page
    watch.check()


def test_the_fair_deals_page_loads_no_python_until_the_checker_is_used(checker, checker_session):
    plain = checker_session[3]
    loaded = [url for url in plain["requests"] if "/runtime/" in url or "/app/" in url or url.endswith(".wasm")]
    assert not loaded, loaded
    assert not plain["app"]
    assert not plain["axe"], "\n".join(plain["axe"])
    assert checker.locator("#check").get_attribute("id") == "check"
    checker.focus("#check-seed")
    checker_session[2].ui_ready(checker)
    assert checker.get_attribute("html", "data-app") == "verifier"


def test_a_bad_seed_gets_a_clear_message(checker):
    for seed, message in [
        ("", "Paste the seed the game revealed after the hand: 32 hex digits."),
        ("5eedc0ffee15c0015eedc0ffee15c0", "A seed has 32 hex digits; this one has 30"),
        ("not a seed", "A seed has hex digits only (0-9, a-f); 'n' is not one"),
    ]:
        checker.fill("#check-seed", seed)
        checker.click("#check-form button[type=submit]")
        checker.wait_for_function(
            "text => document.getElementById('check-message').textContent === text", arg=message, timeout=90_000)
        assert checker.locator("#check-message").is_visible()
    assert "Traceback" not in checker.locator("body").inner_text()


@pytest.mark.parametrize("seed", SEEDS)
def test_the_checker_rebuilds_the_deck_like_the_command_line(checker, seed):
    cli = cli_deck(seed)
    check(checker, seed.upper() if seed == SEEDS[1] else seed, cli["commitment"])
    assert shown_deck(checker) == cli["cards"]
    assert checker.locator("#check-commitment-out").inner_text() == cli["commitment"]
    assert checker.locator("#check-hands .card").count() == 13
    assert checker.url.endswith(f"?seed={seed}&commitment={cli['commitment']}#check")


def test_a_wrong_commitment_is_flagged(checker):
    seed = SEEDS[0]
    wrong = fairdeal.commitment(SEEDS[1])
    check(checker, seed, wrong, matches="no")
    assert checker.get_attribute("#check-verdict", "data-matches") == "no"
    assert "does not match" in checker.locator("#check-verdict").inner_text()
    assert shown_deck(checker) == cli_deck(seed)["cards"]  # the deck is still shown, for comparison
    check(checker, seed, matches="none")
    assert "No commitment entered" in checker.locator("#check-verdict").inner_text()


def test_fair_deals_accessibility_and_screenshots(checker):
    check(checker, SEEDS[0], fairdeal.commitment(SEEDS[0]))
    violations = axe_violations(checker)
    assert not violations, "\n".join(violations)
    checker.locator("#check").scroll_into_view_if_needed()
    screenshot(checker, "fair-deals")


def test_the_games_link_fills_and_runs_the_checker(context, pytestconfig):
    tools = helpers(pytestconfig)
    page = context.new_page()
    watch = tools.PageProblems(page)
    try:
        seed = SEEDS[2]
        cli = cli_deck(seed)
        page.goto(f"/fair-deals/?seed={seed}&commitment={cli['commitment']}#check")
        wait_for(page, f'#check-result[data-state="done"][data-seed="{seed}"]')
        assert page.input_value("#check-seed") == seed
        assert page.input_value("#check-commitment") == cli["commitment"]
        assert page.get_attribute("#check-result", "data-matches") == "yes"
        assert shown_deck(page) == cli["cards"]
        watch.check()
    finally:
        page.close()
