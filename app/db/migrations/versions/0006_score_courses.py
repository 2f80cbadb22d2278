"""Each score target and the remembered member list know their course (issues 25
and 27): an assignment linked into a second course on the same LMS has two line
items, and a member of one course who never launched must get that course's.

``lti_scores`` and ``lti_courses`` get the launch's ``deployment_id`` and
``context_id``; ``lti_courses.ags`` is the member list's own course's line item
(the AGS claim of a launch from that course), the score target its members share.

Existing rows: where the assignment is bound to one course of that issuer
(``assignment_contexts``), that course is theirs, and the member list's line item
is the one its launches showed. Where it is bound to several, nothing here tells
which course a row came from: the columns stay NULL. Such a score target is still
sent (as before), and learns its course when a launch from that course shows the
same line item (a line item is one course's column); the member list learns its
course at its next read, from the list itself (its ``context``), and then its
members who never launched keep only that course's line item. Until then the
members get no new score target (the old code's guess, any line item of the
issuer, is what sent zeros to the wrong course).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""
import json

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

COURSE = ("deployment_id", "context_id")


def upgrade() -> None:
    # batch mode: SQLite alters a table by copying it
    with op.batch_alter_table("lti_scores") as batch:
        for name in COURSE:
            batch.add_column(sa.Column(name, sa.String(255), nullable=True))
    with op.batch_alter_table("lti_courses") as batch:
        for name in COURSE:
            batch.add_column(sa.Column(name, sa.String(255), nullable=True))
        batch.add_column(sa.Column("ags", sa.Text, nullable=True))
    _backfill(op.get_bind())


def _backfill(c) -> None:
    """The one course each row can belong to, where the assignment has one."""
    bound: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for r in c.execute(sa.text("SELECT assignment_id, issuer, deployment_id, context_id "
                               "FROM assignment_contexts")).all():
        bound.setdefault((r.assignment_id, r.issuer), set()).add((r.deployment_id, r.context_id))
    only = {key: next(iter(courses)) for key, courses in bound.items() if len(courses) == 1}
    scores = c.execute(sa.text(
        "SELECT s.student_id, s.lineitem, s.issuer, s.ags, st.assignment_id FROM lti_scores s "
        "JOIN students st ON st.id = s.student_id ORDER BY s.lineitem")).all()
    lineitems: dict[tuple[str, str, str, str], str] = {}
    for r in scores:
        course = only.get((r.assignment_id, r.issuer))
        if course is None:
            continue
        c.execute(sa.text("UPDATE lti_scores SET deployment_id = :d, context_id = :x "
                          "WHERE student_id = :s AND lineitem = :l"),
                  {"d": course[0], "x": course[1], "s": r.student_id, "l": r.lineitem})
        if (json.loads(r.ags or "{}") or {}).get("lineitem"):
            lineitems.setdefault((r.assignment_id, r.issuer, *course), r.ags)
    for r in c.execute(sa.text("SELECT assignment_id, issuer FROM lti_courses")).all():
        course = only.get((r.assignment_id, r.issuer))
        if course is None:
            continue
        c.execute(sa.text("UPDATE lti_courses SET deployment_id = :d, context_id = :x, ags = :g "
                          "WHERE assignment_id = :a"),
                  {"d": course[0], "x": course[1], "a": r.assignment_id,
                   "g": lineitems.get((r.assignment_id, r.issuer, *course))})


def downgrade() -> None:
    with op.batch_alter_table("lti_courses") as batch:
        batch.drop_column("ags")
        for name in reversed(COURSE):
            batch.drop_column(name)
    with op.batch_alter_table("lti_scores") as batch:
        for name in reversed(COURSE):
            batch.drop_column(name)
