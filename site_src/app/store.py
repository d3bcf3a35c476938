"""The device's memory for the game page: localStorage under versioned keys, never trusted.

Runs in MicroPython on the main thread (keep to the subset). Keys, each holding JSON:

- ``cribbage.game.v1``: the game in progress, ``{"v": 1, "game": <the engine's saved record>,
  "meta": {...}, "tab": <id of the tab that saved it>, "rev": <save counter>, "time"}``;
- ``cribbage.practice.v1``: the same for a practice game (a ``?seed=`` link), so a practice
  link never touches the game in progress;
- ``cribbage.stats.v1``: the statistics record of engine/stats.py, checked by the engine;
- ``cribbage.settings.v1``: ``{"v": 1, "difficulty", "target", "muggins", "speed", "go", "hints"}``.

Nothing read from storage is trusted, and nothing stored can stop the page. storage.py measures
a value before it reaches Python (``storage.MAX_VALUE`` characters at most); a longer one, or
one that cannot be read (not JSON, the wrong shape or version, a game the engine refuses,
statistics it cannot mend), is moved aside under the same key plus ``.backup`` (replacing an
older backup) with a notice for the player (``storage.notices()``); the page carries on with a
fresh value. When storage itself is unavailable every function still works, saving nothing.
No function here raises.

Two tabs on one game: every save carries this tab's id. When another tab saves a game (the
``storage`` event) this tab stops saving, calls the ``watch_other_tabs`` callback and shows a
notice with a button to take the game back. A BroadcastChannel also tells a newly opened tab
that another one already has the game open.

    import store
    text = store.load_game()                       # None, or the saved game's JSON text
    store.save_game(game_json, {"recorded": False})
    stats = await store.verify_stats()             # the engine's checked (or mended) record
    stats = await store.record_game(game_json)
"""

import json

import js
from pyscript import window
from pyscript.ffi import create_proxy

import bridge
import storage

KEY_GAME = "cribbage.game.v1"
KEY_PRACTICE = "cribbage.practice.v1"
KEY_STATS = "cribbage.stats.v1"
KEY_SETTINGS = "cribbage.settings.v1"
CHANNEL_NAME = "cribbage.tabs.v1"
GAME_VERSION = 1
SETTINGS_VERSION = 1

TARGETS = (121, 61)
SPEEDS = ("slow", "normal", "fast")
GO_CHOICES = ("auto", "hand")  # a go with no card to lay: said by itself, or the person presses Go
DEFAULT_SETTINGS = {"difficulty": "easy", "target": 121, "muggins": False, "speed": "normal", "go": "auto",
                    "hints": False}

KEPT_ASIDE = storage.KEPT_ASIDE
GAME_RESET = "Your saved game could not be read." + KEPT_ASIDE
PRACTICE_RESET = "Your saved practice game could not be read, so it was dealt again." + KEPT_ASIDE
SETTINGS_RESET = "Your saved settings could not be read, so the defaults are back." + KEPT_ASIDE
SETTING_RESET = "One of your saved settings could not be read, so it is back to its default."
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
    "owner": True,        # may this tab save the game?
    "rev": 0,             # the save counter of the game this tab last read or wrote
    "watching": False,
    "callback": None,
    "on_take_back": None,
    "channel": None,
    "other_open": False,
}
_proxies = []  # keeps event-handler proxies alive for the page's lifetime


# --- the saved games -------------------------------------------------------------------------


def _game_key(practice):
    return KEY_PRACTICE if practice else KEY_GAME


def _valid_envelope(obj):
    """True if obj has the shape of a saved-game envelope (the engine checks the game itself)."""
    return (isinstance(obj, dict) and obj.get("v") == GAME_VERSION and storage.is_text(obj.get("game"))
            and isinstance(obj.get("meta"), dict) and storage.is_text(obj.get("tab")) and storage.is_int(obj.get("rev")))


