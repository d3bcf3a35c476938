"""The load budget of the build: MicroPython only, the engine as bytecode, no unused runtime, br and gzip twins."""

from __future__ import annotations

import gzip

import brotli
import http.client
import json
import re
import threading
import tomllib
from http.server import ThreadingHTTPServer

import pytest

from site_src.builder import browser_python, compress, runtime, serve, settings

BOTLAB_PAGE = "bot-lab/index.html"
PYODIDE_FILES = ("app/botlab_worker.py", "app/botlab_sandbox.json")


def test_pyodide_only_in_the_workers_that_need_it(built_site):
    """The pages run MicroPython, the expert included; Pyodide is named only by the bot lab's
    worker and the list of files its sandbox is handed, which the bot lab's module starts (no
    page names it)."""
    assert (built_site / "runtime" / "pyodide" / "pyodide.asm.wasm").is_file()
    for path in [*built_site.rglob("*.html"), *(built_site / "app").glob("*.toml"), *(built_site / "app").glob("*.json")]:
        rel = path.relative_to(built_site).as_posix()
        if rel not in PYODIDE_FILES:
            assert "pyodide/" not in path.read_text(encoding="utf-8").lower(), rel
    sandbox = json.loads((built_site / "app" / "botlab_sandbox.json").read_text(encoding="utf-8"))
    assert not (built_site / "app" / "botlab_worker.toml").exists()  # its files are in the sandbox's manifest
    files = {source: "./" + target for source, target in sandbox["files"][:-1]}
    for source, target in files.items():
        assert (built_site / "app" / source).resolve().is_file(), source
        assert target.startswith("./engine/"), target
    assert "./engine/expert.py" in files.values() and "./engine/match.py" in files.values()
    assert (built_site / "app" / "botlab_worker.py").is_file() and not (built_site / "app" / "botlab_worker.mpy").exists()
    assert not list((built_site / "app").glob("*.toml"))  # no page starts a Pyodide worker of its own


def test_engine_ships_as_bytecode_in_one_pack_with_its_worker(built_site):
    """The worker fetches one file: engine_worker.mpy, every engine module as bytecode and the data."""
    engine = built_site / "engine"
    assert not list(engine.glob("*.mpy")) and not list(engine.glob("*.py"))  # only inside the pack
    sources = sorted(p.stem for p in (settings.ENGINE_DIR).glob("*.py")
                     if p.name not in browser_python.ENGINE_BROWSER_SKIP)
    files = dict(browser_python.engine_worker_files(built_site))
    assert set(files) == ({f"/engine/{m}.mpy" for m in sources} | {"/engine_worker.mpy"}
                          | {"/engine/data/crib_table.json", "/engine/data/show_table.bin"})
    for path, data in files.items():
        if path.endswith(".mpy"):
            assert data[:2] == b"M\x06", path  # MicroPython bytecode
    for name in ("crib_table.json", "show_table.bin"):
        assert files[f"/engine/data/{name}"] == (settings.ENGINE_DIR / "data" / name).read_bytes()
    assert not list((built_site / "app").glob("engine_worker.*py"))


def test_no_unused_pyscript_chunks_and_no_page_needs_them(built_site):
    folder = built_site / "runtime" / "pyscript"
    names = {path.name for path in folder.iterdir()}
    assert "core.js" in names and any(re.fullmatch(r"core-[\w-]{8}\.js", n) for n in names)
    assert not [n for n in names if n.startswith(("xterm", "zip-", "pyodide_graph"))], names
    assert [n for n in names if n.startswith("codemirror")], "the bot lab's editor needs CodeMirror"
    runtime.check_runtime_imports(folder)  # what the kept chunks import statically is all there
    for page in built_site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r'type="py-editor"|<script[^>]*\sterminal\b|(?<!!)py-game', text), page
        if 'type="mpy" config=' in text:  # PyScript fetches no plugin the page does not use
            found = re.search(r"<py-config hidden>(.*)</py-config>", text)
            assert found, page
            left_out = json.loads(found.group(1))["plugins"]
            assert {"!error", "!donkey", "!py-game", "!py-terminal", "!deprecations-manager"} <= set(left_out), page
            editor = page.relative_to(built_site).as_posix() == BOTLAB_PAGE
            assert ("!py-editor" in left_out) != editor, page
        if page.relative_to(built_site).as_posix() != BOTLAB_PAGE:
            assert 'type="mpy-editor"' not in text, page
    for config in [*(built_site / "app").glob("*.toml"), *(built_site / "app").glob("*.json")]:
        text = config.read_text(encoding="utf-8")
        data = json.loads(text) if config.suffix == ".json" else tomllib.loads(text)
        assert not data.get("packages"), f"{config.name}: packages need pyodide_graph"
        assert not any(str(k).endswith((".zip", ".whl")) for k in data.get("files", {})), config.name


DECOMPRESS = {".gz": gzip.decompress, ".br": brotli.decompress}


