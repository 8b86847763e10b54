"""Bot turns and turn clocks survive a storage outage: the failure is logged, the work is
tried again after a back-off, and once the store takes writes again the table goes on by
itself. Time runs on a `ManualClock`, so the test says when each back-off is over."""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from spieltisch.server.clock import ManualClock
from spieltisch.server.lobby import Lobby, SeatSpec
from spieltisch.server.store import EntryRow, Store
from spieltisch.server.table import TableError
from tests.server.database import db_url
from tests.server.helpers import threads
from tests.support.waits import until


class FlakyStore(Store):
    """A store whose writes fail (as on a full disk) while `failing` is set."""

    failing = False
    refused = 0

    def add_entries(self, rows: Any, ends: Any = ()) -> None:
        if self.failing:
            self.refused += 1
            raise OSError("disk full")
        super().add_entries(rows, ends)


def refused_and_waiting(store: FlakyStore, clock: ManualClock, refusals: int) -> bool:
    return store.refused >= refusals and clock.sleeping() > 0


async def outage(store: FlakyStore, clock: ManualClock, refusals: int) -> None:
    """Keep the store failing through `refusals` refused saves (each retry backs off), then
    let it work again and wake the waiting retry."""
    for count in range(1, refusals + 1):
        await until(partial(refused_and_waiting, store, clock, count))
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
        table = await lobby.create(
            "pickomino", {}, [SeatSpec("greedy"), SeatSpec("greedy")], seed=9
        )
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
        table = await lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()], clock=30, seed=9)
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


class DownStore(FlakyStore):
    """A store whose database is gone while `failing` is set: reads fail too."""

    def entries(self, table_id: str, since: int = 0) -> list[EntryRow]:
        if self.failing:
            raise OSError("the database is unreachable")
        return super().entries(table_id, since)

    def snapshot(self, table_id: str, since: int = 0) -> Any:
        if self.failing:
            raise OSError("the database is unreachable")
        return super().snapshot(table_id, since)


def gapless(store: Store, table_id: str) -> bool:
    return [e.seq for e in store.entries(table_id)] == list(range(len(store.entries(table_id))))


def test_a_table_is_unavailable_while_storage_is_down_and_goes_on_after(tmp_path: Path) -> None:
    async def main() -> None:
        store, clock = DownStore(db_url(tmp_path, "down")), ManualClock()
        lobby = Lobby(store, 0.0, clock, executor=threads())
        people = await lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()], seed=4)
        bots = await lobby.create("pickomino", {}, [SeatSpec("greedy"), SeatSpec("greedy")], seed=5)
        await lobby.join(people.id, None, "Ada")
        await lobby.join(people.id, None, "Bea")
        table = lobby.tables[people.id]
        store.failing = True
        legal = table.game.legal_actions(table.state)
        with pytest.raises(TableError) as refused:
            await lobby.act(people.id, 0, table.game.format_action(legal[0]), table.version)
        assert refused.value.code == "not_saved"
        with pytest.raises(TableError) as down:
            lobby.get(people.id)
        assert down.value.code == "unavailable"
        await until(lambda: bots.id in lobby.unavailable)  # its bot's move failed the same way
        store.failing = False
        for _ in range(3):  # the recovery backs off: move the clock past each wait
            clock.advance(Lobby.retry_most)
            await asyncio.sleep(0.05)
        await until(lambda: people.id in lobby.tables and bots.id in lobby.tables)
        await until(lambda: lobby.tables[bots.id].over)
        back = lobby.tables[people.id]
        assert back.version == len(store.entries(people.id))  # memory never ran ahead
        await lobby.act(people.id, 0, back.game.format_action(legal[0]), back.version)
        assert gapless(store, people.id) and gapless(store, bots.id)
        await lobby.close()
        store.close()

    asyncio.run(main())


def test_a_table_back_from_an_outage_keeps_its_turn_clock(tmp_path: Path) -> None:
    async def main() -> tuple[float | None, float | None]:
        store, clock = DownStore(db_url(tmp_path, "clocked")), ManualClock()
        lobby = Lobby(store, 0.0, clock, executor=threads())
        made = await lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()], clock=60.0, seed=4)
        await lobby.join(made.id, None, "Ada")
        await lobby.join(made.id, None, "Bea")
        before = lobby.timers[made.id].deadline
        table = lobby.tables[made.id]
        store.failing = True
        legal = table.game.legal_actions(table.state)
        with pytest.raises(TableError):
            await lobby.act(made.id, 0, table.game.format_action(legal[0]), table.version)
        assert made.id in lobby.unavailable and made.id not in lobby.timers
        store.failing = False
        clock.advance(Lobby.retry_first)
        await until(lambda: made.id in lobby.tables)
        after = lobby.timers[made.id].deadline
        await lobby.close()
        store.close()
        return before, after

    before, after = asyncio.run(main())
    assert before is not None and after == before  # Ada's clock went on, not started over
