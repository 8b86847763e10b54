"""A person's open catch window at a site of two workers (see `test_site.py`): it is stored
with its motion, so a worker that takes the table over without having heard of the motion,
or a whole site started anew, keeps the window, and the person's catch counts."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from spieltisch.server.lobby import SeatSpec
from spieltisch.server.scheduler import CATCH
from spieltisch.server.settle import CatchTiming, CatchWindow
from spieltisch.server.store import EntryRow
from tests.server.database import db_url
from tests.server.proxy import CuttableProxy
from tests.server.sites import need_redis, site_prefix
from tests.server.test_riffraff_table import FALLING, OPTIONS
from tests.server.test_site import Worker, owner_of, site, started
from tests.support.waits import until

pytestmark = pytest.mark.workers

LONG_CATCH = CatchTiming(slow_motion=2.0, margin=120.0)
"""A catch window that outlasts a takeover on a busy machine."""


async def seated(worker: Worker, others: list[Worker]) -> str:
    """A Riff Raff table of Ada and Ben made through `worker`, which holds its lease; Ada is
    to place, and the `others` have the table."""
    table = await worker.lobby.create("riffraff", OPTIONS, [SeatSpec(), SeatSpec()], seed=5)
    await until(lambda: worker.site.owns(table.id), "the worker owns the table it made")
    await worker.lobby.join(table.id, 0, "Ada")
    await worker.lobby.join(table.id, 1, "Ben")
    for seat, card in ((0, "card 9"), (1, "card 1")):
        await worker.lobby.act(table.id, seat, card, worker.lobby.tables[table.id].version)
    for other in others:  # as a socket naming the table would, should its news be late
        await other.lobby.find(table.id)
    await until(lambda: all(started(o, table.id) for o in others), "the others have it")
    return table.id


async def place(worker: Worker, table_id: str) -> CatchWindow:
    """Ada's placement throws a piece off: her catch window is open and stored."""
    await worker.lobby.act(table_id, 0, FALLING, worker.lobby.tables[table_id].version)
    await until(lambda: worker.lobby.tables[table_id].window() is not None, "Ada's window")
    window = worker.lobby.tables[table_id].window()
    assert window is not None and window.seat == 0
    await until(lambda: table_id in worker.lobby.store.deadline_data(CATCH), "it is stored")
    return window


def taken_up(worker: Worker, table_id: str, version: int) -> bool:
    """Whether the worker runs the table's catch window, or has closed it (then it lost it)."""
    timers = worker.lobby.timers.get(table_id)
    running = timers is not None and timers.catch is not None
    return running or worker.lobby.tables[table_id].version != version


def caught(entries: list[EntryRow], window: CatchWindow) -> bool:
    """Whether Ada's catch of the falling piece is the last entry, without a lost window."""
    piece = next(iter(window.deadlines))
    lost = "catch_lost" in [e.key for e in entries]
    return entries[-1].action == f"catch {piece}" and not lost


def test_a_catch_window_outlives_its_owner_though_the_heir_missed_its_news(
    tmp_path: Path,
) -> None:
    """A opens Ada's catch window while B cannot hear the broker, so B never hears of the
    motion; A dies mid-catch, B takes the table over, reads the window from the database,
    and Ada's catch, sent to B within the window, counts."""
    host, port = need_redis().split("//")[1].split("/")[0].split(":")
    proxy = CuttableProxy((host, int(port)))

    async def main() -> None:
        async with site(tmp_path, f"redis://127.0.0.1:{proxy.port}/0") as (a, b):
            a.lobby.timing = b.lobby.timing = LONG_CATCH
            table_id = await seated(a, [b])
            proxy.cut()
            await until(lambda: not b.site.connected, "B cannot hear the broker")
            window = await place(a, table_id)
            proxy.restore()
            await until(lambda: b.site.connected, "B hears the broker again")
            await until(lambda: b.lobby.tables[table_id].version == window.version, "B sweeps")
            assert b.lobby.tables[table_id].window() is None  # B never heard of the motion
            await a.die()
            await until(lambda: b.site.owns(table_id), "B takes the table over")
            await until(lambda: taken_up(b, table_id, window.version), "B takes the catch up")
            piece = next(iter(window.deadlines))
            await b.lobby.act(table_id, 0, f"catch {piece}", window.version)
            assert caught(b.lobby.store.entries(table_id), window)
            a.site.owned.clear()

    asyncio.run(main())


def test_a_site_started_anew_mid_catch_keeps_the_window(tmp_path: Path) -> None:
    """Both workers stop while Ada catches; of two new ones on the same database the owner
    runs her window to its stored end, the other knows it too (its clients get the motion),
    and her catch sent there counts."""

    async def main() -> None:
        prefix, url = site_prefix(), db_url(tmp_path, "restarted")
        old = [Worker(url, need_redis(), prefix, name) for name in ("A", "B")]
        for worker in old:
            worker.lobby.timing = LONG_CATCH
            await worker.start()
        table_id = await seated(old[0], old[1:])
        window = await place(old[0], table_id)
        for worker in old:
            await worker.stop()
        new = [Worker(url, need_redis(), prefix, name) for name in ("C", "D")]
        for worker in new:
            await worker.start()
        try:
            owner = await owner_of(new, table_id)
            other = next(worker for worker in new if worker is not owner)
            await until(lambda: taken_up(owner, table_id, window.version), "its window runs")
            assert other.lobby.tables[table_id].window() is not None
            piece = next(iter(window.deadlines))
            await other.lobby.act(table_id, 0, f"catch {piece}", window.version)
            assert caught(other.lobby.store.entries(table_id), window)
        finally:
            for worker in new:
                await worker.stop()

    asyncio.run(main())
