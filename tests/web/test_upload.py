"""Uploading trees: formats, errors, limits, the store's cap, restarts."""
from __future__ import annotations

import io
import json
import re

from app.treefile import Limits

from .helpers import assert_fig52_done

NOTATION = "A(B(b1=3 b2=12 b3=8) C(c1=2 c2=4 c3=6) D(d1=14 d2=5 d3=2))"
SMALL = "title: small\nroot:\n  children: [1, 2]\n"


def upload(client, text, filename="tree.yaml"):
    data = {"file": (io.BytesIO(text.encode()), filename)}
    return client.post("/api/trees", data=data, content_type="multipart/form-data")


def ids(client, *wanted):
    """Ids the library lists (built-in only), or, given ids, those the server knows."""
    query = f"?ids={','.join(wanted)}" if wanted else ""
    return [e["id"] for e in client.get(f"/api/trees{query}").get_json()]


def test_a_multipart_upload_gets_an_id_and_a_page(client, fig52_yaml):
    response = upload(client, fig52_yaml)
    assert response.status_code == 201
    body = response.get_json()
    assert re.fullmatch(r"u-[0-9a-f]{12}", body["id"]) and body["url"] == f"/t/{body['id']}"
    assert body["id"] not in ids(client)          # unlisted: reached by its link
    entry = next(e for e in client.get(f"/api/trees?ids={body['id']}").get_json()
                 if e["id"] == body["id"])
    assert entry["builtin"] is False and entry["nodes"] == 13 and entry["url"] == body["url"]
    events = client.get(f"/api/trees/{body['id']}/trace").get_json()["events"]
    assert_fig52_done(events[-1])


def test_raw_bodies_of_each_type_are_read(client, fig52_yaml):
    yaml_id = client.post("/api/trees", data=fig52_yaml,
                          content_type="application/x-yaml").get_json()["id"]
    assert client.post("/api/trees", data=fig52_yaml,
                       content_type="text/yaml; charset=utf-8").get_json()["id"] == yaml_id
    as_json = client.get(f"/api/trees/{yaml_id}").get_json()
    for key in ("id", "url", "builtin", "info", "algorithms"):  # metadata, not the file
        del as_json[key]
    response = client.post("/api/trees", data=json.dumps(as_json), content_type="application/json")
    assert response.status_code == 201
    # The same tree written as JSON is the same tree: same id.
    assert response.get_json()["id"] == yaml_id
    typed = client.post("/api/trees", data=NOTATION, content_type="text/plain")
    assert typed.status_code == 201
    events = client.get(f"/api/trees/{typed.get_json()['id']}/trace?algorithm=alphabeta")
    assert_fig52_done(events.get_json()["events"][-1])


def test_the_same_tree_twice_is_kept_once(client, app, fig52_yaml):
    first = upload(client, fig52_yaml).get_json()["id"]
    second = upload(client, fig52_yaml, filename="again.yml").get_json()["id"]
    assert first == second
    assert app.extensions["trees"].store.usage()[0] == 1


def test_different_trees_get_different_ids(client, fig52_yaml):
    a = upload(client, fig52_yaml).get_json()["id"]
    b = upload(client, fig52_yaml.replace("value: 14", "value: 15")).get_json()["id"]
    assert a != b


def test_a_bad_file_is_a_400_with_line_and_column_and_changes_nothing(client, app):
    before = client.get("/api/trees").get_json()
    response = upload(client, "title: oops\nroot:\n  children:\n    - {id: a, vaule: 3}\n")
    assert response.status_code == 400 and response.is_json
    error = response.get_json()["error"]
    assert "vaule" in error["message"] and error["line"] == 4 and isinstance(error["column"], int)
    assert client.get("/api/trees").get_json() == before
    assert app.extensions["trees"].store.usage() == (0, 0)


