"""The player's statistics: one JSON-ready record, checked strictly and updated one game at a time.

The record is a plain dict (``new_stats``) kept in the browser's storage by the page, so it is
never trusted: ``parse_stats`` accepts exactly the shape written here and raises ``ValueError``
naming the first problem it finds. ``record_game(stats, summary)`` returns a new record with one
finished game added; the summary comes from ``game_summary(game, difficulty)``, which reads the
finished game (a ``GameState``, its ``to_json`` text or dict form).

>>> from engine.game import new_game
>>> from engine.players import get_player
>>> state = new_game(seed="stats-doc", target=61)
>>> while not state.is_over:
...     view = state.view(state.to_act)
...     _ = state.apply(get_player("easy", seed=1).choose(view, view["legal_actions"]))
>>> summary = game_summary(state, "easy")
>>> stats = record_game(new_stats(), summary)
>>> stats["games"], stats["wins"] + stats["losses"], stats["by_target"]["61"]["games"]
(1, 1, 1)
>>> parse_stats(stats) == stats
True

What the record holds (all counts are whole numbers, never negative):

- ``games``, ``wins``, ``losses``; ``by_difficulty`` and ``by_target`` (keys "121", "61"), each
  ``{"games", "wins", "losses"}`` and only for what has been played;
- ``streak`` (current run of wins) and ``best_streak``;
- ``best_hand`` and ``best_crib`` (most points from one hand or crib, None until one is counted),
  ``twenty_nines`` (hands and cribs of 29);
- ``skunks_given``, ``double_skunks_given``, ``skunks_taken``, ``double_skunks_taken`` (a double
  skunk counts only as a double);
- ``hands`` (hands dealt), ``shows`` (the player's hands counted), ``cribs`` (the player's cribs
  counted) and ``points`` by source (pegging, hand, crib, heels, muggins): the averages are
  pegging per hand dealt, hand per show and crib per crib (``averages``);
- ``hinted`` and ``hinted_wins``: the games played with the coach's hints (part of ``games``), and
  how many of them were won;
- ``friends``: games against friends (``{"games", "wins", "losses"}``), kept apart: none of the
  counts above include them, since they say how the player does against the computer;
- ``recent``: ids of the last games recorded (friends' too), so the same game is never counted twice.

In muggins games a hand's points are those the player claimed (the rest go to the opponent),
as the game keeps them.
"""

import json

from engine.compat import canonical_json, round_to, sha256_hex, strict_json
from engine.game import PERSON, SOURCES, GameState
from engine.record import from_dict, from_json
from engine.messages import quoted
from engine.players import PLAYER_NAMES

STATS_VERSION = 1
FRIEND = "friend"  # a summary's "difficulty" for a game against a friend (counted in "friends" only)
TARGET_KEYS = ("121", "61")
RECENT_MAX = 50
MAX_TALLY = 10**9  # a count no record can plausibly reach
MAX_SHOW = 29  # the most one hand or crib can score
SUMMARY_VERSION = 1

RESET_NOTICE = ("Your saved statistics could not be read, so they start again from here; the old "
                "record is kept aside on this device.")
REPAIR_NOTICE = ("Your saved statistics held entries this version does not keep; they were left out "
                 "and the rest of your record is as it was.")

_RECORD_KEYS = ("games", "wins", "losses")
_COUNT_KEYS = ("games", "wins", "losses", "streak", "best_streak", "twenty_nines",
               "skunks_given", "double_skunks_given", "skunks_taken", "double_skunks_taken",
               "hands", "shows", "cribs", "hinted", "hinted_wins")
_ADDED_KEYS = ("hinted", "hinted_wins")  # counts a record from before them lacks: they start at 0
_STATS_KEYS = frozenset(("version", "by_difficulty", "by_target", "best_hand", "best_crib",
                         "points", "friends", "recent") + _COUNT_KEYS)
