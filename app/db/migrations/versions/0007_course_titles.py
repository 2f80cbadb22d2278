"""The title of the course whose member list an assignment reads (``lti_courses.title``):
the dashboard names the course whose members wait for a launch from it (their scores
go to its line item, known only once a launch from it shows it). The LMS's own text,
kept as given (cut to 255 characters) and shown escaped. Existing rows: NULL, the
course's id is shown until the next read of its member list names it.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch mode: SQLite alters a table by copying it
    with op.batch_alter_table("lti_courses") as batch:
        batch.add_column(sa.Column("title", sa.String(255), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("lti_courses") as batch:
        batch.drop_column("title")
