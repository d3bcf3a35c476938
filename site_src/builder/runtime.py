"""The browser runtime from node_modules: PyScript, MicroPython and Pyodide vendored, unused chunks left out, preloads."""

from __future__ import annotations

import re
from pathlib import Path

from site_src.builder.compress import COMPRESSED_SUFFIXES
from site_src.builder.output import copy_if_changed, copy_tree, replace_file
from site_src.builder.settings import NODE_MODULES, BuildError

# Files the browser needs from node_modules: (package folder, files or None for "all but maps").
RUNTIME_FILES = {
    "pyscript": ("@pyscript/core/dist", None),
    "micropython": ("@micropython/micropython-webassembly-pyscript", [
        "micropython.mjs", "micropython.wasm",
    ]),
    # CPython for the bot lab's worker only (no other page loads it): the runtime, its standard
    # library and the lock file Pyodide reads when it starts (no packages are loaded).
    "pyodide": ("pyodide", [
        "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
    ]),
    # Nostr's event signing for the meeting point's frame only (meet.html: site_src/builder/meeting.py).
    "nostr": ("nostr-tools/lib", ["nostr.bundle.js"]),
}


def vendor_runtime(out: Path, node_modules: Path = NODE_MODULES) -> None:
    """Copy only the browser runtime files the site loads from node_modules into dist/runtime/."""
    if not node_modules.is_dir():
        raise BuildError(f"{node_modules} is missing: run `npm ci` (or `make deps`) first")
    wanted: set[Path] = set()
    for name, (package, files) in RUNTIME_FILES.items():
        src = node_modules / package
        if not src.is_dir():
            raise BuildError(f"{src} is missing: run `npm ci` (or `make deps`) to install the browser runtime")
        if files is None:
            rels = copy_tree(src, out / "runtime" / name,
                             keep=lambda p, n=name: not is_unused_runtime_file(n, p) and not is_core_chunk(n, p))
            if name == "pyscript":  # its core chunk is written apart, changed
                rels.append(write_core_chunk(src, out / "runtime" / name))
            wanted.update(Path(name) / rel for rel in rels)
            check_runtime_imports(out / "runtime" / name)
            continue
        for file in files:
            if not (src / file).is_file():
                raise BuildError(f"{src / file} is missing: the installed package does not match package.json")
            if (name, file) in COMPILED_ON_LOAD:
                write_if_changed(out / "runtime" / name / file, with_compile_hint((src / file).read_bytes()))
            else:
                copy_if_changed(src / file, out / "runtime" / name / file)
            wanted.add(Path(name) / file)
    runtime = out / "runtime"
    for path in sorted(runtime.rglob("*"), reverse=True):  # drop files a previous version left
        rel = path.relative_to(runtime)
        twin_of_wanted = path.suffix in COMPRESSED_SUFFIXES and rel.with_suffix("") in wanted
        if path.is_file() and rel not in wanted and not twin_of_wanted:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


EAGER_COMPILE_HINT = b"//# allFunctionsCalledOnLoad\n"
"""V8's explicit compile hint (Chrome 136 on; to other engines a comment), on the first line of a
script: every function in it is compiled on a background thread as the file downloads, rather than
on the main thread when first called. Worth it for a file most of whose code runs as the page
starts: with the CPU 4x slower, the practice link's first hand came about 5% sooner with it on
PyScript's core chunk and MicroPython's module."""

COMPILED_ON_LOAD = {("micropython", "micropython.mjs")}
"""Vendored files (package, file) written with EAGER_COMPILE_HINT; PyScript's core chunk has it
too (write_core_chunk)."""


def with_compile_hint(script: bytes) -> bytes:
    """The script with EAGER_COMPILE_HINT as its first line (once)."""
    return script if script.startswith(EAGER_COMPILE_HINT) else EAGER_COMPILE_HINT + script


def write_if_changed(target: Path, data: bytes) -> None:
    """Write ``target`` unless it already holds exactly ``data``."""
    if not target.is_file() or target.read_bytes() != data:
        target.parent.mkdir(parents=True, exist_ok=True)
        replace_file(target, data)


