"""What a practice link in the game page's address asks for (``?seed=...``): its game's options,
the engine's request for that game, and that request sent ahead as the page starts; and the link
of the practice game on the table.

Part of the game page (site_src/app/game.py is its entry point); it imports only what the page
needs before anything else, so that game.py can send a link's first deal before importing the rest.
"""

import js

from dom import window

import bridge
from table import store
from table.state import DIFFICULTY_WORDS, S

YES_WORDS = ("1", "true", "on", "yes")


def url_options(settings):
    """A practice game from the address (``?seed=...&target=61&muggins=1&difficulty=hard``), the
    person's ``settings`` where it says nothing; None if the address has no seed."""
    params = js.URLSearchParams.new(window.location.search)
    seed = params.get("seed")
    if seed is None or not str(seed).strip():
        return None
    options = {"difficulty": settings["difficulty"], "target": settings["target"],
               "muggins": settings["muggins"], "seed": str(seed).strip()[:200]}
    target = params.get("target")
    if target is not None and str(target) in ("61", "121"):
        options["target"] = int(str(target))
    muggins = params.get("muggins")
    if muggins is not None:
        options["muggins"] = str(muggins) in YES_WORDS
    difficulty = params.get("difficulty")
    if difficulty is not None and str(difficulty) in DIFFICULTY_WORDS:
        options["difficulty"] = str(difficulty)
    players = params.get("players")
    if players is not None and str(players) in ("2", "3", "4"):
        options["players"] = int(str(players))
    names = [params.get("name1"), params.get("name2")]
    if str(params.get("pass")) in YES_WORDS:
        options["players"] = 2
        options["pass_and_play"] = True
        options["names"] = [str(n) if n is not None else "" for n in names]
    return options


def new_game_request(options, seed=None):
    """The engine's ``new_game`` request for a game with these options (and ``seed``, if given)."""
    request = {"difficulty": options["difficulty"], "target": options["target"],
               "muggins": options["muggins"], "players": int(options.get("players", 2))}
    if options.get("pass_and_play"):
        request.update({"pass_and_play": True, "names": list(options.get("names") or [])})
    if seed:
        request["seed"] = seed
    return request


def deal_ahead(settings):
    """Send a practice link's first deal to the engine now (``bridge.call_ahead``), while the page
    loads its other modules and binds itself; start_game's call for the same game takes the reply.

    Only where the link is sure to deal a new game: no game is saved in the link's slot (a saved
    one is resumed, or offered first) and the address has no fragment at all (a friend link is
    one, ``#invite=...``: game.py opens it instead; any other fragment is left to game.py too)."""
    options = url_options(settings)
    if options is None or str(window.location.hash) not in ("", "#"):
        return
    if store.load_game(store.link_kind(options["seed"])) is not None:
        return
    bridge.call_ahead("new_game", new_game_request(options, options["seed"]))


def table_link():
    """The address of the practice game on the table: its seed, rules and seating."""
    model = S["model"] or {}
    address = ("?seed=" + str(js.encodeURIComponent(str(S["meta"].get("practice_seed") or "")))
               + "&difficulty=" + str(S["meta"].get("difficulty", "easy")) + "&target=" + str(model.get("target", 121))
               + "&muggins=" + ("1" if model.get("muggins") else "0") + "&players=" + str(S["players"]))
    if S["passing"]:
        address += "&pass=1"
        for i, name in enumerate(S["names"][:2]):
            address += "&name" + str(i + 1) + "=" + str(js.encodeURIComponent(name))
    return address
