"""The database of a server test: an SQLite file by default, or a fresh schema of the server
that `SPIELTISCH_TEST_DB` names (for example postgresql+psycopg://root@127.0.0.1/test), so
the same tests run on every database the server supports."""

from __future__ import annotations

import atexit
import os
import uuid
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

__all__ = ["TEST_DB", "db_url", "new_schema", "on_sqlite"]

TEST_DB = os.environ.get("SPIELTISCH_TEST_DB", "")
_made: dict[tuple[Path, str], str] = {}
_schemas: list[tuple[str, str]] = []  # (server, schema)


def on_sqlite() -> bool:
    return not TEST_DB or make_url(TEST_DB).get_backend_name() == "sqlite"


def db_url(folder: Path, name: str = "tables") -> str:
    """The database `name` of a test that works in `folder`: the same URL each time it is
    asked for, so a test can open it again as a restarted server would."""
    key = (folder, name)
    if key not in _made:
        sqlite = f"sqlite:///{folder / (name + '.sqlite3')}"
        _made[key] = sqlite if on_sqlite() else new_schema(TEST_DB)
    return _made[key]


def new_schema(server: str) -> str:
    """A fresh schema on the PostgreSQL `server`, dropped when the tests end."""
    schema = "test_" + uuid.uuid4().hex[:16]
    engine = create_engine(server, connect_args={"connect_timeout": 5})
    with engine.begin() as db:
        db.execute(text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    if not _schemas:
        atexit.register(_drop_schemas)
    _schemas.append((server, schema))
    url = make_url(server).update_query_dict({"options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False)


def _drop_schemas() -> None:
    for server in {server for server, _ in _schemas}:
        engine = create_engine(server)
        with engine.begin() as db:
            for _, schema in (s for s in _schemas if s[0] == server):
                db.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        engine.dispose()
