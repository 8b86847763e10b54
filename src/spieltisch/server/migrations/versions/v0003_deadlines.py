"""Schema 3: `deadlines`, when a running turn clock runs out, so that a restarted server keeps
it instead of starting the clock over."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "deadlines",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("due", sa.Float(), nullable=False),
    )
    _set_version("3")


def downgrade() -> None:
    op.drop_table("deadlines")
    _set_version("2")


def _set_version(version: str) -> None:
    meta = sa.table("meta", sa.column("key", sa.String()), sa.column("value", sa.Text()))
    op.execute(meta.update().where(meta.c.key == "version").values(value=version))
