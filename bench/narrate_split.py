"""The narrator before and after a change, side by side in one process
(issue 18 point 3 / issue 21: narrate.py split by kind of sentence).

The narrator of commit ``--before`` (read with ``git show``, loaded as a
module of ``app.search``) and today's narrate the same raw events, round by
round interleaved, on: a b=3 d=10 random tree with alpha-beta and minimax
(the hot two-player path), a chance tree with expectiminimax and Star1, and
the whole of tic-tac-toe's first two plies... searched to the end with
alpha-beta (a game: positions in words). Both must make equal events.

    .venv/bin/python bench/narrate_split.py --before <commit> [--rounds 5]
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.games.ids import resolve  # noqa: E402
from app.games.random_tree import random_tree  # noqa: E402
from app.search import SearchOptions, raw_events  # noqa: E402
from app.search.narrate import Narrator  # noqa: E402
from app.search.tree import Tree  # noqa: E402


def old_narrator(commit: str):
    source = subprocess.run(["git", "show", f"{commit}:app/search/narrate.py"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout
    spec = importlib.util.spec_from_loader("app.search._narrate_before", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "app.search"
    exec(compile(source, "narrate.py@" + commit, "exec"), module.__dict__)
    return module.Narrator


def narrate(cls, tree, opts) -> int:
    n = 0
    for _ in cls(tree, opts).narrate(raw_events(tree, opts)):
        n += 1
    return n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    Before = old_narrator(args.before)
    chance = random_tree(branching=4, depth=6, values=(0, 99), seed=5, chance=True)
    chance = Tree(root=chance.root, players=chance.players, title="chance", bounds=(0, 99))
    cases = [
        ("b=3 d=10 alpha-beta", random_tree(branching=3, depth=10, seed=1), "alphabeta"),
        ("b=3 d=10 minimax", random_tree(branching=3, depth=10, seed=1), "minimax"),
        ("chance b=4 d=6 expectiminimax", chance, "expectiminimax"),
        ("chance b=4 d=6 star1", chance, "star1"),
        ("tic-tac-toe (X in a corner) alpha-beta", resolve("game:tictactoe:x........"),
         "alphabeta"),
    ]
    print(f"load average {os.getloadavg()[0]:.2f}; before = {args.before[:10]}")
    print("| run | events | before ms | after ms | after / before |")
    print("|---|---:|---:|---:|---:|")
    worst = 0.0
    for name, tree, alg in cases:
        opts = SearchOptions(algorithm=alg).resolved(tree)
        a = list(Before(tree, opts).narrate(raw_events(tree, opts)))
        b = list(Narrator(tree, opts).narrate(raw_events(tree, opts)))
        assert a == b, name
        times = {"before": [], "after": []}
        for r in range(args.rounds):   # (which goes first alternates: a loaded machine drifts)
            pair = (("before", Before), ("after", Narrator))
            for key, cls in (pair if r % 2 == 0 else pair[::-1]):
                t0 = time.perf_counter()
                narrate(cls, tree, opts)
                times[key].append(time.perf_counter() - t0)
        before, after = (statistics.median(times[k]) for k in ("before", "after"))
        worst = max(worst, after / before)
        print(f"| {name} | {len(a):,} | {before * 1e3:.0f} | {after * 1e3:.0f} | "
              f"{after / before:.2f} |")
    print(f"worst after / before: {worst:.2f}; load average after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
