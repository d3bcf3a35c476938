"""The sealed deck's work per hand per player, in CPython here and in MicroPython under node.

Two sides of a sealed friend game (engine/sealed_game.py) play GAMES (2) whole games to 61
against each other by messages, moves drawn from a seeded generator, in one interpreter. Each
side's time is the time spent in its own calls (``receive``, ``act``, ``work``): the shuffles,
the openings, the checks and the game itself on the deal it knows. Printed per hand per side,
the shuffles (``work``) apart, beside the target (1.5 s per hand per player in MicroPython
under node). Saved to .bench/sealed.json.
"""

import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = 2
TARGET_S = 1.5

DRIVER = r'''
import json, time
from engine import fairdeal
from engine.seeds import derive_seed
from engine.sealed_game import SealedGame, public_seed

try:
    clock = time.perf_counter
except AttributeError:
    def clock():
        return time.ticks_us() / 1e6

GAME = {}  # the game being played: its sides, queues, generator and times
SEEDS = ["bench-%d" % k for k in range(GAMES)]
RESULT = []

def begin(seed):
    own = [derive_seed(seed, "s0"), derive_seed(seed, "s1")]
    commits = [fairdeal.commitment(s) for s in own]
    pub = public_seed(derive_seed(seed, "a"), derive_seed(seed, "b"))
    GAME.update(sides=[SealedGame(i, ["Ann", "Bob"], 61, False, pub, own[i], commits) for i in (0, 1)],
                rng=fairdeal.Sfc32(derive_seed(seed, "moves")), spent=[0.0, 0.0], shuffles=[0.0, 0.0],
                queues=[[], []])

def advance():
    """Play on until a hand ends (one top-level call each: MicroPython frees memory between them)."""
    if not GAME:
        if not SEEDS:
            return
        begin(SEEDS.pop(0))
    sides, queues, spent, shuffles, rng = GAME["sides"], GAME["queues"], GAME["spent"], GAME["shuffles"], GAME["rng"]
    hand = sides[0].state.hand_number if sides[0].state is not None else 1
    while True:
        if sides[0].state is not None and sides[0].state.hand_number != hand:
            return
        moved = False
        for i in (0, 1):
            for m in sides[i].take_messages():
                queues[1 - i].append(json.loads(json.dumps(m)))
                moved = True
        for i in (0, 1):
            if queues[i]:
                t = clock(); sides[i].receive(queues[i].pop(0)); spent[i] += clock() - t
                moved = True
        if moved:
            continue
        for i in (0, 1):
            t = clock(); worked = sides[i].work(); dt = clock() - t
            spent[i] += dt; shuffles[i] += dt
            if worked:
                moved = True
        if moved:
            continue
        for i in (0, 1):
            st = sides[i].state
            if st is not None and not st.is_over and st.to_act == i and not sides[i].pending:
                legal = st.legal_actions()
                t = clock(); sides[i].act(legal[rng.below(len(legal))]); spent[i] += clock() - t
                moved = True
                break
        if not moved:
            break
    assert sides[0].final is not None and sides[1].final is not None
    RESULT.append({"hands": sides[0].state.hand_number, "spent": spent, "shuffles": shuffles})
    GAME.clear()
'''
CALLS_PER_GAME = 40  # ``advance`` calls a game may take (a hand each)


def _summary(results: list) -> dict:
    hands = sum(r["hands"] for r in results)
    return {"hands": hands,
            "per_hand_s": [sum(r["spent"][i] for r in results) / hands for i in (0, 1)],
            "shuffles_per_hand_s": [sum(r["shuffles"][i] for r in results) / hands for i in (0, 1)]}


def run_cpython(games: int) -> dict:
    """The games in CPython here."""
    scope: dict = {}
    exec(compile(DRIVER.replace("GAMES", str(games)), "sealed-driver", "exec"), scope)
    while len(scope["RESULT"]) < games:
        scope["advance"]()
    return _summary(scope["RESULT"])


def run_micropython(games: int) -> dict:
    """The same games in the vendored MicroPython under node."""
    calls = ["advance()"] * (CALLS_PER_GAME * games) + ["print(json.dumps(RESULT))"]
    out = subprocess.run(["node", str(ROOT / "tests/conformance/micropython.mjs"), str(ROOT),
                          DRIVER.replace("GAMES", str(games)), *calls], check=True, capture_output=True, text=True).stdout
    return _summary(json.loads(out.strip().splitlines()[-1]))


def main() -> None:
    """Print and save the figures."""
    report = {"CPython here": run_cpython(GAMES), "MicroPython under node": run_micropython(GAMES)}
    print(f"a sealed friend game's work per hand per player ({GAMES} games to 61, "
          f"{report['CPython here']['hands']} hands):")
    print(f"  {'':<26} {'inviter':>10} {'friend':>10} {'of it, shuffles':>22}")
    for label, figures in report.items():
        a, b = figures["per_hand_s"]
        sa, sb = figures["shuffles_per_hand_s"]
        print(f"  {label:<26} {a:8.3f} s {b:8.3f} s {sa:9.3f} s {sb:9.3f} s")
    print(f"  {'target (MicroPython)':<26} {TARGET_S:8.1f} s {TARGET_S:8.1f} s")
    worst = max(report["MicroPython under node"]["per_hand_s"])
    report["target_met"] = worst <= TARGET_S
    print(f"  target {'met' if report['target_met'] else 'NOT met'} (worst side {worst:.3f} s per hand)")
    folder = ROOT / ".bench"
    folder.mkdir(exist_ok=True)
    (folder / "sealed.json").write_text(json.dumps(report, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
