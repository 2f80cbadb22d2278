"""The editor checks a tree by the loader's own rules: for any document,
edited into shape or not, check_document accepts exactly what load_tree
accepts of the same tree written as a JSON file, with the same message and
the same tree; and the what-if route never answers with a 500."""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from app.treefile import TreeFileError, load_tree, tree_to_dict
from app.whatif import DocumentError, check_document

scalars = st.one_of(
    st.integers(-5, 20), st.floats(-3, 3, allow_nan=False), st.sampled_from(
        ["1/3", "1/2", "2/3", "x", "", "chance", "MAX", "MIN", "A", "b1", "1/0", "\u202e"]),
    st.none(), st.booleans())
values = st.one_of(scalars, st.lists(st.integers(-3, 9), max_size=4))
FIELDS = ["id", "label", "player", "type", "probability", "eval", "value", "colour"]


def nodes(depth: int):
    """Well-formed trees (ids, labels, evals, players, chance nodes here and there)."""
    extras = {"label": st.sampled_from(["x", "A", "long label"]),
              "id": st.sampled_from(["A", "B", "b1", "n", "Z"])}
    leaf = st.fixed_dictionaries({"value": st.integers(-9, 20)}, optional=extras)
    if depth == 0:
        return leaf
    kids = st.lists(nodes(depth - 1), min_size=1, max_size=3)

    def inner(d, children, chance):
        if chance:
            for c in children:
                c["probability"] = f"1/{len(children)}"
            return {**d, "type": "chance", "children": children}
        return {**d, "children": children}
    return st.one_of(leaf, st.builds(inner, st.fixed_dictionaries(
        {}, optional={**extras, "eval": st.integers(-5, 5), "player": st.sampled_from(["MAX", "MIN"])}),
        kids, st.booleans()))


def mutate(doc, edits):
    """Some edits a person might make, sensible or not: a field set or removed."""
    stack, all_nodes = [doc["root"]], []
    while stack:
        node = stack.pop()
        all_nodes.append(node)
        stack.extend(node.get("children", []))
    for index, field, value in edits:
        node = all_nodes[index % len(all_nodes)]
        if value == "<delete>":
            node.pop(field, None)
        else:
            node[field] = value
    return doc


docs = st.builds(lambda title, players, root, edits: mutate(
                     {"title": title, **players, "root": root}, edits),
                 st.sampled_from(["t", "A tree", "t", ""]),
                 st.sampled_from([{}, {}, {}, {"players": ["MAX"]}]),
                 nodes(3),
                 st.lists(st.tuples(st.integers(0, 50), st.sampled_from(FIELDS + ["children"]),
                                    st.one_of(values, st.just("<delete>"), st.just([]))),
                          max_size=2))


def editor_shaped(doc) -> bool:
    stack = [doc["root"]]
    while stack:
        node = stack.pop()
        kids = node.get("children")
        if isinstance(kids, list):
            if not all(isinstance(c, dict) for c in kids):
                return False
            stack.extend(kids)
    return True


def _unplaced(message: str) -> str:
    return re.sub(r"\(first used at [^)]*\)|\((?:line \d+|at [^)]*)\)", "(...)", message)


def keyed(doc):
    out = json.loads(json.dumps(doc))
    stack, n = [out["root"]], 0
    while stack:
        node = stack.pop()
        n += 1
        node["key"] = f"k{n}"
        kids = node.get("children")
        stack.extend(c for c in (kids if isinstance(kids, list) else []) if isinstance(c, dict))
    return out


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(docs)
def test_check_document_accepts_exactly_what_the_loader_accepts(doc):
    # The page writes every node as an object with its key (no bare-number leaves).
    assume(editor_shaped(doc))
    try:
        expected = load_tree(json.dumps(doc), fmt="json")
    except TreeFileError as exc:
        expected = exc
    try:
        got = check_document(keyed(doc)).tree
    except DocumentError as exc:
        got = exc
    if isinstance(expected, TreeFileError):
        assert isinstance(got, DocumentError), expected.message
        # Where the loader says "line N" (one line here), the editor names the node.
        assert _unplaced(got.message) == _unplaced(expected.message)
    else:
        assert not isinstance(got, DocumentError), got.message
        assert tree_to_dict(got) == tree_to_dict(expected)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(docs, st.sampled_from([None, "alphabeta", "minimax", "maxn", "expectiminimax", "iterative"]),
       st.sampled_from([None, 0, 1, 2]))
def test_the_what_if_route_never_fails(client, doc, algorithm, depth):
    options = {k: v for k, v in (("algorithm", algorithm), ("depth", depth)) if v is not None}
    res = client.post("/api/edit/run", json={"tree": keyed(doc), "previous": keyed(doc),
                                             "options": options})
    assert res.status_code in (200, 400, 413)
    body = res.get_json()
    assert ("result" in body) if res.status_code == 200 else body["error"]["message"]
