"""Packs: the builder's writer and reader, and the page's pack file system (site_src/app/pack.py)
agree; MicroPython imports a page's modules from a mounted pack."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess

import pytest

from site_src.builder import packs
from site_src.builder.browser_python import compile_micropython
from site_src.builder.settings import APP_DIR, BuildError, ROOT


def load_pack_module():
    spec = importlib.util.spec_from_file_location("pack_under_test", APP_DIR / "pack.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ENTRIES = [("./a.mpy", b"M\x06abc"), ("./b.mpy", b""), ("./c.bin", bytes(range(256)) * 3),
           ("./pkg/__init__.mpy", b"M\x06"), ("./pkg/deep/d.mpy", b"d"), ("./pkg/e.mpy", b"e")]


def test_the_page_reads_what_the_builder_packs():
    files = load_pack_module().PackFS(packs.pack_bytes(ENTRIES))
    assert len(files.files) == len(ENTRIES)
    for path, data in ENTRIES:
        assert files.open(path[1:], "rb").read() == data
        assert files.stat(path[1:])[0] == 0x8000 and files.stat(path[1:])[6] == len(data)
    for folder in ("/", "/pkg", "/pkg/deep"):
        assert files.stat(folder)[0] == 0x4000
    for missing in ("/a", "/a.py", "/pkg/d.mpy", "/pk", "/pkg/deep/d"):
        with pytest.raises(OSError):
            files.stat(missing)
        with pytest.raises(OSError):
            files.open(missing, "rb")
    with pytest.raises(OSError):
        files.open("/a.mpy", "wb")
    rooted = load_pack_module().PackFS(packs.pack_bytes([("/x/b.bin", b"C")]))
    assert rooted.open("/x/b.bin", "rb").read() == b"C" and rooted.stat("/x")[0] == 0x4000
    for broken in (packs.pack_bytes(ENTRIES)[:-1], packs.pack_bytes(ENTRIES) + b"x"):
        with pytest.raises(ValueError):
            load_pack_module().PackFS(broken)


MOUNT_SCRIPT = """
import {loadMicroPython} from "%(mjs)s";
const fs = await import("node:fs");
const mp = await loadMicroPython({stdout: (line) => console.log(line), stderr: (line) => console.error(line)});
mp.FS.mkdir("/page");
mp.FS.chdir("/page");
mp.FS.writeFile("/page/pack.mpy", fs.readFileSync(%(pack_mpy)s));
mp.FS.writeFile("/page/page.pack", fs.readFileSync(%(page_pack)s));
mp.runPython(`import sys
sys.path.insert(0, "/page")
import pack
files = pack.mount("page.pack")
import os
print("removed" if "page.pack" not in os.listdir("/page") else "kept")
import shown
print(shown.WORDS, shown.helper.twice(21), "json" in sys.modules, "hashlib" in sys.modules)
`);
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_micropython_imports_a_page_from_its_mounted_pack(tmp_path):
    """pack.py compiled as the build compiles it, a pack of modules (one in a package) compiled
    the same way: MicroPython under node mounts the pack and imports them from it."""
    sources = {"shown.py": "import json\nfrom tools import helper\nWORDS = json.dumps(['from', 'the', 'pack'])\n",
               "tools/__init__.py": "", "tools/helper.py": "def twice(n):\n    return 2 * n\n"}
    entries = []
    for name, source in sources.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(source, encoding="utf-8")
        target = tmp_path / name.replace(".py", ".mpy")
        compile_micropython(tmp_path / name, target, name)
        entries.append(("./" + name.replace(".py", ".mpy"), target.read_bytes()))
    (tmp_path / "page.pack").write_bytes(packs.pack_bytes(entries))
    compile_micropython(APP_DIR / "pack.py", tmp_path / "pack.mpy", "pack.py")
    mjs = ROOT / "node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs"
    script = MOUNT_SCRIPT % {"mjs": mjs.as_uri(), "pack_mpy": json.dumps(str(tmp_path / "pack.mpy")),
                             "page_pack": json.dumps(str(tmp_path / "page.pack"))}
    done = subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["removed", '["from", "the", "pack"] 42 True True']


def test_packs_refuse_what_they_cannot_hold():
    for entries in ([("./a", b"1"), ("./a", b"2")], [("bad\nname", b"")], [("", b"")], [("dir/", b"")]):
        with pytest.raises(BuildError):
            packs.pack_bytes(entries)
    whole = packs.pack_bytes([("./a", b"12")])
    for broken in (whole[:-1], whole + b"3", b"no index"):
        with pytest.raises(ValueError):
            packs.read_pack(broken)


def test_write_pack_leaves_an_unchanged_pack_alone(tmp_path):
    target = tmp_path / "x.pack"
    packs.write_pack(target, [("./a", b"1")])
    stamp = target.stat().st_mtime_ns
    packs.write_pack(target, [("./a", b"1")])
    assert target.stat().st_mtime_ns == stamp
    packs.write_pack(target, [("./a", b"2")])
    assert packs.read_pack(target.read_bytes()) == [("./a", b"2")]
