"""The game page's saved table position (site_src/app/store.py check_table) against real replies.

store.py and game.py run in MicroPython in the page and cannot be imported here; their pure
functions (the checks, the fingerprint, the display model built from a view) are taken from
the source and run on positions made from the engine's real replies, as the page saves them.
"""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

from engine import table
from test_game import _leaves

ROOT = Path(__file__).resolve().parents[2]
STORE_FUNCTIONS = {"fingerprint", "_is_int", "_is_text", "_is_card", "_is_cards", "_is_seat", "_is_num",
                   "_is_opt_text", "_is_ints", "_is_seats", "_is_pairs", "_has", "_valid_show",
                   "_valid_counting", "_valid_cut", "_valid_event", "_valid_model", "_valid_table",
                   "check_table"}
GAME_FUNCTIONS = {"model_from_view"}


def load(path: str, names: set[str], namespace: dict) -> dict:
    """Run the module's UPPER_CASE constants and the named functions in namespace."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) and t.id.isupper() for t in node.targets):
            try:
                exec(compile(ast.Module([node], []), path, "exec"), namespace)
            except NameError:
                pass  # constants built from browser objects are not needed here
        elif isinstance(node, ast.FunctionDef) and node.name in names:
            exec(compile(ast.Module([node], []), path, "exec"), namespace)
    missing = names - set(namespace)
    assert not missing, f"{path} lacks {missing}"
    return namespace


LOGGED: list[str] = []
STORE = load("site_src/app/store.py", STORE_FUNCTIONS, {"_log": lambda *parts: LOGGED.append(" ".join(map(str, parts)))})
GAME = load("site_src/app/game.py", GAME_FUNCTIONS, {})
check_table = STORE["check_table"]
fingerprint = STORE["fingerprint"]


def person_move(reply: dict, rng: random.Random) -> dict:
    view = reply["view"]
    if reply["awaiting"] == "count":
        counting = view["counting"]
        from engine.scoring import score_show

        total = score_show(counting["cards"], counting["starter"], crib=counting["show"] == "crib").total
        return {"type": "count", "points": rng.randint(max(0, total - 2), total)}
    if reply["awaiting"] == "discard":
        need = 2 if view["players"] == 2 else 1
        return {"type": "discard", "cards": rng.sample(view["hand"], need)}
    return rng.choice([{"type": "play", "card": a["card"]} for a in view["legal_actions"]])


def positions(seed: str, **options):
    """(position, game text, players, target) for every reply of a game, as the page saves them."""
    rng = random.Random(seed)
    reply = table.start({"difficulty": "easy", "seed": seed, **options})
    view = reply["view"]
    model = GAME["model_from_view"](view)
    model.update(hand=[], left=[0] * view["players"], hand_number=0, scores=[0] * view["players"], legal=[],
                 revealed=None)
    cards = {}
    while True:
        cards.update(reply["cards"])
        view = reply["view"]
        lanes = 2 if view["players"] == 4 else view["players"]
        position = {"v": 1, "game": fingerprint(reply["game"]), "stop": "", "model": model,
                    "queue": reply["events"], "thrown": [], "me": 0,
                    "pegs": [[min(s, view["target"]), b] for s, b in zip(view["scores"][:lanes], view["backs"][:lanes])],
                    "cards": dict(cards)}
        if reply["events"]:
            yield json.loads(json.dumps(position)), reply["game"], view["players"], view["target"]
        if reply["awaiting"] == "over":
            return
        model = GAME["model_from_view"](view)
        if reply["awaiting"] == "computer":
            reply = table.computer_move({"game": reply["game"], "difficulty": "easy"})
        else:
            reply = table.act({"game": reply["game"], "action": person_move(reply, rng)})


GAMES = [("tp-2", {"target": 61}), ("tp-mug", {"target": 61, "muggins": True}),
         ("tp-3", {"target": 61, "players": 3}), ("tp-4", {"target": 61, "players": 4})]


@pytest.mark.parametrize("seed, options", GAMES, ids=[g[0] for g in GAMES])
def test_every_position_the_page_saves_is_accepted(seed, options):
    count = 0
    for position, game, players, target in positions(seed, **options):
        assert check_table(position, game, players, target) is position
        for stop in ("go", "next"):
            assert check_table(dict(position, stop=stop), game, players, target) is not None
        count += 1
    assert count > 10


def test_positions_for_another_game_or_table_are_refused():
    position, game, players, target = next(p for p in positions("tp-other", target=61) if p[0]["queue"])
    assert check_table(position, game, players, target) is position
    assert check_table(position, game + " ", players, target) is None  # another game's text
    assert check_table(position, game, 3, target) is None
    assert check_table(position, game, players, 121) is None
    assert check_table(None, game, players, target) is None
    for bad in ("text", [], 1, {"v": 1}, dict(position, v=2), dict(position, stop="deal"),
                dict(position, stop="", queue=[]), dict(position, queue=[{"type": "cheat"}]),
                dict(position, me=5), dict(position, pegs=[[1, 0]]), dict(position, thrown=[1, 2, 3]),
                dict(position, cards={"60": {}}), dict(position, model={})):
        assert check_table(bad, game, players, target) is None


def test_fuzzed_positions_never_raise():
    """Random edits give a refusal (None) or a position whose checked fields still hold, never an error."""
    samples = [p for p in positions("tp-fuzz", target=61)]
    rng = random.Random(11)
    junk = [None, -1, 0, 1, 7, 52, 1000, 1.5, True, "x", "", [], {}, [0], {"a": 1}, [[0, 99]]]
    refused = 0
    del LOGGED[:]
    for _ in range(1500):
        position, game, players, target = rng.choice(samples)
        copy = json.loads(json.dumps(position))
        path = rng.choice(list(_leaves(copy)))
        if not path:
            continue
        obj = copy
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = rng.choice(junk)
        result = check_table(copy, game, players, target)  # must not raise
        refused += result is None
    assert refused > 500
    assert not [line for line in LOGGED if "not understood" in line], "a check raised instead of refusing"
