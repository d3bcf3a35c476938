"""The device's memory for the game page: localStorage under versioned keys, never trusted.

Runs in MicroPython on the main thread (keep to the subset). Keys, each holding JSON:

- a slot for each kind of game (``game_key(kind)``), holding ``{"v": 1, "game": <the engine's
  saved record>, "meta": {...}, "tab": <id of the tab that saved it>, "rev": <save counter>,
  "time"}``: ``cribbage.game.v1`` the ordinary game, ``cribbage.practice.v1`` a practice link's
  game (``?seed=``), ``cribbage.daily-game.DAY.v1`` the deal of the day of DAY (YYYY-MM-DD), one
  slot for each day. A kind of game never touches another's slot; a deal of the day saved in
  the practice slot by an older version moves to its day's slot (``move_old_saves``);
- ``cribbage.stats.v1``: the statistics record of engine/stats.py, checked by the engine;
- ``cribbage.settings.v1``: ``{"v": 1, "difficulty", "target", "muggins", "speed", "go", "lay", "hints",
  "friend_name"}``.

Nothing read from storage is trusted, and nothing stored can stop the page. local_storage.py measures
a value before it reaches Python (``local_storage.MAX_VALUE`` characters at most); a longer one, or
one that cannot be read (not JSON, the wrong shape or version, a game the engine refuses,
statistics it cannot mend), is moved aside under the same key plus ``.backup`` (replacing an
older backup) with a notice for the player (``local_storage.notices()``); the page carries on with a
fresh value. When storage itself is unavailable every function still works, saving nothing.
No function here raises.

Two tabs on one game: a tab plays in one slot at a time (``play_in``), and every save carries
this tab's id. When another tab saves a game in that slot (the ``storage`` event) this tab stops
saving, calls the ``watch_other_tabs`` callback and shows a notice with a button to take the
game back. A BroadcastChannel also tells a newly opened tab that another one already has the
game open.

    from table import store
    text = store.load_game(store.PRACTICE)         # None, or the saved game's JSON text
    store.play_in(store.PRACTICE)                  # this tab plays the practice slot's game
    store.save_game(game_json, {"recorded": False}, store.PRACTICE)
    stats = await store.verify_stats()             # the engine's checked (or mended) record
    stats = await store.record_game(game_json)
"""

import json

import js
from dom import create_proxy, window

import bridge
import local_storage

GAME, PRACTICE, DAILY = "game", "practice", "daily"  # kinds of game; a day's is "daily:YYYY-MM-DD"
KEY_GAME = "cribbage.game.v1"
KEY_PRACTICE = "cribbage.practice.v1"
KEY_DAILY_GAME = "cribbage.daily-game."  # + the day + ".v1"
GAME_KEYS = {GAME: KEY_GAME, PRACTICE: KEY_PRACTICE}
DAILY_PREFIX = "cribbage-daily:"  # a deal of the day's seed: this and its day (engine/daily.py SEED_PREFIX)
KEY_STATS = "cribbage.stats.v1"
KEY_SETTINGS = "cribbage.settings.v1"
CHANNEL_NAME = "cribbage.tabs.v1"
GAME_VERSION = 1
SETTINGS_VERSION = 1

TARGETS = (121, 61)
SPEEDS = ("slow", "normal", "fast")
TEST_PACE = "test"
"""A pace no player can choose, set in the stored settings by browser tests that check a game and
not its pace: no beat between the computer's or the friend's moves, no pause on a go said."""
GO_CHOICES = ("auto", "hand")  # a go with no card to lay: said by itself, or the person presses Go
LAY_CHOICES = ("click", "confirm")  # a mouse lays a card with one click, or raises it first (touch always does)
NAME_MAX = 20
DEFAULT_SETTINGS = {"difficulty": "easy", "target": 121, "muggins": False, "speed": "normal", "go": "auto",
                    "lay": "click", "hints": False, "friend_name": ""}

KEPT_ASIDE = local_storage.KEPT_ASIDE
GAME_RESET = "Your saved game could not be read." + KEPT_ASIDE
PRACTICE_RESET = "Your saved practice game could not be read, so it was dealt again." + KEPT_ASIDE
DAILY_RESET = "Your saved deal of the day could not be read, so it was dealt again." + KEPT_ASIDE
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
    "kind": GAME,         # the slot of the game this tab plays (play_in)
    "playing": False,     # has this tab chosen its slot yet?
    "others": [],         # the kinds other tabs said they play (their answers on the channel)
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


