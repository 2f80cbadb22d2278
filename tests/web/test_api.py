"""The HTTP API of contract §3: library, one tree, traces; JSON errors."""
from __future__ import annotations

import json
import logging

import pytest

from app.search import SearchOptions, run
from app.treefile import load_tree

from .helpers import assert_fig52_done, done_of, strict_json

LISTING_KEYS = {"id", "title", "source", "nodes", "leaves", "height", "players",
                "algorithm", "chance", "builtin", "url"}


def test_the_library_lists_built_in_trees_with_their_shape(client):
    response = client.get("/api/trees")
    assert response.status_code == 200 and response.is_json
    [entry] = strict_json(response.data)
    assert LISTING_KEYS <= entry.keys()
    assert entry["id"] == "fig52" and entry["url"] == "/t/fig52" and entry["builtin"] is True
    assert entry["title"] == "AIMA Figure 5.2, a two-ply game"
    assert (entry["nodes"], entry["leaves"], entry["height"]) == (13, 9, 2)
    assert entry["players"] == ["MAX", "MIN"] and entry["algorithm"] == "alphabeta"
    assert entry["chance"] is False


def test_a_built_in_file_that_fails_to_load_is_logged_and_skipped(make_app, trees_dir, caplog):
    (trees_dir / "broken.yaml").write_text("title: broken\nroot: {children: [1, oops]}\n")
    (trees_dir / "notes.md").write_text("not a tree file")
    with caplog.at_level(logging.ERROR, logger="app.web.library"):
        app = make_app(TREES_DIR=str(trees_dir))
    assert any("broken.yaml" in r.getMessage() for r in caplog.records)
    ids = [e["id"] for e in app.test_client().get("/api/trees").get_json()]
    assert ids == ["fig52"]


def test_a_missing_trees_folder_still_serves(make_app, tmp_path):
    app = make_app(TREES_DIR=str(tmp_path / "nowhere"))
    assert app.test_client().get("/api/trees").get_json() == []


def test_a_tree_comes_back_in_the_file_structure_with_its_info(client):
    body = client.get("/api/trees/fig52").get_json()
    assert body["id"] == "fig52" and body["builtin"] is True and body["url"] == "/t/fig52"
    assert body["title"] == "AIMA Figure 5.2, a two-ply game"
    root = body["root"]
    assert root["id"] == "A" and [c["id"] for c in root["children"]] == ["B", "C", "D"]
    assert body["info"]["nodes"] == 13
    assert body["algorithms"] == ["alphabeta", "minimax", "mcts", "pvs"]
    # Every node carries its id, so the page needs none of the loader's id rules.
    leaves = [leaf for child in root["children"] for leaf in child["children"]]
    assert [leaf["id"] for leaf in leaves] == ["b1", "b2", "b3", "c1", "c2", "c3", "d1", "d2", "d3"]
    # Without the metadata it is a tree file: reading it gives the same tree.
    for key in ("id", "url", "builtin", "info", "algorithms"):
        del body[key]
    again = load_tree(json.dumps(body), fmt="json")
    assert [n.id for n in again.nodes] == ["A", "B", "b1", "b2", "b3", "C", "c1", "c2", "c3",
                                           "D", "d1", "d2", "d3"]
    assert [n.value for n in again.leaves] == [3, 12, 8, 2, 4, 6, 14, 5, 2]


def test_a_trees_json_is_made_once_and_sent_again(app, client):
    """Issue 30: a lecture's phones all ask for the same tree (3 MB of JSON
    made in half a second at 111,111 nodes): its body is made once per tree
    and language, made again for a tree the library rebuilt, and let go of
    with a deleted upload."""
    kept = app.extensions["tree_json"]
    first = client.get("/api/trees/fig52")
    again = client.get("/api/trees/fig52")
    assert first.status_code == again.status_code == 200 and again.is_json
    assert again.data == first.data and kept.made == 1
    assert client.get("/api/trees/fig52?lang=id").get_json() == first.get_json()
    assert kept.made == 2                           # (a game's positions are said in the language)
    res = client.post("/api/trees", data=b"(3 (1 2) -4)", headers={"Content-Type": "text/plain"})
    tree_id, token = res.get_json()["id"], res.get_json()["delete_token"]
    body = client.get(f"/api/trees/{tree_id}").data
    assert kept.made == 3 and kept.usage()[0] == 3
    app.extensions["trees"].sweep(-1)               # the parsed trees let go of: rebuilt when asked
    assert client.get(f"/api/trees/{tree_id}").data == body and kept.made == 4
    assert client.delete(f"/api/trees/{tree_id}", headers={"X-Delete-Token": token}).status_code == 204
    assert client.get(f"/api/trees/{tree_id}").status_code == 404
    assert kept.usage()[0] == 2                     # fig52's two languages


def test_the_file_of_a_tree_is_the_text_it_was_written_as(client, fig52_yaml):
    response = client.get("/api/trees/fig52/file")
    assert response.status_code == 200
    assert response.get_data(as_text=True) == fig52_yaml


