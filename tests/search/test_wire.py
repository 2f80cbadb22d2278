"""The stream as the browser receives it (app.search.wire): byte for byte the
narrated events encoded, however it is built; no full garbage collection
during a stream; no narration work for nodes the search never reached."""
from __future__ import annotations

import gc
import json
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from app.games.ids import resolve
from app.i18n import words
from app.search import SearchOptions, algorithms_for, raw_events, run, true_values
from app.search.narrate import Narrator
from app.search.tree import Node, Tree
from app.search.wire import WireNarrator, encode, encoded
from app.treefile import load_path

from .strategies import trees

TREES = sorted((Path(__file__).resolve().parents[2] / "trees").glob("*.yaml"))


def same(tree, opts: SearchOptions, lang: str | None = None) -> list[str]:
    """Assert the wire stream equals the narrated events encoded; return its texts."""
    say = words(lang) if lang else None
    expected = [(encode(e), len(e["changes"])) for e in run(tree, opts, say)]
    got = list(encoded(tree, opts, say))
    for k, (want, have) in enumerate(zip(expected, got)):
        assert have == want, f"event {k + 1} differs"
    assert len(got) == len(expected)
    return [text for text, _ in got]


def option_sets(tree) -> list[SearchOptions]:
    out = []
    evals = all(n.eval is not None for n in tree.nodes if n.children and n.depth == 2)
    for alg in algorithms_for(tree):
        for extra in ({}, {"strict": True}, {"order": "best"}, {"order": "worst"},
                      {"order": "random", "seed": 3}, {"style": "wikipedia"},
                      {"depth": 2} if evals and tree.height > 2 else None):
            if extra is not None:
                out.append(SearchOptions(algorithm=alg, **extra))
    return out


@pytest.mark.parametrize("path", TREES, ids=lambda p: p.stem)
@pytest.mark.parametrize("lang", [None, "id"])
def test_the_lecture_library_byte_for_byte(path, lang):
    tree = load_path(path)
    for opts in option_sets(tree):
        texts = same(tree, opts, lang)
        assert all(json.loads(t) for t in texts)


