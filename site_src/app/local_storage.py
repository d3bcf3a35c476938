"""The device's storage as the game page may use it: localStorage read and written safely, values
measured before they reach Python, unreadable ones set aside, and the notices that say so.

Runs in MicroPython on the main thread (keep to the subset). table/store.py keeps the page's data
here; this module knows nothing of what the data means. No function here raises: when storage
is blocked, full or missing, reads find nothing, writes save nothing, and one notice says so.
Notices are shown in #store-notice (made above #game if the page has none) with an OK button,
or with the action table/store.py sets (``set_action``) while another tab has the game.
"""

import json

import js
from dom import document

import bridge

BACKUP_SUFFIX = ".backup"
MAX_VALUE = 256 * 1024  # characters; a real saved game is a few kB
NOTICE_ID = "store-notice"

UNAVAILABLE = ("This browser is not letting the site store anything (private browsing or full "
               "storage), so your game and statistics will not be kept after you leave the page.")
SAVE_FAILED = ("Your game could not be saved on this device (storage is full or blocked). "
               "You can keep playing, but it will not be kept after you leave the page.")
KEPT_ASIDE = " It is kept aside on this device, so nothing is lost."
TOO_BIG = ("Something stored by this site was far too large to be a saved game, settings or "
           "statistics, so it was set aside and the page carried on.")
TOO_BIG_LEFT = ("Something stored by this site was far too large to be a saved game, settings or "
                "statistics, and too large to keep a copy of on this device, so the page carried on "
                "without it; it is replaced when the page next saves there.")

_state = {"checked": False, "available": False, "action": None}

WORDS = {"unavailable": UNAVAILABLE, "save_failed": SAVE_FAILED, "too_big": TOO_BIG, "too_big_left": TOO_BIG_LEFT}
"""The notices' words; a page that keeps something other than games says its own (use_words)."""


def use_words(unavailable=None, save_failed=None, too_big=None, too_big_left=None):
    """Say what this page keeps in the notices about storage (each None keeps the game page's)."""
    for key, text in (("unavailable", unavailable), ("save_failed", save_failed), ("too_big", too_big),
                      ("too_big_left", too_big_left)):
        if text is not None:
            WORDS[key] = text

_notices = []


def notices():
    """Messages for the player about storage (values set aside, unavailable storage, other tabs)."""
    return list(_notices)


def clear_notices():
    """Forget the notices collected so far and hide them."""
    del _notices[:]
    _show_notices()


def notice(text):
    """Add a sentence for the player (once) and show the notices."""
    if text not in _notices:
        _notices.append(text)
        _show_notices()


def withdraw(*texts):
    """Take these notices back (the situation they spoke of is over) and show the rest."""
    for text in texts:
        if text in _notices:
            _notices.remove(text)
    _show_notices()


def set_action(label=None, handler=None):
    """Show the notices with this button (label, handler(event)) instead of OK; None: OK again."""
    _state["action"] = None if label is None else (label, handler)
    _show_notices()


def log(*parts):
    """Details for developers go to the console as warnings, never into the page."""
    try:
        js.console.warn(*[str(part) for part in parts])
    except Exception:
        pass




# --- localStorage ----------------------------------------------------------------------------
#
# A JavaScript exception raised inside a call from MicroPython cannot be caught in Python here:
# it stops the page's script. localStorage throws when it is blocked (SecurityError), full
# (QuotaExceededError) or missing, so every access goes through these small JavaScript
# functions, which catch the exception and answer null or false instead. They also keep a
# value's size in JavaScript: a string is copied whole into MicroPython's memory when it crosses
# over, so one that is too large is moved aside there and never crosses.

JS = js.Function.new("""
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
      // The text under key; null if none; a number if it was longer than limit: its length if
      // it has been moved to key + ".backup", minus its length if even that failed (a value
      // too big to copy in the room storage has left), in which case it is left as it was.
      try {
        const value = storage().getItem(key);
        if (value === null) return null;
        if (value.length <= limit) return String(value);
        try { storage().setItem(key + ".backup", value); storage().removeItem(key); }
        catch (error) { warn("move aside", key, error); return -value.length; }
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
    _state["available"] = bool(JS.probe())
    if not _state["available"]:
        notice(WORDS["unavailable"])
    return _state["available"]


def is_text(value):
    return isinstance(value, str)


def is_int(value):
    return type(value) is int


def read(key, limit=MAX_VALUE):
    """The text stored under key, or None (absent, unavailable, unreadable or set aside: longer
    than ``limit`` characters)."""
    if not is_available():
        return None
    value = JS.get(key, limit)
    if is_int(value) and value > 0:
        log("localStorage value set aside (too large):", key, value)
        notice(WORDS["too_big"])
        return None
    if is_int(value):  # too large to use, and too large to copy aside: it stays, unused
        log("localStorage value too large to use or to set aside:", key, -value)
        notice(WORDS["too_big_left"])
        return None
    return value if is_text(value) else None


def write(key, text):
    """Store text under key; False (and a notice) if the browser refuses."""
    if not is_available():
        return False
    if JS.set(key, text):
        return True
    notice(WORDS["save_failed"])
    return False


def remove(key):
    if is_available():
        JS.remove(key)


def keep_aside(key, text, notice_text):
    """Move a value that cannot be used under its backup key (replacing an older backup), say so."""
    if write(key + BACKUP_SUFFIX, text):
        remove(key)
    notice(notice_text)


def read_json(key, notice_text, limit=MAX_VALUE):
    """(text, parsed JSON) under key; (None, None) if absent; unreadable text is set aside."""
    text = read(key, limit)
    if text is None:
        return None, None
    try:
        return text, json.loads(text)
    except Exception:
        keep_aside(key, text, notice_text)
        return None, None


def dumps(value):
    return json.dumps(value)




# --- the notice box --------------------------------------------------------------------------


def notice_box(box_id=NOTICE_ID):
    """The notice box of this id above the game (made, empty, if the page has none)."""
    box = document.getElementById(box_id)
    if box is not None:
        return box
    box = document.createElement("div")
    box.id = box_id
    box.className = "store-notice"
    box.setAttribute("role", "status")
    anchor = document.getElementById("game") or document.querySelector("main") or document.body
    anchor.prepend(box)
    return box


def _show_notices():
    """Show the notices in #store-notice (text via DOM calls), with the action button when one
    is set (taking the game back from another tab), else an OK button that dismisses them."""
    try:
        box = notice_box()
        box.replaceChildren()
        if not _notices:
            box.hidden = True
            box.setAttribute("data-kind", "none")
            return
        for text in _notices:
            para = document.createElement("p")
            para.textContent = text
            box.append(para)
        action = _state["action"]
        if action is not None:
            label, handler = action
            button = document.createElement("button")
            button.type = "button"
            button.className = "button store-take-back"
            button.textContent = label
            box.append(button)
            bridge.on(button, "click", handler)
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
        log("notice not shown:", error)
