"""Two workers of one site in one process: two lobbies on the same database, joined through
the real Redis. What one stores the other shows; of two workers storing the same version
only one succeeds; only a table's lease owner runs its bots, and when it is gone another
takes over, keeping a turn clock's deadline; while the broker is away the workers find changes
in the database. (A person's open catch window at a site: `test_site_catch.py`.)"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from spieltisch.server import site as site_module
from spieltisch.server.clock import Clock, WallClock
from spieltisch.server.connection import Connection
from spieltisch.server.lobby import Lobby, SeatSpec
from spieltisch.server.site import LEASE, ROUND, RedisSite
from spieltisch.server.store import EntryRow, SeatRow, Store, TableRow
from spieltisch.server.table import TableError
from tests.server.database import db_url
from tests.server.helpers import threads
from tests.server.proxy import CuttableProxy
from tests.server.sites import need_redis, site_prefix
from tests.support.waits import until

pytestmark = pytest.mark.workers

LIVENESS = 60.0  # seconds: only a stuck site takes this long
TAKEOVER_PROMISE = 4.5
"""Seconds within which the README promises that a dead worker's tables run again."""
BUSY_MACHINE = 4.0
"""Seconds a loaded machine may add to a takeover (rounds and bot moves run late)."""


class Worker:
    """A lobby with its own connection to the database and its site."""

    def __init__(
        self, url: str, redis: str, prefix: str, name: str, clock: Clock | None = None
    ) -> None:
        self.site = RedisSite(redis, prefix, name)
        store, pool = Store(url), threads()
        self.lobby = Lobby(store, 0.0, clock or WallClock(), executor=pool, site=self.site)

    async def start(self) -> None:
        self.lobby.load()
        await self.site.start(self.lobby)
        self.lobby.resume()

    async def stop(self) -> None:
        for connection in [c for group in self.lobby.connections.values() for c in group]:
            self.lobby.disconnect(connection)
        await self.site.close()
        await self.lobby.close()
        self.lobby.store.close()

    async def die(self) -> None:
        """Stop without letting the leases go, as a killed process would."""
        self.site.owned.clear()
        for task in self.site._tasks:
            task.cancel()
        await self.lobby.close()
        await self.site.redis.aclose()
        self.lobby.store.close()

    def watch(self, table_id: str, seat: int | None = None) -> list[dict[str, Any]]:
        """A connection to the table on this worker; the messages it gets, as they come."""
        seen: list[dict[str, Any]] = []

        async def send(text: str) -> None:
            seen.append(json.loads(text))

        self.lobby.connect(Connection(table_id, seat, send))
        return seen


@asynccontextmanager
async def site(
    tmp_path: Path, redis: str | None = None, clock: Clock | None = None
) -> AsyncIterator[tuple[Worker, Worker]]:
    """Two started workers, A and B; B reaches Redis at `redis` if given (a proxy); both
    run on `clock` if given (else the wall clock) from the start."""
    url, prefix = db_url(tmp_path, "site"), site_prefix()
    a = Worker(url, need_redis(), prefix, "A", clock)
    b = Worker(url, redis or need_redis(), prefix, "B", clock)
    await a.start()
    await b.start()
    try:
        yield a, b
    finally:
        for worker in (a, b):
            await worker.stop()


def first_action(lobby: Lobby, table_id: str) -> str:
    table = lobby.tables[table_id]
    return str(table.game.format_action(table.game.legal_actions(table.state)[0]))


def started(worker: Worker, table_id: str) -> bool:
    table = worker.lobby.tables.get(table_id)
    return table is not None and table.started


def versions(messages: list[dict[str, Any]]) -> list[int]:
    return [m["version"] for m in messages if m["type"] == "state"]


