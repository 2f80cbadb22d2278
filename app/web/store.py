"""The SQLite store of uploaded trees (``instance/trees.sqlite3``).

A tree is kept as the text the user sent, so it is read again by the same
loader as any file, together with what the library listing shows of it.
Its id comes from its content: the same tree uploaded twice is stored once
and keeps its link across restarts.

The store never fills for good: it is kept by use. Past its cap (trees or
bytes of text) the least recently opened trees make room, and a tree not
opened for ``max_age`` seconds is deleted. The browser that uploaded a tree
gets a delete token (only its hash is kept) and can delete it.

SQLite runs in WAL mode (readers never wait for the writer) with a busy
timeout, and a write that still finds the database locked is retried: many
uploads at once wait their turn, never fail. An acknowledged upload is
committed to the log, so it survives a crash or ``kill -9``.

>>> import tempfile, os
>>> store = UploadStore(os.path.join(tempfile.mkdtemp(), "t.sqlite3"), max_trees=1)
>>> store.add(StoredTree("u-1", "One", "", "yaml", "a.yaml", "title: One", {}), token="secret")
True
>>> store.add(StoredTree("u-1", "One", "", "yaml", "a.yaml", "title: One", {}))
False
>>> store.get("u-1").title, store.usage()
('One', (1, 10))
>>> store.add(StoredTree("u-2", "Two", "", "yaml", None, "title: Two", {}))  # u-1 makes room
True
>>> store.get("u-1") is None, store.usage()
(True, (1, 10))
>>> store.delete("u-2", "wrong"), store.delete("u-2", None)
(False, False)
"""
from __future__ import annotations

import hashlib
import json
import logging
import random
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass, field

from app.search.words import Said

log = logging.getLogger(__name__)

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
# Added by later versions (an older store gets them on opening).
COLUMNS = {
    "opened": "REAL NOT NULL DEFAULT 0",   # last opened, seconds since the epoch
    "token": "TEXT",                       # SHA-256 of the uploader's delete token
}
TOUCH_EVERY = 3600.0
"""Seconds between two writes of a tree's "last opened" time (a read is not a write)."""