def test_trace_of_fig52_ends_in_the_contract_summary(client):
    response = client.get("/api/trees/fig52/trace?algorithm=alphabeta")
    assert response.status_code == 200 and response.is_json
    events = strict_json(response.data)["events"]
    assert_fig52_done(done_of(events))
    assert [e["step"] for e in events] == list(range(1, len(events) + 1))


def test_trace_equals_the_core_run(client, app):
    tree = app.extensions["trees"].get("fig52")
    expected = list(run(tree, SearchOptions(algorithm="minimax", order="worst")))
    events = client.get("/api/trees/fig52/trace?algorithm=minimax&order=worst").get_json()["events"]
    assert events == expected


def test_trace_without_arguments_uses_the_trees_algorithm(client):
    body = client.get("/api/trees/fig52/trace").get_json()
    assert body["options"]["algorithm"] == "alphabeta"
    assert_fig52_done(body["events"][-1])


def test_trace_arguments_change_the_run(client):
    minimax = client.get("/api/trees/fig52/trace?algorithm=minimax").get_json()["events"][-1]
    assert minimax["pruned"] == [] and len(minimax["evaluated"]) == 9
    strict = client.get("/api/trees/fig52/trace?strict=1&order=random&seed=7").get_json()
    assert strict["options"] == {"algorithm": "alphabeta", "depth": None, "order": "random",
                                 "seed": 7, "strict": True, "style": "aima"}
    assert strict["events"][-1]["value"] == 3


@pytest.mark.parametrize("query, argument", [
    ("depth=two", "depth"),
    ("depth=-1", "depth"),
    ("seed=1.5", "seed"),
    ("algorithm=negamax", "algorithm"),
    ("order=sideways", "order"),
    ("style=knuth", "style"),
    ("strict=maybe", "strict"),
    ("algo=minimax", "algo"),
])
def test_a_bad_trace_argument_is_a_400_naming_it(client, query, argument):
    response = client.get(f"/api/trees/fig52/trace?{query}")
    assert response.status_code == 400 and response.is_json
    error = response.get_json()["error"]
    assert error["argument"] == argument and argument in error["message"]


def test_options_that_do_not_fit_the_tree_are_a_400(client):
    response = client.get("/api/trees/fig52/trace?algorithm=maxn")
    assert response.status_code == 400
    assert "maxn" in response.get_json()["error"]["message"]
    # depth 1 stops at B, C, D, which have no eval
    response = client.get("/api/trees/fig52/trace?depth=1")
    assert response.status_code == 400 and "eval" in response.get_json()["error"]["message"]


def test_a_run_too_long_for_one_answer_is_refused_with_advice(make_app, trees_dir):
    client = make_app(TREES_DIR=str(trees_dir), TRACE_MAX_EVENTS=10).test_client()
    response = client.get("/api/trees/fig52/trace")
    assert response.status_code == 413
    assert "depth" in response.get_json()["error"]["message"]


def test_unknown_tree_is_a_json_404(client):
    for tree_id in ("nope", "u-000000000000"):
        for url in (f"/api/trees/{tree_id}", f"/api/trees/{tree_id}/trace",
                    f"/api/trees/{tree_id}/file"):
            response = client.get(url)
            assert response.status_code == 404 and response.is_json, url
            assert tree_id in response.get_json()["error"]["message"]


def test_unknown_url_is_a_json_404(client):
    response = client.get("/api/nothing-here")
    assert response.status_code == 404 and response.is_json
    assert response.get_json()["error"]["message"]


def test_wrong_method_is_a_json_405_with_allow(client):
    response = client.delete("/api/trees")
    assert response.status_code == 405 and response.is_json
    assert "POST" in response.headers["Allow"] and "GET" in response.headers["Allow"]
    assert response.get_json()["error"]["message"]


def test_a_crash_is_a_json_500_without_details(make_app, trees_dir):
    app = make_app(TREES_DIR=str(trees_dir), TESTING=False)

    def boom():
        raise RuntimeError("secret detail")

    app.add_url_rule("/api/boom", view_func=boom)
    response = app.test_client().get("/api/boom")
    assert response.status_code == 500 and response.is_json
    assert "secret" not in response.get_data(as_text=True)


def test_answers_refuse_non_finite_numbers(app):
    with pytest.raises(ValueError):
        app.json.dumps({"alpha": float("inf")})
    assert app.json.loads(app.json.dumps({"alpha": "-inf"})) == {"alpha": "-inf"}


def test_every_shipped_tree_is_served_and_traces_to_done(make_app):
    from app.web import REPO

    client = make_app().test_client()  # the repository's own trees/
    entries = client.get("/api/trees").get_json()
    files = sorted(p.stem for p in (REPO / "trees").glob("*") if p.suffix in (".yaml", ".yml", ".json"))
    assert sorted(e["id"] for e in entries) == files  # none skipped as broken
    for entry in entries:
        events = client.get(f"/api/trees/{entry['id']}/trace").get_json()["events"]
        assert done_of(events)["value"] is not None, entry["id"]