def game_key(kind):
    """The localStorage key of a kind of game's slot: GAME and PRACTICE have one each; any other
    kind is "name:id" for a kind with several games at once (a deal of the day is
    "daily:YYYY-MM-DD"), each in a slot of its own, "cribbage.name.id.v1"."""
    key = GAME_KEYS.get(kind)
    if key is not None:
        return key
    name, _, ident = str(kind).partition(":")
    if name == DAILY:
        return KEY_DAILY_GAME + ident + ".v1"
    return "cribbage." + name + "." + ident + ".v1" if ident else "cribbage." + name + ".v1"


def daily_kind(day):
    """The kind of game of the deal of the day of ``day`` (YYYY-MM-DD)."""
    return DAILY + ":" + day


def is_day_kind(kind):
    """True for the kind of a day's deal of the day."""
    return local_storage.is_text(kind) and kind.startswith(DAILY + ":")


def is_day(text):
    """True for text shaped YYYY-MM-DD (the engine checks the calendar)."""
    return (local_storage.is_text(text) and len(text) == 10 and text[4] == "-" and text[7] == "-"
            and (text[:4] + text[5:7] + text[8:]).isdigit())


def link_kind(seed):
    """The kind of game a ``?seed=`` link plays: a day's deal of the day, or practice."""
    if local_storage.is_text(seed) and seed.startswith(DAILY_PREFIX) and is_day(seed[len(DAILY_PREFIX):]):
        return daily_kind(seed[len(DAILY_PREFIX):])
    return PRACTICE


def _reset_notice(kind):
    if kind == GAME:
        return GAME_RESET
    return DAILY_RESET if is_day_kind(kind) else PRACTICE_RESET


def _valid_envelope(obj):
    """True if obj has the shape of a saved-game envelope (the engine checks the game itself)."""
    return (isinstance(obj, dict) and obj.get("v") == GAME_VERSION and local_storage.is_text(obj.get("game"))
            and isinstance(obj.get("meta"), dict) and local_storage.is_text(obj.get("tab")) and local_storage.is_int(obj.get("rev")))


def _load_envelope(kind=GAME):
    """The saved-game envelope in kind's slot, or None; an unreadable one is set aside with a notice."""
    key = game_key(kind)
    notice = _reset_notice(kind)
    text, obj = local_storage.read_json(key, notice)
    if obj is None:
        return None
    if not _valid_envelope(obj):
        local_storage.keep_aside(key, text, notice)
        return None
    return obj


def load_game(kind=GAME):
    """The JSON text of the game saved in kind's slot (the engine's record), or None."""
    envelope = _load_envelope(kind)
    if envelope is None:
        return None
    if kind == _state["kind"]:
        _state["rev"] = envelope["rev"]
    return envelope["game"]


def load_game_meta(kind=GAME):
    """The meta dict saved with kind's game (the page's own notes, such as "recorded"), or None."""
    envelope = _load_envelope(kind)
    return None if envelope is None else envelope["meta"]


def is_unfinished(kind=GAME):
    """True if kind's slot holds a game that is not over (the page notes "over" in its meta)."""
    meta = load_game_meta(kind)
    return meta is not None and not meta.get("over")


def play_in(kind):
    """This tab now plays the game in kind's slot: it may save there (taking the slot from a tab
    that played it before), and watches for another tab saving there."""
    if _state["kind"] != kind or not _state["owner"]:
        local_storage.set_action()
        local_storage.withdraw(OTHER_TAB_TOOK, OTHER_TAB_OPEN)
    _state["kind"] = kind
    _state["playing"] = True
    _state["owner"] = True
    envelope = _load_envelope(kind)
    _state["rev"] = envelope["rev"] if envelope is not None else 0
    _post({"type": "playing", "tab": TAB_ID, "kind": kind})
    if kind in _state["others"] and envelope is not None:
        local_storage.notice(OTHER_TAB_OPEN)


def playing():
    """The kind of game this tab plays (see ``play_in``)."""
    return _state["kind"]


