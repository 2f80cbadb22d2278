"""The store kept by use: eviction order, expiry, delete tokens, an old store's upgrade."""
from __future__ import annotations

import sqlite3
import time

from app.web.store import StoredTree, UploadStore


def tree(i: int) -> StoredTree:
    return StoredTree(f"u-{i}", f"T{i}", "", "yaml", None, f"title: T{i}", {})


def test_the_least_recently_opened_makes_room(tmp_path):
    store = UploadStore(str(tmp_path / "s.sqlite3"), max_trees=3)
    for i in range(3):
        store.add(tree(i))
    with sqlite3.connect(store.path) as db:   # u-0 opened most recently, u-1 longest ago
        db.execute("UPDATE trees SET opened = ? WHERE id = 'u-0'", (time.time(),))
        db.execute("UPDATE trees SET opened = 1 WHERE id = 'u-1'")
    store.add(tree(3))
    assert {t.id for t in store.list()} == {"u-0", "u-2", "u-3"}


def test_unused_trees_expire(tmp_path):
    store = UploadStore(str(tmp_path / "s.sqlite3"), max_age=3600)
    store.add(tree(1))
    store.add(tree(2))
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE trees SET opened = ? WHERE id = 'u-1'", (time.time() - 7200,))
    assert store.expire() == 1
    assert [t.id for t in store.list()] == ["u-2"]


def test_opening_a_tree_keeps_it(tmp_path):
    store = UploadStore(str(tmp_path / "s.sqlite3"), max_age=3600)
    store.add(tree(1))
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE trees SET opened = ? WHERE id = 'u-1'", (time.time() - 3000,))
    assert store.get("u-1") is not None        # opened: its clock starts again
    assert store.expire() == 0 and store.get("u-1") is not None


def test_only_the_token_deletes(tmp_path):
    store = UploadStore(str(tmp_path / "s.sqlite3"))
    store.add(tree(1), token="secret")
    assert not store.delete("u-1", "guess") and not store.delete("u-1", "")
    assert store.delete("u-1", "secret") and store.get("u-1") is None
    with sqlite3.connect(store.path) as db:    # only a hash of the token is kept
        assert db.execute("SELECT COUNT(*) FROM trees WHERE token = 'secret'").fetchone() == (0,)


def test_an_older_store_is_upgraded_in_place(tmp_path):
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE trees (id TEXT PRIMARY KEY, title TEXT NOT NULL, source TEXT "
                   "NOT NULL, format TEXT, filename TEXT, text TEXT NOT NULL, size INTEGER NOT "
                   "NULL, summary TEXT NOT NULL, created REAL NOT NULL)")
        db.execute("INSERT INTO trees VALUES ('u-9', 'Old', '', 'yaml', NULL, 'title: Old', 10, "
                   "'{}', 5.0)")
    store = UploadStore(str(path), max_trees=10)
    assert store.get("u-9").title == "Old"
    assert store.add(tree(1))
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
