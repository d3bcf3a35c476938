"""What pages load: reference pages no Python at all, interactive pages each runtime file once,
and the engine finds every module it imports in the trimmed standard library."""

from __future__ import annotations

import json
import re
import zipfile

import pytest

import build

PYTHON_URL_RE = re.compile(r"\.wasm(\?|$)|\.m?py(\?|$)|pyodide|pyscript|micropython|engine-worker|/engine/", re.I)

PROBE_HTML = """<!doctype html>
<html lang="en" data-root="../" data-engine="idle" data-ui="loading">
<head>
<meta charset="utf-8">
<title>Engine self-check</title>
<link rel="icon" href="../static/favicon.svg" type="image/svg+xml">
<script src="../static/engine.js"></script>
<script type="module" src="../runtime/pyscript/core.js"></script>
</head>
<body>
<div id="engine-status"><p id="engine-status-text" role="status">Starting…</p></div>
<div id="app-error" role="alert"></div>
<output id="out"></output>
<script type="mpy" src="./probe.py" config="../app/ui.toml"></script>
</body>
</html>
"""
PROBE_PY = """
import json

import bridge
from pyscript import document


async def check():
    reply = await bridge.call("selfcheck", {})
    document.getElementById("out").textContent = json.dumps(reply)


bridge.ui_ready()
bridge.launch(check())
"""


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


@pytest.fixture(scope="module")
def selfcheck_url(built_site, tmp_path_factory, serve_folder):
    """A test-only page (under the build's own CSP) next to the build's runtime, app and engine."""
    root = tmp_path_factory.mktemp("selfcheck-site")
    for name in ("runtime", "app", "engine", "static"):
        (root / name).symlink_to(built_site / name, target_is_directory=True)
    (root / "probe").mkdir()
    (root / "probe" / "index.html").write_text(build.with_csp(PROBE_HTML, "probe"), encoding="utf-8")
    (root / "probe" / "probe.py").write_text(PROBE_PY, encoding="utf-8")
    return serve_folder(root) + "/probe/"


def test_engine_imports_everything_it_uses_from_the_trimmed_stdlib(page, problems, built_site, selfcheck_url,
                                                                   wait_for_engine):
    sizes = {}
    page.on("response", lambda response: sizes.update({response.url: response.headers.get("content-length")})
            if response.url.endswith("python_stdlib.zip") else None)
    page.goto(selfcheck_url)
    wait_for_engine(page)
    page.wait_for_function("document.getElementById('out').textContent.length > 0", timeout=60_000)
    result = json.loads(page.inner_text("#out"))
    shipped = {p.stem for p in (built_site / "engine").glob("*.py")} - {"__main__"}
    assert {m.rsplit(".", 1)[-1] if m != "engine" else "__init__" for m in result["engine"]} == shipped
    assert {"json", "hashlib", "secrets", "random", "itertools", "functools", "collections", "math"} <= set(result["imports"])
    stdlib = built_site / "runtime" / "pyodide" / "python_stdlib.zip"
    assert [int(v) for v in sizes.values() if v] == [stdlib.stat().st_size]  # the trimmed zip, once
    with zipfile.ZipFile(stdlib) as zipped:
        assert "email/__init__.py" not in zipped.namelist()


def test_runtime_files_and_preloads_are_fetched_once(page, problems, site_pages, wait_for_ui, wait_for_engine):
    source = next((p for p in site_pages if p.template in ("calculator", "game")), None)
    if source is None:
        pytest.skip("no interactive page")
    requests, warnings = [], []
    page.on("request", lambda request: requests.append(request.url))
    page.on("console", lambda message: warnings.append(message.text) if message.type == "warning" else None)
    page.goto("/" + source.path)
    wait_for_ui(page)
    wait_for_engine(page)
    page.wait_for_timeout(3500)  # Chromium warns about an unused preload after about 3 s
    runtime = [url.split("/runtime/", 1)[1] for url in requests if "/runtime/" in url]
    # The preloaded files and the big ones come once. (Small modules such as PyScript's TOML
    # parser load once on the page and once more in the worker, a separate JavaScript realm.)
    preloaded = [re.search(r'href="[./]*runtime/([^"]+)"', tag).group(1) for tag in build.runtime_preloads()]
    for name in [*preloaded, "pyodide/pyodide.asm.wasm", "pyodide/pyodide.asm.mjs", "pyodide/python_stdlib.zip"]:
        assert runtime.count(name) == 1, f"{name} fetched {runtime.count(name)} times"
    assert not [w for w in warnings if "preload" in w.lower()], warnings