PYSCRIPT_UNUSED = (
    "xterm*", "mpy.js", "py.js",  # the terminal of <script terminal>
    "pyodide_graph.js",  # resolving `packages = [...]` of a config
    "zip.js",  # unpacking .zip and .whl entries of a config's [files]
    "storage.js",  # pyscript.storage (IndexedDB)
    "service-worker.js",  # the service-worker fallback of sync calls (sync_main_only skips it)
    "core.css",  # styles of the editor and terminal
)
"""PyScript files (chunk names without their hash) the site never loads: the features they
serve are unused (tests/build/test_built_budget.py checks that no page or config uses them).
The code editor (``<script type="mpy-editor">``: codemirror*.js and index.js) is kept for the
bot lab, the one page that has it; it is loaded only where such a script is."""

CHUNK_HASH_RE = re.compile(r"-[A-Za-z0-9_-]{8}(?=\.js$)")
STATIC_IMPORT_RE = re.compile(r"""(?:\bfrom|\bimport)\s*["'](\./[^"']+)["']""")


def chunk_name(file_name: str) -> str:
    """A bundler chunk's name without its content hash: "core-C9KDLldu.js" -> "core.js"."""
    return CHUNK_HASH_RE.sub("", file_name)


def is_unused_runtime_file(package: str, path: Path) -> bool:
    """True for vendored files the site never loads (source maps, unused PyScript chunks)."""
    if path.suffix == ".map":
        return True
    from fnmatch import fnmatch

    return package == "pyscript" and any(fnmatch(chunk_name(path.name), pattern) for pattern in PYSCRIPT_UNUSED)


def check_runtime_imports(folder: Path) -> None:
    """Every static import of a kept PyScript chunk must be kept too (dynamic ones are lazy)."""
    for path in sorted(folder.glob("*.js")):
        for target in STATIC_IMPORT_RE.findall(path.read_text(encoding="utf-8")):
            if not (folder / target).is_file():
                raise BuildError(f"runtime/{folder.name}/{path.name} imports {target}, which PYSCRIPT_UNUSED "
                                 "leaves out of the build")


BOOTSTRAP_MAKER_RE = re.compile(r'(?P<maker>[\w$]+)=\((?P<hooks>[\w$]+),(?P<kind>[\w$]+)\)=>'
                                r'\{const (?P<code>[\w$]+)="mpy"===(?P=kind)\?')
"""Where PyScript's core chunk (from @pyscript/core's src/core.js) makes the Python it runs before
every script: its bootstrap (src/stdlib.js), which writes PyScript's own Python package into
the interpreter's file system (about 30 KB of source: display, fetch, storage, websockets,
events, workers) and imports it. Made once for the main thread's hooks and once for workers'."""

MAIN_HOOKS_RE = re.compile(r"main:\{\.\.\.(?P<maker>[\w$]+)\((?P<hooks>[\w$]+),(?P<kind>[\w$]+)\),")
"""The main thread's hooks taking that bootstrap."""

ON_MAIN_THREAD = "onMainThread$"
"""The bootstrap maker's added parameter: true for the main thread's hooks, which then get none."""


def is_core_chunk(package: str, path: Path) -> bool:
    """True for PyScript's core chunk ("core-<hash>.js"), which ``write_core_chunk`` writes."""
    return package == "pyscript" and path.name != "core.js" and chunk_name(path.name) == "core.js"


def without_main_thread_bootstrap(text: str, name: str = "the core chunk") -> str:
    """PyScript's core chunk with no bootstrap run before the main thread's scripts; workers'
    unchanged. Raises BuildError if the chunk does not make it as this build expects."""
    makers = list(BOOTSTRAP_MAKER_RE.finditer(text))
    mains = list(MAIN_HOOKS_RE.finditer(text))
    if len(makers) != 1 or len(mains) != 1 or mains[0]["maker"] != makers[0]["maker"]:
        raise BuildError(f"{name} does not bootstrap PyScript's package as this build expects "
                         f"({len(makers)} bootstrap makers, {len(mains)} main-thread hooks): check "
                         "write_core_chunk against the installed @pyscript/core")
    text = BOOTSTRAP_MAKER_RE.sub(
        lambda m: (f'{m["maker"]}=({m["hooks"]},{m["kind"]},{ON_MAIN_THREAD})=>'
                   f'{{const {m["code"]}={ON_MAIN_THREAD}?"":"mpy"==={m["kind"]}?'), text)
    return MAIN_HOOKS_RE.sub(lambda m: f'main:{{...{m["maker"]}({m["hooks"]},{m["kind"]},!0),', text)


