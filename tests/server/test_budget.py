"""The budget module: every limit in one place, changed in one line, asked up front."""
from __future__ import annotations

import doctest
import threading
import time

import pytest

import app.budget
from app.budget import Budget, Gate, OverBudget


def test_docstring_examples():
    result = doctest.testmod(app.budget, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_one_setting_changes_a_limit_everywhere(make_app):
    small = make_app(BUDGET={"runs_per_client": 2, "upload_bytes": 1000, "store_trees": 3})
    assert small.extensions["budget"].runs.runs_per_client == 2
    assert small.extensions["stream"].runs.max_runs == 2
    assert small.config["MAX_CONTENT_LENGTH"] == 1000
    assert small.extensions["trees"].store.max_trees == 3
    with pytest.raises(ValueError, match="unknown budget field"):
        make_app(BUDGET={"no_such_limit": 1})


def test_older_single_settings_still_count(make_app):
    app = make_app(SOCKET_MAX_RUNS=1, TRACE_MAX_EVENTS=10)
    assert app.extensions["budget"].runs.runs_per_client == 1
    assert app.extensions["budget"].traces.trace_events == 10


def test_checks_refuse_with_a_status_and_a_limit():
    b = Budget(picture_nodes=10, flipbook_nodes=5, flipbook_pages=12, trace_events=100)
    b.check_picture(10)
    with pytest.raises(OverBudget) as info:
        b.check_picture(11)
    assert info.value.status == 413 and info.value.fields == {"limit": 10}
    b.check_flipbook(5, 10)
    with pytest.raises(OverBudget):
        b.check_flipbook(5, 11)       # 11 steps + question + key > 12 pages
    b.check_trace(50, "minimax")
    with pytest.raises(OverBudget):
        b.check_trace(51, "minimax")
    b.check_trace(51, "alphabeta")    # pruning: known only while it runs
    b.check_trace(51, "minimax", depth=2)


def test_gate_admits_a_waiter_when_a_slot_frees():
    gate = Gate(1, wait=2.0, what="renders")
    entered = threading.Event()

    def hold():
        with gate.slot():
            entered.set()
            time.sleep(0.2)

    t = threading.Thread(target=hold)
    t.start()
    entered.wait(2)
    started = time.monotonic()
    with gate.slot():            # waits for the holder, then gets in
        assert gate.busy == 1
    assert time.monotonic() - started >= 0.1
    t.join()
    busy = Gate(1, wait=0.0, retry_after=7)
    with busy.slot():
        with pytest.raises(OverBudget) as info:
            with busy.slot():
                pass
    assert info.value.status == 503 and info.value.retry_after == 7


# -- the server-wide cap on the runs' memory (app.budget.run_cost, app.web.runs) ----

def _run(run_id: str, tree_id: str, nodes: int, events: int = 10_000):
    from app.budget import run_cost
    from app.web.runs import Run

    cost = run_cost(nodes)
    return Run(run_id, tree_id, iter([{"type": "enter"}] * events), nodes=nodes,
               tree_bytes=cost.tree, event_bytes=cost.per_event, state_bytes=cost.state,
               base_bytes=cost.base)


def test_a_run_costs_its_shared_tree_once_and_its_own_state_as_it_grows():
    from app.web.runs import RunTable

    table = RunTable(max_runs=4)
    table.connect("a")
    table.connect("b")
    first = table.open("a", lambda rid: _run(rid, "big", 80_000))
    start = table.memory()
    assert start == 400 * 80_000 + first.memory
    second = table.open("b", lambda rid: _run(rid, "big", 80_000))
    assert table.memory() == start + second.memory        # the tree is counted once
    first.take(1000)
    assert first.memory == 64 * 1024 + 64 * 1000           # grows with the events drawn
    first.take(1000)
    assert first.memory == 64 * 1024 + 64 * 2000
    assert table.memory() == 400 * 80_000 + first.memory + second.memory


def test_runs_that_grow_past_the_cap_close_the_least_recently_pulled_first():
    from app.web.runs import RunTable

    told = []
    # Three trees of 10,000 nodes (4 MB each) and room for about 13 MB in all:
    # all three runs open, and then their growth (64 B per event) must evict.
    table = RunTable(max_runs=4, max_bytes=13 * 1024 * 1024,
                     on_evict=lambda sid, run_id: told.append((sid, run_id)))
    for sid in "abc":
        table.connect(sid)
    runs = {sid: table.open(sid, lambda rid, s=sid: _run(rid, f"t-{s}", 10_000, 30_000))
            for sid in "abc"}
    assert told == [] and table.count() == 3
    for sid in "abc":           # pulled in this order: "a" is the least recent
        runs[sid].take(1000)
        assert table.pulled(runs[sid])
    assert table.memory() == 3 * (4_000_000 + 64 * 1024 + 64_000)      # 12.4 MB
    for _ in range(20):         # "c" grows by 20 x 64,000 B: past the cap
        runs["c"].take(1000)
        alive = table.pulled(runs["c"])
    assert alive and told == [("a", runs["a"].id)] and runs["a"].closed
    assert table.memory() <= 13 * 1024 * 1024
    assert table.get("a", runs["a"].id) is None and table.count() == 2


def test_a_run_alone_over_the_cap_is_closed_and_its_client_told():
    from app.web.runs import RunTable

    told = []
    table = RunTable(max_runs=4, max_bytes=5 * 1024 * 1024,
                     on_evict=lambda sid, run_id: told.append((sid, run_id)))
    table.connect("a")
    run = table.open("a", lambda rid: _run(rid, "t", 10_000, 30_000))   # 4 MB of tree
    assert table.pulled(run)
    for _ in range(20):
        run.take(1000)
        if not table.pulled(run):
            break
    assert run.closed and told == [("a", run.id)] and table.memory() == 0


def test_a_run_too_big_for_the_cap_on_its_own_is_refused_up_front():
    b = Budget(run_memory=64 * 1024 * 1024)
    b.check_run(100_000)                       # 40 MB of tree + 16 MB of state at most
    with pytest.raises(OverBudget) as info:
        b.check_run(200_000)
    assert info.value.status == 413 and "MiB" in info.value.message
    b.check_run(150_000, lazy=True)            # a game's tree is not held: 60 MB of state
    with pytest.raises(OverBudget):
        b.check_run(200_000, lazy=True)


def test_over_the_sockets_a_growing_run_closes_the_least_recently_pulled_one(make_app):
    """Two clients on distinct 5,461-node trees (2.2 MB each by the estimate):
    both fit, but as the second pulls, its run grows past the cap, and the
    first client's run (pulled longest ago) is closed and its client told."""
    from app.web import socketio_of

    cap = int(4.8 * 1024 * 1024)
    app = make_app(BUDGET={"run_memory": cap})
    first, second = (socketio_of(app).test_client(app) for _ in range(2))
    a = first.emit("start", {"tree": "r-b4-d6-s1", "algorithm": "minimax"}, callback=True)
    b = second.emit("start", {"tree": "r-b4-d6-s2", "algorithm": "minimax"}, callback=True)
    assert a["ok"] and b["ok"]
    assert first.emit("pull", {"run": a["run"], "count": 10}, callback=True)["ok"]
    for _ in range(12):
        got = second.emit("pull", {"run": b["run"], "count": 1000}, callback=True)
        assert got["ok"]
        if app.extensions["stream"].runs.count() == 1:
            break
    health = app.test_client().get("/healthz").get_json()
    assert health["open_runs"] == 1 and health["run_memory"] <= cap
    closed = [m["args"][0] for m in first.get_received() if m["name"] == "closed"]
    assert [c["run"] for c in closed] == [a["run"]] and "room" in closed[0]["reason"]
    gone = first.emit("pull", {"run": a["run"], "count": 10}, callback=True)
    assert gone["ok"] is False and "no open run" in gone["error"]["message"]
    assert second.emit("pull", {"run": b["run"], "count": 10}, callback=True)["ok"]


def test_each_concern_is_a_record_read_in_one_place():
    from app.budget import RECORDS, Games

    b = Budget.from_mapping({"game_nodes": 7, "work": {"work_queue": 3}})
    assert b.games == Games(game_nodes=7) and b.games.game_nodes == 7 and b.work.work_queue == 3
    assert Budget(game_nodes=7) == Budget(games=Games(game_nodes=7))
    names = [f for cls in RECORDS.values() for f in cls.__dataclass_fields__]
    assert len(names) == len(set(names)) and not set(names) & set(RECORDS)   # one home each
    with pytest.raises(ValueError, match="unknown budget field"):
        Budget.from_mapping({"work": {"game_nodes": 1}})
    with pytest.raises(AttributeError):
        b.game_nodes = 1
    with pytest.raises(AttributeError):   # a reader names the concern: budget.games.game_nodes
        b.game_nodes


def test_gunicorn_holds_as_many_connections_as_the_budget_says():
    """deploy/gunicorn.conf.py may not import the app (gevent patches it
    later): its default is written out, and must be the budget's."""
    from pathlib import Path

    from app.budget import Connections

    conf = (Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py").read_text()
    assert f"CONNECTIONS = {Connections().connections}\n" in conf
    assert 'worker_class = "app.gworker.FairGeventWorker"' in conf