def test_a_move_made_through_one_worker_reaches_a_seat_on_the_other(tmp_path: Path) -> None:
    async def main() -> None:
        async with site(tmp_path) as (a, b):
            table = await a.lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()], seed=3)
            await until(lambda: table.id in b.lobby.tables, "B hears of the new table")
            ada, _ = await a.lobby.join(table.id, None, "Ada")
            bea, _ = await b.lobby.join(table.id, None, "Bea")
            watched = a.watch(table.id, ada)
            await until(lambda: b.lobby.tables[table.id].started, "B sees both seats taken")
            mover = b.lobby.tables[table.id].mover()
            version = b.lobby.tables[table.id].version
            await b.lobby.act(table.id, mover, first_action(b.lobby, table.id), version)
            after = b.lobby.tables[table.id].version
            await until(lambda: after in versions(watched), "A's seat sees B's move")
            assert a.lobby.tables[table.id].state == b.lobby.tables[table.id].state
            assert {ada, bea} == {0, 1}

    asyncio.run(main())


def test_of_two_workers_storing_the_same_version_one_is_refused(tmp_path: Path) -> None:
    async def main() -> None:
        async with site(tmp_path) as (a, b):
            table = await a.lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()], seed=4)
            await a.lobby.join(table.id, 0, "Ada")
            await a.lobby.join(table.id, 1, "Bea")
            await until(lambda: started(b, table.id), "B is up to date")
            ta, tb = a.lobby.tables[table.id], b.lobby.tables[table.id]
            assert ta.version == tb.version
            move = first_action(a.lobby, table.id)
            mover = ta.mover()
            outcomes = await asyncio.gather(
                a.lobby.act(table.id, mover, move, ta.version),
                b.lobby.act(table.id, mover, move, tb.version),
                return_exceptions=True,
            )
            refused = [o for o in outcomes if isinstance(o, TableError)]
            assert len(refused) == 1 and refused[0].code == "stale_version"
            assert outcomes.count(None) == 1
            stored = a.lobby.store.entries(table.id)
            assert [e.seq for e in stored] == list(range(len(stored)))
            assert sum(1 for e in stored if e.actor == mover) == 1  # the move, once
            await until(
                lambda: (
                    a.lobby.tables[table.id].version
                    == b.lobby.tables[table.id].version
                    == len(stored)
                ),
                "both workers end at the stored version",
            )

    asyncio.run(main())


def test_chat_lines_reach_the_other_worker_and_keep_their_order(tmp_path: Path) -> None:
    async def main() -> None:
        async with site(tmp_path) as (a, b):
            table = await a.lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()], seed=5)
            await a.lobby.join(table.id, 0, "Ada")
            await until(lambda: table.id in b.lobby.tables, "B has the table")
            watched = b.watch(table.id)
            await asyncio.gather(
                a.lobby.talk(table.id, 0, "hello from A"), b.lobby.talk(table.id, 0, "and B")
            )
            lines = a.lobby.store.chat(table.id, 10)
            assert [line.n for line in lines] == [0, 1]  # one number each, none taken twice
            await until(
                lambda: (
                    [m["line"]["text"] for m in watched if m["type"] == "chat"]
                    in (["hello from A", "and B"], ["and B", "hello from A"])
                ),
                "B's connection gets both lines",
            )

    asyncio.run(main())


