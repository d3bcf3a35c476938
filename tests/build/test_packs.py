"""Packs: the builder's writer and reader, and the page's unpacker (site_src/app/pack.py) agree."""

from __future__ import annotations

import importlib.util

import pytest

from site_src.builder import packs
from site_src.builder.settings import APP_DIR, BuildError


def load_unpacker():
    spec = importlib.util.spec_from_file_location("pack_under_test", APP_DIR / "pack.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_page_unpacks_what_the_builder_packs(tmp_path, monkeypatch):
    entries = [("./a.mpy", b"M\x06abc"), ("./b.mpy", b""), ("./c.bin", bytes(range(256)) * 3),
               ("./pkg/__init__.mpy", b"M\x06"), ("./pkg/deep/d.mpy", b"d"), ("./pkg/e.mpy", b"e")]
    (tmp_path / "page.pack").write_bytes(packs.pack_bytes(entries))
    monkeypatch.chdir(tmp_path)
    written = load_unpacker().unpack("page.pack")
    assert written == [path for path, _ in entries]
    for path, data in entries:
        assert (tmp_path / path).read_bytes() == data
    assert not (tmp_path / "page.pack").exists()


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
