"""The device's memory for the game page: localStorage under versioned keys, checked on load.

Runs in MicroPython on the main thread (keep to the subset). Three keys, each holding JSON:

- ``cribbage.game.v1``: the game in progress, ``{"v": 1, "game": <the engine's game JSON text>,
  "meta": {...}, "tab": <id of the tab that saved it>, "rev": <save counter>}``; the meta may
  hold the game page's table position under ``"table"`` (see ``check_table``)
- ``cribbage.stats.v1``: the statistics record of engine/stats.py (``{"version": 1, ...}``)
- ``cribbage.settings.v1``: ``{"v": 1, "difficulty", "target", "muggins", "speed"}``

Nothing read from storage is trusted. A value that is missing is simply absent; one that is not
JSON or has the wrong shape or version is removed, and ``notices()`` gets a sentence for the
player, which is also shown in #store-notice (made at the top of #game if the page has none)
with an OK button. When storage itself is unavailable (blocked, private mode, full) every
function still works, saving nothing, and one notice says so. No function here raises.

Two tabs on one game: every save carries this tab's id. When another tab saves the game (the
``storage`` event) this tab stops saving, calls the ``watch_other_tabs`` callback and shows a
notice with a button to take the game back, which claims the latest saved state and reloads the
page (or hands the saved game to ``on_take_back``). A BroadcastChannel also tells a newly opened
tab that another one already has the game open.

    import store
    text = store.load_game()                 # None, or the saved game's JSON text
    store.save_game(game_json, {"difficulty": "hard", "practice": False})
    stats = store.load_stats()               # always a valid stats dict (light check here,
    await store.verify_stats()               # the engine's strict check when it is ready)
    new_stats = await store.record_game(game_json, {"difficulty": "hard"})
"""

import json

import js
from pyscript import document, window
from pyscript.ffi import create_proxy

import bridge

KEY_GAME = "cribbage.game.v1"
KEY_STATS = "cribbage.stats.v1"
KEY_SETTINGS = "cribbage.settings.v1"
KEYS = (KEY_GAME, KEY_STATS, KEY_SETTINGS)
CHANNEL_NAME = "cribbage.tabs.v1"
GAME_VERSION = 1
SETTINGS_VERSION = 1
STATS_VERSION = 1
GAME_FORMAT = "cribbage-game"  # engine.game.FORMAT_NAME

DIFFICULTIES = ("easy", "hard")
TARGETS = (121, 61)
SPEEDS = ("slow", "normal", "fast")
DEFAULT_SETTINGS = {"difficulty": "easy", "target": 121, "muggins": False, "speed": "normal"}

NOTICE_ID = "store-notice"

UNAVAILABLE = ("This browser is not letting the site store anything (private browsing or full "
               "storage), so your game and statistics will not be kept after you leave the page.")
SAVE_FAILED = ("Your game could not be saved on this device (storage is full or blocked). "
               "You can keep playing, but it will not be kept after you leave the page.")
GAME_RESET = "Your saved game could not be read and was discarded."
GAME_REJECTED = "Your saved game could not be resumed and was discarded."
STATS_RESET = "Your saved statistics could not be read and were reset."
SETTINGS_RESET = "Your saved settings could not be read; the defaults are back."
OTHER_TAB_TOOK = ("This game is now being played in another tab or window, so this tab has "
                  "stopped saving it.")
OTHER_TAB_OPEN = ("This game is also open in another tab or window. Play it in one place: "
                  "whichever tab moves last keeps the game.")
TAKE_BACK_LABEL = "Take the game back here"


def _new_tab_id():
    """A per-tab id: time plus randomness (unique enough to tell two tabs apart)."""
    return "t" + str(int(js.Date.now())) + "-" + str(int(js.Math.random() * 1000000000))


TAB_ID = _new_tab_id()

_state = {
    "checked": False,     # storage probed yet?
    "available": False,
    "owner": True,        # may this tab save the game?
    "rev": 0,             # the save counter of the game this tab last read or wrote
    "watching": False,
    "callback": None,
    "on_take_back": None,
    "channel": None,
    "other_open": False,
}
_notices = []
_proxies = []  # keeps event-handler proxies alive for the page's lifetime


# --- notices ---------------------------------------------------------------------------------


def notices():
    """Messages for the player about storage (resets, unavailable storage, other tabs)."""
    return list(_notices)


