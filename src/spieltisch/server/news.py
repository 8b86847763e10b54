"""What a worker of a site tells the others and hears from them, and what it does when it
gains or loses a table's lease (see `server.site`).

After each commit the worker publishes the stored rows, its turn clock and a new placement's
motion; the others bring their copy up to date and push it to their own connections. News is
only a hint: a worker that may have missed some sweeps the database instead. Only the owner
of a table's lease runs its timers; a worker that gains a lease reads what it missed, takes
up a person's catch window that it heard of or that is stored (one found nowhere is closed
empty), rolls dice that are due and starts the timers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import SQLAlchemyError

from spieltisch.server.accounts.seating import renamed
from spieltisch.server.common import TableError, reason, tutorial_left
from spieltisch.server.scheduler import CATCH, Timers, open_window_of
from spieltisch.server.settle import Show
from spieltisch.server.store import ChatRow, EntryRow, SeatRow
from spieltisch.server.table import LiveTable

if TYPE_CHECKING:
    from spieltisch.server.lobby import Lobby

__all__ = ["CLOCK_SKEW", "SiteNews"]

log = logging.getLogger(__name__)

CLOCK_SKEW = 60.0
"""Seconds the clocks of a site's machines may differ (a sweep looks back that far for new
tables)."""

_Row = tuple[EntryRow, SeatRow | None]
"""An entry and the seat it changes, as stored."""


class SiteNews:
    """The lobby's side of the site: the `Member` that `server.site` serves."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    def tell_others(self, table: LiveTable, rows: list[tuple[EntryRow, SeatRow | None]]) -> None:
        """Publish stored rows, the turn clock (if this worker runs it) and a new placement's
        motion, so the other workers need not read them from the database."""
        if not self.lobby.site.shared or not rows:
            return
        news: dict[str, Any] = {"k": "table", "t": table.id, "rows": [_row_json(r) for r in rows]}
        if self.lobby.site.owns(table.id):
            news["d"] = self.lobby.timers.get(table.id, Timers()).deadline
        show = table.show
        if show is not None and rows[0][0].seq < show.version <= table.version:
            news["show"] = show.to_json()
        self.lobby.site.publish(news)

    def wanted(self) -> list[str]:
        """The tables whose bots, clocks or catches someone must run."""
        return [t.id for t in self.lobby.tables.values() if not t.over and not tutorial_left(t)]

    async def heard(self, news: dict[str, Any]) -> None:
        """News of another worker: a change, a chat line, a turn clock, a new or closed table."""
        kind, table_id = news.get("k"), str(news.get("t"))
        if kind == "new":
            await self.lobby.keeper.add_stored(table_id)
        elif kind == "closed":
            self.lobby.keeper.forget(table_id)
        elif kind == "renamed":  # a deleted account's name left the table
            await renamed(self.lobby, table_id)
        elif kind == "chat":
            self.heard_chat(table_id, ChatRow(**news["line"]))
        elif kind == "clock":
            table = self.lobby.tables.get(table_id)
            if table is not None and self.note_clock(table, news["v"], news["d"]):
                await self.lobby.pusher.push(table)
        elif kind in ("here", "beat"):
            self.lobby.presence.heard(news)
            self.tend([table_id] if kind == "here" else [])
        elif kind == "table":
            rows = [_row_from_json(r) for r in news["rows"]]
            show = Show.from_json(news["show"]) if news.get("show") else None
            clock = (rows[-1][0].seq + 1, news["d"]) if "d" in news else None
            await self.refresh(table_id, rows, show, clock)

    async def gained(self, table_id: str) -> None:
        """This worker now runs the table's timers: it reads what it may have missed, takes
        up the person's catch window it heard of or that is stored (closing one it cannot
        find empty), rolls dice that are due and starts them."""
        await self.refresh(table_id)
        await self._read_catch(table_id)
        await self.lobby.scheduler.turns.read_banks(table_id)
        table = self.lobby.tables.get(table_id)
        if table is None or table.over or not self.lobby.site.owns(table_id):
            return
        seat = table.catcher()
        if seat is not None and open_window_of(table) is None:
            table.event("catch_lost", {"seat": seat}, None)
            table.play(seat, "catch none")
        table.run_chance()
        with contextlib.suppress(TableError):  # a lost race: the table was read anew
            await self.lobby.changed(table)  # starts the timers (else the site's next round does)

    async def _read_catch(self, table_id: str) -> None:
        """A person's catch window this worker has not heard of is read from the database
        (a known one runs to its end: `Scheduler.schedule`)."""
        table = self.lobby.tables.get(table_id)
        if table is None or table.catcher() is None or open_window_of(table) is not None:
            return
        stored = await self.lobby.storage.read(self.lobby.store.deadline_data, CATCH, table_id)
        if self.lobby.tables.get(table_id) is table:
            self.lobby.scheduler.restore_catch(table, stored.get(table_id))

    def lost(self, table_id: str) -> None:
        self.lobby.scheduler.stop_timers(table_id)

    def tend(self, table_ids: list[str]) -> None:
        """Start the timers these tables need that do not run (scheduling is idempotent)."""
        for table_id in table_ids:
            table = self.lobby.tables.get(table_id)
            if table is not None and not table.over:
                self.lobby.scheduler.schedule(table)

    async def refresh(
        self,
        table_id: str,
        rows: list[_Row] | None = None,
        show: Show | None = None,
        clock: tuple[int, float | None] | None = None,
    ) -> None:
        """Bring a table up to what another worker stored (`rows`, else read from the
        database) and to the owner's turn `clock` (version, deadline), then push it to this
        worker's connections."""
        if table_id not in self.lobby.tables:
            await self.lobby.keeper.add_stored(table_id)
            return
        pending = self.lobby.writer.pending.get(table_id)
        if pending is not None and not pending.done():  # this worker's own save goes first
            with contextlib.suppress(Exception):
                await asyncio.shield(pending)
        table = self.lobby.tables.get(table_id)
        if table is None:
            return
        before = table.version
        await self._catch_up(table, rows)
        table = self.lobby.tables.get(table_id)
        if table is None:
            return
        if clock is not None:
            self.note_clock(table, *clock)
        if table.version == before:
            return
        table.touched = self.lobby.clock.now()
        if show is not None and show.version <= table.version:
            table.show = show
            self.lobby.pusher.send(
                list(self.lobby.connections.get(table_id, set())), show.message(table.touched)
            )
        self.lobby.scheduler.schedule(table)
        await self.lobby.pusher.push(table)
        if table.over:
            self.lobby.keeper.keep_finished(table_id)

    async def _catch_up(self, table: LiveTable, rows: list[_Row] | None) -> None:
        """Apply `rows`, or what the database holds past the table's version; a table that
        does not fit them is read anew."""
        try:
            if rows is not None and table.catch_up(rows):
                return
            storage, store = self.lobby.storage, self.lobby.store
            seats, entries = await storage.read(store.snapshot, table.id, since=table.version)
            changed = {s.seat: s for s in seats}
            if table.catch_up([(e, changed.get(e.args.get("seat", -1))) for e in entries]):
                return
        except SQLAlchemyError:
            raise
        except Exception as error:
            log.warning("table %s: read anew (%s)", table.id, reason(error))
        await self.lobby.writer.reload(table.id)

    def note_clock(self, table: LiveTable, version: int, deadline: float | None) -> bool:
        """Keep the owner's turn clock, as of `version`, for the connections and for a
        takeover; True when the table is at that version (its picture shows the clock)."""
        if self.lobby.site.owns(table.id):
            return False
        timers = self.lobby.timers.setdefault(table.id, Timers())
        timers.deadline = deadline  # kept if this worker takes over
        timers.clocked_seat = table.mover() if table.version == version else None
        return table.version == version

    def heard_chat(self, table_id: str, line: ChatRow) -> None:
        table = self.lobby.tables.get(table_id)
        if table is not None and table.chat.heard(line):
            self.lobby.pusher.send_chat(table, line)

    async def sweep(self) -> None:
        """Look in the database for what other workers changed (while news may be missed):
        new versions, chat lines and closings of the tables in memory, and new tables."""
        storage, store = self.lobby.storage, self.lobby.store
        unfinished = [t.id for t in self.lobby.tables.values() if not t.over]
        progress = await storage.read(store.progress, unfinished)
        for table_id, (version, chats, closed) in progress.items():
            table = self.lobby.tables.get(table_id)
            if closed:
                self.lobby.keeper.forget(table_id)
            elif table is not None and chats > table.chat.count:
                unheard = chats - table.chat.count
                for line in await storage.read(store.chat, table_id, unheard):
                    self.heard_chat(table_id, line)
            if table is not None and not closed and version > table.version:
                await self.refresh(table_id)
        newest = max((t.row.created for t in self.lobby.tables.values()), default=0.0)
        for table_id in await storage.read(store.table_ids_since, newest - CLOCK_SKEW):
            await self.lobby.keeper.add_stored(table_id)


def _row_json(row: _Row) -> list[Any]:
    entry, seat = row
    stored = [entry.seq, entry.actor, entry.action, entry.key, entry.args]
    if seat is None:
        return [*stored, None]
    shown = [seat.seat, seat.bot, seat.name, seat.token_hash, seat.replaced, seat.account_id]
    return [*stored, shown]


def _row_from_json(data: list[Any]) -> _Row:
    seq, actor, action, key, args, seat = data
    return EntryRow(seq, actor, action, key, args), None if seat is None else SeatRow(*seat)
