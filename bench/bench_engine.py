"""Engine speed: import time, table build, the full score distribution, hands counted a second.

Figures are printed and saved to .bench/engine.json. Targets on the 2-core build machine: the
full distribution of hand and crib scores under 2 s, and at least 2,000,000 show totals a
second through ``show_total`` in one process.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / ".bench" / "engine.json"

HANDS = 1_000_000
DISTRIBUTION_TARGET_S = 2.0
SHOW_TOTAL_TARGET = 2_000_000


def _fresh(code: str, repeat: int = 5) -> float:
    """Run code in a fresh interpreter `repeat` times; return the best figure it prints."""
    best = float("inf")
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout
        best = min(best, float(out))
    return best


def _import_time(module: str) -> float:
    return _fresh(f"import time; t = time.perf_counter(); import {module}; "
                  f"print(time.perf_counter() - t)")


def _best_of(func, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    """Measure and print the engine's figures."""
    figures: dict[str, float] = {}

    for module in ("engine.cards", "engine.scoring", "engine.fairdeal", "engine.analysis"):
        figures[f"import {module} ms"] = 1000 * _import_time(module)
    figures["table build ms (first show_total)"] = 1000 * _fresh(
        "import time; from engine.scoring import build_tables; t = time.perf_counter(); "
        "build_tables(); print(time.perf_counter() - t)")
    figures["distribution cold s (hand + crib, with table build)"] = _fresh(
        "import time; from engine.analysis import score_distribution; t = time.perf_counter(); "
        "score_distribution(); score_distribution(crib=True); print(time.perf_counter() - t)", repeat=3)

    from engine.analysis import score_distribution
    from engine.scoring import score_play, score_show, show_total

    figures["distribution warm s (hand + crib)"] = _best_of(
        lambda: (score_distribution(), score_distribution(crib=True)))

    rng = random.Random(2024)
    deals = []
    for _ in range(HANDS):
        five = rng.sample(range(52), 5)
        deals.append((tuple(five[:4]), five[4]))

    def hands() -> None:
        for hand, starter in deals:
            show_total(hand, starter)

    def cribs() -> None:
        for hand, starter in deals:
            show_total(hand, starter, True)

    figures["show_total hands/s"] = HANDS / _best_of(hands)
    figures["show_total cribs/s"] = HANDS / _best_of(cribs)
    some = deals[:20_000]
    figures["score_show (itemised) hands/s"] = len(some) / _best_of(
        lambda: [score_show(h, s) for h, s in some], repeat=2)

    plays = []
    for _ in range(100_000):
        cards, count = [], 0
        for card in rng.sample(range(52), 8):
            value = min(card % 13 + 1, 10)
            if count + value > 31:
                break
            cards.append(card)
            count += value
        plays.append(cards)
    figures["score_play calls/s"] = len(plays) / _best_of(lambda: [score_play(p) for p in plays], repeat=2)

    from engine.fairdeal import shuffled_deck
    seeds = [f"{rng.getrandbits(128):032x}" for _ in range(10_000)]
    figures["shuffled_deck decks/s"] = len(seeds) / _best_of(lambda: [shuffled_deck(s) for s in seeds], 2)

    width = max(len(k) for k in figures)
    for key, value in figures.items():
        shown = f"{value:,.0f}" if value >= 1000 else f"{value:.3f}"
        print(f"  {key:<{width}}  {shown}")
    distribution = figures["distribution cold s (hand + crib, with table build)"]
    rate = figures["show_total hands/s"]
    print(f"  target: distribution < {DISTRIBUTION_TARGET_S} s: "
          f"{'met' if distribution < DISTRIBUTION_TARGET_S else 'MISSED'}; "
          f"show_total >= {SHOW_TOTAL_TARGET:,}/s: {'met' if rate >= SHOW_TOTAL_TARGET else 'MISSED'}")
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