def test_a_yaml_syntax_error_names_its_line(client):
    response = client.post("/api/trees", data="title: x\nroot: {children: [1, 2\n",
                           content_type="application/x-yaml")
    assert response.status_code == 400
    assert response.get_json()["error"]["line"] is not None


def test_a_body_over_the_limit_is_a_json_413(make_app, trees_dir, fig52_yaml):
    app = make_app(TREES_DIR=str(trees_dir), MAX_CONTENT_LENGTH=1000)
    client = app.test_client()
    big = fig52_yaml + "#" * 2000 + "\n"
    for response in (client.post("/api/trees", data=big, content_type="application/x-yaml"),
                     upload(client, big)):
        assert response.status_code == 413 and response.is_json
        assert response.get_json()["error"]["message"]
    assert app.extensions["trees"].store.usage() == (0, 0)


def test_a_tree_over_the_node_limit_is_a_413_with_its_message(make_app, trees_dir, fig52_yaml):
    app = make_app(TREES_DIR=str(trees_dir), TREE_LIMITS=Limits(max_nodes=5))
    response = upload(app.test_client(), fig52_yaml)
    assert response.status_code == 413
    assert "node" in response.get_json()["error"]["message"]


def test_a_full_store_makes_room_by_evicting_the_oldest(make_app, trees_dir, fig52_yaml):
    app = make_app(TREES_DIR=str(trees_dir), STORE_MAX_TREES=1)
    client = app.test_client()
    old = upload(client, fig52_yaml).get_json()["id"]
    new = upload(client, SMALL)
    assert new.status_code == 201
    assert ids(client, old, new.get_json()["id"]) == [new.get_json()["id"]]
    assert ids(client) == ["fig52"]


def test_the_byte_cap_counts_the_text(make_app, trees_dir, fig52_yaml):
    app = make_app(TREES_DIR=str(trees_dir), STORE_MAX_BYTES=len(fig52_yaml) + 10)
    client = app.test_client()
    first = upload(client, fig52_yaml).get_json()["id"]
    second = upload(client, SMALL).get_json()["id"]
    assert ids(client, first, second) == [second]
    assert upload(client, fig52_yaml + "#" * 20 + "\n").status_code == 413  # larger than all


def test_uploads_survive_a_restart(make_app, trees_dir, fig52_yaml):
    first = make_app(TREES_DIR=str(trees_dir)).test_client()
    tree_id = upload(first, fig52_yaml).get_json()["id"]
    restarted = make_app(TREES_DIR=str(trees_dir)).test_client()
    assert ids(restarted, tree_id) == [tree_id]
    assert restarted.get(f"/api/trees/{tree_id}").status_code == 200
    assert_fig52_done(restarted.get(f"/api/trees/{tree_id}/trace").get_json()["events"][-1])
    assert restarted.get(f"/api/trees/{tree_id}/file").get_data(as_text=True) == fig52_yaml


def test_unreadable_uploads_are_refused_as_json(client):
    cases = [
        (client.post("/api/trees", data=b"\xff\xfe title", content_type="application/x-yaml"), 400),
        (client.post("/api/trees", data="   \n", content_type="application/x-yaml"), 400),
        (client.post("/api/trees", data=SMALL, content_type="application/octet-stream"), 415),
        (client.post("/api/trees", data={"other": (io.BytesIO(b"x"), "a.yaml")},
                     content_type="multipart/form-data"), 400),
    ]
    for response, status in cases:
        assert response.status_code == status and response.is_json
        assert response.get_json()["error"]["message"]
    assert ids(client) == ["fig52"]


def test_uploads_from_another_sites_page_are_refused(client, fig52_yaml):
    foreign = client.post("/api/trees", data=fig52_yaml, content_type="text/plain",
                          headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403 and foreign.is_json
    own = client.post("/api/trees", data=fig52_yaml, content_type="text/plain",
                      headers={"Origin": "http://localhost"})
    assert own.status_code == 201
    assert ids(client, own.get_json()["id"]) == [own.get_json()["id"]]
