"""Storage of tables through SQLAlchemy: SQLite by default, any SQLAlchemy URL otherwise.

A table is its setup (game, options, seed, seats) plus an append-only list of entries: every
action (chance outcomes included) and every event (a join, a leave, a timeout). The live
state is rebuilt by replaying the actions, so nothing but these rows needs to survive.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError

from spieltisch.server import migrate

__all__ = [
    "MAX_BOT_SPEC",
    "SCHEMA_VERSION",
    "ChatRow",
    "EntryRow",
    "SeatRow",
    "StorageError",
    "Store",
    "TableRow",
    "default_url",
    "schema_revisions",
    "shown_url",
]

SCHEMA_VERSION = 2
"""The number of the newest migration (`migrations/versions`). 1: tables, seats, entries,
chat. 2: the server's secret dice, seeded, broken and closed tables, bot pace, 64-bit seeds,
and this version in `meta` (for the servers from before the migrations)."""

MAX_BOT_SPEC = 128
"""The longest bot spec a seat can store."""

_META = MetaData()
"""The tables as the queries see them; only the migrations make and change them."""

_SCHEMA = Table(
    "meta",
    _META,
    Column("key", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)

_TABLES = Table(
    "tables",
    _META,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("clock", Float, nullable=True),
    Column("created", Float, nullable=False),
    Column("secret", String(64), nullable=True),  # the key of the server's secret dice
    Column("seeded", Boolean, nullable=False, default=False),  # dice from the public seed
    Column("broken", Text, nullable=True),  # why the table could not be loaded
    Column("closed", Float, nullable=True),  # when it was closed unfinished (idle)
    Column("pace", String(16), nullable=True),  # how long its bots pause (NULL: normal)
)

_SEATS = Table(
    "seats",
    _META,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("bot", String(MAX_BOT_SPEC), nullable=True),
    Column("name", String(64), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("replaced", Boolean, nullable=False, default=False),
)

_ENTRIES = Table(
    "entries",
    _META,
    Column("table_id", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("actor", Integer, nullable=True),
    Column("action", Text, nullable=True),
    Column("key", String(64), nullable=True),
    Column("args", Text, nullable=True),
)


_CHAT = Table(
    "chat",
    _META,
    Column("table_id", String(32), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
)


@dataclass(frozen=True)
class ChatRow:
    """A line of table talk; it is not part of the game, so it does not change the version."""

    n: int
    seat: int
    name: str
    text: str


@dataclass(frozen=True)
class TableRow:
    """A table's setup. Its dice come from `secret` (the server's, 128 bits) when set, else
    from `seed`, which every seat may see when `seeded` (a table made for tests or puzzles;
    tables of schema 1 have neither a secret nor a public seed)."""

    id: str
    game: str
    options: dict[str, Any]
    seed: int
    clock: float | None
    created: float
    secret: str | None = None
    seeded: bool = False
    pace: str = "normal"  # how long bots pause before each move: instant, normal, slow

    @property
    def dice_key(self) -> str:
        return self.secret if self.secret is not None else str(self.seed)


class StorageError(Exception):
    """The database cannot be used as it is; the message says why and what to do."""


@dataclass(frozen=True)
class SeatRow:
    seat: int
    bot: str | None  # a bot spec, or None for a person's seat
    name: str | None  # a person's display name, None while the seat is open
    token_hash: str | None
    replaced: bool = False  # a bot took over after the person left


@dataclass(frozen=True)
class EntryRow:
    """An action (`action` set; `actor` is the seat or -1 for chance) or an event (`key`)."""

    seq: int
    actor: int | None
    action: str | None
    key: str | None
    args: dict[str, Any]


def default_url(data_dir: Path, create: bool = True) -> str:
    """The SQLite file in `data_dir` (the directory is made when missing, if `create`)."""
    if create:
        data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(data_dir / 'spieltisch.sqlite3').resolve()}"


def shown_url(url: str) -> str:
    """A database or broker as messages name it: an SQLite file's path, else the URL without
    its password (a string that is no URL at all is shown as given)."""
    try:
        return _shown(make_url(url))
    except (ArgumentError, ValueError):
        return url


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # durable against a killed process
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class Store:
    """Every write is committed before the call returns. Opening checks the database: a file
    that is empty or not a database, tables of another program, a schema newer than this
    version or a database that cannot be written are refused with a `StorageError`; an
    older schema is brought up to date by the migrations (`migrate`), all in one transaction
    that other servers starting at the same time wait for.

    `found_revision` is the schema the database had when it was opened (None: it was empty)."""

    def __init__(self, url: str) -> None:
        parsed = _parse(url)
        if parsed.get_backend_name() == "sqlite":
            _check_sqlite_file(parsed.database)
        # a pooled connection is checked before use: one broken by a database restart is
        # replaced instead of failing the next move
        self.engine: Engine = _engine(parsed, pool_pre_ping=True)
        if parsed.get_backend_name() == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            self.found_revision = self._open()
        except SQLAlchemyError as error:
            self.engine.dispose()
            raise _cannot_use(parsed, error) from None
        except StorageError:
            self.engine.dispose()
            raise

    def _open(self) -> str | None:
        with self.engine.begin() as db:
            _hold_off_other_upgrades(db)
            _refuse_damaged(db)
            found = _found_revision(db)
            if found is not None:
                _refuse_unknown(found)
                if not migrate.stamped(db):  # written before the migrations existed
                    migrate.stamp(db, found)
            migrate.upgrade(db)
            _prove_writable(db)
        return found

    def revision(self) -> str:
        """The schema revision the database is at (after opening: the newest)."""
        with self.engine.connect() as db:
            (current,) = migrate.stamped(db)
        return current

    def schema_version(self) -> int:
        return int(self.revision())

    def site_key(self) -> str:
        """This database's name, made at first use: the workers that share the database
        are one table site, whatever address each of them reaches it by."""
        with self.engine.connect() as db:
            found = db.execute(select(_SCHEMA.c.value).where(_SCHEMA.c.key == "site")).scalar()
        if found is not None:
            return str(found)
        with contextlib.suppress(IntegrityError), self.engine.begin() as db:
            db.execute(insert(_SCHEMA).values(key="site", value=secrets.token_hex(8)))
        return self.site_key()  # ours, or another worker's that came first

    def close(self) -> None:
        self.engine.dispose()

    # --- writes ---------------------------------------------------------------------------
    def add_table(self, row: TableRow, seats: list[SeatRow], entries: list[EntryRow]) -> None:
        """A new table with its seats and first entries (its first dice), in one go."""
        with self.engine.begin() as db:
            db.execute(
                insert(_TABLES).values(
                    id=row.id,
                    game=row.game,
                    options=json.dumps(row.options),
                    seed=row.seed,
                    clock=row.clock,
                    created=row.created,
                    secret=row.secret,
                    seeded=row.seeded,
                    pace=row.pace,
                )
            )
            for seat in seats:
                db.execute(insert(_SEATS).values(table_id=row.id, **_seat_values(seat)))
            if entries:
                db.execute(insert(_ENTRIES).values([_entry_values(row.id, e) for e in entries]))

    def set_seat(self, table_id: str, seat: SeatRow) -> None:
        with self.engine.begin() as db:
            db.execute(
                update(_SEATS)
                .where(_SEATS.c.table_id == table_id, _SEATS.c.seat == seat.seat)
                .values(**_seat_values(seat))
            )

    def add_entries(self, batch: list[tuple[str, EntryRow, SeatRow | None]]) -> None:
        """Append entries of any tables (with the seat each changes) in one transaction. An
        entry whose (table, seq) is taken, stored meanwhile by another worker, fails it all
        with SQLAlchemy's `IntegrityError`: of two workers, only one stores a version."""
        if not batch:
            return
        rows = [_entry_values(table_id, entry) for table_id, entry, _ in batch]
        with self.engine.begin() as db:
            # one statement of many rows, not executemany: quicker, and on PostgreSQL a
            # version taken by another worker fails it plainly (no pipeline to abort)
            db.execute(insert(_ENTRIES).values(rows))
            for table_id, _, seat in batch:
                if seat is not None:
                    db.execute(
                        update(_SEATS)
                        .where(_SEATS.c.table_id == table_id, _SEATS.c.seat == seat.seat)
                        .values(**_seat_values(seat))
                    )

    def add_chat(self, table_id: str, line: ChatRow) -> None:
        """Store a chat line; `IntegrityError` when its number was taken meanwhile."""
        with self.engine.begin() as db:
            db.execute(
                insert(_CHAT).values(
                    table_id=table_id, n=line.n, seat=line.seat, name=line.name, text=line.text
                )
            )

    # --- reads ----------------------------------------------------------------------------
    def chat(self, table_id: str, last: int) -> list[ChatRow]:
        """The table's `last` chat lines, oldest first."""
        with self.engine.connect() as db:
            rows = db.execute(
                select(_CHAT)
                .where(_CHAT.c.table_id == table_id)
                .order_by(_CHAT.c.n.desc())
                .limit(last)
            ).all()
        return [ChatRow(r.n, r.seat, r.name, r.text) for r in reversed(rows)]

    def tables(self) -> list[TableRow]:
        """Every table but the broken and the closed ones, oldest first."""
        kept = _TABLES.c.broken.is_(None) & _TABLES.c.closed.is_(None)
        with self.engine.connect() as db:
            query = select(_TABLES).where(kept).order_by(_TABLES.c.created)
            rows = db.execute(query).all()
        return [_table_row(r) for r in rows]

    def table(self, table_id: str) -> TableRow | None:
        """One table's setup (broken or closed ones too), or None."""
        with self.engine.connect() as db:
            found = db.execute(select(_TABLES).where(_TABLES.c.id == table_id)).first()
        return None if found is None else _table_row(found)

    def broken(self) -> dict[str, str]:
        """The tables marked broken, with the reason each could not be loaded."""
        with self.engine.connect() as db:
            query = select(_TABLES.c.id, _TABLES.c.broken).where(_TABLES.c.broken.isnot(None))
            return {r.id: r.broken for r in db.execute(query)}

    def closed(self) -> set[str]:
        """The tables closed unfinished."""
        with self.engine.connect() as db:
            query = select(_TABLES.c.id).where(_TABLES.c.closed.isnot(None))
            return {r.id for r in db.execute(query)}

    def mark_closed(self, table_id: str, when: float) -> None:
        with self.engine.begin() as db:
            db.execute(update(_TABLES).where(_TABLES.c.id == table_id).values(closed=when))

    def mark_broken(self, table_id: str, reason: str) -> None:
        """Keep a table that cannot be loaded out of the way (its rows stay, for repair)."""
        with self.engine.begin() as db:
            db.execute(update(_TABLES).where(_TABLES.c.id == table_id).values(broken=reason))

    def seats(self, table_id: str) -> list[SeatRow]:
        with self.engine.connect() as db:
            return _seats(db, table_id)

    def entries(self, table_id: str, since: int = 0) -> list[EntryRow]:
        """The table's entries from version `since` on, in order."""
        with self.engine.connect() as db:
            return _entries(db, table_id, since)

    def snapshot(self, table_id: str, since: int = 0) -> tuple[list[SeatRow], list[EntryRow]]:
        """The table's seats and its entries from version `since` on, as they were at one
        moment: another worker may store a join between two reads, and the seats must
        not miss a join that the entries have."""
        with self.engine.connect() as db:
            if db.dialect.name == "postgresql":
                db = db.execution_options(isolation_level="REPEATABLE READ")
            with db.begin():
                return _seats(db, table_id), _entries(db, table_id, since)

    def progress(self, table_ids: list[str]) -> dict[str, tuple[int, int, bool]]:
        """Of each of the tables: its version, how many chat lines it has, and whether it
        was closed (what another worker may have changed)."""
        if not table_ids:
            return {}
        with self.engine.connect() as db:
            ours = _TABLES.c.id.in_(table_ids)
            closed = {r.id: r.closed is not None for r in db.execute(select(_TABLES).where(ours))}
            versions = _counts(db, _ENTRIES.c.seq, table_ids)
            chats = _counts(db, _CHAT.c.n, table_ids)
        return {t: (versions.get(t, 0), chats.get(t, 0), closed[t]) for t in closed}

    def tables_since(self, created: float) -> list[TableRow]:
        """The tables made from time `created` on (but the broken and closed ones)."""
        kept = _TABLES.c.broken.is_(None) & _TABLES.c.closed.is_(None)
        with self.engine.connect() as db:
            query = select(_TABLES).where(kept & (_TABLES.c.created >= created))
            return [_table_row(r) for r in db.execute(query.order_by(_TABLES.c.created))]


