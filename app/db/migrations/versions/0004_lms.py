"""The course's LMS (issue 27): platforms registered by LTI Dynamic Registration,
the course an assignment was deep-linked into (its Names and Role Provisioning
Services endpoint: the dashboard lists every member), and each student's id in
the LMS (Canvas's user id from a launch), for grade files the LMS can match.

Revision ID: 0004
Revises: 0002 (the lead re-chains it after 0003)
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lti_platforms",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("client_id", sa.String(255), nullable=False),
        sa.Column("deployment_ids", sa.Text, nullable=False),
        sa.Column("auth_login_url", sa.String(1000), nullable=False),
        sa.Column("auth_token_url", sa.String(1000), nullable=False),
        sa.Column("key_set_url", sa.String(1000), nullable=False),
        sa.Column("auth_audience", sa.String(1000)),
        sa.Column("product", sa.String(200)),
        sa.Column("registered", sa.Float, nullable=False),
        sa.Column("disabled", sa.Float),
        sa.UniqueConstraint("issuer", "client_id", name="uq_lti_platforms_issuer_client"),
    )
    op.create_table(
        "lti_courses",
        sa.Column("assignment_id", sa.String(32),
                  sa.ForeignKey("assignments.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("issuer", sa.String(255), nullable=False),
        sa.Column("client_id", sa.String(255), nullable=False),
        sa.Column("nrps", sa.Text, nullable=False),
        sa.Column("fetched", sa.Float),
        sa.Column("members", sa.Integer),
        sa.Column("error", sa.Text),
    )
    with op.batch_alter_table("students") as batch:
        batch.add_column(sa.Column("lms_id", sa.String(100)))


def downgrade() -> None:
    with op.batch_alter_table("students") as batch:
        batch.drop_column("lms_id")
    op.drop_table("lti_courses")
    op.drop_table("lti_platforms")
