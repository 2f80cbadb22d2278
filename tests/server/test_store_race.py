"""Two server processes opening a new instance at once (gunicorn's workers,
or pytest's two workers importing the WSGI app): each brought the upload
store's table up to date by reading its columns, then adding the missing
ones, so the slower failed with "duplicate column name" and never started."""
from __future__ import annotations

import multiprocessing as mp

from app.web.store import UploadStore


def _open(path: str, go, out) -> None:
    go.wait()
    try:
        UploadStore(path)
        out.put(None)
    except Exception as exc:  # noqa: BLE001 (reported to the test)
        out.put(repr(exc))


def test_processes_opening_a_new_store_at_once_all_start(tmp_path):
    ctx = mp.get_context("fork")
    failures = []
    for k in range(6):
        path = str(tmp_path / f"uploads-{k}.sqlite3")
        go, out = ctx.Event(), ctx.Queue()
        procs = [ctx.Process(target=_open, args=(path, go, out)) for _ in range(4)]
        for p in procs:
            p.start()
        go.set()
        failures += [r for r in (out.get(timeout=30) for _ in procs) if r]
        for p in procs:
            p.join(10)
    assert not failures, failures