def move_old_saves():
    """A deal of the day saved in the practice slot (where versions before the day's own slot
    kept it) moves to its day's slot, unless that slot holds a game already. Never raises."""
    text = local_storage.read(KEY_PRACTICE)
    if text is None:
        return
    try:
        envelope = json.loads(text)
        seed = envelope["meta"].get("practice_seed") if _valid_envelope(envelope) else None
    except Exception:
        return  # read_json sets an unreadable value aside when the practice slot is loaded
    kind = link_kind(seed)
    if kind == PRACTICE or local_storage.read(game_key(kind)) is not None:
        return
    if not is_day(envelope["meta"].get("started")) and local_storage.is_int(envelope.get("time")) and envelope["time"] > 0:
        envelope["meta"]["started"] = _day_of_time(envelope["time"])  # its last save: the best known
        text = local_storage.dumps(envelope)
    if local_storage.write(game_key(kind), text):
        local_storage.remove(KEY_PRACTICE)


def _day_of_time(ms):
    """The day (YYYY-MM-DD) on this device's calendar of a time in milliseconds."""
    when = js.Date.new(float(ms))  # a float: a large int does not cross to JavaScript whole
    return "%04d-%02d-%02d" % (int(when.getFullYear()), int(when.getMonth()) + 1, int(when.getDate()))


def save_game(game_json, meta=None, kind=GAME):
    """Save the game (JSON text) with its meta dict in kind's slot.

    Returns True if saved. A game is saved only by the tab that plays it: nothing is saved once
    another tab has taken it over, until ``take_back``.
    """
    if not local_storage.is_text(game_json):
        local_storage.log("save_game needs the game's JSON text")
        return False
    if kind != _state["kind"] or not _state["playing"]:
        play_in(kind)
    if not _state["owner"]:
        return False
    current = _load_envelope(kind)
    if current is not None and current["tab"] != TAB_ID and current["rev"] > _state["rev"]:
        # Another tab saved since this one last read or wrote: it has the game now.
        _lose_ownership()
        return False
    rev = max(_state["rev"], current["rev"] if current is not None else 0) + 1
    envelope = {"v": GAME_VERSION, "game": game_json, "meta": dict(meta or {}), "tab": TAB_ID,
                "rev": rev, "time": int(js.Date.now())}
    if not local_storage.write(game_key(kind), local_storage.dumps(envelope)):
        return False
    _state["rev"] = rev
    return True


def reject_game(message, kind=GAME):
    """Set aside a saved game the engine refused to resume, with a notice for the player."""
    key = game_key(kind)
    text = local_storage.read(key)
    if text is not None:
        local_storage.keep_aside(key, text, message + KEPT_ASIDE)
    else:
        local_storage.notice(message)
    if kind == _state["kind"]:
        _state["rev"] = 0


# --- settings --------------------------------------------------------------------------------


def _valid_setting(key, value):
    """True if value is allowed for setting key (a level is any short lowercase name: the setup
    form offers the engine's levels and falls back to the first if a stored one is gone)."""
    if key == "difficulty":
        return local_storage.is_text(value) and 0 < len(value) <= 20 and value.isalpha() and value.lower() == value
    if key == "target":
        return local_storage.is_int(value) and value in TARGETS
    if key in ("muggins", "hints"):
        return isinstance(value, bool)
    if key == "speed":
        return value in SPEEDS or value == TEST_PACE
    if key == "go":
        return value in GO_CHOICES
    if key == "lay":
        return value in LAY_CHOICES
    if key == "friend_name":
        return local_storage.is_text(value) and len(value) <= NAME_MAX
    return False


def load_settings():
    """The player's settings (difficulty, target, muggins, speed, hints); defaults where none are saved.

    A stored value that is not valid takes its default (the rest are kept), with a notice; a
    record that is not settings at all is set aside with a notice.
    """
    settings = dict(DEFAULT_SETTINGS)
    text, obj = local_storage.read_json(KEY_SETTINGS, SETTINGS_RESET)
    if obj is None:
        return settings
    if not isinstance(obj, dict) or obj.get("v") != SETTINGS_VERSION:
        local_storage.keep_aside(KEY_SETTINGS, text, SETTINGS_RESET)
        return settings
    for key in DEFAULT_SETTINGS:
        if _valid_setting(key, obj.get(key)):
            settings[key] = obj[key]
        elif key in obj:
            local_storage.notice(SETTING_RESET)
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
    local_storage.write(KEY_SETTINGS, local_storage.dumps(record))
    return clean


# --- statistics (the record is engine/stats.py's: the engine checks and makes it) -------------


def save_stats(stats):
    """Store a statistics record (one the engine produced); returns True if stored."""
    return local_storage.write(KEY_STATS, local_storage.dumps(stats))


