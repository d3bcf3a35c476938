"""engine.api.selfcheck: what the browser test of the trimmed standard library relies on."""

import json

from engine import api


def test_selfcheck_imports_every_engine_module_and_what_they_import():
    reply = json.loads(api.call("selfcheck", "{}"))
    assert reply["ok"], reply
    result = reply["result"]
    assert {"engine", "engine.api", "engine.scoring", "engine.game", "engine.fairdeal"} <= set(result["engine"])
    assert "engine.__main__" not in result["engine"]
    assert {"json", "hashlib", "secrets", "random", "itertools", "collections"} <= set(result["imports"])
    assert not any(name.split(".")[0] in ("engine", "multiprocessing") for name in result["imports"])