def clear_notices():
    """Forget the notices collected so far and hide them."""
    del _notices[:]
    _show_notices()


def _notice(text):
    if text not in _notices:
        _notices.append(text)
        _show_notices()


def _log(*parts):
    try:
        js.console.warn(*[str(part) for part in parts])
    except Exception:
        pass


# --- raw storage -----------------------------------------------------------------------------
#
# A JavaScript exception raised inside a call from MicroPython cannot be caught in Python here:
# it stops the page's script. localStorage throws when it is blocked (SecurityError), full
# (QuotaExceededError) or missing, so every access goes through these small JavaScript
# functions, which catch the exception and answer null or false instead.

_JS_STORAGE = js.Function.new("""
  const warn = (what, key, error) => console.warn("localStorage " + what + " failed:", key,
                                                 error && error.name);
  return {
    probe() {
      try {
        const storage = window.localStorage, key = "cribbage.probe";
        storage.setItem(key, "1");
        storage.removeItem(key);
        return true;
      } catch (error) { warn("probe", "", error); return false; }
    },
    get(key) {
      try { const value = window.localStorage.getItem(key); return value === null ? null : String(value); }
      catch (error) { warn("read", key, error); return null; }
    },
    set(key, value) {
      try { window.localStorage.setItem(key, value); return true; }
      catch (error) { warn("write", key, error); return false; }
    },
    remove(key) {
      try { window.localStorage.removeItem(key); return true; }
      catch (error) { warn("remove", key, error); return false; }
    },
    channel(name) {
      try { return typeof BroadcastChannel === "function" ? new BroadcastChannel(name) : null; }
      catch (error) { return null; }
    },
    post(channel, message) {
      try { channel.postMessage(message); return true; } catch (error) { return false; }
    },
  };
""")()


def is_available():
    """True if localStorage can be written (probed once, with a throwaway key)."""
    if _state["checked"]:
        return _state["available"]
    _state["checked"] = True
    _state["available"] = bool(_JS_STORAGE.probe())
    if not _state["available"]:
        _notice(UNAVAILABLE)
    return _state["available"]


def _is_text(value):
    return isinstance(value, str)


def _read(key):
    """The text stored under key, or None (absent, unavailable or unreadable)."""
    if not is_available():
        return None
    value = _JS_STORAGE.get(key)
    return value if _is_text(value) else None


def _write(key, text):
    """Store text under key; False (and a notice) if the browser refuses."""
    if not is_available():
        return False
    if _JS_STORAGE.set(key, text):
        return True
    _notice(SAVE_FAILED)
    return False


def _remove(key):
    if is_available():
        _JS_STORAGE.remove(key)


def _read_json(key, reset_notice):
    """The parsed JSON under key; None if absent; a corrupt value is removed with a notice."""
    text = _read(key)
    if text is None:
        return None
    try:
        return json.loads(text)
    except Exception:
        _remove(key)
        _notice(reset_notice)
        return None


def _dumps(value):
    return json.dumps(value)


# --- the saved game --------------------------------------------------------------------------


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _valid_envelope(obj):
    """True if obj has the shape of a saved-game record (the engine checks the game itself)."""
    if not isinstance(obj, dict) or obj.get("v") != GAME_VERSION:
        return False
    game = obj.get("game")
    if not _is_text(game) or not isinstance(obj.get("meta"), dict):
        return False
    if not _is_text(obj.get("tab")) or not _is_int(obj.get("rev")):
        return False
    try:
        inner = json.loads(game)
    except Exception:
        return False
    return isinstance(inner, dict) and inner.get("format") == GAME_FORMAT


def _load_envelope():
    """The saved-game record, or None; a corrupt or foreign one is removed with a notice."""
    obj = _read_json(KEY_GAME, GAME_RESET)
    if obj is None:
        return None
    if not _valid_envelope(obj):
        _remove(KEY_GAME)
        _notice(GAME_RESET)
        return None
    return obj


def load_game():
    """The saved game's JSON text (the engine's ``to_json``), or None if there is none."""
    envelope = _load_envelope()
    if envelope is None:
        return None
    _state["rev"] = envelope["rev"]
    return envelope["game"]


def load_game_meta():
    """The meta dict saved with the game (difficulty, practice, ...), or None."""
    envelope = _load_envelope()
    return None if envelope is None else envelope["meta"]


