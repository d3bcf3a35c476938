"""One engine, two interpreters: the same work in CPython and in the browser's MicroPython.

work.py runs in this CPython and in the vendored MicroPython webassembly build under node (no
network); every line of output must be the same. The MicroPython side runs in two processes at
once (the machine has two cores), each taking every other item of each part.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import damage  # noqa: E402
import work  # noqa: E402

PARTS = ("endpoints", "damaged", "rounding", "decks", "shows", "discards", "page_games", "games", "expert_games",
         "qr", "friend_games", "ristretto", "sealed_games", "sealed_pages")
MICROPYTHON_SHARDS = 2
TIMEOUT = 900
STEPS_PER_ITEM = 40  # pieces a stepped item may take at most (a sealed game to 61: a hand each)


def _code(shards, shard):
    return "".join(f"work.run({part!r}, {shard}, {shards})\n" for part in PARTS)


def _start_micropython(shard, shards=MICROPYTHON_SHARDS):
    runner = HERE / "micropython.mjs"
    # One top-level call per part, and per piece of a stepped part's item (a sealed game's hand):
    # the build's collector frees memory only between such calls.
    parts = []
    for part in PARTS:
        if part in work.STEPPED:
            pieces = STEPS_PER_ITEM * len(range(shard, work.COUNTS[part], shards))
            parts += [f"work.start({part!r}, {shard}, {shards})"] + ["work.step()"] * pieces
        else:
            parts.append(f"work.run({part!r}, {shard}, {shards})")
    return subprocess.Popen(["node", str(runner), str(ROOT), "import work", *parts],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")


def _start_cpython():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(HERE)]), PYTHONHASHSEED="0")
    return subprocess.Popen([sys.executable, "-c", "import work\n" + _code(1, 0)], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")


def _finish(process, name):
    out, err = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 0, f"{name} failed:\n{err[-3000:]}"
    return out.splitlines()


def _by_item(lines):
    """Lines keyed by (part, item number); each key once."""
    keyed = {}
    for line in lines:
        part, index = json.loads(line)[:2]
        assert (part, index) not in keyed, f"{part} item {index} printed twice"
        keyed[(part, index)] = line
    return keyed


def _difference(a, b):
    at = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
    return f"CPython:     ...{a[max(0, at - 120):at + 160]}\nMicroPython: ...{b[max(0, at - 120):at + 160]}"


@pytest.fixture(scope="module")
def outputs():
    runs = [_start_micropython(shard) for shard in range(MICROPYTHON_SHARDS)]
    cpython = _finish(_start_cpython(), "CPython")
    micropython = [line for shard, run in enumerate(runs) for line in _finish(run, f"MicroPython shard {shard}")]
    return _by_item(cpython), _by_item(micropython)


def test_every_item_ran_in_both(outputs):
    cpython, micropython = outputs
    assert sorted(cpython) == sorted(micropython)
    counts = {part: sum(1 for p, _ in cpython if p == part) for part in PARTS}
    expected = dict(work.COUNTS, shows=work.COUNTS["shows"] // work.SHOW_CHUNK, endpoints=len(work.endpoint_vectors()),
                    damaged=len(damage.damaged_inputs()))
    assert counts == expected


def test_the_interpreters_agree_exactly(outputs):
    cpython, micropython = outputs
    differing = [key for key in sorted(cpython) if cpython[key] != micropython.get(key)]
    if differing:
        part, index = differing[0]
        pytest.fail(f"{len(differing)} item(s) differ; the first is {part} {index}:\n"
                    + _difference(cpython[(part, index)], micropython[(part, index)]))


def test_the_work_is_as_large_as_promised():
    """At least 200 games, 10,000 hands and cribs, 200 discards, 300 decks (the issue's floor)."""
    assert work.COUNTS["games"] >= 200 and work.COUNTS["shows"] >= 10_000
    assert work.COUNTS["discards"] >= 200 and work.COUNTS["decks"] >= 300
    shapes = {(p, m, t) for p, m, t in work.GAME_SHAPES}
    assert {p for p, _, _ in shapes} == {2, 3, 4} and {m for _, m, _ in shapes} == {False, True}
    assert {t for _, _, t in shapes} == {121, 61}
    levels = {level for i in range(work.COUNTS["games"]) for level in work.game_plan(i)[3]}
    assert levels == {"easy", "hard"}
    experts = [work.expert_plan(i) for i in range(work.COUNTS["expert_games"])]
    assert {lv for levels, _ in experts for lv in levels} == {"expert", "hard", "easy"}
    assert {levels.index("expert") for levels, _ in experts} == {0, 1}
