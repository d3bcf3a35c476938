"""A past revision of the site built beside this one, so a bench can measure both in one run.

A bench names the revision it compares with (a commit: the site as it was before the work its
targets are about); ``BENCH_BASELINE=<git revision>`` names another for every bench, and
``BENCH_BASELINE=none`` measures no baseline. The revision is checked out into a scratch
worktree, built there with this tree's Python and browser runtime (the revision's own build.py,
with node_modules linked from here), and the worktree removed again; the bench serves the built
site from its own address and measures it beside this tree's, in the same interleaved runs.
"""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NONE = "none"


def revision(default: str) -> str:
    """The revision a bench compares with: BENCH_BASELINE if set, else ``default``; "" for none."""
    chosen = os.environ.get("BENCH_BASELINE", "").strip() or default
    return "" if chosen == NONE else chosen


def describe(revision: str) -> str:
    """``revision`` as its short hash and subject line (or as given, if git cannot name it)."""
    done = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%h %s", revision],
                          capture_output=True, text=True)
    line = done.stdout.strip() if done.returncode == 0 else revision
    return line if len(line) <= 90 else line[:87] + "..."


def build_revision(revision: str, folder: Path) -> Path:
    """Build ``revision`` of this repository into ``folder``/site; returns that folder.

    Raises SystemExit with a short message when git does not know the revision or its build fails."""
    tree = folder / "tree"
    added = subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--force", str(tree), revision],
                           capture_output=True, text=True)
    if added.returncode != 0:
        raise SystemExit(f"BENCH_BASELINE={revision}: git cannot check it out ({added.stderr.strip().splitlines()[-1]})")
    try:
        (tree / "node_modules").symlink_to(ROOT / "node_modules")
        built = subprocess.run([sys.executable, "build.py", str(folder / "site")], cwd=tree,
                               capture_output=True, text=True)
        if built.returncode != 0:
            tail = (built.stderr.strip() or built.stdout.strip()).splitlines()[-1:]
            raise SystemExit(f"BENCH_BASELINE={revision}: its build failed ({' '.join(tail)})")
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
    return folder / "site"