def _seats(db: Connection, table_id: str) -> list[SeatRow]:
    query = select(_SEATS).where(_SEATS.c.table_id == table_id).order_by(_SEATS.c.seat)
    rows = db.execute(query).all()
    return [SeatRow(r.seat, r.bot, r.name, r.token_hash, bool(r.replaced)) for r in rows]


def _entries(db: Connection, table_id: str, since: int) -> list[EntryRow]:
    mine = (_ENTRIES.c.table_id == table_id) & (_ENTRIES.c.seq >= since)
    rows = db.execute(select(_ENTRIES).where(mine).order_by(_ENTRIES.c.seq)).all()
    return [
        EntryRow(r.seq, r.actor, r.action, r.key, json.loads(r.args) if r.args else {})
        for r in rows
    ]


def _counts(db: Any, number: Any, table_ids: list[str]) -> dict[str, int]:
    """One more than the highest `number` (a column numbered from 0) of each table."""
    table_id = number.table.c.table_id
    query = select(table_id, func.max(number)).where(table_id.in_(table_ids)).group_by(table_id)
    return {row[0]: row[1] + 1 for row in db.execute(query)}


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


def _parse(url: str) -> URL:
    try:
        return make_url(url)
    except ArgumentError:
        raise StorageError(
            f"{url!r} is not a database URL; give one such as sqlite:///tables.sqlite3 or "
            "postgresql://user@host/database."
        ) from None


