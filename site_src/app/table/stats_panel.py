"""The statistics panel: fills a container (#stats-panel) with the player's record and a Reset button.

Runs in MicroPython on the main thread. Everything is built with DOM calls and ``textContent``.
``render`` draws the stored record once the engine has checked it (store.verify_stats: the
record is engine/stats.py's, which the page never builds itself).

    from table import stats_panel
    stats_panel.render("#stats-body")
    stats = await store.record_game(game_json)
    stats_panel.refresh(stats)
"""

from dom import document, window

import bridge
import sharing
from table import history, store

DIFFICULTY_NAMES = (("easy", "Easy"), ("hard", "Hard"), ("expert", "Expert"))
TARGET_NAMES = (("121", "121 points"), ("61", "61 points"))
CONFIRM_RESET = "Forget all your statistics? This cannot be undone."
EMPTY_TEXT = ("No games recorded yet. Finished games against the computer count here. Practice "
              "games do not: they are dealt from a seed in the page's address (?seed=\u2026), so anyone "
              "can replay the same cards.")

LOADING_TEXT = "Reading your statistics\u2026"

RECENT_SHOWN = 10  # recent games listed, newest first

_view = {"container": None, "stats": None, "daily": None}


def _el(tag, text=None, cls=None):
    node = document.createElement(tag)
    if text is not None:
        node.textContent = str(text)
    if cls:
        node.className = cls
    return node


def _percent(part, whole):
    if not whole:
        return "–"
    return str(int(round(100 * part / whole))) + "%"


def _average(total, count):
    if not count:
        return "–"
    return "%.1f" % (total / count)


def _best(value):
    return "–" if value is None else str(value)


def _row(table, label, *cells):
    tr = _el("tr")
    th = _el("th", label)
    th.setAttribute("scope", "row")
    tr.append(th)
    for cell in cells:
        tr.append(_el("td", cell))
    table.append(tr)


def _table(caption, headings):
    table = _el("table")
    table.append(_el("caption", caption))
    if headings is None:
        body = _el("tbody")
        table.append(body)
        return table, body
    head = _el("thead")
    tr = _el("tr")
    for text in headings:
        th = _el("th", text)
        th.setAttribute("scope", "col")
        tr.append(th)
    head.append(tr)
    table.append(head)
    body = _el("tbody")
    table.append(body)
    return table, body


def _build(stats):
    """The panel's content for a record (a DocumentFragment-like div)."""
    box = _el("div", cls="stats-view")
    games = stats["games"]
    if not games:
        box.append(_el("p", EMPTY_TEXT, "stats-empty"))
    else:
        table, body = _table("Your record", None)
        _row(body, "Games played", str(games))
        _row(body, "Won", str(stats["wins"]) + " (" + _percent(stats["wins"], games) + ")")
        _row(body, "Lost", str(stats["losses"]))
        _row(body, "Current win streak", str(stats["streak"]))
        _row(body, "Best win streak", str(stats["best_streak"]))
        _row(body, "Best hand", _best(stats["best_hand"]))
        _row(body, "Best crib", _best(stats["best_crib"]))
        _row(body, "29 hands", str(stats["twenty_nines"]))
        _row(body, "Skunks given", str(stats["skunks_given"]) + " (double: "
             + str(stats["double_skunks_given"]) + ")")
        _row(body, "Skunks taken", str(stats["skunks_taken"]) + " (double: "
             + str(stats["double_skunks_taken"]) + ")")
        hinted = stats.get("hinted") or 0
        _row(body, "Played with hints", str(hinted) + (" (won " + str(stats.get("hinted_wins") or 0) + ")"
                                                      if hinted else ""))
        box.append(table)

        points = stats["points"]
        table, body = _table("Average points", None)
        _row(body, "Pegging (per hand dealt)", _average(points["pegging"], stats["hands"]))
        _row(body, "Hand (per hand counted)", _average(points["hand"], stats["shows"]))
        _row(body, "Crib (per crib of yours)", _average(points["crib"], stats["cribs"]))
        box.append(table)

        table, body = _table("By opponent and game length", ("", "Games", "Won", "Lost", "Win rate"))
        for key, name in DIFFICULTY_NAMES:
            rec = stats["by_difficulty"].get(key)
            if rec:
                _row(body, name + " computer", str(rec["games"]), str(rec["wins"]), str(rec["losses"]),
                     _percent(rec["wins"], rec["games"]))
        for key, name in TARGET_NAMES:
            rec = stats["by_target"].get(key)
            if rec:
                _row(body, name, str(rec["games"]), str(rec["wins"]), str(rec["losses"]),
                     _percent(rec["wins"], rec["games"]))
        box.append(table)

    _friends_block(box, stats.get("friends"))
    _daily_block(box)
    _recent_block(box)

    actions = _el("div", cls="stats-actions")
    button = _el("button", "Reset statistics", "button stats-reset")
    button.type = "button"
    if not games and not (stats.get("friends") or {}).get("games"):
        button.disabled = True
    bridge.on(button, "click", _reset_clicked)
    actions.append(button)
    box.append(actions)
    return box


