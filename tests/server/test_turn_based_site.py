"""A turn-based table at a site of two workers (the real Redis, one database), on a manual
clock: when the worker that runs the table is killed, the other takes it over with the
running deadline and the time banks, and applies the rule when the deadline passes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from spieltisch.server.clock import ManualClock
from spieltisch.server.lobby import SeatSpec
from spieltisch.server.turnbased import DAY, TurnBased
from tests.server.test_site import Worker, site
from tests.server.test_turn_based import ANNA, BERT, play_turn, timeout_args
from tests.support.waits import until

pytestmark = pytest.mark.workers


def test_a_worker_killed_keeps_a_turn_based_deadline_and_bank(tmp_path: Path) -> None:
    clock = ManualClock()

    async def main() -> tuple[float, float | None, dict[int, float] | None, float | None]:
        async with site(tmp_path, clock=clock) as (a, b):  # timers and sweeps on it
            table = await a.lobby.create(
                "pickomino",
                {"start_seat": 0},
                [SeatSpec(), SeatSpec()],
                seed=21,
                turn_based=TurnBased("1d", bank="small"),
            )
            await until(lambda: a.site.owns(table.id), "A owns the table it made")
            await a.lobby.join(table.id, 0, "Anna", ANNA)
            await a.lobby.join(table.id, 1, "Bert", BERT)
            clock.advance(DAY / 2)  # Anna moves after half a day: 2.5 days next time
            await play_turn(a.lobby, table.id, 0)
            await until(lambda: clocked(a, table.id) == 1, "Bert's clock runs on A")
            deadline = a.lobby.timers[table.id].deadline
            assert deadline is not None
            await until(lambda: b_knows(b, table.id, deadline), "B hears of Bert's clock")
            await a.die()
            await until(lambda: b.site.owns(table.id), "B takes the table over")
            await until(lambda: b.lobby.timers[table.id].banks is not None, "B reads the banks")
            kept, banks = b.lobby.timers[table.id].deadline, b.lobby.timers[table.id].banks
            clock.advance(deadline - clock.now() + b.lobby.turn_sweep)
            await until(lambda: len(timeout_args(b.lobby.tables[table.id])) == 1, "B times out")
            await until(lambda: clocked(b, table.id) == 0, "Anna's clock runs on B")
            anna = b.lobby.timers[table.id].deadline
            return deadline, kept, banks, None if anna is None else anna - clock.now()

    deadline, kept, banks, anna_time = asyncio.run(main())
    assert kept == deadline  # not a fresh 2 days
    assert banks == {0: 2.5 * DAY}
    assert anna_time == 2.5 * DAY  # the bank Anna earned on A, kept on B


def clocked(worker: Worker, table_id: str) -> int | None:
    timers = worker.lobby.timers.get(table_id)
    return None if timers is None or timers.deadline is None else timers.clocked_seat


def b_knows(worker: Worker, table_id: str, deadline: float) -> bool:
    timers = worker.lobby.timers.get(table_id)
    return timers is not None and timers.deadline == deadline
