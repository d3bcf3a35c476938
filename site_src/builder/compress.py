"""Brotli and gzip twins of the built files, each distinct file compressed once through a cache."""

from __future__ import annotations

import os
from pathlib import Path

from site_src.builder.output import replace_file
from site_src.builder.settings import ROOT, BuildError

COMPRESS_SUFFIXES = {".html", ".css", ".js", ".mjs", ".json", ".toml", ".py", ".mpy", ".svg", ".xml", ".txt",
                     ".wasm", ".webmanifest"}
COMPRESS_MIN_BYTES = 1024
COMPRESS_MAX_RATIO = 0.9
"""Text, bytecode and wasm files above 1 kB get .br and .gz twins (each kept only if it saves
at least 10 %)."""
COMPRESS_CACHE = ROOT / ".cache" / "compressed"
"""Twins already made, by content hash: best-quality brotli takes about 30 s for Pyodide's wasm,
so each distinct file is compressed once per machine, not once per build."""


def _gzip(data: bytes) -> bytes:
    import gzip

    return gzip.compress(data, compresslevel=9, mtime=0)


def _brotli(data: bytes) -> bytes:
    try:
        import brotli
    except ImportError:
        raise BuildError("brotli is missing: run `make deps` (it is pinned in requirements.txt)") from None
    return brotli.compress(data, quality=11)


COMPRESSORS = {".br": _brotli, ".gz": _gzip}
"""Twin suffix -> compressor, in the order a server should prefer them."""
COMPRESSED_SUFFIXES = (".gz", ".br")
"""The twins' suffixes: files left out when the build is listed or hashed."""


def compressed(data: bytes, suffix: str, cache: Path | None = None) -> bytes:
    """``data`` compressed for the twin ``suffix`` (.br or .gz), through the content-hash cache."""
    import hashlib

    cache = COMPRESS_CACHE if cache is None else cache
    entry = cache / f"{hashlib.sha256(data).hexdigest()}{suffix}"
    if entry.is_file():
        return entry.read_bytes()
    packed = COMPRESSORS[suffix](data)
    cache.mkdir(parents=True, exist_ok=True)
    temporary = entry.with_name(f".{entry.name}.{os.getpid()}.tmp")
    temporary.write_bytes(packed)
    os.replace(temporary, entry)
    return packed


def write_compressed(out: Path, cache: Path | None = None) -> list[Path]:
    """Brotli (file.br, quality 11) and gzip (file.gz, level 9, no time stamp) twins of every file
    in COMPRESS_SUFFIXES above COMPRESS_MIN_BYTES, for static hosts (and ``--serve``) to send with
    Content-Encoding: br or gzip. A twin that would save under 10 % is not written."""
    written = []
    for path in sorted(out.rglob("*")):
        if not path.is_file() or path.suffix not in COMPRESS_SUFFIXES:
            continue
        data = path.read_bytes()
        for suffix in COMPRESSORS:
            twin = path.with_name(path.name + suffix)
            packed = compressed(data, suffix, cache) if len(data) >= COMPRESS_MIN_BYTES else None
            if packed is None or len(packed) > len(data) * COMPRESS_MAX_RATIO:
                twin.unlink(missing_ok=True)
                continue
            if not (twin.is_file() and twin.read_bytes() == packed):
                replace_file(twin, packed)
            written.append(twin)
    return written
