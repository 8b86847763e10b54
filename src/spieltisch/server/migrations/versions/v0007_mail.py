"""Schema 7: e-mail for accounts. An account may keep an address (private: only its owner
sees it) and its choices of mail (`mail_turns`: a mail when it is the player's turn,
`mail_digest`: a daily digest), off until the player switches them on. `mail_secret` is the
key of the account's unsubscribe links. `mail_sent` keeps what was sent when, per account
and kind, and the turns gathered for the next mail, so that every worker of a site sends a
player at most one mail per interval, also across a restart."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as accounts:
        accounts.add_column(sa.Column("email", sa.String(254), nullable=True))
        accounts.add_column(
            sa.Column("mail_turns", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        accounts.add_column(
            sa.Column("mail_digest", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        accounts.add_column(sa.Column("mail_secret", sa.String(64), nullable=True))
    op.create_table(
        "mail_sent",
        sa.Column("account_id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),  # 'turn' or 'digest'
        sa.Column("last_sent", sa.Float(), nullable=True),  # when the latest mail went out
        sa.Column("pending", sa.Text(), nullable=True),  # JSON: turns gathered for the next
        sa.Column("due", sa.Float(), nullable=True),  # when the gathered turns are sent
    )
    op.create_index("ix_mail_sent_due", "mail_sent", ["due"])
    _set_version("7")


def downgrade() -> None:
    op.drop_index("ix_mail_sent_due", "mail_sent")
    op.drop_table("mail_sent")
    with op.batch_alter_table("accounts") as accounts:  # SQLite rebuilds it to drop a column
        accounts.drop_column("mail_secret")
        accounts.drop_column("mail_digest")
        accounts.drop_column("mail_turns")
        accounts.drop_column("email")
    _set_version("6")


def _set_version(version: str) -> None:
    meta = sa.table("meta", sa.column("key", sa.String()), sa.column("value", sa.Text()))
    op.execute(meta.update().where(meta.c.key == "version").values(value=version))
