"""The per-connection run table: lazy batches, eviction, closing."""
from __future__ import annotations

import pytest

from app.web.runs import Run, RunTable


def counting_events(n: int, log: dict):
    """``n`` events ending in ``done``; ``log`` records how many were made and
    whether the generator was closed."""
    log.update(made=0, closed=False)
    try:
        for i in range(1, n + 1):
            log["made"] += 1
            yield {"type": "done" if i == n else "enter", "step": i}
    finally:
        log["closed"] = True


def primed(run: Run) -> Run:
    run.prime()  # as the Socket.IO handler does before keeping a run
    return run


def test_take_draws_only_what_is_asked_for():
    log = {}
    run = Run("r1", "t", counting_events(1000, log))
    run.prime()
    assert log["made"] == 1
    assert [e["step"] for e in run.take(10)] == list(range(1, 11))
    assert log["made"] == 10 and run.position == 10 and not run.done


def test_take_to_the_end_sets_done_once_the_done_event_is_handed_out():
    run = Run("r1", "t", counting_events(5, {}))
    run.prime()
    assert len(run.take(4)) == 4 and not run.done
    last = run.take(4)
    assert [e["type"] for e in last] == ["done"] and run.done
    assert run.take(4) == [] and run.position == 5


def test_done_is_set_exactly_when_the_last_batch_ends_on_done():
    run = Run("r1", "t", counting_events(6, {}))
    run.prime()
    assert not run.done
    assert len(run.take(3)) == 3 and not run.done
    assert len(run.take(3)) == 3 and run.done


def test_prime_surfaces_an_error_of_the_first_step():
    def failing():
        raise ValueError("options do not fit")
        yield  # pragma: no cover

    with pytest.raises(ValueError, match="do not fit"):
        Run("r1", "t", failing()).prime()


def test_a_connection_keeps_at_most_max_runs_and_closes_the_oldest():
    table = RunTable(max_runs=2)
    table.connect("s")
    logs = [{} for _ in range(3)]
    runs = [table.open("s", lambda rid, log=log: primed(Run(rid, "t", counting_events(9, log))))
            for log in logs]
    assert table.get("s", runs[0].id) is None and runs[0].closed and logs[0]["closed"]
    assert table.get("s", runs[1].id) is runs[1] and table.get("s", runs[2].id) is runs[2]
    assert table.count("s") == 2
    with pytest.raises(RuntimeError):
        runs[0].take(1)


def test_runs_belong_to_their_connection_and_close_with_it():
    table = RunTable()
    table.connect("a")
    table.connect("b")
    log = {}
    run = table.open("a", lambda rid: primed(Run(rid, "t", counting_events(9, log))))
    assert table.get("b", run.id) is None
    assert table.close_all("a") == 1
    assert log["closed"] and table.count() == 0


def test_close_stops_the_generator_and_forgets_the_run():
    table = RunTable()
    table.connect("a")
    log = {}
    run = table.open("a", lambda rid: primed(Run(rid, "t", counting_events(9, log))))
    assert table.close("a", run.id) and log["closed"]
    assert not table.close("a", run.id)


def test_a_run_made_for_a_gone_connection_is_closed_not_kept():
    table = RunTable()
    log = {}
    with pytest.raises(LookupError):
        table.open("gone", lambda rid: Run(rid, "t", counting_events(9, log)))
    assert table.count() == 0


def test_run_ids_are_unique():
    table = RunTable(max_runs=10)
    table.connect("a")
    table.connect("b")
    ids = {table.open(sid, lambda rid: Run(rid, "t", iter(()))).id for sid in "abab"}
    assert len(ids) == 4
