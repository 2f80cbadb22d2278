"""Migration 0003 on a database that has results already (SQLite): each LMS
student's score target becomes a line item row, and every student's origin is
told from their row (an LMS key, a roster's fields, else a typed name)."""
from __future__ import annotations

import json

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