_SUMMARY_KEYS = frozenset(("version", "id", "seat", "players", "target", "muggins", "difficulty",
                           "winner", "won", "scores", "skunk_given", "skunk_taken", "points",
                           "hands", "shows", "cribs", "best_hand", "best_crib", "twenty_nines", "hinted"))
_SKUNKS = ("none", "skunk", "double_skunk")


def new_stats() -> dict:
    """An empty record: no games yet."""
    return {
        "version": STATS_VERSION,
        "games": 0, "wins": 0, "losses": 0,
        "by_difficulty": {}, "by_target": {},
        "streak": 0, "best_streak": 0,
        "best_hand": None, "best_crib": None, "twenty_nines": 0,
        "skunks_given": 0, "double_skunks_given": 0, "skunks_taken": 0, "double_skunks_taken": 0,
        "hands": 0, "shows": 0, "cribs": 0,
        "hinted": 0, "hinted_wins": 0,
        "points": {source: 0 for source in SOURCES},
        "friends": {"games": 0, "wins": 0, "losses": 0},
        "recent": [],
    }


# --- validation ------------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return type(value) is int


def _count(value: object, where: str) -> int:
    if not _is_int(value):
        raise ValueError(f"{where} must be a whole number, got {quoted(value)}")
    if value < 0:  # type: ignore[operator]
        raise ValueError(f"{where} must not be negative, got {value}")
    if value > MAX_TALLY:  # type: ignore[operator]
        raise ValueError(f"{where} is implausibly large ({value})")
    return value  # type: ignore[return-value]


def _exact_keys(obj: object, keys: frozenset[str], where: str) -> dict:
    if not isinstance(obj, dict):
        raise ValueError(f"{where} must be an object, got {quoted(obj)}")
    missing = sorted(keys - set(obj))
    if missing:
        raise ValueError(f"{where} lacks {', '.join(missing)}")
    extra = sorted(str(k) for k in obj if k not in keys)
    if extra:
        raise ValueError(f"{where} has unknown field {', '.join(extra)}")
    return obj


def _record(obj: object, where: str) -> dict:
    rec = _exact_keys(obj, frozenset(_RECORD_KEYS), where)
    for key in _RECORD_KEYS:
        _count(rec[key], f"{where}.{key}")
    if rec["wins"] + rec["losses"] != rec["games"]:
        raise ValueError(f"{where}: wins ({rec['wins']}) and losses ({rec['losses']}) "
                         f"do not add up to games ({rec['games']})")
    return {key: rec[key] for key in _RECORD_KEYS}


def _breakdown(obj: object, allowed: tuple[str, ...], where: str, games: int) -> dict:
    if not isinstance(obj, dict):
        raise ValueError(f"{where} must be an object, got {quoted(obj)}")
    out = {}
    for key, value in obj.items():
        if key not in allowed:
            raise ValueError(f"{where} has unknown entry {quoted(key)} (expected one of {', '.join(allowed)})")
        out[key] = _record(value, f"{where}.{key}")
    total = sum(r["games"] for r in out.values())
    if total != games:
        raise ValueError(f"{where} counts {total} games but the record has {games}")
    return {key: out[key] for key in allowed if key in out}


def _best(value: object, where: str, counted: int, what: str) -> int | None:
    if value is None:
        if counted:
            raise ValueError(f"{where} is missing although {counted} {what} were counted")
        return None
    if not _is_int(value) or not 0 <= value <= MAX_SHOW:  # type: ignore[operator]
        raise ValueError(f"{where} must be null or a whole number from 0 to {MAX_SHOW}, got {quoted(value)}")
    if not counted:
        raise ValueError(f"{where} is {value} but no {what} were counted")
    return value  # type: ignore[return-value]