def save_game(game_json, meta=None):
    """Save the game (JSON text) with its meta dict and mark this tab as its owner.

    Returns True if saved. Saves nothing (and returns False) once another tab has taken the
    game over, until ``take_back``.
    """
    if not _state["owner"]:
        return False
    if not _is_text(game_json):
        _log("save_game needs the game's JSON text")
        return False
    current = _load_envelope()
    if current is not None and current["tab"] != TAB_ID and current["rev"] > _state["rev"]:
        # Another tab saved since this one last read or wrote: it has the game now.
        _lose_ownership()
        return False
    rev = max(_state["rev"], current["rev"] if current is not None else 0) + 1
    envelope = {"v": GAME_VERSION, "game": game_json, "meta": dict(meta or {}), "tab": TAB_ID,
                "rev": rev, "time": int(js.Date.now())}
    if not _write(KEY_GAME, _dumps(envelope)):
        return False
    _state["rev"] = rev
    return True


def clear_game():
    """Forget the saved game (a finished or abandoned game); only the owning tab may."""
    if _state["owner"]:
        _remove(KEY_GAME)
        _state["rev"] = 0


def reject_game(message=None):
    """Drop a saved game the engine refused to resume, with a notice for the player."""
    _remove(KEY_GAME)
    _state["rev"] = 0
    _notice(message or GAME_REJECTED)


# --- the table's position --------------------------------------------------------------------
#
# The engine's game JSON is exact, but it has moved on by the time the page has shown its
# events: at the end of a hand it already holds the next deal. So the game page saves, in the
# meta under TABLE_KEY, what its table shows and the events still to show, to come back to the
# same place after a reload: the show with "Deal hand N", or a go to acknowledge. It is display
# only (the engine never reads it), tied to the game text it was saved with by a fingerprint,
# and checked here in full: anything wrong, foreign or from another game is ignored (the page
# then resumes from the engine's view) and the next save replaces it.

TABLE_KEY = "table"
TABLE_VERSION = 1
TABLE_STOPS = ("", "go", "next")
MAX_QUEUE = 200
SHOWS = ("hand", "crib")
CARD_TEXT_FIELDS = ("rank", "glyph", "suit", "spoken", "pretty")


def fingerprint(text):
    """A short checksum of a saved game's text (ties the table's position to that game)."""
    h = 5381
    for ch in text:
        h = (h * 31 + ord(ch)) % 16777213  # stays a small int in MicroPython
    return str(len(text)) + ":" + str(h)


def _is_card(value):
    return _is_int(value) and 0 <= value < 52


def _is_cards(value, most=52):
    if not isinstance(value, list) or len(value) > most:
        return False
    for card in value:
        if not _is_card(card):
            return False
    return True


def _is_seat(value, players):
    return _is_int(value) and 0 <= value < players


def _is_num(value, low, high):
    return _is_int(value) and low <= value <= high


def _is_opt_text(value):
    return value is None or _is_text(value)


def _is_ints(value, count, low, high):
    if not isinstance(value, list) or len(value) != count:
        return False
    for item in value:
        if not _is_num(item, low, high):
            return False
    return True


def _is_seats(value, players):
    if not isinstance(value, list) or len(value) > 4 * players:
        return False
    for seat in value:
        if not _is_seat(seat, players):
            return False
    return True


def _is_pairs(value, players, most):
    """[[seat, card], ...]"""
    if not isinstance(value, list) or len(value) > most:
        return False
    for pair in value:
        if not (isinstance(pair, list) and len(pair) == 2 and _is_seat(pair[0], players)
                and _is_card(pair[1])):
            return False
    return True


def _has(obj, fields):
    """True if obj is a dict and every (key, check) holds for its value."""
    if not isinstance(obj, dict):
        return False
    for key, check in fields:
        if key not in obj or not check(obj[key]):
            return False
    return True


def _valid_show(record, players, target):
    """A counted hand or crib as the table draws it (items, labels and phrases)."""
    if not _has(record, (("seat", lambda v: _is_seat(v, players)), ("show", lambda v: v in SHOWS),
                         ("cards", lambda v: _is_cards(v, 5)), ("starter", _is_card),
                         ("total", lambda v: _is_num(v, 0, 29)), ("spoken", _is_text),
                         ("items", lambda v: isinstance(v, list) and len(v) <= 40),
                         ("phrases", lambda v: isinstance(v, list) and len(v) <= 40))):
        return False
    claimed = record.get("claimed")
    if claimed is not None and not _is_num(claimed, 0, 29):
        return False
    items = record["items"]
    for item in items:
        if not _has(item, (("cards", lambda v: _is_cards(v, 5)), ("points", lambda v: _is_num(v, 0, 29)),
                           ("label", _is_text))):
            return False
    for phrase in record["phrases"]:
        if not _has(phrase, (("text", _is_text), ("items", lambda v: isinstance(v, list)))):
            return False
        for index in phrase["items"]:
            if not _is_num(index, 0, len(items) - 1):
                return False
    return True


