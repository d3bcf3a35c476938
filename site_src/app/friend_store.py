"""The device's memory of friend games: each game's texts, secret and record, and the connection setting.

Runs in MicroPython on the main thread (keep to the subset). Keys, each holding JSON:

- ``cribbage.friends.v1``: ``{"v": 1, "games": {id: entry}}``, an entry being ``{"id", "seat",
  "invite", "reply" (null until there is one), "secret", "names", "target", "muggins", "game"
  (the engine's saved record, null until both secrets are known), "meta", "turn" (whose turn,
  in words), "time"}``; at most MAX_GAMES, the oldest dropped first;
- ``cribbage.friendnow.v1``: the id of the friend game at the table (a reload resumes it);
- ``cribbage.friendnet.v1``: ``{"v": 1, "stun": bool, "host": "host:port", "meet": address,
  "meet_ok": bool}``: whether the player allows a STUN server for live play across networks, and
  which; the meeting point (a Nostr relay, ws:// or wss://) for games with a friend somewhere else,
  and whether the player allowed the page to contact it.

An entry of a game through a meeting point also holds ``"meet": {"url", "key", "topic", "link"}``:
the meeting point, the game's meeting key and topic, and what its link keeps (meet_link.py).

Nothing read here is trusted: the engine checks every text and record again before it is used,
and an unreadable value is set aside (local_storage.keep_aside) with a notice. No function raises.
"""

import js

import local_storage

KEY_GAMES = "cribbage.friends.v1"
KEY_NETWORK = "cribbage.friendnet.v1"
KEY_CURRENT = "cribbage.friendnow.v1"
VERSION = 1
MAX_GAMES = 20
MAX_TEXT = 2 * 1024 * 1024  # characters of every game kept: a sealed game's entry holds some 40,000
DEFAULT_STUN_HOST = "stun.l.google.com:19302"
DEFAULT_MEET_URL = "wss://relay.damus.io"
MAX_MEET_URL = 200
MAX_HOST = 100
ENTRY_TEXTS = ("id", "invite", "secret")
GAMES_RESET = "Your friend games could not be read." + local_storage.KEPT_ASIDE


_READ = {"text": None, "games": {}}
"""The games' text as last read or written here, parsed: read again only when the stored text
differs (another tab wrote it), since a sealed game's entry grows with every move of it."""


