"""What pages load: reference pages no Python at all, interactive pages each runtime file once."""

from __future__ import annotations

import re

import pytest

from site_src.builder import runtime, serve
from conftest import SiteServer, engine_ready, ui_ready

PYTHON_URL_RE = re.compile(r"\.wasm(\?|$)|\.m?py(\?|$)|pyodide|pyscript|micropython|engine-worker|/engine/", re.I)

def reference_pages(site_pages) -> list:
    return [p for p in site_pages if p.template in ("page", "verifier")]


def test_reference_pages_load_no_python_and_no_wasm(page, problems, site_pages):
    """Reading the rules costs no runtime: no .wasm, .py, Pyodide, PyScript or MicroPython URL
    (the deal checker's page loads its Python only once the checker is used)."""
    pages = reference_pages(site_pages)
    assert pages
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    for source in pages:
        requests.clear()
        page.goto("/" + source.path)
        page.wait_for_load_state("networkidle")
        python = [url for url in requests if PYTHON_URL_RE.search(url)]
        assert not python, f"/{source.path} loaded {python}"


class CountingServer(SiteServer):
    """The site's server, noting every path it sends in full (status 200)."""

    def __init__(self, directory):
        self.sent = []
        base = serve.make_handler(directory)
        sent = self.sent

        class Handler(base):
            def log_request(self, code="-", size="-"):
                if str(code) == "200":
                    sent.append(self.path.split("?", 1)[0])

        super().__init__(directory)
        self.httpd.RequestHandlerClass = Handler


def test_runtime_files_and_preloads_are_sent_once(browser, built_site, site_pages):
    """The page and the engine's worker both load MicroPython (two JavaScript realms), but each
    runtime file crosses the network once: the second load comes from the browser's cache."""
    source = next((p for p in site_pages if p.template in ("calculator", "game")), None)
    if source is None:
        pytest.skip("no interactive page")
    server = CountingServer(built_site)
    context = browser.new_context(base_url=server.url, service_workers="block")
    page = context.new_page()
    warnings = []
    page.on("console", lambda message: warnings.append(message.text) if message.type == "warning" else None)
    try:
        page.goto("/" + source.path)
        ui_ready(page)
        engine_ready(page)
        page.wait_for_timeout(3500)  # Chromium warns about an unused preload after about 3 s
    finally:
        context.close()
        server.close()
    preloaded = [re.search(r'href="[./]*(runtime/[^"]+)"', tag).group(1) for tag in runtime.runtime_preloads()]
    for name in [*preloaded, "runtime/pyscript/core.js", "app/engine_worker.mjs", "app/engine.pack",
                 "app/pack.mpy", f"app/{source.template}.pack"]:
        assert server.sent.count("/" + name) == 1, f"{name} sent {server.sent.count('/' + name)} times"
    assert not [w for w in warnings if "preload" in w.lower()], warnings
