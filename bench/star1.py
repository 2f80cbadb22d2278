"""Star1 against a plain recursive expectiminimax (issue 21: pruning at chance nodes).

On seeded random chance trees of 10,000 leaves (MAX, chance, MIN, chance
layers, 10 children each; probabilities in tenths; leaf values 0..99, so
bounds [0, 99]), side by side in one process, interleaved round by round:

* ``star1``   - the core's Star1 raw event stream (app.search.raw_events,
  ``algorithm="star1"``), consumed by a counting loop;
* ``expecti`` - the core's expectiminimax raw events, the same way (context);
* ``plain``   - a plain recursive expectiminimax written here, no events.

Checked first: Star1's value equals both others' and it evaluates fewer
leaves. The ratio is star1 / plain (the issue asks <= 1.0x), median of the
rounds; the machine's load average is printed.

    .venv/bin/python bench/star1.py [--rounds 7]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games.random_tree import random_tree  # noqa: E402
from app.search import SearchOptions, raw_events  # noqa: E402
from app.search.algorithms import EVAL, RET  # noqa: E402
from app.search.tree import Tree  # noqa: E402


def plain(node) -> float:
    """AIMA's EXPECTIMINIMAX, recursively, no events."""
    kids = node.children
    if not kids:
        return node.value
    if node.chance:
        v = 0
        for c in kids:
            v = v + c.probability * plain(c)
        return v
    if node.player == 0:
        return max(plain(c) for c in kids)
    return min(plain(c) for c in kids)


def counted(tree, opts) -> tuple[object, int, int]:
    """Consume the raw stream: (root value, leaves evaluated, events)."""
    leaves = events = 0
    value = None
    for ev in raw_events(tree, opts):
        events += 1
        if ev[0] == RET:
            if ev[4] is not None:
                leaves += 1
        elif ev[0] == EVAL:
            leaves += 1
            value = ev[2]
        else:
            value = ev[2]
    return value, leaves, events


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seeds", type=int, nargs="*", default=[1, 2, 3])
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; "
          f"python {sys.version.split()[0]}")
    worst = 0.0
    for seed in args.seeds:
        base = random_tree(branching=10, depth=4, values=(0, 99), seed=seed, chance=True)
        tree = Tree(root=base.root, players=base.players, title=base.title, bounds=(0, 99))
        star = SearchOptions(algorithm="star1")
        expecti = SearchOptions(algorithm="expectiminimax")
        v_star, l_star, e_star = counted(tree, star)
        v_exp, l_exp, e_exp = counted(tree, expecti)
        v_plain = plain(tree.root)
        assert v_star == v_exp == v_plain, (v_star, v_exp, v_plain)
        assert l_star < l_exp == len(tree.leaves), (l_star, l_exp)
        times = {"star1": [], "expecti": [], "plain": []}
        for _ in range(args.rounds):
            for name, fn in (("star1", lambda: counted(tree, star)),
                             ("expecti", lambda: counted(tree, expecti)),
                             ("plain", lambda: plain(tree.root))):
                t0 = time.perf_counter()
                fn()
                times[name].append(time.perf_counter() - t0)
        med = {k: statistics.median(v) for k, v in times.items()}
        ratio = med["star1"] / med["plain"]
        worst = max(worst, ratio)
        print(f"seed {seed}: {len(tree.leaves):,} leaves, value {v_star:.4g}; "
              f"star1 evaluates {l_star:,} ({l_star / l_exp:.0%}), {e_star:,} raw events | "
              f"star1 {med['star1'] * 1e3:.1f} ms, expectiminimax events "
              f"{med['expecti'] * 1e3:.1f} ms, plain recursive {med['plain'] * 1e3:.1f} ms | "
              f"star1 / plain = {ratio:.2f}x")
    print(f"worst star1 / plain: {worst:.2f}x (target <= 1.0x)")
    print(f"load average after {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
