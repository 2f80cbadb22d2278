"""static/js/model.js and app.search.View agree on a shared corpus of runs.

The same events (from the server's trace) are stepped forward, back and
jumped through in the browser's ``apply``/``undo``/``makeRun`` and in
Python's :class:`~app.search.View`; every step's view must be identical.
The corpus: every built-in tree with each algorithm that fits it, plus
random trees (with orderings and depth limits) from :mod:`app.games`.
"""
from __future__ import annotations

import json
import random

import pytest
import requests

from app.games.random_tree import random_tree
from app.search import View
from app.treefile import dump_yaml

from .expect import trace

pytestmark = pytest.mark.browser

ALGORITHMS = {
    "two": ["alphabeta", "minimax", "iterative"],
    "chance": ["expectiminimax"],
    "multi": ["maxn"],
}

# In the page: forward snapshots, back snapshots, jumps, and the statistics.
# In and out as one JSON text each: Playwright's own (de)serialising of a
# value this big costs more than the replay itself.
REPLAY_JS = """async (input) => {
  const [cases, jumps] = JSON.parse(input);
  const m = await import('/static/js/model.js');
  const snap = (view) => {
    const out = {};
    for (const f of m.FIELDS) for (const [id, x] of view[f]) (out[id] ||= { ...m.EMPTY })[f] = x;
    return out;
  };
  return JSON.stringify(cases.map((events, i) => {
    const view = m.makeView();
    const forward = [], back = [];
    for (const e of events) { m.apply(view, e.changes); forward.push(snap(view)); }
    for (let k = events.length - 1; k >= 0; k--) { back.push(snap(view)); m.undo(view, events[k].changes); }
    const start = snap(view);
    const run = m.makeRun();
    run.push(events);
    const jumped = jumps[i].map((k) => { run.goTo(k); return [run.step, snap(run.view)]; });
    run.goTo(events.length);
    return { forward, back: back.reverse(), start, jumped, counts: run.counts, total: run.total };
  }));
}"""


def corpus(live_server) -> list[tuple[str, dict]]:
    """(tree id, options) pairs: built-in trees, then random uploaded ones."""
    cases = []
    library = live_server.app.extensions["trees"]
    for t in requests.get(f"{live_server}/api/trees", timeout=10).json():
        if not t["builtin"]:
            continue
        kind = "multi" if len(t["players"]) > 2 else "chance" if t["chance"] else "two"
        tree = library.get(t["id"])
        # Iterative deepening needs an eval at every inner node below the root.
        evals = all(n is tree.root or n.is_leaf or n.eval is not None for n in tree.nodes)
        for alg in ALGORITHMS[kind]:
            if alg != "iterative" or evals:
                cases.append((t["id"], {"algorithm": alg}))
    for seed, players, chance in ((11, 2, False), (12, 2, False), (13, 3, False), (14, 2, True)):
        tree = random_tree(branching=(2, 3), depth=4, seed=seed, players=players,
                           chance=chance, evals=True)
        res = requests.post(f"{live_server}/api/trees", data=dump_yaml(tree).encode(),
                            headers={"Content-Type": "application/x-yaml"}, timeout=10)
        assert res.status_code == 201, res.text
        tid = res.json()["id"]
        if players > 2:
            cases.append((tid, {"algorithm": "maxn", "depth": 2}))
        elif chance:
            cases.append((tid, {"algorithm": "expectiminimax", "order": "random", "seed": seed}))
        else:
            cases += [(tid, {"algorithm": "alphabeta", "order": "random", "seed": seed}),
                      (tid, {"algorithm": "alphabeta", "order": "worst", "strict": True}),
                      (tid, {"algorithm": "alphabeta", "depth": 2, "style": "wikipedia"}),
                      (tid, {"algorithm": "iterative", "order": "best"})]
    return cases


