"""Many turn-based tables open at once (`web_load.py --turn-based N`): the server's memory and
the time of one sweep of their deadlines.

N Pickomino tables, each a signed-in player to move against a `greedy` bot, one day per
move, are written straight into a fresh database with their running deadlines (as a server
leaves them when it stops), 20 tables per player as the cap allows. Then:

- `spieltisch serve` starts on that database, and on an empty one for comparison; the
  figures are each server's resident memory (RSS, the main process; the bots' worker
  processes are counted apart) once it answers, and the difference per table;
- a lobby in this process loads the same tables and its deadline sweep is timed twice (wall
  clock and processor time, which a busy machine inflates less):
  with no deadline passed (what every sweep of a quiet site costs) and with all of them passed
  (the sweep that starts N timeouts, without playing them).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import statistics
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from spieltisch.server.clock import ManualClock
from spieltisch.server.common import hash_token, new_token
from spieltisch.server.lobby import Lobby
from spieltisch.server.scheduler import CLOCK
from spieltisch.server.schema import DEADLINES
from spieltisch.server.store import SeatRow, Store, TableRow
from spieltisch.server.table import LiveTable
from spieltisch.server.turnbased import DAY, MAX_TURN_BASED, TURN_BASED, TurnBased

__all__ = ["prepare", "process_rss", "sweep_figures"]

SETTINGS = TurnBased("1d")
SWEEPS = 5  # each sweep is timed this often; the median is reported


def prepare(url: str, count: int, now: float) -> float:
    """Write `count` turn-based tables with their deadlines (`now` plus a day) into the
    database at `url`; the seconds it took."""
    begun = time.perf_counter()
    store = Store(url)
    try:
        deadlines = []
        for n in range(count):
            table = _table(n, now)
            seats = list(table.seats)
            entries = [entry for entry, _ in table.take_unsaved()]
            store.add_table(table.row, seats, entries)
            deadlines.append(
                {"table_id": table.id, "kind": CLOCK, "seat": 0, "due": now + DAY, "data": None}
            )
        with store.engine.begin() as db:
            for start in range(0, len(deadlines), 1000):
                db.execute(insert(DEADLINES).values(deadlines[start : start + 1000]))
    finally:
        store.close()
    return time.perf_counter() - begun


def _table(n: int, now: float) -> LiveTable:
    """Table `n`: player `n // 20` (an account) to move against a bot, as made and joined."""
    row = TableRow(
        secrets.token_urlsafe(9),
        "pickomino",
        {"players": 2, "start_seat": 0},
        n,
        SETTINGS.seconds,
        now,
        secret=secrets.token_hex(16),
        pace="normal",
    )
    table = LiveTable.create(row, [SeatRow(0, None, None, None), SeatRow(1, "greedy", None, None)])
    table.row = replace(row, options=table.game.options_json())
    table.event(TURN_BASED, SETTINGS.args(), None)
    player = n // MAX_TURN_BASED
    token = new_token()
    joined = SeatRow(0, None, f"Player{player}", hash_token(token), account_id=f"bench{player}")
    table.event("joined", {"seat": 0, "name": joined.name}, joined)
    table.run_chance()
    return table


def process_rss(pid: int) -> int:
    """The resident memory of process `pid` in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def children_rss(pid: int) -> int:
    """The resident memory of the direct children of process `pid` (the worker pool)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = (task / "children").read_text().split()
        for child in children:
            with contextlib.suppress(OSError, RuntimeError):
                total += process_rss(int(child))
    return total


def sweep_figures(url: str, now: float) -> dict[str, Any]:
    """Load the tables into a lobby in this process and time its deadline sweep."""
    return asyncio.run(_sweeps(url, now))


async def _sweeps(url: str, now: float) -> dict[str, Any]:
    clock = ManualClock(now)
    lobby = Lobby(Store(url), clock=clock)
    begun = time.perf_counter()
    lobby.load()
    loaded = time.perf_counter() - begun
    turns = lobby.scheduler.turns
    try:
        quiet, quiet_cpu = _timed(turns.sweep, SWEEPS)
        clock.advance(DAY + 1, wake=False)
        cpu = time.process_time()
        started = turns.sweep()
        due, due_cpu = turns.last_sweep_seconds, time.process_time() - cpu
        for timers in lobby.timers.values():
            if timers.clock is not None:
                timers.clock.cancel()
    finally:
        await lobby.close()
        lobby.store.close()
    return {
        "tables_loaded": len(lobby.tables),
        "load_seconds": round(loaded, 2),
        "sweep_ms_none_due": round(1000 * quiet, 3),
        "sweep_cpu_ms_none_due": round(1000 * quiet_cpu, 3),
        "sweep_ms_all_due": round(1000 * due, 1),
        "sweep_cpu_ms_all_due": round(1000 * due_cpu, 1),
        "timeouts_started": started,
    }


def _timed(sweep: Any, times: int) -> tuple[float, float]:
    """The median wall-clock and processor seconds of `times` sweeps."""
    wall, cpu = [], []
    for _ in range(times):
        begun, begun_cpu = time.perf_counter(), time.process_time()
        sweep()
        wall.append(time.perf_counter() - begun)
        cpu.append(time.process_time() - begun_cpu)
    return statistics.median(wall), statistics.median(cpu)
