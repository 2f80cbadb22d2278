"""The page's DOM-free twins (static/js/core/narrate.js, localsearch.js with
localtree.js) held to the Python core without a browser: the cases are made
here from the core (compact records and the events app.search.run yields; the
editor's what-if answers of app.whatif) and checked by Node's own test runner
(Node 20, no npm) in tests/js/twins.test.mjs, through the ``node_test`` fixture
(which fails, never skips, without Node). A drift in
either twin fails here in seconds, not only in the Chromium suite
(tests/browser/test_narrate_parity.py, tests/editor/test_local_parity.py)."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from app.games.ids import resolve
from app.games.random_tree import random_tree
from app.i18n import js_messages, words
from app.search import SearchOptions, algorithms_for, run
from app.search.compact import records
from app.search.descriptors import REGISTRY, document, get
from app.treefile import load_path, tree_to_dict
from app.whatif import DocumentError, OverBudget, WhatIf

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]


def narrate_case(name, tree, opts, lang):
    say = words(lang) if lang != "en" else None
    events = json.loads(json.dumps(list(run(tree, opts, say)), ensure_ascii=False))
    recs = [json.loads(text) for text, _ in records(tree, opts, say)]
    tree_json = None if getattr(tree, "lazy", False) else tree_to_dict(tree, explicit_ids=True)
    return {"name": f"{name} {opts.algorithm} {lang}", "tree": tree_json, "records": recs,
            "events": events}


def narrate_cases(lang: str) -> list[dict]:
    out = []
    for path in sorted((REPO / "trees").glob("*.yaml")):
        tree = load_path(path)
        for alg in algorithms_for(tree):
            if not get(alg).compact:   # (the page gets its events as JSON: no twin narrates them)
                continue
            extras = [{}, {"strict": True}] if lang == "en" else [{}]
            if lang == "en":
                extras.append({"order": "random", "seed": 3})
            for extra in extras:
                out.append(narrate_case(path.stem, tree, SearchOptions(algorithm=alg, **extra),
                                        lang))
    for seed in (1, 2, 3):
        chance = random_tree(branching=(2, 3), depth=4, seed=seed, chance=True, evals=True)
        for alg, extra in (("expectiminimax", {}), ("star1", {"bounds": (-100, 100)}),
                           ("star1", {"bounds": (-100, 100), "strict": True}),
                           ("star1", {"bounds": (-10, 10)})):   # (tight: windows, outcome cuts)
            out.append(narrate_case(f"random chance {seed}", chance,
                                    SearchOptions(algorithm=alg, **extra), lang))
        plain = random_tree(branching=(2, 4), depth=4, seed=seed, evals=True)
        for alg in filter(lambda a: get(a).compact, algorithms_for(plain)):
            out.append(narrate_case(f"random {seed}", plain, SearchOptions(algorithm=alg), lang))
    from app.treefile import load_tree
    from tests.search.test_star1_words import SIDES   # Star1's β-side and leaf-bound cuts
    out.append(narrate_case("star1 sides", load_tree(SIDES), SearchOptions(algorithm="star1"),
                            lang))
    out.append(narrate_case("game", resolve("game:tictactoe:xo.x.o..."),
                            SearchOptions(algorithm="alphabeta"), lang))
    # Monte Carlo tree search (not offered in the what-if): short runs, a game's moves in words
    mcts = [a for a in algorithms_for(resolve("game:tictactoe"), whatif=False)
            if "iterations" in get(a).options]
    for alg in mcts:
        for path in sorted((REPO / "trees").glob("*.yaml")):
            tree = load_path(path)
            if alg in algorithms_for(tree, whatif=False):
                out.append(narrate_case(path.stem, tree,
                                        SearchOptions(algorithm=alg, iterations=40, seed=3), lang))
        out.append(narrate_case("game", resolve("game:tictactoe"),
                                SearchOptions(algorithm=alg, iterations=40, seed=1), lang))
        # (Connect Four: the page says its playouts' moves in words itself, move-words.js)
        out.append(narrate_case("connect four", resolve("game:connect4"),
                                SearchOptions(algorithm=alg, iterations=30, seed=2), lang))
    return out


def local_cases() -> list[dict]:
    """The editor's what-if runs the page answers itself, as the server answers them."""
    server = WhatIf()
    out = []
    for path in sorted((REPO / "trees").glob("*.yaml")):
        doc = tree_to_dict(load_path(path), explicit_ids=True)
        doc.pop("bounds", None)     # (a tree with leaf bounds is the server's to answer)
        keys = iter(range(10**6))
        stack = [doc["root"]]
        while stack:
            node = stack.pop()
            node["key"] = f"k{next(keys)}"
            stack.extend(node.get("children", []))
        for options in ({}, {"algorithm": "minimax"}, {"algorithm": "alphabeta", "strict": True},
                        {"algorithm": "alphabeta", "order": "best"}, {"depth": 1}):
            try:
                answer = server.run(copy.deepcopy(doc), options, text=False)
            except (DocumentError, OverBudget):
                continue
            if len(load_path(path).nodes) > 1000 or answer["result"]["options"]["algorithm"] \
                    not in [a.id for a in REGISTRY if a.raw.startswith("algorithms:")
                            and a.one_search]:
                continue
            out.append({"name": f"{path.stem} {options}", "doc": doc, "options": options,
                        "answer": json.loads(json.dumps(answer))})
    return out


@pytest.mark.parametrize("lang", ["en", "id"])
def test_narrate_js_and_the_editors_local_run_agree_with_the_core(node_test, lang):
    narrate = narrate_cases(lang)
    local = local_cases() if lang == "en" else []
    assert any(c["name"].endswith(f"star1 {lang}") for c in narrate)
    assert sum(c["name"].endswith(f"mcts {lang}") for c in narrate) > 10
    assert lang != "en" or len(local) > 20
    data = {"lang": lang, "algorithms": document(words(lang)),
            "catalogue": js_messages(lang), "narrate": narrate, "local": local}
    # every case runs as a test of its own; most of the editor's the page answers itself
    summary = node_test("twins.test.mjs", data, tests=len(narrate) + len(local) - len(local) // 2)
    assert summary.get("pass", 0) + summary.get("skipped", 0) == len(narrate) + len(local)
