"""static/js/core/model.js, the page's twin of app.search.View, under Node.

The same events (the core's own run) are stepped forward, back and jumped
through by model.js's ``apply``/``undo``/``makeRun`` (tests/js/model.test.mjs)
and by Python's :class:`~app.search.View`; every step's view must be
identical, and so must the running statistics and, given the tree, every
node as ``read`` shows it (pruned below a marked top). The corpus: every
built-in tree with each algorithm that fits it, plus random trees (orderings,
strict cuts, depth limits, chance, three players) from :mod:`app.games`.
"""
from __future__ import annotations

import json
import random

from app.games.random_tree import random_tree
from app.search import SearchOptions, View, run
from app.treefile import load_path
from app.web.library import BUILTIN_SUFFIXES, library_paths
from tests.conftest import REPO
from tests.search.trees import nested

ALGORITHMS = {"two": ["alphabeta", "minimax", "iterative"], "chance": ["expectiminimax"],
              "multi": ["maxn"]}


def builtins() -> dict:
    return {p.stem: load_path(p) for p in library_paths(REPO / "trees") if p.suffix in BUILTIN_SUFFIXES}


def corpus() -> list[tuple[str, object, dict]]:
    """(label, tree, options): the built-in trees, then random ones."""
    cases = []
    for name, tree in builtins().items():
        kind = "multi" if len(tree.players) > 2 else "chance" if tree.has_chance else "two"
        # Iterative deepening needs an eval at every inner node below the root.
        evals = all(n is tree.root or n.is_leaf or n.eval is not None for n in tree.nodes)
        for alg in ALGORITHMS[kind]:
            if alg != "iterative" or evals:
                cases.append((name, tree, {"algorithm": alg}))
    for seed, players, chance in ((11, 2, False), (12, 2, False), (13, 3, False), (14, 2, True)):
        tree = random_tree(branching=(2, 3), depth=4, seed=seed, players=players,
                           chance=chance, evals=True)
        name = f"random {seed}"
        if players > 2:
            cases.append((name, tree, {"algorithm": "maxn", "depth": 2}))
        elif chance:
            cases.append((name, tree, {"algorithm": "expectiminimax", "order": "random", "seed": seed}))
        else:
            cases += [(name, tree, {"algorithm": "alphabeta", "order": "random", "seed": seed}),
                      (name, tree, {"algorithm": "alphabeta", "order": "worst", "strict": True}),
                      (name, tree, {"algorithm": "alphabeta", "depth": 2, "style": "wikipedia"}),
                      (name, tree, {"algorithm": "iterative", "order": "best"})]
    return cases


def events_of(tree, options: dict) -> list[dict]:
    """The run's events as the page receives them (strict JSON)."""
    return json.loads(json.dumps(list(run(tree, SearchOptions(**options))), allow_nan=False))


def shape(tree) -> dict:
    """The tree as model.js's view needs it: ids and children."""
    def walk(n):
        return {"id": n.id, "children": [walk(c) for c in n.children]}
    return walk(tree.root)


def test_model_js_steps_jumps_and_counts_as_the_python_view(node_test):
    cases = corpus()
    assert len(cases) >= 20
    rng = random.Random(5)
    fixture = []
    for name, tree, options in cases:
        events = events_of(tree, options)
        view = View()
        forward = []
        for e in events:
            view.apply(e["changes"])
            forward.append(view.snapshot())
        done = events[-1]
        assert done["type"] == "done" and done["step"] == len(events)
        fixture.append({"label": f"{name} {options}", "events": events, "forward": forward,
                        "jumps": [rng.randint(0, len(events)) for _ in range(6)] + [0],
                        "stats": {k: done["stats"][k] for k in ("entered", "evaluated", "cutoffs")}})
    node_test("model.test.mjs", {"steps": fixture, "shown": []}, tests=len(fixture))


def test_model_js_shows_pruned_subtrees_as_the_python_view(node_test):
    """A cut marks only the tops of the subtrees it skips; both sides show
    every node below them pruned, and the page redraws all of them."""
    deep = nested([[5], [[4, 2], [[7, 1], [3, 0]], [[1, 1], [2, 2], [3, 3]]], [[0, [1, [2, 9]]], 6]])
    library = builtins()
    cases = [("deep", deep, {"algorithm": "alphabeta"}),
             ("deep", deep, {"algorithm": "alphabeta", "order": "worst"}),
             ("aima-fig-5-2", library["aima-fig-5-2"], {"algorithm": "alphabeta"}),
             ("wikipedia-ab-pruning", library["wikipedia-ab-pruning"], {"algorithm": "alphabeta"}),
             ("latombe-tictactoe-alphabeta", library["latombe-tictactoe-alphabeta"],
              {"algorithm": "alphabeta", "order": "best"})]
    fixture = []
    hidden = 0   # nodes shown pruned though no change names them
    for name, tree, options in cases:
        events = events_of(tree, options)
        view = View(tree)
        shown = [{n.id: "unvisited" for n in tree.nodes}]
        for e in events:
            view.apply(e["changes"])
            shown.append({i: s["status"] for i, s in view.all().items()})
            hidden += sum(s == "pruned" and view.state(i)["status"] != "pruned"
                          for i, s in shown[-1].items())
        fixture.append({"label": f"{name} {options}", "tree": shape(tree), "events": events,
                        "shown": shown})
    assert hidden > 0   # the corpus does hold subtrees pruned by their top alone
    node_test("model.test.mjs", {"steps": [], "shown": fixture}, tests=len(fixture))
