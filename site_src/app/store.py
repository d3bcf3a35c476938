"""The device's memory for the game page: localStorage under versioned keys, never trusted.

Runs in MicroPython on the main thread (keep to the subset). Keys, each holding JSON:

- ``cribbage.game.v1``: the game in progress, ``{"v": 1, "game": <the engine's saved record>,
  "meta": {...}, "tab": <id of the tab that saved it>, "rev": <save counter>, "time"}``;
- ``cribbage.practice.v1``: the same for a practice game (a ``?seed=`` link), so a practice
  link never touches the game in progress;
- ``cribbage.stats.v1``: the statistics record of engine/stats.py, checked by the engine;
- ``cribbage.settings.v1``: ``{"v": 1, "difficulty", "target", "muggins", "speed"}``.

Nothing read from storage is trusted, and nothing stored can stop the page. A value is measured
before it reaches Python (``MAX_VALUE`` characters at most): a longer one, or one that cannot be
read (not JSON, the wrong shape or version, a game the engine refuses, statistics it cannot
mend), is moved aside under the same key plus ``.backup`` (replacing an older backup) and
``notices()`` gets a sentence for the player, shown in #store-notice with an OK button; the page
carries on with a fresh value. When storage itself is unavailable (blocked, private mode, full)
every function still works, saving nothing, and one notice says so. No function here raises.

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
from pyscript import document, window
from pyscript.ffi import create_proxy

import bridge

KEY_GAME = "cribbage.game.v1"
KEY_PRACTICE = "cribbage.practice.v1"
KEY_STATS = "cribbage.stats.v1"
KEY_SETTINGS = "cribbage.settings.v1"
GAME_KEYS = (KEY_GAME, KEY_PRACTICE)
BACKUP_SUFFIX = ".backup"
MAX_VALUE = 256 * 1024  # characters; a real saved game is a few kB
CHANNEL_NAME = "cribbage.tabs.v1"
GAME_VERSION = 1
SETTINGS_VERSION = 1

TARGETS = (121, 61)
SPEEDS = ("slow", "normal", "fast")
DEFAULT_SETTINGS = {"difficulty": "easy", "target": 121, "muggins": False, "speed": "normal"}

NOTICE_ID = "store-notice"

UNAVAILABLE = ("This browser is not letting the site store anything (private browsing or full "
               "storage), so your game and statistics will not be kept after you leave the page.")
SAVE_FAILED = ("Your game could not be saved on this device (storage is full or blocked). "
               "You can keep playing, but it will not be kept after you leave the page.")
KEPT_ASIDE = " It is kept aside on this device, so nothing is lost."
GAME_RESET = "Your saved game could not be read." + KEPT_ASIDE
PRACTICE_RESET = "Your saved practice game could not be read, so it was dealt again." + KEPT_ASIDE
SETTINGS_RESET = "Your saved settings could not be read, so the defaults are back." + KEPT_ASIDE
SETTING_RESET = "One of your saved settings could not be read, so it is back to its default."
TOO_BIG = ("Something stored by this site was far too large to be a saved game, settings or "
           "statistics, so it was set aside and the page carried on.")
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
    """Messages for the player about storage (values set aside, unavailable storage, other tabs)."""
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
# functions, which catch the exception and answer null or false instead. They also keep a
# value's size in JavaScript: a string is copied whole into MicroPython's memory when it crosses
# over, so one that is too large is moved aside there and never crosses.

_JS_STORAGE = js.Function.new("""
  const warn = (what, key, error) => console.warn("localStorage " + what + " failed:", key,
                                                 error && error.name);
  const storage = () => window.localStorage;
  return {
    probe() {
      try {
        const key = "cribbage.probe";
        storage().setItem(key, "1");
        storage().removeItem(key);
        return true;
      } catch (error) { warn("probe", "", error); return false; }
    },
    get(key, limit) {
      // The text under key; null if none; its length (a number) if it was longer than limit,
      // in which case it has been moved to key + ".backup" (or, if even that fails, left).
      try {
        const value = storage().getItem(key);
        if (value === null) return null;
        if (value.length <= limit) return String(value);
        try { storage().setItem(key + ".backup", value); storage().removeItem(key); }
        catch (error) { warn("move aside", key, error); }
        return value.length;
      } catch (error) { warn("read", key, error); return null; }
    },
    set(key, value) {
      try { storage().setItem(key, value); return true; }
      catch (error) { warn("write", key, error); return false; }
    },
    remove(key) {
      try { storage().removeItem(key); return true; }
      catch (error) { warn("remove", key, error); return false; }
    },
    saver(event, key) {
      // For a storage event on key: [tab, rev] of the game another tab saved, "" if the key was
      // cleared, null for any other change (read here: the value never crosses).
      try {
        if (event.key !== key) return null;
        if (event.newValue === null) return "";
        const saved = JSON.parse(event.newValue);
        return [String(saved.tab), Number.isInteger(saved.rev) ? saved.rev : 0];
      } catch (error) { return null; }
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


def _is_int(value):
    return type(value) is int


def _read(key):
    """The text stored under key, or None (absent, unavailable, unreadable or set aside)."""
    if not is_available():
        return None
    value = _JS_STORAGE.get(key, MAX_VALUE)
    if _is_int(value):
        _log("localStorage value set aside (too large):", key, value)
        _notice(TOO_BIG)
        return None
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


def keep_aside(key, text, notice):
    """Move a value that cannot be used under its backup key (replacing an older backup), say so."""
    if _write(key + BACKUP_SUFFIX, text):
        _remove(key)
    _notice(notice)


def _read_json(key, notice):
    """(text, parsed JSON) under key; (None, None) if absent; unreadable text is set aside."""
    text = _read(key)
    if text is None:
        return None, None
    try:
        return text, json.loads(text)
    except Exception:
        keep_aside(key, text, notice)
        return None, None


def _dumps(value):
    return json.dumps(value)


# --- the saved games -------------------------------------------------------------------------


def _game_key(practice):
    return KEY_PRACTICE if practice else KEY_GAME


def _valid_envelope(obj):
    """True if obj has the shape of a saved-game envelope (the engine checks the game itself)."""
    return (isinstance(obj, dict) and obj.get("v") == GAME_VERSION and _is_text(obj.get("game"))
            and isinstance(obj.get("meta"), dict) and _is_text(obj.get("tab")) and _is_int(obj.get("rev")))


def _load_envelope(practice=False):
    """The saved-game envelope, or None; an unreadable one is set aside with a notice."""
    key = _game_key(practice)
    notice = PRACTICE_RESET if practice else GAME_RESET
    text, obj = _read_json(key, notice)
    if obj is None:
        return None
    if not _valid_envelope(obj):
        keep_aside(key, text, notice)
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
    if not _is_text(game_json):
        _log("save_game needs the game's JSON text")
        return False
    if practice:
        envelope = {"v": GAME_VERSION, "game": game_json, "meta": dict(meta or {}), "tab": TAB_ID,
                    "rev": 0, "time": int(js.Date.now())}
        return _write(KEY_PRACTICE, _dumps(envelope))
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
    if not _write(KEY_GAME, _dumps(envelope)):
        return False
    _state["rev"] = rev
    return True


def clear_game(practice=False):
    """Forget a saved game (a finished or abandoned one); only the owning tab may, for the game."""
    if practice:
        _remove(KEY_PRACTICE)
    elif _state["owner"]:
        _remove(KEY_GAME)
        _state["rev"] = 0


def reject_game(message, practice=False):
    """Set aside a saved game the engine refused to resume, with a notice for the player."""
    key = _game_key(practice)
    text = _read(key)
    if text is not None:
        keep_aside(key, text, message + KEPT_ASIDE)
    else:
        _notice(message)
    if not practice:
        _state["rev"] = 0


# --- settings --------------------------------------------------------------------------------


def _valid_setting(key, value):
    """True if value is allowed for setting key (a level is any short lowercase name: the setup
    form offers the engine's levels and falls back to the first if a stored one is gone)."""
    if key == "difficulty":
        return _is_text(value) and 0 < len(value) <= 20 and value.isalpha() and value.lower() == value
    if key == "target":
        return _is_int(value) and value in TARGETS
    if key == "muggins":
        return isinstance(value, bool)
    if key == "speed":
        return value in SPEEDS
    return False


def load_settings():
    """The player's settings (difficulty, target, muggins, speed); defaults where none are saved.

    A stored value that is not valid takes its default (the rest are kept), with a notice; a
    record that is not settings at all is set aside with a notice.
    """
    settings = dict(DEFAULT_SETTINGS)
    text, obj = _read_json(KEY_SETTINGS, SETTINGS_RESET)
    if obj is None:
        return settings
    if not isinstance(obj, dict) or obj.get("v") != SETTINGS_VERSION:
        keep_aside(KEY_SETTINGS, text, SETTINGS_RESET)
        return settings
    for key in DEFAULT_SETTINGS:
        if _valid_setting(key, obj.get(key)):
            settings[key] = obj[key]
        elif key in obj:
            _notice(SETTING_RESET)
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


# --- statistics (the record is engine/stats.py's: the engine checks and makes it) -------------


def save_stats(stats):
    """Store a statistics record (one the engine produced); returns True if stored."""
    return _write(KEY_STATS, _dumps(stats))


async def verify_stats():
    """The saved statistics as the engine reads them: checked, mended where that is safe, or,
    when they are no record at all, set aside (with a notice) and started afresh."""
    text = _read(KEY_STATS)
    reply = await bridge.call("stats_check", {"stats_text": text})
    if reply.get("kept_aside") and text is not None:
        _log("statistics set aside:", reply.get("problem"))
        keep_aside(KEY_STATS, text, reply["notice"])
        save_stats(reply["stats"])
    elif reply.get("notice"):
        _log("statistics mended:", "; ".join(reply.get("mended") or []))
        _notice(reply["notice"])
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
    if not _state["owner"] or not _is_text(game):
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
        saver = _JS_STORAGE.saver(event, KEY_GAME)
        if saver is None or saver == "":
            return  # not the game, or the game was cleared elsewhere: nothing to take over
        tab, rev = str(saver[0]), int(saver[1])
        if tab != TAB_ID:
            _state["rev"] = max(_state["rev"], rev)
            _lose_ownership()
    except Exception as error:
        _log("storage event not understood:", error)


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
