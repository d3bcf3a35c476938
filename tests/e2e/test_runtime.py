"""The browser runtime: MicroPython UI on the main thread, the engine in a MicroPython worker."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

PROBE = Path(__file__).resolve().parent / "bridge_probe"


def interactive_path(site_pages) -> str:
    for slug in ("calculator", "index"):
        for page in site_pages:
            if page.slug == slug and page.template in ("calculator", "game"):
                return "/" + page.path
    pytest.skip("no interactive page to load")


def test_engine_boots_from_vendored_files_and_answers_ping(page, problems, base_url, site_pages,
                                                           wait_for_ui, wait_for_engine):
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(interactive_path(site_pages))
    wait_for_ui(page)
    status = wait_for_engine(page)
    assert status.startswith("Engine ready: MicroPython 1."), status
    assert page.get_attribute("#engine-status", "data-state") == "ready"
    assert not page.locator("#engine-progress").is_visible()
    loaded = [url for url in requests if not url.startswith(("data:", "blob:"))]
    assert all(url.startswith(base_url + "/") for url in loaded), [u for u in loaded if not u.startswith(base_url)]
    for needed in ("/runtime/pyscript/core.js", "/runtime/micropython/micropython.wasm",
                   "/static/engine.js", "/app/engine_worker.mjs", "/app/engine.pack", "/app/pack.mpy"):
        assert any(url.startswith(base_url) and url.endswith(needed) for url in loaded), f"{needed} never loaded"
    assert not [url for url in loaded if "pyodide" in url.lower()], "a page loaded Pyodide"
    # The engine runs in its worker: the page's own document never fetched the engine's files
    # (the resource timeline of a document leaves out what its workers fetch).
    fetched_by_page = page.evaluate("performance.getEntriesByType('resource').map(entry => entry.name)")
    assert any(url.endswith("/app/pack.mpy") for url in fetched_by_page), fetched_by_page
    assert any(url.endswith(".pack") and not url.endswith("/engine.pack") for url in fetched_by_page), fetched_by_page
    in_page = [url for url in fetched_by_page if "/engine/" in url or url.endswith("/app/engine.pack")]
    assert not in_page, f"the page's main thread loaded the engine: {in_page}"


@pytest.fixture(scope="module")
def probe_url(built_site, tmp_path_factory, serve_folder):
    """A test-only page next to a copy of the build's runtime, app and engine folders."""
    root = tmp_path_factory.mktemp("probe-site")
    for name in ("runtime", "app", "engine", "static"):
        (root / name).symlink_to(built_site / name, target_is_directory=True)
    shutil.copytree(PROBE, root / "probe")
    return serve_folder(root) + "/probe/"


def error_text(page) -> str:
    box = page.locator("#app-error")
    page.wait_for_function("document.getElementById('app-error').textContent.length > 0")
    text = box.inner_text()
    assert box.is_visible()
    return text


def test_bridge_round_trip_and_clear_error_messages(page, problems, probe_url, wait_for_ui, wait_for_engine):
    # The failures this test provokes log their details to the console, on purpose.
    problems.allow(r"console error: Engine call (no_such_function failed|ping raised)")
    problems.allow(r"console error: Page error in click handler")
    page.goto(probe_url)
    wait_for_ui(page)
    wait_for_engine(page)

    page.click("#echo")
    page.wait_for_function("document.getElementById('out').textContent.length > 0")
    assert json.loads(page.locator("#out").inner_text()) == {"cards": ["5H", "J♣"], "n": 2.5, "list": [1, 2]}

    page.click("#bad-input")
    assert error_text(page) == "The request must be a JSON object."

    for button, message in [
        ("#unknown", "Something went wrong while the engine was working. Please try again."),
        ("#worker-raises", "Something went wrong while the engine was working. Please try again."),
        ("#page-raises", "Something went wrong on this page. Reloading it usually helps."),
    ]:
        page.evaluate("document.getElementById('app-error').textContent = ''")
        page.click(button)
        assert error_text(page) == message
    body = page.locator("body").inner_text()
    assert "Traceback" not in body and "Error:" not in body
    assert page.locator(".py-error").count() == 0  # PyScript's own error banner stays off
    assert page.get_attribute("html", "data-engine") == "ready"  # the engine survives failed calls
    logged = "\n".join(problems.found)
    assert "the engine's worker stopped" in logged  # the details went to the console for developers


PING_HELD = """
(() => {
  const Real = window.Worker;
  window.__calls = [];
  window.Worker = function (url, options) {
    const worker = new Real(url, options);
    const names = {};
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (data) => {
      names[data.id] = data.name;
      window.__calls.push(data.name);
      return post(data);
    };
    let handler = null;
    worker.addEventListener("message", (event) => {
      if (!handler) return;
      if (names[event.data.id] !== "ping") { handler(event); return; }
      setTimeout(() => { window.__calls.push("ping answered"); handler(event); }, 400);
    });
    Object.defineProperty(worker, "onmessage", {get: () => handler, set: (fn) => { handler = fn; }});
    return worker;
  };
})();
"""


def test_the_first_deal_is_asked_for_beside_the_ping_not_after_its_answer(page, wait_for_engine):
    """The page's first ping and its first call go out together (the worker answers in order):
    here the ping's answer is held back, and the deal is asked for before it comes."""
    page.add_init_script(PING_HELD)
    page.goto("/?seed=behind-the-ping")
    page.wait_for_selector("#game[data-await='discard']", state="attached", timeout=30_000)
    assert page.locator("#my-hand [data-card]").count() == 6
    calls = page.evaluate("window.__calls")
    assert calls[0] == "warm_up" and "ping" in calls, calls
    assert calls.index("new_game") < calls.index("ping answered"), calls
    assert wait_for_engine(page).startswith("Engine ready: MicroPython 1.")
