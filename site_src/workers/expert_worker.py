"""The expert opponent's worker: CPython (Pyodide) answering for games against the expert.

The game page and the replay page (site_src/app/expert_engine.py) start it as a named PyScript
worker running Pyodide when a game against the expert is picked, set up, resumed or replayed
(config app/expert_worker.toml puts the engine's source in its file system) and send it every
call about that game: the expert's moves, the person's, the hints, the checks of saved and
shared games. Its one export answers like the engine's MicroPython worker:

- ``call(name, request_json)``: engine endpoint ``name`` (engine.api.call, JSON text both ways).
  The first call (the page's ``ping``) also works out one expert discard, so the expert's
  modules and tables are loaded before its first move.

It never touches the page.
"""

from engine import api

WARM_UP_SEED = "expert-worker"


def _warm_up():
    """Load what the expert's moves use: one expert discard on a fresh deal."""
    from engine.game import new_game
    from engine.players import get_player

    state = new_game(seed=WARM_UP_SEED)
    view = state.view(state.to_act)
    get_player("expert", seed=0).choose(view, view["legal_actions"])


_state = {"warm": False}


def call(name, request_json):
    """Run engine endpoint ``name`` on a JSON request; the reply is JSON text (engine.api.call)."""
    if not _state["warm"]:
        _warm_up()
        _state["warm"] = True
    return api.call(str(name), str(request_json))


__export__ = ["call"]
