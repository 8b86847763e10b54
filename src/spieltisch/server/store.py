"""Storage of tables through SQLAlchemy: SQLite by default, any SQLAlchemy URL otherwise.

A table is its setup (game, options, seed, seats) plus an append-only list of entries: every
action (chance outcomes included) and every event (a join, a leave, a timeout). The live
state is rebuilt by replaying the actions, so nothing but these rows needs to survive.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Sequence
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from spieltisch.server import migrate
from spieltisch.server.database import (
    SQLITE_UPGRADE_BUSY_MS,
    cannot_use,
    check_sqlite_file,
    damaged,
    default_url,
    make_engine,
    parse,
    shown_url,
    sqlite_path,
    sqlite_pragmas,
    why,
)
from spieltisch.server.rated import RatedEnd, count_end
from spieltisch.server.schema import (
    CHAT,
    DEADLINES,
    ENTRIES,
    MAX_BOT_SPEC,
    META,
    SCHEMA_VERSION,
    SEATS,
    TABLES,
    ChatRow,
    EntryRow,
    SeatRow,
    StorageError,
    TableRow,
)

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


class Store:
    """Every write is committed before the call returns. Opening checks the database: a file
    that is empty or not a database, tables of another program, a schema newer than this
    version or a database that cannot be written are refused with a `StorageError`; an
    older schema is brought up to date by the migrations (`migrate`), all in one transaction
    that other servers starting at the same time wait for.

    `found_revision` is the schema the database had when it was opened (None: it was empty)."""

    def __init__(self, url: str) -> None:
        parsed = parse(url)
        if parsed.get_backend_name() == "sqlite":
            check_sqlite_file(parsed.database)
        # a pooled connection is checked before use: one broken by a database restart is
        # replaced instead of failing the next move
        self.engine: Engine = make_engine(parsed, pool_pre_ping=True)
        if parsed.get_backend_name() == "sqlite":
            event.listen(self.engine, "connect", sqlite_pragmas)
        try:
            self.found_revision = self._open()
        except SQLAlchemyError as error:
            self.engine.dispose()
            raise cannot_use(parsed, error) from None
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
        if self.engine.dialect.name == "sqlite":
            self.engine.dispose()  # the upgrade's long busy wait leaves with its connection
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
            found = db.execute(select(META.c.value).where(META.c.key == "site")).scalar()
        if found is not None:
            return str(found)
        with contextlib.suppress(IntegrityError), self.engine.begin() as db:
            db.execute(insert(META).values(key="site", value=secrets.token_hex(8)))
        return self.site_key()  # ours, or another worker's that came first

    def close(self) -> None:
        self.engine.dispose()

    # --- writes ---------------------------------------------------------------------------
    def add_table(self, row: TableRow, seats: list[SeatRow], entries: list[EntryRow]) -> None:
        """A new table with its seats and first entries (its first dice), in one go."""
        with self.engine.begin() as db:
            db.execute(
                insert(TABLES).values(
                    id=row.id,
                    game=row.game,
                    options=json.dumps(row.options),
                    seed=row.seed,
                    clock=row.clock,
                    created=row.created,
                    secret=row.secret,
                    seeded=row.seeded,
                    pace=row.pace,
                    rated=row.rated,
                )
            )
            for seat in seats:
                db.execute(insert(SEATS).values(table_id=row.id, **_seat_values(seat)))
            if entries:
                db.execute(insert(ENTRIES).values([_entry_values(row.id, e) for e in entries]))

    def add_entries(
        self, batch: list[tuple[str, EntryRow, SeatRow | None]], ends: Sequence[RatedEnd] = ()
    ) -> None:
        """Append entries of any tables (with the seat each changes) in one transaction, with
        the rated games they end counted into the ratings (`server.rated`). An entry whose
        (table, seq) is taken, stored meanwhile by another worker, fails it all with
        SQLAlchemy's `IntegrityError`: of two workers, only one stores a version."""
        if not batch:
            return
        rows = [_entry_values(table_id, entry) for table_id, entry, _ in batch]
        with self.engine.begin() as db:
            # one statement of many rows, not executemany: quicker, and on PostgreSQL a
            # version taken by another worker fails it plainly (no pipeline to abort)
            db.execute(insert(ENTRIES).values(rows))
            for table_id, _, seat in batch:
                if seat is not None:
                    db.execute(
                        update(SEATS)
                        .where(SEATS.c.table_id == table_id, SEATS.c.seat == seat.seat)
                        .values(**_seat_values(seat))
                    )
            for end in ends:
                count_end(db, end)

    def add_chat(self, table_id: str, line: ChatRow) -> None:
        """Store a chat line; `IntegrityError` when its number was taken meanwhile."""
        with self.engine.begin() as db:
            db.execute(
                insert(CHAT).values(
                    table_id=table_id, n=line.n, seat=line.seat, name=line.name, text=line.text
                )
            )

    # --- reads ----------------------------------------------------------------------------
    def chat(self, table_id: str, last: int) -> list[ChatRow]:
        """The table's `last` chat lines, oldest first."""
        with self.engine.connect() as db:
            rows = db.execute(
                select(CHAT)
                .where(CHAT.c.table_id == table_id)
                .order_by(CHAT.c.n.desc())
                .limit(last)
            ).all()
        return [ChatRow(r.n, r.seat, r.name, r.text) for r in reversed(rows)]

    def tables(self) -> list[TableRow]:
        """Every table but the broken and the closed ones, oldest first."""
        kept = TABLES.c.broken.is_(None) & TABLES.c.closed.is_(None)
        with self.engine.connect() as db:
            query = select(TABLES).where(kept).order_by(TABLES.c.created)
            return [_table_row(r) for r in db.execute(query)]

    def table_ids(self) -> list[str]:
        """Every table but the broken and the closed ones, oldest first (only the ids: a
        table whose row cannot be read fails when it is read, not the whole list)."""
        return self._ids(TABLES.c.created.isnot(None))

    def table_ids_since(self, created: float) -> list[str]:
        """The tables made from time `created` on (but the broken and closed ones)."""
        return self._ids(TABLES.c.created >= created)

    def _ids(self, which: Any) -> list[str]:
        kept = TABLES.c.broken.is_(None) & TABLES.c.closed.is_(None)
        with self.engine.connect() as db:
            query = select(TABLES.c.id).where(kept & which).order_by(TABLES.c.created)
            return [r.id for r in db.execute(query)]

    def readable(self) -> bool:
        """Whether the database answers a query now."""
        try:
            with self.engine.connect() as db:
                db.execute(select(META.c.key).limit(1))
        except SQLAlchemyError:
            return False
        return True

    def table(self, table_id: str) -> TableRow | None:
        """One table's setup (broken or closed ones too), or None."""
        with self.engine.connect() as db:
            found = db.execute(select(TABLES).where(TABLES.c.id == table_id)).first()
        return None if found is None else _table_row(found)

    def broken(self) -> dict[str, str]:
        """The tables marked broken, with the reason each could not be loaded."""
        with self.engine.connect() as db:
            query = select(TABLES.c.id, TABLES.c.broken).where(TABLES.c.broken.isnot(None))
            return {r.id: r.broken for r in db.execute(query)}

    def closed(self) -> set[str]:
        """The tables closed unfinished."""
        with self.engine.connect() as db:
            query = select(TABLES.c.id).where(TABLES.c.closed.isnot(None))
            return {r.id for r in db.execute(query)}

    def mark_closed(self, table_id: str, when: float) -> None:
        with self.engine.begin() as db:
            db.execute(update(TABLES).where(TABLES.c.id == table_id).values(closed=when))

    def mark_broken(self, table_id: str, reason: str) -> None:
        """Keep a table that cannot be loaded out of the way (its rows stay, for repair)."""
        with self.engine.begin() as db:
            db.execute(update(TABLES).where(TABLES.c.id == table_id).values(broken=reason))

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
                if db.dialect.name == "sqlite":  # its driver begins only before a write
                    db.exec_driver_sql("BEGIN")
                return _seats(db, table_id), _entries(db, table_id, since)

    def progress(self, table_ids: list[str]) -> dict[str, tuple[int, int, bool]]:
        """Of each of the tables: its version, how many chat lines it has, and whether it
        was closed (what another worker may have changed)."""
        if not table_ids:
            return {}
        with self.engine.connect() as db:
            ours = TABLES.c.id.in_(table_ids)
            closed = {r.id: r.closed is not None for r in db.execute(select(TABLES).where(ours))}
            versions = _counts(db, ENTRIES.c.seq, table_ids)
            chats = _counts(db, CHAT.c.n, table_ids)
        return {t: (versions.get(t, 0), chats.get(t, 0), closed[t]) for t in closed}

    # --- deadlines (turn clocks and catch windows that run on after a restart) --------------
    def set_deadline(
        self, table_id: str, kind: str, seat: int, due: float, data: str | None = None
    ) -> None:
        """Keep when `seat`'s time of `kind` at the table runs out, with what else it needs
        (`data`, JSON), replacing the last."""
        with self.engine.begin() as db:
            mine = (DEADLINES.c.table_id == table_id) & (DEADLINES.c.kind == kind)
            db.execute(delete(DEADLINES).where(mine))
            row = {"table_id": table_id, "kind": kind, "seat": seat, "due": due, "data": data}
            db.execute(insert(DEADLINES).values(**row))

    def drop_deadline(self, table_id: str, kind: str) -> None:
        with self.engine.begin() as db:
            mine = (DEADLINES.c.table_id == table_id) & (DEADLINES.c.kind == kind)
            db.execute(delete(DEADLINES).where(mine))

    def deadlines(self, kind: str, table_id: str | None = None) -> dict[str, tuple[int, float]]:
        """Each table's (or one table's) stored deadline of `kind`: the seat and when it runs
        out."""
        query = select(DEADLINES).where(DEADLINES.c.kind == kind)
        if table_id is not None:
            query = query.where(DEADLINES.c.table_id == table_id)
        with self.engine.connect() as db:
            rows = db.execute(query)
            return {r.table_id: (r.seat, r.due) for r in rows}

    def deadline_data(self, kind: str, table_id: str | None = None) -> dict[str, str]:
        """Each table's (or one table's) data stored with its deadline of `kind`."""
        mine = (DEADLINES.c.kind == kind) & DEADLINES.c.data.is_not(None)
        if table_id is not None:
            mine &= DEADLINES.c.table_id == table_id
        with self.engine.connect() as db:
            rows = db.execute(select(DEADLINES.c.table_id, DEADLINES.c.data).where(mine))
            return {r.table_id: r.data for r in rows}


