"""Offline: once visited, the site works with no network at all, the engine included.

These tests open their own browser contexts with service workers allowed (the other browser
tests block them, see conftest.py) on a private copy of the build behind its own server, which
they stop to prove that what follows comes from the service worker's cache.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time

import pytest

from site_src.builder import compress, offline
from conftest import ENGINE_TIMEOUT_MS, PageProblems, SiteServer, engine_ready, ui_ready

CACHE_TIMEOUT_S = 60
HAND = "5H 5S 5D JC 5C"


def link_or_copy(src, dst):
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


@pytest.fixture
def site_copy(built_site, tmp_path):
    """A private copy of the build (hard links: a changed file must be replaced, not edited)."""
    root = tmp_path / "site"
    shutil.copytree(built_site, root, copy_function=link_or_copy)
    return root


@pytest.fixture
def server(site_copy):
    server = SiteServer(site_copy)
    yield server
    server.close()


@pytest.fixture
def sw_context(browser, server):
    context = browser.new_context(base_url=server.url, service_workers="allow")
    yield context
    context.close()


def precache(site) -> list[str]:
    text = (site / offline.SERVICE_WORKER).read_text(encoding="utf-8")
    return json.loads(re.search(r"const PRECACHE = (\[.*?\]);", text, re.S).group(1))


def cache_state(page, name: str = "") -> dict:
    """The site's caches, how many entries the named one holds, as the page sees them.

    Only the named cache is opened: caches.open() makes a cache it does not find, so opening
    every listed name would bring back an old build's cache the service worker had just deleted.
    """
    script = """async (wanted) => {
        const names = (await caches.keys()).filter(name => name.startsWith("cribbage-"));
        const sizes = {};
        if (names.includes(wanted)) sizes[wanted] = (await (await caches.open(wanted)).keys()).length;
        const registration = await navigator.serviceWorker.getRegistration();
        return {names, sizes, active: registration && registration.active ? registration.active.state : null,
                controlled: navigator.serviceWorker.controller !== null};
    }"""
    return page.evaluate(script, name)


def wait_for_cache(page, name: str, entries: int) -> dict:
    deadline = time.monotonic() + CACHE_TIMEOUT_S
    while True:
        state = cache_state(page, name)
        if state["sizes"].get(name) == entries and state["active"] == "activated" and len(state["names"]) == 1:
            return state
        assert time.monotonic() < deadline, f"the service worker did not fill {name}: {state}"
        page.wait_for_timeout(200)


def cache_name(site) -> str:
    text = (site / offline.SERVICE_WORKER).read_text(encoding="utf-8")
    return re.search(r'const CACHE = CACHE_PREFIX \+ "([0-9a-f]+)"', text).group(1)


def test_site_works_offline_once_visited(sw_context, server, site_copy, site_pages):
    templates = {page.template: "/" + page.path for page in site_pages}
    if "calculator" not in templates or "game" not in templates:
        pytest.skip("the calculator and game pages are not both built")
    page = sw_context.new_page()
    watch = PageProblems(page)
    watch.allow(r"request failed: .*/favicon-32\.png \(net::ERR_ABORTED\)")  # left behind by a quick goto
    page.goto("/rules/" if any(p.slug == "rules" for p in site_pages) else "/404.html")
    wait_for_cache(page, "cribbage-" + cache_name(site_copy), len(precache(site_copy)))

    server.close()  # from here on nothing can come from the network
    sw_context.set_offline(True)

    page.goto(templates["calculator"])
    assert cache_state(page)["controlled"]
    ui_ready(page)
    engine_ready(page)
    page.fill("#calc-input", HAND)
    page.press("#calc-input", "Enter")
    page.wait_for_function("document.getElementById('calc-total').textContent === '29'",
                           timeout=ENGINE_TIMEOUT_MS)

    page.goto(templates["game"])
    ui_ready(page)
    engine_ready(page)
    page.wait_for_function("['setup', 'discard'].includes(document.getElementById('game').dataset.await)",
                           timeout=ENGINE_TIMEOUT_MS)
    if page.get_attribute("#game", "data-await") == "setup":
        page.click("#deal-button")
    page.wait_for_function("document.getElementById('game').dataset.await === 'discard'",
                           timeout=ENGINE_TIMEOUT_MS)
    cards = page.locator("#my-hand button[data-card]:not([aria-disabled='true'])")
    assert cards.count() == 6
    cards.nth(0).click()
    cards.nth(1).click()
    page.click("#throw-button")
    page.wait_for_function("document.getElementById('game').dataset.await !== 'discard' && "
                           "document.querySelectorAll('#my-hand [data-card]').length === 4",
                           timeout=ENGINE_TIMEOUT_MS)

    page.goto("/rules/")
    assert page.locator("h1").count() == 1
    assert page.evaluate("getComputedStyle(document.body).fontFamily")  # the stylesheet came too
    watch.check()


def test_a_new_build_replaces_the_cache(sw_context, site_copy, site_pages):
    page = sw_context.new_page()
    watch = PageProblems(page)
    watch.allow(r"request failed: .*/favicon-32\.png \(net::ERR_ABORTED\)")
    page.goto("/404.html")
    first = "cribbage-" + cache_name(site_copy)
    wait_for_cache(page, first, len(precache(site_copy)))

    # A new build: one stylesheet changed, so the service worker gets a new cache name.
    css = site_copy / "static" / "site.css"
    text = css.read_text(encoding="utf-8") + "\n/* changed */\n"
    css.unlink()
    css.write_text(text, encoding="utf-8")
    offline.write_service_worker(site_copy, site_pages)
    compress.write_compressed(site_copy)  # (files are replaced, never edited: the copy's are hard links)
    second = "cribbage-" + cache_name(site_copy)
    assert second != first

    page.evaluate("navigator.serviceWorker.getRegistration().then(registration => registration.update())")
    state = wait_for_cache(page, second, len(precache(site_copy)))
    assert state["names"] == [second], "the old build's cache must be gone"
    cached = page.evaluate("""async (name) => {
        const response = await (await caches.open(name)).match(new URL("static/site.css", location.origin + "/"));
        return response ? await response.text() : null;
    }""", second)
    assert cached is not None and cached.endswith("/* changed */\n")
    watch.check()


REGISTRATION_TIMES = """(() => {
    window.__registered = [];
    const register = navigator.serviceWorker.register.bind(navigator.serviceWorker);
    navigator.serviceWorker.register = (...args) => {
        const game = document.getElementById("game");
        window.__registered.push([performance.now(), game ? game.dataset.await || "" : ""]);
        return register(...args);
    };
})();"""


def test_the_worker_is_registered_after_the_first_hand(sw_context, site_copy, site_pages):
    """The offline cache's first download waits until the first hand is offered and a little more:
    the engine's ready state comes just before the first hand is drawn, and the two must not
    share the CPU."""
    if not any(p.template == "game" for p in site_pages):
        pytest.skip("the game page is not built")
    page = sw_context.new_page()
    page.add_init_script(REGISTRATION_TIMES)
    watch = PageProblems(page)
    page.goto("/?seed=offline-later")
    page.wait_for_function("document.getElementById('game').dataset.await === 'discard'",
                           timeout=ENGINE_TIMEOUT_MS)
    offered = page.evaluate("performance.now()")
    assert page.evaluate("window.__registered") == [], "registered before the first hand was offered"
    wait_for_cache(page, "cribbage-" + cache_name(site_copy), len(precache(site_copy)))
    registered = page.evaluate("window.__registered")
    assert len(registered) == 1
    at, waiting = registered[0]
    assert waiting == "discard" and at > offered
    watch.check()


def test_pages_link_the_manifest_and_register_the_worker(page, problems, site_pages):
    """Every page links the web app manifest; under blocked service workers nothing complains."""
    for source in site_pages[:3]:
        page.goto("/" + source.path)
        manifest = page.get_attribute("link[rel='manifest']", "href")
        assert manifest and manifest.endswith("manifest.webmanifest")
        assert page.locator("script[src$='static/offline.js']").count() == 1
        data = page.request.get(page.evaluate("(href) => new URL(href, location.href).href", manifest)).json()
        assert data["display"] == "standalone" and data["start_url"] == "./"


TAMPER = """async ([name, path, text]) => {
    const cache = await caches.open(name);
    await cache.put(new URL(path, location.origin + "/"), new Response(text, {headers: {"Content-Type": "text/javascript"}}));
}"""
CACHED_TEXT = """async ([name, path]) => {
    const response = await (await caches.open(name)).match(new URL(path, location.origin + "/"));
    return response ? await response.text() : null;
}"""
FETCHED_TEXT = """async (path) => {
    try { return await (await fetch(new URL(path, location.origin + "/"))).text(); }
    catch (error) { return "failed: " + error.name; }
}"""


def wait_for_cached(page, name: str, path: str, wanted: tuple, failure: str) -> None:
    """Wait until the cache ``name`` holds one of ``wanted`` (a text, or None for no entry) for
    ``path``: the service worker writes and deletes entries after it has answered the page."""
    deadline = time.monotonic() + CACHE_TIMEOUT_S
    while page.evaluate(CACHED_TEXT, [name, path]) not in wanted:
        assert time.monotonic() < deadline, failure
        page.wait_for_timeout(200)


def cached_site(sw_context, site_copy, site_pages) -> tuple:
    """A page whose service worker has cached the whole site: the page, its problem watch, the
    cache's name and the calculator's address (the test is skipped if it is not built)."""
    templates = {page.template: "/" + page.path for page in site_pages}
    if "calculator" not in templates:
        pytest.skip("the calculator is not built")
    page = sw_context.new_page()
    watch = PageProblems(page)
    watch.allow(r"request failed: .*/favicon-32\.png \(net::ERR_ABORTED\)")
    page.goto("/404.html")
    name = "cribbage-" + cache_name(site_copy)
    wait_for_cache(page, name, len(precache(site_copy)))
    return page, watch, name, templates["calculator"]


def test_a_changed_cache_entry_is_never_served(sw_context, server, site_copy, site_pages):
    """Whatever writes into the site's cache, the service worker serves only the build's bytes:
    a changed entry is deleted and the file fetched afresh (and kept again), and with no network
    it is not served at all."""
    page, watch, name, calculator = cached_site(sw_context, site_copy, site_pages)
    evil = "document.documentElement.dataset.taken = 'yes';"
    runtime = "runtime/pyscript/core.js"  # served from the cache first
    app = "app/engine_worker.mjs"  # served from the network first, the cache when offline
    built = {path: (site_copy / path).read_text(encoding="utf-8") for path in (runtime, app)}

    page.evaluate(TAMPER, [name, runtime, evil])
    assert page.evaluate(CACHED_TEXT, [name, runtime]) == evil
    page.goto(calculator)  # a page that starts PyScript: core.js comes from the cache
    ui_ready(page)
    engine_ready(page)
    assert page.get_attribute("html", "data-taken") is None
    assert page.evaluate(FETCHED_TEXT, runtime) == built[runtime]
    wait_for_cached(page, name, runtime, (built[runtime],), "the changed entry was not replaced")  # kept again

    for path in (runtime, app):
        page.evaluate(TAMPER, [name, path, evil])
    server.close()
    sw_context.set_offline(True)
    watch.allow(r"request failed: GET .*/(runtime/pyscript/core\.js|app/engine_worker\.mjs)")
    watch.allow(r"Failed to load resource")
    for path in (runtime, app):  # the build's bytes (from the browser's own HTTP cache) or nothing
        served = page.evaluate(FETCHED_TEXT, path)
        assert served == built[path] or served.startswith("failed"), f"{path}: {served[:80]!r}"
        # Deleted, or (when the browser's HTTP cache answered the worker's fetch) kept again with the
        # build's bytes, which the worker writes after it has answered.
        wait_for_cached(page, name, path, (None, built[path]), f"{path}: the changed entry stayed")
    watch.check()


TAMPER_TYPED = """async ([name, path, text, type]) => {
    const cache = await caches.open(name);
    await cache.put(new URL(path, location.origin + "/"), new Response(text, {headers: {"Content-Type": type}}));
}"""
CACHED_TYPE = """async ([name, path]) => {
    const response = await (await caches.open(name)).match(new URL(path, location.origin + "/"));
    return response ? response.headers.get("content-type") : null;
}"""


def test_a_cache_entry_with_the_builds_bytes_but_another_type_is_never_served(sw_context, server, site_copy,
                                                                             site_pages):
    """PyScript's core.js with the right bytes, kept as text/plain, would stop every page that
    loads it as a module: the service worker deletes it and fetches the file afresh."""
    page, watch, name, calculator = cached_site(sw_context, site_copy, site_pages)
    runtime = "runtime/pyscript/core.js"
    built = (site_copy / runtime).read_text(encoding="utf-8")
    page.evaluate(TAMPER_TYPED, [name, runtime, built, "text/plain"])
    assert page.evaluate(CACHED_TYPE, [name, runtime]) == "text/plain"
    page.goto(calculator)
    ui_ready(page)
    engine_ready(page)
    deadline = time.monotonic() + CACHE_TIMEOUT_S
    while "javascript" not in (page.evaluate(CACHED_TYPE, [name, runtime]) or ""):
        assert time.monotonic() < deadline, "the entry of the wrong type stayed"
        page.wait_for_timeout(200)
    watch.check()
