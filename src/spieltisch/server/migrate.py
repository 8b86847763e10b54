"""Alembic run from inside spieltisch: the revisions in `migrations/versions` applied on a
connection the caller opened and holds a transaction on (no alembic.ini, no logging set up).
The store decides when to call these (see `Store`)."""

from __future__ import annotations

import threading
from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection

__all__ = ["MIGRATIONS", "downgrade", "head", "known", "stamp", "stamped", "upgrade"]

MIGRATIONS = Path(__file__).with_name("migrations")

_ONE_AT_A_TIME = threading.Lock()
"""Alembic's `context` and `op` are module globals: one command runs at a time per process."""


def _config(db: Connection | None = None) -> Config:
    config = Config(attributes={"connection": db})
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


@cache
def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(_config())


def head() -> str:
    """The newest revision this spieltisch knows."""
    newest = _scripts().get_current_head()
    assert newest is not None, "the migrations have no revision"
    return newest


def known(revision: str) -> bool:
    return revision in {script.revision for script in _scripts().walk_revisions()}


def stamped(db: Connection) -> tuple[str, ...]:
    """The revisions recorded in the database's `alembic_version` (none when it has none)."""
    return MigrationContext.configure(db).get_current_heads()


def stamp(db: Connection, revision: str) -> None:
    """Record that the database is at `revision` without running anything."""
    with _ONE_AT_A_TIME:
        command.stamp(_config(db), revision)


def upgrade(db: Connection, to: str = "head") -> None:
    """Run every revision after the stamped one up to `to` (from the first on an empty
    database)."""
    with _ONE_AT_A_TIME:
        command.upgrade(_config(db), to)


def downgrade(db: Connection, to: str) -> None:
    """Undo the revisions after `to` ("base": all of them); what they added is lost."""
    with _ONE_AT_A_TIME:
        command.downgrade(_config(db), to)
