"""The device's list of finished games (their codes, to replay) and of the deals of the day.

Runs in MicroPython on the main thread (keep to the subset). Two localStorage keys, each JSON
read through local_storage.py (measured, never trusted, set aside with a notice when unreadable):

- ``cribbage.records.v1``: ``{"v": 1, "games": [{"code", "title", "score", "day", "daily"}]}``,
  the last ``MAX_GAMES`` finished games, newest last; a game code is a few hundred characters;
- ``cribbage.daily.v1``: ``{"v": 1, "days": {"YYYY-MM-DD": {"won", "scores", "code"}}}``, the
  first finished deal of each day (the engine's daily_stats checks it and counts the streak).

    history.keep_game(code, "You win!", "121 to 98")
    history.recent_games()            # newest first
    history.keep_daily(result)        # engine/daily.py's result with its code
    stats = await history.daily_stats()
"""

import js

import bridge
import local_storage

KEY_GAMES = "cribbage.records.v1"
KEY_DAILY = "cribbage.daily.v1"
VERSION = 1
MAX_GAMES = 20
MAX_CODE = 4000
MAX_TEXT = 200
GAMES_RESET = "Your list of recent games could not be read, so it starts again." + local_storage.KEPT_ASIDE
DAILY_RESET = "Your deal-of-the-day results could not be read, so they start again." + local_storage.KEPT_ASIDE


def today():
    """The day on this device's calendar, written YYYY-MM-DD."""
    now = js.Date.new()
    return "%04d-%02d-%02d" % (int(now.getFullYear()), int(now.getMonth()) + 1, int(now.getDate()))


def _is_game(entry):
    """True for a well-formed entry of the recent games."""
    return (isinstance(entry, dict) and local_storage.is_text(entry.get("code")) and entry["code"].startswith("c1.")
            and len(entry["code"]) <= MAX_CODE
            and all(local_storage.is_text(entry.get(k)) and len(entry[k]) <= MAX_TEXT for k in ("title", "score", "day")))


def _load_games():
    text, obj = local_storage.read_json(KEY_GAMES, GAMES_RESET)
    if obj is None:
        return []
    if not isinstance(obj, dict) or obj.get("v") != VERSION or not isinstance(obj.get("games"), list):
        local_storage.keep_aside(KEY_GAMES, text, GAMES_RESET)
        return []
    return [entry for entry in obj["games"] if _is_game(entry)][-MAX_GAMES:]


def recent_games():
    """The recent finished games, newest first: dicts with code, title, score, day and daily."""
    games = _load_games()
    games.reverse()
    return games


def keep_game(code, title, score, daily=None):
    """Add a finished game (its code) to the recent games, once; returns True if stored."""
    entry = {"code": str(code), "title": str(title or "")[:MAX_TEXT], "score": str(score or "")[:MAX_TEXT],
             "day": today(), "daily": bool(daily)}
    if not _is_game(entry):
        return False
    games = [g for g in _load_games() if g["code"] != entry["code"]]
    games.append(entry)
    return local_storage.write(KEY_GAMES, local_storage.dumps({"v": VERSION, "games": games[-MAX_GAMES:]}))


def _load_days():
    text, obj = local_storage.read_json(KEY_DAILY, DAILY_RESET)
    if obj is None:
        return {}
    if not isinstance(obj, dict) or obj.get("v") != VERSION or not isinstance(obj.get("days"), dict):
        local_storage.keep_aside(KEY_DAILY, text, DAILY_RESET)
        return {}
    return obj["days"]


async def daily_stats():
    """The deal-of-the-day results as the engine reads them, with the streak up to today:
    ``{"days", "played", "won", "current", "best", "today"}``."""
    return await bridge.call("daily_stats", {"days": _load_days(), "today": today()})


async def keep_daily(result):
    """Keep a finished deal of the day (engine/daily.py's result with its code), the first of
    its day only; returns the daily statistics."""
    stats = await daily_stats()
    days = stats["days"]
    if result["day"] not in days:
        days[result["day"]] = {"won": bool(result["won"]), "scores": list(result["scores"]),
                               "code": result["code"]}
        local_storage.write(KEY_DAILY, local_storage.dumps({"v": VERSION, "days": days}))
        stats = await bridge.call("daily_stats", {"days": days, "today": today()})
    return stats