def test_only_the_owner_runs_a_tables_bots_and_another_takes_over_when_it_dies(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with site(tmp_path) as (a, b):
            a.lobby.bot_delay = b.lobby.bot_delay = 0.05
            seats = [SeatSpec("greedy"), SeatSpec("random")]
            table = await a.lobby.create("pickomino", {}, seats, seed=6)
            await until(lambda: a.site.owns(table.id), "A owns the table it made")
            await until(lambda: table.id in b.lobby.tables, "B has the table")
            assert not b.site.owns(table.id)
            assert not b.lobby.timers.get(table.id) or not b.lobby.timers[table.id].tasks()
            await until(lambda: a.lobby.tables[table.id].version > 10, "A's bots play")
            await a.die()
            died = time.monotonic()
            await until(lambda: b.site.owns(table.id), "B takes the table over")
            taken = time.monotonic() - died
            await until(lambda: b.lobby.tables[table.id].over, "B's bots finish the game")
            # the last move is in memory before its commit: wait for the writer, not for luck
            version = b.lobby.tables[table.id].version
            await until(
                lambda: len(b.lobby.store.entries(table.id)) >= version, "B stores the last move"
            )
            stored = b.lobby.store.entries(table.id)
            assert [e.seq for e in stored] == list(range(version))
            # the lease runs out (at most a round after its last renewal), the next round claims it
            assert LEASE + 2 * ROUND <= TAKEOVER_PROMISE
            assert LEASE - 2 * ROUND < taken < TAKEOVER_PROMISE + BUSY_MACHINE, taken
            a.site.owned.clear()

    asyncio.run(main())


def test_while_the_broker_is_away_changes_are_found_in_the_database(tmp_path: Path) -> None:
    redis = need_redis()
    host, port = redis.split("//")[1].split("/")[0].split(":")
    proxy = CuttableProxy((host, int(port)))

    async def main() -> None:
        async with site(tmp_path, f"redis://127.0.0.1:{proxy.port}/0") as (a, b):
            table = await a.lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()], seed=7)
            await a.lobby.join(table.id, 0, "Ada")
            await a.lobby.join(table.id, 1, "Bea")
            await until(lambda: started(b, table.id), "B is up to date")
            watched = b.watch(table.id)
            proxy.cut()
            await until(lambda: not b.site.connected, "B notices the broker is gone")
            ta = a.lobby.tables[table.id]
            await a.lobby.act(table.id, ta.mover(), first_action(a.lobby, table.id), ta.version)
            moved = a.lobby.tables[table.id].version
            await until(lambda: moved in versions(watched), "B finds the move by sweeping")
            proxy.restore()
            await until(lambda: b.site.connected, "B is back on the broker")
            ta = a.lobby.tables[table.id]
            await a.lobby.act(table.id, ta.mover(), first_action(a.lobby, table.id), ta.version)
            again = a.lobby.tables[table.id].version
            await until(lambda: again in versions(watched), "news flows again")

    asyncio.run(main())


def test_a_seat_or_table_made_through_one_worker_is_known_on_the_other_at_once(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with site(tmp_path) as (a, b):
            table = await a.lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()], seed=8)
            assert (await b.lobby.find(table.id)).id == table.id  # before any news: stored
            seat, token = await a.lobby.join(table.id, None, "Ada")
            found, held = await b.lobby.seat_with(table.id, token)  # the news may be late
            assert held == seat and found.seats[seat].name == "Ada"
            bea, _ = await b.lobby.join(table.id, None, "Bea")
            assert bea != seat

    asyncio.run(main())


def test_the_database_refuses_a_version_stored_twice_and_keeps_the_first(tmp_path: Path) -> None:
    store = Store(db_url(tmp_path, "twice"))
    try:
        row = TableRow("t1", "pickomino", {}, 1, None, 0.0)
        store.add_table(row, [SeatRow(0, None, None, None), SeatRow(1, None, None, None)], [])
        first = EntryRow(0, None, None, "joined", {"seat": 0, "name": "Ada"})
        store.add_entries([("t1", first, SeatRow(0, None, "Ada", "h1"))])
        second = EntryRow(0, None, None, "joined", {"seat": 0, "name": "Bea"})
        with pytest.raises(IntegrityError):
            store.add_entries([("t1", second, SeatRow(0, None, "Bea", "h2"))])
        assert store.entries("t1") == [first]
        assert store.seats("t1")[0].name == "Ada"  # the loser's seat change is undone too
    finally:
        store.close()


def test_a_turn_clock_taken_over_keeps_its_deadline(tmp_path: Path) -> None:
    async def main() -> None:
        async with site(tmp_path) as (a, b):
            table = await a.lobby.create(
                "pickomino", {}, [SeatSpec(), SeatSpec()], clock=600, seed=9
            )
            await until(lambda: a.site.owns(table.id), "A owns the table it made")
            await a.lobby.join(table.id, 0, "Ada")
            await a.lobby.join(table.id, 1, "Bea")
            deadline = a.lobby.timers[table.id].deadline
            assert deadline is not None
            await until(lambda: started(b, table.id), "B is up to date")
            await until(
                lambda: (
                    b.lobby.timers.get(table.id) is not None
                    and b.lobby.timers[table.id].deadline == deadline
                ),
                "B knows A's clock",
            )
            await a.die()
            await until(lambda: b.site.owns(table.id), "B takes the table over")
            await until(lambda: b.lobby.timers[table.id].clock is not None, "B runs the clock")
            assert b.lobby.timers[table.id].deadline == deadline  # not a fresh 600 s

    asyncio.run(main())


