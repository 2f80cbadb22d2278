"""Contract §8 in a live class: at the reveal each wrong answer a misconception gives is
labelled on the chart (never before), and the class report names it (JSON and CSV)."""
from __future__ import annotations

import csv
import io
import json

from tests.classes.test_class_server import join, present, wait_tally


def _answer_all(pupils, code, q, entries):
    for s, entry in zip(pupils, entries):
        assert s.call("answer", {"code": code, "question": q["id"], "answer": entry})["accepted"]


def test_the_reveal_labels_wrong_answers_and_the_report_names_them(conns, new_class, client):
    cls = new_class()
    code, token = cls["code"], cls["instructor"]
    inst = present(conns, cls)
    pupils = [join(conns, cls)[0] for _ in range(4)]
    ask = {"code": code, "token": token}
    got = inst.call("ask", {**ask, "kind": "value", "node": "B"})
    assert got.get("ok"), got
    q = got["state"]["question"]
    _answer_all(pupils, code, q, ["12", "12", "3", "7"])
    # before the reveal the projector gets no word of them (nor of the right answer)
    tally = wait_tally(inst, 4)
    before = json.dumps([*inst.received("state"), tally])
    assert "misconception" not in before and "levels-swapped" not in before
    chart = inst.call("reveal", ask)["state"]["tally"]["chart"]
    bars = {b["label"]: b.get("misconception") for b in chart["bars"]}
    # B is MIN: 12 is what a search with MAX and MIN swapped returns there
    assert bars == {"12": {"id": "levels-swapped", "name": "MAX and MIN swapped"},
                    "3": None, "7": None}
    inst.call("dismiss", ask)
    q = inst.call("ask", {**ask, "kind": "pruned", "node": "C"})["state"]["question"]
    assert "misconceptions" not in q
    _answer_all(pupils, code, q, [["c1", "c2", "c3"], [], ["c2", "c3"], ["c3"]])
    chart = inst.call("reveal", ask)["state"]["tally"]["chart"]
    bars = {b["label"]: (b.get("misconception") or {}).get("id") for b in chart["bars"]}
    assert bars == {"c1, c2, c3": "cutter", "none": "right-to-left", "c2, c3": None, "c3": None}
    auth = {"Authorization": f"Bearer {token}"}
    report = client.get(f"/api/classes/{code}/report", headers=auth).get_json()
    assert "misconception" in report["columns"]
    named = {(r["node"], r["answer"]): r["misconception"] for r in report["rows"]}
    assert named == {("B", "12"): "levels-swapped", ("B", "3"): "", ("B", "7"): "",
                     ("C", "c1, c2, c3"): "cutter", ("C", "none"): "right-to-left",
                     ("C", "c2, c3"): "", ("C", "c3"): ""}
    rows = list(csv.DictReader(io.StringIO(
        client.get(f"/api/classes/{code}/report.csv", headers=auth).get_data(as_text=True))))
    assert {(r["node"], r["answer"]): r["misconception"] for r in rows} == named
