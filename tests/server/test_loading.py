"""The one loading path of stored tables: whatever fails while one table is read (bad JSON,
text that is not UTF-8, a move the rules refuse) marks that table broken, and the others
start; the same holds for a table another worker made."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from spieltisch.server.clock import ManualClock
from spieltisch.server.lobby import Lobby, SeatSpec
from spieltisch.server.store import Store
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
