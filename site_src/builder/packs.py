"""Packs: many small files shipped as one download and written into MicroPython's file system.

A page's Python is two dozen small modules and the engine's worker needs thirty files; fetched
one by one they cost a request each (the runtime's own files compete for the same
connections). A pack holds them all: one line of JSON listing ``[path, size]`` for each file,
a newline, then the files' bytes one after another in that order. Two readers unpack it: the
page's MicroPython (site_src/app/pack.py, before the page module is imported) and the engine's
worker (site_src/workers/engine_worker.mjs, in JavaScript, before MicroPython imports the engine).
"""

from __future__ import annotations

import json
from pathlib import Path

from site_src.builder.settings import BuildError

PACK_SUFFIX = ".pack"


def pack_bytes(entries: list[tuple[str, bytes]]) -> bytes:
    """The pack of these (path, data) entries, in the order given.

    >>> pack_bytes([("./a.mpy", b"AB"), ("/x/b.bin", b"C")])
    b'[["./a.mpy",2],["/x/b.bin",1]]\\nABC'
    """
    paths = [path for path, _ in entries]
    if len(set(paths)) != len(paths):
        raise BuildError(f"a pack lists a file twice: {sorted(p for p in paths if paths.count(p) > 1)[0]}")
    for path in paths:
        if "\n" in path or not path or path.endswith("/"):
            raise BuildError(f"a pack cannot hold a file named {path!r}")
    index = json.dumps([[path, len(data)] for path, data in entries], separators=(",", ":"))
    return index.encode("utf-8") + b"\n" + b"".join(data for _, data in entries)


def read_pack(data: bytes) -> list[tuple[str, bytes]]:
    """The (path, data) entries of a pack, in order; a ValueError if it is not a whole pack.

    >>> read_pack(pack_bytes([("./a.mpy", b"AB"), ("/x/b.bin", b"C")]))
    [('./a.mpy', b'AB'), ('/x/b.bin', b'C')]
    """
    end = data.find(b"\n")
    if end < 0:
        raise ValueError("not a pack: no index line")
    index = json.loads(data[:end].decode("utf-8"))
    at = end + 1
    entries = []
    for path, size in index:
        entries.append((path, data[at:at + size]))
        at += size
    if at != len(data):
        raise ValueError(f"not a whole pack: {len(data) - at} bytes left over")
    return entries


def write_pack(path: Path, entries: list[tuple[str, bytes]]) -> None:
    """Write the pack of these entries to path (left alone when it already holds exactly that)."""
    data = pack_bytes(entries)
    if not path.is_file() or path.read_bytes() != data:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