async def verify_stats():
    """The saved statistics as the engine reads them: checked, mended where that is safe, or,
    when they are no record at all, set aside (with a notice) and started afresh."""
    text = local_storage.read(KEY_STATS)
    reply = await bridge.call("stats_check", {"stats_text": text})
    if reply.get("kept_aside") and text is not None:
        local_storage.log("statistics set aside:", reply.get("problem"))
        local_storage.keep_aside(KEY_STATS, text, reply["notice"])
        save_stats(reply["stats"])
    elif reply.get("notice"):
        local_storage.log("statistics mended:", "; ".join(reply.get("mended") or []))
        local_storage.notice(reply["notice"])
        save_stats(reply["stats"])
    return reply["stats"]


async def reset_stats():
    """Forget every statistic (the player asked); returns the fresh record."""
    reply = await bridge.call("stats_check", {"stats_text": None})
    save_stats(reply["stats"])
    return reply["stats"]


async def record_game(game, seat=0, difficulty=None):
    """Add a finished game (its JSON text) to the statistics through the engine; returns them.

    ``seat`` is the player's; ``difficulty`` is "friend" for a game against a friend (counted
    apart), else None (the level the computer played). A game already recorded (the same game)
    is not counted twice; games this tab does not own are not recorded (the statistics come
    back unchanged).
    """
    current = await verify_stats()
    if not _state["owner"] or not local_storage.is_text(game):
        return current
    reply = await bridge.call("stats_record", {"stats": current, "game": game, "seat": seat,
                                               "difficulty": difficulty})
    save_stats(reply["stats"])
    return reply["stats"]


# --- two tabs --------------------------------------------------------------------------------


def _lose_ownership():
    if not _state["owner"]:
        return
    _state["owner"] = False
    local_storage.notice(OTHER_TAB_TOOK)
    local_storage.set_action(TAKE_BACK_LABEL, _take_back_clicked)
    callback = _state["callback"]
    if callback is not None:
        try:
            callback(OTHER_TAB_TOOK)
        except Exception as error:
            local_storage.log("other-tab callback failed:", error)


def _on_storage(event):
    """Another tab changed localStorage: if it saved this tab's game, it owns the game now."""
    try:
        saver = local_storage.JS.saver(event, game_key(_state["kind"]))
        if saver is None or saver == "":
            return  # not the game, or the game was cleared elsewhere: nothing to take over
        tab, rev = str(saver[0]), int(saver[1])
        if tab != TAB_ID:
            _state["rev"] = max(_state["rev"], rev)
            _lose_ownership()
    except Exception as error:
        local_storage.log("storage event not understood:", error)


def _on_channel(event):
    """Hello from a newly opened tab: answer it; an answer to our hello: say so."""
    try:
        data = json.loads(str(event.data)[:200])
        if data.get("tab") == TAB_ID:
            return
        kind = data.get("kind")
        if data.get("type") == "hello":
            _post({"type": "here", "tab": TAB_ID, "to": data.get("tab"),
                   "kind": _state["kind"] if _state["playing"] else None})
        elif data.get("type") in ("here", "playing") and local_storage.is_text(kind) and len(kind) <= 80:
            if kind not in _state["others"]:
                _state["others"].append(kind)
            if (data.get("type") == "here" and data.get("to") == TAB_ID and not _state["other_open"]
                    and _state["playing"] and kind == _state["kind"]):
                _state["other_open"] = True
                if _state["owner"] and local_storage.read(game_key(kind)) is not None:
                    local_storage.notice(OTHER_TAB_OPEN)
    except Exception as error:
        local_storage.log("tab message not understood:", error)


def _post(message):
    channel = _state["channel"]
    if channel is not None:
        local_storage.JS.post(channel, local_storage.dumps(message))


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
    channel = local_storage.JS.channel(CHANNEL_NAME)
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
    envelope = _load_envelope(_state["kind"])
    _state["owner"] = True
    local_storage.set_action()
    local_storage.withdraw(OTHER_TAB_TOOK, OTHER_TAB_OPEN)
    if envelope is None:
        _state["rev"] = 0
        return None
    _state["rev"] = envelope["rev"]
    save_game(envelope["game"], envelope["meta"], _state["kind"])
    return envelope["game"]


def _take_back_clicked(event):
    game_json = take_back()
    handler = _state["on_take_back"]
    if handler is None:
        window.location.reload()
        return None
    return handler(game_json)
