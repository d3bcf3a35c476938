"""The pages' Python (site_src/app) in the unit tests: a module imported into CPython, and a
program run with it in the browser's MicroPython under node (tests/conformance/micropython.mjs)."""

import importlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "site_src" / "app"
MICROPYTHON_RUNNER = ROOT / "tests" / "conformance" / "micropython.mjs"

needs_node = pytest.mark.skipif(shutil.which("node") is None or not (ROOT / "node_modules").is_dir(),
                                reason="node and node_modules are needed to run the browser's MicroPython")


def import_app(name):
    """A module of site_src/app, imported as the pages import it (by its own name)."""
    sys.path.insert(0, str(APP))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(APP))


def run_in_micropython(name, program):
    """Each line ``program`` prints (JSON), run in MicroPython after ``import <name>`` (the module's
    source written into its file system)."""
    code = ("open('/lib/" + name + ".py', 'w').write(" + repr((APP / f"{name}.py").read_text()) + ")\n"
            "import json, " + name + "\n" + program)
    run = subprocess.run(["node", str(MICROPYTHON_RUNNER), str(ROOT), code], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return [json.loads(line) for line in run.stdout.splitlines()]
