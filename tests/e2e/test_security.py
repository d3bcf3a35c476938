"""The Content-Security-Policy at work, and markup from users or storage shown only as text.

Every page loads with no CSP violation at all: the shared ``problems`` fixture fails any test on
one (see conftest.py), so test_pages.py's load of every page, engine included, checks that.
"""

from __future__ import annotations

import json
from urllib.parse import urlencode

import pytest

MARKUP = '<img src="x" onerror="window.__pwned=1"><b class="injected">5H</b><script>window.__pwned=2</script>'
INJECTED = "img[src='x'], .injected, main script:not([src]), [onerror]"
ENGINE_TIMEOUT_MS = 90_000

# Kept by the page in window.__violations (besides the console errors ``problems`` records).
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push({directive: event.effectiveDirective, blocked: event.blockedURI || "inline"});
});
"""
ATTACK = (
    '<script>window.__pwned = "inline script"</script>'
    '<img src="/static/logo.svg" alt="" onload="window.__pwned = \'inline handler\'">'
    '<script src="https://cdn.example.net/evil.js"></script>'
    '<link rel="stylesheet" href="https://cdn.example.net/evil.css">'
    '<script src="/__probe__.js"></script>'
)
"""Markup an attacker might get into a page; only the same-origin probe script may run."""
PROBE_JS = """
window.__probeRan = true;
try { eval("window.__evaled = true"); } catch (error) { window.__evalBlocked = String(error.name); }
"""


def page_path(site_pages, template: str) -> str:
    for page in site_pages:
        if page.template == template:
            return "/" + page.path
    pytest.skip(f"no page uses the {template} template yet")


def assert_shown_as_text(page) -> None:
    """No element was made from the markup and none of its script ran."""
    made = page.eval_on_selector_all(INJECTED, "els => els.map(e => e.outerHTML.slice(0, 80))")
    assert not made, f"markup became HTML: {made}"
    assert page.evaluate("window.__pwned") is None, "the markup's script ran"


@pytest.mark.parametrize("template", ["page", "game"])
def test_injected_scripts_and_remote_loads_are_blocked(page, problems, base_url, site_pages, template):
    """A page altered in transit (or by a template bug) still runs none of the injected script."""
    problems.allow(r"CSP violation|Content Security Policy")
    problems.allow(r"request failed: .*cdn\.example\.net")
    path = page_path(site_pages, template)

    def altered(route):
        response = route.fetch()
        body = response.text().replace("</body>", ATTACK + "</body>", 1)
        route.fulfill(response=response, body=body)

    page.route(base_url + path, altered)
    page.route(base_url + "/__probe__.js",
               lambda route: route.fulfill(body=PROBE_JS, content_type="text/javascript"))
    page.add_init_script(RECORD_VIOLATIONS)
    page.goto(path, wait_until="load")
    page.evaluate("""() => {
        const script = document.createElement("script");
        script.textContent = "window.__pwned = 'added script'";
        document.body.append(script);
        document.body.insertAdjacentHTML("beforeend",
            '<img src="/static/logo.svg" alt="" onload="window.__pwned = \\'added handler\\'">');
    }""")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__probeRan") is True, "the site's own scripts must still run"
    assert page.evaluate("window.__pwned") is None
    blocked = {(v["directive"], v["blocked"]) for v in page.evaluate("window.__violations")}
    assert ("script-src-elem", "inline") in blocked
    assert ("script-src-attr", "inline") in blocked
    assert ("script-src-elem", "https://cdn.example.net/evil.js") in blocked
    assert ("style-src-elem", "https://cdn.example.net/evil.css") in blocked
    if template == "page":  # pages that run no Python cannot eval strings either
        assert page.evaluate("window.__evalBlocked") == "EvalError"
        assert page.evaluate("window.__evaled") is None
    else:  # PyScript needs eval (see CSP_PYTHON_EXTRA in site_src/builder/security.py)
        assert page.evaluate("window.__evaled") is True


def test_markup_typed_into_the_calculator_is_shown_as_text(page, problems, site_pages, wait_for_ui):
    page.goto(page_path(site_pages, "calculator"))
    wait_for_ui(page)
    for field, message in (("#calc-input", "#calc-message"), ("#discard-input", "#discard-message")):
        page.fill(field, MARKUP)
        page.press(field, "Enter")
        page.wait_for_function(f"document.querySelector({message!r}).textContent.length > 0",
                               timeout=ENGINE_TIMEOUT_MS)
        assert_shown_as_text(page)
        assert page.input_value(field) == MARKUP  # what was typed is kept, not lost


def test_markup_in_the_deal_checker_is_shown_as_text(page, problems, site_pages, wait_for_ui):
    path = page_path(site_pages, "verifier")
    # From the address (the checker starts at once and checks it) ...
    page.goto(path + "?" + urlencode({"seed": MARKUP, "commitment": MARKUP}) + "#check")
    wait_for_ui(page)
    page.wait_for_function("document.getElementById('check-message').textContent.length > 0",
                           timeout=ENGINE_TIMEOUT_MS)
    assert_shown_as_text(page)
    # ... and typed in.
    page.evaluate("document.getElementById('check-message').textContent = ''")
    page.fill("#check-seed", MARKUP)
    page.fill("#check-commitment", MARKUP)
    page.press("#check-seed", "Enter")
    page.wait_for_function("document.getElementById('check-message').textContent.length > 0",
                           timeout=ENGINE_TIMEOUT_MS)
    assert_shown_as_text(page)


def test_the_muggins_count_field_only_takes_numbers(page, problems, site_pages, wait_for_ui):
    page.goto(page_path(site_pages, "game"))
    wait_for_ui(page)
    field = page.locator("#count-input")
    if not field.count():
        pytest.skip("the game page has no muggins count field")
    assert field.get_attribute("type") == "number"
    assert page.evaluate("""(markup) => {
        const input = document.getElementById("count-input");
        input.value = markup;
        return input.value;
    }""", MARKUP) == ""  # a number field drops anything that is not a number
    assert_shown_as_text(page)


STORED_KEYS = ("cribbage.game.v1", "cribbage.stats.v1", "cribbage.settings.v1")


def stored_markup() -> list[dict[str, str]]:
    """Saved data full of markup: raw text, and JSON of the right shape with markup inside."""
    game = json.dumps({"format": "cribbage-game", "v": 1, "seed": MARKUP, "players": [MARKUP, MARKUP]})
    return [
        {key: MARKUP for key in STORED_KEYS},
        {
            "cribbage.game.v1": json.dumps({"v": 1, "game": game, "meta": {"difficulty": MARKUP,
                                            "target": MARKUP, "muggins": MARKUP, "name": MARKUP},
                                            "tab": MARKUP, "rev": 1, "time": 0}),
            "cribbage.stats.v1": json.dumps({"v": 1, "games": MARKUP, "wins": {MARKUP: MARKUP},
                                             "by_difficulty": {MARKUP: {"games": 1, "name": MARKUP}}}),
            "cribbage.settings.v1": json.dumps({"v": 1, "difficulty": MARKUP, "target": MARKUP,
                                                "muggins": MARKUP, "speed": MARKUP}),
        },
    ]


@pytest.mark.parametrize("variant", [0, 1], ids=["raw-markup", "json-with-markup"])
def test_markup_in_saved_data_is_never_shown_as_html(page, problems, site_pages, wait_for_ui,
                                                      wait_for_engine, variant):
    game_path = page_path(site_pages, "game")
    page.add_init_script(  # written before the page's own scripts run, on the first load only
        "if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded', '1');"
        f" for (const [k, v] of Object.entries({json.dumps(stored_markup()[variant])})) localStorage.setItem(k, v); }}")
    page.goto(game_path)
    wait_for_ui(page)
    wait_for_engine(page)
    page.wait_for_timeout(500)  # let the page finish checking what it found
    assert_shown_as_text(page)
    body = page.inner_text("body")
    assert "Traceback" not in body