def _valid_counting(record, players):
    return _has(record, (("seat", lambda v: _is_seat(v, players)), ("show", lambda v: v in SHOWS),
                         ("cards", lambda v: _is_cards(v, 5)), ("starter", _is_card)))


def _valid_cut(event, players):
    return _has(event, (("cuts", lambda v: _is_pairs(v, players, 52)), ("dealer", lambda v: _is_seat(v, players)),
                        ("seed", _is_text), ("commitment", _is_text)))


def _valid_event(event, players, target):
    """One engine event of the game page's reply, with the fields the table uses checked."""
    if not _has(event, (("type", _is_text),)):
        return False
    for key in ("say",):
        if key in event and not _is_text(event[key]):
            return False
    if "said" in event and not isinstance(event["said"], bool):
        return False
    kind = event["type"]
    seat = lambda v: _is_seat(v, players)  # noqa: E731
    points = lambda v: _is_num(v, 0, 1000)  # noqa: E731
    if kind == "cut":
        return _valid_cut(event, players)
    if kind == "deal":
        return _has(event, (("hand_number", lambda v: _is_num(v, 1, 1000)), ("dealer", seat),
                            ("commitment", _is_text))) and (
            "cards_each" not in event or _is_num(event["cards_each"], 0, 6))
    if kind == "hand":
        return _has(event, (("seat", seat), ("cards", lambda v: _is_cards(v, 6))))
    if kind == "discard":
        return _has(event, (("seat", seat), ("count", lambda v: _is_num(v, 1, 2))))
    if kind == "starter":
        return _has(event, (("card", _is_card), ("dealer", seat)))
    if kind == "play":
        return _has(event, (("seat", seat), ("card", _is_card), ("count", lambda v: _is_num(v, 0, 31))))
    if kind == "go":
        return _has(event, (("seat", seat), ("count", lambda v: _is_num(v, 0, 31))))
    if kind == "reset":
        return _has(event, (("next", seat),))
    if kind == "count_turn":
        return _valid_counting(event, players)
    if kind == "show":
        return _valid_show(event, players, target)
    if kind == "score":
        return (_has(event, (("seat", seat), ("points", points), ("total", points), ("reason", _is_text),
                             ("cards", _is_cards)))
                and ("show" not in event or event["show"] in SHOWS))
    if kind == "hand_end":
        return _has(event, (("hand_number", lambda v: _is_num(v, 1, 1000)), ("seed", _is_text),
                            ("commitment", _is_text)))
    if kind == "game_over":
        return _has(event, (("winner", seat), ("scores", lambda v: _is_ints(v, players, 0, 1000))))
    return False


