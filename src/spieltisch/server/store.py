"""Storage of tables through SQLAlchemy: SQLite by default, any SQLAlchemy URL otherwise.

A table is its setup (game, options, seed, seats) plus an append-only list of entries: every
action (chance outcomes included) and every event (a join, a leave, a timeout). The live
state is rebuilt by replaying the actions, so nothing but these rows needs to survive.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, make_url

__all__ = ["ChatRow", "EntryRow", "SeatRow", "Store", "TableRow", "default_url"]

_META = MetaData()

_TABLES = Table(
    "tables",
    _META,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", Integer, nullable=False),
    Column("clock", Float, nullable=True),
    Column("created", Float, nullable=False),
    Column("pace", String(16), nullable=True),  # bot pace; added later, so NULL on old rows
)

_SEATS = Table(
    "seats",
    _META,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("bot", String(128), nullable=True),
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
    id: str
    game: str
    options: dict[str, Any]
    seed: int
    clock: float | None
    created: float
    pace: str = "normal"  # how long bots pause before each move: instant, normal, slow


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


def default_url(data_dir: Path) -> str:
    """The SQLite file in `data_dir` (created when missing)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(data_dir / 'spieltisch.sqlite3').resolve()}"


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # durable against a killed process
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


class Store:
    """Every write is committed before the call returns."""

    def __init__(self, url: str) -> None:
        parsed: URL = make_url(url)
        self.engine: Engine = create_engine(parsed)
        if parsed.get_backend_name() == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        _META.create_all(self.engine)
        _add_pace_column(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # --- writes ---------------------------------------------------------------------------
    def add_table(self, row: TableRow, seats: list[SeatRow]) -> None:
        with self.engine.begin() as db:
            db.execute(
                insert(_TABLES).values(
                    id=row.id,
                    game=row.game,
                    options=json.dumps(row.options),
                    seed=row.seed,
                    clock=row.clock,
                    created=row.created,
                    pace=row.pace,
                )
            )
            for seat in seats:
                db.execute(insert(_SEATS).values(table_id=row.id, **_seat_values(seat)))

    def set_seat(self, table_id: str, seat: SeatRow) -> None:
        with self.engine.begin() as db:
            db.execute(
                update(_SEATS)
                .where(_SEATS.c.table_id == table_id, _SEATS.c.seat == seat.seat)
                .values(**_seat_values(seat))
            )

    def add_entries(self, batch: list[tuple[str, EntryRow, SeatRow | None]]) -> None:
        """Append entries of any tables (with the seat each changes) in one transaction."""
        if not batch:
            return
        rows = [
            {
                "table_id": table_id,
                "seq": entry.seq,
                "actor": entry.actor,
                "action": entry.action,
                "key": entry.key,
                "args": json.dumps(entry.args) if entry.args else None,
            }
            for table_id, entry, _ in batch
        ]
        with self.engine.begin() as db:
            db.execute(insert(_ENTRIES), rows)
            for table_id, _, seat in batch:
                if seat is not None:
                    db.execute(
                        update(_SEATS)
                        .where(_SEATS.c.table_id == table_id, _SEATS.c.seat == seat.seat)
                        .values(**_seat_values(seat))
                    )

    def add_chat(self, table_id: str, line: ChatRow) -> None:
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
        with self.engine.connect() as db:
            rows = db.execute(select(_TABLES).order_by(_TABLES.c.created)).all()
        return [
            TableRow(
                r.id, r.game, json.loads(r.options), r.seed, r.clock, r.created, r.pace or "normal"
            )
            for r in rows
        ]

    def seats(self, table_id: str) -> list[SeatRow]:
        with self.engine.connect() as db:
            rows = db.execute(
                select(_SEATS).where(_SEATS.c.table_id == table_id).order_by(_SEATS.c.seat)
            ).all()
        return [SeatRow(r.seat, r.bot, r.name, r.token_hash, bool(r.replaced)) for r in rows]

    def entries(self, table_id: str) -> list[EntryRow]:
        with self.engine.connect() as db:
            rows = db.execute(
                select(_ENTRIES).where(_ENTRIES.c.table_id == table_id).order_by(_ENTRIES.c.seq)
            ).all()
        return [
            EntryRow(r.seq, r.actor, r.action, r.key, json.loads(r.args) if r.args else {})
            for r in rows
        ]


def _add_pace_column(engine: Engine) -> None:
    """A database made before tables had a bot pace gets the column (its tables: normal)."""
    if "pace" not in {c["name"] for c in inspect(engine).get_columns("tables")}:
        with engine.begin() as db:
            db.execute(text("ALTER TABLE tables ADD COLUMN pace VARCHAR(16)"))


def _seat_values(seat: SeatRow) -> dict[str, Any]:
    return {
        "seat": seat.seat,
        "bot": seat.bot,
        "name": seat.name,
        "token_hash": seat.token_hash,
        "replaced": seat.replaced,
    }
