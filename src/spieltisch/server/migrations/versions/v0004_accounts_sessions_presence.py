"""Schema 4: players' accounts, their sessions, failed sign-ins (the throttle every worker
sees), and on each seat the account that sits there and when its player was last seen."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("settings", sa.Text(), nullable=False, server_default="{}"),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), nullable=False, index=True),
        sa.Column("created", sa.Float(), nullable=False),
        sa.Column("last_used", sa.Float(), nullable=False),
    )
    op.create_table(
        "sign_in_failures",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(128), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Index("ix_sign_in_failures_key_at", "key", "at"),
    )
    op.add_column("seats", sa.Column("account_id", sa.String(32), nullable=True))
    op.add_column("seats", sa.Column("last_seen", sa.Float(), nullable=True))
    op.create_index("ix_seats_account_id", "seats", ["account_id"])
    _set_version("4")


def downgrade() -> None:
    op.drop_index("ix_seats_account_id", "seats")
    with op.batch_alter_table("seats") as seats:  # SQLite rebuilds the table to drop columns
        seats.drop_column("last_seen")
        seats.drop_column("account_id")
    op.drop_table("sign_in_failures")
    op.drop_table("sessions")
    op.drop_table("accounts")
    _set_version("3")


def _set_version(version: str) -> None:
    meta = sa.table("meta", sa.column("key", sa.String()), sa.column("value", sa.Text()))
    op.execute(meta.update().where(meta.c.key == "version").values(value=version))