def parse_stats(obj: object) -> dict:
    """Check a statistics record strictly; return a clean copy or raise ValueError naming the problem.

    >>> parse_stats(new_stats())["games"]
    0
    >>> parse_stats(dict(new_stats(), wins=1))
    Traceback (most recent call last):
    ...
    ValueError: wins (1) and losses (0) do not add up to games (0)
    """
    if not isinstance(obj, dict):
        raise ValueError(f"the statistics must be an object, got {quoted(obj)}")
    version = obj.get("version")
    if not (_is_int(version) and version == STATS_VERSION):
        raise ValueError(f"unsupported statistics version {quoted(version)} (expected {STATS_VERSION})")
    _exact_keys(obj, _STATS_KEYS, "the statistics")
    out: dict = {"version": STATS_VERSION}
    for key in _COUNT_KEYS:
        out[key] = _count(obj[key], key)
    games, wins, losses = out["games"], out["wins"], out["losses"]
    if wins + losses != games:
        raise ValueError(f"wins ({wins}) and losses ({losses}) do not add up to games ({games})")
    out["by_difficulty"] = _breakdown(obj["by_difficulty"], PLAYER_NAMES, "by_difficulty", games)
    out["by_target"] = _breakdown(obj["by_target"], TARGET_KEYS, "by_target", games)
    if out["best_streak"] > wins:
        raise ValueError(f"best_streak ({out['best_streak']}) exceeds wins ({wins})")
    if out["streak"] > out["best_streak"]:
        raise ValueError(f"streak ({out['streak']}) exceeds best_streak ({out['best_streak']})")
    if out["skunks_given"] + out["double_skunks_given"] > wins:
        raise ValueError("more skunks given than games won")
    if out["skunks_taken"] + out["double_skunks_taken"] > losses:
        raise ValueError("more skunks taken than games lost")
    if out["hinted"] > games or out["hinted_wins"] > min(wins, out["hinted"]):
        raise ValueError("more games with hints than games, or more of them won than played or won")
    if out["hands"] < games:
        raise ValueError(f"hands ({out['hands']}) is fewer than games ({games})")
    if out["shows"] > out["hands"]:
        raise ValueError(f"shows ({out['shows']}) exceeds hands ({out['hands']})")
    if out["cribs"] > out["hands"]:
        raise ValueError(f"cribs ({out['cribs']}) exceeds hands ({out['hands']})")
    if out["twenty_nines"] > out["shows"] + out["cribs"]:
        raise ValueError(f"twenty_nines ({out['twenty_nines']}) exceeds the hands and cribs counted")
    out["best_hand"] = _best(obj["best_hand"], "best_hand", out["shows"], "hands")
    out["best_crib"] = _best(obj["best_crib"], "best_crib", out["cribs"], "cribs")
    if out["twenty_nines"] and max(out["best_hand"] or 0, out["best_crib"] or 0) != MAX_SHOW:
        raise ValueError("twenty_nines is counted but no hand or crib of 29 is the best")
    points = _exact_keys(obj["points"], frozenset(SOURCES), "points")
    out["points"] = {source: _count(points[source], f"points.{source}") for source in SOURCES}
    out["friends"] = _record(obj["friends"], "friends")
    recent = obj["recent"]
    if not isinstance(recent, list) or len(recent) > RECENT_MAX:
        raise ValueError(f"recent must be a list of at most {RECENT_MAX} game ids")
    for item in recent:
        if not (isinstance(item, str) and 8 <= len(item) <= 64 and all(c in "0123456789abcdef" for c in item)):
            raise ValueError(f"recent holds something that is not a game id: {quoted(item)}")
    if len(set(recent)) != len(recent):
        raise ValueError("recent lists a game twice")
    if len(recent) > games + out["friends"]["games"]:
        raise ValueError(f"recent lists {len(recent)} games but the record has {games + out['friends']['games']}")
    out["recent"] = list(recent)
    return out


