"""The tables a worker keeps in memory, and their lifecycle: loading them (at start-up, when
another worker made one, after a failed save), keeping the latest finished games and reading
an older one again on demand, closing idle tables and forgetting closed ones.

A restart loses nothing: every table is rebuilt by replaying its stored actions, a turn
clock that was running is taken up with its stored deadline, and a person's open catch window
with its stored motion and deadlines; a catch window that ran out while the server was down
(or was not stored) is closed empty at once.
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import TYPE_CHECKING

from sqlalchemy.exc import SQLAlchemyError

from spieltisch.server.common import TableError, is_tutorial, reason
from spieltisch.server.rated import RatedEnd, rated_end
from spieltisch.server.scheduler import CATCH, CLOCK, open_window_of
from spieltisch.server.store import EntryRow, SeatRow, TableRow
from spieltisch.server.table import LiveTable
from spieltisch.server.turnbased import BANK, turn_based_of

if TYPE_CHECKING:
    from spieltisch.server.lobby import Lobby

__all__ = ["TableKeeper"]

log = logging.getLogger(__name__)


class _Unreadable(Exception):
    """A table's rows cannot be read while the database itself can."""


class TableKeeper:
    """Brings tables into the lobby's memory and lets them go."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self._swept = 0.0  # when idle tables were last looked for

    def load(self) -> None:
        """Rebuild every stored table (after a restart, from the same states), with its turn
        clock and catch window; a table that cannot be rebuilt is marked broken and the others
        start. (The windows are read first: a table read after is at least as new.)"""
        catches = self.lobby.store.deadline_data(CATCH)
        clocks = self.lobby.store.deadlines(CLOCK)
        banks = self.lobby.store.deadline_data(BANK)
        for table_id in self.lobby.store.table_ids():
            table = self.add(table_id, at_start=True, catch=catches.get(table_id))
            if table is not None:
                self.lobby.scheduler.restore_clock(table, clocks.get(table_id))
                self.lobby.scheduler.turns.restore_banks(table_id, banks.get(table_id))
        self.lobby.broken.update(self.lobby.store.broken())
        self.lobby.closed.update(self.lobby.store.closed())

    async def add_stored(self, table_id: str) -> None:
        """A table another worker made (or that left this worker's memory) is read, beside
        the event loop; whatever fails marks it broken here (that worker may run a newer
        version that can load it), unless the database cannot be reached at all."""
        if self.knows(table_id):
            return
        try:
            table = await self.lobby.storage.read(self._read_stored, table_id)
        except Exception as error:
            if isinstance(error, SQLAlchemyError):
                raise
            self._mark_broken(table_id, reason(error), stored=False)
            return
        if table is None:
            return
        known = self.lobby.tables.get(table_id)
        if known is None and not self.knows(table_id):
            self._take(table)
        elif known is not None and table.version > known.version:
            # an earlier read (for the table's first news) came back after this one: the
            # table in memory is older than what this read saw, and no news may follow soon
            await self.lobby.news.refresh(table_id)

    def _read_stored(self, table_id: str) -> LiveTable | None:
        """The stored table rebuilt (in a storage thread); a database error that is not the
        table's own is raised as such."""
        try:
            row = self.lobby.store.table(table_id)
            return None if row is None else self.read(row)
        except SQLAlchemyError:
            if not self.lobby.store.readable():
                raise
            raise _Unreadable("its rows cannot be read") from None

    def knows(self, table_id: str) -> bool:
        """Whether the table is in memory, or known to be closed, broken, unavailable or
        finished and stored away."""
        lobby = self.lobby
        found = (lobby.tables, lobby.closed, lobby.broken, lobby.unavailable, lobby.stored_away)
        return any(table_id in where for where in found)

    def add(
        self, table_id: str, at_start: bool = False, catch: str | None = None
    ) -> LiveTable | None:
        """The one way a stored table comes into memory, at start-up (`at_start`, with its
        stored catch window) or when another worker made it. Whatever fails while reading or
        replaying it (bad JSON, bad text, rules that refuse a stored move) marks it broken,
        and None is returned; only a database that cannot be reached at all stops the caller.
        At start-up the table is also marked broken in the database; a table another worker
        made is only skipped here (that worker may run a newer version that can load it)."""
        try:
            row = self.lobby.store.table(table_id)
            if row is None:
                return None
            table = self.read(row)
            if at_start:
                self.lobby.scheduler.restore_catch(table, catch)
            if at_start and not self.lobby.site.shared:  # else its owner does (`gained`)
                self.close_lost_catch(table)
                self.roll_lost_chance(table)
        except Exception as error:
            if isinstance(error, SQLAlchemyError) and not self.lobby.store.readable():
                raise  # the database, not the table: nothing can go on
            self._mark_broken(table_id, reason(error), stored=at_start)
            return None
        self._take(table)
        return table

    def _take(self, table: LiveTable) -> None:
        self.lobby.tables[table.id] = table
        if table.over:
            self.keep_finished(table.id)

    def _mark_broken(self, table_id: str, why: str, stored: bool) -> None:
        log.error("table %s cannot be loaded (%s); it is marked broken and skipped", table_id, why)
        if stored:
            self.lobby.store.mark_broken(table_id, why)
        self.lobby.broken[table_id] = why

    def read(self, row: TableRow) -> LiveTable:
        table = LiveTable.load(self.lobby.store, row, self.lobby.timing)
        table.inline_physics = False
        table.touched = self.lobby.clock.now()
        return table

    def close_lost_catch(self, table: LiveTable) -> None:
        """A person's catch window that was not stored, or ran out while the server was down,
        is closed empty at once; a stored one still open runs on (`Scheduler.schedule`)."""
        seat, window = table.catcher(), open_window_of(table)
        if seat is None or (window is not None and self.lobby.clock.now() < window.closes):
            return
        table.event("catch_lost", {"seat": seat}, None)
        table.play(seat, "catch none")
        self.store_now(table)

    def roll_lost_chance(self, table: LiveTable) -> None:
        """Dice that were due but not stored (the server stopped in between) are rolled now:
        the same dice, as they are drawn by the table's seed and version."""
        table.run_chance()
        self.store_now(table)

    def store_now(self, table: LiveTable) -> None:
        """Store the table's queued changes at once, outside the group commit (at start-up,
        before the event loop serves anybody)."""
        self.lobby.store.add_entries(*self._unsaved(table))

    async def store_soon(self, table: LiveTable) -> None:
        """Store the table's queued changes outside the group commit, beside the loop."""
        await self.lobby.storage.write(self.lobby.store.add_entries, *self._unsaved(table))

    def _unsaved(
        self, table: LiveTable
    ) -> tuple[list[tuple[str, EntryRow, SeatRow | None]], list[RatedEnd]]:
        """The table's queued changes, with its rated end if they end its game."""
        rows = [(table.id, e, s) for e, s in table.take_unsaved()]
        end = rated_end(table, self.lobby.clock.now()) if rows else None
        return rows, [end] if end is not None else []

    async def fetch_finished(self, table_id: str) -> LiveTable:
        """A finished game that left memory, read again (and kept among the latest)."""
        table = await self.lobby.storage.read(self._read_stored, table_id)
        if table is None:
            raise TableError("no_table", f"There is no table '{table_id}'.")
        if table_id in self.lobby.tables:  # another reader was quicker
            return self.lobby.tables[table_id]
        self.lobby.stored_away.discard(table_id)
        self._take(table)
        return table

    def keep_finished(self, table_id: str) -> None:
        """Memory holds the latest `finished_kept` finished games; an older one is read from
        the database again when somebody asks for it (its record or replay)."""
        if table_id in self.lobby.finished_in_memory:
            return
        self.lobby.finished_in_memory.append(table_id)
        while len(self.lobby.finished_in_memory) > self.lobby.finished_kept:
            oldest = self.lobby.finished_in_memory.pop(0)
            if oldest in self.lobby.tables and not self.lobby.connections.get(oldest):
                del self.lobby.tables[oldest]
                self.lobby.timers.pop(oldest, None)
                self.lobby.connections.pop(oldest, None)
                self.lobby.stored_away.add(oldest)

    def close_idle(self) -> None:
        """Close the unfinished tables that have not changed for `idle_close` seconds, or for
        `waiting_close` seconds when still waiting for players or a guided game (looked for at
        most every few minutes, when the lobby is looked at or a table is made; the closing is
        stored in the background)."""
        now = self.lobby.clock.now()
        shortest = min(self.lobby.idle_close, self.lobby.waiting_close)
        if now - self._swept < min(60.0, shortest / 4):
            return
        self._swept = now
        for table in list(self.lobby.tables.values()):
            idle = now - table.touched >= self._idle_limit(table)
            if not table.over and idle and self.lobby.site.owns(table.id):
                self.close_table(table, now)

    def _idle_limit(self, table: LiveTable) -> float:
        """How long the table may go without a change: a game in play waits longer for its
        players than a table nobody sat down at or a guided game left alone."""
        turns = turn_based_of(table)
        if turns is not None:  # its players come over days; its clock moves it on in time
            return max(self.lobby.idle_close, 2 * turns.longest())
        if table.started and not is_tutorial(table):
            return self.lobby.idle_close
        return min(self.lobby.idle_close, self.lobby.waiting_close)

    def close_table(self, table: LiveTable, now: float) -> None:
        """Note the closing in the table's history, let it go from memory and tell whoever
        still looks at it; its rows are stored in the background."""
        table.event("closed", {"idle_seconds": round(now - table.touched)}, None)
        self.forget(table.id)
        self.lobby.writer.store_in_background(self._store_closing(table, now))

    async def _store_closing(self, table: LiveTable, now: float) -> None:
        """Keep a closed table's rows; if they cannot be stored, it is read anew and stays
        open for now."""
        try:
            await self.store_soon(table)
            await self.lobby.storage.write(self.lobby.store.mark_closed, table.id, now)
        except SQLAlchemyError:
            log.exception("table %s: closing it failed; it stays open for now", table.id)
            self.lobby.closed.discard(table.id)
            with contextlib.suppress(SQLAlchemyError):  # else it is read on demand
                await self.add_stored(table.id)
            return
        log.info("table %s: closed after %d s without a change", table.id, now - table.touched)
        self.lobby.site.publish({"k": "closed", "t": table.id})

    def forget(self, table_id: str) -> None:
        """A closed table leaves memory; whoever still looks at it is told."""
        self.lobby.tables.pop(table_id, None)
        self.lobby.closed.add(table_id)
        self.lobby.scheduler.stop_timers(table_id)
        gone = TableError("table_closed", "This table was closed: nobody played on it for long.")
        message = json.dumps({"type": "error", "code": gone.code, "message": gone.message})
        for connection in list(self.lobby.connections.pop(table_id, set())):
            connection.finish(message)
