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
    assert small.extensions["budget"].runs_per_client == 2
    assert small.extensions["stream"].runs.max_runs == 2
    assert small.config["MAX_CONTENT_LENGTH"] == 1000
    assert small.extensions["trees"].store.max_trees == 3
    with pytest.raises(ValueError, match="unknown budget field"):
        make_app(BUDGET={"no_such_limit": 1})


def test_older_single_settings_still_count(make_app):
    app = make_app(SOCKET_MAX_RUNS=1, TRACE_MAX_EVENTS=10)
    assert app.extensions["budget"].runs_per_client == 1
    assert app.extensions["budget"].trace_events == 10


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
