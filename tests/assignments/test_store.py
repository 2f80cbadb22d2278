"""The results store on SQLite and on a real PostgreSQL (a throw-away
cluster started by the tests): migrations, attempts decided in one
transaction, nothing lost on a restart or half-written by a crash."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from sqlalchemy import func, inspect, select

from app.assignments.errors import AssignmentError
from app.assignments.spec import read_spec
from app.assignments.store import AssignmentStore
from app.db import make_engine, migrate, open_database
from app.db.schema import metadata, submissions

REPO = Path(__file__).resolve().parents[2]
SPEC = read_spec({"title": "HW", "exercises": [{"tree": "random", "mode": "cuts"}], "attempts": 3})


@pytest.fixture(autouse=True)
def _dispose():
    """Every database opened by a test is closed after it (its pool's connections)."""
    yield
    for db in OPENED:
        db.dispose()
    OPENED.clear()


OPENED: list = []


def _store(url) -> AssignmentStore:
    db = open_database(url)
    OPENED.append(db)
    return AssignmentStore(db)


def _one_student(store: AssignmentStore, aid="a1") -> int:
    store.create(aid, SPEC, "h" * 64, "secret", "127.0.0.1", {"u-1": ("yaml", "title: T")}, 5, 86400)
    return store.add_students(aid, [{"key": "ana", "name": "Ana", "token_hash": "t" * 64}], 10)[0]


def _submit(store, sid, exercise=0, attempts=3, per_minute=100, attempt=None):
    return store.submit(sid, exercise, {"answers": {}}, 1, 2, {"entries": []}, False, attempts,
                        per_minute, attempt=attempt)


def test_migrations_make_the_schema_the_code_uses(db_url):
    db = _store(db_url).db
    insp = inspect(db.engine)
    for table in metadata.sorted_tables:
        assert {c["name"] for c in insp.get_columns(table.name)} == set(table.columns.keys())
    assert "ix_submissions_student_created" in {i["name"] for i in insp.get_indexes("submissions")}
    migrate(db.engine)        # again at the next start: nothing to do, nothing broken
    assert db.dialect in ("sqlite", "postgresql")
    if db.dialect == "sqlite":
        assert db.journal_mode() == "wal"


def _head() -> str:
    """The newest migration (one head: every migration chained after the one before)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from app.db import HERE

    config = Config()
    config.set_main_option("script_location", str(HERE / "migrations"))
    return ScriptDirectory.from_config(config).get_current_head()


def test_processes_starting_at_once_migrate_once(db_url):
    engines = [make_engine(db_url) for _ in range(4)]
    errors: list[BaseException] = []

    def start(engine):
        try:
            migrate(engine)
        except BaseException as exc:       # noqa: BLE001 - the test reports it
            errors.append(exc)

    threads = [threading.Thread(target=start, args=(e,)) for e in engines]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    with engines[0].connect() as c:
        assert c.exec_driver_sql("SELECT version_num FROM alembic_version").scalars().all() == [_head()]
    for e in engines:
        e.dispose()


def _head() -> str:
    """The newest migration (each helper's revision chains onto the last)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from app.db import HERE

    config = Config()
    config.set_main_option("script_location", str(HERE / "migrations"))
    return ScriptDirectory.from_config(config).get_current_head()


def test_attempts_numbered_limited_and_kept_across_a_restart(db_url):
    store = _store(db_url)
    sid = _one_student(store)
    assert [_submit(store, sid) for _ in range(3)] == [1, 2, 3]
    with pytest.raises(AssignmentError) as exc:
        _submit(store, sid)
    assert exc.value.status == 409
    store.db.dispose()
    again = _store(db_url)            # a restarted server on the same database
    assert [s.attempt for s in again.submissions(sid)] == [1, 2, 3]
    assert again.get("a1").spec == SPEC
    assert again.tree_copy("a1", "u-1") == ("yaml", "title: T")
    assert again.student_by_token("a1", "t" * 64).name == "Ana"


def test_a_guided_question_counts_its_first_answer_once(db_url):
    store = _store(db_url)
    sid = _one_student(store)
    assert _submit(store, sid, attempt=4, attempts=None) == 4
    assert _submit(store, sid, attempt=4, attempts=None) is None
    assert len(store.submissions(sid)) == 1


def test_submissions_per_minute_and_students_per_assignment_capped(db_url):
    store = _store(db_url)
    sid = _one_student(store)
    _submit(store, sid, exercise=0, per_minute=2)
    _submit(store, sid, exercise=1, per_minute=2)
    with pytest.raises(AssignmentError) as exc:
        _submit(store, sid, exercise=2, per_minute=2)
    assert exc.value.status == 429 and exc.value.retry_after == 60
    with pytest.raises(AssignmentError) as full:
        store.add_students("a1", [{"key": k, "name": k, "token_hash": k * 32}
                                  for k in ("b", "c")], 2)
    assert full.value.status == 413
    assert [s.name for s in store.students("a1")] == ["Ana"]     # all or none
    with pytest.raises(AssignmentError) as taken:
        store.add_students("a1", [{"key": "ana", "name": "ANA", "token_hash": "x" * 64}], 10)
    assert taken.value.status == 409


def test_assignments_per_instructor_capped(db_url):
    store = _store(db_url)
    for i in range(2):
        store.create(f"x{i}", SPEC, "h" * 64, "s", "10.0.0.9", {}, 2, 86400)
    with pytest.raises(AssignmentError) as exc:
        store.create("x2", SPEC, "h" * 64, "s", "10.0.0.9", {}, 2, 86400)
    assert exc.value.status == 429
    assert store.get("x2") is None
    store.create("y0", SPEC, "h" * 64, "s", "10.0.0.10", {}, 2, 86400)   # another instructor


def test_concurrent_submissions_never_share_an_attempt_or_pass_the_limit(db_url):
    store = _store(db_url)
    sid = _one_student(store)
    results, errors = [], []

    def go():
        try:
            results.append(_submit(store, sid, attempts=5))
        except AssignmentError as exc:
            errors.append(exc.status)

    threads = [threading.Thread(target=go) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [1, 2, 3, 4, 5]
    assert errors == [409] * 7


CRASH = """
import os, sys
from app.assignments.store import AssignmentStore
from app.db import open_database
from app.db.schema import submissions
store = AssignmentStore(open_database(sys.argv[1]))
with store.db.write() as c:
    c.execute(submissions.insert().values(student_id=int(sys.argv[2]), exercise=0, attempt=9,
              answers="{}", right=0, total=1, result="{}", late=False, created=0.0))
    os._exit(9)      # killed mid-submission: the transaction never commits
"""


@pytest.mark.slow
def test_a_crash_mid_submission_leaves_the_committed_ones_and_nothing_half(db_url):
    store = _store(db_url)
    sid = _one_student(store)
    assert _submit(store, sid) == 1
    proc = subprocess.run([sys.executable, "-c", CRASH, db_url, str(sid)], cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60)
    assert proc.returncode == 9
    engine = make_engine(db_url)
    with engine.connect() as c:
        assert c.execute(select(func.count()).select_from(submissions)).scalar() == 1
    engine.dispose()
    assert [s.attempt for s in _store(db_url).submissions(sid)] == [1]


def test_an_lms_id_longer_than_its_column_is_left_out_not_a_500(db_url):
    """A launch (or the course's member list) brings what the LMS holds, and a student may
    set their own e-mail in Moodle: one of 120 characters, an ID number of 150. PostgreSQL
    refused the launch (a value longer than its column: a 500; the member list failed
    whole), SQLite kept it whole. Both now keep the student without an id too long to
    keep (cut, it would match no one, or the wrong one, in the LMS's import), and a later
    launch's ids that fit are kept."""
    from app.assignments.lti_store import LtiStore

    store = _store(db_url)
    store.create("a1", SPEC, "h" * 64, "secret", "127.0.0.1", {}, 5, 86400)
    lti = LtiStore(store.db)
    key = "lti:" + "0" * 32
    mail = "siti.nurhaliza." + "x" * 95 + "@example.ac.id"
    sid = lti.student("a1", key, "Siti Nurhaliza", "S" * 150, mail, "t" * 64, "https://lms",
                      "c1", "sub-1", None, 10)
    st = store.student_by_key("a1", key)
    assert (st.id, st.name, st.sis_id, st.login) == (sid, "Siti Nurhaliza", None, None)
    lti.student("a1", key, "Siti Nurhaliza", "S1", "siti@example.ac.id", "u" * 64,
                "https://lms", "c1", "sub-1", None, 10)
    st = store.student_by_key("a1", key)
    assert (st.sis_id, st.login) == ("S1", "siti@example.ac.id")
    lti.student("a1", key, "Siti Nurhaliza", "S" * 150, mail, "v" * 64, "https://lms", "c1",
                "sub-1", None, 10)                     # an id too long keeps the one known
    assert store.student_by_key("a1", key).sis_id == "S1"


def test_a_typed_name_comes_back_only_with_its_request_key(db_url):
    """The name form's retry (w35d): the same request key gets the student a new token in
    one statement; another key, or a roster's student, gets nothing; the instructor's new
    link replaces a roster student's token."""
    store = _store(db_url)
    store.create("a1", SPEC, "h" * 64, "secret", "127.0.0.1", {}, 5, 86400)
    store.add_students("a1", [
        {"key": "ana", "name": "Ana", "token_hash": "1" * 64, "origin": "name", "join_hash": "j" * 64},
        {"key": "s2", "name": "Budi", "token_hash": "2" * 64, "origin": "roster"}], 10)
    assert store.rejoin("a1", "ana", "x" * 64, "3" * 64) is None
    assert store.rejoin("a1", "s2", "j" * 64, "3" * 64) is None
    back = store.rejoin("a1", "ana", "j" * 64, "3" * 64)
    assert back.name == "Ana" and store.student_by_token("a1", "3" * 64) == back
    assert store.student_by_token("a1", "1" * 64) is None
    assert store.new_link("a1", "s2", "4" * 64, ("lms",)) is None
    assert store.new_link("a1", "s2", "4" * 64, ("roster", "name")).name == "Budi"
    assert store.student_by_token("a1", "2" * 64) is None


def test_an_id_fills_a_roster_student_in_the_same_transaction_as_the_new_ones(db_url):
    """The official list's ids given to a names-only roster's students (their key kept) and
    its new students added, together: when another upload gave one an id meanwhile, or the
    student typed their own name, nothing of the list is applied (409)."""
    store = _store(db_url)
    store.create("a1", SPEC, "h" * 64, "secret", "127.0.0.1", {}, 5, 86400)
    ana, budi, cici = store.add_students("a1", [
        {"key": "ana", "name": "Ana", "token_hash": "a" * 64, "origin": "roster",
         "login": "ana@x"},
        {"key": "budi", "name": "Budi", "token_hash": "b" * 64, "origin": "roster"},
        {"key": "cici", "name": "Cici", "token_hash": "c" * 64, "origin": "name"}], 10)
    store.add_students("a1", [{"key": "s3", "name": "Dewi", "token_hash": "d" * 64,
                               "sis_id": "S3", "origin": "roster"}], 10,
                       [{"id": ana, "sis_id": "S1", "login": None, "section": "A"}])
    got = {s.name: (s.key, s.sis_id, s.login, s.section) for s in store.students("a1")}
    assert got["Ana"] == ("ana", "S1", "ana@x", "A") and got["Dewi"] == ("s3", "S3", None, None)
    for who in (ana, cici):          # an id already (a race), a typed name: never filled
        with pytest.raises(AssignmentError) as exc:
            store.add_students("a1", [{"key": "s5", "name": "Eka", "token_hash": "e" * 64}], 10,
                               [{"id": budi, "sis_id": "S2", "login": None, "section": None},
                                {"id": who, "sis_id": "S9", "login": None, "section": None}])
        assert exc.value.status == 409
        assert {s.name: (s.key, s.sis_id, s.login, s.section)
                for s in store.students("a1")} == got
        assert got["Budi"] == ("budi", None, None, None)