def _engine(url: URL, **options: Any) -> Engine:
    """The engine of `url` (nothing is connected yet); an unknown database or a driver that
    is not installed is a `StorageError`."""
    try:
        return create_engine(url, connect_args=_connect_args(url), **options)
    except ImportError as error:
        why = f"its driver is not installed ({error})"
    except SQLAlchemyError as error:
        why = _why(error)
    raise StorageError(f"The database {_shown(url)} cannot be used: {why}")


def _connect_args(url: URL) -> dict[str, Any]:
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


def _sqlite_path(database: str | None) -> Path | None:
    """The file of an SQLite database; None for one in memory or named by a `file:` URI."""
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def _check_sqlite_file(database: str | None) -> None:
    """Refuse an SQLite file that is empty or is no SQLite database at all."""
    path = _sqlite_path(database)
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


def schema_revisions(url: str) -> tuple[str | None, str]:
    """The revision the database at `url` is at (None: empty or not there yet) and the newest
    this spieltisch knows, found without changing anything."""
    parsed = _parse(url)
    if parsed.get_backend_name() == "sqlite":
        _check_sqlite_file(parsed.database)
        path = _sqlite_path(parsed.database)
        if path is not None and not path.exists():
            return None, migrate.head()
    engine = _engine(parsed)
    try:
        with engine.connect() as db:
            return _found_revision(db), migrate.head()
    except SQLAlchemyError as error:
        raise _cannot_use(parsed, error) from None
    finally:
        engine.dispose()


