"""Bot decisions and Riff Raff physics run beside the event loop: the server answers while
they work, and a result worked out for a table that has changed meanwhile is thrown away.

The slow work is a stand-in that blocks on a `threading.Event` until the test releases it,
so nothing here depends on how fast the machine is (the waits are liveness limits only)."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import BrokenExecutor
from pathlib import Path
from typing import Any

import pytest

from spieltisch.server import hooks as hooks_module
from spieltisch.server import scheduler as scheduler_module
from spieltisch.server.clock import ManualClock
from spieltisch.server.lobby import Lobby, SeatSpec
from spieltisch.server.store import Store
from spieltisch.server.table import bot_decision
from spieltisch.server.work import TooSlow, Work, process_pool
from tests.server.database import db_url
from tests.server.helpers import TestClient, client_for, join, make_table
from tests.support.waits import wait_for

LIVENESS = 60.0  # seconds: only a hung server takes this long


class Gate:
    """Wraps a job so that its first call waits until the test opens the gate."""

    def __init__(self, job: Callable[..., Any]) -> None:
        self.job = job
        self.entered = threading.Event()
        self.opened = threading.Event()
        self.calls: list[tuple[Any, ...]] = []
        self.waited_out = False  # the gate was never opened: the server must have hung

    def __call__(self, *args: Any) -> Any:
        self.calls.append(args)
        if len(self.calls) == 1:
            self.entered.set()
            self.waited_out = not self.opened.wait(LIVENESS)
        return self.job(*args)

    def wait_entered(self) -> None:
        assert self.entered.wait(LIVENESS), "the slow job never started"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path) as found:
        yield found


@pytest.fixture
def slow_bot(monkeypatch: pytest.MonkeyPatch) -> Gate:
    gate = Gate(bot_decision)
    monkeypatch.setattr(scheduler_module, "bot_decision", gate)
    return gate


def version(client: TestClient, table_id: str) -> int:
    return int(client.get(f"/api/tables/{table_id}").json()["version"])


def test_rest_calls_answer_while_a_bot_thinks(client: TestClient, slow_bot: Gate) -> None:
    table = make_table(client, ["optimal", "optimal"])
    slow_bot.wait_entered()
    assert version(client, table["id"]) == table["version"]  # answered, nothing changed
    assert client.get("/api/games").status_code == 200
    other = make_table(client, [None, None])
    assert client.get("/api/tables").status_code == 200
    assert join(client, other["id"], "Ada")
    slow_bot.opened.set()
    wait_for(lambda: version(client, table["id"]) > table["version"])
    assert not slow_bot.waited_out


def test_a_decision_for_a_changed_table_is_thrown_away(client: TestClient, slow_bot: Gate) -> None:
    table = make_table(client, ["optimal", None])
    token = join(client, table["id"], "Ada")  # the bot (seat 1) is to move and thinks
    slow_bot.wait_entered()
    left = client.post(f"/api/tables/{table['id']}/leave", json={"token": token})
    assert left.status_code == 200, left.text  # a bot takes Ada's seat: a new version
    slow_bot.opened.set()
    wait_for(lambda: version(client, table["id"]) > left.json()["version"] + 2)
    seeds = [call[3] for call in slow_bot.calls]
    assert seeds[0] != seeds[1]  # decided anew for the new version


def test_physics_runs_beside_the_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Gate(hooks_module.settle_with_motion)
    monkeypatch.setattr(scheduler_module, "settle_with_motion", gate)
    with client_for(tmp_path) as client:
        body = {"game": "riffraff", "seats": [{"bot": "random"}] * 2, "seed": 3}
        table = client.post("/api/tables", json=body).json()
        gate.wait_entered()
        waiting = version(client, table["id"])
        assert client.get("/api/tables").status_code == 200
        assert version(client, table["id"]) == waiting  # the placement waits for its physics
        gate.opened.set()
        wait_for(lambda: version(client, table["id"]) > waiting)
        assert not gate.waited_out


@pytest.mark.slow
def test_worker_processes_play_a_whole_bot_game(tmp_path: Path) -> None:
    async def play() -> bool:
        store = Store(db_url(tmp_path, "pool"))
        lobby = Lobby(store, bot_delay=0.0, clock=ManualClock(), executor=process_pool(1))
        table = await lobby.create(
            "pickomino", {}, [SeatSpec("optimal"), SeatSpec("greedy")], seed=2
        )
        end = time.monotonic() + LIVENESS
        while not lobby.tables[table.id].over and time.monotonic() < end:
            await asyncio.sleep(0.01)
        over = lobby.tables[table.id].over
        await lobby.close()
        store.close()
        return over

    assert asyncio.run(play())


def sleeps_for_an_hour() -> None:
    time.sleep(3600)


def kills_its_worker() -> None:
    os._exit(1)


@pytest.mark.slow
def test_a_worker_stops_a_runaway_job_and_a_dead_worker_is_replaced() -> None:
    """In worker processes a job's own alarm stops it (the lobby's clock stands still), the
    worker is free again, and after a worker dies the next job gets a new pool."""

    async def jobs() -> list[str]:
        work = Work(None, ManualClock(), limit=0.5)
        outcomes: list[str] = []
        calls: list[tuple[Callable[..., object], tuple[object, ...]]] = [
            (sleeps_for_an_hour, ()),
            (kills_its_worker, ()),
            (str, (7,)),
        ]
        for job, args in calls:
            try:
                outcomes.append(str(await asyncio.wait_for(work.run(job, *args), LIVENESS)))
            except (TooSlow, BrokenExecutor) as error:
                outcomes.append(type(error).__name__)
        await work.close()
        return outcomes

    assert asyncio.run(jobs()) == ["TooSlow", "BrokenProcessPool", "7"]
