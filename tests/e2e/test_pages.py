"""Every built page loads in Chromium with no console error, failed request or remote load."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "screenshots"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def page_url(page_obj) -> str:
    return "/" + page_obj.path


def test_page_loads_cleanly(page, problems, wait_for_ui, wait_for_engine, site_page):
    source = site_page
    page.goto(page_url(source), wait_until="load")
    assert page.title() == source.title
    assert page.locator("h1").count() == 1
    if page.get_attribute("html", "data-app"):
        wait_for_ui(page)
        wait_for_engine(page)
    else:
        page.wait_for_load_state("networkidle")
    problems.check()


def test_page_fits_a_small_phone(page, problems, site_page):
    """At 360 px wide nothing pushes the page sideways (tables scroll inside their box)."""
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(page_url(site_page), wait_until="load")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"{site_page.slug}: the page is {width}px wide at a 360px viewport"


def test_page_has_no_serious_accessibility_violations(page, problems, site_page):
    """axe-core (vendored in node_modules, injected by the test only) finds nothing serious."""
    page.goto(page_url(site_page), wait_until="load")
    if site_page.slug == "bot-lab":  # its editor is drawn while the page starts: scan it drawn
        page.wait_for_selector("html[data-ui='ready']", state="attached", timeout=20_000)
    page.evaluate(AXE.read_text(encoding="utf-8"))  # not add_script_tag: the page's CSP blocks inline scripts
    result = page.evaluate(
        # The Bot lab's code editor (CodeMirror, drawn by PyScript) rewrites its text box's
        # attributes, so that box cannot carry a name; the region around it is named instead.
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .map(v => Object.assign(v, {nodes: v.nodes.filter(n => !n.target.join(' ').includes('.cm-content'))}))
            .filter(v => v.nodes.length)
            .filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => v.id + ': ' + v.help + ' -> ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))"""
    )
    assert not result, f"{site_page.slug}:\n" + "\n".join(result)


def test_missing_address_gets_the_404_page(page, problems):
    problems.allow(r"HTTP 404: .*/no-such-page/")
    problems.allow(r"console error: Failed to load resource: the server responded with a status of 404")
    response = page.goto("/no-such-page/")
    assert response.status == 404
    assert page.locator("h1").inner_text() == "Page not found"
    assert page.evaluate("getComputedStyle(document.body).fontFamily")  # the stylesheet loaded


@pytest.mark.skipif(not (ROOT / "pages" / "rules.md").exists(), reason="pages/rules.md not written yet")
@pytest.mark.parametrize("width", [360, 1280])
def test_the_rules_page_fits_its_width(page, problems, width):
    """Nothing makes the page wider than the window, and its heading shows; the screenshot
    (screenshots/rules-<width>.png, not committed) is for a look by eye."""
    page.set_viewport_size({"width": width, "height": 900})
    page.goto("/rules/", wait_until="load")
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # a wide table scrolls in its own box
    assert page.locator("h1").is_visible()
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"rules-{width}.png"), full_page=True)