def _copy(value):
    """A copy of parsed JSON that the caller may change without changing the kept one."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _games():
    if local_storage.read(KEY_GAMES, MAX_TEXT) != _READ["text"]:
        text, data = local_storage.read_json(KEY_GAMES, GAMES_RESET, MAX_TEXT)
        if text is None:
            return {}
        games = data.get("games") if isinstance(data, dict) and data.get("v") == VERSION else None
        if not isinstance(games, dict):
            local_storage.keep_aside(KEY_GAMES, text, GAMES_RESET)
            return {}
        _READ["text"] = text
        _READ["games"] = {k: e for k, e in games.items() if is_entry(e) and e["id"] == k}
    return _copy(_READ["games"])


def is_entry(entry):
    """True for an entry of the right shape (the engine checks its contents when it is used)."""
    if not isinstance(entry, dict) or entry.get("seat") not in (0, 1):
        return False
    for key in ENTRY_TEXTS:
        if not isinstance(entry.get(key), str):
            return False
    return entry.get("reply") is None or isinstance(entry.get("reply"), str)


def entries():
    """Every friend game kept here, newest first."""
    games = list(_games().values())
    games.sort(key=lambda e: (-(e.get("time") or 0), e["id"]))
    return games


def get(game_id):
    """The entry of one friend game, or None."""
    return _games().get(game_id)


LOST = []
"""Ids of friend games another tab has taken from this one (friend_tabs.py): nothing of them is
written here until this tab takes them back."""


def put(entry):
    """Keep an entry (replacing the one with its id); the oldest beyond MAX_GAMES are dropped.
    False (nothing written) for a game another tab plays now (``LOST``)."""
    if entry.get("id") in LOST:
        return False
    games = _games()
    entry = dict(entry)
    entry["time"] = int(js.Date.now())
    games[entry["id"]] = entry
    if len(games) > MAX_GAMES:
        keep = sorted(games.values(), key=lambda e: (-(e.get("time") or 0), e["id"]))[:MAX_GAMES]
        games = {e["id"]: e for e in keep}
    return _write(games)


def _write(games):
    text = local_storage.dumps({"v": VERSION, "games": games})
    if not local_storage.write(KEY_GAMES, text):
        return False
    _READ["text"] = text
    _READ["games"] = _copy(games)
    return True


def save_game(game_id, game_json, meta, turn):
    """Keep a friend game's record as it stands, with the table's meta and whose turn it is."""
    entry = get(game_id)
    if entry is None:
        return False
    entry["game"] = game_json
    entry["meta"] = meta
    entry["turn"] = turn
    return put(entry)


def remove(game_id):
    """Forget one friend game."""
    games = _games()
    if game_id in games:
        games.pop(game_id)
        _write(games)


def set_current(game_id):
    """Say which friend game this device is playing (None: an ordinary game is at the table)."""
    if game_id is None:
        local_storage.remove(KEY_CURRENT)
    else:
        local_storage.write(KEY_CURRENT, local_storage.dumps(game_id))


def current():
    """The id of the friend game this device was playing when the page closed, or None."""
    text, data = local_storage.read_json(KEY_CURRENT, "")
    return data if isinstance(data, str) else None


def load_network():
    """The connection setting: ``{"stun": bool, "host": str, "meet": str, "meet_ok": bool}`` (no
    host allowed by default)."""
    text, data = local_storage.read_json(KEY_NETWORK, "")
    setting = {"stun": False, "host": DEFAULT_STUN_HOST, "meet": DEFAULT_MEET_URL, "meet_ok": False}
    if isinstance(data, dict) and data.get("v") == VERSION:
        for flag in ("stun", "meet_ok"):
            if isinstance(data.get(flag), bool):
                setting[flag] = data[flag]
        if is_host(data.get("host")):
            setting["host"] = data["host"]
        if is_meet_url(data.get("meet")):
            setting["meet"] = data["meet"]
    return setting


def save_network(stun, host, meet=None, meet_ok=None):
    """Remember whether a STUN server is allowed, and which; and the meeting point, and whether
    it is allowed (unchanged when not given)."""
    setting = load_network()
    setting.update({"v": VERSION, "stun": bool(stun), "host": host if is_host(host) else DEFAULT_STUN_HOST})
    if meet is not None and is_meet_url(meet):
        setting["meet"] = meet
    if meet_ok is not None:
        setting["meet_ok"] = bool(meet_ok)
    local_storage.write(KEY_NETWORK, local_storage.dumps(setting))


def is_meet_url(url):
    """True for what may be a meeting point's address: ws:// or wss:// and at most MAX_MEET_URL
    characters with no space (the engine checks it fully when it goes into an invitation)."""
    return isinstance(url, str) and 8 <= len(url) <= MAX_MEET_URL and url.startswith(("ws://", "wss://")) \
        and not any(ch.isspace() for ch in url)


def is_host(host):
    """True for a plain host:port (letters, digits, dots, dashes; a port of 1-65535)."""
    if not isinstance(host, str) or not 3 <= len(host) <= MAX_HOST or host.count(":") != 1:
        return False
    name, port = host.split(":")
    if not name or not port.isdigit() or not 0 < int(port) < 65536:
        return False
    return all(ch.isalpha() or ch.isdigit() or ch in ".-" for ch in name) and name[0] not in ".-"


def ice_servers(setting):
    """The ICE servers live play may use: none unless the player allowed a STUN server."""
    if not setting.get("stun") or not is_host(setting.get("host")):
        return []
    return ["stun" + ":" + setting["host"]]
