"""The expert opponent's worker: CPython (Pyodide) choosing the expert's moves for the game page.

The game page (site_src/app/expert_engine.py) starts it as a named PyScript worker running
Pyodide when a game against the expert is set up or resumed (config app/expert_worker.toml puts
the engine's source in its file system) and sends it the expert's moves; everything else the
page asks stays in the engine's MicroPython worker. Its one export answers like that worker:

- ``call(name, request_json)``: engine endpoint ``name`` (engine.api.call, JSON text both ways).
  The page sends ``ping`` first, which answers once the expert's modules and tables are loaded
  (one expert discard is worked out), so its first move does not pay for them; then
  ``computer_move``.

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


_warmed = []


def call(name, request_json):
    """Run engine endpoint ``name`` on a JSON request; the reply is JSON text (engine.api.call)."""
    if not _warmed:
        _warm_up()
        _warmed.append(True)
    return api.call(str(name), str(request_json))


__export__ = ["call"]
