"""A table's bot pace: instant, normal or slow, kept with the table, on a manual clock.

The lobby's `bot_delay` is the normal pause; the test moves the clock on by hand and looks
whether a bot has moved, so nothing depends on how fast the machine is."""

from __future__ import annotations

import asyncio
from functools import partial
from pathlib import Path

import pytest

from spieltisch.core.protocol import CHANCE
from spieltisch.server.clock import ManualClock
from spieltisch.server.lobby import BOT_PACES, Lobby, SeatSpec
from spieltisch.server.store import Store
from spieltisch.server.table import LiveTable, TableError
from tests.server.helpers import client_for, make_table, threads
from tests.server.test_clock import settle
from tests.support.waits import until

DELAY = 2.0  # the lobby's normal pause, in seconds
BOTS = [SeatSpec("greedy"), SeatSpec("greedy")]


def new_lobby(path: Path, clock: ManualClock) -> Lobby:
    store = Store(f"sqlite:///{path / 'pace.sqlite3'}")
    return Lobby(store, bot_delay=DELAY, clock=clock, executor=threads())


async def first_move_waits(path: Path, pace: str) -> tuple[bool, bool]:
    """Whether the first bot move is still missing just before its pause ends, and whether
    it comes once the pause is over."""
    clock = ManualClock()
    lobby = new_lobby(path, clock)
    table = await lobby.create("pickomino", {}, BOTS, seed=3, pace=pace)
    start = table.version
    await settle()
    clock.advance(DELAY * BOT_PACES[pace] - 0.01)
    await settle()
    early = lobby.tables[table.id].version == start
    clock.advance(0.01)
    await until(lambda: lobby.tables[table.id].version > start)
    await lobby.close()
    lobby.store.close()
    return early, lobby.tables[table.id].version > start


@pytest.mark.parametrize("pace", ["normal", "slow"])
def test_bots_pause_by_the_tables_pace(tmp_path: Path, pace: str) -> None:
    early, moved = asyncio.run(first_move_waits(tmp_path, pace))
    assert early, "a bot moved before its pause was over"
    assert moved


async def instant_game(path: Path) -> tuple[bool, float]:
    clock = ManualClock()
    lobby = new_lobby(path, clock)
    table = await lobby.create("pickomino", {}, BOTS, seed=3, pace="instant")
    await until(lambda: lobby.tables[table.id].over)  # the clock never moves
    over = lobby.tables[table.id].over
    await lobby.close()
    lobby.store.close()
    return over, clock.now() - 1_000_000.0


def test_instant_bots_play_a_whole_game_without_the_clock_moving(tmp_path: Path) -> None:
    over, waited = asyncio.run(instant_game(tmp_path))
    assert over and waited == 0.0


def test_the_pace_is_kept_with_the_table_and_survives_a_restart(tmp_path: Path) -> None:
    clock = ManualClock()
    lobby = new_lobby(tmp_path, clock)
    seats = [SeatSpec(), SeatSpec("greedy")]
    table = asyncio.run(lobby.create("pickomino", {}, seats, seed=1, pace="slow"))
    assert table.summary()["pace"] == "slow"
    lobby.store.close()
    again = new_lobby(tmp_path, clock)
    again.load()
    assert again.get(table.id).row.pace == "slow"
    assert again.bot_pause(again.get(table.id)) == DELAY * 2.5
    again.store.close()


def test_an_unknown_pace_is_refused_and_makes_no_table(tmp_path: Path) -> None:
    lobby = new_lobby(tmp_path, ManualClock())
    with pytest.raises(TableError) as refused:
        asyncio.run(lobby.create("pickomino", {}, BOTS, seed=1, pace="fast"))
    assert refused.value.code == "bad_pace"
    assert "instant, normal, slow" in refused.value.message
    assert lobby.tables == {} and lobby.store.tables() == []
    lobby.store.close()


def test_the_api_takes_and_shows_the_pace(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        made = make_table(client, [None, "greedy"], pace="instant")
        assert made["pace"] == "instant"
        assert client.get(f"/api/tables/{made['id']}").json()["pace"] == "instant"
        assert make_table(client, [None, "greedy"])["pace"] == "normal"
        body = {"game": "pickomino", "seats": [{}, {}], "pace": "fast"}
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 400 and refused.json()["error"] == "bad_pace"


def test_a_database_from_before_the_pace_plays_at_the_normal_pace(tmp_path: Path) -> None:
    import shutil

    from tests.server.test_startup_checks import SCHEMA_1

    path = tmp_path / "old.sqlite3"
    shutil.copy(SCHEMA_1, path)
    store = Store(f"sqlite:///{path}")
    assert [row.pace for row in store.tables()] == ["normal", "normal"]
    store.close()


async def karolinchen_rolls(path: Path) -> list[int]:
    """How many rolls each version of a Karolinchen table brought, the clock moved on by one
    pause at a time (the person at seat 0 joins; rolls come at the table's pace)."""
    clock = ManualClock()
    lobby = new_lobby(path, clock)
    seats = [SeatSpec(), SeatSpec("greedy")]
    table = await lobby.create("karolinchen", {"start_seat": 0}, seats, seed=5)
    await lobby.join(table.id, 0, "Kim")
    rolls_per_step = [_rolls(lobby.tables[table.id])]
    for _ in range(6):
        before = _rolls(lobby.tables[table.id])
        await until(clock.sleeping)  # the next roll waits for its pause (after any storing)
        clock.advance(DELAY)
        await until(partial(_rolled_since, lobby, table.id, before))
        rolls_per_step.append(_rolls(lobby.tables[table.id]) - before)
    await lobby.close()
    lobby.store.close()
    return rolls_per_step


def _rolled_since(lobby: Lobby, table_id: str, before: int) -> bool:
    return _rolls(lobby.tables[table_id]) > before


def _rolls(table: LiveTable) -> int:
    return sum(1 for e in table.entries if e.actor == CHANCE and str(e.action).startswith("="))


def test_karolinchen_rolls_come_one_at_a_time_at_the_tables_pace(tmp_path: Path) -> None:
    """No roll before the first pause is over, then one roll per pause (each its own state
    and log line), not a burst of rolls up to the next decision."""
    assert asyncio.run(karolinchen_rolls(tmp_path)) == [0, 1, 1, 1, 1, 1, 1]
