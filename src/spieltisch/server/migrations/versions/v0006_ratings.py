"""Schema 6: rated tables and players' ratings. A table may be rated (`rated`); when its game
ends, `rated_counted` says when its result went into the ratings (set once, by the worker
that stores the end). `ratings` keeps one Weng-Lin rating per account and game."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("last_played", sa.Float(), nullable=False),
    )
    op.add_column(
        "tables", sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column("tables", sa.Column("rated_counted", sa.Float(), nullable=True))
    _set_version("6")


def downgrade() -> None:
    with op.batch_alter_table("tables") as tables:  # SQLite rebuilds it to drop a column
        tables.drop_column("rated_counted")
        tables.drop_column("rated")
    op.drop_table("ratings")
    _set_version("5")


def _set_version(version: str) -> None:
    meta = sa.table("meta", sa.column("key", sa.String()), sa.column("value", sa.Text()))
    op.execute(meta.update().where(meta.c.key == "version").values(value=version))