@pytest.mark.parametrize("suffix", sorted(DECOMPRESS))
def test_text_and_wasm_files_have_compressed_twins(built_site, suffix):
    checked = 0
    for path in sorted(built_site.rglob("*")):
        if not path.is_file() or path.suffix not in compress.COMPRESS_SUFFIXES:
            continue
        twin = path.with_name(path.name + suffix)
        if path.stat().st_size < compress.COMPRESS_MIN_BYTES:
            assert not twin.exists(), twin
            continue
        if twin.exists():
            assert DECOMPRESS[suffix](twin.read_bytes()) == path.read_bytes(), twin
            checked += 1
    wasm = built_site / "runtime" / "micropython" / f"micropython.wasm{suffix}"
    assert wasm.is_file() and wasm.stat().st_size < 0.45 * (built_site / "runtime/micropython/micropython.wasm").stat().st_size
    assert (built_site / f"index.html{suffix}").is_file() or not (built_site / "index.html").is_file()
    assert checked > 20


def test_brotli_twins_are_smaller_than_gzip_ones(built_site):
    wasm = built_site / "runtime" / "micropython" / "micropython.wasm"
    br, gz = (wasm.with_name(wasm.name + s).stat().st_size for s in (".br", ".gz"))
    assert br < 0.9 * gz


def test_twins_come_from_the_content_cache(tmp_path):
    """A file compressed once is not compressed again (best brotli takes seconds per megabyte)."""
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "a.js").write_text("let x = 1;\n" * 500)
    cache = tmp_path / "cache"
    compress.write_compressed(tmp_path / "site", cache=cache)
    entries = sorted(p.suffix for p in cache.iterdir())
    assert entries == [".br", ".gz"]
    for entry in cache.iterdir():
        entry.write_bytes(compress.COMPRESSORS[entry.suffix](b"cached"))
    (tmp_path / "site" / "a.js.br").unlink()
    compress.write_compressed(tmp_path / "site", cache=cache)
    assert brotli.decompress((tmp_path / "site" / "a.js.br").read_bytes()) == b"cached"


def test_files_missing_from_the_cache_are_compressed_together_large_ones_quicker(tmp_path, monkeypatch):
    """Every file missing from the cache is compressed (on all cores) into the same twins as one
    at a time; a file above LARGE_BYTES gets brotli's quicker quality, cached under its own name."""
    monkeypatch.setattr(compress, "LARGE_BYTES", 20_000)
    site = tmp_path / "site"
    site.mkdir()
    texts = {f"m{i}.js": "".join(f"let v{j} = {i * j};\n" for j in range(400 * (i + 1))) for i in range(4)}
    for name, text in texts.items():
        (site / name).write_text(text)
    cache = tmp_path / "cache"
    compress.write_compressed(site, cache=cache)
    for name, text in texts.items():
        data = text.encode()
        packed = (site / f"{name}.br").read_bytes()
        assert brotli.decompress(packed) == data and gzip.decompress((site / f"{name}.gz").read_bytes()) == data
        quality = compress.LARGE_QUALITY if len(data) > compress.LARGE_BYTES else 11
        assert packed == brotli.compress(data, quality=quality)
    large = sorted(p.name for p in cache.iterdir() if ".q" in p.name)
    assert len(large) == sum(1 for t in texts.values() if len(t) > 20_000) >= 1
    assert all(name.endswith(f".q{compress.LARGE_QUALITY}.br") for name in large)


@pytest.fixture(scope="module")
def server(built_site):
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), serve.make_handler(built_site))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield httpd.server_port
    httpd.shutdown()
    httpd.server_close()


def fetch(port: int, path: str, headers: dict) -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()


@pytest.mark.parametrize("path, source", [("/runtime/micropython/micropython.wasm", "runtime/micropython/micropython.wasm"),
                                          ("/rules/", "rules/index.html"), ("/app/game.json", "app/game.json")])
def test_server_sends_the_twin_the_client_takes(built_site, server, path, source):
    if not (built_site / source).is_file():
        pytest.skip(f"{source} is not built")
    original = (built_site / source).read_bytes()
    for accept, encoding in (("gzip, deflate, br", "br"), ("gzip, deflate", "gzip")):
        status, headers, body = fetch(server, path, {"Accept-Encoding": accept})
        assert status == 200
        if len(original) >= compress.COMPRESS_MIN_BYTES:
            assert headers.get("content-encoding") == encoding and headers.get("vary") == "Accept-Encoding"
            assert DECOMPRESS[".br" if encoding == "br" else ".gz"](body) == original
    assert headers["content-type"].split(";")[0] == serve.MIME_TYPES[(built_site / source).suffix].split(";")[0]
    status, headers, body = fetch(server, path, {})
    assert status == 200 and "content-encoding" not in headers and body == original
    status, headers, body = fetch(server, path, {"Accept-Encoding": "gzip",
                                                 "If-Modified-Since": headers["last-modified"]})
    assert status == 304 and body == b""
