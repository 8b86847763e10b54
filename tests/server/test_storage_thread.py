"""Storage calls run beside the event loop, each within its bound."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from spieltisch.server.storage import Storage, StorageTimeout


def test_writes_run_in_order_and_return_their_results() -> None:
    done: list[int] = []

    def store(n: int) -> int:
        done.append(n)
        return n * n

    async def main() -> list[int]:
        storage = Storage()
        try:
            return list(await asyncio.gather(*(storage.write(store, n) for n in range(20))))
        finally:
            storage.close()

    assert asyncio.run(main()) == [n * n for n in range(20)]
    assert done == list(range(20))


def test_a_stuck_write_times_out_while_the_loop_answers_and_the_one_behind_never_runs() -> None:
    release = threading.Event()
    ran: list[str] = []

    def stuck() -> None:
        release.wait(10)
        ran.append("stuck")

    def behind() -> None:
        ran.append("behind")

    async def main() -> tuple[list[str], bool]:
        storage = Storage(write_bound=0.3)
        answered: list[str] = []

        async def other_table() -> None:
            await asyncio.sleep(0.01)
            answered.append("view")

        try:
            first = asyncio.ensure_future(storage.write(stuck))
            second = asyncio.ensure_future(storage.write(behind))
            await asyncio.gather(other_table(), asyncio.sleep(0))
            for waiting in (first, second):
                with pytest.raises(StorageTimeout, match=r"within 0.3 s"):
                    await waiting
            read = await storage.read(lambda: "a read does not wait behind the stuck write")
            return answered, read.startswith("a read")
        finally:
            release.set()
            storage.close()

    answered, read = asyncio.run(main())
    assert answered == ["view"] and read
    assert ran == ["stuck"]  # the write that timed out waiting its turn was dropped


def sqlite_with_table(path: Path) -> str:
    url = f"sqlite:///{path}"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE moves (n INTEGER)")
    return url


def hold_write_lock(path: Path, seconds: float, holding: threading.Event) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    holding.set()
    time.sleep(seconds)
    db.execute("ROLLBACK")
    db.close()


@pytest.mark.parametrize(("held", "stored"), [(0.4, True), (3.0, False)])
def test_a_write_that_finds_sqlite_locked_is_tried_again_within_its_bound(
    tmp_path: Path, held: float, stored: bool
) -> None:
    path = tmp_path / "locked.sqlite3"
    engine = create_engine(sqlite_with_table(path), connect_args={"timeout": 0.01})

    def add_move() -> None:
        with engine.begin() as db:
            db.execute(text("INSERT INTO moves VALUES (1)"))

    holding = threading.Event()
    holder = threading.Thread(target=hold_write_lock, args=(path, held, holding))
    holder.start()
    assert holding.wait(10)

    async def main() -> None:
        storage = Storage(write_bound=1.5)
        try:
            await storage.write(add_move)
        finally:
            storage.close()

    started = time.monotonic()
    if stored:
        asyncio.run(main())
    else:
        with pytest.raises((OperationalError, StorageTimeout)):
            asyncio.run(main())
        assert time.monotonic() - started < held  # gave up before the other process let go
    holder.join()
    with engine.connect() as db:
        assert db.execute(text("SELECT count(*) FROM moves")).scalar() == int(stored)
    engine.dispose()
