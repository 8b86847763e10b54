"""Alembic's environment: the revisions run on the connection that the store opened, inside
the transaction (and lock) it holds, so an upgrade is all or nothing. No engine is made and
no logging is configured here."""

from __future__ import annotations

from alembic import context


def run_on_the_stores_connection() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError(
            "spieltisch's migrations run on the store's connection: use "
            "`spieltisch db upgrade` (or open a spieltisch.server.store.Store)."
        )
    context.configure(connection=connection)
    with context.begin_transaction():
        context.run_migrations()


run_on_the_stores_connection()
