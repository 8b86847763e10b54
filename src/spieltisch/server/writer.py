"""Storing the tables' changes: the group commit writer, lost races, failed saves, recovery.

Changes of many tables that arrive together are stored in one transaction, so the database is
not the bottleneck of a busy server. A table whose save fails is rebuilt from the database at
once; if the database cannot be read either, the table leaves memory (`unavailable`) and a
recovery task loads it again with back-off. A worker that stores a version another worker
stored first answers `stale_version` and reads the table anew.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy.exc import IntegrityError

from spieltisch.server.common import TableError, reason
from spieltisch.server.scheduler import CLOCK
from spieltisch.server.store import EntryRow, SeatRow
from spieltisch.server.table import LiveTable

if TYPE_CHECKING:
    from spieltisch.server.lobby import Lobby

__all__ = ["Writer"]

log = logging.getLogger(__name__)


@dataclass
class _Save:
    """A table's new entries, to be stored with other tables' in one transaction."""

    table_id: str
    rows: list[tuple[EntryRow, SeatRow | None]]
    done: asyncio.Future[None]


class _LostRace(Exception):
    """Another worker stored the same version of the table first."""


class Writer:
    """The lobby's one writer: it stores what the tables queue, many tables at a time."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.pending: dict[str, asyncio.Future[None]] = {}  # table -> its commit
        self.background: set[asyncio.Task[None]] = set()  # recoveries, pushes
        self._queue: list[_Save] = []  # saves for the next transaction
        self._task: asyncio.Task[None] | None = None

    async def save(self, table: LiveTable) -> list[tuple[EntryRow, SeatRow | None]]:
        """Return the table's queued changes once they are committed (with other tables'
        changes). If they are not, the table is already back to what is stored (see
        `_write`)."""
        if self.lobby.tables.get(table.id) is not table:  # replaced after a failed save
            table.take_unsaved()
            raise TableError("not_saved", "The table was reloaded meanwhile; look again.")
        rows = table.take_unsaved()
        if not rows:
            return rows
        loop = asyncio.get_running_loop()
        done = self.pending[table.id] = loop.create_future()
        self._queue.append(_Save(table.id, rows, done))
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._write())
        try:
            await asyncio.shield(done)
        except _LostRace:
            raise TableError(
                "stale_version",
                "Another move was stored first; the table is as it is now, look again.",
            ) from None
        except Exception:
            raise TableError(
                "not_saved", "The move could not be saved; the table is as before, try again."
            ) from None
        return rows

    async def _write(self) -> None:
        """Commit the queued saves in one transaction until none is waiting; each waiter
        learns how its save went. A table whose save failed is rebuilt from the database at
        once, before anything else can change it, so no later entry is stored after a
        missing one."""
        while self._queue:
            saves, self._queue = self._queue, []
            batch = [(s.table_id, entry, seat) for s in saves for entry, seat in s.rows]
            try:
                self.lobby.store.add_entries(batch)  # on the loop: a thread would wait for the GIL
            except IntegrityError:
                self._store_each(saves)  # another worker stored one of these versions first
            except Exception as error:
                self._saves_failed(saves, error)
            else:
                for save in saves:
                    save.done.set_result(None)

    def _store_each(self, saves: list[_Save]) -> None:
        """One transaction per table, so that only the tables that lost a race fail."""
        for save in saves:
            try:
                self.lobby.store.add_entries([(save.table_id, e, s) for e, s in save.rows])
            except IntegrityError:
                self._lost_race(save)
            except Exception as error:
                self._saves_failed([save], error)
            else:
                save.done.set_result(None)

    def _lost_race(self, save: _Save) -> None:
        """The table is read anew (with the other worker's change), shown and scheduled."""
        first = save.rows[0][0].seq
        log.info("table %s: another worker stored version %d first", save.table_id, first)
        save.done.set_exception(_LostRace())
        save.done.exception()  # retrieved: the waiter reports it
        self.reload(save.table_id)
        table = self.lobby.tables.get(save.table_id)
        if table is not None:
            self.lobby.scheduler.schedule(table)
            self.in_background(self.lobby.pusher.push(table))

    def _saves_failed(self, saves: list[_Save], error: Exception) -> None:
        failed = {save.table_id for save in saves}
        log.error("storing failed for tables %s (%s)", ", ".join(sorted(failed)), reason(error))
        for save in saves:
            save.done.set_exception(error)
            save.done.exception()  # retrieved: the waiters report it
        for table_id in failed:
            self.reload(table_id)

    def reload(self, table_id: str) -> None:
        """Back to what is stored; if the database cannot be read either, the table is
        unavailable (its work stops) until a recovery task can load it."""
        table = self.lobby.tables.get(table_id)
        if table is None:
            return
        try:
            self.lobby.tables[table_id] = self.lobby.keeper.read(table.row)
        except Exception as error:
            log.warning(
                "table %s is unavailable until storage is back (%s)", table_id, reason(error)
            )
            del self.lobby.tables[table_id]
            self.lobby.unavailable[table_id] = table.row
            self.lobby.scheduler.stop_timers(table_id)
            self.in_background(self._recover(table_id))

    def in_background(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _recover(self, table_id: str) -> None:
        """Load an unavailable table again with back-off; once it loads, it goes on."""
        delay = self.lobby.retry_first
        while True:
            await self.lobby.clock.sleep(delay)
            try:
                table = self.lobby.keeper.read(self.lobby.unavailable[table_id])
                self.lobby.keeper.roll_lost_chance(table)
                clock = self.lobby.store.deadlines(CLOCK, table_id).get(table_id)
            except Exception:
                delay = min(2 * delay, self.lobby.retry_most)
                continue
            log.info("table %s is back (version %d)", table_id, table.version)
            del self.lobby.unavailable[table_id]
            self.lobby.tables[table_id] = table
            self.lobby.scheduler.restore_clock(table, clock)  # its turn clock runs on
            self.lobby.scheduler.schedule(table)
            await self.lobby.pusher.push(table)
            return
