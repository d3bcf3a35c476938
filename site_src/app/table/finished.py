"""A finished game on the game page: replay it, share it, keep it among the recent games; the deal of the day.

Part of the game page (site_src/app/game.py is its entry point). ``bind`` binds the end-of-game
banner's Replay, Copy the link and Save as a file, the options' "Replay the game so far" and the
setup's "Deal of the day". ``keep`` runs when a game ends (flow.finish): it asks the
engine for the game's code, keeps it among the recent games (history.py) and, for a deal of the
day, keeps the day's result and shows the text to share. The deal of the day is started as a
practice link (``?seed=cribbage-daily:YYYY-MM-DD`` with its rules), saved in its day's own slot
(store.py) and picked up again where it was; it counts for its day only if started that day.

Markers for tests: #game-over[data-code] holds the finished game's code once known;
#daily-share-text the deal of the day's result to share.
"""

import js
from dom import window

import bridge
import sharing
from table import history, store
from table.state import S, q, shown

try:
    from table import stats_panel
except ImportError:
    stats_panel = None

NO_GAME = "There is no game to replay yet: deal the cards first."
DAILY_NOTE = "The deal of the day counts in your daily results, not in your other statistics."
BADGES = {True: "Deal of the day", False: "Practice game"}  # by whether the game is a deal of the day

_state = {"code": None, "daily": None, "link": None}


def is_daily_seed(seed):
    """True for a deal of the day's seed (cribbage-daily:YYYY-MM-DD)."""
    return isinstance(seed, str) and seed.startswith(store.DAILY_PREFIX)


def is_daily_game():
    """True if the game on the table was started from a day's seed."""
    seed = S["meta"].get("practice_seed") if S["meta"] else None
    return bool(S["meta"].get("practice")) and is_daily_seed(seed)


def show_badge(from_seed, daily=False):
    """The badge by the table's status: "Deal of the day" for a day's game, "Practice game" for
    another game from a seed, none for a game of secret seeds."""
    q("practice-badge").textContent = BADGES[bool(from_seed and daily)]
    shown("practice-badge", bool(from_seed))


async def game_code():
    """The code of the game on the table (the engine's share_code)."""
    reply = await bridge.call("share_code", {"game": S["game"]})
    return reply["code"]


def say(text):
    """A short line under the banner's share buttons."""
    q("game-share-message").textContent = text


async def keep():
    """The game is over: keep it among the recent games; a deal of the day also keeps its result
    and offers the text to share. Never stops the page: a failure is only logged."""
    _state["code"], _state["daily"] = None, None
    shown("game-over-share", False)
    shown("daily-share", False)
    say("")
    if S["game"] is None:
        return
    if is_daily_game():  # at once, over the practice games' note; the engine may yet refuse the day
        q("game-over-note").textContent = DAILY_NOTE
        shown("game-over-note", True)
    try:
        code = await game_code()
        _state["code"] = code
        q("share-replay-link").href = sharing.replay_path(code)
        q("game-over").setAttribute("data-code", code)
        shown("game-over-share", True)
        result = S["result"] or {}
        daily = None
        if is_daily_game():
            try:  # the engine says which day it counts for: its own, if started that day
                daily = await bridge.call("daily_result", {"game": S["game"], "started": S["meta"].get("started")})
            except bridge.EngineError as error:
                if error.kind != "bad_input":
                    raise
                js.console.warn("Not counted as a deal of the day:", error.message)
                q("game-over-note").textContent = error.message
                shown("game-over-note", True)
        if S.get("readonly"):
            return
        history.keep_game(code, result.get("title"), result.get("score"), daily is not None)
        if daily is not None:
            _state["daily"] = daily
            q("game-over-note").textContent = DAILY_NOTE
            shown("game-over-note", True)
            q("daily-share-text").textContent = daily["text"] + "\n" + sharing.replay_link(code)
            shown("daily-share", True)
            stats = await history.keep_daily(daily)
            if stats_panel is not None:
                stats_panel.set_daily(stats)
        elif stats_panel is not None:
            stats_panel.redraw()
    except bridge.EngineError as error:
        js.console.warn("The finished game could not be kept:", error.message)


async def on_copy_link(event):
    """Copy the finished game's replay link."""
    if _state["code"] is None:
        return
    link = sharing.replay_link(_state["code"])
    copied = await sharing.copy_text(link)
    say("Link copied." if copied else "Copy this link: " + link)


def on_save_file(event):
    """Save the finished game's code as a small text file."""
    if _state["code"] is None:
        return
    result = S["result"] or {}
    title = (result.get("title") or "").rstrip("!") + (" " + result["score"] if result.get("score") else "")
    done = sharing.download(sharing.FILE_NAME, sharing.file_text(_state["code"], title.strip()))
    say("Saved " + sharing.FILE_NAME + "." if done else "This browser would not save the file.")


async def on_copy_daily(event):
    """Copy the deal of the day's result (the text and the replay link)."""
    text = str(q("daily-share-text").textContent)
    copied = await sharing.copy_text(text)
    say("Result copied: paste it anywhere." if copied else "Select the result above and copy it.")


async def on_replay_so_far(event):
    """Open the replay of the game on the table, up to where it stands."""
    if S["game"] is None:
        bridge.show_error(NO_GAME)
        return
    code = await game_code()
    window.location.href = sharing.replay_path(code)


async def on_daily(event):
    """Start (or pick up) today's deal of the day, against the hard computer (the engine's daily_level)."""
    rule = await bridge.call("daily_seed", {"day": history.today()})
    query = ("?seed=" + str(js.encodeURIComponent(rule["game_seed"])) + "&difficulty=" + rule["level"]
             + "&target=" + str(rule["target"]) + "&muggins=0&players=2")
    window.location.href = bridge.root() + query


def bind():
    """Bind the share buttons, the replay of the game so far and the deal of the day."""
    bridge.on("#share-copy-link", "click", on_copy_link)
    bridge.on("#share-save-file", "click", on_save_file)
    bridge.on("#copy-daily", "click", on_copy_daily)
    bridge.on("#replay-so-far", "click", on_replay_so_far)
    bridge.on("#daily-button", "click", on_daily)
    q("daily-rule-link").href = bridge.root() + "fair-deals/#daily"  # set here: a site's pages may leave it out
