"""How fast is the event-producing alpha-beta? (issue: search core, item 7)

On seeded random trees, three alpha-beta searches run side by side in one
process, interleaved round by round:

* ``events``  - the core's full raw event stream (app.search.raw_events),
  consumed by a counting loop;
* ``plain``   - a plain recursive alpha-beta written here, no events;
* ``aima``    - aima-python's ``alphabeta_search`` (PyPI ``aima3``) over the
  same tree through a thin Game adapter.

All three must evaluate the same number of leaves (checked first). Also
timed: ``narrated``, the core's events with sentences and view changes as
dicts (what the command line and the HTTP trace get), and ``serialised``,
what the browser receives: what the server's Socket.IO pulls send the page
(``encoding: "compact"``, ``app.search.compact``: the raw events' records
as JSON text, one JSON array per pull of 1,000, narrated in the page), with
the number of full garbage collections that ran during it; side by side,
``wire``, the narrated events as JSON text (``app.search.wire``, the pulls'
``encoding: "json"``, what the page received before it narrated). ``--before``
times the oldest way as ``serialised`` instead (the narrated dicts, each
encoded by the strict JSON encoder). Besides the
random trees, the b=3 d=10 tree with its children stored best-first and
worst-first (so every contender searches the same order).

Then the whole of tic-tac-toe (``--games``, default on): aima-python's
``TicTacToe`` with ``alphabeta_search`` and ``minimax_decision`` against the
core's raw events and narrated stream on ``game:tictactoe`` (searched
lazily), and how much the process grew during the narrated minimax run.
The game's own counts (how many positions lie under a pruned move, how many
plain minimax evaluates), memoised on the tree once for all its runs, are
made before the timing, as a tree file's sizes are made when it is loaded.

    .venv/bin/pip install -r bench/requirements.txt
    .venv/bin/python bench/core.py [--rounds 7] [--no-games]

The last lines are the worst ratios.
"""
from __future__ import annotations

import argparse
import gc
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.setrecursionlimit(10_000)

from app.games.ids import resolve  # noqa: E402
from app.search import SearchOptions, raw_events, run  # noqa: E402
from app.search.ordering import true_values  # noqa: E402
from app.search.algorithms import EVAL, RET  # noqa: E402
from app.search.tree import Node, Tree  # noqa: E402
try:
    from app.search.compact import records  # noqa: E402
except ImportError:   # the core before app.search.compact
    records = None
try:
    from app.search.wire import encode, encoded  # noqa: E402
except ImportError:   # the core before app.search.wire (for --before on an old checkout)
    import json
    encode = json.JSONEncoder(separators=(",", ":"), allow_nan=False, ensure_ascii=False).encode
    encoded = None

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


def reordered(tree: Tree, worst: bool) -> Tree:
    """The same tree with every node's children stored best-first (or
    worst-first) for the player to move, by their true minimax values."""
    values = true_values(tree, None)

    def build(n: Node) -> Node:
        kids = tuple(build(c) for c in n.children)
        if kids:
            sign = (1 if n.player == 0 else -1) * (-1 if worst else 1)
            kids = tuple(sorted(kids, key=lambda c: -sign * values[c.id]))
        return Node(id=n.id, label=n.label, player=n.player, depth=n.depth, children=kids,
                    value=n.value)
    return Tree(root=build(tree.root), title=f"{tree.title} {'worst' if worst else 'best'}")


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


BEFORE = False   # --before: the narrated dicts, each encoded (the old way)


def serialised(tree: Tree, opts: SearchOptions, batch: int = 1000,
               how: str = "compact") -> tuple[int, int]:
    """The events as the server's pulls send them: (characters, full GCs).
    ``how``: ``compact`` (the page narrates), ``wire`` (narrated JSON text)."""
    full = [0]

    def count(phase, info):
        if phase == "start" and info["generation"] == 2:
            full[0] += 1
    gc.callbacks.append(count)
    try:
        size, events = 0, []
        if BEFORE:
            for ev in run(tree, opts):
                events.append(encode(ev))
                if len(events) == batch:
                    size += len("[" + ",".join(events) + "]")
                    events = []
        else:
            for text, _ in (records if how == "compact" else encoded)(tree, opts):
                events.append(text)
                if len(events) == batch:
                    size += len("[" + ",".join(events) + "]")
                    events = []
        size += len("[" + ",".join(events) + "]")
    finally:
        gc.callbacks.remove(count)
    return size, full[0]


REPEAT = 5  # each sample runs a search this many times, so a sample lasts tens of ms
clock = time.process_time
"""CPU time of this process (``--clock cpu``, the default): every contender
runs in this one process, so on a shared machine the time spent waiting for
a core is left out of every figure alike. ``--clock wall`` for wall time."""


def timed(fn) -> float:
    start = clock()
    for _ in range(REPEAT):
        fn()
    return (clock() - start) / REPEAT