def _load_envelope(practice=False):
    """The saved-game envelope, or None; an unreadable one is set aside with a notice."""
    key = _game_key(practice)
    notice = PRACTICE_RESET if practice else GAME_RESET
    text, obj = storage.read_json(key, notice)
    if obj is None:
        return None
    if not _valid_envelope(obj):
        storage.keep_aside(key, text, notice)
        return None
    return obj


def load_game(practice=False):
    """The saved game's JSON text (the engine's record), or None if there is none."""
    envelope = _load_envelope(practice)
    if envelope is None:
        return None
    if not practice:
        _state["rev"] = envelope["rev"]
    return envelope["game"]


def load_game_meta(practice=False):
    """The meta dict saved with the game (the page's own notes, such as "recorded"), or None."""
    envelope = _load_envelope(practice)
    return None if envelope is None else envelope["meta"]


def save_game(game_json, meta=None, practice=False):
    """Save the game (JSON text) with its meta dict, in the practice slot or the game's.

    Returns True if saved. The game in progress is saved only by the tab that owns it: nothing
    is saved once another tab has taken it over, until ``take_back``.
    """
    if not storage.is_text(game_json):
        storage.log("save_game needs the game's JSON text")
        return False
    if practice:
        envelope = {"v": GAME_VERSION, "game": game_json, "meta": dict(meta or {}), "tab": TAB_ID,
                    "rev": 0, "time": int(js.Date.now())}
        return storage.write(KEY_PRACTICE, storage.dumps(envelope))
    if not _state["owner"]:
        return False
    current = _load_envelope()
    if current is not None and current["tab"] != TAB_ID and current["rev"] > _state["rev"]:
        # Another tab saved since this one last read or wrote: it has the game now.
        _lose_ownership()
        return False
    rev = max(_state["rev"], current["rev"] if current is not None else 0) + 1
    envelope = {"v": GAME_VERSION, "game": game_json, "meta": dict(meta or {}), "tab": TAB_ID,
                "rev": rev, "time": int(js.Date.now())}
    if not storage.write(KEY_GAME, storage.dumps(envelope)):
        return False
    _state["rev"] = rev
    return True


def clear_game(practice=False):
    """Forget a saved game (a finished or abandoned one); only the owning tab may, for the game."""
    if practice:
        storage.remove(KEY_PRACTICE)
    elif _state["owner"]:
        storage.remove(KEY_GAME)
        _state["rev"] = 0


def reject_game(message, practice=False):
    """Set aside a saved game the engine refused to resume, with a notice for the player."""
    key = _game_key(practice)
    text = storage.read(key)
    if text is not None:
        storage.keep_aside(key, text, message + KEPT_ASIDE)
    else:
        storage.notice(message)
    if not practice:
        _state["rev"] = 0


# --- settings --------------------------------------------------------------------------------


def _valid_setting(key, value):
    """True if value is allowed for setting key (a level is any short lowercase name: the setup
    form offers the engine's levels and falls back to the first if a stored one is gone)."""
    if key == "difficulty":
        return storage.is_text(value) and 0 < len(value) <= 20 and value.isalpha() and value.lower() == value
    if key == "target":
        return storage.is_int(value) and value in TARGETS
    if key in ("muggins", "hints"):
        return isinstance(value, bool)
    if key == "speed":
        return value in SPEEDS
    if key == "go":
        return value in GO_CHOICES
    return False


def load_settings():
    """The player's settings (difficulty, target, muggins, speed, hints); defaults where none are saved.

    A stored value that is not valid takes its default (the rest are kept), with a notice; a
    record that is not settings at all is set aside with a notice.
    """
    settings = dict(DEFAULT_SETTINGS)
    text, obj = storage.read_json(KEY_SETTINGS, SETTINGS_RESET)
    if obj is None:
        return settings
    if not isinstance(obj, dict) or obj.get("v") != SETTINGS_VERSION:
        storage.keep_aside(KEY_SETTINGS, text, SETTINGS_RESET)
        return settings
    for key in DEFAULT_SETTINGS:
        if _valid_setting(key, obj.get(key)):
            settings[key] = obj[key]
        elif key in obj:
            storage.notice(SETTING_RESET)
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
    storage.write(KEY_SETTINGS, storage.dumps(record))
    return clean