def _friends_block(box, friends):
    """Games against friends: played, won and lost, apart from the record against the computer."""
    if not friends or not friends["games"]:
        return
    table, body = _table("Against friends", ("", "Games", "Won", "Lost", "Win rate"))
    _row(body, "Vs friends", str(friends["games"]), str(friends["wins"]), str(friends["losses"]),
         _percent(friends["wins"], friends["games"]))
    table.className = "stats-friends"
    box.append(table)


def _daily_block(box):
    """The deal of the day: days played and won, and the streak of days played in a row."""
    daily = _view["daily"]
    if not daily or not daily["played"]:
        return
    table, body = _table("Deal of the day", None)
    _row(body, "Days played", str(daily["played"]) + " (won " + str(daily["won"]) + ")")
    _row(body, "Daily streak", str(daily["current"]) + (" day" if daily["current"] == 1 else " days")
         + ("" if daily["today"] else " (today's deal is still to play)" if daily["current"] else ""))
    _row(body, "Best daily streak", str(daily["best"]) + (" day" if daily["best"] == 1 else " days"))
    table.className = "stats-daily"
    box.append(table)


def _recent_block(box):
    """The recent finished games, each with a link to its replay."""
    games = history.recent_games()[:RECENT_SHOWN]
    if not games:
        return
    section = _el("div", cls="stats-recent")
    section.append(_el("h4", "Recent games"))
    listing = _el("ol", cls="recent-games")
    for game in games:
        item = _el("li")
        words = (("Deal of the day " if game["daily"] else "") + game["day"] + ": "
                 + game["title"].rstrip("!") + (" " + game["score"] if game["score"] else ""))
        item.append(_el("span", words, "recent-game-words"))
        link = _el("a", "Replay", "recent-game-replay")
        link.href = sharing.replay_path(game["code"])
        link.setAttribute("aria-label", "Replay: " + words)
        item.append(link)
        listing.append(item)
    section.append(listing)
    box.append(section)


def refresh(stats):
    """Redraw the panel with this record (one the engine has checked or made)."""
    container = _view["container"]
    if container is None or stats is None:
        return
    _view["stats"] = stats
    container.replaceChildren(_build(stats))


def redraw():
    """Draw the panel again (a game was added to the recent games)."""
    refresh(_view["stats"])


def set_daily(daily):
    """Show these deal-of-the-day results (history.daily_stats) and redraw."""
    _view["daily"] = daily
    redraw()


async def _reset():
    refresh(await store.reset_stats())


def _reset_clicked(event):
    if not window.confirm(CONFIRM_RESET):
        return None
    return _reset()


async def _load():
    stats = await store.verify_stats()
    try:
        _view["daily"] = await history.daily_stats()
    except bridge.EngineError as error:
        window.console.warn("deal-of-the-day results not read: " + str(error.message))
    refresh(stats)


def render(container_selector, stats=None):
    """Fill the container with a record (one the engine just returned), or with the stored
    record once the engine has read it (the panel says so meanwhile)."""
    _view["container"] = bridge.element(container_selector)
    if stats is not None:
        refresh(stats)
        return
    _view["container"].replaceChildren(_el("p", LOADING_TEXT, "stats-loading"))
    bridge.launch(_load())
