"""An SQLite file that SQLite finds damaged is refused at start with one line, whatever part
of it is damaged; the server never starts on it, and never stops with a traceback."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from spieltisch.server.store import EntryRow, SeatRow, StorageError, Store, TableRow
from tests.server.test_startup_checks import serve_refused

DAMAGE = 4000
"""Random bytes written over the file, as a failing disk or a stray program might."""


def tables_file(path: Path) -> bytes:
    """An SQLite file of 200 tables, each with a seat and an entry; its bytes."""
    store = Store(f"sqlite:///{path}")
    seats = [SeatRow(0, None, None, None), SeatRow(1, "greedy", None, None)]
    for n in range(200):
        row = TableRow(f"t{n}", "pickomino", {"players": 2}, n, None, 0.0)
        store.add_table(row, seats, [EntryRow(0, None, None, "joined", {"seat": 0})])
    store.close()
    for extra in ("-wal", "-shm"):
        path.with_name(path.name + extra).unlink(missing_ok=True)
    return path.read_bytes()


def damaged(good: bytes, offset: int) -> bytes:
    noise = random.Random(offset).randbytes(DAMAGE)
    return good[:offset] + noise + good[offset + DAMAGE :]


def test_damage_anywhere_is_refused_with_one_line(tmp_path: Path) -> None:
    good = tables_file(tmp_path / "good.sqlite3")
    assert len(good) > 12 * DAMAGE
    target = tmp_path / "damaged.sqlite3"
    for offset in range(4096, len(good) - DAMAGE, 8192):  # past the header, every 2 pages
        target.write_bytes(damaged(good, offset))
        with pytest.raises(StorageError) as refused:
            Store(f"sqlite:///{target}").close()
        said = str(refused.value)
        assert "is damaged" in said and "backup" in said, offset
        assert "\n" not in said
        target.with_name(target.name + "-wal").unlink(missing_ok=True)
        target.with_name(target.name + "-shm").unlink(missing_ok=True)


@pytest.mark.slow  # a real serve process
def test_serve_refuses_a_damaged_file(tmp_path: Path) -> None:
    good = tables_file(tmp_path / "spieltisch.sqlite3")
    (tmp_path / "spieltisch.sqlite3").write_bytes(damaged(good, 12288))
    said = serve_refused("--data-dir", str(tmp_path))
    assert "is damaged" in said
    assert len(said.strip().splitlines()) == 1
