"""The store kept by use: eviction order, expiry, delete tokens, an old store's upgrade."""
from __future__ import annotations

import sqlite3
import time

import pytest

from app.web.store import StoredTree, StoreFull, UploadStore


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


def sized(i: int, size: int) -> StoredTree:
    return StoredTree(f"u-{i}", f"T{i}", "", "yaml", None, f"title: T{i}\n" + "#" * size, {})


def test_pinned_trees_are_never_evicted_or_expired(tmp_path):
    store = UploadStore(str(tmp_path / "s.sqlite3"), max_trees=2, max_age=3600)
    store.add(tree(1))
    assert store.pin("u-1", "class:K7Q2") and not store.pin("u-404", "class:K7Q2")
    for i in range(2, 6):          # a full store makes room, never from the pinned tree
        store.add(tree(i))
    assert {t.id for t in store.list()} == {"u-1", "u-5"}
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE trees SET opened = 1")
    assert store.expire() == 1 and store.get("u-1") is not None and store.pinned("u-1")
    assert store.unpin("class:K7Q2") == 1 and store.pinned("u-1") == []
    store.add(tree(6))
    store.add(tree(7))
    assert store.get("u-1") is None                 # unpinned: kept by use again
    store.pin("u-7", "assignment:3", seconds=-1)    # a pin past its time holds nothing
    store.add(tree(8))
    store.add(tree(9))
    assert store.get("u-7") is None


def test_an_uploader_past_its_share_evicts_its_own_and_a_full_store_the_biggest(tmp_path):
    store = UploadStore(str(tmp_path / "s.sqlite3"), max_bytes=10_000, client_bytes=4_000)
    store.add(sized(1, 1000), owner="teacher")
    for i in range(10, 20):                          # 10 x 1 kB from one address
        store.add(sized(i, 1000), owner="flood")
    kept = {t.id for t in store.list()}
    flood = {f"u-{i}" for i in range(10, 20)}
    assert kept == {"u-1", "u-17", "u-18", "u-19"}   # its own share: the last three
    for owner in "abcdef":                           # the store fills from many clients
        store.add(sized(ord(owner), 1000), owner=owner)
    kept = {t.id for t in store.list()}
    # The biggest holder made room: every other client kept its tree.
    assert {"u-1"} | {f"u-{ord(o)}" for o in "abcdef"} <= kept and len(kept & flood) < 3
    with pytest.raises(StoreFull):
        store.add(sized(2, 5000), owner="teacher")   # larger than one uploader's share


def test_a_second_uploader_keeps_the_tree_the_first_deletes(tmp_path):
    store = UploadStore(str(tmp_path / "s.sqlite3"))
    assert store.add(tree(1), token="first")
    assert not store.add(tree(1), token="second")    # the same tree: one more claim
    assert store.delete("u-1", "first") and store.get("u-1") is not None
    assert store.delete("u-1", "second") and store.get("u-1") is None
