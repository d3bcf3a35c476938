"""Computer against computer: many seeded games played through engine.game and views only.

Games come in pairs dealt from the same seed with the seats swapped, so each player deals first
in one game of the pair and the luck of the cards largely cancels. Every game is a function of
the match seed and its number, so a match gives the same figures with any number of worker
processes (``jobs``; CPython only, the browser plays one game at a time).

A player is named by a computer opponent's name ("easy", "hard"), the path of a bot's file
(ending ``.py``, see engine.bots) or a function ``seed -> player``. ``MatchRun`` plays a match a
few games at a time, for a page that shows its progress (the bot lab's worker).

>>> result = play_match("hard", "easy", games=2, seed="doc")
>>> result.games, 0 <= result.wins <= 2, result.to_dict()["players"]
(2, True, ['hard', 'easy'])
"""

import time
from math import sqrt

from engine.game import SOURCES, new_game
from engine.lab import SECOND_SEED
from engine.players import get_player

BOT_SUFFIX = ".py"

ROLES = ("dealer", "pone")
Z95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval (default 95%) for a win rate.

    >>> [round(x, 3) for x in wilson_interval(90, 100)]
    [0.826, 0.945]
    """
    if games <= 0:
        return (0.0, 1.0)
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def make_player(spec, seed: str):
    """The player a spec names: a computer opponent's name, a bot file's path or a factory."""
    if callable(spec):
        return spec(seed)
    if isinstance(spec, str) and spec.endswith(BOT_SUFFIX):
        from engine import bots

        return bots.bot_from_file(spec)
    return get_player(spec, seed=seed)


def player_label(spec) -> str:
    """How a match's report names a player: its name, a bot file's name, or the factory's name."""
    if isinstance(spec, str):
        return spec.replace("\\", "/").rsplit("/", 1)[-1]
    return str(getattr(spec, "label", None) or getattr(spec, "__name__", None) or "bot")


def _empty_tally() -> dict:
    return {
        "games": 0, "wins": 0, "first_dealer_wins": 0, "hands": 0,
        "skunks": [0, 0], "double_skunks": [0, 0],
        # points[player][role][source] over complete hands; hands[player][role]
        "points": [[[0] * len(SOURCES) for _ in ROLES] for _ in range(2)],
        "role_hands": [[0, 0], [0, 0]],
        "decisions": 0,
    }


def _merge(into: dict, part: dict) -> dict:
    for key, value in part.items():
        if isinstance(value, list):
            _merge_list(into[key], value)
        else:
            into[key] += value
    return into


def _merge_list(into: list, part: list) -> None:
    for i, value in enumerate(part):
        if isinstance(value, list):
            _merge_list(into[i], value)
        else:
            into[i] += value


def play_game(first, second, game_seed: str, first_seat: int, target: int = 121,
              muggins: bool = False, tally: dict | None = None, on_end=None) -> dict:
    """Play one game, first-named player in first_seat; add its figures to tally and return it.

    Each player is asked only with its seat's view and the legal actions in it. ``on_end``, if
    given, is called with the finished game (engine.game.GameState).
    """
    tally = _empty_tally() if tally is None else tally
    state = new_game(seed=game_seed, target=target, muggins=muggins)
    seats = {first_seat: 0, 1 - first_seat: 1}  # seat -> player index (0: first-named)
    players = {first_seat: make_player(first, f"{game_seed}:first"),
               1 - first_seat: make_player(second, SECOND_SEED.format(game_seed))}
    first_dealer = None
    dealer = None
    hand_points = [[0] * len(SOURCES) for _ in range(2)]  # by seat, this hand
    complete = []  # (dealer, points by seat and source) of every complete hand

    def absorb(events: list[dict]) -> None:
        nonlocal dealer, first_dealer, hand_points
        for event in events:
            kind = event["type"]
            if kind == "deal":
                if dealer is not None:
                    complete.append((dealer, hand_points))
                dealer = event["dealer"]
                if first_dealer is None:
                    first_dealer = dealer
                hand_points = [[0] * len(SOURCES) for _ in range(2)]
            elif kind == "score":
                hand_points[event["seat"]][SOURCES.index(event["source"])] += event["points"]

    absorb(state.start_events)
    decisions = 0
    while not state.is_over:
        seat = state.to_act
        view = state.view(seat)
        action = players[seat].choose(view, view["legal_actions"])
        decisions += 1
        absorb(state.apply(action))
    if on_end is not None:
        on_end(state)

    winner = seats[state.winner]
    tally["games"] += 1
    tally["decisions"] += decisions
    tally["wins"] += winner == 0
    tally["first_dealer_wins"] += state.winner == first_dealer
    kind = state.skunk
    if kind == "skunk":
        tally["skunks"][winner] += 1
    elif kind == "double_skunk":
        tally["double_skunks"][winner] += 1
    for hand_dealer, points in complete:
        tally["hands"] += 1
        for seat in (0, 1):
            who, role = seats[seat], 0 if seat == hand_dealer else 1
            tally["role_hands"][who][role] += 1
            for k, p in enumerate(points[seat]):
                tally["points"][who][role][k] += p
    return tally


