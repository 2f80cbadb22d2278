"""LTI 1.3: launch data without cookies, nonces used once, grade passback,
and instructor keys minted by an LMS launch.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lti_kv",
        sa.Column("key", sa.String(255), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_table(
        "lti_nonces",
        sa.Column("nonce", sa.String(255), primary_key=True),
        sa.Column("used", sa.Float, nullable=False),
    )
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
    op.create_table(
        "instructor_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("assignment_id", sa.String(32),
                  sa.ForeignKey("assignments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for table in ("instructor_tokens", "lti_grades", "lti_nonces", "lti_kv"):
        op.drop_table(table)
