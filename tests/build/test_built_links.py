"""The built site's references: every link, asset and config resolves, and nothing loads remotely."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from site_src.builder import browser_python, runtime
from site_src.builder.packs import read_pack
from site_src.builder.settings import BuildError
from htmlscan import is_remote, local_target, scan

ROOT = Path(__file__).resolve().parents[2]


def html_files(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


@pytest.fixture(scope="module")
def scanned(built_site):
    return {path: scan(path) for path in html_files(built_site)}


def test_every_internal_reference_resolves(built_site, scanned):
    """Every href/src/srcset/config in every page points at a file in the build (and a real #id)."""
    broken = []
    for path, page in scanned.items():
        for ref in page.refs:
            found = local_target(built_site, path, ref.url)
            if found is None:
                continue
            target, fragment = found
            where = f"{path.relative_to(built_site)}: <{ref.tag} {ref.attr}={ref.url!r}>"
            if not target.is_file():
                broken.append(f"{where} -> missing {target.relative_to(built_site)}")
            elif fragment and target.suffix == ".html":
                ids = scanned[target].ids if target in scanned else scan(target).ids
                if fragment not in ids:
                    broken.append(f"{where} -> no id {fragment!r} in {target.relative_to(built_site)}")
    assert not broken, "broken references:\n" + "\n".join(broken)


def test_nothing_is_loaded_from_another_host(built_site, scanned):
    """Scripts, styles, images, fonts, frames, modules and configs are all local; <a> may go out."""
    remote = [
        f"{path.relative_to(built_site)}: <{ref.tag} {ref.attr}={ref.url!r}>"
        for path, page in scanned.items()
        for ref in page.refs
        if ref.is_resource and is_remote(ref.url)
    ]
    assert not remote, "remote resources:\n" + "\n".join(remote)


def test_stylesheets_load_nothing_remote(built_site):
    """CSS has no remote @import, url() or web fonts, and its local url()s resolve."""
    problems = []
    for css in sorted((built_site / "static").rglob("*.css")):
        text = css.read_text(encoding="utf-8")
        if "@font-face" in text:
            problems.append(f"{css.name}: @font-face (the site uses system fonts)")
        for url in re.findall(r"@import\s+(?:url\()?['\"]?([^'\")\s;]+)", text):
            problems.append(f"{css.name}: @import {url}")
        for url in re.findall(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)", text):
            if is_remote(url):
                problems.append(f"{css.name}: remote url({url})")
            elif not url.startswith("data:") and not (css.parent / url.split("#")[0]).resolve().is_file():
                problems.append(f"{css.name}: missing url({url})")
    assert not problems, "\n".join(problems)


def read_config(path: Path) -> dict:
    """A PyScript config: the pages' are JSON, the bot lab's worker's TOML."""
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else tomllib.loads(text)


def pyscript_configs(built_site, scanned) -> dict[Path, dict]:
    """Every PyScript config a page names."""
    configs = {}
    for path, page in scanned.items():
        for ref in page.refs:
            if ref.attr == "config":
                found = local_target(built_site, path, ref.url)
                assert found and found[0].is_file(), f"{path}: config {ref.url} missing"
                configs[found[0]] = read_config(found[0])
    return configs


def test_pyscript_configs_and_their_files_resolve(built_site, scanned):
    """Each config's interpreter and every [files] entry exist in the build and are local."""
    configs = pyscript_configs(built_site, scanned)
    assert len(configs) >= 3, "expected the game's, the calculator's and the bot lab's configs at least"
    for config_path, config in configs.items():
        name = config_path.relative_to(built_site)
        interpreter = config.get("interpreter")
        assert interpreter and not is_remote(interpreter), f"{name}: interpreter must be local"
        assert (config_path.parent / interpreter).resolve().is_file(), f"{name}: {interpreter} missing"
        for source in config.get("files", {}):
            assert not is_remote(source), f"{name}: remote file {source}"
            assert (config_path.parent / source).resolve().is_file(), f"{name}: {source} missing"
        assert not config.get("packages"), f"{name}: packages would be fetched from elsewhere"


def test_engine_worker_names_every_engine_module(built_site):
    """New engine modules reach the browser's worker without editing any list."""
    listed = {path for path, _ in browser_python.engine_worker_files(built_site)}
    for module in sorted((ROOT / "engine").glob("*.py")):
        if module.name not in browser_python.ENGINE_BROWSER_SKIP:
            assert f"/engine/{module.stem}.mpy" in listed, f"engine/{module.name} is not shipped to the worker"
    assert "/engine/data/crib_table.json" in listed and "/engine/data/show_table.bin" in listed


def test_ui_configs_ship_bytecode_of_what_each_page_imports(built_site):
    """Each page's config lists pack.mpy and the page's pack, which holds its module and
    what it imports, as .mpy; no module ships outside a pack."""
    sources = sorted(browser_python.ui_sources())
    table = {"table", "table.coach", "table.fit", "table.flow", "table.history", "table.log", "table.motion",
             "table.finished", "table.link", "table.pick", "table.prompt", "table.review", "table.score_strip",
             "table.setup",
             "table.state", "table.stats_panel", "table.store", "table.view"}
    friend = {"friend_live", "friend_panels", "friend_play", "friend_seal", "friend_seat", "friend_store", "friend_tabs",
              "meet_link", "peer_link", "peer_sdp"}
    expected = {"game": {"board", "board_draw", "bridge", "cardview", "game", "sharing", "local_storage"} | table | friend,
                "calculator": {"bridge", "calculator", "cardview"},
                "verifier": {"bridge", "cardview", "verifier"},
                "botlab": {"botlab", "botlab_sandbox", "bridge", "local_storage"},
                "replay": {"board", "board_draw", "bridge", "cardview", "replay", "replay_view", "sharing"}}
    for page, modules in expected.items():
        modules |= {"dom"}  # document, window and create_proxy, for every page (not PyScript's package)
        config = read_config(built_site / "app" / f"{page}.json")
        assert config["interpreter"].endswith("runtime/micropython/micropython.mjs")
        assert "!error" in config.get("plugins", []), "PyScript's error banner would show tracebacks"
        assert set(config["files"]) == {"./pack.mpy", f"./{page}.pack"}, page
        packed = read_pack((built_site / "app" / f"{page}.pack").read_bytes())
        assert {path for path, _ in packed} == {f"./{browser_python.module_file(name)}.mpy" for name in modules}, page
        for path, data in packed:
            assert data[:2] == b"M\x06", f"{page}.pack: {path} is not MicroPython bytecode (mpy v6)"
    assert {path.relative_to(built_site / "app").as_posix() for path in (built_site / "app").rglob("*.mpy")} == {"pack.mpy"}
    assert (built_site / "app" / "pack.mpy").read_bytes()[:2] == b"M\x06"
    assert not (built_site / "app" / "ui.json").exists()
    assert not [path for path in (built_site / "app").rglob("*.py") if path.stem in sources], "UI source shipped"


def test_no_page_module_imports_pyscripts_package():
    """The pages' modules take document, window and create_proxy from dom.py: PyScript's own
    package is not there to import on the main thread (runtime.write_core_chunk leaves out the
    bootstrap that writes it)."""
    importing = re.compile(r"^\s*(?:from|import)\s+pyscript\b", re.M)
    sources = browser_python.ui_sources()
    assert "dom" in sources
    assert not [name for name, source in sources.items() if importing.search(source)]


def test_pyscript_bootstraps_its_package_only_in_workers(built_site):
    """The vendored core chunk gives the main thread's scripts no bootstrap (PyScript's package is
    neither written nor imported there); workers keep PyScript's own, which imports it."""
    chunks = [path for path in (built_site / "runtime" / "pyscript").glob("core-*.js")]
    assert len(chunks) == 1
    text = chunks[0].read_text(encoding="utf-8")
    maker = runtime.BOOTSTRAP_MAKER_RE.search(text)
    assert maker is None, "the bootstrap maker is left as PyScript wrote it"
    assert text.count(f"{runtime.ON_MAIN_THREAD})=>{{const ") == 1
    assert text.count(f'{runtime.ON_MAIN_THREAD}?"":"mpy"===') == 1
    assert re.search(r"main:\{\.\.\.[\w$]+\([\w$]+,[\w$]+,!0\),", text)
    assert "import pyscript as _pyscript" in text  # still in the workers' bootstrap


def test_the_runtime_every_page_starts_with_is_compiled_as_it_downloads(built_site):
    """PyScript's core chunk and MicroPython's module begin with V8's compile hint, once; the
    chunks only some pages load (the code editor's) do not."""
    folder = built_site / "runtime"
    hinted = [*folder.glob("pyscript/core-*.js"), folder / "micropython" / "micropython.mjs"]
    assert len(hinted) == 2
    for path in hinted:
        data = path.read_bytes()
        assert data.startswith(runtime.EAGER_COMPILE_HINT), path.name
        assert data.count(runtime.EAGER_COMPILE_HINT.strip()) == 1, path.name
    for path in folder.glob("pyscript/codemirror*.js"):
        assert not path.read_bytes().startswith(runtime.EAGER_COMPILE_HINT), path.name


PYSCRIPT_CORE_SAMPLE = ('Bo=(e,t)=>{const n="mpy"===t?Ao.replace(bo,""):Ao,r={};return r},'
                        'l={main:{...Bo(vo,e),async onReady(){}},worker:{...Bo(Eo,e)}};')
"""The two places of PyScript's core chunk (0.7, minified) that write_core_chunk changes."""
PYSCRIPT_CORE_SAMPLE_CHANGED = ('Bo=(e,t,onMainThread$)=>{const n=onMainThread$?"":"mpy"===t?Ao.replace(bo,""):Ao,r={};return r},'
                                'l={main:{...Bo(vo,e,!0),async onReady(){}},worker:{...Bo(Eo,e)}};')
"""The same as write_core_chunk writes it: the main thread's hooks get no bootstrap."""


def test_the_main_threads_bootstrap_is_left_out_and_workers_keep_theirs():
    assert runtime.without_main_thread_bootstrap(PYSCRIPT_CORE_SAMPLE) == PYSCRIPT_CORE_SAMPLE_CHANGED
    # The same with the hooks before the maker, and other minified names.
    swapped = 'x$={main:{...q$(a,b),y:1},worker:{...q$(c,b)}};q$=(f,g)=>{const h="mpy"===g?Z:W};'
    assert runtime.without_main_thread_bootstrap(swapped) == (
        'x$={main:{...q$(a,b,!0),y:1},worker:{...q$(c,b)}};'
        'q$=(f,g,onMainThread$)=>{const h=onMainThread$?"":"mpy"===g?Z:W};')


def test_a_pyscript_that_bootstraps_otherwise_stops_the_build(tmp_path):
    package, out = tmp_path / "dist", tmp_path / "runtime"
    package.mkdir()
    out.mkdir()
    for text in ("const lines = [];",
                 PYSCRIPT_CORE_SAMPLE + PYSCRIPT_CORE_SAMPLE,  # twice
                 PYSCRIPT_CORE_SAMPLE.replace("main:{...Bo(vo,e)", "main:{...Xo(vo,e)"),  # another maker
                 PYSCRIPT_CORE_SAMPLE.replace('"mpy"===t', '"py"===t')):
        (package / "core-AbCd1234.js").write_text(text, encoding="utf-8")
        with pytest.raises(BuildError, match="does not bootstrap PyScript's package as this build expects"):
            runtime.write_core_chunk(package, out)
    (package / "core-AbCd1234.js").write_text(PYSCRIPT_CORE_SAMPLE, encoding="utf-8")
    (package / "core.js").write_text('export * from "./core-AbCd1234.js";', encoding="utf-8")
    assert runtime.write_core_chunk(package, out) == Path("core-AbCd1234.js")
    written = out / "core-AbCd1234.js"
    assert written.read_bytes() == runtime.EAGER_COMPILE_HINT + PYSCRIPT_CORE_SAMPLE_CHANGED.encode()
    stamp = written.stat().st_mtime_ns
    runtime.write_core_chunk(package, out)  # a build over an unchanged copy leaves it alone
    assert written.stat().st_mtime_ns == stamp


def test_runtime_is_vendored_without_extras(built_site):
    """Only what the browser loads is copied from node_modules (no source maps, no other builds)."""
    runtime = built_site / "runtime"
    for needed in ("pyscript/core.js", "micropython/micropython.mjs", "micropython/micropython.wasm"):
        assert (runtime / needed).is_file(), needed
    assert not list(runtime.rglob("*.map"))
    shipped = (p.name for p in (runtime / "micropython").iterdir() if p.suffix not in (".gz", ".br"))  # twins
    assert sorted(shipped) == ["micropython.mjs", "micropython.wasm"]


LAUNCHER_RE = re.compile(r'import asyncio\nawait asyncio\.sleep\(0\)\nimport pack\npack\.mount\("([a-z_]+)\.pack"\)\n'
                         r"import \1")


def test_no_inline_event_handlers_or_scripts(built_site, scanned):
    """Keeps a strict Content-Security-Policy possible: JavaScript only from files; inline only
    JSON-LD, the few-line MicroPython launcher of a page module and the bot lab's Python text
    (not JavaScript, so not something the policy has to allow)."""
    problems = []
    for path, page in scanned.items():
        name = path.relative_to(built_site)
        problems += [f"{name}: {h}" for h in page.inline_handlers]
        if page.style_attrs:
            problems.append(f"{name}: {page.style_attrs} style attribute(s)")
        for attrs, text in page.scripts:
            kind = attrs.get("type", "")
            if kind == "application/ld+json":
                continue
            if kind == "mpy" and not attrs.get("src") and LAUNCHER_RE.fullmatch(text.strip()):
                continue
            if kind in ("mpy-editor", "text/x-python") and not attrs.get("src"):
                continue  # the bot lab's editor text and example bots: Python as data, never run as script
            if not attrs.get("src"):
                problems.append(f"{name}: inline <script type={kind!r}>")
            elif text.strip():
                problems.append(f"{name}: <script src> with a body")
    assert not problems, "\n".join(problems)
