"""Schema 9: the history of every rating. `rating_changes` keeps one row per rated game and
signed-in player, written in the transaction that counts the game's end: the place (0 is
first, ties equal), the number of seats, and the rating before and after. Profiles read their
rating charts, recent games, places by table size and head-to-head records from it."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "rating_changes",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
    )
    op.create_index("ix_rating_changes_account_at", "rating_changes", ["account_id", "at"])
    op.create_index(
        "ix_rating_changes_account_game_at", "rating_changes", ["account_id", "game", "at"]
    )
    _set_version("7")


def downgrade() -> None:
    op.drop_index("ix_rating_changes_account_game_at", "rating_changes")
    op.drop_index("ix_rating_changes_account_at", "rating_changes")
    op.drop_table("rating_changes")
    _set_version("6")


def _set_version(version: str) -> None:
    meta = sa.table("meta", sa.column("key", sa.String()), sa.column("value", sa.Text()))
    op.execute(meta.update().where(meta.c.key == "version").values(value=version))
