"""How fast is Monte Carlo tree search? (issue 21, point 2)

Iterations per second from the empty board of tic-tac-toe and of Connect
Four, side by side in one process, interleaved round by round, on the same
game (the project's rules objects, ``app.games.rules``, which have the
aima-python ``Game`` methods) and the same playout policy (uniform random
moves to the end of the game):

* ``raw``       - the core's raw MCTS event stream (``app.search.raw_events``,
  algorithm ``mcts``), consumed by a counting loop;
* ``raw-rules`` - the same with every playout move made by the rules'
  RESULT and TERMINAL-TEST, as aima's searches make them (Connect Four's
  own bitboard playout, ``Connect4Rules.playout``, turned off; tic-tac-toe
  has none, so there it is ``raw`` again);
* ``narrated``  - the same run as narrated event dicts (``app.search.run``:
  sentences, UCB1 numbers, view changes: what the command line and the HTTP
  trace get);
* ``wire``      - the narrated events as the JSON text the page pulled
  before issue 30 (``app.search.wire.encoded``; still a pull's
  ``encoding: "json"``);
* ``compact``   - the compact records the page pulls now and narrates itself
  (``app.search.compact.records``: a selection the child's index, a
  back-propagation nothing; a game's nodes, positions and moves in words);
* ``compact-before`` - the same records as they were before the page said a
  game's playout moves in words itself (issue 30 point 4, w31f): the server
  says them (``compact_mcts.PAGE_GAMES`` emptied);
* ``aima-python`` - ``monte_carlo_tree_search`` of aima-python's
  ``aima/games.py`` (UCT; it expands all children of a leaf at once and
  tries them first, as the core's one-at-a-time expansion does);
* ``aima3``     - ``MCTS`` of PyPI ``aima3``'s ``mcts.py`` (an
  AlphaZero-style PUCT search) with uniform priors and a random playout as
  its value function, the pure-MCTS set-up.

Neither aima's code is copied: it is loaded from where it lies, outside the
project.

    .venv/bin/pip install -r bench/requirements.txt     # aima3, numpy
    git clone https://github.com/aimacode/aima-python /tmp/aima-python
    .venv/bin/python bench/mcts.py --aima-python /tmp/aima-python [--rounds 5]

(``--aima-python`` names a checkout holding ``aima/games.py``; without it,
that contender is left out.) The last lines are the ratios of time per
iteration, raw / each aima (goal <= 1.0), and what the page receives / raw
(compact / raw, goal <= 3.0; wire / raw before). ``--page`` adds the page's
side: Node (V8, as Chromium) narrating the compact records of each game with
``static/js/core/narrate.js`` (bench/mcts_page.mjs), once the Python rounds
are done.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.setrecursionlimit(10_000)

from app.games.ids import resolve  # noqa: E402
from app.search import SearchOptions, raw_events, run  # noqa: E402
from app.search import compact_mcts  # noqa: E402
from app.search.compact import records  # noqa: E402
from app.search.wire import encoded  # noqa: E402

GAMES = {"tic-tac-toe": ("game:tictactoe", 2000),
         "tic-tac-toe, words": ("game:tictactoe", 1000),   # (at narrate_mcts.WORDS_UP_TO)
         "Connect Four": ("game:connect4", 1000),
         # one iteration past narrate_mcts.WORDS_UP_TO: its playouts' moves not said in words
         "Connect Four, no words": ("game:connect4", 1001)}


def ours_raw(game_id: str, n: int) -> int:
    return sum(1 for _ in raw_events(resolve(game_id),
                                     SearchOptions(algorithm="mcts", iterations=n, seed=1)))


def ours_raw_rules(game_id: str, n: int) -> int:
    """``raw`` with every playout move made by RESULT and TERMINAL-TEST, as
    aima's searches make them (Connect Four's bitboard playout turned off)."""
    tree = resolve(game_id)
    tree.rules.playout = None
    return sum(1 for _ in raw_events(tree, SearchOptions(algorithm="mcts", iterations=n, seed=1)))


def ours_narrated(game_id: str, n: int) -> int:
    return sum(1 for _ in run(resolve(game_id),
                              SearchOptions(algorithm="mcts", iterations=n, seed=1)))


def ours_wire(game_id: str, n: int) -> int:
    return sum(len(t) for t, _ in encoded(resolve(game_id),
                                          SearchOptions(algorithm="mcts", iterations=n, seed=1)))


def ours_compact(game_id: str, n: int) -> int:
    return sum(len(t) for t, _ in records(resolve(game_id),
                                          SearchOptions(algorithm="mcts", iterations=n, seed=1)))


def ours_compact_before(game_id: str, n: int) -> int:
    """``compact`` with the server saying every game's playout moves in words."""
    kept = compact_mcts.PAGE_GAMES
    compact_mcts.PAGE_GAMES = ()
    try:
        return ours_compact(game_id, n)
    finally:
        compact_mcts.PAGE_GAMES = kept


