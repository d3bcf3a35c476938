"""A page's pack (site_src/builder/packs.py) as a read-only file system its modules import from.

A page's modules arrive as one download, app/PAGE.pack, which PyScript puts in the file system
beside this module; the page's first lines (base.html) mount it and then import the page:

    import pack
    pack.mount("game.pack")
    import game

The pack stays in memory and answers MicroPython's imports itself (``vfs.mount``): nothing is
written out, and a module looked for where it is not costs a Python exception instead of an
error thrown by the browser's file system (each of those records a stack trace). The built-in
modules the pages import are held in sys.modules, where MicroPython finds them at once instead of
searching the file system for each on every import (``hold_builtins``).

Runs in MicroPython on the main thread (keep to the subset).
"""

import io
import json
import os
import sys

MOUNT_POINT = "/pack"
"""Where a pack is mounted; first on sys.path."""

BUILTINS = ("json", "hashlib")
"""The extensible built-in modules the pages import."""

FILE_MODE = 0x8000
FOLDER_MODE = 0x4000
NOT_FOUND = 2  # errno ENOENT


class PackFS:
    """The files of a pack, read-only, as MicroPython's VFS protocol asks (``stat``, ``open``):
    paths are the pack's own ("./table/view.mpy") as "/table/view.mpy"."""

    def __init__(self, data):
        end = data.index(b"\n")
        at = end + 1
        self.data = data
        self.files = {}
        self.folders = {"/", ""}
        for name, size in json.loads(data[:end].decode()):
            path = "/" + (name[2:] if name.startswith("./") else name.lstrip("/"))
            self.files[path] = (at, size)
            at += size
            folder = path.rpartition("/")[0]
            while folder and folder not in self.folders:
                self.folders.add(folder)
                folder = folder.rpartition("/")[0]
        if at != len(data):
            raise ValueError("the pack's index does not match its size")

    def mount(self, readonly, mkfs):
        pass

    def umount(self):
        pass

    def stat(self, path):
        """os.stat's tuple for a file or folder of the pack; OSError(ENOENT) for anything else."""
        if path in self.folders:
            return (FOLDER_MODE, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        found = self.files.get(path)
        if found is None:
            raise OSError(NOT_FOUND)
        return (FILE_MODE, 0, 0, 0, 0, 0, found[1], 0, 0, 0)

    def open(self, path, mode):
        """A file of the pack, to read."""
        found = self.files.get(path)
        if found is None or "w" in mode or "a" in mode:
            raise OSError(NOT_FOUND)
        at, size = found
        return io.BytesIO(self.data[at:at + size])


def mount(path):
    """Mount the pack at ``path`` (then removed from the file system) at MOUNT_POINT, first on
    sys.path, and hold the built-in modules; returns the PackFS."""
    with open(path, "rb") as source:
        files = PackFS(source.read(os.stat(path)[6]))  # one read: read() would grow a buffer in small steps
    os.remove(path)
    import vfs

    vfs.mount(files, MOUNT_POINT)
    sys.path.insert(0, MOUNT_POINT)
    hold_builtins()
    return files


def hold_builtins(names=BUILTINS):
    """Import each of ``names`` once and keep it in sys.modules."""
    for name in names:
        sys.modules[name] = __import__(name)