def write_core_chunk(package: Path, runtime: Path) -> Path:
    """Write runtime/pyscript's core chunk (from ``package``, PyScript's dist/) without the
    bootstrap PyScript runs before the main thread's scripts (``without_main_thread_bootstrap``),
    and with EAGER_COMPILE_HINT (every page runs most of it as it starts).

    That bootstrap is Python that MicroPython must compile and run before a page's script starts:
    it writes PyScript's package, file by file, and imports it. It cost the calculator's cold load
    about 30 ms of its main thread, and no page uses the package: the pages' modules take
    ``document``, ``window`` and ``create_proxy`` from site_src/app/dom.py, which are the objects
    PyScript's package gives on the main thread (a build test checks that no page module imports
    it). Workers (the bot lab's) run PyScript's bootstrap as it is. Written only when it
    differs; returns its path under ``runtime``."""
    chunks = [path for path in package.glob("core-*.js") if is_core_chunk("pyscript", path)]
    if len(chunks) != 1:
        raise BuildError(f"{package}: expected one core-*.js chunk, found {len(chunks)}")
    text = without_main_thread_bootstrap(chunks[0].read_text(encoding="utf-8"), chunks[0].name)
    write_if_changed(runtime / chunks[0].name, with_compile_hint(text.encode("utf-8")))
    return Path(chunks[0].name)


CORE_SCRIPT_RE = re.compile(r'<script type="module" src="([^"]*)runtime/pyscript/core\.js"></script>\n?')


def runtime_preloads(node_modules: Path = NODE_MODULES) -> list[str]:
    """<link> tags (paths from the site root) that start the main thread's runtime downloads as
    soon as the page's <head> is read, instead of one after the other as each file asks for the
    next: PyScript's core chunk and its error plugin, then MicroPython and its wasm. (The
    workers' files are fetched by the workers, which cannot use a page's preloads: preloading
    them would fetch them twice.)"""
    core = (node_modules / "@pyscript/core/dist/core.js").read_text(encoding="utf-8")
    chunk = re.search(r'from\s*"\./(core-[^"]+\.js)"', core)
    links = [f'<link rel="modulepreload" href="runtime/pyscript/{chunk.group(1)}">'] if chunk else []
    # PyScript always imports its error plugin before it starts Python, even when it is left out.
    links += [f'<link rel="modulepreload" href="runtime/pyscript/{path.name}">'
              for path in sorted((node_modules / "@pyscript/core/dist").glob("error-*.js"))]
    links += [
        '<link rel="modulepreload" href="runtime/micropython/micropython.mjs">',
        '<link rel="preload" href="runtime/micropython/micropython.wasm" as="fetch" type="application/wasm" '
        "crossorigin>",
    ]
    return links


EDITOR_CHUNKS = ("py-editor.js", "index.js")  # with every codemirror*.js chunk
EDITOR_SCRIPT = 'type="mpy-editor"'


def editor_preloads(node_modules: Path = NODE_MODULES) -> list[str]:
    """<link> tags for a page with PyScript's code editor (the bot lab): the editor's plugin and
    CodeMirror's chunks, fetched at once instead of one import after another, so the editor is
    ready sooner."""
    dist = node_modules / "@pyscript/core/dist"
    names = sorted(p.name for p in dist.glob("*.js")
                   if chunk_name(p.name) in EDITOR_CHUNKS or p.name.startswith("codemirror"))
    return [f'<link rel="modulepreload" href="runtime/pyscript/{name}">' for name in names]


def with_preloads(page_html: str, preloads: list[str]) -> str:
    """A page that loads PyScript in its <head> also preloads the runtime (see runtime_preloads)."""
    match = CORE_SCRIPT_RE.search(page_html)
    if not match:
        return page_html
    prefix = match.group(1)
    tags = "".join(tag.replace('href="', f'href="{prefix}', 1) + "\n" for tag in preloads)
    return page_html[:match.end()] + tags + page_html[match.end():]
