"""Server processes opening a new instance at once (gunicorn's workers, or
pytest's two workers importing the WSGI app).

The upload store read its columns and then added the missing ones, so the
slower process failed with "duplicate column name"; and SQLite answers
"database is locked" at once, without its busy timeout, to a process
switching a new file to WAL while another does the same: the upload store
and the results database both failed so, one process in a few."""
from __future__ import annotations

import multiprocessing as mp

import pytest

from app.db import make_engine, sqlite_url
from app.web.store import UploadStore


def _uploads(path: str) -> None:
    UploadStore(path)


def _results(path: str) -> None:
    # the results database's every new connection switches it to WAL first
    engine = make_engine(sqlite_url(path))
    with engine.connect():
        pass
    engine.dispose()


def _open(opener, path: str, go, out) -> None:
    go.wait()
    try:
        opener(path)
        out.put(None)
    except Exception as exc:  # noqa: BLE001 (reported to the test)
        out.put(repr(exc))


@pytest.mark.parametrize("opener, rounds", [(_uploads, 8), (_results, 24)],
                         ids=["uploads", "results"])
def test_processes_opening_a_new_store_at_once_all_start(tmp_path, opener, rounds):
    ctx = mp.get_context("fork")
    failures = []
    for k in range(rounds):
        path = str(tmp_path / f"new-{k}.sqlite3")
        go, out = ctx.Event(), ctx.Queue()
        procs = [ctx.Process(target=_open, args=(opener, path, go, out)) for _ in range(4)]
        for p in procs:
            p.start()
        go.set()
        failures += [r for r in (out.get(timeout=60) for _ in procs) if r]
        for p in procs:
            p.join(10)
    assert not failures, failures


def test_a_locked_file_is_tried_again_and_any_other_error_is_not():
    """app.db.wal.while_locked, shared by the WAL switch and the upload
    store's writes: SQLite's "locked" and "busy" tried again after the
    pause asked for; any other error at once; the last "locked" raised."""
    from sqlite3 import OperationalError

    from app.db.wal import while_locked

    def failing(*errors):
        tries = []

        def attempt():
            tries.append(len(tries))
            if len(tries) <= len(errors):
                raise errors[len(tries) - 1]
            return "done"
        return attempt, tries

    paused: list[int] = []
    attempt, tries = failing(OperationalError("database is locked"),
                             OperationalError("database is busy"))
    assert while_locked(attempt, 5, lambda n: paused.append(n) or 0) == "done"
    assert tries == [0, 1, 2] and paused == [0, 1]

    attempt, tries = failing(OperationalError("no such table: trees"))
    with pytest.raises(OperationalError, match="no such table"):
        while_locked(attempt, 5, lambda n: 0)
    assert tries == [0]

    attempt, tries = failing(*[OperationalError("database is locked")] * 3)
    with pytest.raises(OperationalError, match="locked"):
        while_locked(attempt, 3, lambda n: 0)
    assert tries == [0, 1, 2]
