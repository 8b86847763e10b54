"""Schema 1: tables, their seats, their entries (actions and events) and their chat.

Written as the first server made it: a 32-bit seed (on PostgreSQL), no `meta` table.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.Text(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("clock", sa.Float(), nullable=True),
        sa.Column("created", sa.Float(), nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("bot", sa.String(128), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("replaced", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "entries",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("actor", sa.Integer(), nullable=True),
        sa.Column("action", sa.Text(), nullable=True),
        sa.Column("key", sa.String(64), nullable=True),
        sa.Column("args", sa.Text(), nullable=True),
    )
    op.create_table(
        "chat",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("n", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    for name in ("chat", "entries", "seats", "tables"):
        op.drop_table(name)