# --- statistics (the record is engine/stats.py's: the engine checks and makes it) -------------


def save_stats(stats):
    """Store a statistics record (one the engine produced); returns True if stored."""
    return storage.write(KEY_STATS, storage.dumps(stats))


async def verify_stats():
    """The saved statistics as the engine reads them: checked, mended where that is safe, or,
    when they are no record at all, set aside (with a notice) and started afresh."""
    text = storage.read(KEY_STATS)
    reply = await bridge.call("stats_check", {"stats_text": text})
    if reply.get("kept_aside") and text is not None:
        storage.log("statistics set aside:", reply.get("problem"))
        storage.keep_aside(KEY_STATS, text, reply["notice"])
        save_stats(reply["stats"])
    elif reply.get("notice"):
        storage.log("statistics mended:", "; ".join(reply.get("mended") or []))
        storage.notice(reply["notice"])
        save_stats(reply["stats"])
    return reply["stats"]


async def reset_stats():
    """Forget every statistic (the player asked); returns the fresh record."""
    reply = await bridge.call("stats_check", {"stats_text": None})
    save_stats(reply["stats"])
    return reply["stats"]


async def record_game(game):
    """Add a finished game (its JSON text) to the statistics through the engine; returns them.

    A game already recorded (the same game) is not counted twice; games this tab does not own
    are not recorded (the statistics come back unchanged).
    """
    current = await verify_stats()
    if not _state["owner"] or not storage.is_text(game):
        return current
    reply = await bridge.call("stats_record", {"stats": current, "game": game})
    save_stats(reply["stats"])
    return reply["stats"]


# --- two tabs --------------------------------------------------------------------------------


def is_owner():
    """True while this tab may save the game (no other tab has taken it over)."""
    return _state["owner"]


def _lose_ownership():
    if not _state["owner"]:
        return
    _state["owner"] = False
    storage.notice(OTHER_TAB_TOOK)
    storage.set_action(TAKE_BACK_LABEL, _take_back_clicked)
    callback = _state["callback"]
    if callback is not None:
        try:
            callback(OTHER_TAB_TOOK)
        except Exception as error:
            storage.log("other-tab callback failed:", error)


def _on_storage(event):
    """Another tab changed localStorage: if it saved the game, it owns the game now."""
    try:
        saver = storage.JS.saver(event, KEY_GAME)
        if saver is None or saver == "":
            return  # not the game, or the game was cleared elsewhere: nothing to take over
        tab, rev = str(saver[0]), int(saver[1])
        if tab != TAB_ID:
            _state["rev"] = max(_state["rev"], rev)
            _lose_ownership()
    except Exception as error:
        storage.log("storage event not understood:", error)


def _on_channel(event):
    """Hello from a newly opened tab: answer it; an answer to our hello: say so."""
    try:
        data = json.loads(str(event.data)[:200])
        if data.get("tab") == TAB_ID:
            return
        if data.get("type") == "hello":
            _post({"type": "here", "tab": TAB_ID, "to": data.get("tab")})
        elif data.get("type") == "here" and data.get("to") == TAB_ID and not _state["other_open"]:
            _state["other_open"] = True
            if _state["owner"] and storage.read(KEY_GAME) is not None:
                storage.notice(OTHER_TAB_OPEN)
    except Exception as error:
        storage.log("tab message not understood:", error)


def _post(message):
    channel = _state["channel"]
    if channel is not None:
        storage.JS.post(channel, storage.dumps(message))


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
    channel = storage.JS.channel(CHANNEL_NAME)
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
    storage.set_action()
    storage.withdraw(OTHER_TAB_TOOK, OTHER_TAB_OPEN)
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