class StoreFull(Said):
    """The upload alone is larger than the whole store; its sentence is a
    catalogue message (``msgid`` with ``{named}`` fields)."""


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
    cap check, the evictions and the insert are one step even across processes.
    """

    def __init__(self, path: str, max_trees: int = 1000, max_bytes: int = 64 << 20,
                 max_age: float | None = None, busy_seconds: float = 10.0):
        self.path = path
        self.max_trees = max_trees
        self.max_bytes = max_bytes
        self.max_age = max_age
        self.busy_seconds = busy_seconds
        with closing(self._connect()) as db:
            db.execute("PRAGMA journal_mode=WAL")   # kept in the file: once is enough
            db.execute(SCHEMA)
            have = {row[1] for row in db.execute("PRAGMA table_info(trees)")}
            for name, decl in COLUMNS.items():
                if name not in have:
                    db.execute(f"ALTER TABLE trees ADD COLUMN {name} {decl}")
            db.execute("UPDATE trees SET opened = created WHERE opened = 0")
            db.execute("CREATE INDEX IF NOT EXISTS trees_opened ON trees (opened)")

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=self.busy_seconds, isolation_level=None,
                             check_same_thread=False)
        db.execute(f"PRAGMA busy_timeout={int(self.busy_seconds * 1000)}")
        # WAL + NORMAL: a commit is in the log before the answer goes out, so a
        # crashed or killed server loses nothing acknowledged (only a power cut
        # may lose the last commits); FULL would fsync every upload.
        db.execute("PRAGMA synchronous=NORMAL")
        db.row_factory = sqlite3.Row
        return db

    def _write(self, work, attempts: int = 5):
        """Run ``work(db)`` in one write transaction, retried while the
        database stays locked (the busy timeout covers most waits; a WAL
        checkpoint or another process can still say "locked")."""
        for attempt in range(attempts):
            try:
                with closing(self._connect()) as db:
                    db.execute("BEGIN IMMEDIATE")
                    try:
                        result = work(db)
                        db.execute("COMMIT")
                        return result
                    except BaseException:
                        if db.in_transaction:
                            db.execute("ROLLBACK")
                        raise
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc) \
                        or attempt == attempts - 1:
                    raise
                log.warning("store busy (%s): retrying", exc)
                time.sleep(0.05 * (2 ** attempt) * (1 + random.random()))
        raise AssertionError("unreachable")

    def add(self, tree: StoredTree, token: str | None = None) -> bool:
        """Keep ``tree``; False if a tree with its id is kept already.

        Past the cap, the least recently opened trees are deleted to make
        room. ``token`` (if given) is what :meth:`delete` will ask for.
        Raises :class:`StoreFull` only for a tree larger than the whole store.
        """
        if tree.size > self.max_bytes:
            raise StoreFull("This tree ({size}) is larger than the whole store ({most}).",
                            size=_mib(tree.size), most=_mib(self.max_bytes))

        def work(db):
            now = time.time()
            if db.execute("SELECT 1 FROM trees WHERE id = ?", (tree.id,)).fetchone():
                db.execute("UPDATE trees SET opened = ? WHERE id = ?", (now, tree.id))
                return False
            self._expire(db, now)
            count, size = db.execute(
                "SELECT COUNT(*), COALESCE(SUM(size), 0) FROM trees").fetchone()
            while count + 1 > self.max_trees or size + tree.size > self.max_bytes:
                old = db.execute("SELECT id, size FROM trees ORDER BY opened, created, id "
                                 "LIMIT 1").fetchone()
                db.execute("DELETE FROM trees WHERE id = ?", (old["id"],))
                count, size = count - 1, size - old["size"]
            db.execute(
                "INSERT INTO trees (id, title, source, format, filename, text, size, summary, "
                "created, opened, token) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (tree.id, tree.title, tree.source, tree.format, tree.filename,
                 tree.text, tree.size, json.dumps(tree.summary),
                 tree.created or now, now, _hash(token)))
            return True

        return self._write(work)

    def _expire(self, db, now: float) -> int:
        if self.max_age is None:
            return 0
        return db.execute("DELETE FROM trees WHERE opened < ?", (now - self.max_age,)).rowcount

    def expire(self) -> int:
        """Delete the trees not opened for ``max_age`` seconds; how many."""
        return self._write(lambda db: self._expire(db, time.time()))

    def delete(self, tree_id: str, token: str | None) -> bool:
        """Delete a tree if ``token`` is its delete token; whether it was."""
        if not token:
            return False
        return self._write(lambda db: db.execute(
            "DELETE FROM trees WHERE id = ? AND token = ?", (tree_id, _hash(token))).rowcount > 0)

    def get(self, tree_id: str) -> StoredTree | None:
        """The tree, and it counts as opened (written at most once an hour)."""
        with closing(self._connect()) as db:
            row = db.execute("SELECT * FROM trees WHERE id = ?", (tree_id,)).fetchone()
        if row is None:
            return None
        now = time.time()
        if now - row["opened"] > TOUCH_EVERY:
            self._write(lambda db: db.execute("UPDATE trees SET opened = ? WHERE id = ?",
                                              (now, tree_id)))
        return _from_row(row)

    def list(self, ids=None) -> list[StoredTree]:
        """Kept trees (those of ``ids`` only, if given), oldest first, without
        their text (listings never need it)."""
        query = ("SELECT id, title, source, format, filename, '' AS text, summary, created "
                 "FROM trees")
        args: tuple = ()
        if ids is not None:
            ids = list(ids)[:500]
            query += f" WHERE id IN ({', '.join('?' * len(ids))})" if ids else " WHERE 0"
            args = tuple(ids)
        with closing(self._connect()) as db:
            rows = db.execute(query + " ORDER BY created, id", args).fetchall()
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


def _hash(token: str | None) -> str | None:
    return hashlib.sha256(token.encode()).hexdigest() if token else None


def _mib(n: int) -> str:
    return f"{n / (1 << 20):.1f} MiB"
