"""The tables of results that last (assignments, students, submissions).

SQLAlchemy Core table objects, the one description of the schema that the
queries use; the migrations in ``migrations/versions`` create it (they are
the truth for an existing database, this file for the code, and
tests/assignments/test_store.py checks that the two agree).
"""
from __future__ import annotations

from sqlalchemy import (Boolean, Column, Float, ForeignKey, Index, Integer, MetaData, String,
                        Table, Text, UniqueConstraint)

metadata = MetaData()

assignments = Table(
    "assignments", metadata,
    Column("id", String(32), primary_key=True),        # in the student link /a/<id>
    Column("title", String(200), nullable=False),
    Column("spec", Text, nullable=False),              # JSON: exercises, attempts, feedback, due, late
    Column("token_hash", String(64), nullable=False),  # SHA-256 of the instructor token
    Column("secret", String(64), nullable=False),      # seeds each student's random trees
    Column("creator", String(100), nullable=False),    # who made it (client address), for budgets
    Column("created", Float, nullable=False),
)

assignment_trees = Table(
    "assignment_trees", metadata,
    # The assignment's own copy of an uploaded tree: the upload store may evict it.
    Column("assignment_id", String(32), ForeignKey("assignments.id", ondelete="CASCADE"),
           primary_key=True),
    Column("tree_id", String(64), primary_key=True),
    Column("format", String(16)),
    Column("text", Text, nullable=False),
)

students = Table(
    "students", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("assignment_id", String(32), ForeignKey("assignments.id", ondelete="CASCADE"),
           nullable=False),
    Column("key", String(100), nullable=False),        # the identity, normalised (seeds the trees)
    Column("name", String(200), nullable=False),       # as given, for the gradebook
    Column("sis_id", String(100)),                     # from a roster
    Column("login", String(100)),
    Column("section", String(100)),
    Column("token_hash", String(64), nullable=False),  # SHA-256 of the personal link's token
    Column("lms_id", String(100)),                     # the LMS's own user id (0004: Canvas's ID)
    Column("created", Float, nullable=False),
    # How the identity came (migration 0003): "name" typed in the form (anyone may type
    # any name: an alias), "roster" (the instructor's list), "lms" (a launch).
    Column("origin", String(8)),
    # SHA-256 of the request key the name form's page sent with a typed name (0008): the
    # same device retrying after a lost answer gets the student back; NULL otherwise.
    Column("join_hash", String(64)),
    UniqueConstraint("assignment_id", "key", name="uq_students_assignment_key"),
)

Index("ix_students_token", students.c.token_hash)

submissions = Table(
    "submissions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("student_id", Integer, ForeignKey("students.id", ondelete="CASCADE"), nullable=False),
    Column("exercise", Integer, nullable=False),       # index in the assignment's exercises
    Column("attempt", Integer, nullable=False),        # 1, 2, ... (guided: the question's index + 1)
    Column("answers", Text, nullable=False),           # JSON, as sent
    Column("right", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("result", Text, nullable=False),            # JSON: the checker's entries (for the dashboard)
    Column("late", Boolean, nullable=False, default=False),
    Column("created", Float, nullable=False),
    Column("misconception", String(32)),               # its id (contract §8; migration 0005)
    UniqueConstraint("student_id", "exercise", "attempt", name="uq_submissions_attempt"),
)
Index("ix_submissions_student_created", submissions.c.student_id, submissions.c.created)



# -- LTI 1.3 (migration 0002) ---------------------------------------------------

lti_kv = Table(
    "lti_kv", metadata,
    # PyLTI1p3's launch data (state, nonce issued, launch) kept here, not in cookies.
    Column("key", String(255), primary_key=True),
    Column("value", Text, nullable=False),
    Column("expires", Float, nullable=False),
)

lti_nonces = Table(
    "lti_nonces", metadata,
    Column("nonce", String(255), primary_key=True),    # a launch's nonce, used once
    Column("used", Float, nullable=False),
)


instructor_tokens = Table(
    "instructor_tokens", metadata,
    # Short-lived instructor keys minted when an instructor launches from the LMS.
    Column("token_hash", String(64), primary_key=True),
    Column("assignment_id", String(32), ForeignKey("assignments.id", ondelete="CASCADE"),
           nullable=False),
    Column("expires", Float, nullable=False),
)


# -- Courses (migration 0003) ----------------------------------------------------

assignment_contexts = Table(
    "assignment_contexts", metadata,
    # The courses an assignment may be launched from: the one whose deep link made it,
    # and each its instructor linked it into. A launch from any other is refused.
    Column("assignment_id", String(32), ForeignKey("assignments.id", ondelete="CASCADE"),
           primary_key=True),
    Column("issuer", String(255), primary_key=True),
    Column("deployment_id", String(255), primary_key=True),
    Column("context_id", String(255), primary_key=True),
)

lti_scores = Table(
    "lti_scores", metadata,
    # Where a student's score goes back to (Assignment and Grade Services): one row per
    # line item they launched from, so two courses linking one assignment each get it.
    Column("student_id", Integer, ForeignKey("students.id", ondelete="CASCADE"),
           primary_key=True),
    Column("lineitem", String(500), primary_key=True),   # the AGS claim's line item URL
    Column("issuer", String(255), nullable=False),
    Column("client_id", String(255), nullable=False),
    Column("user_sub", String(255), nullable=False),
    Column("ags", Text, nullable=False),               # JSON: the launch's AGS endpoint claim
    Column("sent", Float),                             # the score last sent there (percent)
    # The course of that line item (migration 0006; NULL: an older row that cannot tell).
    Column("deployment_id", String(255)),
    Column("context_id", String(255)),
)


# -- The course's LMS (migration 0004) ----------------------------------------

lti_platforms = Table(
    "lti_platforms", metadata,
    # Platforms registered by LTI Dynamic Registration (app.assignments.platforms).
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("issuer", String(255), nullable=False),
    Column("client_id", String(255), nullable=False),
    Column("deployment_ids", Text, nullable=False),    # JSON list
    Column("auth_login_url", String(1000), nullable=False),
    Column("auth_token_url", String(1000), nullable=False),
    Column("key_set_url", String(1000), nullable=False),
    Column("auth_audience", String(1000)),
    Column("product", String(200)),                    # the platform's own name for itself
    Column("registered", Float, nullable=False),
    Column("disabled", Float),                         # when an administrator disabled it
    UniqueConstraint("issuer", "client_id", name="uq_lti_platforms_issuer_client"),
)

lti_courses = Table(
    "lti_courses", metadata,
    # The course an assignment was deep-linked into: its member list (NRPS) for the dashboard.
    Column("assignment_id", String(32), ForeignKey("assignments.id", ondelete="CASCADE"),
           primary_key=True),
    Column("issuer", String(255), nullable=False),
    Column("client_id", String(255), nullable=False),
    Column("nrps", Text, nullable=False),              # JSON: the launch's NRPS claim
    Column("fetched", Float),                          # when the members were last read
    Column("members", Integer),                        # learners in the course then
    Column("error", Text),                             # why the last read failed
    # The course itself (migration 0006; NULL: an older row, until the list names it) and
    # its line item, as a launch from it showed it: the score target its members share.
    Column("deployment_id", String(255)),
    Column("context_id", String(255)),
    Column("ags", Text),                               # JSON: that launch's AGS claim
    Column("title", String(255)),                      # the LMS's title of it (migration 0007)
)

__all__ = ["metadata", "assignments", "assignment_trees", "students", "submissions", "lti_kv",
           "lti_nonces", "instructor_tokens", "assignment_contexts", "lti_scores", "lti_platforms",
           "lti_courses"]