def _valid_model(model, players, target):
    """The table as the game page draws it (game.py's display model)."""
    seat = lambda v: _is_seat(v, players)  # noqa: E731
    if not _has(model, (
            ("hand_number", lambda v: _is_num(v, 0, 1000)), ("dealer", seat),
            ("scores", lambda v: _is_ints(v, players, 0, 1000)), ("target", lambda v: v == target),
            ("muggins", lambda v: isinstance(v, bool)), ("hand", lambda v: _is_cards(v, 6)),
            ("played", lambda v: _is_cards(v, 6)), ("discards", lambda v: v is None or _is_cards(v, 2)),
            ("left", lambda v: _is_ints(v, players, 0, 6)), ("crib_size", lambda v: _is_num(v, 0, 4)),
            ("crib", lambda v: v is None or _is_cards(v, 4)), ("starter", lambda v: v is None or _is_card(v)),
            ("laid", lambda v: _is_pairs(v, players, 4 * players)), ("count", lambda v: _is_num(v, 0, 31)),
            ("go", lambda v: _is_seats(v, players)), ("shown", lambda v: isinstance(v, list) and len(v) <= 5),
            ("commitment", _is_opt_text), ("seed", _is_opt_text), ("over", lambda v: isinstance(v, bool)),
            ("winner", lambda v: v is None or _is_seat(v, players)), ("legal", lambda v: _is_cards(v, 6)))):
        return False
    for key in ("count_start", "counting", "cut", "last_hand"):
        if key not in model:
            return False
    if not _is_num(model["count_start"], 0, len(model["laid"])):
        return False
    for record in model["shown"]:
        if not _valid_show(record, players, target):
            return False
    if model.get("counting") is not None and not _valid_counting(model["counting"], players):
        return False
    if model.get("cut") is not None and not _valid_cut(model["cut"], players):
        return False
    last = model.get("last_hand")
    if last is not None and not _has(last, (("hand_number", lambda v: _is_num(v, 1, 1000)),
                                            ("seed", _is_text), ("commitment", _is_text))):
        return False
    revealed = model.get("revealed")
    if revealed is not None:
        if not _has(revealed, (("held", lambda v: isinstance(v, list) and len(v) == players),
                               ("crib", lambda v: _is_cards(v, 4)))):
            return False
        for held in revealed["held"]:
            if not _is_cards(held, 6):
                return False
    return True


def _valid_table(record, game_json, players, target):
    if not _has(record, (("v", lambda v: v == TABLE_VERSION), ("game", _is_text),
                         ("stop", lambda v: v in TABLE_STOPS), ("queue", lambda v: isinstance(v, list)),
                         ("thrown", lambda v: _is_cards(v, 2)), ("me", lambda v: _is_seat(v, players)),
                         ("pegs", lambda v: isinstance(v, list) and len(v) == (2 if players == 4 else players)),
                         ("cards", lambda v: isinstance(v, dict) and len(v) <= 52))):
        return False
    if record["game"] != fingerprint(game_json):
        return False  # saved with another game (or another version of this one)
    queue = record["queue"]
    if len(queue) > MAX_QUEUE or (record["stop"] == "" and not queue):
        return False
    for event in queue:
        if not _valid_event(event, players, target):
            return False
    for pegs in record["pegs"]:
        if not _is_ints(pegs, 2, -1, target):
            return False
    for key in record["cards"]:
        data = record["cards"][key]
        if not (_is_text(key) and key.isdigit() and int(key) < 52 and isinstance(data, dict)):
            return False
        for field in CARD_TEXT_FIELDS:
            if not _is_text(data.get(field)):
                return False
    return _valid_model(record["model"], players, target)


def check_table(record, game_json, players, target):
    """The table's position saved with this game text, checked in full; None if it is not usable.

    ``record`` is what the game page saved under TABLE_KEY in the meta (missing: None). Anything
    that is not exactly such a position for this game (corrupt, foreign, another game's, another
    table size or target) is ignored, with a note in the console, never an error.
    """
    if record is None:
        return None
    try:
        if _is_text(game_json) and _valid_table(record, game_json, players, target):
            return record
    except Exception as error:
        _log("saved table position not understood:", error)
        return None
    _log("saved table position ignored: it does not match the saved game")
    return None


# --- settings --------------------------------------------------------------------------------


def _valid_setting(key, value):
    """True if value is allowed for setting key."""
    if key == "difficulty":
        return value in DIFFICULTIES
    if key == "target":
        return _is_int(value) and value in TARGETS
    if key == "muggins":
        return isinstance(value, bool)
    if key == "speed":
        return value in SPEEDS
    return False


def _valid_settings(obj):
    if not isinstance(obj, dict) or obj.get("v") != SETTINGS_VERSION:
        return False
    for key in DEFAULT_SETTINGS:
        if not _valid_setting(key, obj.get(key)):
            return False
    return True


def load_settings():
    """The player's settings (difficulty, target, muggins, speed); defaults where none are saved."""
    settings = dict(DEFAULT_SETTINGS)
    obj = _read_json(KEY_SETTINGS, SETTINGS_RESET)
    if obj is None:
        return settings
    if not _valid_settings(obj):
        _remove(KEY_SETTINGS)
        _notice(SETTINGS_RESET)
        return settings
    for key in DEFAULT_SETTINGS:
        settings[key] = obj[key]
    return settings


