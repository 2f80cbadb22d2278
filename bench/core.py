"""How fast is the event-producing alpha-beta? (issue: search core, item 7)

On seeded random trees, three alpha-beta searches run side by side in one
process, interleaved round by round:

* ``events``  - the core's full raw event stream (app.search.raw_events),
  consumed by a counting loop;
* ``plain``   - a plain recursive alpha-beta written here, no events;
* ``aima``    - aima-python's ``alphabeta_search`` (PyPI ``aima3``) over the
  same tree through a thin Game adapter.

All three must evaluate the same number of leaves (checked first). Also
timed, for information: ``narrated``, the core's events with sentences and
view changes (what the page and command line get).

    .venv/bin/pip install -r bench/requirements.txt
    .venv/bin/python bench/core.py [--rounds 7]

The last line is the worst tree's ratio of the event stream to aima-python.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.setrecursionlimit(10_000)

from app.search import SearchOptions, raw_events, run  # noqa: E402
from app.search.algorithms import EVAL, RET  # noqa: E402
from app.search.tree import Node, Tree  # noqa: E402

SHAPES = [(3, 10), (5, 7), (8, 5), (2, 16)]
INF = float("inf")


def random_tree(b: int, d: int, seed: int) -> Tree:
    """A uniform tree, leaves drawn from 0..999 by a seeded generator."""
    rng = random.Random(seed)
    counter = 0

    def build(depth: int) -> Node:
        nonlocal counter
        counter += 1
        node_id = f"n{counter}"
        if depth == d:
            return Node(id=node_id, label=node_id, player=depth % 2, depth=depth,
                        value=rng.randrange(1000))
        kids = tuple(build(depth + 1) for _ in range(b))
        return Node(id=node_id, label=node_id, player=depth % 2, depth=depth, children=kids)
    return Tree(root=build(0), title=f"b={b} d={d}")


# -- contender 1: the plain recursion ------------------------------------
def plain_alphabeta(node: Node, alpha: float, beta: float, counter: list | None = None) -> float:
    if not node.children:
        if counter is not None:
            counter[0] += 1
        return node.value
    if node.player == 0:
        v = -INF
        for child in node.children:
            r = plain_alphabeta(child, alpha, beta, counter)
            if r > v:
                v = r
            if v >= beta:
                return v
            if v > alpha:
                alpha = v
        return v
    v = INF
    for child in node.children:
        r = plain_alphabeta(child, alpha, beta, counter)
        if r < v:
            v = r
        if v <= alpha:
            return v
        if v < beta:
            beta = v
    return v


# -- contender 2: aima-python ---------------------------------------------
def aima_game(counter: list | None = None):
    from aima3.games import Game

    class TreeGame(Game):
        """Our tree as an aima-python game: a state is a node, a move a child."""

        def actions(self, state):
            return state.children

        def result(self, state, move):
            return move

        def terminal_test(self, state):
            return not state.children

        def to_move(self, state):
            return "MAX" if state.player == 0 else "MIN"

        def utility(self, state, player):
            if counter is not None:
                counter[0] += 1
            return state.value
    return TreeGame()


def aima_alphabeta(tree: Tree, game) -> object:
    from aima3.games import alphabeta_search
    return alphabeta_search(tree.root, game)


# -- contender 3: the event stream ------------------------------------------
def count_events(tree: Tree, opts: SearchOptions) -> int:
    n = 0
    for _ in raw_events(tree, opts):
        n += 1
    return n


def check_agreement(tree: Tree, opts: SearchOptions) -> tuple[int, int]:
    """Leaves evaluated by each contender; they must agree."""
    ours = sum(1 for ev in raw_events(tree, opts)
               if ev[0] == EVAL or (ev[0] == RET and ev[4] is not None))
    plain = [0]
    plain_alphabeta(tree.root, -INF, INF, plain)
    aima = [0]
    aima_alphabeta(tree, aima_game(aima))
    if not ours == plain[0] == aima[0]:
        raise SystemExit(f"leaf counts disagree on {tree.title}: events {ours}, "
                         f"plain {plain[0]}, aima {aima[0]}")
    return ours, count_events(tree, opts)


REPEAT = 5  # each sample runs a search this many times, so a sample lasts tens of ms


def timed(fn) -> float:
    start = time.perf_counter()
    for _ in range(REPEAT):
        fn()
    return (time.perf_counter() - start) / REPEAT


def timed_once(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    opts = SearchOptions(algorithm="alphabeta")
    worst = 0.0
    print(f"{'tree':<10} {'nodes':>7} {'leaves ev.':>10} {'events':>8} "
          f"{'plain ms':>9} {'aima ms':>8} {'events ms':>9} {'narr. ms':>9}  "
          f"{'aima/plain':>10} {'events/plain':>12} {'events/aima':>11}")
    for b, d in SHAPES:
        tree = random_tree(b, d, args.seed + b * 100 + d)
        leaves, n_events = check_agreement(tree, opts)
        game = aima_game()
        contenders = {
            "plain": lambda: plain_alphabeta(tree.root, -INF, INF),
            "aima": lambda: aima_alphabeta(tree, game),
            "events": lambda: count_events(tree, opts),
            "narrated": lambda: sum(1 for _ in run(tree, opts)),
        }
        times: dict[str, list[float]] = {k: [] for k in contenders}
        for r in range(args.rounds):
            names = list(contenders)
            if r % 2:
                names.reverse()  # interleave, so drift hits every contender alike
            for name in names:
                if name == "narrated":
                    if r < 2:  # informational; two single runs are enough
                        times[name].append(timed_once(contenders[name]))
                    continue
                times[name].append(timed(contenders[name]))
        med = {k: statistics.median(v) for k, v in times.items()}
        ratio = med["events"] / med["aima"]
        worst = max(worst, ratio)
        print(f"b={b} d={d:<4} {len(tree.nodes):>7} {leaves:>10} {n_events:>8} "
              f"{med['plain'] * 1e3:>9.1f} {med['aima'] * 1e3:>8.1f} {med['events'] * 1e3:>9.1f} "
              f"{med['narrated'] * 1e3:>9.1f}  {med['aima'] / med['plain']:>10.2f} "
              f"{med['events'] / med['plain']:>12.2f} {ratio:>11.2f}", flush=True)
    print(f"event stream / aima-python, worst tree: {worst:.2f}")


if __name__ == "__main__":
    main()
