"""Switching a SQLite file to WAL when several processes open it at once.

SQLite answers "database is locked" at once, without waiting out the busy
timeout, to a connection switching a new file to WAL while another does the
same: gunicorn's workers, or pytest's, starting on a new instance. The
switch is kept in the file, so the first to succeed settles it; the others
wait a moment and find the file in WAL already.
"""
from __future__ import annotations

import random
import sqlite3
import time


def use_wal(dbapi_conn, attempts: int = 50) -> None:
    """``PRAGMA journal_mode=WAL`` on a DB-API SQLite connection, again a
    little later while another process holds the file for its own switch."""
    for attempt in range(attempts):
        try:
            dbapi_conn.execute("PRAGMA journal_mode=WAL").fetchall()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            time.sleep(0.01 * (1 + random.random()))