def page_side(rounds: int) -> dict:
    """ms of each round of the page's narration of each game's records (Node)."""
    import subprocess
    import tempfile
    from app.i18n import js_messages, words
    from app.search.descriptors import document
    def text(game_id, n):
        return "[" + ",".join(t for t, _ in records(
            resolve(game_id), SearchOptions(algorithm="mcts", iterations=n, seed=1))) + "]"
    texts = {game: text(game_id, n) for game, (game_id, n) in GAMES.items()}
    kept, compact_mcts.PAGE_GAMES = compact_mcts.PAGE_GAMES, ()   # (the server's words, before)
    try:
        texts.update({f"{game} (before)": text(game_id, n) for game, (game_id, n) in GAMES.items()})
    finally:
        compact_mcts.PAGE_GAMES = kept
    for game, t in texts.items():
        print(f"  {game}: records {len(t.encode()) / 1e6:.2f} MB")
    data = {"lang": "en", "algorithms": document(words("en")), "catalogue": js_messages("en"),
            "records": texts, "rounds": rounds}
    with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
        json.dump(data, f)
        f.flush()
        out = subprocess.run(["node", str(Path(__file__).with_name("mcts_page.mjs"))],
                             env={**os.environ, "FIXTURE": f.name}, capture_output=True,
                             text=True, check=True).stdout
    return json.loads(out)


def aima_python(path: str | None):
    if not path:
        return None
    sys.path.insert(0, path)
    from aima.games import monte_carlo_tree_search

    def search(game_id: str, n: int):
        random.seed(1)
        rules = resolve(game_id).rules      # fresh caches, as the core's run gets
        return monte_carlo_tree_search(rules.initial, rules, N=n)
    return search


def aima3():
    try:
        import aima3 as pkg
    except ImportError:
        return None
    # mcts.py alone (the package's __init__ pulls in notebooks and plotting)
    spec = importlib.util.spec_from_file_location(
        "aima3_mcts", Path(pkg.__path__[0]) / "mcts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    def search(game_id: str, n: int):
        random.seed(1)
        rules = resolve(game_id).rules
        top = max(abs(x) for x in rules.value_range)

        def policy(game, state):
            acts = game.actions(state)
            me = game.to_move(state)
            while not game.terminal_test(state):   # the random playout is the value
                moves = game.actions(state)
                state = game.result(state, random.choice(moves))
            return [(a, 1 / len(acts)) for a in acts], game.utility(state, me) / top
        searcher = module.MCTS(rules, policy, c_puct=5, n_playout=n)
        return searcher.get_move_probs(rules.initial)
    return search


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--aima-python", help="a checkout of aima-python (holding aima/games.py)")
    ap.add_argument("--json", help="write the medians here as JSON")
    ap.add_argument("--page", action="store_true",
                    help="also time the page's narration of the compact records (Node)")
    ap.add_argument("--only-ours", action="store_true",
                    help="leave aima3 out (the raw / narrated / wire / compact columns only)")
    args = ap.parse_args(argv)
    contenders = {"raw": ours_raw, "raw-rules": ours_raw_rules, "narrated": ours_narrated,
                  "wire": ours_wire, "compact-before": ours_compact_before,
                  "compact": ours_compact}
    ap_search = aima_python(args.aima_python)
    if ap_search is not None:
        contenders["aima-python"] = ap_search
    a3 = None if args.only_ours else aima3()
    if a3 is not None:
        contenders["aima3"] = a3
    print(f"load average before: {os.getloadavg()}")
    results = {}
    for game, (game_id, n) in GAMES.items():
        times = {k: [] for k in contenders}
        for _ in range(args.rounds):
            for name, fn in contenders.items():
                t = time.perf_counter()
                fn(game_id, n)
                times[name].append(time.perf_counter() - t)
        med = {k: statistics.median(v) for k, v in times.items()}
        results[game] = {"iterations": n, "seconds": med}
        print(f"\n{game}, {n} iterations from the empty board, median of {args.rounds}:")
        for k, s in med.items():
            print(f"  {k:<12} {s * 1000:9.1f} ms  {n / s:10,.0f} iterations/s")
        print(f"  compact / raw: {med['compact'] / med['raw']:.2f}   compact-before / raw: "
              f"{med['compact-before'] / med['raw']:.2f}   wire / raw: "
              f"{med['wire'] / med['raw']:.2f}   narrated / raw: {med['narrated'] / med['raw']:.2f}")
        for k in ("aima-python", "aima3"):
            if k in med:
                print(f"  raw / {k}: {med['raw'] / med[k]:.2f}   raw-rules / {k}: "
                      f"{med['raw-rules'] / med[k]:.2f}   narrated / {k}: "
                      f"{med['narrated'] / med[k]:.2f}   wire / {k}: {med['wire'] / med[k]:.2f}")
    if args.page:
        for game, ms in page_side(args.rounds).items():
            med = statistics.median(ms)
            results.setdefault(game, {})["page_ms"] = med
            print(f"\n{game}: the page narrates the compact records in {med:.1f} ms "
                  f"(median of {args.rounds}, Node)")
    print(f"\nload average after: {os.getloadavg()}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
