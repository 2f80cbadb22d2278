"""Migration 0003 on a database that has results already (SQLite): each LMS
student's score target becomes a line item row, and every student's origin is
told from their row (an LMS key, a roster's fields, else a typed name).
Migration 0006 (SQLite and a real PostgreSQL): each score target and member
list learns its course where one course can be meant, and none is guessed."""
from __future__ import annotations

import json

import pytest
from sqlalchemy import text

from app.db import make_engine, migrate, sqlite_url


def test_0003_keeps_the_score_targets_and_tells_the_origins(tmp_path):
    engine = make_engine(sqlite_url(str(tmp_path / "r.sqlite3")))
    migrate(engine, "0002")
    ags = {"lineitem": "https://lms.example/lineitems/7", "scope": []}
    with engine.begin() as c:
        c.execute(text("INSERT INTO assignments VALUES ('a1', 'T', '{}', 'h', 's', 'c', 0)"))
        for sid, key, sis in ((1, "lti:" + "ab" * 16, None), (2, "ana", "S1"), (3, "ben", None)):
            c.execute(text("INSERT INTO students (id, assignment_id, key, name, sis_id, "
                           "token_hash, created) VALUES (:i, 'a1', :k, :k, :s, :i, 0)"),
                      {"i": sid, "k": key, "s": sis})
        c.execute(text("INSERT INTO lti_grades VALUES (1, 'https://lms.example', 'c', 'u1', "
                       ":ags, 50.0)"), {"ags": json.dumps(ags)})
    migrate(engine)
    with engine.connect() as c:
        rows = c.execute(text("SELECT student_id, lineitem, user_sub, sent FROM lti_scores")).all()
        origins = dict(c.execute(text("SELECT id, origin FROM students")).all())
        tables = {r[0] for r in c.execute(text("SELECT name FROM sqlite_master"))}
    assert rows == [(1, "https://lms.example/lineitems/7", "u1", 50.0)]
    assert origins == {1: "lms", 2: "roster", 3: "name"}
    assert "lti_grades" not in tables and "assignment_contexts" in tables
    engine.dispose()


def _at_0005(url: str):
    """A database at 0005 with two deep-linked assignments of one LMS: ``one`` in one
    course, ``two`` in course 1 (its deep link, its member list) and linked into course 2;
    each with its students' score targets (line items 11; 21 in course 1, 22 in 2)."""
    engine = make_engine(url)
    migrate(engine, "0005")
    iss = "https://lms.example"
    with engine.begin() as c:
        for aid in ("one", "two"):
            c.execute(text("INSERT INTO assignments VALUES (:a, 'T', '{}', 'h', 's', 'c', 0)"),
                      {"a": aid})
            c.execute(text("INSERT INTO lti_courses (assignment_id, issuer, client_id, nrps) "
                           "VALUES (:a, :i, 'c', '{}')"), {"a": aid, "i": iss})
        for aid, context in (("one", "c1"), ("two", "c1"), ("two", "c2")):
            c.execute(text("INSERT INTO assignment_contexts VALUES (:a, :i, 'd1', :x)"),
                      {"a": aid, "i": iss, "x": context})
        for n, aid, item in ((1, "one", 11), (2, "one", 11), (3, "two", 21), (4, "two", 22)):
            c.execute(text("INSERT INTO students (assignment_id, key, name, token_hash, "
                           "created, origin) VALUES (:a, :k, :k, :t, 0, 'lms')"),
                      {"a": aid, "k": f"lti:{n}", "t": f"t{n}"})
            sid = c.execute(text("SELECT id FROM students WHERE key = :k"),
                            {"k": f"lti:{n}"}).scalar()
            ags = json.dumps({"lineitem": f"{iss}/lineitems/{item}"})
            c.execute(text("INSERT INTO lti_scores (student_id, lineitem, issuer, client_id, "
                           "user_sub, ags) VALUES (:s, :l, :i, 'c', :u, :g)"),
                      {"s": sid, "l": f"{iss}/lineitems/{item}", "i": iss, "u": f"u{n}",
                       "g": ags})
    return engine


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def url(request, tmp_path):
    if request.param == "sqlite":
        yield sqlite_url(str(tmp_path / "r.sqlite3"))
        return
    from tests.assignments.postgres import cluster

    with cluster() as found:
        yield found


def test_0006_gives_each_score_target_its_course_where_one_course_can_be_meant(url):
    from app.assignments.lti_store import LtiStore
    from app.assignments.platforms import Courses
    from app.db import Database

    engine = _at_0005(url)
    migrate(engine)
    with engine.connect() as c:
        scores = {int(r[0][4:]): (r[1], r[2]) for r in c.execute(text(
            "SELECT key, deployment_id, context_id FROM lti_scores JOIN students "
            "ON students.id = lti_scores.student_id"))}
        courses = {r[0]: (r[1], r[2], r[3]) for r in c.execute(text(
            "SELECT assignment_id, deployment_id, context_id, ags FROM lti_courses"))}
    # One course: the targets and the member list are its; its line item the launches'.
    assert scores[1] == scores[2] == ("d1", "c1")
    assert courses["one"][:2] == ("d1", "c1")
    assert json.loads(courses["one"][2])["lineitem"].endswith("/lineitems/11")
    # Two courses: nothing tells which; left unknown, not guessed.
    assert scores[3] == scores[4] == (None, None) and courses["two"] == (None, None, None)
    # A launch from course 2 shows line item 22: the older row of it learns its course,
    # and the member list naming its course (course 1) finds no line item of course 1 yet:
    # none given (never course 2's).
    db = Database(engine)
    LtiStore(db).student("two", "lti:5", "New", None, None, "t5", "https://lms.example", "c",
                         "u5", {"lineitem": "https://lms.example/lineitems/22"}, 10,
                         course=("d1", "c2"))
    members = Courses(db)
    members.named("two", "c1")
    row = members.get("two")
    assert (row.deployment_id, row.context_id) == ("d1", "c1")
    assert Courses.grade_service(row) is None
    with engine.connect() as c:
        learnt = dict(c.execute(text("SELECT key, context_id FROM lti_scores JOIN students "
                                     "ON students.id = lti_scores.student_id")).all())
    assert learnt["lti:4"] == learnt["lti:5"] == "c2" and learnt["lti:3"] is None
    # A launch from course 1 shows its line item: the member list's course has it now.
    members.saw("two", "https://lms.example", "d1", "c1",
                {"lineitem": "https://lms.example/lineitems/21"})
    ags = Courses.grade_service(members.get("two"))
    assert ags["lineitem"].endswith("/lineitems/21")
    # A member of course 1 who never launched keeps that course's line item only (a
    # target given before, course 2's here, is dropped); one who launched keeps theirs.
    store = LtiStore(db)
    with engine.connect() as c:
        ids = dict(c.execute(text("SELECT key, id FROM students")).all())
    for key, alone in (("lti:4", True), ("lti:5", False)):
        store.course_target(ids[key], "https://lms.example", "c", key, ags, ("d1", "c1"), alone)
    assert [(t.lineitem[-2:], t.context_id) for t in store.grade_targets(ids["lti:4"])] == [
        ("21", "c1")]
    assert [(t.lineitem[-2:], t.context_id) for t in store.grade_targets(ids["lti:5"])] == [
        ("21", "c1"), ("22", "c2")]
    migrate(engine, "0005")         # and back
    migrate(engine)
    engine.dispose()
