"""A bot that raises or runs out of time is logged and replaced by the game's stand-in bot,
the table's log says so and the game goes on; bad bot parameters are refused up front.

Time runs on a `ManualClock`: the test says when a bot has thought too long."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from spieltisch.bots import base
from spieltisch.core.registry import game_names
from spieltisch.server import scheduler as scheduler_module
from spieltisch.server.clock import ManualClock
from spieltisch.server.lobby import Lobby, SeatSpec
from spieltisch.server.store import SeatRow, Store, TableRow
from spieltisch.server.table import LiveTable, bot_decision
from tests.server.database import db_url
from tests.server.helpers import TestClient, client_for, threads
from tests.support.waits import until

LIVENESS = 60.0  # seconds: only a hung table takes this long


def run_lobby(path: Path, play: Callable[[Lobby, ManualClock], Awaitable[None]]) -> Lobby:
    clock = ManualClock()
    lobby = Lobby(Store(db_url(path, "t")), 0.0, clock, executor=threads())

    async def main() -> None:
        try:
            await play(lobby, clock)
        finally:
            await lobby.close()

    asyncio.run(main())
    return lobby


def replacements(table: LiveTable) -> list[dict[str, Any]]:
    return [dict(e.args) for e in table.entries if e.key == "bot_replaced"]


def game_ends_with_greedy_failing(
    path: Path, fail: Callable[[Lobby, ManualClock], Awaitable[None]] | None = None
) -> LiveTable:
    async def play(lobby: Lobby, clock: ManualClock) -> None:
        table = await lobby.create(
            "pickomino", {}, [SeatSpec("greedy"), SeatSpec("optimal")], seed=2
        )
        if fail is not None:
            await fail(lobby, clock)
        await until(lambda: lobby.tables[table.id].over)

    lobby = run_lobby(path, play)
    (table,) = lobby.tables.values()
    return table


def test_a_bot_that_raises_is_logged_and_its_seat_played_by_the_stand_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken_greedy(game: Any, state: Any, spec: str, seed: int) -> str:
        if spec == "greedy":
            raise ValueError("greedy is broken")
        return bot_decision(game, state, spec, seed)

    monkeypatch.setattr(scheduler_module, "bot_decision", broken_greedy)
    with caplog.at_level(logging.WARNING, "spieltisch.server"):
        table = game_ends_with_greedy_failing(tmp_path)
    assert replacements(table) == [
        {"seat": 0, "by": "optimal", "bot": "greedy", "reason": "ValueError: greedy is broken"}
    ]
    assert table.seats[0].bot == "optimal"
    assert "bot greedy of seat 1 failed" in caplog.text
    stored = Store(db_url(tmp_path, "t"))
    assert stored.seats(table.id)[0].bot == "optimal"  # a restart keeps the stand-in
    stored.close()


def test_a_bot_over_its_time_limit_is_replaced_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    thinking = threading.Event()

    def endless_greedy(game: Any, state: Any, spec: str, seed: int) -> str:
        if spec == "greedy":
            thinking.set()
            release.wait(LIVENESS)  # thinks until the test ends
        return bot_decision(game, state, spec, seed)

    monkeypatch.setattr(scheduler_module, "bot_decision", endless_greedy)

    async def overrun(lobby: Lobby, clock: ManualClock) -> None:
        await until(thinking.is_set)
        await until(lambda: clock.sleeping() > 0)  # the lobby waits for the bot
        clock.advance(lobby.work.patience)

    try:
        table = game_ends_with_greedy_failing(tmp_path, overrun)
    finally:
        release.set()
    (replaced,) = replacements(table)
    assert replaced["bot"] == "greedy" and replaced["by"] == "optimal"
    assert replaced["reason"].startswith("too slow")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path) as found:
        yield found


@pytest.mark.parametrize(
    ("game", "spec", "words"),
    [
        ("riffraff", "careful:samples=100000000", "samples='100000000' should be a whole number"),
        ("riffraff", "careful:candidates=0", "candidates='0' should be a whole number from 1"),
        ("riffraff", "careful:candidates=-5", "from 1 to 6"),
        ("karolinchen", "expert:depth=1000000", "depth='1000000' should be a whole number"),
        ("pickomino", "optimal:steal_weight=nan", "from 0 to 10"),
    ],
)
def test_bad_bot_parameters_are_refused_when_the_table_is_made(
    client: TestClient, game: str, spec: str, words: str
) -> None:
    body = {"game": game, "seats": [{"bot": spec}, {"bot": "random"}]}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert words in response.json()["message"]
    assert client.get("/api/tables").json() == []


def test_every_bot_parameter_is_bounded_by_its_bot() -> None:
    for game in game_names():
        base._load_bots(game)
    assert {game for game, _ in base._BOTS} >= set(game_names())
    unbounded = [
        f"{game}/{cls.name}:{key}"
        for (game, _), cls in base._BOTS.items()
        for key, kind in cls.parameters.items()
        if not isinstance(kind, base.Bounded)
    ]
    assert unbounded == []


def test_a_stored_table_with_an_unbounded_bot_plays_on_after_a_restart(tmp_path: Path) -> None:
    """A table stored before bot parameters were bounded (the bot would now be refused)
    resumes after a restart with the stand-in in that seat instead of hanging."""
    store = Store(db_url(tmp_path, "t"))
    options = {"players": 2}
    row = TableRow("old", "pickomino", options, 5, None, 0.0)
    seats = [SeatRow(0, "optimal:steal_weight=1e9", None, None), SeatRow(1, "greedy", None, None)]
    store.add_table(row, seats, [])
    store.close()

    async def play(lobby: Lobby, clock: ManualClock) -> None:
        lobby.load()
        lobby.resume()
        await until(lambda: lobby.tables["old"].over)

    lobby = run_lobby(tmp_path, play)
    (replaced,) = replacements(lobby.tables["old"])
    assert replaced["by"] == "optimal" and replaced["reason"].startswith("KeyError")
