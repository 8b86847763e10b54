"""The turn clock: when it runs out, a bot plays the person's turn, and the log says so."""

from __future__ import annotations

import asyncio
from pathlib import Path

from spieltisch.server.lobby import Lobby, SeatSpec
from spieltisch.server.store import Store

CLOCK = 30.0


class Waits:
    """A stand-in for asyncio.sleep: bots go at once, the first clock runs out at once and
    every later clock never does (so the test sees exactly one timeout)."""

    def __init__(self) -> None:
        self.clocks = 0

    async def __call__(self, seconds: float) -> None:
        if seconds != CLOCK:
            await asyncio.sleep(0)
            return
        self.clocks += 1
        if self.clocks > 1:
            await asyncio.Event().wait()
        await asyncio.sleep(0)


async def play_until_timeout(path: Path) -> tuple[list[dict[str, object]], int | None]:
    lobby = Lobby(Store(f"sqlite:///{path / 'clock.sqlite3'}"), bot_delay=0.0, sleep=Waits())
    table = lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()], clock=CLOCK, seed=5)
    await lobby.join(table.id, None, "Anna")
    await lobby.join(table.id, None, "Bert")
    for _ in range(1000):
        if any(e.key == "timeout" for e in table.entries) and table.mover() == 1:
            break
        await asyncio.sleep(0)
    log = [table.log_entry(e, None) for e in table.entries]
    mover = table.mover()
    await lobby.close()
    lobby.store.close()
    return log, mover


def test_a_bot_plays_the_turn_when_the_clock_runs_out(tmp_path: Path) -> None:
    log, mover = asyncio.run(play_until_timeout(tmp_path))
    keys = [entry["key"] for entry in log]
    assert keys[:2] == ["joined", "joined"]
    timeout = keys.index("timeout")
    assert log[timeout]["args"] == {"seat": 0, "bot": "optimal"}
    after = [entry for entry in log[timeout + 1 :] if entry["key"] == "move"]
    assert after and all(entry["args"]["seat"] == 0 for entry in after)  # type: ignore[index]
    assert mover == 1  # Bert's turn now, his clock running
