"""What naming the misconception costs (issue 28), side by side in one run.

1. **Practice's check**: on a 200-node random tree, ``app.practice.check`` in mode
   ``full`` with the diagnosis (contract §8: every applicable misconception's wrong
   search run on the tree, the matching rule, the sentence) against the same check with
   the diagnosis switched off, interleaved round by round, median of 7 each. Three
   answers: right, one a misconception explains exactly (``shallow``: its searches and
   its sentence all run), and noise that none explains. Target: within 1.5x.
2. **A class's reveal with 500 answers**: a value question on the same tree in a class
   over the in-memory store, 500 students' answers (a quarter of them a misconception's),
   then the server's work of the reveal: ``Classes.reveal`` and the two instructor views
   its broadcast sends (the chart with each wrong bar labelled). Target: within 200 ms.

    .venv/bin/python bench/misconceptions.py [--rounds 7]
"""
from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.classes.service import Classes  # noqa: E402
from app.classes.store import MemoryStore  # noqa: E402
from app.games.random_tree import random_tree  # noqa: E402
from app.practice import checker  # noqa: E402
from app.practice.checker import check, practice_options  # noqa: E402
from app.practice.misconceptions import key_sheet, sheets  # noqa: E402
from app.search import SearchOptions  # noqa: E402


def tree_of_about(nodes: int):
    for seed in range(1, 500):
        tree = random_tree((2, 4), 5, seed=seed)
        if abs(len(tree.nodes) - nodes) <= 5:
            return tree, seed
    raise SystemExit("no tree of that size")


def answers(tree):
    opts = practice_options(tree, "full")
    key = key_sheet(tree, opts)
    mine = dict(sheets(tree, opts, "full", key))
    shallow = mine.get("shallow") or next(iter(mine.values()))
    noise = {"values": {n: 99 for n in list(key.values)[:5]}, "pruned": []}
    as_answer = lambda s: {"values": dict(s.values), "pruned": list(s.pruned)}  # noqa: E731
    return {"right": as_answer(key), "explained": as_answer(shallow), "noise": noise}


REPEAT = 10
"""Checks per sample: a sample is their CPU time (the process's, as bench/core.py's
default clock: a loaded machine's other processes do not count), after a collection."""


def timed(fn) -> float:
    gc.collect()
    t0 = time.process_time()
    for _ in range(REPEAT):
        fn()
    return (time.process_time() - t0) / REPEAT


def bench_check(tree, rounds: int) -> None:
    print(f"\n1. practice check, mode full, {len(tree.nodes)} nodes (median of {rounds}, "
          f"CPU ms per check)")
    print(f"{'answer':<10} {'without':>9} {'with':>9} {'ratio':>6}  named")
    worst = 0.0
    for name, ans in answers(tree).items():
        without, with_ = [], []
        named = check(tree, ans, "full")["misconception"]
        off = mock.patch.object(checker, "_misconception", lambda *a, **k: None)
        for _ in range(3):   # warm both paths up
            check(tree, ans, "full")
            with off:
                check(tree, ans, "full")
        for k in range(rounds):   # ABBA: neither always goes first
            for first in ((False, True) if k % 2 else (True, False)):
                if first:
                    with off:
                        without.append(timed(lambda: check(tree, ans, "full")))
                else:
                    with_.append(timed(lambda: check(tree, ans, "full")))
        a, b = statistics.median(without) * 1e3, statistics.median(with_) * 1e3
        worst = max(worst, b / a)
        print(f"{name:<10} {a:9.2f} {b:9.2f} {b / a:6.2f}  {named and named['id']}")
    print(f"worst ratio {worst:.2f} (target <= 1.5)")


def bench_reveal(tree, seed: int, rounds: int, students: int = 500) -> None:
    times, labelled = [], 0
    for _ in range(rounds):
        classes = Classes(MemoryStore(), lambda _id: tree)
        record, token = classes.create(f"r-{seed}", SearchOptions(algorithm="alphabeta"))
        code = record["code"]
        key = classes.key(record)
        node = next(n for n in key.inner if n != tree.root.id)
        classes.ask(code, token, "value", node)
        q = classes.get(code)["question"]
        wrong = [m["answer"] for m in q["misconceptions"]] or [q["answer"]]
        for i in range(students):
            sid = classes.new_student(record)
            classes.join(code, sid)
            entry = wrong[i % len(wrong)] if i % 4 == 0 else (q["answer"] if i % 4 == 1 else i % 37)
            classes.answer(code, sid, q["id"], str(entry))
        t0 = time.perf_counter()   # (wall clock: the reveal's server time)
        done = classes.reveal(code, token)
        views = classes.instructor_views(done)
        times.append(time.perf_counter() - t0)
        labelled = sum(1 for b in views[0]["tally"]["chart"]["bars"] if b.get("misconception"))
    print(f"\n2. class reveal, {students} answers, value question: median {statistics.median(times) * 1e3:.1f} ms "
          f"(of {rounds}; target <= 200 ms), {labelled} bar(s) labelled")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    with open("/proc/loadavg") as f:
        print("load average:", f.read().strip())
    tree, seed = tree_of_about(200)
    bench_check(tree, args.rounds)
    bench_reveal(tree, seed, args.rounds)
    with open("/proc/loadavg") as f:
        print("load average:", f.read().strip())


if __name__ == "__main__":
    main()
