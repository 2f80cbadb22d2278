"""SQLite's "database is locked": what waits it out.

SQLite answers "database is locked" at once, without waiting out the busy
timeout, to a connection switching a new file to WAL while another does the
same: gunicorn's workers, or pytest's, starting on a new instance. The
switch is kept in the file, so the first to succeed settles it; the others
wait a moment and find the file in WAL already. A write can still find the
file locked past its busy timeout (a WAL checkpoint, another process):
:func:`while_locked` tries it again after a pause.
"""
from __future__ import annotations

import logging
import random
import sqlite3
import time
from typing import Callable, TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)


def while_locked(attempt: Callable[[], T], attempts: int, pause: Callable[[int], float],
                 what: str = "") -> T:
    """``attempt()``, again after ``pause(n)`` seconds (n = 0, 1, ...) while
    SQLite says the file is locked or busy, at most ``attempts`` times; any
    other error, or the last one, is raised. ``what`` (if given) is logged
    at each retry."""
    for n in range(attempts):
        try:
            return attempt()
        except sqlite3.OperationalError as exc:
            if ("locked" not in str(exc) and "busy" not in str(exc)) or n == attempts - 1:
                raise
            if what:
                log.warning("%s (%s): retrying", what, exc)
            time.sleep(pause(n))
    raise ValueError("attempts must be at least 1")


def use_wal(dbapi_conn, attempts: int = 50) -> None:
    """``PRAGMA journal_mode=WAL`` on a DB-API SQLite connection, again a
    little later while another process holds the file for its own switch."""
    while_locked(lambda: dbapi_conn.execute("PRAGMA journal_mode=WAL").fetchall(), attempts,
                 lambda n: 0.01 * (1 + random.random()))
