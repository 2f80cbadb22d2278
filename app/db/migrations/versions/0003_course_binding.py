"""Courses and identities: an assignment bound to the LMS courses it may be launched from, and
scores sent back per line item (two courses linking one assignment each keep
their own gradebook column).

``lti_grades`` (one target per student: the last launch's) becomes
``lti_scores`` (one per student and line item); its rows are kept. Assignments
deep-linked before this revision have no course: their instructor links them
again (the deep-link page's "link an assignment you made").

``students.origin`` says how an identity came: ``name`` (typed in the form),
``roster`` or ``lms``; existing rows are told apart by their key and roster fields.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""
import json

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "assignment_contexts",
        sa.Column("assignment_id", sa.String(32),
                  sa.ForeignKey("assignments.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("issuer", sa.String(255), primary_key=True),
        sa.Column("deployment_id", sa.String(255), primary_key=True),
        sa.Column("context_id", sa.String(255), primary_key=True),
    )
    scores = op.create_table(
        "lti_scores",
        sa.Column("student_id", sa.Integer,
                  sa.ForeignKey("students.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("lineitem", sa.String(500), primary_key=True),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("client_id", sa.String(255), nullable=False),
        sa.Column("user_sub", sa.String(255), nullable=False),
        sa.Column("ags", sa.Text, nullable=False),
        sa.Column("sent", sa.Float),
    )
    rows = op.get_bind().execute(sa.text(
        "SELECT student_id, issuer, client_id, user_sub, ags, sent FROM lti_grades")).all()
    if rows:
        op.bulk_insert(scores, [{**r._asdict(), "lineitem": _lineitem(r.ags)} for r in rows])
    op.drop_table("lti_grades")
    op.add_column("students", sa.Column("origin", sa.String(8)))
    op.execute("UPDATE students SET origin = 'lms' WHERE key LIKE 'lti:%'")
    op.execute("UPDATE students SET origin = 'roster' WHERE origin IS NULL AND (sis_id IS NOT "
               "NULL OR login IS NOT NULL OR section IS NOT NULL)")
    op.execute("UPDATE students SET origin = 'name' WHERE origin IS NULL")


def _lineitem(ags: str) -> str:
    claim = json.loads(ags or "{}")
    return str(claim.get("lineitem") or claim.get("lineitems") or "")[:500]


def downgrade() -> None:
    with op.batch_alter_table("students") as batch:
        batch.drop_column("origin")
    op.create_table(
        "lti_grades",
        sa.Column("student_id", sa.Integer,
                  sa.ForeignKey("students.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("client_id", sa.String(255), nullable=False),
        sa.Column("user_sub", sa.String(255), nullable=False),
        sa.Column("ags", sa.Text, nullable=False),
        sa.Column("sent", sa.Float),
    )
    op.execute("INSERT INTO lti_grades (student_id, issuer, client_id, user_sub, ags, sent) "
               "SELECT student_id, MIN(issuer), MIN(client_id), MIN(user_sub), MIN(ags), "
               "MIN(sent) FROM lti_scores GROUP BY student_id")
    op.drop_table("lti_scores")
    op.drop_table("assignment_contexts")
