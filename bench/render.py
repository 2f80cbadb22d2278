"""How fast are the pictures? (issue: pictures for slides and worksheets, item 6)

Times, as the median of several rounds, each from the tree to the finished bytes
(search, replay, layout, DOT, Graphviz):

* SVG of the final state of a ~100-node tree    (goal: < 0.3 s)
* SVG of the final state of a ~1,000-node tree  (goal: < 2 s)
* the worksheet PDF (question + answer key) of AIMA Fig. 5.2, a lecture tree (goal: < 2 s)

    .venv/bin/python bench/render.py [--rounds 7]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from app.games.random_tree import random_tree  # noqa: E402
from app.render import export  # noqa: E402
from app.render.worksheet import worksheet  # noqa: E402
from app.search import SearchOptions  # noqa: E402
from app.treefile import load_path, load_tree  # noqa: E402

FIG_5_2 = """\
title: AIMA Figure 5.2, a two-ply game
source: Russell & Norvig, AIMA 3rd ed., Fig. 5.2
root:
  id: A
  children:
    - {id: B, children: [{id: b1, value: 3}, {id: b2, value: 12}, {id: b3, value: 8}]}
    - {id: C, children: [{id: c1, value: 2}, {id: c2, value: 4}, {id: c3, value: 6}]}
    - {id: D, children: [{id: d1, value: 14}, {id: d2, value: 5}, {id: d3, value: 2}]}
"""


def lecture_tree():
    for name in ("aima-5-2.yaml", "aima-fig-5-2.yaml", "fig52.yaml"):
        path = REPO / "trees" / name
        if path.exists():
            return load_path(path)
    return load_tree(FIG_5_2, filename="fig52.yaml")


def median_time(make, rounds: int) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(rounds):
        start = time.perf_counter()
        size = len(make())
        times.append(time.perf_counter() - start)
    return statistics.median(times), size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    ab = SearchOptions(algorithm="alphabeta")
    small = random_tree(branching=3, depth=4, seed=1)   # 121 nodes
    large = random_tree(branching=3, depth=6, seed=1)   # 1,093 nodes
    lecture = lecture_tree()
    cases = [
        (f"SVG, {len(small.nodes)}-node tree", 0.3, lambda: export(small, ab, None, "svg")),
        (f"SVG, {len(large.nodes)}-node tree", 2.0, lambda: export(large, ab, None, "svg")),
        (f"worksheet PDF, {lecture.title}", 2.0, lambda: worksheet(lecture, ab)),
    ]
    failed = 0
    failed += against_dot(large, ab, args.rounds)
    for name, goal, make in cases:
        seconds, size = median_time(make, args.rounds)
        ok = seconds < goal
        failed += not ok
        print(f"{name:<55} median {seconds:6.3f} s  (goal < {goal} s, {size:,} bytes)  "
              f"{'ok' if ok else 'SLOW'}")
    return 1 if failed else 0


def against_dot(tree, options, rounds: int) -> int:
    """Issue 30: the worksheet PDF of a 1,093-node tree (question and answer
    key) against ``dot -Tpdf`` on the same DOT text (both pages), rounds
    interleaved, medians; goal <= 1.5x. Prints the load average beside it."""
    import os
    import subprocess

    from app.render.worksheet import worksheet_pages

    dot_text = "\n".join(worksheet_pages(tree, options)).encode("utf-8")
    times: dict[str, list[float]] = {"ours": [], "dot": [], "neato": []}
    sizes: dict[str, int] = {}
    commands = {"dot": ["dot", "-Tpdf"], "neato": ["neato", "-n2", "-Tpdf"]}
    load = os.getloadavg()[0]
    for _ in range(rounds):
        start = time.perf_counter()
        sizes["ours"] = len(worksheet(tree, options))
        times["ours"].append(time.perf_counter() - start)
        for name, command in commands.items():
            start = time.perf_counter()
            sizes[name] = len(subprocess.run(command, input=dot_text, capture_output=True,
                                             check=True).stdout)
            times[name].append(time.perf_counter() - start)
    med = {name: statistics.median(t) for name, t in times.items()}
    print(f"worksheet PDF, {len(tree.nodes):,} nodes: {med['ours']:.3f} s, {sizes['ours']:,} bytes; "
          f"on the same DOT: dot -Tpdf {med['dot']:.3f} s, {sizes['dot']:,} bytes; neato -n2 -Tpdf "
          f"(Graphviz drawing our layout) {med['neato']:.3f} s, {sizes['neato']:,} bytes; "
          f"ours / dot {med['ours'] / med['dot']:.2f} (goal <= 1.5), ours / neato -n2 "
          f"{med['ours'] / med['neato']:.2f}; size / dot's {sizes['ours'] / sizes['dot']:.2f}; "
          f"load average {load:.1f} -> {os.getloadavg()[0]:.1f}")
    return int(med["ours"] / med["dot"] > 1.5)


if __name__ == "__main__":
    sys.exit(main())
