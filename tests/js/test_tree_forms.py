"""``GET /api/trees/<id>?form=flat`` (its nodes as columns, app.web.treejson,
issue 30) and the tree file's nested structure read by the page's
``readTree`` (static/js/core/tree.js, under Node) into the same nodes: every
built-in tree (labels, chance nodes and probabilities, three players,
games' positions), a random tree with evals, the top of a game from its
rules (folded nodes and their sizes) and an upload written with bare leaves."""
from __future__ import annotations

import json

from app.web.library import BUILTIN_SUFFIXES, library_paths
from tests.conftest import REPO


def test_read_tree_reads_the_flat_form_as_the_nested_one(node_test, make_app):
    client = make_app().test_client()   # the repository's own trees/
    ids = [p.stem for p in library_paths(REPO / "trees") if p.suffix in BUILTIN_SUFFIXES]
    upload = client.post("/api/trees", data=json.dumps({"title": "Forms", "root": {"children": [
        {"children": [3, 12]}, {"type": "chance", "children": [{"probability": 0.5, "value": 1},
                                                                {"probability": 0.5, "value": -2}]}]}}),
        headers={"Content-Type": "application/json"})
    assert upload.status_code == 201, upload.get_json()
    ids += ["r-b3-d4-e-s7", "game:tictactoe", upload.get_json()["id"]]
    trees = []
    for tree_id in ids:
        nested = client.get(f"/api/trees/{tree_id}")
        flat = client.get(f"/api/trees/{tree_id}?form=flat")
        assert nested.status_code == flat.status_code == 200, tree_id
        trees.append({"name": tree_id, "nested": nested.get_json(), "flat": flat.get_json()})
    assert client.get("/api/trees/r-b3-d4-e-s7?form=columns").status_code == 400
    node_test("tree_forms.test.mjs", {"trees": trees}, tests=len(trees))