def save_settings(settings):
    """Save settings (a missing or invalid value takes its default); returns what was saved."""
    clean = dict(DEFAULT_SETTINGS)
    if isinstance(settings, dict):
        for key in DEFAULT_SETTINGS:
            if _valid_setting(key, settings.get(key)):
                clean[key] = settings[key]
    record = {"v": SETTINGS_VERSION}
    record.update(clean)
    _write(KEY_SETTINGS, _dumps(record))
    return clean


# --- statistics ------------------------------------------------------------------------------


def new_stats():
    """An empty statistics record (the same as engine.stats.new_stats; a unit test checks)."""
    return {
        "version": STATS_VERSION,
        "games": 0, "wins": 0, "losses": 0,
        "by_difficulty": {}, "by_target": {},
        "streak": 0, "best_streak": 0,
        "best_hand": None, "best_crib": None, "twenty_nines": 0,
        "skunks_given": 0, "double_skunks_given": 0, "skunks_taken": 0, "double_skunks_taken": 0,
        "hands": 0, "shows": 0, "cribs": 0,
        "points": {"pegging": 0, "hand": 0, "crib": 0, "heels": 0, "muggins": 0},
        "recent": [],
    }


STATS_COUNTS = ("games", "wins", "losses", "streak", "best_streak", "twenty_nines", "skunks_given",
                "double_skunks_given", "skunks_taken", "double_skunks_taken", "hands", "shows",
                "cribs")


def _light_stats_check(obj):
    """A quick shape check on the main thread; engine.stats.parse_stats is the strict one."""
    if not isinstance(obj, dict) or obj.get("version") != STATS_VERSION:
        return False
    for key in new_stats():
        if key not in obj:
            return False
    for key in STATS_COUNTS:
        if not _is_int(obj.get(key)) or obj[key] < 0:
            return False
    return (obj["wins"] + obj["losses"] == obj["games"] and isinstance(obj.get("by_difficulty"), dict)
            and isinstance(obj.get("by_target"), dict) and isinstance(obj.get("points"), dict)
            and isinstance(obj.get("recent"), list))


def load_stats():
    """The saved statistics, always a valid-looking record (fresh if missing, corrupt or foreign)."""
    obj = _read_json(KEY_STATS, STATS_RESET)
    if obj is None:
        return new_stats()
    if not _light_stats_check(obj):
        _remove(KEY_STATS)
        _notice(STATS_RESET)
        return new_stats()
    return obj


def save_stats(stats):
    """Store a statistics record (one the engine produced); returns True if stored."""
    return _write(KEY_STATS, _dumps(stats))


def reset_stats():
    """Forget every statistic; returns the fresh record."""
    fresh = new_stats()
    save_stats(fresh)
    return fresh


async def verify_stats():
    """Check the saved statistics strictly in the engine; reset them with a notice if refused.

    Returns the valid record. Call once the engine is up (the stats panel does).
    """
    text = _read(KEY_STATS)
    if text is None:
        return new_stats()
    reply = await bridge.call("stats_check", {"stats_text": text})
    if reply.get("notice"):
        _notice(reply["notice"])
        save_stats(reply["stats"])
    return reply["stats"]


async def record_game(game, meta=None):
    """Add a finished game to the statistics through the engine; returns the new statistics.

    ``game`` is the finished game's JSON text (or its dict). ``meta`` gives "difficulty" and
    "practice" (taken from the saved game's meta when omitted). Practice games, and games this
    tab does not own, are not recorded: the current statistics come back unchanged. A game
    already recorded (same game) is not counted twice.
    """
    if meta is None:
        meta = load_game_meta() or {}
    if meta.get("practice") or not _state["owner"]:
        return load_stats()
    current = await verify_stats()
    if not _is_text(game):
        game = _dumps(game)
    reply = await bridge.call("stats_record", {"stats": current, "game": game,
                                               "difficulty": meta.get("difficulty")})
    stats = reply["stats"]
    save_stats(stats)
    return stats


# --- two tabs --------------------------------------------------------------------------------


def is_owner():
    """True while this tab may save the game (no other tab has taken it over)."""
    return _state["owner"]


def _lose_ownership():
    if not _state["owner"]:
        return
    _state["owner"] = False
    _notice(OTHER_TAB_TOOK)
    _show_notices()
    callback = _state["callback"]
    if callback is not None:
        try:
            callback(OTHER_TAB_TOOK)
        except Exception as error:
            _log("other-tab callback failed:", error)


