"""The turn clock: when it runs out, a bot plays the person's turn, and the log says so.

The lobby runs on a manual clock that the test moves on, so nothing depends on how fast the
machine is."""

from __future__ import annotations

import asyncio
from pathlib import Path

from spieltisch.server.clock import ManualClock
from spieltisch.server.lobby import Lobby, SeatSpec
from spieltisch.server.store import Store
from spieltisch.server.table import LiveTable
from tests.server.database import db_url
from tests.server.helpers import threads
from tests.support.waits import until

CLOCK = 30.0


async def settle() -> None:
    """Let every task that can run, run."""
    for _ in range(50):
        await asyncio.sleep(0)


def timeouts(table: LiveTable) -> int:
    return sum(1 for e in table.entries if e.key == "timeout")


async def play_until_timeout(path: Path) -> tuple[list[dict[str, object]], int | None, int]:
    clock = ManualClock()
    store = Store(db_url(path, "clock"))
    lobby = Lobby(store, bot_delay=0.0, clock=clock, executor=threads())
    table = await lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()], clock=CLOCK, seed=5)
    await lobby.join(table.id, None, "Anna")
    await lobby.join(table.id, None, "Bert")
    await settle()
    clock.advance(CLOCK - 0.5)
    await settle()
    early = timeouts(table)  # half a second before the end: still Anna's turn
    clock.advance(0.5)
    await until(lambda: table.mover() == 1)
    log = [table.log_entry(e, None) for e in table.entries]
    mover = table.mover()
    await lobby.close()
    lobby.store.close()
    return log, mover, early


def test_a_bot_plays_the_turn_when_the_clock_runs_out(tmp_path: Path) -> None:
    log, mover, early = asyncio.run(play_until_timeout(tmp_path))
    assert early == 0
    keys = [entry["key"] for entry in log]
    assert keys[:2] == ["joined", "joined"]
    assert keys.count("timeout") == 1
    timeout = keys.index("timeout")
    assert log[timeout]["args"] == {"seat": 0, "bot": "optimal"}
    after = [entry for entry in log[timeout + 1 :] if entry["key"] == "move"]
    assert after and all(entry["args"]["seat"] == 0 for entry in after)  # type: ignore[index]
    assert mover == 1  # Bert's turn now, his clock running


async def restart_mid_turn(path: Path) -> tuple[float | None, float | None, int, int, int | None]:
    """Anna's clock runs 20 s, the server stops and starts again on the same database; then
    the clock is moved on to just before and to the deadline set before the restart."""
    clock = ManualClock()
    lobby = Lobby(Store(db_url(path, "restart")), bot_delay=0.0, clock=clock, executor=threads())
    table = await lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()], clock=CLOCK, seed=5)
    await lobby.join(table.id, None, "Anna")
    await lobby.join(table.id, None, "Bert")
    await settle()
    before = lobby.timers[table.id].deadline
    clock.advance(20.0)
    await settle()
    await lobby.close()
    lobby.store.close()

    again = Lobby(Store(db_url(path, "restart")), bot_delay=0.0, clock=clock, executor=threads())
    again.load()
    again.resume()
    await settle()
    after = again.timers[table.id].deadline
    clock.advance(CLOCK - 20.0 - 0.5)
    await settle()
    early = timeouts(again.get(table.id))  # a fresh clock would have 29.5 s left here
    clock.advance(0.5)
    await until(lambda: again.get(table.id).mover() == 1)
    late = timeouts(again.get(table.id))
    mover = again.get(table.id).mover()
    await again.close()
    again.store.close()
    return before, after, early, late, mover


def test_a_restarted_server_keeps_the_turn_clocks_deadline(tmp_path: Path) -> None:
    before, after, early, late, mover = asyncio.run(restart_mid_turn(tmp_path))
    assert before is not None and after == before  # stored, not started over
    assert early == 0 and late == 1
    assert mover == 1  # the stand-in played Anna's turn when her stored deadline came
