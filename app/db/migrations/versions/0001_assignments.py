"""Assignments, their own copies of uploaded trees, students and submissions.

Revision ID: 0001
Revises:
Create Date: 2026-11-26
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "assignments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("title", sa.String(200), nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("creator", sa.String(100), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "assignment_trees",
        sa.Column("assignment_id", sa.String(32),
                  sa.ForeignKey("assignments.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("tree_id", sa.String(64), primary_key=True),
        sa.Column("format", sa.String(16)),
        sa.Column("text", sa.Text, nullable=False),
    )
    op.create_table(
        "students",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("assignment_id", sa.String(32),
                  sa.ForeignKey("assignments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("key", sa.String(100), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("sis_id", sa.String(100)),
        sa.Column("login", sa.String(100)),
        sa.Column("section", sa.String(100)),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("assignment_id", "key", name="uq_students_assignment_key"),
    )
    op.create_index("ix_students_token", "students", ["token_hash"])
    op.create_table(
        "submissions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("student_id", sa.Integer,
                  sa.ForeignKey("students.id", ondelete="CASCADE"), nullable=False),
        sa.Column("exercise", sa.Integer, nullable=False),
        sa.Column("attempt", sa.Integer, nullable=False),
        sa.Column("answers", sa.Text, nullable=False),
        sa.Column("right", sa.Integer, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("result", sa.Text, nullable=False),
        sa.Column("late", sa.Boolean, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.UniqueConstraint("student_id", "exercise", "attempt", name="uq_submissions_attempt"),
    )
    op.create_index("ix_submissions_student_created", "submissions", ["student_id", "created"])


def downgrade() -> None:
    op.drop_index("ix_submissions_student_created", "submissions")
    op.drop_table("submissions")
    op.drop_index("ix_students_token", "students")
    op.drop_table("students")
    op.drop_table("assignment_trees")
    op.drop_table("assignments")
