"""Bot turns and turn clocks survive a storage outage: the failure is logged, the work is
tried again after a back-off, and once the store takes writes again the table goes on by
itself. Time runs on a `ManualClock`, so the test says when each back-off is over."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from spieltisch.server.clock import ManualClock
from spieltisch.server.lobby import Lobby, SeatSpec
from spieltisch.server.store import Store
from tests.server.database import db_url
from tests.server.helpers import threads

LIVENESS = 60.0  # seconds: only a stuck table takes this long


class FlakyStore(Store):
    """A store whose writes fail (as on a full disk) while `failing` is set."""

    failing = False
    refused = 0

    def add_entries(self, rows: Any) -> None:
        if self.failing:
            self.refused += 1
            raise OSError("disk full")
        super().add_entries(rows)


async def until(check: Callable[[], bool]) -> None:
    end = time.monotonic() + LIVENESS
    while not check():
        assert time.monotonic() < end, "the table never got there"
        await asyncio.sleep(0.01)


async def outage(store: FlakyStore, clock: ManualClock, refusals: int) -> None:
    """Keep the store failing through `refusals` refused saves (each retry backs off), then
    let it work again and wake the waiting retry."""
    for count in range(1, refusals + 1):
        await until(lambda n=count: store.refused >= n and clock.sleeping() > 0)
        if count < refusals:
            clock.advance(Lobby.retry_most)
    store.failing = False
    clock.advance(Lobby.retry_most)


def lobby_on(path: Path) -> tuple[Lobby, FlakyStore, ManualClock]:
    store = FlakyStore(db_url(path, "flaky"))
    clock = ManualClock()
    return Lobby(store, 0.0, clock, executor=threads()), store, clock


def test_a_bot_table_goes_on_by_itself_when_storage_is_back(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def main() -> tuple[bool, int, int]:
        lobby, store, clock = lobby_on(tmp_path)
        table = lobby.create("pickomino", {}, [SeatSpec("greedy"), SeatSpec("greedy")], seed=9)
        store.failing = True
        await outage(store, clock, refusals=3)
        await until(lambda: lobby.tables[table.id].over)
        await lobby.close()
        stored = len(store.entries(table.id))
        store.close()
        return lobby.tables[table.id].over, lobby.tables[table.id].version, stored

    with caplog.at_level(logging.ERROR, "spieltisch.server"):
        over, version, stored = asyncio.run(main())
    assert over and stored == version  # everything played was stored, nothing twice
    assert caplog.text.count("bot turn failed") >= 3


def test_a_turn_clock_plays_the_turn_once_storage_is_back(tmp_path: Path) -> None:
    async def main() -> tuple[int | None, list[str | None]]:
        lobby, store, clock = lobby_on(tmp_path)
        table = lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()], clock=30, seed=9)
        await lobby.join(table.id, None, "Ada")
        await lobby.join(table.id, None, "Bea")
        await until(lambda: clock.sleeping() > 0)  # Ada's clock runs
        store.failing = True
        clock.advance(30)
        await outage(store, clock, refusals=2)
        await until(lambda: lobby.tables[table.id].mover() == 1)
        keys = [e.key for e in lobby.tables[table.id].entries]
        mover = lobby.tables[table.id].mover()
        await lobby.close()
        store.close()
        return mover, keys

    mover, keys = asyncio.run(main())
    assert mover == 1  # Bea's turn: the stand-in played Ada's
    assert keys.count("timeout") == 1
