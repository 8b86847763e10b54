"""The one loading path of stored tables: whatever fails while one table is read (bad JSON,
text that is not UTF-8, a move the rules refuse) marks that table broken, and the others
start; the same holds for a table another worker made. A table is read as it was at one
moment, whatever another worker stores meanwhile."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

from spieltisch.server import store as store_module
from spieltisch.server.clock import ManualClock
from spieltisch.server.lobby import Lobby, SeatSpec
from spieltisch.server.store import SeatRow, Store
from tests.server.database import db_url
from tests.server.helpers import threads


def three_tables(url: str) -> list[str]:
    async def make() -> list[str]:
        lobby = Lobby(Store(url), clock=ManualClock(), executor=threads())
        seats = [SeatSpec(), SeatSpec()]
        made = [await lobby.create("pickomino", {}, seats, seed=n) for n in range(3)]
        lobby.storage.close()
        lobby.store.close()
        return [table.id for table in made]

    return asyncio.run(make())


def spoil(path: Path, bad_json: str, bad_text: str) -> None:
    with sqlite3.connect(path) as db:
        db.execute("UPDATE tables SET options = '{not json' WHERE id = ?", (bad_json,))
        db.execute("UPDATE seats SET name = CAST(X'41FF' AS TEXT) WHERE table_id = ?", (bad_text,))


def test_tables_that_cannot_be_read_are_broken_and_the_others_start(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    bad_json, bad_text, good = three_tables(f"sqlite:///{path}")
    spoil(path, bad_json, bad_text)
    lobby = Lobby(Store(f"sqlite:///{path}"), clock=ManualClock(), executor=threads())
    lobby.load()
    assert set(lobby.tables) == {good}
    assert set(lobby.broken) == {bad_json, bad_text}
    assert "JSON" in lobby.broken[bad_json] or "Expecting" in lobby.broken[bad_json]
    assert lobby.store.broken().keys() == {bad_json, bad_text}  # kept aside for repair
    lobby.store.close()


def test_a_table_of_another_worker_that_cannot_be_read_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    lobby = Lobby(Store(f"sqlite:///{path}"), clock=ManualClock(), executor=threads())
    lobby.load()
    bad_json, bad_text, good = three_tables(f"sqlite:///{path}")  # made by another worker
    spoil(path, bad_json, bad_text)
    for table_id in (bad_json, bad_text, good):
        asyncio.run(lobby.keeper.add_stored(table_id))
    assert set(lobby.tables) == {good}
    assert set(lobby.broken) == {bad_json, bad_text}
    assert lobby.store.broken() == {}  # that worker may be able to load them
    lobby.store.close()


def test_a_table_is_read_as_it_was_at_one_moment(tmp_path: Path, monkeypatch: Any) -> None:
    """A join another worker stores between the reads of a table's seats and of its entries
    is either in both or in neither: never a table whose log has the join while its seat is
    still open (that table would never start)."""
    url = db_url(tmp_path, "moment")

    async def two_tables() -> tuple[str, str]:
        lobby = Lobby(Store(url), clock=ManualClock(), executor=threads())
        seats = [SeatSpec(), SeatSpec()]
        whole, half = [await lobby.create("pickomino", {}, seats, seed=1) for _ in range(2)]
        for table, joins in ((whole, 2), (half, 1)):
            for seat in range(joins):
                await lobby.join(table.id, seat, "Ada" if seat == 0 else "Bea")
        await lobby.close()
        lobby.store.close()
        return whole.id, half.id

    whole, half = asyncio.run(two_tables())
    store, other = Store(url), Store(url)
    seats, entries = store.snapshot(whole)
    second_join = (half, entries[-1], seats[1])  # the same join, as the other worker stores it
    read_seats = store_module._seats

    def seats_then_a_join(db: Any, table_id: str) -> list[SeatRow]:
        found = read_seats(db, table_id)
        if table_id == half:
            other.add_entries([second_join])
        return found

    monkeypatch.setattr(store_module, "_seats", seats_then_a_join)
    seats, entries = store.snapshot(half)
    assert len(entries) == 1 and seats[1].name is None  # as it was before the join
    monkeypatch.undo()
    seats, entries = store.snapshot(half)
    assert len(entries) == 2 and seats[1].name == "Bea"
    store.close()
    other.close()