def repair_stats(obj: object) -> tuple:
    """Mend a statistics record where that is safe, then check it: (record, what was mended).

    Fields this version does not know (as a newer version might write) are left out, counts
    added since the record was written start at 0 (not a mend: nothing was lost), and a
    recent-games list grown past ``RECENT_MAX`` keeps its newest entries; everything else must
    pass ``parse_stats`` as it is (ValueError otherwise).

    >>> record, mended = repair_stats(dict(new_stats(), theme="dark"))
    >>> record == new_stats(), mended
    (True, ["left out the unknown field 'theme'"])
    """
    mended = []
    if isinstance(obj, dict):
        obj = dict(obj)
        if obj.get("version") == STATS_VERSION:
            for key in _ADDED_KEYS:
                obj.setdefault(key, 0)
            obj.setdefault("friends", {"games": 0, "wins": 0, "losses": 0})
        for key in sorted((k for k in obj if k not in _STATS_KEYS), key=str):
            del obj[key]
            mended.append(f"left out the unknown field {quoted(key)}")
        points = obj.get("points")
        if isinstance(points, dict):
            unknown = sorted((k for k in points if k not in SOURCES), key=str)
            if unknown:
                obj["points"] = {k: v for k, v in points.items() if k in SOURCES}
                mended += [f"left out the unknown points {quoted(k)}" for k in unknown]
        recent = obj.get("recent")
        if isinstance(recent, list) and len(recent) > RECENT_MAX:
            obj["recent"] = recent[-RECENT_MAX:]
            mended.append(f"kept the newest {RECENT_MAX} of {len(recent)} recent games")
    return parse_stats(obj), mended


def check_stats_text(text: "str | None") -> dict:
    """Read stored statistics text: ``{"stats", "mended", "problem"}``.

    ``problem`` is None when the record was read (``mended`` lists what was left out to read
    it); otherwise it says why the text is not a record, and ``stats`` is a fresh one (the page
    keeps the refused text aside). Missing or empty text is a fresh record with no problem.

    >>> check_stats_text(None)["problem"] is None, check_stats_text("not json")["problem"]
    (True, 'the text is not JSON')
    """
    if text is None or not str(text).strip():
        return {"stats": new_stats(), "mended": [], "problem": None}
    try:
        obj = strict_json(text)  # as strict in MicroPython as in CPython (engine.compat)
    except (ValueError, RuntimeError):  # RuntimeError: nested too deep
        return {"stats": new_stats(), "mended": [], "problem": "the text is not JSON"}
    try:
        record, mended = repair_stats(obj)
    except ValueError as error:
        return {"stats": new_stats(), "mended": [], "problem": str(error)}
    return {"stats": record, "mended": mended, "problem": None}


# --- the summary of a finished game ----------------------------------------------------------


def _load_game(game: object) -> GameState:
    if isinstance(game, GameState):
        return game
    if isinstance(game, (str, bytes, bytearray)):
        return from_json(game)
    if isinstance(game, dict):
        if "format" not in game and "tally" in game and "seat" in game:
            raise ValueError("a seat's view is not enough for the statistics: pass the saved game "
                             "(its to_json text), which keeps every hand's points")
        return from_dict(game)
    raise ValueError(f"expected a game (its JSON text), got {type(game).__name__}")


def game_id(state: GameState) -> str:
    """An id for a game: the first 20 hex digits of sha256 of its saved form as canonical JSON."""
    return sha256_hex(canonical_json(state.to_dict()))[:20]


