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

__all__ = ["TEST_DB", "db_url", "on_sqlite"]

TEST_DB = os.environ.get("SPIELTISCH_TEST_DB", "")
_made: dict[tuple[Path, str], str] = {}
_schemas: list[str] = []


def on_sqlite() -> bool:
    return not TEST_DB or make_url(TEST_DB).get_backend_name() == "sqlite"


def db_url(folder: Path, name: str = "tables") -> str:
    """The database `name` of a test that works in `folder`: the same URL each time it is
    asked for, so a test can open it again as a restarted server would."""
    key = (folder, name)
    if key not in _made:
        _made[key] = f"sqlite:///{folder / (name + '.sqlite3')}" if on_sqlite() else _new_schema()
    return _made[key]


def _new_schema() -> str:
    schema = "test_" + uuid.uuid4().hex[:16]
    engine = create_engine(TEST_DB)
    with engine.begin() as db:
        db.execute(text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    if not _schemas:
        atexit.register(_drop_schemas)
    _schemas.append(schema)
    url = make_url(TEST_DB).update_query_dict({"options": f"-csearch_path={schema}"})
    return url.render_as_string(hide_password=False)


def _drop_schemas() -> None:
    engine = create_engine(TEST_DB)
    with engine.begin() as db:
        for schema in _schemas:
            db.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
    engine.dispose()
