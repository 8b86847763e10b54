"""Schema 5: a deadline may carry data beside its time: a person's open catch window keeps
the motion the clients play and until when each piece counts, so that a restarted server or
another worker reopens it instead of closing it empty."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("deadlines", sa.Column("data", sa.Text(), nullable=True))
    _set_version("5")


def downgrade() -> None:
    with op.batch_alter_table("deadlines") as deadlines:  # SQLite rebuilds it to drop a column
        deadlines.drop_column("data")
    _set_version("4")


def _set_version(version: str) -> None:
    meta = sa.table("meta", sa.column("key", sa.String()), sa.column("value", sa.Text()))
    op.execute(meta.update().where(meta.c.key == "version").values(value=version))