def _game_plan(index: int, seed: str) -> tuple[str, int]:
    """The seed and the first-named player's seat of game number index (pairs share a seed)."""
    return f"{seed}:{index // 2}", index % 2


def game_code(state, names: tuple, first_seat: int) -> str | None:
    """A finished match game as a game code (engine.share) for the replay view, or None if it
    cannot be one (a seed too long for a code).

    Both seats are written down as people named by ``names`` (the first-named player's name,
    then the other's), the first-named player's in ``first_seat``: the code then holds every
    decision, so it replays the very game without asking either player again (a bot from a
    file is not at hand where the game is replayed, and the computers of a match play from a
    seed of their own, not the table's).
    """
    from engine import share

    state.names = [names[0], names[1]] if first_seat == 0 else [names[1], names[0]]
    try:
        return share.encode(state)
    except ValueError:
        return None


def _play_range(task: tuple) -> dict:
    first, second, seed, start, stop, target, muggins = task
    tally = _empty_tally()
    for index in range(start, stop):
        game_seed, seat = _game_plan(index, seed)
        play_game(first, second, game_seed, seat, target, muggins, tally)
    return tally


class MatchResult:
    """The figures of a match: wins of the first-named player, skunks, points by source, speed."""

    def __init__(self, first: str, second: str, seed: str, target: int, muggins: bool, jobs: int,
                 tally: dict, elapsed: float) -> None:
        """Hold a match's summed tally and how long it took."""
        self.players = (player_label(first), player_label(second))
        self.seed = seed
        self.target = target
        self.muggins = muggins
        self.jobs = jobs
        self.tally = tally
        self.elapsed = elapsed

    @property
    def games(self) -> int:
        """Games played."""
        return self.tally["games"]

    @property
    def wins(self) -> int:
        """Games won by the first-named player."""
        return self.tally["wins"]

    @property
    def win_rate(self) -> float:
        """The first-named player's share of the games."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    def points_per_hand(self, who: int) -> dict:
        """Average points a complete hand by source (and in all) for player 0 or 1, both roles."""
        hands = sum(self.tally["role_hands"][who])
        sums = [sum(self.tally["points"][who][role][k] for role in range(2)) for k in range(len(SOURCES))]
        figures = {source: (sums[k] / hands if hands else 0.0) for k, source in enumerate(SOURCES)}
        figures["total"] = sum(sums) / hands if hands else 0.0
        return figures

    def pegging_by_role(self, who: int) -> dict:
        """Average pegging points a hand for player 0 or 1 as dealer and as pone."""
        out = {}
        for role, name in enumerate(ROLES):
            hands = self.tally["role_hands"][who][role]
            out[name] = self.tally["points"][who][role][0] / hands if hands else 0.0
        return out

    @property
    def games_per_second(self) -> float:
        """Games played a second (wall clock, all workers)."""
        return self.games / self.elapsed if self.elapsed > 0 else 0.0

    def to_dict(self) -> dict:
        """Return the figures as a JSON-ready dict (wins and win_rate are the first player's)."""
        lo, hi = self.interval
        t = self.tally
        return {
            "players": list(self.players),
            "seed": self.seed, "target": self.target, "muggins": self.muggins,
            "games": self.games, "wins": self.wins, "losses": self.games - self.wins,
            "win_rate": self.win_rate, "interval": [lo, hi],
            "skunks": list(t["skunks"]), "double_skunks": list(t["double_skunks"]),
            "first_dealer_wins": t["first_dealer_wins"],
            "first_dealer_win_rate": t["first_dealer_wins"] / self.games if self.games else 0.0,
            "hands": t["hands"],
            "points_per_hand": [self.points_per_hand(i) for i in (0, 1)],
            "pegging_by_role": [self.pegging_by_role(i) for i in (0, 1)],
            "decisions": t["decisions"],
            "jobs": self.jobs, "elapsed_s": self.elapsed, "games_per_s": self.games_per_second,
        }

    def report(self) -> str:
        """The figures as a few lines of text."""
        a, b = self.players
        lo, hi = self.interval
        t = self.tally
        lines = [
            f"{a} (first) against {b}: {self.games} games to {self.target}"
            f"{' with muggins' if self.muggins else ''}, seed {self.seed!r}",
            f"{a} won {self.wins} of {self.games}: {100 * self.win_rate:.1f}% "
            f"(95% interval {100 * lo:.1f}% to {100 * hi:.1f}%)",
            f"skunks won: {a} {t['skunks'][0]} (and {t['double_skunks'][0]} double), "
            f"{b} {t['skunks'][1]} (and {t['double_skunks'][1]} double)",
            f"the first dealer won {100 * t['first_dealer_wins'] / max(1, self.games):.1f}% of games",
            f"average points a hand over {t['hands']} complete hands:",
            "  player      " + "".join(f"{s:>9}" for s in SOURCES) + "    total   pegging as dealer/pone",
        ]
        for i, name in enumerate(self.players):
            pph = self.points_per_hand(i)
            role = self.pegging_by_role(i)
            lines.append(f"  {i + 1}. {name:<8}" + "".join(f"{pph[s]:9.2f}" for s in SOURCES)
                         + f"{pph['total']:9.2f}   {role['dealer']:.2f} / {role['pone']:.2f}")
        lines.append(f"{self.games_per_second:.1f} games/s ({self.elapsed:.1f} s, "
                     f"{self.jobs} job{'s' if self.jobs != 1 else ''})")
        return "\n".join(lines)


def play_match(first, second, games: int = 1000, seed: str | int = 0, jobs: int = 1,
               target: int = 121, muggins: bool = False) -> MatchResult:
    """Play games between two players (names, bot files or factories); jobs > 1 uses worker processes."""
    make_player(first, "check")  # bad names and bots fail here, before any worker starts
    make_player(second, "check")
    if games < 1:
        raise ValueError(f"a match needs at least one game, got {games}")
    seed = str(seed)
    started = time.perf_counter()
    jobs = max(1, min(jobs, games))
    if jobs == 1:
        tally = _play_range((first, second, seed, 0, games, target, muggins))
    else:
        import multiprocessing

        chunk = max(2, min(50, games // (jobs * 4) // 2 * 2))
        tasks = [(first, second, seed, start, min(start + chunk, games), target, muggins)
                 for start in range(0, games, chunk)]
        with multiprocessing.get_context().Pool(jobs) as pool:
            parts = pool.map(_play_range, tasks, chunksize=1)
        tally = _empty_tally()
        for part in parts:
            _merge(tally, part)
    return MatchResult(first, second, seed, target, muggins, jobs, tally, time.perf_counter() - started)


class MatchRun:
    """A match played a few games at a time: ``step`` plays for a moment and returns, so a page
    can show the progress between steps. The games are those ``play_match`` plays (same seeds,
    same seats), so the same seed gives the same match on the command line.

    >>> run = MatchRun("hard", "easy", games=2, seed="doc")
    >>> while not run.is_done:
    ...     _ = run.step(seconds=0.0)
    >>> run.result().games, [g["first_seat"] for g in run.played]
    (2, [0, 1])
    """

    def __init__(self, first, second, games: int, seed: str | int = 0, target: int = 121,
                 muggins: bool = False, names: tuple | None = None) -> None:
        """Prepare the match (bad players fail here); no game is played yet. With ``names``
        (the two players' names, first-named first), each game played keeps its code to
        replay (``game_code``)."""
        if type(games) is not int or games < 1:
            raise ValueError(f"a match needs at least one game, got {games!r}")
        self.first, self.second = first, second
        self.players = (make_player(first, "check"), make_player(second, "check"))
        self.games = games
        self.seed = str(seed)
        self.target = target
        self.muggins = muggins
        self.tally = _empty_tally()
        self.names = names
        self.played: list[dict] = []  # per game: number, seed, the first player's seat, won (and code)
        self.elapsed = 0.0

    @property
    def done(self) -> int:
        """Games played so far."""
        return len(self.played)

    @property
    def is_done(self) -> bool:
        """True once every game is played."""
        return self.done >= self.games

    def step(self, seconds: float = 0.25) -> int:
        """Play games for about ``seconds`` (at least one unless done); return how many were played."""
        began = time.perf_counter()
        count = 0
        while not self.is_done:
            index = self.done
            game_seed, seat = _game_plan(index, self.seed)
            wins = self.tally["wins"]
            finished: list = []
            started = time.perf_counter()
            try:
                play_game(self._spec(0), self._spec(1), game_seed, seat, self.target, self.muggins, self.tally,
                          on_end=finished.append)
            finally:
                self.elapsed += time.perf_counter() - started
            entry = {"game": index + 1, "seed": game_seed, "first_seat": seat, "won": self.tally["wins"] > wins}
            if self.names is not None:
                entry["code"] = game_code(finished[0], self.names, seat)
            self.played.append(entry)
            count += 1
            if time.perf_counter() - began >= seconds:
                break
        return count

    def _spec(self, which: int):
        """What play_game gets for a player: names and factories as given, a bot file's player
        as loaded (a bot runs once per match)."""
        spec = (self.first, self.second)[which]
        if isinstance(spec, str) and spec.endswith(BOT_SUFFIX):
            player = self.players[which]
            return lambda seed: player
        return spec

    def progress(self) -> dict:
        """Games played, the first player's wins and losses so far, and the time taken."""
        wins = self.tally["wins"]
        return {"done": self.done, "games": self.games, "wins": wins, "losses": self.done - wins,
                "elapsed_s": self.elapsed}

    def result(self) -> MatchResult:
        """The figures of the games played so far."""
        return MatchResult(self.first, self.second, self.seed, self.target, self.muggins, 1,
                           self.tally, self.elapsed)
