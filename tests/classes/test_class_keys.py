"""A class's answer key is heavy work (a search of the tree): computed through
the work queue (app.web.offload), off gevent's loop, once per run however many
asks arrive at once, and refused with the queue's clear error when it is full."""
from __future__ import annotations

import threading
import time

import app.classes.service as service_module
from app.web.offload import WorkQueue

from tests.web.helpers import watch_builds


def _present(conns, cls):
    inst = conns()
    assert inst.call("present", {"code": cls["code"], "token": cls["instructor"]})["ok"]
    return inst


def _ask(inst, cls, node="B"):
    return inst.call("ask", {"code": cls["code"], "token": cls["instructor"], "kind": "value",
                             "node": node})


def test_an_asks_answer_key_is_computed_as_heavy_work(app, conns, new_class, monkeypatch):
    # Before: the first question on a tree searched it inside the Socket.IO
    # handler (0.6 s on a 65,641-node tree), freezing every other message of the
    # process under gevent. Now it runs as an admitted job of the work queue.
    work = app.extensions["work"]
    running = []
    made = service_module.answer_key

    def watched(tree, options):
        running.append(work.running)      # 1 inside an admitted job, 0 outside
        return made(tree, options)

    monkeypatch.setattr(service_module, "answer_key", watched)
    cls = new_class()
    inst = _present(conns, cls)
    ack = _ask(inst, cls)
    assert ack["ok"], ack
    assert ack["state"]["question"]["node"] == "B"
    assert running == [1], "the answer key was computed outside the work queue"
    assert _ask(inst, cls, "C")["ok"] and running == [1]    # the next question: kept


def test_a_full_work_queue_refuses_the_ask_with_its_clear_error(app, conns, new_class,
                                                                 monkeypatch):
    work = WorkQueue(threads=1, queue=0, wait=0.01, per_client=6)
    monkeypatch.setitem(app.extensions, "work", work)
    cls = new_class()
    inst = _present(conns, cls)
    with work.admitted("someone else"):       # the only thread busy, no place to wait
        ack = _ask(inst, cls)
    assert ack["ok"] is False, ack
    assert ack["error"]["status"] == 503 and ack["error"]["retry_after"] == work.retry_after
    assert ack["error"]["message"].startswith("The server is busy: 1 heavy request is running")
    ack = _ask(inst, cls)                     # the refusal was not kept as the key
    assert ack["ok"], ack


def test_asks_at_once_compute_the_key_once(app, new_class, monkeypatch):
    # A double tap, or two instructor tabs: the second ask waits for the first's
    # key instead of searching the tree again (each search a place in the queue).
    calls = []
    made = service_module.answer_key
    started = threading.Event()

    def slow(tree, options):
        calls.append(1)
        started.set()
        time.sleep(0.3)                       # long enough for the second ask to arrive
        return made(tree, options)

    monkeypatch.setattr(service_module, "answer_key", slow)
    cls = new_class()
    classes = app.extensions["classes"]
    acks, errors = [], []

    def ask(node):
        try:
            acks.append(classes.ask(cls["code"], cls["instructor"], "value", node))
        except Exception as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    first = threading.Thread(target=ask, args=("B",))
    first.start()
    assert started.wait(10)
    second = threading.Thread(target=ask, args=("C",))
    second.start()
    first.join(10)
    second.join(10)
    assert not errors, errors
    assert len(acks) == 2 and {a["question"]["node"] for a in acks} == {"B", "C"}
    assert len(calls) == 1, f"the key was computed {len(calls)} times"


def test_a_refused_key_is_refused_to_every_ask_waiting(app, new_class):
    # The run too long for questions: both asks get the reason, neither hangs.
    app.extensions["classes"].key_max_events = 5
    cls = new_class()
    classes = app.extensions["classes"]
    for _ in range(2):
        try:
            classes.ask(cls["code"], cls["instructor"], "value", "B")
        except service_module.ClassError as exc:
            assert exc.status == 400 and "longer than 5 steps" in str(exc)
        else:
            raise AssertionError("a run longer than the limit was asked on")


def test_a_students_answer_never_builds_the_tree_on_the_loop(app, client, conns,
                                                             monkeypatch):
    # The library forgets a parsed tree nobody asked for in 30 s (a question's
    # discussion, say); the first answer after that grades with the tree: it was
    # built again inside the answer's handler, on the loop (0.9 s for r-b2-d15).
    library = app.extensions["trees"]
    res = client.post("/api/classes", json={"tree": "r-b3-d4-s5", "algorithm": "alphabeta"})
    assert res.status_code == 201, res.get_json()
    cls = res.get_json()
    inst = _present(conns, cls)
    ack = inst.call("ask", {"code": cls["code"], "token": cls["instructor"], "kind": "move"})
    assert ack["ok"], ack
    qid = ack["state"]["question"]["id"]
    running = watch_builds(app, monkeypatch)
    choices = ack["state"]["question"]["choices"]
    for keep_key in (True, False):        # asked here; asked on another process (Redis)
        library.sweep(-1)                 # the parsed tree forgotten
        if not keep_key:
            app.extensions["classes"]._keys.clear()
        student = conns()
        assert student.call("join", {"code": cls["code"]})["ok"]
        ack = student.call("answer", {"code": cls["code"], "question": qid,
                                      "answer": choices[0]})
        assert ack["ok"] and ack["accepted"], ack
    assert all(running), f"the tree was built on the loop: {running}"
    assert running == [1]                 # the key's own tree served the first answer


def test_a_class_page_never_builds_the_tree_on_the_loop(app, client, monkeypatch):
    # The pages name the tree by its title: a tree the library had forgotten (the
    # class made a minute before 200 students open its link) was built again
    # inside the page's request, on the loop, for its title.
    library = app.extensions["trees"]
    res = client.post("/api/classes", json={"tree": "r-b3-d4-s6", "algorithm": "alphabeta"})
    assert res.status_code == 201, res.get_json()
    cls = res.get_json()
    running = watch_builds(app, monkeypatch)
    for page in (cls["join"], cls["present"], f"{cls['join']}/report"):
        library.sweep(-1)                 # the parsed tree forgotten
        res = client.get(page)
        assert res.status_code == 200, page
        assert library.get("r-b3-d4-s6").title in res.get_data(as_text=True)
    assert running == [1, 1, 1], f"the tree was built on the loop: {running}"
