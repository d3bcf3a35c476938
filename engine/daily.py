"""The deal of the day: which games count as one, a day's result as text to share, the streak.

A day's game is the practice game whose seed is ``game_seed(day)``, "cribbage-daily:YYYY-MM-DD"
(hand N of the day is dealt from ``hand_seed(day, N)``, the first 32 hex digits of the SHA-256
of "cribbage-daily:YYYY-MM-DD:N": everyone gets the same cards, and anyone can rebuild them), two
players to 121 without muggins, the person first against the hard computer (``daily_level()``: the expert
wins a little more often but thinks far longer in the browser). Its result is shared as plain
text: the day, the score, and a small picture in characters every font has: each side's score
(on the board, so the winner's is 121) as a bar of twenty cells, one cell for each 121/20 points
with only 121 filling it, so the loser's bar is always the shorter; then one mark per hand for
who scored more in it, and a line saying what the marks mean::

    Cribbage, deal of the day 2026-12-01
    I won 121 to 98 against the hard computer
    Me  ████████████████████ 121
    CPU ████████████████░░░░ 98
    Hands ▲▲▼▲=▼▲▲▲
    ▲ I scored more in the hand, ▼ the computer did, = even

The page keeps each day's result on the device; ``check_days`` reads that record without
trusting it, and ``streak`` counts the days played in a row. A game counts for its day only if
it was started on that day (``counted_day``): the page keeps the day each game was started.

>>> streak({"2026-11-30": {"won": True}, "2026-12-01": {"won": False}}, "2026-12-01")["current"]
2
"""

from engine.compat import sha256_hex
from engine.game import PERSON, GameState, new_game
from engine.messages import quoted
from engine.replay import replay_steps

SEED_PREFIX = "cribbage-daily:"  # a day's game seed: this, then the day as YYYY-MM-DD
DAILY_TARGET = 121
DAILY_PLAYERS = 2
MAX_DAYS = 400  # results kept: more than a year of days
MARKS = {"W": "\u25b2", "L": "\u25bc", "E": "="}  # a hand: the person's, the computer's, even
BAR_CELLS = 20
FULL, EMPTY = "\u2588", "\u2591"
TITLE = "Cribbage, deal of the day "


DAILY_LEVEL = "hard"  # the expert beats it a little more often but thinks far longer in the browser
LEGEND = MARKS["W"] + " I scored more in the hand, " + MARKS["L"] + " the computer did, " + MARKS["E"] + " even"


def game_seed(day: str) -> str:
    """The practice seed of a day's game, for a date written YYYY-MM-DD.

    >>> game_seed("2026-12-01")
    'cribbage-daily:2026-12-01'
    """
    parts = day.split("-") if isinstance(day, str) else []
    if not (len(parts) == 3 and [len(p) for p in parts] == [4, 2, 2] and all(p.isdigit() for p in parts)):
        raise ValueError(f"a day is written YYYY-MM-DD, not {quoted(day)}")
    year, month, date = int(parts[0]), int(parts[1]), int(parts[2])
    days = (31, 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28, 31, 30, 31, 30, 31, 31,
            30, 31, 30, 31)
    if not (2000 <= year <= 9999 and 1 <= month <= 12 and 1 <= date <= days[month - 1]):
        raise ValueError(f"there is no day {quoted(day)}")
    return SEED_PREFIX + day


def hand_seed(day: str, hand: int) -> str:
    """The seed of hand ``hand`` (from 1) of a day's game: the first 32 hex digits of the
    SHA-256 of ``"cribbage-daily:YYYY-MM-DD:N"``."""
    if type(hand) is not int or not 1 <= hand <= 400:
        raise ValueError(f"a hand is numbered from 1, not {quoted(hand)}")
    return sha256_hex(game_seed(day) + ":" + str(hand))[:32]


def daily_level() -> str:
    """The computer the deal of the day plays: hard (not the expert, which is stronger but far
    slower in the browser)."""
    return DAILY_LEVEL


def day_of(state: GameState) -> "str | None":
    """The day (YYYY-MM-DD) if this game is that day's deal of the day under its rules, else None."""
    if not (state.practice and state.base_seed.startswith(SEED_PREFIX)):
        return None
    day = state.base_seed[len(SEED_PREFIX):]
    try:
        game_seed(day)
    except ValueError:
        return None
    if (state.players != DAILY_PLAYERS or state.target != DAILY_TARGET or state.muggins
            or list(state.seats) != [PERSON, daily_level()]):
        return None
    return day


NOT_THAT_DAY = "This deal of the day was started on {started}, so it does not count for {day}: only a game started on its own day does."
NO_START_DAY = "This deal of the day has no day it was started on, so it does not count for {day}."


def is_day(text: object) -> bool:
    """True for a day written YYYY-MM-DD that the calendar has."""
    if not isinstance(text, str):
        return False
    try:
        game_seed(text)
    except ValueError:
        return False
    return True


def counted_day(state: GameState, started: object) -> "str | None":
    """The day a game counts for in the daily results: the day of its deal (``day_of``) if it was
    started on that very day (``started``: YYYY-MM-DD on the player's calendar), else None.

    A game of an earlier day's deal started later, or one started the evening before a day's
    deal (by typing its link), counts for no day: each day's result is a game dealt that day.

    >>> state = new_daily_game("2026-12-01")
    >>> counted_day(state, "2026-12-01"), counted_day(state, "2026-12-02"), counted_day(state, None)
    ('2026-12-01', None, None)
    """
    day = day_of(state)
    if day is None or not is_day(started) or started != day:
        return None
    return day