def game_summary(game: object, difficulty: "str | None" = None, seat: int = 0) -> dict:
    """What the statistics need from a finished game, for the player at ``seat``.

    ``game`` is a GameState, its ``to_json`` text or that text's dict form; a game still in
    progress, or an unknown difficulty, is refused with ValueError. The difficulty is the name of
    the computer seated in the game itself (``players.PLAYER_NAMES``; ``difficulty`` is only for
    games with no computer: FRIEND for a game against a friend, or a computer's name for tests).
    """
    state = _load_game(game)
    if not state.is_over:
        raise ValueError("The game is not finished yet, so it cannot be added to the statistics.")
    computers = sorted(set(kind for kind in state.seats if kind != PERSON))
    if difficulty == FRIEND and (computers or state.players != 2):
        raise ValueError("only a two-player game between people is a game against a friend")
    if computers:
        difficulty = computers[0]
    if difficulty not in PLAYER_NAMES + (FRIEND,):
        raise ValueError(f"difficulty must be one of {', '.join(PLAYER_NAMES + (FRIEND,))}, got {quoted(difficulty)}")
    if not _is_int(seat) or not 0 <= seat < state.players:
        raise ValueError(f"no seat {quoted(seat)} in a {state.players}-player game")
    hand_i, crib_i = SOURCES.index("hand"), SOURCES.index("crib")
    shows = cribs = twenty_nines = 0
    best_hand: int | None = None
    best_crib: int | None = None

    def count(points: int, is_crib: bool) -> None:
        nonlocal shows, cribs, twenty_nines, best_hand, best_crib
        if is_crib:
            cribs += 1
            best_crib = points if best_crib is None else max(best_crib, points)
        else:
            shows += 1
            best_hand = points if best_hand is None else max(best_hand, points)
        twenty_nines += points == MAX_SHOW

    for past in state.history:  # every show of a finished hand was counted
        count(past["points"][seat][hand_i], False)
        if past["dealer"] == seat:
            count(past["points"][seat][crib_i], True)
    order = [((state.dealer + i) % state.players, "hand") for i in range(1, state.players + 1)]
    order.append((state.dealer, "crib"))
    for step, (who, what) in enumerate(order[:state.show_step]):  # the last hand, maybe cut short
        if who == seat:
            count(state.points[seat][crib_i if what == "crib" else hand_i], what == "crib")
    side = state.side_of(seat)
    won = state.side_of(state.winner) == side
    skunks = state.skunks or []
    given = max((skunks[s] for s in range(state.players) if state.side_of(s) != side),
                key=_SKUNKS.index, default="none") if won else "none"
    return {
        "version": SUMMARY_VERSION,
        "id": game_id(state),
        "seat": seat,
        "players": state.players,
        "target": state.target,
        "muggins": state.muggins,
        "difficulty": difficulty,
        "winner": state.winner,
        "won": won,
        "scores": list(state.scores),
        "skunk_given": given,
        "skunk_taken": "none" if won else skunks[seat],
        "points": dict(zip(SOURCES, state.tally[seat])),
        "hands": state.hand_number,
        "shows": shows,
        "cribs": cribs,
        "best_hand": best_hand,
        "best_crib": best_crib,
        "twenty_nines": twenty_nines,
        "hinted": state.hinted,
    }


def parse_summary(obj: object) -> dict:
    """Check a game summary as game_summary writes it; raise ValueError naming the problem."""
    summary = _exact_keys(obj, _SUMMARY_KEYS, "the game summary")
    if summary["version"] != SUMMARY_VERSION:
        raise ValueError(f"unsupported summary version {quoted(summary['version'])}")
    if not (isinstance(summary["id"], str) and len(summary["id"]) == 20):
        raise ValueError("the game summary's id is not a game id")
    if summary["difficulty"] not in PLAYER_NAMES + (FRIEND,):
        raise ValueError(f"unknown difficulty {quoted(summary['difficulty'])}")
    if str(summary["target"]) not in TARGET_KEYS or not _is_int(summary["target"]):
        raise ValueError(f"unknown target {quoted(summary['target'])}")
    for key in ("won", "hinted"):
        if not isinstance(summary[key], bool):
            raise ValueError(f"{key} must be true or false")
    for key in ("skunk_given", "skunk_taken"):
        if summary[key] not in _SKUNKS:
            raise ValueError(f"{key} must be one of {', '.join(_SKUNKS)}")
    if summary["won"] and summary["skunk_taken"] != "none" or not summary["won"] and summary["skunk_given"] != "none":
        raise ValueError("a skunk must be given by the winner and taken by the loser")
    for key in ("hands", "shows", "cribs", "twenty_nines"):
        _count(summary[key], key)
    if summary["hands"] < 1 or summary["shows"] > summary["hands"] or summary["cribs"] > summary["hands"]:
        raise ValueError("the game summary's hand counts do not fit together")
    summary_best_hand = _best(summary["best_hand"], "best_hand", summary["shows"], "hands")
    summary_best_crib = _best(summary["best_crib"], "best_crib", summary["cribs"], "cribs")
    if summary["twenty_nines"] > summary["shows"] + summary["cribs"]:
        raise ValueError("twenty_nines exceeds the hands and cribs counted")
    points = _exact_keys(summary["points"], frozenset(SOURCES), "points")
    clean = dict(summary)
    clean["points"] = {source: _count(points[source], f"points.{source}") for source in SOURCES}
    clean["best_hand"], clean["best_crib"] = summary_best_hand, summary_best_crib
    return clean


