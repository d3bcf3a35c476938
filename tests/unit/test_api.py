"""engine.api: JSON text in, JSON text out; bad input becomes an error reply, never an exception."""

import ast
import json
from pathlib import Path

import pytest

from engine import api

ROOT = Path(__file__).resolve().parents[2]


def reply(name, request="{}"):
    return json.loads(api.call(name, request))


def test_ping_reports_versions():
    answer = reply("ping")["result"]
    assert answer["engine"] == api.ENGINE_VERSION
    assert answer["python"].count(".") == 2
    assert answer["interpreter"].startswith("CPython 3.")
    assert "ping" in answer["endpoints"]


def test_ping_echoes_json_values_unchanged():
    payload = {"echo": {"cards": ["5H", "J♣"], "x": 2.0, "none": None, "ok": True}}
    assert reply("ping", json.dumps(payload))["result"]["echo"] == payload["echo"]


@pytest.mark.parametrize("request_json", ["", "   ", None, "{}"])
def test_empty_request_means_no_arguments(request_json):
    assert reply("ping", request_json)["result"]["engine"] == api.ENGINE_VERSION


def test_call_wraps_the_result():
    answer = reply("ping")
    assert answer["ok"] is True and answer["result"]["engine"] == api.ENGINE_VERSION


@pytest.mark.parametrize("request_json, words", [
    ("not json", "not valid JSON"),
    ("[1, 2]", "must be a JSON object"),
])
def test_bad_requests_become_bad_input_replies(request_json, words):
    answer = reply("ping", request_json)
    assert answer["ok"] is False
    assert answer["error"]["kind"] == "bad_input"
    assert words in answer["error"]["message"]


def test_unknown_function():
    answer = reply("no_such_function")
    assert answer["error"] == {"kind": "unknown", "message": "The engine has no function 'no_such_function'."}


def test_endpoint_errors_are_classified(monkeypatch):
    monkeypatch.setattr(api, "ENDPOINTS", dict(api.ENDPOINTS))

    @api.endpoint
    def needs_hand(request: dict) -> dict:
        """Test endpoint."""
        if request.get("boom"):
            raise RuntimeError("kaput")
        return {"hand": request["hand"]}

    assert reply("needs_hand", '{"hand": "5H"}') == {"ok": True, "result": {"hand": "5H"}}
    missing = reply("needs_hand", "{}")["error"]
    assert missing == {"kind": "bad_input", "message": "The request is missing 'hand'."}
    internal = reply("needs_hand", '{"boom": true}')["error"]
    assert internal["kind"] == "internal" and "RuntimeError: kaput" in internal["message"]
    assert needs_hand({"hand": "x"}) == {"hand": "x"}  # the function itself is unchanged
    with pytest.raises(ValueError):
        api.endpoint(needs_hand)  # the name is taken


def test_replies_are_compact_json_text():
    text = api.call("ping", '{"echo": "é"}')
    assert isinstance(text, str) and ", " not in text and "é" in text


def test_warm_up_imports_what_the_first_calls_need():
    import sys

    every = sorted({name for names in api.WARM_UP_MODULES.values() for name in names})
    reply = json.loads(api.call("warm_up", "{}"))
    assert reply["ok"] and reply["result"] == {"modules": every, "tables": True}
    assert all(name in sys.modules for name in every)
    for page, names in api.WARM_UP_MODULES.items():
        reply = json.loads(api.call("warm_up", json.dumps({"page": page})))
        assert reply["ok"] and reply["result"]["modules"] == list(names), page
        assert reply["result"]["tables"] is (page in api.WARM_UP_TABLES), page
    assert json.loads(api.call("warm_up", '{"page": "no such page"}'))["result"]["modules"] == every
    assert json.loads(api.call("warm_up", '{"page": 7}'))["result"]["modules"] == every


def test_a_calculator_link_is_counted_without_the_discard_rankings_module():
    """The calculator's warm-up imports nothing beyond what its worker imports as it starts
    (site_src/workers/engine_worker.py), and a link's count needs nothing more: engine.analysis
    (the discard ranking) waits for a ranking to be asked for. Run apart, in a fresh interpreter."""
    import subprocess
    import sys

    script = (
        "import json, sys\n"
        "from engine import api, fairdeal, scoring\n"
        "assert json.loads(api.call('warm_up', json.dumps({'page': 'calculator'})))['ok']\n"
        "reply = json.loads(api.call('score_hand', json.dumps({'hand': '5H 5S 5D JC', 'starter': '5C'})))\n"
        "assert reply['result']['total'] == 29, reply\n"
        "print('engine.analysis' in sys.modules)\n"
        "json.loads(api.call('discard_options', json.dumps({'cards': '5H 5S 5D JC 2C 3C'})))\n"
        "print('engine.analysis' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]


def test_the_game_and_calculator_warm_ups_leave_the_show_table_to_the_first_call_that_needs_it(monkeypatch):
    """A deal or one hand's count needs no show table: the game page's and the calculator's
    warm-ups do not build it (the worker builds it once idle), so their first calls are not held
    up behind it; the replay's does."""
    from engine import scoring

    monkeypatch.setattr(scoring, "_RANK_TABLE", {})
    assert json.loads(api.call("warm_up", '{"page": "game"}'))["result"]["tables"] is False
    reply = json.loads(api.call("new_game", '{"difficulty": "expert", "seed": "warm"}'))
    assert reply["ok"] and not scoring._RANK_TABLE
    reply = json.loads(api.call("warm_up", '{"page": "calculator"}'))
    assert reply["result"]["tables"] is False
    reply = json.loads(api.call("score_hand", '{"hand": "5H 5S 5D JC", "starter": "5C"}'))
    assert reply["ok"] and reply["result"]["total"] == 29 and not scoring._RANK_TABLE
    assert json.loads(api.call("warm_up", '{"page": "replay"}'))["result"]["tables"] is True
    assert len(scoring._RANK_TABLE) == 6175


def test_engine_never_imports_browser_modules():
    for path in sorted((ROOT / "engine").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in {"pyscript", "js", "pyodide"}, f"{path.name} imports {name}"
