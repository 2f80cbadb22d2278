"""Every algorithm's record through every layer (issue 29): the command line,
the HTTP trace, the page, guided practice, a class's question, pictures and
worksheets, the editor's what-if and homework's random trees. Each layer either
works or refuses with the reason the record gives (``Algorithm.reason``), in the
reader's language: no layer asks "is this MCTS?"."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from app.i18n import words
from app.search import algorithms_for
from app.search.descriptors import REGISTRY
from app.treefile import load_path, tree_to_dict

pytestmark = pytest.mark.slow   # (about 2 s a record: a worksheet PDF each)

REPO = Path(__file__).resolve().parents[2]
LIBRARY = sorted((REPO / "trees").glob("*.yaml"))


def _tree_for(record) -> Path:
    """The smallest library tree the record is offered on."""
    fits = [p for p in LIBRARY if record.id in algorithms_for(load_path(p), whatif=False)]
    return min(fits, key=lambda p: (len(load_path(p).nodes), p.name))


CASES = [(a, _tree_for(a)) for a in REGISTRY]
IDS = [a.id for a, _ in CASES]


@pytest.fixture(scope="module")
def library_app(tmp_path_factory):
    from app.web import create_app
    instance = tmp_path_factory.mktemp("instance")
    return create_app({"TESTING": True, "TREES_DIR": str(REPO / "trees")},
                      instance_path=str(instance))


def _document(path: Path) -> dict:
    """The tree as the editor's document: every node with its ``key``."""
    doc = tree_to_dict(load_path(path))

    def keyed(node):
        if not isinstance(node, dict):   # a bare number: a leaf
            node = {"value": node}
        if isinstance(node, dict):
            node["key"] = node.get("id") or f"k{id(node)}"
            node["children"] = [keyed(c) for c in node.get("children", [])] or None
            if node["children"] is None:
                del node["children"]
        return node
    keyed(doc["root"])
    return doc


def _refused_with_reason(response, record, layer, lang="en"):
    """A 400 whose message is the record's reason for ``layer``, in ``lang``."""
    reason = record.reason(layer)
    assert reason, f"{record.id} is refused by {layer} without a reason on its record"
    assert response.status_code == 400, (record.id, layer, response.status_code)
    body = response.get_json()
    assert words(lang)(reason) in json.dumps(body, ensure_ascii=False), (record.id, layer, body)


@pytest.mark.parametrize("record,path", CASES, ids=IDS)
def test_every_layer_takes_the_record_or_gives_its_reason(record, path, library_app, capsys):
    client = library_app.test_client()
    stem = path.stem
    # the command line
    assert main(["trace", str(path), "--algorithm", record.id, "--format", "jsonl"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert json.loads(lines[-1])["type"] == "done"
    # the HTTP trace: the events the record names, ending with done
    got = client.get(f"/api/trees/{stem}/trace?algorithm={record.id}")
    assert got.status_code == 200
    events = got.get_json()["events"]
    assert events[-1]["type"] == "done" and {e["type"] for e in events} <= set(record.events)
    # the page loads with it chosen, its record in the page's copy
    page = client.get(f"/t/{stem}?algorithm={record.id}")
    assert page.status_code == 200 and f'&#34;id&#34;: &#34;{record.id}&#34;' in page.text \
        or f'"id": "{record.id}"' in page.text
    # guided practice: a walk of its own run where the record is one search of a
    # two-player tree without chance nodes; else the tree's own
    checked = client.post("/api/practice/check", json={"tree": stem, "mode": "guided",
                                                       "algorithm": record.id, "index": 0,
                                                       "reveal": True})
    assert checked.status_code == 200, checked.get_json()
    # a class: created with it; a question at its first step, or the record's reason
    made = client.post("/api/classes", json={"tree": stem, "algorithm": record.id})
    assert made.status_code == 201, made.get_json()
    from app.classes.service import ClassError
    from app.web.classes import classes
    with library_app.app_context():
        code, token = made.get_json()["code"], made.get_json()["instructor"]
        root = load_path(path).root.id
        for kind in ("value", "move", "ucb"):   # (the menu's kinds that fit the first step)
            try:
                asked = classes().ask(code, token, kind, root if kind == "value" else None)
            except ClassError as exc:
                # a kind outside the record's questions: refused with the record's reason;
                # one of them (MCTS's UCB1 at a step that selects nothing): for the step
                assert (exc.msgid == record.reason("questions")) == (kind not in record.questions), \
                    (record.id, kind, exc.msgid)
                continue
            assert kind in record.questions and asked["question"]["kind"] == kind, (record.id, kind)
            classes().dismiss(code, token)       # (the next kind is asked afresh)
    # pictures always; a worksheet where the record has one, else its reason (in Indonesian)
    picture = client.get(f"/api/trees/{stem}/export.svg?algorithm={record.id}&step=3")
    assert picture.status_code == 200 and picture.mimetype == "image/svg+xml"
    sheet = client.get(f"/api/trees/{stem}/worksheet.pdf?algorithm={record.id}&lang=id")
    if record.worksheet:
        assert sheet.status_code == 200 and sheet.data.startswith(b"%PDF")
    else:
        _refused_with_reason(sheet, record, "worksheet", "id")
    # the editor's what-if: run with it, or switched with its record's reason said
    answer = client.post("/api/edit/run", json={"tree": _document(path),
                                                "options": {"algorithm": record.id}})
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert (record.id in body["algorithms"]) == record.whatif
    if not record.whatif:
        assert words("id")(record.reason("whatif")) in body["note"], body["note"]   # (lang=id: the cookie)
    # homework's random trees: made for it, or refused with its reason
    hw = client.post("/api/assignments?lang=id", json={"exercises": [
        {"tree": "random", "algorithm": record.id, "mode": "guided"}]})
    if hw.status_code == 201:
        mine = client.get(f"/api/assignments/{hw.get_json()['id']}/students/ann/exercises",
                          headers={"Authorization": f"Bearer {hw.get_json()['instructor']}"})
        tree_id = mine.get_json()[0]["tree"]
        assert client.get(f"/api/trees/{tree_id}").status_code == 200
        # a tree of the record's shape (one that accepts chance nodes gets them)
        shape = library_app.extensions["trees"].get(tree_id)
        assert record.fits_shape(shape.multiplayer, shape.has_chance), record.id
        assert record.chance != "accepts" or shape.has_chance, record.id
    else:
        _refused_with_reason(hw, record, "homework", "id")
