"""The SQLite store of uploaded trees (``instance/trees.sqlite3``).

A tree is kept as the text the user sent, so it is read again by the same
loader as any file, together with what the library listing shows of it.
Its id comes from its content: the same tree uploaded twice is stored once
and keeps its link across restarts.

The store never fills for good: it is kept by use, and by fair shares.
The eviction policy, in order:

1. **Pinned trees stay.** A holder (a live class, an assignment) pins the
   uploads it depends on (:meth:`UploadStore.pin`, ``unpin`` when done; a
   pin may carry an expiry, so a holder that vanishes without unpinning
   frees its trees in the end). Nothing pinned is evicted or expired.
2. **Each client within its share.** Every upload is counted to the client
   address that first sent it (``owner``). A client past its own share
   (``client_trees`` uploads or ``client_bytes`` bytes) makes room from its
   own uploads, least recently opened first: one client uploading 2 MB
   trees in a loop pushes out only its own.
3. **A full store makes room from the biggest holder.** Past the store's cap
   (``max_trees`` or ``max_bytes``), the least recently opened unpinned
   upload of the client holding the most bytes goes: nobody is pushed
   below the share of the client pushing.
4. **Unused trees expire.** A tree not opened for ``max_age`` seconds (and
   not pinned) is deleted.

When nothing may go (everything pinned), the upload is refused
(:class:`StoreFull`, 413). Every uploader of a tree gets a delete token (only
its hash is kept); a delete takes back that uploader's claim, and the tree
goes when no claim is left: a second uploader of the same text, answered
201 while the first deletes it, keeps the tree (the two writes are
serialised by SQLite's write lock, in either order).

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
import random
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass, field

from app.db.wal import use_wal, while_locked
from app.search.words import Said


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
    "owner": "TEXT NOT NULL DEFAULT ''",   # the client address that first sent it
}
TABLES = """
CREATE TABLE IF NOT EXISTS claims (   -- uploaders beside the first: each may delete its claim
    tree_id TEXT NOT NULL,
    token   TEXT NOT NULL,            -- SHA-256 of that uploader's delete token
    PRIMARY KEY (tree_id, token)
);
CREATE TABLE IF NOT EXISTS pins (     -- holders a tree is kept for (classes, assignments)
    tree_id TEXT NOT NULL,
    holder  TEXT NOT NULL,
    until   REAL,                     -- seconds since the epoch; NULL: until unpinned
    PRIMARY KEY (tree_id, holder)
);
CREATE INDEX IF NOT EXISTS pins_holder ON pins (holder);
"""
FREE = "NOT EXISTS (SELECT 1 FROM pins p WHERE p.tree_id = trees.id " \
       "AND (p.until IS NULL OR p.until > :now))"
"""SQL: the tree is pinned by no live holder (may be evicted or expired)."""
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
                 max_age: float | None = None, busy_seconds: float = 10.0,
                 client_trees: int | None = None, client_bytes: int | None = None):
        self.path = path
        self.max_trees = max_trees
        self.max_bytes = max_bytes
        self.client_trees = client_trees if client_trees is not None else max_trees
        self.client_bytes = client_bytes if client_bytes is not None else max_bytes
        self.max_age = max_age
        self.busy_seconds = busy_seconds
        with closing(self._connect()) as db:
            use_wal(db)      # kept in the file; several processes may open it at once
            # The columns read and added under the write lock: processes
            # opening a new instance at once each saw a column missing and
            # the slower failed to add it again.
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(SCHEMA)
                have = {row[1] for row in db.execute("PRAGMA table_info(trees)")}
                for name, decl in COLUMNS.items():
                    if name not in have:
                        db.execute(f"ALTER TABLE trees ADD COLUMN {name} {decl}")
                db.execute("UPDATE trees SET opened = created WHERE opened = 0")
                db.execute("CREATE INDEX IF NOT EXISTS trees_opened ON trees (opened)")
                db.execute("CREATE INDEX IF NOT EXISTS trees_owner ON trees (owner, opened)")
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            db.executescript(TABLES)

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
        def once():
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
        return while_locked(once, attempts, lambda n: 0.05 * (2 ** n) * (1 + random.random()),
                            what="store busy")

    def add(self, tree: StoredTree, token: str | None = None, owner: str = "") -> bool:
        """Keep ``tree`` for ``owner`` (a client address); False if a tree with
        its id is kept already (``token`` then becomes one more claim on it).

        Room is made by the policy above. ``token`` (if given) is what
        :meth:`delete` will ask for. Raises :class:`StoreFull` for a tree
        larger than the whole store or than a client's share, or when
        nothing may make room.
        """
        if tree.size > self.max_bytes:
            raise StoreFull("This tree ({size}) is larger than the whole store ({most}).",
                            size=_mib(tree.size), most=_mib(self.max_bytes))
        if tree.size > self.client_bytes:
            raise StoreFull("This tree ({size}) is larger than one uploader's share of the "
                            "store ({most}).", size=_mib(tree.size), most=_mib(self.client_bytes))

        def work(db):
            now = time.time()
            if db.execute("SELECT 1 FROM trees WHERE id = ?", (tree.id,)).fetchone():
                db.execute("UPDATE trees SET opened = ? WHERE id = ?", (now, tree.id))
                if token:
                    db.execute("INSERT OR IGNORE INTO claims (tree_id, token) VALUES (?, ?)",
                               (tree.id, _hash(token)))
                return False
            self._expire(db, now)
            # 2. the uploader within its own share: its own make room
            self._make_room(db, now, "owner = :owner", {"owner": owner},
                            lambda: db.execute("SELECT COUNT(*), COALESCE(SUM(size), 0) FROM "
                                               "trees WHERE owner = ?", (owner,)).fetchone(),
                            self.client_trees, self.client_bytes, tree.size)
            # 3. the store within its cap: the biggest holder makes room
            biggest = ("owner = (SELECT owner FROM trees WHERE " + FREE + " GROUP BY owner "
                       "ORDER BY SUM(size) DESC, owner LIMIT 1)")
            self._make_room(db, now, biggest, {},
                            lambda: db.execute("SELECT COUNT(*), COALESCE(SUM(size), 0) "
                                               "FROM trees").fetchone(),
                            self.max_trees, self.max_bytes, tree.size)
            db.execute(
                "INSERT INTO trees (id, title, source, format, filename, text, size, summary, "
                "created, opened, token, owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (tree.id, tree.title, tree.source, tree.format, tree.filename,
                 tree.text, tree.size, json.dumps(tree.summary),
                 tree.created or now, now, _hash(token), owner))
            db.execute("DELETE FROM claims WHERE tree_id = ?", (tree.id,))   # an old tree's
            return True

        return self._write(work)

    def _make_room(self, db, now: float, whose: str, args: dict, usage, most_trees: int,
                   most_bytes: int, size: int) -> None:
        """Evict the least recently opened unpinned trees matching ``whose``
        while ``usage()`` (count, bytes) leaves no room for ``size`` more."""
        count, used = usage()
        while count + 1 > most_trees or used + size > most_bytes:
            old = db.execute(f"SELECT id, size FROM trees WHERE {FREE} AND {whose} "
                             "ORDER BY opened, created, id LIMIT 1",
                             {"now": now, **args}).fetchone()
            if old is None:
                raise StoreFull("The store is full of trees in use ({count} trees, {size}): "
                                "try again later.", count=count, size=_mib(used))
            self._drop(db, old["id"])
            count, used = usage()

    @staticmethod
    def _drop(db, tree_id: str) -> None:
        db.execute("DELETE FROM trees WHERE id = ?", (tree_id,))
        db.execute("DELETE FROM claims WHERE tree_id = ?", (tree_id,))

    def _expire(self, db, now: float) -> int:
        if self.max_age is None:
            return 0
        gone = [r[0] for r in db.execute(f"SELECT id FROM trees WHERE opened < :old AND {FREE}",
                                         {"old": now - self.max_age, "now": now})]
        for tree_id in gone:
            self._drop(db, tree_id)
        db.execute("DELETE FROM pins WHERE until IS NOT NULL AND until <= ?", (now,))
        return len(gone)

    def expire(self) -> int:
        """Delete the trees not opened for ``max_age`` seconds (and not
        pinned); how many."""
        return self._write(lambda db: self._expire(db, time.time()))

    def delete(self, tree_id: str, token: str | None) -> bool:
        """Take back the claim of the uploader whose delete token is
        ``token``; the tree goes once no claim is left. Whether ``token``
        was a claim on it."""
        if not token:
            return False
        hashed = _hash(token)

        def work(db):
            first = db.execute("UPDATE trees SET token = NULL WHERE id = ? AND token = ?",
                               (tree_id, hashed)).rowcount
            other = db.execute("DELETE FROM claims WHERE tree_id = ? AND token = ?",
                               (tree_id, hashed)).rowcount
            if not (first or other):
                return False
            left = db.execute("SELECT (SELECT token FROM trees WHERE id = ?) IS NOT NULL "
                              "OR EXISTS (SELECT 1 FROM claims WHERE tree_id = ?)",
                              (tree_id, tree_id)).fetchone()[0]
            if not left:
                self._drop(db, tree_id)
            return True

        return self._write(work)

    # -- pins: what holders depend on is never evicted ------------------------
    def pin(self, tree_id: str, holder: str, seconds: float | None = None) -> bool:
        """Keep ``tree_id`` for ``holder`` (``"class:K7Q2"``, ``"assignment:12"``)
        until :meth:`unpin` (or for ``seconds``, renewed by pinning again);
        whether the tree is kept (False: no such upload, nothing pinned).
        Built-in and random trees are never stored: pinning them is not needed."""
        until = None if seconds is None else time.time() + seconds

        def work(db):
            if not db.execute("SELECT 1 FROM trees WHERE id = ?", (tree_id,)).fetchone():
                return False
            db.execute("INSERT OR REPLACE INTO pins (tree_id, holder, until) VALUES (?, ?, ?)",
                       (tree_id, holder, until))
            return True

        return self._write(work)

    def unpin(self, holder: str, tree_id: str | None = None) -> int:
        """Release ``holder``'s pins (on ``tree_id`` only, if given); how many."""
        if tree_id is None:
            return self._write(lambda db: db.execute(
                "DELETE FROM pins WHERE holder = ?", (holder,)).rowcount)
        return self._write(lambda db: db.execute(
            "DELETE FROM pins WHERE holder = ? AND tree_id = ?", (holder, tree_id)).rowcount)

    def pinned(self, tree_id: str) -> list[str]:
        """The live holders of ``tree_id``."""
        with closing(self._connect()) as db:
            return [r[0] for r in db.execute(
                "SELECT holder FROM pins WHERE tree_id = ? AND (until IS NULL OR until > ?) "
                "ORDER BY holder", (tree_id, time.time()))]

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