_UPGRADE_LOCK = 0x7370_6965_6C74_6973  # "spieltis": the advisory lock of schema upgrades


def _hold_off_other_upgrades(db: Connection) -> None:
    """Make other servers opening the database wait until this transaction ends, so only one
    of them upgrades it: PostgreSQL's advisory lock, or SQLite's write lock taken at once."""
    dialect = db.dialect.name
    if dialect == "postgresql":
        # a migration may take long, and the others wait for it: no statement or lock bound
        db.exec_driver_sql("SET LOCAL statement_timeout = 0")
        db.exec_driver_sql("SET LOCAL lock_timeout = 0")
        db.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _UPGRADE_LOCK})
    elif dialect == "sqlite":
        # the sqlite3 module would not begin a transaction before DDL; this one holds it all
        db.exec_driver_sql("BEGIN IMMEDIATE")


def _refuse_damaged(db: Connection) -> None:
    """Refuse an SQLite file that SQLite itself finds damaged (its quick check: every page
    and row readable, the indexes in order; it reads the whole file once)."""
    if db.dialect.name != "sqlite":
        return
    try:
        said = [str(row[0]) for row in db.exec_driver_sql("PRAGMA quick_check(3)")]
    except SQLAlchemyError as error:
        said = [_why(error)]
    if said != ["ok"]:
        raise StorageError(
            f"The database {db.engine.url.database} is damaged (SQLite's check says: "
            f"{' '.join('; '.join(said).split())}). Start from a backup of it, or move it "
            "aside to start empty."
        )


