"""Browser tests: Debian's Chromium, through Playwright, against this session's build of the site.

Every test in tests/e2e is marked e2e. Fixtures and helpers for other test files:

- ``base_url``: the site, served from 127.0.0.1 on a free port (Playwright's ``page.goto("/rules/")``
  resolves against it).
- ``problems``: watches ``page`` and fails the test on any console error, uncaught page error,
  failed request, HTTP error status or Content-Security-Policy violation (reported as a console
  error "CSP violation: ..."). ``problems.allow(regex)`` excuses an expected one.
- ``wait_for_ui`` / ``wait_for_engine`` (fixtures returning functions of ``page``): wait for
  html[data-ui="ready"] and html[data-engine="ready"], the marks bridge.py sets; an engine error
  fails the test with the message the page shows.
- ``site_page`` (from tests/conftest.py): parametrizes a test over every built page.
"""

from __future__ import annotations

import re
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

from site_src.builder import serve

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # Every host but the local server fails to resolve: a page that works needs nothing remote.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
UI_TIMEOUT_MS = 20_000
ENGINE_TIMEOUT_MS = 90_000  # a cold Pyodide boot takes a few seconds; leave room on a busy machine
E2E_DIR = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    for item in items:
        if E2E_DIR in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.e2e)


class SiteServer:
    """A static server over one folder on 127.0.0.1, on a free port, in a background thread."""

    def __init__(self, directory: Path):
        self.directory = directory
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), serve.make_handler(directory))
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="session")
def serve_folder():
    """``serve_folder(path) -> base URL``: serve another folder (test-only pages) for the session."""
    servers = []

    def start(directory: Path) -> str:
        servers.append(SiteServer(directory))
        return servers[-1].url

    yield start
    for server in servers:
        server.close()


@pytest.fixture(scope="session")
def site_server(built_site):
    server = SiteServer(built_site)
    yield server
    server.close()


@pytest.fixture(scope="session")
def base_url(site_server) -> str:
    return site_server.url


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """Pages in tests run without the offline service worker, so every test sees the network's
    files and timing; tests/e2e/test_offline.py opens its own contexts that allow it."""
    return {**browser_context_args, "service_workers": "block"}


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make deps` installs Debian's chromium package")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


CSP_WATCH = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error("CSP violation: " + event.violatedDirective + " blocked " + (event.blockedURI || "inline")
                + " at " + event.sourceFile + ":" + event.lineNumber);
});
"""
"""Init script: every Content-Security-Policy violation on the page becomes a console error."""


class PageProblems:
    """Collects console errors (CSP violations among them), page errors, failed requests and HTTP
    errors of one page."""

    def __init__(self, page):
        self.page = page
        self.found: list[str] = []
        self.allowed: list[re.Pattern] = []
        page.add_init_script(CSP_WATCH)
        page.on("console", self._console)
        page.on("pageerror", lambda error: self._add(f"page error: {error}"))
        page.on("requestfailed", self._request_failed)
        page.on("response", self._response)
        page.on("worker", self._worker)

    def _add(self, text: str):
        self.found.append(text)

    def _request_failed(self, request):
        # net::ERR_ABORTED is the browser itself dropping a request it no longer needs (a reload or
        # a navigation while the favicon or a preload is on its way), not the page failing.
        if "ERR_ABORTED" not in (request.failure or ""):
            self._add(f"request failed: {request.method} {request.url} ({request.failure})")

    def _console(self, message):
        if message.type == "error":
            self._add(f"console error: {message.text}")

    def _response(self, response):
        if response.status >= 400:
            self._add(f"HTTP {response.status}: {response.url}")

    def _worker(self, worker):
        worker.on("console", self._console)

    def allow(self, pattern: str) -> None:
        """Excuse problems matching ``pattern`` (a regular expression) in this test."""
        self.allowed.append(re.compile(pattern))

    @property
    def problems(self) -> list[str]:
        return [p for p in self.found if not any(a.search(p) for a in self.allowed)]

    def check(self) -> None:
        """Fail if anything went wrong so far."""
        problems = self.problems
        assert not problems, "the page reported problems:\n" + "\n".join(problems)


@pytest.fixture
def problems(page):
    """Watches ``page``; the test fails at the end if the page reported any problem."""
    watch = PageProblems(page)
    yield watch
    watch.check()


@pytest.fixture
def wait_for_ui():
    """``wait_for_ui(page)``: wait for the page's UI module (html[data-ui="ready"])."""
    return ui_ready


@pytest.fixture
def wait_for_engine():
    """``wait_for_engine(page)``: wait for the engine's answer; returns the status line."""
    return engine_ready


def ui_ready(page, timeout: int = UI_TIMEOUT_MS) -> None:
    """Wait until the page's MicroPython UI module has bound its controls."""
    page.wait_for_selector("html[data-ui='ready']", state="attached", timeout=timeout)


def engine_ready(page, timeout: int = ENGINE_TIMEOUT_MS) -> str:
    """Wait until the engine worker answers; returns the status line. Fails on an engine error."""
    page.wait_for_selector("html[data-engine='ready'], html[data-engine='error']", state="attached",
                           timeout=timeout)
    status = page.locator("#engine-status-text").inner_text() if page.locator("#engine-status-text").count() else ""
    state = page.get_attribute("html", "data-engine")
    assert state == "ready", f"the engine failed to start: {status!r}"
    return status


@pytest.fixture(scope="session")
def relay():
    """A real meeting point (a published Nostr relay) on 127.0.0.1 for the session: tests/e2e/relay.py."""
    from relay import Relay

    started = Relay()
    yield started
    started.stop()