# --- updating --------------------------------------------------------------------------------


def _bump(records: dict, key: str, won: bool) -> None:
    rec = dict(records.get(key) or {"games": 0, "wins": 0, "losses": 0})
    rec["games"] += 1
    rec["wins" if won else "losses"] += 1
    records[key] = rec


def _best_of(old: int | None, new: int | None) -> int | None:
    if new is None:
        return old
    return new if old is None else max(old, new)


def record_game(stats: dict, summary: dict) -> dict:
    """A new record with one finished game added (the old one is not changed).

    A game whose id is already among ``recent`` is not counted again: the record comes back
    unchanged (as a copy). A game against a friend counts in ``friends`` only.
    """
    stats = parse_stats(stats)
    summary = parse_summary(summary)
    if summary["id"] in stats["recent"]:
        return stats
    out = json.loads(json.dumps(stats))
    won = summary["won"]
    out["recent"] = (out["recent"] + [summary["id"]])[-RECENT_MAX:]
    if summary["difficulty"] == FRIEND:
        _bump(out, "friends", won)
        return parse_stats(out)
    out["games"] += 1
    out["wins" if won else "losses"] += 1
    _bump(out["by_difficulty"], summary["difficulty"], won)
    _bump(out["by_target"], str(summary["target"]), won)
    out["by_difficulty"] = {k: out["by_difficulty"][k] for k in PLAYER_NAMES if k in out["by_difficulty"]}
    out["by_target"] = {k: out["by_target"][k] for k in TARGET_KEYS if k in out["by_target"]}
    if summary["hinted"]:
        out["hinted"] += 1
        out["hinted_wins"] += 1 if won else 0
    out["streak"] = out["streak"] + 1 if won else 0
    out["best_streak"] = max(out["best_streak"], out["streak"])
    out["best_hand"] = _best_of(out["best_hand"], summary["best_hand"])
    out["best_crib"] = _best_of(out["best_crib"], summary["best_crib"])
    out["twenty_nines"] += summary["twenty_nines"]
    if summary["skunk_given"] == "skunk":
        out["skunks_given"] += 1
    elif summary["skunk_given"] == "double_skunk":
        out["double_skunks_given"] += 1
    if summary["skunk_taken"] == "skunk":
        out["skunks_taken"] += 1
    elif summary["skunk_taken"] == "double_skunk":
        out["double_skunks_taken"] += 1
    for key in ("hands", "shows", "cribs"):
        out[key] += summary[key]
    for source in SOURCES:
        out["points"][source] += summary["points"][source]
    return parse_stats(out)


def averages(stats: dict) -> dict:
    """Average points: pegging per hand dealt, hand per hand counted, crib per crib (None if none).

    >>> averages(new_stats())
    {'pegging': None, 'hand': None, 'crib': None}
    """
    stats = parse_stats(stats)
    points = stats["points"]

    def ratio(total: int, count: int) -> float | None:
        return round_to(total / count, 2) if count else None

    return {"pegging": ratio(points["pegging"], stats["hands"]),
            "hand": ratio(points["hand"], stats["shows"]),
            "crib": ratio(points["crib"], stats["cribs"])}
