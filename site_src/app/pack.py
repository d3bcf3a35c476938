"""Writes the files of a pack (site_src/builder/packs.py) into MicroPython's file system.

A page's modules arrive as one download, app/PAGE.pack, which PyScript puts in the file system
beside this module; the page's first lines (base.html) unpack it and then import the page:

    import pack
    pack.unpack("game.pack")
    import game

Runs in MicroPython on the main thread (keep to the subset).
"""

import json
import os


def unpack(path):
    """Write every file the pack at path holds (paths as listed, from the current folder, their
    folders made as needed: a package's modules), then remove the pack; returns the paths written."""
    with open(path, "rb") as source:
        data = source.read()
    end = data.index(b"\n")
    at = end + 1
    written = []
    folders = set()
    for name, size in json.loads(data[:end].decode()):
        make_folder(name.rpartition("/")[0], folders)
        with open(name, "wb") as target:
            target.write(data[at:at + size])
        at += size
        written.append(name)
    os.remove(path)
    return written


def make_folder(folder, made):
    """Make a folder and the folders above it, unless ``made`` holds it or it is the current one."""
    if folder in ("", ".") or folder in made:
        return
    make_folder(folder.rpartition("/")[0], made)
    try:
        os.mkdir(folder)
    except OSError:  # it is there already
        pass
    made.add(folder)