def test_a_table_whose_lease_lapsed_for_a_moment_gets_its_bot_back(tmp_path: Path) -> None:
    async def main() -> None:
        async with site(tmp_path) as (a, _b):
            table = await a.lobby.create("pickomino", {}, [SeatSpec(), SeatSpec("greedy")], seed=10)
            await until(lambda: a.site.owns(table.id), "A owns the table it made")
            await a.lobby.join(table.id, 0, "Ada")
            live = a.lobby.tables[table.id]
            while live.mover() == 0:  # Ada plays her turn out; then the bot is to move
                await a.lobby.act(table.id, 0, first_action(a.lobby, table.id), live.version)
                live = a.lobby.tables[table.id]
            a.site._held_until[table.id] = 0.0  # a late round: not sure of the lease now
            a.lobby.lost(table.id)  # so the bot's turn was not scheduled
            version = live.version
            await until(lambda: a.lobby.tables[table.id].version > version, "the bot moves")

    asyncio.run(main())


def test_a_finished_games_lease_is_let_go(tmp_path: Path) -> None:
    async def main() -> None:
        async with site(tmp_path) as (a, _b):
            a.lobby.bot_delay = 0.0
            seats = [SeatSpec("greedy"), SeatSpec("greedy")]
            table = await a.lobby.create("pickomino", {}, seats, seed=11, pace="instant")
            await until(lambda: a.lobby.tables[table.id].over, "the bots finish the game")
            await until(lambda: table.id not in a.site.owned, "A lets the lease go")
            assert await a.site.redis.get(a.site._lease_key(table.id)) is None

    asyncio.run(main())


def test_a_site_job_that_goes_on_after_a_cancellation_is_cancelled_again() -> None:
    """A stopping worker waits for its site jobs; one that took a cancellation for an error
    of its own (as redis-py may) and went on must not hold the stop up for ever."""

    async def main() -> list[str]:
        seen: list[str] = []

        async def stubborn() -> None:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                asyncio.current_task().uncancel()  # type: ignore[union-attr]
                seen.append("went on")
            await asyncio.sleep(3600)

        job = asyncio.get_running_loop().create_task(stubborn())
        await asyncio.sleep(0)
        await asyncio.wait_for(site_module._cancel_all({job}), LIVENESS)
        seen.append("cancelled" if job.cancelled() else "not cancelled")
        return seen

    assert asyncio.run(main()) == ["went on", "cancelled"]


def test_a_site_restarted_whole_keeps_a_turn_clocks_deadline(tmp_path: Path) -> None:
    """Both workers stop (a new release, a machine restart); two new ones on the same database
    take the running turn clock up with its stored deadline, not a fresh one."""

    async def main() -> None:
        prefix = site_prefix()
        url = db_url(tmp_path, "restarted")
        old = [Worker(url, need_redis(), prefix, name) for name in ("A", "B")]
        for worker in old:
            await worker.start()
        table = await old[0].lobby.create(
            "pickomino", {}, [SeatSpec(), SeatSpec()], clock=600, seed=12
        )
        await until(lambda: old[0].site.owns(table.id), "A owns the table it made")
        await old[0].lobby.join(table.id, 0, "Ada")
        await old[0].lobby.join(table.id, 1, "Bea")
        deadline = old[0].lobby.timers[table.id].deadline
        assert deadline is not None
        for worker in old:
            await worker.stop()
        new = [Worker(url, need_redis(), prefix, name) for name in ("C", "D")]
        for worker in new:
            await worker.start()
        try:
            owner = await owner_of(new, table.id)
            await until(lambda: clock_runs(owner, table.id), "its clock runs")
            assert owner.lobby.timers[table.id].deadline == deadline  # not a fresh 600 s
        finally:
            for worker in new:
                await worker.stop()

    asyncio.run(main())


def clock_runs(worker: Worker, table_id: str) -> bool:
    timers = worker.lobby.timers.get(table_id)
    return timers is not None and timers.clock is not None


async def owner_of(workers: list[Worker], table_id: str) -> Worker:
    await until(lambda: any(w.site.owns(table_id) for w in workers), "a new worker takes it")
    return next(w for w in workers if w.site.owns(table_id))
