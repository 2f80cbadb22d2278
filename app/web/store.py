"""The SQLite store of uploaded trees (``instance/trees.sqlite3``).

A tree is kept as the text the user sent, so it is read again by the same
loader as any file, together with what the library listing shows of it.
Its id comes from its content: the same tree uploaded twice is stored once
and keeps its link across restarts. The store has a total cap on the number
of trees and on their bytes; a tree that would pass it is refused whole.

>>> import tempfile, os
>>> store = UploadStore(os.path.join(tempfile.mkdtemp(), "t.sqlite3"), max_trees=1)
>>> store.add(StoredTree("u-1", "One", "", "yaml", "a.yaml", "title: One", {}))
True
>>> store.add(StoredTree("u-1", "One", "", "yaml", "a.yaml", "title: One", {}))
False
>>> store.get("u-1").title, store.usage()
('One', (1, 10))
>>> store.add(StoredTree("u-2", "Two", "", "yaml", None, "title: Two", {}))
Traceback (most recent call last):
app.web.store.StoreFull: The tree store is full (1 of 1 trees): no more uploads can be kept.
"""
from __future__ import annotations

import json
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass, field

SCHEMA = """
CREATE TABLE IF NOT EXISTS trees (
    id       TEXT PRIMARY KEY,
    title    TEXT NOT NULL,
    source   TEXT NOT NULL,
    format   TEXT,             -- the format the text was read as
    filename TEXT,             -- as uploaded, for display only
    text     TEXT NOT NULL,    -- exactly what the user sent (decoded)
    size     INTEGER NOT NULL, -- bytes of text in UTF-8, counted by the cap
    summary  TEXT NOT NULL,    -- JSON of what the library listing shows
    created  REAL NOT NULL     -- seconds since the epoch
)
"""


class StoreFull(Exception):
    """The upload would take the store past its cap."""


@dataclass(frozen=True)
class StoredTree:
    """One uploaded tree as the store keeps it."""

    id: str
    title: str
    source: str
    format: str | None
    filename: str | None
    text: str
    summary: dict = field(default_factory=dict)
    created: float = 0.0

    @property
    def size(self) -> int:
        return len(self.text.encode("utf-8"))


class UploadStore:
    """Uploaded trees in one SQLite file; safe to share between threads.

    Each call opens its own connection, so the server's threads never share
    one; writes take SQLite's write lock first (``BEGIN IMMEDIATE``) so the
    cap check and the insert are one step even across processes.
    """

    def __init__(self, path: str, max_trees: int = 1000, max_bytes: int = 64 << 20):
        self.path = path
        self.max_trees = max_trees
        self.max_bytes = max_bytes
        with closing(self._connect()) as db, db:
            db.execute(SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        db.row_factory = sqlite3.Row
        return db

    def add(self, tree: StoredTree) -> bool:
        """Keep ``tree``; False if a tree with its id is kept already.

        Raises :class:`StoreFull` when it would pass the cap (nothing changes).
        """
        with closing(self._connect()) as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                if db.execute("SELECT 1 FROM trees WHERE id = ?", (tree.id,)).fetchone():
                    db.execute("ROLLBACK")
                    return False
                count, size = db.execute(
                    "SELECT COUNT(*), COALESCE(SUM(size), 0) FROM trees").fetchone()
                self._check_cap(count, size, tree.size)
                db.execute(
                    "INSERT INTO trees VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (tree.id, tree.title, tree.source, tree.format, tree.filename,
                     tree.text, tree.size, json.dumps(tree.summary),
                     tree.created or time.time()))
                db.execute("COMMIT")
                return True
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

    def _check_cap(self, count: int, size: int, extra: int) -> None:
        if count + 1 > self.max_trees:
            raise StoreFull(f"The tree store is full ({count} of {self.max_trees} trees): "
                            "no more uploads can be kept.")
        if size + extra > self.max_bytes:
            raise StoreFull(
                f"The tree store is full ({_mib(size)} of {_mib(self.max_bytes)} used; "
                f"this tree needs {_mib(extra)}): no more uploads can be kept.")

    def get(self, tree_id: str) -> StoredTree | None:
        with closing(self._connect()) as db:
            row = db.execute("SELECT * FROM trees WHERE id = ?", (tree_id,)).fetchone()
        return _from_row(row) if row else None

    def list(self) -> list[StoredTree]:
        """Every kept tree, oldest first, without its text (listings never need it)."""
        with closing(self._connect()) as db:
            rows = db.execute(
                "SELECT id, title, source, format, filename, '' AS text, summary, created "
                "FROM trees ORDER BY created, id").fetchall()
        return [_from_row(row) for row in rows]

    def usage(self) -> tuple[int, int]:
        """``(number of trees, bytes of text)`` kept now."""
        with closing(self._connect()) as db:
            count, size = db.execute(
                "SELECT COUNT(*), COALESCE(SUM(size), 0) FROM trees").fetchone()
        return count, size


def _from_row(row: sqlite3.Row) -> StoredTree:
    return StoredTree(id=row["id"], title=row["title"], source=row["source"],
                      format=row["format"], filename=row["filename"], text=row["text"],
                      summary=json.loads(row["summary"]), created=row["created"])


def _mib(n: int) -> str:
    return f"{n / (1 << 20):.1f} MiB"
