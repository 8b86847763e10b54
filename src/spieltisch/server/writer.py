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
from spieltisch.server.rated import RatedEnd, rated_end
from spieltisch.server.scheduler import CATCH, CLOCK
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
    end: RatedEnd | None = None  # the rated game these rows end, for the ratings


class _LostRace(Exception):
    """Another worker stored the same version of the table first."""


class Writer:
    """The lobby's one writer: it stores what the tables queue, many tables at a time."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.pending: dict[str, asyncio.Future[None]] = {}  # table -> its commit
        self.background: set[asyncio.Task[None]] = set()  # recoveries, pushes
        self.storing: set[asyncio.Task[None]] = set()  # writes outside the group commit
        self._queue: list[_Save] = []  # saves for the next transaction
        self.reloading: set[str] = set()  # tables being read anew after a failed save
        self._task: asyncio.Task[None] | None = None

    async def save(self, table: LiveTable) -> list[tuple[EntryRow, SeatRow | None]]:
        """Return the table's queued changes once they are committed (with other tables'
        changes). If they are not, the table is already back to what is stored (see
        `_write`)."""
        replaced = self.lobby.tables.get(table.id) is not table  # after a failed save
        if replaced or table.id in self.reloading:
            table.take_unsaved()
            raise TableError("not_saved", "The table was reloaded meanwhile; look again.")
        rows = table.take_unsaved()
        if not rows:
            return rows
        loop = asyncio.get_running_loop()
        done = self.pending[table.id] = loop.create_future()
        end = rated_end(table, self.lobby.clock.now())
        self._queue.append(_Save(table.id, rows, done, end))
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
        learns how its save went. The commit runs in the storage thread: while it does, the
        loop goes on and new saves gather for the next transaction. A table whose save
        failed leaves memory at once and is rebuilt from the database, so no later entry can
        be stored after a missing one."""
        while self._queue:
            saves, self._queue = self._queue, []
            batch = [(s.table_id, entry, seat) for s in saves for entry, seat in s.rows]
            ends = [s.end for s in saves if s.end is not None]
            try:
                await self.lobby.storage.write(self.lobby.store.add_entries, batch, ends)
            except IntegrityError:
                await self._store_each(saves)  # another worker stored one of these first
            except Exception as error:
                await self._saves_failed(saves, error)
            else:
                for save in saves:
                    save.done.set_result(None)

    async def _store_each(self, saves: list[_Save]) -> None:
        """One transaction per table, so that only the tables that lost a race fail."""
        for save in saves:
            rows = [(save.table_id, e, s) for e, s in save.rows]
            ends = [save.end] if save.end is not None else []
            try:
                await self.lobby.storage.write(self.lobby.store.add_entries, rows, ends)
            except IntegrityError:
                await self._lost_race(save)
            except Exception as error:
                await self._saves_failed([save], error)
            else:
                save.done.set_result(None)

    async def _lost_race(self, save: _Save) -> None:
        """The table is read anew (with the other worker's change), shown and scheduled."""
        first = save.rows[0][0].seq
        log.info("table %s: another worker stored version %d first", save.table_id, first)
        later = self._take_queued({save.table_id})
        await self.reload(save.table_id)
        self._fail([save, *later], _LostRace())
        table = self.lobby.tables.get(save.table_id)
        if table is not None:
            self.lobby.scheduler.schedule(table)
            self.in_background(self.lobby.pusher.push(table))

    async def _saves_failed(self, saves: list[_Save], error: Exception) -> None:
        failed = {save.table_id for save in saves}
        log.error("storing failed for tables %s (%s)", ", ".join(sorted(failed)), reason(error))
        later = self._take_queued(failed)
        await asyncio.gather(*(self.reload(table_id) for table_id in failed))
        self._fail([*saves, *later], error)  # the waiters hear of it with the table rebuilt

    def _take_queued(self, table_ids: set[str]) -> list[_Save]:
        """The saves of these tables that came while their failed one was being stored: they
        build on it, so they fail with it."""
        taken = [save for save in self._queue if save.table_id in table_ids]
        self._queue = [save for save in self._queue if save.table_id not in table_ids]
        return taken

    @staticmethod
    def _fail(saves: list[_Save], error: Exception) -> None:
        for save in saves:
            save.done.set_exception(error)
            save.done.exception()  # retrieved: the waiters report it

    async def reload(self, table_id: str) -> None:
        """Back to what is stored (while it is read, the table stores no change); if the
        database cannot be read either, the table is unavailable (its work stops) until a
        recovery task can load it."""
        table = self.lobby.tables.get(table_id)
        if table is None or table_id in self.reloading:
            return
        self.reloading.add(table_id)
        try:
            fresh = await self.lobby.storage.read(self.lobby.keeper.read, table.row)
        except Exception as error:
            log.warning(
                "table %s is unavailable until storage is back (%s)", table_id, reason(error)
            )
            del self.lobby.tables[table_id]
            self.lobby.unavailable[table_id] = table.row
            self.lobby.scheduler.stop_timers(table_id)
            self.in_background(self._recover(table_id))
            return
        finally:
            self.reloading.discard(table_id)
        if table.show is not None and table.show.version <= fresh.version:
            fresh.show = table.show  # the motion the clients play, with its catch window
        self.lobby.tables[table_id] = fresh

    def in_background(self, work: Awaitable[None]) -> None:
        """Work that stops with the server (recoveries, pushes)."""
        task = asyncio.ensure_future(work)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    def store_in_background(self, work: Awaitable[None]) -> None:
        """A write outside the group commit (a turn clock, a closing) that the server finishes
        before it stops."""
        task = asyncio.ensure_future(work)
        self.storing.add(task)
        task.add_done_callback(self.storing.discard)

    async def finish(self) -> None:
        """Wait until every queued save and write is stored (or has failed), as the server
        stops; each write is bounded (`server.storage`)."""
        while (self._task is not None and not self._task.done()) or self.storing:
            waiting = [*self.storing, *([self._task] if self._task is not None else [])]
            await asyncio.gather(*waiting, return_exceptions=True)

    async def _recover(self, table_id: str) -> None:
        """Load an unavailable table again with back-off; once it loads, it goes on."""
        delay = self.lobby.retry_first
        while True:
            await self.lobby.clock.sleep(delay)
            try:
                row = self.lobby.unavailable[table_id]
                table = await self.lobby.storage.read(self.lobby.keeper.read, row)
                table.run_chance()  # dice that were due but not stored
                await self.lobby.keeper.store_soon(table)
                store = self.lobby.store
                clocks = await self.lobby.storage.read(store.deadlines, CLOCK, table_id)
                clock = clocks.get(table_id)
                catches = await self.lobby.storage.read(store.deadline_data, CATCH, table_id)
            except Exception:
                delay = min(2 * delay, self.lobby.retry_most)
                continue
            log.info("table %s is back (version %d)", table_id, table.version)
            del self.lobby.unavailable[table_id]
            self.lobby.tables[table_id] = table
            self.lobby.scheduler.restore_clock(table, clock)  # its turn clock runs on
            self.lobby.scheduler.restore_catch(table, catches.get(table_id))  # its catch too
            self.lobby.scheduler.schedule(table)
            await self.lobby.pusher.push(table)
            return
