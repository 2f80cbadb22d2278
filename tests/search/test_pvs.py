"""Principal variation search (contract §2): minimax's value and move, every
evaluation counted (re-searches too), no re-search on best-first trees; the
events checked on lecture cases and against a plain NegaScout written here."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.search import SearchOptions, run
from app.search.pseudocode import listing
from app.treefile import load_path

from .strategies import trees

TREES = Path(__file__).resolve().parents[2] / "trees"
INF = float("inf")


def events(tree, **opts):
    return list(run(tree, SearchOptions(**opts)))


def negascout(tree, depth=None):
    """A plain recursive NegaScout in MAX/MIN form on integer leaves, the textbook way:
    the null window of a test on t is (t, t + 1) at MAX, (t - 1, t) at MIN; a re-search
    gets the full (alpha, beta). A static child (a leaf, or where the depth limit stops)
    is evaluated once: its value is exact. Returns (value, best child id, evaluated ids,
    re-searches)."""
    evaluated: list[str] = []
    researches = [0]

    def static(node):
        return not node.children or node.depth == depth

    def value(node, a, b, pv=True):
        if static(node):
            evaluated.append(node.id)
            return node.eval if node.children else node.value, None
        ismax = node.player == 0
        v, best = (-INF if ismax else INF), None
        for i, child in enumerate(node.children):
            if not pv or i == 0 or static(child):
                x = value(child, a, b, pv)[0]
            else:
                x = value(child, a, a + 1, False)[0] if ismax else value(child, b - 1, b, False)[0]
                if a < x < b:
                    researches[0] += 1
                    x = value(child, a, b, True)[0]
            if (x > v) if ismax else (x < v):
                v, best = x, child.id
            if ismax:
                if v >= b:
                    break
                a = max(a, v)
            else:
                if v <= a:
                    break
                b = min(b, v)
        return v, best

    v, best = value(tree.root, -INF, INF)
    return v, best, evaluated, researches[0]


def test_aima_figure_5_2_tests_c_and_d_and_never_searches_again():
    tree = load_path(TREES / "aima-fig-5-2.yaml")
    evs = events(tree, algorithm="pvs")
    done = evs[-1]
    assert (done["value"], done["best_move"]) == (3, "B")
    assert done["evaluated"] == ["b1", "b2", "b3", "c1", "d1", "d2", "d3"]
    assert done["pruned"] == ["c2", "c3"]
    assert done["stats"]["researches"] == 0 and done["stats"]["scouts"] == 2
    scouts = [e for e in evs if e["type"] == "scout"]
    assert [(e["node"], e["parent"], e["threshold"], e["test"]) for e in scouts] == \
        [("C", "A", 3, ">"), ("D", "A", 3, ">")]
    # a tested child is entered with the null window alpha = beta = 3
    enter_c = next(e for e in evs if e["type"] == "enter" and e["node"] == "C")
    assert (enter_c["alpha"], enter_c["beta"]) == (3, 3)
    prune = next(e for e in evs if e["type"] == "prune")
    assert prune["node"] == "C" and prune["skipped"] == ["c2", "c3"] and prune["test"] == "v <= alpha"
    exit_d = next(e for e in evs if e["type"] == "exit" and e["node"] == "D")
    assert "The test fails low: D is worth at most 2 ≤ α = 3" in exit_d["text"]
    assert scouts[0]["lines"]["aima"] == 11
    assert listing("pvs")[10].strip().startswith("x ← MIN-VALUE(RESULT(state, a), α, α)")


def test_worst_first_order_searches_b_again_and_says_why_and_what_it_costs():
    tree = load_path(TREES / "aima-fig-5-2.yaml")
    evs = events(tree, algorithm="pvs", order="worst")
    done = evs[-1]
    assert (done["value"], done["best_move"]) == (3, "B")
    # B is tested (4 nodes), then searched again: its leaves appear twice
    assert done["evaluated"] == ["c3", "c2", "c1", "d1", "d2", "d3", "b2", "b3", "b1",
                                 "b2", "b3", "b1"]
    assert done["stats"]["researches"] == 1 and done["stats"]["evaluated"] == 12
    research = next(e for e in evs if e["type"] == "research")
    assert research["node"] == "B" and research["parent"] == "A" and research["value"] == 3
    assert research["window"] == [2, "inf"] and research["cost"] == 4
    assert research["lines"]["aima"] == 12
    assert ("the test fails high (3 > α = 2), so B is worth at least 3" in research["text"]
            and "re-search 1, which enters again the 4 nodes the test entered" in research["text"])
    # the test's marks are wiped: B and its leaves start again unvisited
    wiped = {(c[0], c[1], c[3]) for c in research["changes"]}
    assert {("B", "status", "unvisited"), ("b1", "status", "unvisited"),
            ("b1", "value", None)} <= wiped
    after = evs[evs.index(research) + 1]
    assert after["type"] == "enter" and after["node"] == "B"
    assert (after["alpha"], after["beta"]) == (2, "inf")
    assert "2 null-window tests, 1 re-search." in done["text"]


def test_sentences_in_indonesian():
    from app.i18n import words
    tree = load_path(TREES / "aima-fig-5-2.yaml")
    evs = list(run(tree, SearchOptions(algorithm="pvs", order="worst"), words("id")))
    said = {e["type"]: e["text"] for e in evs if e["type"] in ("scout", "research", "done")}
    english = {e["type"]: e["text"] for e in events(tree, algorithm="pvs", order="worst")
               if e["type"] in ("scout", "research", "done")}
    for kind in ("scout", "research", "done"):
        assert said[kind] != english[kind], kind
    assert "uji" in said["scout"].lower() and "ulang" in said["research"].lower()


@settings(max_examples=200, deadline=None)
@given(trees(max_depth=4, max_branch=4))
def test_events_agree_with_a_plain_negascout(tree):
    value, best, evaluated, researches = negascout(tree)
    done = events(tree, algorithm="pvs")[-1]
    assert done["value"] == value and done["best_move"] == best
    assert done["evaluated"] == evaluated
    assert done["stats"]["researches"] == researches


@settings(max_examples=60, deadline=None)
@given(trees(max_depth=4, evals=True), st.integers(1, 3))
def test_depth_limited_agrees_with_a_plain_negascout(tree, depth):
    value, best, evaluated, researches = negascout(tree, depth)
    done = events(tree, algorithm="pvs", depth=depth)[-1]
    assert (done["value"], done["best_move"], done["evaluated"]) == (value, best, evaluated)
    assert done["stats"]["researches"] == researches


@settings(max_examples=80, deadline=None)
@given(trees(max_depth=4, max_branch=4, values=st.integers(-20, 20) | st.floats(-5, 5)),
       st.sampled_from(["given", "best", "worst", "random"]), st.integers(0, 3))
def test_value_and_move_are_minimax_and_best_first_never_searches_again(tree, order, seed):
    plain = events(tree, algorithm="minimax", order=order, seed=seed)[-1]
    evs = events(tree, algorithm="pvs", order=order, seed=seed)
    done = evs[-1]
    assert (done["value"], done["best_move"]) == (plain["value"], plain["best_move"])
    assert done["stats"]["researches"] == sum(e["type"] == "research" for e in evs)
    # every evaluation counted: the evaluate events, re-searches included
    assert done["evaluated"] == [e["node"] for e in evs if e["type"] == "evaluate"]
    # what the cuts skipped, each once (a test's cut and its re-search's may skip the same)
    skipped = [c for e in evs if e["type"] == "prune" for c in e["skipped"]]
    assert done["pruned"] == list(dict.fromkeys(skipped))
    if order == "best":
        assert done["stats"]["researches"] == 0


@pytest.mark.parametrize("game", ["game:tictactoe:xo.x.o...", "game:nim:7"])
def test_games_from_their_rules(game):
    from app.games.ids import resolve
    tree = resolve(game)
    plain = events(tree, algorithm="minimax")[-1]
    done = events(tree, algorithm="pvs")[-1]
    assert (done["value"], done["best_move"]) == (plain["value"], plain["best_move"])
