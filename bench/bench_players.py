"""Computer opponents and the discard table: decision latency, table generation, matches.

Figures are printed and saved to .bench/players.json. Targets on the 2-core build machine (in
CPython): the hard opponent's discard under 20 ms and its play under 5 ms (medians), the whole
crib table under 15 s, hard beating easy in at least 85% of a 2,000-game match; the expert's
decisions at most 50 ms (median), and the expert beating hard in at least 56% and easy in at
least 92% of its matches (fewer games: the expert searches, so its games are slower).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / ".bench" / "players.json"

DISCARD_TARGET_MS = 20.0
PLAY_TARGET_MS = 5.0
TABLE_TARGET_S = 15.0
WIN_TARGET = 0.85
LATENCY_GAMES = 60
MATCH_GAMES = 2000
MATCH_SEED = 7
MATCH_JOBS = 2
EXPERT_TARGET_MS = 50.0
EXPERT_WIN_TARGETS = {"hard": 0.56, "easy": 0.92}
EXPERT_MATCH_GAMES = 400
EXPERT_LATENCY_GAMES = 10


def decision_latencies(games: int = LATENCY_GAMES, level: str = "hard",
                       against: str = "easy") -> dict[str, list[float]]:
    """Time every decision of one player (seat alternating) in games against another, in ms."""
    from engine.game import new_game
    from engine.players import get_player

    times: dict[str, list[float]] = {"discard": [], "play": [], "play_choice": []}
    for g in range(games):
        state = new_game(seed=f"bench-latency-{g}")
        hard_seat = g % 2
        players = {hard_seat: get_player(level, seed=g), 1 - hard_seat: get_player(against, seed=g)}
        while not state.is_over:
            seat = state.to_act
            view = state.view(seat)
            legal = view["legal_actions"]
            started = time.perf_counter()
            action = players[seat].choose(view, legal)
            elapsed = 1000 * (time.perf_counter() - started)
            if seat == hard_seat and action["type"] in ("discard", "play"):
                times[action["type"]].append(elapsed)
                if action["type"] == "play" and len(legal) > 1:
                    times["play_choice"].append(elapsed)
            state.apply(action)
    return times


def _summary(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {"n": len(ordered), "median": statistics.median(ordered),
            "p90": ordered[int(0.9 * (len(ordered) - 1))], "max": ordered[-1]}


TABLE_COMMAND = "table command s (fresh interpreter, counted and written)"


def table_times() -> dict[str, float]:
    """Time the table: the command end to end (wall clock, best of 3), and in process (CPU too)."""
    from engine.analysis import compute_crib_table

    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, extra, repeat in ((TABLE_COMMAND, [], 3),
                                     ("table command --check s (every deal also scored)", ["--check"], 1)):
            best = float("inf")
            for _ in range(repeat):
                started = time.perf_counter()
                subprocess.run([sys.executable, "-m", "engine", "table", *extra, "--out",
                                str(Path(tmp) / "t.json")], cwd=ROOT, check=True, capture_output=True)
                best = min(best, time.perf_counter() - started)
            figures[label] = best
    for label, brute, repeat in (("table counted in process", False, 5),
                                 ("table, every deal scored in process", True, 1)):
        wall = cpu = float("inf")
        for _ in range(repeat):
            started, started_cpu = time.perf_counter(), time.process_time()
            compute_crib_table(brute=brute)
            wall = min(wall, time.perf_counter() - started)
            cpu = min(cpu, time.process_time() - started_cpu)
        figures[f"{label} s (wall)"] = wall
        figures[f"{label} s (CPU)"] = cpu
    return figures


def main() -> None:
    """Measure and print the opponents' figures."""
    from engine.match import play_match

    figures: dict[str, object] = {}
    times = decision_latencies()
    for kind, label in (("discard", "hard discard ms"), ("play", "hard play ms (every play)"),
                        ("play_choice", "hard play ms (two or more cards to choose from)")):
        summary = _summary(times[kind])
        figures[label] = summary
        print(f"  {label:<48} median {summary['median']:.3f}  p90 {summary['p90']:.3f}  "
              f"max {summary['max']:.3f}  (n={summary['n']})")

    for key, value in table_times().items():
        figures[key] = value
        print(f"  {key:<48} {value:.3f}")

    result = play_match("hard", "easy", games=MATCH_GAMES, seed=MATCH_SEED, jobs=MATCH_JOBS)
    data = result.to_dict()
    figures["match"] = data
    print("  " + result.report().replace("\n", "\n  "))

    expert_times = decision_latencies(EXPERT_LATENCY_GAMES, "expert", "hard")
    every = expert_times["discard"] + expert_times["play"]
    for kind, label, values in (("discard", "expert discard ms", expert_times["discard"]),
                                ("play_choice", "expert play ms (two or more cards)", expert_times["play_choice"]),
                                ("all", "expert decision ms (all)", every)):
        summary = _summary(values)
        figures[label] = summary
        print(f"  {label:<48} median {summary['median']:.3f}  p90 {summary['p90']:.3f}  "
              f"max {summary['max']:.3f}  (n={summary['n']})")
    expert_checks = []
    for other, target in sorted(EXPERT_WIN_TARGETS.items()):
        match = play_match("expert", other, games=EXPERT_MATCH_GAMES, seed=MATCH_SEED, jobs=MATCH_JOBS)
        figures[f"match expert-{other}"] = match.to_dict()
        print("  " + match.report().replace("\n", "\n  "))
        expert_checks.append((f"expert beats {other} >= {100 * target:.0f}%", match.win_rate >= target))

    discard_ms = figures["hard discard ms"]["median"]  # type: ignore[index]
    play_ms = figures["hard play ms (every play)"]["median"]  # type: ignore[index]
    table_s = figures[TABLE_COMMAND]
    checks = [
        (f"discard < {DISCARD_TARGET_MS:g} ms", discard_ms < DISCARD_TARGET_MS),
        (f"play < {PLAY_TARGET_MS:g} ms", play_ms < PLAY_TARGET_MS),
        (f"table < {TABLE_TARGET_S:g} s", table_s < TABLE_TARGET_S),
        (f"hard wins >= {100 * WIN_TARGET:.0f}%", data["win_rate"] >= WIN_TARGET),
        (f"expert decision < {EXPERT_TARGET_MS:g} ms", figures["expert decision ms (all)"]["median"]  # type: ignore[index]
         < EXPERT_TARGET_MS),
    ] + expert_checks
    print("  targets: " + "; ".join(f"{name}: {'met' if ok else 'MISSED'}" for name, ok in checks))
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
