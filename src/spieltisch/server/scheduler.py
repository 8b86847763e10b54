"""The timed work of the tables: bot turns, a Riff Raff placement's physics, turn clocks and
catch windows.

Each kind of work a table needs now runs as one task per table, supervised: a failure (a
storage error, a bug) is logged and the work runs again after a growing back-off, starting
from the table as it is then. The work waits on the lobby's clock, is done only if the table
is still at the version it was planned for and this worker still holds its lease, and goes
through the same play, store and push steps as a person's move. A turn clock's deadline and
a person's open catch window (with the motion the clients play) are stored (`deadlines`), so
a restart or another worker taking the table over keeps them instead of starting the clock
over or closing the window empty.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import BrokenExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from spieltisch.server.common import (
    TableError,
    bot_decision,
    is_tutorial,
    reason,
    stand_in_bot,
    tutorial_left,
)
from spieltisch.server.hooks import settle_with_motion
from spieltisch.server.settle import CatchWindow, Show
from spieltisch.server.table import LiveTable
from spieltisch.server.turnbased import TurnClocks, turn_based_of

if TYPE_CHECKING:
    from spieltisch.server.lobby import Lobby

__all__ = ["BOT_PACES", "CATCH", "CLOCK", "TUTORIAL_PACE", "Scheduler", "Timers", "open_window_of"]

log = logging.getLogger(__name__)

TUTORIAL_PACE = 2.0
"""A guided game's bot waits this many times the usual delay, slow enough to follow."""
BOT_PACES = {"instant": 0.0, "normal": 1.0, "slow": 2.5}
"""A table's bot pace: how many times the lobby's `bot_delay` its bots pause before a move."""
CLOCK = "clock"
"""The kind of a turn clock's stored deadline."""
CATCH = "catch"
"""The kind of an open catch window's stored deadline; its data is the show (`Show.to_json`)."""
_KEPT = {CLOCK: "turn clock", CATCH: "catch window"}


@dataclass
class Timers:
    """A table's timed work that runs now, and its turn clock."""

    bot: asyncio.Task[None] | None = None
    clock: asyncio.Task[None] | None = None
    catch: asyncio.Task[None] | None = None  # closes a person's catch window
    catch_window: CatchWindow | None = None  # the window that `catch` closes
    catch_stored: bool = False  # a catch window may be stored: dropped once it is over
    physics: asyncio.Task[None] | None = None  # a Riff Raff placement's settle
    roll: asyncio.Task[None] | None = None  # a paced roll (Karolinchen)
    deadline: float | None = None  # wall-clock time when the turn clock runs out
    clocked_seat: int | None = None
    banks: dict[int, float] | None = None  # a turn-based table's time left per seat

    def tasks(self) -> list[asyncio.Task[None]]:
        """The table's timer tasks that exist."""
        tasks = (self.bot, self.clock, self.catch, self.physics, self.roll)
        return [t for t in tasks if t is not None]