def timed_once(fn) -> float:
    start = clock()
    fn()
    return clock() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--no-games", dest="games", action="store_false")
    parser.add_argument("--before", action="store_true",
                        help="serialise the old way: narrated dicts, each JSON-encoded")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = parser.parse_args()
    global BEFORE, clock
    BEFORE = args.before
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    print(f"clock: {args.clock}; serialised: {'narrated dicts, each encoded' if BEFORE else 'app.search.compact'}")
    opts = SearchOptions(algorithm="alphabeta")
    worst = worst_ser = 0.0
    print(f"{'tree':<16} {'nodes':>7} {'leaves ev.':>10} {'events':>8} "
          f"{'plain ms':>9} {'aima ms':>8} {'events ms':>9} {'narr. ms':>9} {'wire ms':>9} "
          f"{'ser. ms':>9} {'Mchar':>6} {'wire Mch':>8} {'full GC':>7}  {'events/aima':>11} "
          f"{'narr./aima':>10} {'wire/aima':>9} {'ser./aima':>9}")
    trees = [random_tree(b, d, args.seed + b * 100 + d) for b, d in SHAPES]
    trees += [reordered(trees[0], worst=False), reordered(trees[0], worst=True)]
    for tree in trees:
        leaves, n_events = check_agreement(tree, opts)
        game = aima_game()
        contenders = {
            "plain": lambda: plain_alphabeta(tree.root, -INF, INF),
            "aima": lambda: aima_alphabeta(tree, game),
            "events": lambda: count_events(tree, opts),
            "narrated": lambda: sum(1 for _ in run(tree, opts)),
            "serialised": lambda: serialised(tree, opts),
            "wire": lambda: serialised(tree, opts, how="wire"),
        }
        times: dict[str, list[float]] = {k: [] for k in contenders}
        for r in range(args.rounds):
            names = list(contenders)
            if r % 2:
                names.reverse()  # interleave, so drift hits every contender alike
            for name in names:
                if name in ("narrated", "wire") or (name == "serialised" and BEFORE):
                    if r < 3:  # slower: three single runs
                        times[name].append(timed_once(contenders[name]))
                    continue
                times[name].append(timed(contenders[name]))
        med = {k: statistics.median(v) for k, v in times.items()}
        size, full = serialised(tree, opts)
        wire_size, _ = serialised(tree, opts, how="wire")
        ratio = med["events"] / med["aima"]
        worst = max(worst, ratio)
        worst_ser = max(worst_ser, med["serialised"] / med["aima"])
        print(f"{tree.title:<16} {len(tree.nodes):>7} {leaves:>10} {n_events:>8} "
              f"{med['plain'] * 1e3:>9.1f} {med['aima'] * 1e3:>8.1f} {med['events'] * 1e3:>9.1f} "
              f"{med['narrated'] * 1e3:>9.1f} {med['wire'] * 1e3:>9.1f} "
              f"{med['serialised'] * 1e3:>9.1f} {size / 1e6:>6.2f} {wire_size / 1e6:>8.2f} "
              f"{full:>7}  {ratio:>11.2f} {med['narrated'] / med['aima']:>10.1f} "
              f"{med['wire'] / med['aima']:>9.1f} {med['serialised'] / med['aima']:>9.1f}",
              flush=True)
    print(f"event stream / aima-python, worst tree: {worst:.2f}")
    print(f"serialised stream / aima-python, worst tree: {worst_ser:.1f}")
    if args.games:
        whole_tictactoe(max(3, args.rounds // 2))


def whole_tictactoe(rounds: int) -> None:
    """The whole of tic-tac-toe: aima-python's TicTacToe against game:tictactoe."""
    from aima3.games import TicTacToe, alphabeta_search, minimax_decision

    aima = TicTacToe()
    tree = resolve("game:tictactoe")
    if hasattr(tree, "_count"):   # the game's memoised counts, once per tree (see above)
        tree.static_count(None)
        tree.size_of(tree.root)
    print("\nwhole tic-tac-toe from the empty board (medians of "
          f"{rounds}; narrated: one run)")
    print(f"{'algorithm':<10} {'aima s':>7} {'raw s':>7} {'narr. s':>8} {'ser. s':>7} "
          f"{'events':>9}  {'raw/aima':>8} {'narr./aima':>10} {'ser./aima':>9} {'growth MB':>9}")
    for name, theirs in (("alphabeta", lambda: alphabeta_search(aima.initial, aima)),
                         ("minimax", lambda: minimax_decision(aima.initial, aima))):
        opts = SearchOptions(algorithm=name)
        samples = {"aima": [], "raw": []}
        for r in range(rounds):
            order = ("aima", "raw") if r % 2 == 0 else ("raw", "aima")
            for who in order:
                fn = theirs if who == "aima" else (lambda: count_events(tree, opts))
                samples[who].append(timed_once(fn))
        aima_s, raw_s = (statistics.median(samples[k]) for k in ("aima", "raw"))
        gc.collect()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = clock()
        events = sum(1 for _ in run(tree, opts))
        narrated = clock() - started
        growth = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
        ser = timed_once(lambda: serialised(tree, opts))
        print(f"{name:<10} {aima_s:>7.2f} {raw_s:>7.2f} {narrated:>8.2f} {ser:>7.2f} "
              f"{events:>9,}  {raw_s / aima_s:>8.2f} {narrated / aima_s:>10.1f} "
              f"{ser / aima_s:>9.1f} {growth:>9.0f}", flush=True)


if __name__ == "__main__":
    main()