def relabelled(tree: Tree, labels: list[str], players: tuple[str, str]) -> Tree:
    """The tree with other labels (quotes, backslashes, any letters) and player names."""
    names = iter(labels * (len(tree.nodes) // max(len(labels), 1) + 1))

    def build(n: Node) -> Node:
        return Node(id=n.id, label=next(names) or n.id, player=n.player, depth=n.depth,
                    children=tuple(build(c) for c in n.children), value=n.value, eval=n.eval)
    return Tree(root=build(tree.root), players=players, title=tree.title)


@settings(max_examples=60, deadline=None)
@given(tree=trees(max_depth=5, max_branch=4, evals=True,
                  values=st.one_of(st.integers(-50, 50),
                                   st.floats(-9, 9, allow_nan=False).map(lambda x: round(x, 3)),
                                   st.sampled_from([0.1 + 0.2, float("inf"), -float("inf")]))),
       labels=st.lists(st.text(max_size=6), min_size=1, max_size=5),
       players=st.sampled_from([("MAX", "MIN"), ('Ann "A"', "B\\b"), ("Ω", "\t")]),
       alg=st.sampled_from(["minimax", "alphabeta"]), strict=st.booleans(),
       order=st.sampled_from(["given", "best", "worst", "random"]),
       depth=st.sampled_from([None, 1, 2, 3]), lang=st.sampled_from([None, "id"]))
def test_random_trees_byte_for_byte(tree, labels, players, alg, strict, order, depth, lang):
    tree = relabelled(tree, labels, players)
    if depth is not None and depth >= tree.height:
        depth = None
    opts = SearchOptions(algorithm=alg, strict=strict, order=order, seed=7, depth=depth)
    same(tree, opts, lang)


def test_the_fast_path_is_taken_where_it_should_be():
    """The byte-for-byte tests would pass with no fast path at all: check it runs."""
    fig = load_path(TREES[0].parent / "aima-fig-5-2.yaml")
    for alg in ("minimax", "alphabeta"):
        assert WireNarrator(fig, SearchOptions(algorithm=alg).resolved(fig)).fast
    assert WireNarrator(fig, SearchOptions(algorithm="minimax").resolved(fig), words("id")).fast
    game = resolve("game:tictactoe:xo.x.o...")
    assert WireNarrator(game, SearchOptions(algorithm="alphabeta").resolved(game)).fast


@pytest.mark.parametrize("game, depth", [("game:tictactoe:xo.x.o...", None),
                                         ("game:tictactoe:x...o....", None),
                                         ("game:tictactoe", 2), ("game:nim:7", None),
                                         ("game:nim:9", None), ("game:connect4", 2)])
@pytest.mark.parametrize("lang", [None, "id"])
def test_games_byte_for_byte(game, depth, lang):
    tree = resolve(game)
    for opts in (SearchOptions(algorithm="minimax", depth=depth),
                 SearchOptions(algorithm="alphabeta", depth=depth),
                 SearchOptions(algorithm="alphabeta", depth=depth, strict=True, seed=5,
                               order="random" if "connect4" in game else "best")):
        same(tree, opts, lang)


def test_a_words_callable_that_changes_fields_is_still_right():
    """A ``words`` that does not put fields in as they are (here: upper case)
    cannot be made a template; the stream must still say what it says."""
    def shouting(msgid, **fields):
        return msgid.format(**{k: str(v).upper() for k, v in fields.items()})

    fig = load_path(TREES[0].parent / "aima-fig-5-2.yaml")
    opts = SearchOptions(algorithm="alphabeta").resolved(fig)
    assert not WireNarrator(fig, opts, shouting).fast
    want = [encode(e) for e in run(fig, opts, shouting)]
    assert [t for t, _ in encoded(fig, opts, shouting)] == want


def uniform(b: int, d: int, seed: int) -> Tree:
    rng = random.Random(seed)
    count = [0]

    def build(depth: int) -> Node:
        count[0] += 1
        nid = f"n{count[0]}"
        if depth == d:
            return Node(id=nid, label=nid, player=depth % 2, depth=depth, value=rng.randrange(1000))
        return Node(id=nid, label=nid, player=depth % 2, depth=depth,
                    children=tuple(build(depth + 1) for _ in range(b)))
    return Tree(root=build(0), title=f"b={b} d={d}")


@pytest.mark.slow
def test_no_full_garbage_collection_during_a_stream():
    """A full collection walks every object of the process, the whole tree
    included: none may run while a long run streams (pulled 1,000 at a time,
    as the server does). CPython starts one only after more than 10
    collections of the middle generation since the last (and then only if
    enough objects survived, which depends on what else the process holds):
    the stream must cause fewer than 10, whatever the process. The narrated
    dicts of the same run cause several times that."""
    tree = uniform(3, 9, 5)   # 29,524 nodes; worst-first: 56,633 events
    opts = SearchOptions(algorithm="alphabeta", order="worst")
    started = [0, 0, 0]

    def count(phase, info):
        if phase == "start":
            started[info["generation"]] += 1

    def pulled(events, encode_one) -> list[int]:
        gc.collect()   # the generations' counts start at 0
        started[:] = [0, 0, 0]
        batch = []
        for ev in events:
            batch.append(ev)
            if len(batch) == 1000:
                "[" + ",".join(map(encode_one, batch)) + "]"
                batch = []
        return list(started)

    was_enabled, thresholds = gc.isenabled(), gc.get_threshold()
    gc.enable()
    gc.set_threshold(700, 10, 10)   # CPython's defaults, as the server runs
    gc.callbacks.append(count)
    try:
        as_dicts = pulled(run(tree, opts), encode)
        as_text = pulled(encoded(tree, opts), lambda e: e[0])
    finally:
        gc.callbacks.remove(count)
        gc.set_threshold(*thresholds)
        if not was_enabled:
            gc.disable()
    assert as_text[1] < 10 and as_text[2] == 0, as_text
    assert as_dicts[1] >= 10, as_dicts   # the measure can tell


def calls_during(events) -> int:
    """Python and C function calls made while consuming ``events``."""
    n = [0]

    def prof(frame, event, arg):
        n[0] += 1
    sys.setprofile(prof)
    try:
        for _ in events:
            pass
    finally:
        sys.setprofile(None)
    return n[0]


def best_first(tree: Tree) -> Tree:
    """The same tree with every node's children stored best-first for its player."""
    values = true_values(tree, None)

    def build(n: Node) -> Node:
        kids = sorted((build(c) for c in n.children), key=lambda c: values[c.id],
                      reverse=n.player == 0)
        return Node(id=n.id, label=n.label, player=n.player, depth=n.depth,
                    children=tuple(kids), value=n.value)
    return Tree(root=build(tree.root), title=tree.title)


def grown(tree: Tree, tops: set[str], size: int) -> Tree:
    """``tree`` with a bushy subtree of ``size`` nodes under each node of ``tops``."""
    count = [0]

    def bush(depth: int, player: int, left: int) -> Node:
        count[0] += 1
        nid = f"x{count[0]}"
        if left <= 1:
            return Node(id=nid, label=nid, player=player, depth=depth, value=0)
        kids = tuple(bush(depth + 1, 1 - player, (left - 1) // 3) for _ in range(3))
        return Node(id=nid, label=nid, player=player, depth=depth, children=kids)

    def build(n: Node) -> Node:
        if n.id in tops:
            sub = bush(n.depth + 1, 1 - n.player, size)
            kids = (sub,)
        else:
            kids = tuple(build(c) for c in n.children)
        return Node(id=n.id, label=n.label, player=n.player, depth=n.depth, children=kids,
                    value=None if kids else n.value)
    return Tree(root=build(tree.root), title=tree.title)


@pytest.mark.parametrize("stream", ["wire", "dicts"])
def test_no_narration_work_for_nodes_never_reached(stream):
    """The same search on two trees that differ only in the size of what a
    cut-off skips: the narrated stream does the same work on both (a cut is
    one change, its sentence names the subtree's top, nothing walks below)."""
    small = best_first(uniform(3, 6, 11))
    opts = SearchOptions(algorithm="alphabeta")   # in the stored order: many cuts
    skipped = {c.id for ev in raw_events(small, opts) if ev[0] == 0 and ev[9]
               for c in ev[9] if c.children}
    assert len(skipped) > 20
    # A pruned inner node becomes the root of 1,000 nodes instead of 3 leaves;
    # its pruned leaves stay leaves: the search itself cannot tell.
    big = grown(small, skipped, 1000)
    assert len(big.nodes) > len(small.nodes) + 20_000
    for t in (small, big):   # the tree's own one-off counts, made once per tree
        t.size_of(t.root), t.static_count(None)

    def make(t):
        return encoded(t, opts) if stream == "wire" else run(t, opts)

    def steps(t):
        return [json.loads(e[0])["type"] if stream == "wire" else e["type"] for e in make(t)]
    assert steps(small) == steps(big)   # the same search
    assert calls_during(make(big)) == calls_during(make(small))


def test_the_narrator_classes_share_one_state():
    """The fast path keeps the narrator's state (what ``done`` reads) as the
    narrator would: the summaries agree on a run with every kind of event."""
    tree = uniform(3, 5, 2)
    opts = SearchOptions(algorithm="alphabeta").resolved(tree)
    slow = Narrator(tree, opts)
    events = list(slow.narrate(raw_events(tree, opts)))
    fast = WireNarrator(tree, opts)
    texts = [t for t, _ in fast.encode(raw_events(tree, opts))]
    assert {e["type"] for e in events} >= {"enter", "evaluate", "update", "alpha", "beta",
                                          "prune", "exit", "done"}
    assert json.loads(texts[-1]) == events[-1]
    assert fast.view.snapshot() == slow.view.snapshot()