class Scheduler:
    """Plans and runs the timed work of the lobby's tables."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.turns = TurnClocks(lobby)
        self.sweeper: asyncio.Task[None] | None = None

    def resume(self) -> None:
        """Start the bots and clocks of every table (needs the running event loop)."""
        self.lobby.work.warm()
        for table in self.lobby.tables.values():
            self.schedule(table)
        self.sweeper = asyncio.get_running_loop().create_task(self.turns.sweep_forever())

    def timers_of(self, table_id: str) -> Timers:
        return self.lobby.timers.setdefault(table_id, Timers())

    def schedule(self, table: LiveTable) -> None:
        if tutorial_left(table) or not self.lobby.site.owns(table.id):
            return
        timers = self.lobby.timers.setdefault(table.id, Timers())
        table.chance_pause = self.bot_pause(table)
        if not self.waits_for_learner(table):
            self.schedule_play(table, timers)
        self.schedule_clock(table, timers)
        self.schedule_catch(table, timers)

    def waits_for_learner(self, table: LiveTable) -> bool:
        """A guided game goes on only while a learner's page is open: its lessons explain
        each step as it happens, so nothing may run ahead before the page is there."""
        return is_tutorial(table) and not self.lobby.presence.anyone_here(table)

    def schedule_play(self, table: LiveTable, timers: Timers) -> None:
        """Start the table's bot, paced roll or placement physics if one is due."""
        if table.roll_due() and (timers.roll is None or timers.roll.done()):
            timers.roll = self.supervised("roll", table.id, self.roll)
        if table.bot_to_move() is not None and (timers.bot is None or timers.bot.done()):
            timers.bot = self.supervised("bot turn", table.id, self.bot_turn)
        if table.physics_due() and (timers.physics is None or timers.physics.done()):
            timers.physics = self.supervised("physics", table.id, self.settle)

    def supervised(
        self, what: str, table_id: str, work: Callable[..., Awaitable[None]], *args: Any
    ) -> asyncio.Task[None]:
        """A task running `work(table_id, *args)`; when it fails (a save error, a bug) it is
        logged and run again after a back-off, so a table goes on once storage is back."""

        async def supervise() -> None:
            delay = self.lobby.retry_first
            while True:
                try:
                    return await work(table_id, *args)
                except Exception as error:
                    if isinstance(error, TableError) and error.code == "stale_version":
                        continue  # another worker came first: the table was read anew
                    log.exception("table %s: %s failed; again in %g s", table_id, what, delay)
                await self.lobby.clock.sleep(delay)
                delay = min(2 * delay, self.lobby.retry_most)

        return asyncio.get_running_loop().create_task(supervise())

    def schedule_clock(self, table: LiveTable, timers: Timers) -> None:
        seat = table.mover()
        human = seat is not None and table.seats[seat].bot is None
        turns = turn_based_of(table)
        if not human or table.row.clock is None:
            if timers.deadline is not None:  # the other workers forget it too
                self.lobby.site.publish(
                    {"k": "clock", "t": table.id, "v": table.version, "d": None}
                )
                self._keep(table.id, CLOCK, None)
                self.turns.turn_ended(table, timers)
            self.stop_clock(timers)
            return
        if timers.clock is not None and not timers.clock.done() and timers.clocked_seat == seat:
            return  # the same person's turn goes on: the clock keeps running
        if turns is not None and timers.deadline is not None and timers.clocked_seat == seat:
            return  # the same on a turn-based table, whose deadline the sweep watches
        taken_over = timers.deadline if timers.clocked_seat == seat else None  # heard or stored
        if taken_over is None:
            self.turns.turn_ended(table, timers)
        self.stop_clock(timers)
        assert seat is not None
        if turns is None:
            turn_time = table.row.clock
        else:
            turn_time = self.turns.time_for(table, turns, seat, timers)
        timers.deadline = taken_over or self.lobby.clock.now() + turn_time
        timers.clocked_seat = seat
        if taken_over is None:
            self._keep(table.id, CLOCK, (seat, timers.deadline))
            if turns is not None:
                self.turns.turn_passed(table, seat, timers.deadline)
        if turns is None:
            timers.clock = self.supervised(
                "turn clock", table.id, self.run_clock, timers.deadline, seat
            )
        self.lobby.site.publish(
            {"k": "clock", "t": table.id, "v": table.version, "d": timers.deadline}
        )

    @staticmethod
    def stop_clock(timers: Timers) -> None:
        if timers.clock is not None and not timers.clock.done():
            timers.clock.cancel()
        timers.clock, timers.deadline, timers.clocked_seat = None, None, None

    def unchanged(self, table: LiveTable, version: int) -> bool:
        """Whether `table` is still the live table at `version` (after work beside the loop)
        and this worker still runs its timers."""
        live = self.lobby.tables.get(table.id) is table and table.version == version
        return live and self.lobby.site.owns(table.id)

    async def bot_turn(self, table_id: str) -> None:
        """Play the bots' moves while a bot is to move; a move decided on a table that has
        changed meanwhile is thrown away and decided anew."""
        while (spec := self.lobby.tables[table_id].bot_to_move()) is not None:
            await self.lobby.clock.sleep(self.bot_pause(self.lobby.tables[table_id]))
            table = self.lobby.tables[table_id]
            if tutorial_left(table) or self.waits_for_learner(table):
                return  # started again when a learner comes back (`Lobby.connect`)
            await self.lobby.clock.sleep(
                table.show_left(self.lobby.clock.now())
            )  # the ship's motion
            spec, seat, version = table.bot_to_move(), table.mover(), table.version
            if spec is None or seat is None:
                return
            try:
                action = await self.decide(table, spec)
            except BrokenExecutor:
                raise  # a worker died, not the bot's fault: tried again (see `supervised`)
            except Exception as error:  # it raised or ran out of time
                if self.unchanged(table, version):
                    await self.replace_bot(table, seat, spec, error)
                continue
            if self.unchanged(table, version):
                table.play(seat, action)
                await self.lobby.changed(table)

    def bot_pause(self, table: LiveTable) -> float:
        """Seconds a bot at `table` waits before each move, by the table's pace (a guided
        game's bot is slower still, so the learner can follow)."""
        tutorial = TUTORIAL_PACE if is_tutorial(table) else 1.0
        return self.lobby.bot_delay * BOT_PACES.get(table.row.pace, 1.0) * tutorial

    async def decide(self, table: LiveTable, spec: str) -> str:
        """The move of bot `spec` at `table` now, worked out in the pool."""
        return await self.lobby.work.run(
            bot_decision, table.game, table.state, spec, table.bot_seed
        )

    async def replace_bot(self, table: LiveTable, seat: int, spec: str, error: Exception) -> None:
        """A bot that failed is replaced for the rest of the game: by the game's stand-in,
        or by the random bot if the stand-in itself failed."""
        stand_in = stand_in_bot(table.game)
        if spec == stand_in:
            stand_in = "random"
        if spec == stand_in:
            raise error  # even the random bot fails: retried later (see `supervised`)
        log.warning(
            "table %s: bot %s of seat %d failed (%s); %s plays on",
            table.id,
            spec,
            seat + 1,
            reason(error),
            stand_in,
        )
        table.replace_bot(seat, stand_in, {"bot": spec, "reason": reason(error)})
        await self.lobby.changed(table)

    async def roll(self, table_id: str) -> None:
        """Draw a paced game's rolls one at a time, each after the table's pause, so each is
        shown (and logged) by itself."""
        while (table := self.lobby.tables[table_id]).roll_due() and not tutorial_left(table):
            version = table.version
            await self.lobby.clock.sleep(table.chance_pause)
            if self.waits_for_learner(table):
                return  # started again when a learner comes back (`Lobby.connect`)
            if self.unchanged(table, version) and table.roll_due():
                table.roll()
                await self.lobby.changed(table)

    async def settle(self, table_id: str) -> None:
        """Run the physics of the chance node due (a Riff Raff placement) in the pool, then
        apply and push it."""
        while (table := self.lobby.tables[table_id]).physics_due() and not tutorial_left(table):
            version = table.version
            motion = await self.lobby.work.run(
                settle_with_motion, table.game, table.state, table.dice()
            )
            if motion is not None and self.unchanged(table, version):
                table.apply_motion(motion)
                await self.lobby.changed(table)

    async def run_clock(self, table_id: str, deadline: float, seat: int) -> None:
        await self.lobby.clock.sleep(max(0.0, deadline - self.lobby.clock.now()))
        timers = self.lobby.timers[table_id]
        table = self.lobby.tables[table_id]
        if timers.clock is asyncio.current_task():  # run out: the next turn gets a new clock
            if table.mover() == seat:
                self.turns.turn_ended(table, timers, timed_out=True)
            timers.clock, timers.deadline, timers.clocked_seat = None, None, None
            self._keep(table_id, CLOCK, None)
        if table.mover() != seat:
            return
        spec = stand_in_bot(table.game)
        turns = turn_based_of(table)
        if turns is not None and turns.rule == "remove":  # a bot plays the seat from now on
            table.event("timeout", {"seat": seat, "bot": spec, "rule": turns.rule}, None)
            table.leave(seat, spec)
            await self.lobby.changed(table)
            return
        told = {} if turns is None else {"rule": turns.rule}
        table.event("timeout", {"seat": seat, "bot": spec, **told}, None)
        while (table := self.lobby.tables[table.id]).mover() == seat:
            version = table.version
            try:
                action = await self.decide(table, spec)
            except Exception as error:
                log.warning("table %s: stand-in %s failed (%s)", table.id, spec, reason(error))
                action = table.bot_action("random")  # quick, and cannot fail
            if self.unchanged(table, version):
                table.play(seat, action)
        await self.lobby.changed(table)

    def open_catch(self, table: LiveTable, show: Show) -> None:
        """A person's catch window has just opened: it is stored, with the show, so that a
        restart or another worker keeps it, and its close is planned."""
        window = show.window
        assert window is not None
        timers = self.lobby.timers.setdefault(table.id, Timers())
        timers.catch_stored = True
        data = json.dumps(show.to_json(), separators=(",", ":"))
        self._keep(table.id, CATCH, (window.seat, window.closes), data)
        self._run_catch(table.id, timers, window)

    def schedule_catch(self, table: LiveTable, timers: Timers) -> None:
        """Plan the close of the person's open catch window (one taken over or reopened after
        a restart runs to its stored end); once the table has moved on, the stored window is
        dropped."""
        window = open_window_of(table)
        if window is not None:
            timers.catch_stored = True  # by this worker or the one before
            self._run_catch(table.id, timers, window)
        elif timers.catch_stored:
            timers.catch_stored = False
            self._keep(table.id, CATCH, None)

    def _run_catch(self, table_id: str, timers: Timers, window: CatchWindow) -> None:
        running = timers.catch is not None and not timers.catch.done()
        if running and timers.catch_window is window:
            return
        if timers.catch is not None and running:
            timers.catch.cancel()
        timers.catch_window = window
        timers.catch = self.supervised("catch window", table_id, self.close_catch, window)

    async def close_catch(self, table_id: str, window: CatchWindow) -> None:
        """When the window runs out, the person has caught nothing: the server says so."""
        await self.lobby.clock.sleep(max(0.0, window.closes - self.lobby.clock.now()))
        table = self.lobby.tables[table_id]
        if table.version != window.version or table.catcher() != window.seat:
            return
        if not self.lobby.site.owns(table_id):
            return
        table.play(window.seat, "catch none")
        await self.lobby.changed(table)

    async def stop(self) -> None:
        """Stop the sweep of turn-based deadlines."""
        if self.sweeper is not None:
            self.sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sweeper

    def stop_timers(self, table_id: str) -> None:
        timers = self.lobby.timers.pop(table_id, Timers())
        for task in timers.tasks():
            if task is not asyncio.current_task():
                task.cancel()

    def _keep(
        self, table_id: str, kind: str, due: tuple[int, float] | None, data: str | None = None
    ) -> None:
        """Store a turn clock's or catch window's (seat, deadline) with its `data`, or that
        none runs, so that a restart keeps it; the writes keep their order in the storage
        thread, and if one fails the work runs on in memory (a restart would not keep it)."""
        self.lobby.writer.store_in_background(self._store(table_id, kind, due, data))

    async def _store(
        self, table_id: str, kind: str, due: tuple[int, float] | None, data: str | None
    ) -> None:
        store, storage = self.lobby.store, self.lobby.storage
        try:
            if due is None:
                await storage.write(store.drop_deadline, table_id, kind)
            else:
                await storage.write(store.set_deadline, table_id, kind, *due, data)
        except SQLAlchemyError as error:
            what = _KEPT[kind]
            log.warning("table %s: its %s was not stored (%s)", table_id, what, reason(error))

    def restore_clock(self, table: LiveTable, clock: tuple[int, float] | None) -> None:
        """Take a stored turn clock (seat, deadline) up again if that seat is still to move."""
        if clock is not None and clock[0] == table.mover():
            timers = self.lobby.timers.setdefault(table.id, Timers())
            timers.clocked_seat, timers.deadline = clock

    def restore_catch(self, table: LiveTable, data: str | None) -> bool:
        """Take a stored catch window (its show as JSON) up again if the table is still in
        that person's catch; True if so (the window may have run out meanwhile)."""
        if data is None:
            return False
        self.lobby.timers.setdefault(table.id, Timers()).catch_stored = True  # dropped when over
        try:
            show = Show.from_json(json.loads(data))
        except (ValueError, LookupError, TypeError) as error:
            log.warning("table %s: its stored catch window is unreadable (%s)", table.id, error)
            return False
        window = show.window
        if window is None or window.version != table.version or window.seat != table.catcher():
            return False
        table.show = show
        return True


def open_window_of(table: LiveTable) -> CatchWindow | None:
    """The catch window of the person to catch now, if it is known (open or run out)."""
    window = table.window()
    if window is None or window.version != table.version or window.seat != table.catcher():
        return None
    return window
