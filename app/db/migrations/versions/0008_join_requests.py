"""The name form's request key (``students.join_hash``): the page keeps a random key
before it sends a typed name and sends it along; its SHA-256 is kept with the student,
so the same device retrying after the answer was lost (a phone's connection dropped)
gets its student back instead of "name taken". Existing rows: NULL (no retry matches).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28
"""
import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # a plain ADD COLUMN (as 0003's origin): no copy of the table its submissions refer to
    op.add_column("students", sa.Column("join_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("students") as batch:
        batch.drop_column("join_hash")
