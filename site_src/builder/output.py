"""The output folder: emptied only if the build made it, files copied in or replaced whole."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Callable

from site_src.builder.settings import BuildError

OUT_MARKER = ".cribbage-build"


def prepare_out_dir(out: Path) -> None:
    """Empty ``out`` for a fresh build, refusing to empty a folder the build did not make."""
    if out.exists():
        if any(out.iterdir()) and not (out / OUT_MARKER).exists():
            raise BuildError(f"{out} exists and was not made by build.py; refusing to empty it")
        for child in out.iterdir():
            if child.name in ("runtime", OUT_MARKER):
                continue  # large vendored files are refreshed in place (copy_if_changed)
            if child.is_dir() and not child.is_symlink():
                shutil.rmtree(child)
            else:
                child.unlink()
    out.mkdir(parents=True, exist_ok=True)
    (out / OUT_MARKER).write_text("Output of build.py; safe to delete.\n")


def copy_if_changed(src: Path, dst: Path) -> None:
    """Copy a file unless an identical-looking copy (same size and time) is already there."""
    if dst.exists():
        s, d = src.stat(), dst.stat()
        if s.st_size == d.st_size and int(s.st_mtime) == int(d.st_mtime):
            return
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src, dst)


def copy_tree(src: Path, dst: Path, keep: Callable[[Path], bool] = lambda p: True) -> list[Path]:
    """Copy the files under ``src`` that ``keep`` accepts; returns their paths relative to ``src``."""
    copied = []
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        if path.is_file() and "__pycache__" not in rel.parts and not path.name.startswith(".") and keep(path):
            copy_if_changed(path, dst / rel)
            copied.append(rel)
    return copied


def replace_file(path: Path, data: bytes) -> None:
    """Write ``path`` whole in one step (a new file renamed over the old one, never half-written)."""
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)