def _seats(db: Connection, table_id: str) -> list[SeatRow]:
    query = select(SEATS).where(SEATS.c.table_id == table_id).order_by(SEATS.c.seat)
    rows = db.execute(query).all()
    return [
        SeatRow(r.seat, r.bot, r.name, r.token_hash, bool(r.replaced), r.account_id) for r in rows
    ]


def _entries(db: Connection, table_id: str, since: int) -> list[EntryRow]:
    mine = (ENTRIES.c.table_id == table_id) & (ENTRIES.c.seq >= since)
    rows = db.execute(select(ENTRIES).where(mine).order_by(ENTRIES.c.seq)).all()
    return [
        EntryRow(r.seq, r.actor, r.action, r.key, json.loads(r.args) if r.args else {})
        for r in rows
    ]


def _counts(db: Any, number: Any, table_ids: list[str]) -> dict[str, int]:
    """One more than the highest `number` (a column numbered from 0) of each table."""
    table_id = number.table.c.table_id
    query = select(table_id, func.max(number)).where(table_id.in_(table_ids)).group_by(table_id)
    return {row[0]: row[1] + 1 for row in db.execute(query)}


def schema_revisions(url: str) -> tuple[str | None, str]:
    """The revision the database at `url` is at (None: empty or not there yet) and the newest
    this spieltisch knows, found without changing anything."""
    parsed = parse(url)
    if parsed.get_backend_name() == "sqlite":
        check_sqlite_file(parsed.database)
        path = sqlite_path(parsed.database)
        if path is not None and not path.exists():
            return None, migrate.head()
    engine = make_engine(parsed)
    try:
        with engine.connect() as db:
            return _found_revision(db), migrate.head()
    except SQLAlchemyError as error:
        raise cannot_use(parsed, error) from None
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
        db.exec_driver_sql(f"PRAGMA busy_timeout={SQLITE_UPGRADE_BUSY_MS}")
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
        said = [why(error)]
    if said != ["ok"]:
        raise damaged(str(db.engine.url.database), "; ".join(said))


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
    with_version = select(META.c.value).where(META.c.key == "version")
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
        bool(r.rated),
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
        "account_id": seat.account_id,
        "last_seen": None,  # a seat that changes hands: its new player has not been seen
    }
