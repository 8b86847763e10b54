"""Schema 2: a table's secret dice, whether its seed is public, why it is broken, when it was
closed, its bot pace; a 64-bit seed on PostgreSQL; and `meta`, whose `version` row lets a
spieltisch from before these migrations refuse a newer database."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("secret", sa.String(64), nullable=True))
    op.add_column(
        "tables", sa.Column("seeded", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column("tables", sa.Column("broken", sa.Text(), nullable=True))
    op.add_column("tables", sa.Column("closed", sa.Float(), nullable=True))
    op.add_column("tables", sa.Column("pace", sa.String(16), nullable=True))
    _change_seed_type(sa.Integer(), sa.BigInteger())
    meta = op.create_table(
        "meta",
        sa.Column("key", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
    )
    op.bulk_insert(meta, [{"key": "version", "value": "2"}])


def downgrade() -> None:
    op.drop_table("meta")
    _change_seed_type(sa.BigInteger(), sa.Integer())
    with op.batch_alter_table("tables") as table:  # SQLite rebuilds the table to drop columns
        for name in ("secret", "seeded", "broken", "closed", "pace"):
            table.drop_column(name)


def _change_seed_type(old: sa.types.TypeEngine[int], new: sa.types.TypeEngine[int]) -> None:
    """The seed's column type; on SQLite it stays, as INTEGER holds 64 bits there already."""
    if op.get_bind().dialect.name != "sqlite":
        op.alter_column("tables", "seed", type_=new, existing_type=old, existing_nullable=False)