def not_counted_reason(state: GameState, started: object) -> "str | None":
    """Why a deal of the day counts for no day (a sentence for the player), or None if it counts
    (``counted_day``) or is no deal of the day at all."""
    day = day_of(state)
    if day is None or counted_day(state, started) is not None:
        return None
    if not is_day(started):
        return NO_START_DAY.format(day=day)
    return NOT_THAT_DAY.format(started=started, day=day)


def new_daily_game(day: str) -> GameState:
    """A new deal of the day for ``day`` under its rules (the game the page starts from its link)."""
    return new_game(seed=game_seed(day), seats=[PERSON, daily_level()], target=DAILY_TARGET,
                    players=DAILY_PLAYERS)


def hand_points(state: GameState) -> list:
    """The points each seat made in each hand so far: ``[[mine, theirs], ...]``."""
    points = []
    before = [0] * state.players
    for step in replay_steps(state):
        if step["kind"] in ("hand_end", "game_over") and step["hand_number"] > len(points):
            scores = step["scores"]
            points.append([scores[s] - before[s] for s in range(state.players)])
            before = list(scores)
    return points


def result(state: GameState) -> dict:
    """A finished deal of the day as the page shares and keeps it (ValueError if it is not one).

    ``{"day", "won", "scores": [mine, theirs], "hands": "WLE...", "picture", "text"}``; the page
    adds the replay link under ``text``.
    """
    day = day_of(state)
    if day is None:
        raise ValueError("This game is not a deal of the day.")
    if not state.is_over:
        raise ValueError("The deal of the day is not finished yet.")
    hands = []
    for mine, theirs in hand_points(state):
        hands.append("W" if mine > theirs else ("L" if mine < theirs else "E"))
    won = state.winner == 0
    mine, theirs = state.scores[0], state.scores[1]  # on the board: the winner's is the target
    picture = ("Me  " + bar(mine) + " " + str(mine) + "\nCPU " + bar(theirs) + " " + str(theirs)
               + "\nHands " + "".join(MARKS[h] for h in hands) + "\n" + LEGEND)
    line = ("I won " if won else "I lost ") + str(mine) + " to " + str(theirs) + " against the " \
        + daily_level() + " computer"
    return {"day": day, "won": won, "scores": [mine, theirs], "hands": "".join(hands), "picture": picture,
            "text": TITLE + day + "\n" + line + "\n" + picture}


def bar(score: int) -> str:
    """A score as a bar of BAR_CELLS cells: a cell for each full 121/BAR_CELLS points, so only
    121 fills it and any score short of it shows at least one cell less.

    >>> bar(121), bar(119), bar(60), bar(0)
    ('████████████████████', '███████████████████░', '█████████░░░░░░░░░░░', '░░░░░░░░░░░░░░░░░░░░')
    """
    full = min(BAR_CELLS, max(0, score) * BAR_CELLS // DAILY_TARGET)
    return FULL * full + EMPTY * (BAR_CELLS - full)


def day_number(day: str) -> int:
    """Days since 1970-01-01 of a date written YYYY-MM-DD (checked).

    >>> day_number("2000-01-01"), day_number("2000-03-01") - day_number("2000-02-28")
    (10957, 2)
    """
    game_seed(day)
    year, month, date = int(day[:4]), int(day[5:7]), int(day[8:])
    year -= 1 if month <= 2 else 0
    era = year // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + date - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def check_days(obj: object) -> dict:
    """The stored daily results, keeping only well-formed entries (the newest ``MAX_DAYS``).

    Each is ``day -> {"won": bool, "scores": [int, int], "code": str}``; anything else is left out.
    """
    days = {}
    if not isinstance(obj, dict):
        return days
    for day in sorted(obj):
        entry = obj[day]
        try:
            game_seed(day)
        except ValueError:
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("won"), bool):
            continue
        scores = entry.get("scores")
        code = entry.get("code")
        if not (isinstance(scores, list) and len(scores) == 2 and all(type(s) is int and 0 <= s <= 200
                                                                         for s in scores)):
            continue
        if not (isinstance(code, str) and code.startswith("c1.") and len(code) <= 4000):
            continue
        days[day] = {"won": entry["won"], "scores": list(scores), "code": code}
    for day in sorted(days)[:-MAX_DAYS]:
        del days[day]
    return days


def streak(days: dict, today: str) -> dict:
    """Days played and won, the run of days played up to today (or yesterday, while today's deal
    is still to play) and the longest run: ``{"played", "won", "current", "best", "today"}``.

    A result dated after ``today`` (a clock set wrong when it was kept, or an edited record)
    counts for nothing until its day comes, and never breaks the run up to today.

    >>> streak({"2026-11-30": {"won": True}, "2026-12-01": {"won": True}, "2026-12-09": {"won": True}},
    ...        "2026-12-01")["current"]
    2
    """
    now = day_number(today)
    counted = [day for day in days if day_number(day) <= now]
    numbers = sorted(day_number(day) for day in counted)
    best, run, last = 0, 0, None
    for n in numbers:
        run = run + 1 if last is not None and n == last + 1 else 1
        best = max(best, run)
        last = n
    current = run if last is not None and last >= now - 1 else 0
    return {"played": len(counted), "won": sum(1 for day in counted if days[day]["won"]), "current": current,
            "best": best, "today": today in days}