def test_js_apply_undo_and_jumps_agree_with_python_view(page, live_server):
    cases = corpus(live_server)
    assert len(cases) >= 20
    runs = [trace(live_server, tid, **opts) for tid, opts in cases]
    rng = random.Random(5)
    jumps = [[rng.randint(0, len(ev)) for _ in range(6)] + [0] for ev in runs]
    page.goto(f"{live_server}/")
    results = json.loads(page.evaluate(REPLAY_JS, json.dumps([runs, jumps])))

    for (tid, opts), events, got, js_jumps in zip(cases, runs, results, jumps):
        label = f"{tid} {opts}"
        view = View()
        expected = []
        for e in events:
            view.apply(e["changes"])
            expected.append(view.snapshot())
        assert got["forward"] == expected, label
        assert got["back"] == expected, label
        assert got["start"] == {}, label
        for k, (step, snapshot) in zip(js_jumps, got["jumped"]):
            assert step == k, label
            assert snapshot == (expected[k - 1] if k else {}), (label, k)
        done = events[-1]
        assert got["total"] == done["step"] == len(events), label
        for key in ("entered", "evaluated", "cutoffs"):
            assert got["counts"][key] == done["stats"][key], (label, key)


# In the page, with the tree: every node as `read` shows it at every step.
SHOWN_JS = """async (input) => {
  const [trees, cases] = JSON.parse(input);
  const m = await import('/static/js/model.js');
  const { readTree } = await import('/static/js/tree.js');
  return JSON.stringify(cases.map(([treeIndex, events]) => {
    const t = readTree(trees[treeIndex]);
    const run = m.makeRun({ tree: t });
    run.push(events);
    const steps = [];
    for (let k = 0; k <= events.length; k++) {
      const touched = run.goTo(k, new Set());
      const shown = {};
      for (const n of t.nodes) shown[n.id] = m.read(run.view, n.id).status;
      steps.push([shown, [...touched].sort()]);
    }
    return steps;
  }));
}"""


def test_js_shows_pruned_subtrees_as_the_python_view_does(page, live_server):
    """A cut marks only the tops of the subtrees it skips; both sides show
    every node below them pruned, and the page redraws all of them."""
    from tests.search.trees import nested
    deep = nested([[5], [[4, 2], [[7, 1], [3, 0]], [[1, 1], [2, 2], [3, 3]]], [[0, [1, [2, 9]]], 6]])
    res = requests.post(f"{live_server}/api/trees", data=dump_yaml(deep).encode(),
                        headers={"Content-Type": "application/x-yaml"}, timeout=10)
    assert res.status_code == 201, res.text
    tid = res.json()["id"]
    cases = [(tid, {"algorithm": "alphabeta"}), (tid, {"algorithm": "alphabeta", "order": "worst"}),
             ("aima-fig-5-2", {"algorithm": "alphabeta"}),
             ("wikipedia-ab-pruning", {"algorithm": "alphabeta"}),
             ("latombe-tictactoe-alphabeta", {"algorithm": "alphabeta", "order": "best"})]
    ids = sorted({c[0] for c in cases})
    jsons = [requests.get(f"{live_server}/api/trees/{i}", timeout=10).json() for i in ids]
    runs = [trace(live_server, i, **o) for i, o in cases]
    page.goto(f"{live_server}/")
    got = json.loads(page.evaluate(SHOWN_JS, json.dumps([jsons, [[ids.index(i), ev]
                                                                for (i, _), ev in zip(cases, runs)]])))
    library = live_server.app.extensions["trees"]
    for (tree_id, opts), events, steps in zip(cases, runs, got):
        tree = library.get(tree_id)
        view = View(tree)
        prev = {n.id: "unvisited" for n in tree.nodes}
        assert steps[0][0] == prev
        for k, e in enumerate(events, 1):
            view.apply(e["changes"])
            shown = {i: s["status"] for i, s in view.all().items()}
            assert steps[k][0] == shown, (tree_id, opts, k)
            differ = {i for i in shown if shown[i] != prev[i]}
            assert differ <= set(steps[k][1]), (tree_id, opts, k)
            prev = shown
        if tree_id == tid and "order" not in opts:  # nodes shown pruned below a marked top
            assert any(s == "pruned" and view.state(i)["status"] != "pruned" for i, s in prev.items())