def _on_storage(event):
    """Another tab changed localStorage: if it saved the game, it owns the game now."""
    try:
        if event.key != KEY_GAME:
            return
        text = event.newValue
        if not _is_text(text):
            return  # the game was cleared elsewhere: nothing to take over
        obj = json.loads(text)
        if isinstance(obj, dict) and obj.get("tab") != TAB_ID:
            if _is_int(obj.get("rev")):
                _state["rev"] = max(_state["rev"], obj["rev"])
            _lose_ownership()
    except Exception as error:
        _log("storage event not understood:", error)


def _on_channel(event):
    """Hello from a newly opened tab: answer it; an answer to our hello: say so."""
    try:
        data = json.loads(str(event.data))
        if data.get("tab") == TAB_ID:
            return
        if data.get("type") == "hello":
            _post({"type": "here", "tab": TAB_ID, "to": data.get("tab")})
        elif data.get("type") == "here" and data.get("to") == TAB_ID and not _state["other_open"]:
            _state["other_open"] = True
            if _state["owner"] and _read(KEY_GAME) is not None:
                _notice(OTHER_TAB_OPEN)
    except Exception as error:
        _log("tab message not understood:", error)


def _post(message):
    channel = _state["channel"]
    if channel is not None:
        _JS_STORAGE.post(channel, _dumps(message))


def watch_other_tabs(callback=None, on_take_back=None):
    """Watch for another tab playing the same game.

    ``callback(message)`` runs when another tab takes the game over (this tab then stops
    saving). A notice with a "Take the game back here" button appears in #store-notice (made
    above #game if the page has none); the button claims the latest saved game for this tab
    and then calls ``on_take_back(game_json)``, or reloads the page if that is None.
    """
    _state["callback"] = callback
    _state["on_take_back"] = on_take_back
    if _state["watching"]:
        return
    _state["watching"] = True
    handler = create_proxy(_on_storage)
    _proxies.append(handler)
    js.window.addEventListener("storage", handler)  # window.addEventListener via the proxy loses its "this"
    channel = _JS_STORAGE.channel(CHANNEL_NAME)
    if channel is not None:
        listener = create_proxy(_on_channel)
        _proxies.append(listener)
        channel.addEventListener("message", listener)
        _state["channel"] = channel
        _post({"type": "hello", "tab": TAB_ID})


def take_back():
    """Claim the game for this tab again: re-save the latest stored game under this tab's id.

    Returns the latest saved game's JSON text (or None if there is none any more).
    """
    envelope = _load_envelope()
    _state["owner"] = True
    for text in (OTHER_TAB_TOOK, OTHER_TAB_OPEN):
        if text in _notices:
            _notices.remove(text)
    _show_notices()
    if envelope is None:
        _state["rev"] = 0
        return None
    _state["rev"] = envelope["rev"]
    save_game(envelope["game"], envelope["meta"])
    return envelope["game"]


def _take_back_clicked(event):
    game_json = take_back()
    handler = _state["on_take_back"]
    if handler is None:
        window.location.reload()
        return None
    return handler(game_json)


def _notice_box():
    box = document.getElementById(NOTICE_ID)
    if box is not None:
        return box
    box = document.createElement("div")
    box.id = NOTICE_ID
    box.className = "store-notice"
    box.setAttribute("role", "status")
    anchor = document.getElementById("game") or document.querySelector("main") or document.body
    anchor.prepend(box)
    return box


def _show_notices():
    """Show the notices in #store-notice (text via DOM calls), with the take-back button when
    another tab has the game, and an OK button that dismisses them."""
    try:
        box = _notice_box()
        box.replaceChildren()
        if not _notices:
            box.hidden = True
            box.setAttribute("data-kind", "none")
            return
        for text in _notices:
            para = document.createElement("p")
            para.textContent = text
            box.append(para)
        if not _state["owner"]:
            button = document.createElement("button")
            button.type = "button"
            button.className = "button store-take-back"
            button.textContent = TAKE_BACK_LABEL
            box.append(button)
            bridge.on(button, "click", _take_back_clicked)
            box.setAttribute("data-kind", "other-tab")
        else:
            button = document.createElement("button")
            button.type = "button"
            button.className = "button store-dismiss"
            button.textContent = "OK"
            box.append(button)
            bridge.on(button, "click", lambda event: clear_notices())
            box.setAttribute("data-kind", "info")
        box.hidden = False
    except Exception as error:
        _log("notice not shown:", error)
