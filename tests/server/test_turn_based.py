"""Turn-based tables on the manual clock: a day per move, the named rule when a person's time
runs out, the time bank, a restart in the middle of a turn, who may sit and how many such
tables one player may hold."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from spieltisch.server.clock import ManualClock
from spieltisch.server.common import TableError
from spieltisch.server.lobby import Lobby, SeatSpec
from spieltisch.server.store import Store
from spieltisch.server.table import LiveTable
from spieltisch.server.turnbased import BANK, DAY, TURN_SWEEP, TurnBased
from tests.server.database import db_url
from tests.server.helpers import threads
from tests.support.waits import until

T = TypeVar("T")
ANNA, BERT = "account-anna", "account-bert"


async def settle() -> None:
    """Let every task that can run, run."""
    for _ in range(50):
        await asyncio.sleep(0)


def new_lobby(path: Path, clock: ManualClock, **settings: Any) -> Lobby:
    store = Store(db_url(path, "turns"))
    return Lobby(store, bot_delay=0.0, clock=clock, executor=threads(), **settings)


async def with_lobby(
    path: Path, clock: ManualClock, work: Callable[[Lobby], Awaitable[T]], **settings: Any
) -> T:
    lobby = new_lobby(path, clock, **settings)
    lobby.load()
    lobby.resume()
    try:
        return await work(lobby)
    finally:
        await lobby.close()
        lobby.store.close()


async def two_people(lobby: Lobby, turns: TurnBased) -> LiveTable:
    """A Pickomino table of Anna (who starts) and Bert, both signed in."""
    seats = [SeatSpec(), SeatSpec()]
    table = await lobby.create("pickomino", {"start_seat": 0}, seats, seed=5, turn_based=turns)
    await lobby.join(table.id, None, "Anna", ANNA)
    await lobby.join(table.id, None, "Bert", BERT)
    await settle()
    return table


def keys(table: LiveTable) -> list[str | None]:
    return [e.key for e in table.entries]


def timeout_args(table: LiveTable) -> list[dict[str, Any]]:
    return [e.args for e in table.entries if e.key == "timeout"]


async def run_out(
    lobby: Lobby, clock: ManualClock, table: LiveTable, seconds: float, seat: int = 0
) -> None:
    """Move the clock on by `seconds` and wait until the sweep's timeout of `seat` has been
    played."""
    before = len(timeout_args(lobby.get(table.id)))

    def played() -> bool:
        now = lobby.get(table.id)
        return len(timeout_args(now)) > before and now.mover() != seat

    clock.advance(seconds)
    await until(played)


@pytest.mark.parametrize("rule", ["bot_plays", "remove"])
def test_a_one_day_table_applies_its_rule_when_time_runs_out(tmp_path: Path, rule: str) -> None:
    clock = ManualClock()

    async def work(lobby: Lobby) -> tuple[float | None, int, LiveTable]:
        table = await two_people(lobby, TurnBased("1d", rule=rule))
        deadline = lobby.timers[table.id].deadline
        clock.advance(DAY - 60)
        await settle()
        early = len(timeout_args(table))  # a minute before the day is over: still Anna's
        await run_out(lobby, clock, table, 60 + lobby.turn_sweep)
        return deadline, early, lobby.get(table.id)

    start = clock.now()
    deadline, early, table = asyncio.run(with_lobby(tmp_path, clock, work))
    assert deadline == start + DAY
    assert early == 0
    assert timeout_args(table) == [{"seat": 0, "bot": "optimal", "rule": rule}]
    anna = table.seats[0]
    if rule == "remove":  # Anna is out of the game, a bot plays her seat to the end
        assert anna.replaced and anna.bot == "optimal" and keys(table).count("replaced") == 1
    else:  # the bot played this turn only: the seat stays Anna's
        assert not anna.replaced and anna.bot is None and anna.account_id == ANNA
    assert table.mover() == 1


def test_a_restarted_site_keeps_a_turn_based_deadline(tmp_path: Path) -> None:
    """Anna's 3 days run one day, the server stops and starts again on the same database;
    then the clock is moved on to just before and past the deadline set before."""
    clock = ManualClock()

    async def before(lobby: Lobby) -> tuple[str, float | None]:
        table = await two_people(lobby, TurnBased("3d"))
        clock.advance(DAY)
        await settle()
        return table.id, lobby.timers[table.id].deadline

    async def after(lobby: Lobby, table_id: str) -> tuple[float | None, int, int]:
        kept = lobby.timers[table_id].deadline
        clock.advance(2 * DAY - 60)
        await settle()
        early = len(timeout_args(lobby.get(table_id)))
        await run_out(lobby, clock, lobby.get(table_id), 60 + lobby.turn_sweep)
        return kept, early, len(timeout_args(lobby.get(table_id)))

    async def both() -> tuple[float | None, tuple[float | None, int, int]]:
        table_id, deadline = await with_lobby(tmp_path, clock, before)
        return deadline, await with_lobby(tmp_path, clock, lambda lobby: after(lobby, table_id))

    deadline, (kept, early, late) = asyncio.run(both())
    assert deadline == clock.now() - TURN_SWEEP  # the start plus 3 days
    assert kept == deadline  # stored, not started over
    assert (early, late) == (0, 1)


def test_the_time_bank_grows_by_the_time_per_move_up_to_its_cap(tmp_path: Path) -> None:
    """Small bank on 1 h per move: 2 h to start, 1 h more after each turn, at most 3 h."""
    clock = ManualClock()
    hour = 3600.0

    async def work(lobby: Lobby) -> tuple[list[float], str | None]:
        table = await two_people(lobby, TurnBased("1h", bank="small"))
        given = [lobby.timers[table.id].deadline - clock.now()]  # type: ignore[operator]
        clock.advance(0.5 * hour)  # Anna ends her turn with 1.5 h left: 2.5 h next time
        await play_turn(lobby, table.id, 0)
        await run_out(lobby, clock, table, 2 * hour + lobby.turn_sweep, seat=1)  # Bert's 2 h
        await until(lambda: lobby.timers[table.id].clocked_seat == 0)  # Anna's clock again
        given.append(lobby.timers[table.id].deadline - clock.now())  # type: ignore[operator]
        stored = await lobby.storage.read(lobby.store.deadline_data, BANK, table.id)
        return given, stored.get(table.id)

    given, stored = asyncio.run(with_lobby(tmp_path, clock, work))
    assert given == [2 * hour, 2.5 * hour]
    assert stored is not None and '"1": 3600.0' in stored and '"0": 9000.0' in stored


async def play_turn(lobby: Lobby, table_id: str, seat: int) -> None:
    """Seat `seat` ends its turn with the first legal stop (after rolling and taking)."""
    while lobby.get(table_id).mover() == seat:
        table = lobby.get(table_id)
        legal = table.game.legal_actions(table.state)
        texts = [table.game.format_action(a) for a in legal]
        pick = next((t for t in texts if t in ("stop", "steal", "grill")), texts[0])
        await lobby.act(table_id, seat, pick, table.version)
    await settle()


def test_a_turn_based_table_waits_days_for_its_players(tmp_path: Path) -> None:
    """A real-time table nobody joined for an hour is closed; a turn-based one waits at
    least a day, and twice its longest turn."""
    clock = ManualClock()

    async def work(lobby: Lobby) -> tuple[bool, bool, bool]:
        seats = [SeatSpec(), SeatSpec()]
        turns = await lobby.create("pickomino", {}, seats, turn_based=TurnBased("3d"))
        real = await lobby.create("pickomino", {}, seats)
        await lobby.join(turns.id, None, "Anna", ANNA)
        await lobby.join(real.id, None, "Anna", ANNA)
        clock.advance(5 * DAY)
        open_now = {t.id for t in lobby.open_tables()}
        clock.advance(2 * DAY)
        closed_later = turns.id not in {t.id for t in lobby.open_tables()}
        return turns.id in open_now, real.id in open_now, closed_later

    waits, real_waits, closed_later = asyncio.run(with_lobby(tmp_path, clock, work))
    assert waits and not real_waits and closed_later


def test_turn_based_seats_are_for_signed_in_players(tmp_path: Path) -> None:
    clock = ManualClock()

    async def work(lobby: Lobby) -> str:
        table = await lobby.create(
            "pickomino", {}, [SeatSpec(), SeatSpec()], turn_based=TurnBased("1d")
        )
        with pytest.raises(TableError) as refused:
            await lobby.join(table.id, None, "Guest")
        return refused.value.code

    assert asyncio.run(with_lobby(tmp_path, clock, work)) == "turn_based_needs_account"


def test_a_player_holds_at_most_the_named_number_of_turn_based_tables(tmp_path: Path) -> None:
    clock = ManualClock()

    async def work(lobby: Lobby) -> tuple[str, str | None]:
        seats = [SeatSpec(), SeatSpec("greedy")]
        made = [
            await lobby.create("pickomino", {}, seats, turn_based=TurnBased("1d")) for _ in range(3)
        ]
        for table in made[:2]:
            await lobby.join(table.id, None, "Anna", ANNA)
        with pytest.raises(TableError) as refused:
            await lobby.join(made[2].id, None, "Anna", ANNA)
        await lobby.join(made[2].id, None, "Bert", BERT)  # another player may
        return refused.value.code, made[2].seats[0].account_id

    code, taker = asyncio.run(with_lobby(tmp_path, clock, work, max_turn_based=2))
    assert code == "too_many_turn_based"
    assert taker == BERT


def test_bad_turn_based_settings_are_refused() -> None:
    for bad in ({"move": "2d"}, {"move": "1d", "bank": "huge"}, {"move": "1d", "rule": "skip"}):
        with pytest.raises(TableError) as refused:
            TurnBased(**bad)
        assert refused.value.code == "bad_turn_based"