def _found_revision(db: Connection) -> str | None:
    """The revision the database is at: Alembic's stamp, or for a database written before
    the migrations the revision named by `meta`'s version (no `meta`: schema 1). None for an
    empty database; another program's tables are refused."""
    found = set(inspect(db).get_table_names())
    if not found:
        return None
    _refuse_foreign(found)
    stamped = migrate.stamped(db) if "alembic_version" in found else ()
    if len(stamped) > 1:
        raise _newer(" and ".join(stamped))
    if stamped:
        return stamped[0]
    if "meta" not in found:
        return "0001"
    with_version = select(_SCHEMA.c.value).where(_SCHEMA.c.key == "version")
    version = db.execute(with_version).scalar()
    return "0001" if version is None else _revision_of_version(version)


def _revision_of_version(version: str) -> str:
    """`meta`'s version 2 is revision 0002; anything else is taken as it is."""
    return f"{int(version):04d}" if version.isdigit() else version


def _refuse_foreign(found: set[str]) -> None:
    ours = {"tables", "seats", "entries", "chat"}
    if not ours <= found:
        strange = sorted(found - ours - {"meta", "alembic_version"}) or sorted(found)
        raise StorageError(
            f"The database holds tables that are not spieltisch's ({', '.join(strange)}); "
            "give spieltisch a database of its own."
        )


def _refuse_unknown(revision: str) -> None:
    if not migrate.known(revision):
        raise _newer(revision)


def _newer(revision: str) -> StorageError:
    return StorageError(
        f"The database was written by a newer spieltisch (schema {revision}; this one knows "
        f"up to {migrate.head()}); run the newer version or use another database."
    )


def _prove_writable(db: Connection) -> None:
    """A write that changes nothing: a database this server cannot write fails here, at start."""
    db.execute(text("UPDATE alembic_version SET version_num = version_num"))


def _cannot_use(url: URL, error: SQLAlchemyError) -> StorageError:
    return StorageError(f"The database {_shown(url)} cannot be used: {_why(error)}")


def _shown(url: URL) -> str:
    if url.get_backend_name() == "sqlite" and url.database:
        return url.database
    return url.render_as_string(hide_password=True)


def _why(error: SQLAlchemyError) -> str:
    """The database's own words, without SQLAlchemy's statement dump and link."""
    original = getattr(error, "orig", None)
    said = str(original if original is not None else error).strip().splitlines()
    reason = said[0] if said else type(error).__name__
    if "readonly" in reason or "read-only" in reason:
        return f"{reason}. Give the server a database it can write to."
    return reason


def _table_row(r: Any) -> TableRow:
    return TableRow(
        r.id,
        r.game,
        json.loads(r.options),
        r.seed,
        r.clock,
        r.created,
        r.secret,
        bool(r.seeded),
        r.pace or "normal",
    )


def _entry_values(table_id: str, entry: EntryRow) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "seq": entry.seq,
        "actor": entry.actor,
        "action": entry.action,
        "key": entry.key,
        "args": json.dumps(entry.args) if entry.args else None,
    }


def _seat_values(seat: SeatRow) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "bot": seat.bot,
        "name": seat.name,
        "token_hash": seat.token_hash,
        "replaced": seat.replaced,
    }
