"""Reaching a database: its URL as given and as shown, its engine, and the checks of an SQLite
file before it is opened."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from spieltisch.server.schema import StorageError

__all__ = [
    "CONNECT_TIMEOUT",
    "KEEPALIVE",
    "LOCK_TIMEOUT_MS",
    "STATEMENT_TIMEOUT_MS",
    "TCP_USER_TIMEOUT_MS",
    "cannot_use",
    "check_sqlite_file",
    "damaged",
    "default_url",
    "make_engine",
    "parse",
    "shown",
    "shown_url",
    "sqlite_path",
    "sqlite_pragmas",
    "why",
]


def default_url(data_dir: Path, create: bool = True) -> str:
    """The SQLite file in `data_dir` (the directory is made when missing, if `create`)."""
    if create:
        data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(data_dir / 'spieltisch.sqlite3').resolve()}"


def shown_url(url: str) -> str:
    """A database or broker as messages name it: an SQLite file's path, else the URL without
    its password (a string that is no URL at all is shown as given)."""
    try:
        return shown(make_url(url))
    except (ArgumentError, ValueError):
        return url


SQLITE_BUSY_MS = 500
"""Milliseconds one SQLite statement waits for another process's write lock; the writer then
tries again within its bound (`storage.WRITE_BOUND`), so the wait stays bounded either way."""
SQLITE_UPGRADE_BUSY_MS = 60_000
"""The same for the schema upgrade at start, which other servers starting at once wait for."""


def sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # durable against a killed process
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
    cursor.close()


CONNECT_TIMEOUT = 5
"""Seconds a server database may take to answer a new connection (the event loop waits)."""
STATEMENT_TIMEOUT_MS = 5000
"""PostgreSQL cancels a statement that runs longer: ours take milliseconds, so one that runs
for seconds waits on something that is stuck, and the move is better refused (`not_saved`)."""
LOCK_TIMEOUT_MS = 2000
"""PostgreSQL gives up waiting for a lock after this long: another program holding a table
locked must not hold up the moves behind it for longer."""
KEEPALIVE = {"keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2, "keepalives_count": 3}
"""TCP keepalives on idle connections: a server that vanished without a word (a silent
partition) is noticed after about 5 + 3 x 2 = 11 seconds instead of the kernel's two hours."""
TCP_USER_TIMEOUT_MS = 10_000
"""Data sent but not acknowledged for this long drops the connection (Linux `TCP_USER_TIMEOUT`),
instead of the kernel's retries for about 15 minutes."""


def parse(url: str) -> URL:
    try:
        return make_url(url)
    except ArgumentError:
        raise StorageError(
            f"{url!r} is not a database URL; give one such as sqlite:///tables.sqlite3 or "
            "postgresql://user@host/database."
        ) from None


def make_engine(url: URL, **options: Any) -> Engine:
    """The engine of `url` (nothing is connected yet); an unknown database or a driver that
    is not installed is a `StorageError`."""
    try:
        return create_engine(url, connect_args=connect_args(url), **options)
    except ImportError as error:
        cause = f"its driver is not installed ({error})"
    except SQLAlchemyError as error:
        cause = why(error)
    raise StorageError(f"The database {shown(url)} cannot be used: {cause}")


def connect_args(url: URL) -> dict[str, Any]:
    """Bounds on every wait for a PostgreSQL server (each one the URL sets itself is kept)."""
    if url.get_backend_name() != "postgresql":
        return {}
    bounds: dict[str, Any] = {
        "connect_timeout": CONNECT_TIMEOUT,
        **KEEPALIVE,
        "tcp_user_timeout": TCP_USER_TIMEOUT_MS,
    }
    found = {key: value for key, value in bounds.items() if key not in url.query}
    timeouts = f"-c statement_timeout={STATEMENT_TIMEOUT_MS} -c lock_timeout={LOCK_TIMEOUT_MS}"
    options = url.query.get("options", "")
    given = " ".join(options) if isinstance(options, tuple) else options
    return {**found, "options": f"{timeouts} {given}".strip()}  # the URL's own come last


def sqlite_path(database: str | None) -> Path | None:
    """The file of an SQLite database; None for one in memory or named by a `file:` URI."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def check_sqlite_file(database: str | None) -> None:
    """Refuse an SQLite file that is empty or is no SQLite database at all."""
    path = sqlite_path(database)
    if path is None or not path.exists():
        return
    if path.is_dir():
        raise StorageError(f"{path} is a directory, not a database file.")
    with path.open("rb") as file:
        head = file.read(16)
    if not head:
        raise StorageError(
            f"{path} is empty (0 bytes), so it holds no tables: it may have been cut off. "
            "Move it away to start with a new database, or restore it from a backup."
        )
    if head != b"SQLite format 3\x00":
        raise StorageError(f"{path} is not an SQLite database; give spieltisch another file.")


def cannot_use(url: URL, error: SQLAlchemyError) -> StorageError:
    if _sqlite_finds_damage(error):
        return damaged(shown(url), why(error))
    return StorageError(f"The database {shown(url)} cannot be used: {why(error)}")


def damaged(database: str, said: str) -> StorageError:
    """The refusal of a file that SQLite finds damaged, with what it said and what to do."""
    return StorageError(
        f"The database {database} is damaged (SQLite's check says: {' '.join(said.split())}). "
        "Start from a backup of it, or move it aside to start empty."
    )


_SQLITE_DAMAGE = {11, 26}
"""SQLite's primary result codes of a damaged file: SQLITE_CORRUPT and SQLITE_NOTADB."""


def _sqlite_finds_damage(error: SQLAlchemyError) -> bool:
    code = getattr(getattr(error, "orig", None), "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in _SQLITE_DAMAGE


def shown(url: URL) -> str:
    if url.get_backend_name() == "sqlite" and url.database:
        return url.database
    return url.render_as_string(hide_password=True)


def why(error: SQLAlchemyError) -> str:
    """The database's own words, without SQLAlchemy's statement dump and link."""
    original = getattr(error, "orig", None)
    said = str(original if original is not None else error).strip().splitlines()
    reason = said[0] if said else type(error).__name__
    if "readonly" in reason or "read-only" in reason:
        return f"{reason}. Give the server a database it can write to."
    return reason
