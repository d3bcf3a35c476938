"""Run the doctest examples of every engine and builder module (the modules' docstrings are their specs)."""

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"engine": ROOT / "engine", "site_src.builder": ROOT / "site_src" / "builder"}
MODULES = sorted(f"{package}.{path.stem}" if path.stem != "__init__" else package
                 for package, folder in PACKAGES.items() for path in folder.glob("*.py")
                 if path.stem != "__main__")


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_walk_finds_the_modules_with_examples():
    assert len(MODULES) > 40
    assert {"engine.game", "engine.fairdeal", "engine.sealed", "site_src.builder.packs"} <= set(MODULES)
