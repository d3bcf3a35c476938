"""Brotli and gzip twins of the built files, each distinct file compressed once through a cache."""

from __future__ import annotations

import os
from pathlib import Path

from site_src.builder.output import replace_file
from site_src.builder.settings import ROOT, BuildError

COMPRESS_SUFFIXES = {".html", ".css", ".js", ".mjs", ".json", ".toml", ".py", ".mpy", ".pack", ".svg", ".xml",
                     ".txt", ".wasm", ".webmanifest"}
COMPRESS_MIN_BYTES = 1024
COMPRESS_MAX_RATIO = 0.9
"""Text, bytecode and wasm files above 1 kB get .br and .gz twins (each kept only if it saves
at least 10 %)."""
COMPRESS_CACHE = ROOT / ".cache" / "compressed"
"""Twins already made, by content hash (and the quality used, ``.q9.br`` for large files): each
distinct file is compressed once per machine, not once per build."""


def _gzip(data: bytes) -> bytes:
    import gzip

    return gzip.compress(data, compresslevel=9, mtime=0)


LARGE_BYTES = 4_000_000
LARGE_QUALITY = 9
"""Brotli quality for files above LARGE_BYTES (Pyodide's wasm, for the bot lab only): quality 11
takes over a minute for its 9.6 MB and saves 10 % more than 9 (2.8 against 3.1 MB), which takes
5 s."""


def _brotli(data: bytes) -> bytes:
    try:
        import brotli
    except ImportError:
        raise BuildError("brotli is missing: run `make deps` (it is pinned in requirements.txt)") from None
    return brotli.compress(data, quality=LARGE_QUALITY if len(data) > LARGE_BYTES else 11)


COMPRESSORS = {".br": _brotli, ".gz": _gzip}
"""Twin suffix -> compressor, in the order a server should prefer them."""
COMPRESSED_SUFFIXES = (".gz", ".br")
"""The twins' suffixes: files left out when the build is listed or hashed."""


def _cache_name(digest: str, size: int, suffix: str) -> str:
    """The cache file of a twin: the content's hash, the quality if not the best, the suffix."""
    return digest + (f".q{LARGE_QUALITY}" if suffix == ".br" and size > LARGE_BYTES else "") + suffix


def compressed(data: bytes, suffix: str, cache: Path | None = None) -> bytes:
    """``data`` compressed for the twin ``suffix`` (.br or .gz), through the content-hash cache."""
    import hashlib

    cache = COMPRESS_CACHE if cache is None else cache
    entry = cache / _cache_name(hashlib.sha256(data).hexdigest(), len(data), suffix)
    if entry.is_file():
        return entry.read_bytes()
    packed = COMPRESSORS[suffix](data)
    cache.mkdir(parents=True, exist_ok=True)
    temporary = entry.with_name(f".{entry.name}.{os.getpid()}.tmp")
    temporary.write_bytes(packed)
    os.replace(temporary, entry)
    return packed


def _fill_cache(blobs: list, cache: Path) -> None:
    """Compress the (data, suffix) pairs missing from the cache, on every core (the largest
    first): a build on a fresh machine makes all of them."""
    from concurrent.futures import ProcessPoolExecutor

    blobs.sort(key=lambda blob: -len(blob[0]))
    workers = min(len(blobs), os.cpu_count() or 1)
    if workers <= 1:
        for data, suffix in blobs:
            compressed(data, suffix, cache)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for _ in pool.map(compressed, [b[0] for b in blobs], [b[1] for b in blobs], [cache] * len(blobs)):
            pass


def write_compressed(out: Path, cache: Path | None = None) -> list[Path]:
    """Brotli (file.br, quality 11) and gzip (file.gz, level 9, no time stamp) twins of every file
    in COMPRESS_SUFFIXES above COMPRESS_MIN_BYTES, for static hosts (and ``--serve``) to send with
    Content-Encoding: br or gzip. A twin that would save under 10 % is not written."""
    import hashlib

    cache = COMPRESS_CACHE if cache is None else cache
    paths = [path for path in sorted(out.rglob("*")) if path.is_file() and path.suffix in COMPRESS_SUFFIXES]
    missing, seen = [], set()
    for path in paths:
        data = path.read_bytes()
        if len(data) < COMPRESS_MIN_BYTES:
            continue
        digest = hashlib.sha256(data).hexdigest()
        for suffix in COMPRESSORS:
            if (digest, suffix) not in seen and not (cache / _cache_name(digest, len(data), suffix)).is_file():
                seen.add((digest, suffix))
                missing.append((data, suffix))
    if missing:
        _fill_cache(missing, cache)
    written = []
    for path in paths:
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
