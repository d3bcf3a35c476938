"""Run the doctest examples in the engine's docstrings."""

import doctest
import importlib

import pytest

MODULES = ["engine.cards", "engine.scoring", "engine.fairdeal", "engine.analysis"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
