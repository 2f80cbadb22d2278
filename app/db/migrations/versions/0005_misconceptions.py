"""The misconception that explains a submission (contract §8), kept with the attempt.

Revision ID: 0005
Revises: 0002 (the lead re-chains it after 0003 and 0004)
Create Date: 2026-11-27
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch mode: SQLite alters a table by copying it
    with op.batch_alter_table("submissions") as batch:
        batch.add_column(sa.Column("misconception", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("submissions") as batch:
        batch.drop_column("misconception")
