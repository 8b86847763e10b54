"""All tables of a server: creating, joining, playing, pushing views, bots and turn clocks.

Everything runs on one event loop but the slow work: bot decisions and Riff Raff physics run
in a pool (`server.work`), and their result is applied only if the table has not changed
meanwhile. A change is checked and applied in memory, then stored, and only then pushed to
the table's connections, each of which gets the view of its own seat. Changes of many tables
that arrive together are stored in one transaction (a group commit), so the database is not
the bottleneck of a busy server.

Several workers may serve one site (`server.site`): each holds every table in memory and
hears of the others' changes; a worker that stores a version another has stored first
answers `stale_version` and reads the table anew. Only the owner of a table's lease runs its
bots, turn clock and catch window.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import BrokenExecutor, Executor
from dataclasses import dataclass, field, is_dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from spieltisch.bots.base import bot_names, read_bot_spec
from spieltisch.core.errors import InvalidOptions
from spieltisch.core.options import describe_options
from spieltisch.core.protocol import JsonValue
from spieltisch.core.registry import game_class, game_names, make_game
from spieltisch.server.clock import Clock, WallClock
from spieltisch.server.connection import Connection
from spieltisch.server.limits import TableQuota
from spieltisch.server.settle import (
    CatchTiming,
    CatchWindow,
    Show,
    open_window,
    settle_with_motion,
    table_options,
)
from spieltisch.server.site import Site
from spieltisch.server.store import ChatRow, EntryRow, SeatRow, Store, TableRow
from spieltisch.server.table import (
    CHAT_TAIL,
    LiveTable,
    TableError,
    bot_decision,
    chat_json,
    check_bot_spec,
    stand_in_bot,
)
from spieltisch.server.work import TooSlow, Work

__all__ = ["Connection", "Lobby", "SeatSpec"]

log = logging.getLogger(__name__)

MAX_NAME = 32
MAX_CHAT = 300
MAX_SEED = 2**63  # a seed is stored as a signed 64-bit integer
TUTORS = {"pickomino": "greedy", "karolinchen": "greedy", "riffraff": "random"}
"""The friendly bot of each game's guided first game ("Learn to play")."""
TUTORIAL_PACE = 2.0
"""A guided game's bot waits this many times the usual delay, slow enough to follow."""
BOT_PACES = {"instant": 0.0, "normal": 1.0, "slow": 2.5}
RACES = 3
"""How often a join or a leave is tried when other workers keep changing the table first."""
"""A table's bot pace: how many times the lobby's `bot_delay` its bots pause before a move."""


@dataclass(frozen=True)
class SeatSpec:
    """A seat when a table is made: a person (bot None) or a bot spec such as 'optimal'."""

    bot: str | None = None


_Row = tuple[EntryRow, SeatRow | None]
"""An entry and the seat it changes, as stored."""


@dataclass
class _Save:
    """A table's new entries, to be stored with other tables' in one transaction."""

    table_id: str
    rows: list[tuple[EntryRow, SeatRow | None]]
    done: asyncio.Future[None]


class _LostRace(Exception):
    """Another worker stored the same version of the table first."""


@dataclass
class _Timers:
    bot: asyncio.Task[None] | None = None
    clock: asyncio.Task[None] | None = None
    catch: asyncio.Task[None] | None = None  # closes a person's catch window
    physics: asyncio.Task[None] | None = None  # a Riff Raff placement's settle
    deadline: float | None = None  # wall-clock time when the turn clock runs out
    clocked_seat: int | None = None

    def tasks(self) -> list[asyncio.Task[None]]:
        """The table's timer tasks that exist."""
        return [t for t in (self.bot, self.clock, self.catch, self.physics) if t is not None]


@dataclass
class Lobby:
    store: Store
    bot_delay: float = 1.0  # seconds a bot waits before each action at the normal pace
    clock: Clock = field(default_factory=WallClock)  # the time of bots, clocks and catches
    timing: CatchTiming = field(default_factory=CatchTiming)  # Riff Raff's catch window
    executor: Executor | None = None  # bot decisions and physics (None: worker processes)
    work_limit: float = 30.0  # seconds a bot decision or a settle may run (see `Work`)
    retry_first: float = 1.0  # seconds before a failed bot turn, clock or catch runs again
    retry_most: float = 60.0  # the longest wait between retries (each doubles the last)
    quota: TableQuota = field(default_factory=TableQuota)  # who may make a table now
    idle_close: float = 24 * 3600.0  # an unfinished table without a change is closed after
    site: Site = field(default_factory=Site)  # the other workers of the site, if any
    tables: dict[str, LiveTable] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)  # table -> why it cannot be loaded
    closed: set[str] = field(default_factory=set)  # tables closed unfinished (idle)
    _swept: float = 0.0  # when idle tables were last looked for
    connections: dict[str, set[Connection]] = field(default_factory=dict)
    timers: dict[str, _Timers] = field(default_factory=dict)
    unavailable: dict[str, TableRow] = field(default_factory=dict)  # storage down
    finished_kept: int = 500  # finished games kept in memory (the others are read on demand)
    stored_away: set[str] = field(default_factory=set)  # finished games not in memory
    _finished: list[str] = field(default_factory=list)  # finished games in memory, oldest first
    _queue: list[_Save] = field(default_factory=list)  # saves for the next transaction
    _background: set[asyncio.Task[None]] = field(default_factory=set)  # recoveries, pushes
    _writer: asyncio.Task[None] | None = None
    _pending: dict[str, asyncio.Future[None]] = field(default_factory=dict)  # table -> commit
    _games: list[dict[str, JsonValue]] = field(default_factory=list)
    work: Work = field(init=False)

    def __post_init__(self) -> None:
        self.work = Work(self.executor, self.clock, self.work_limit)

    # --- start and stop ---------------------------------------------------------------------
    def load(self) -> None:
        """Rebuild every stored table (after a restart, from the same states). A table that
        cannot be rebuilt is logged, marked broken and skipped; the others start."""
        for row in self.store.tables():
            try:
                table = self._load(row)
                if not self.site.shared:  # else the table's owner does it (see `gained`)
                    self._close_lost_catch(table)
                    self._roll_lost_chance(table)
            except SQLAlchemyError:
                raise  # the database, not the table: nothing can start
            except Exception as error:
                self._mark_broken(row.id, _reason(error))
                continue
            self.tables[row.id] = table
            if table.over:
                self._keep_finished(row.id)
        self.broken.update(self.store.broken())
        self.closed.update(self.store.closed())

    def _mark_broken(self, table_id: str, reason: str) -> None:
        log.error(
            "table %s cannot be loaded (%s); it is marked broken and skipped", table_id, reason
        )
        self.store.mark_broken(table_id, reason)
        self.broken[table_id] = reason

    def _load(self, row: TableRow) -> LiveTable:
        table = LiveTable.load(self.store, row, self.timing)
        table.inline_physics = False
        table.touched = self.clock.now()
        return table

    def _close_lost_catch(self, table: LiveTable) -> None:
        """A person's catch window does not survive a restart (its motion is not stored):
        the catch is closed empty at once, as if the window had run out."""
        seat = table.catcher()
        if seat is None:
            return
        table.event("catch_lost", {"seat": seat}, None)
        table.play(seat, "catch none")
        self._store_now(table)

    def _roll_lost_chance(self, table: LiveTable) -> None:
        """Dice that were due but not stored (the server stopped in between) are rolled now:
        the same dice, as they are drawn by the table's seed and version."""
        table.run_chance()
        self._store_now(table)

    def _store_now(self, table: LiveTable) -> None:
        """Store the table's queued changes at once, outside the group commit (at start-up
        and when closing a table)."""
        self.store.add_entries([(table.id, e, s) for e, s in table.take_unsaved()])

    def resume(self) -> None:
        """Start the bots and clocks of every table (needs the running event loop)."""
        self.work.warm()
        for table in self.tables.values():
            self._schedule(table)

    async def close(self) -> None:
        tasks = [t for timers in self.timers.values() for t in timers.tasks()]
        tasks += list(self._background)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.work.close()

    # --- lobby ------------------------------------------------------------------------------
    def create(
        self,
        game_name: str,
        options: dict[str, Any],
        seats: Sequence[SeatSpec],
        clock: float | None = None,
        seed: int | None = None,
        address: str | None = None,
        pace: str = "normal",
    ) -> LiveTable:
        """A new table with `seats`; `address` is the client's, for the quota."""
        try:
            cls = game_class(game_name)
        except KeyError as error:
            raise TableError("unknown_game", str(error.args[0]) + ".") from None
        if not cls.min_players <= len(seats) <= cls.max_players:
            raise TableError(
                "bad_seats",
                f"{cls.title} is played by {cls.min_players} to {cls.max_players} players; "
                f"{len(seats)} seats were given.",
            )
        people = sum(1 for spec in seats if spec.bot is None)
        options = table_options(game_name, options, people)
        try:
            game = make_game(game_name, {**options, "players": len(seats)})
        except InvalidOptions as error:
            raise TableError("bad_options", f"Game options: {error}.") from None
        for spec in seats:
            if spec.bot is not None:
                check_bot_spec(spec.bot)
                try:
                    read_bot_spec(game_name, spec.bot)
                except KeyError as error:
                    raise TableError("unknown_bot", str(error.args[0]) + ".") from None
        if clock is not None and not 5 <= clock <= 3600:
            raise TableError("bad_clock", "A turn clock must be from 5 to 3600 seconds.")
        if seed is not None and not 0 <= seed < MAX_SEED:
            raise TableError("bad_seed", f"A seed must be a whole number from 0 to {MAX_SEED - 1}.")
        if pace not in BOT_PACES:
            raise TableError("bad_pace", f"A bot pace is one of: {', '.join(BOT_PACES)}.")
        self.close_idle()
        unfinished = sum(1 for table in self.tables.values() if not table.over)
        self.quota.admit(address, self.clock.now(), unfinished)
        row = TableRow(
            secrets.token_urlsafe(9),
            game_name,
            game.options_json(),
            secrets.randbelow(MAX_SEED) if seed is None else seed,
            clock,
            self.clock.now(),
            secret=secrets.token_hex(16) if seed is None else None,  # 128 bits nobody sees
            seeded=seed is not None,
            pace=pace,
        )
        seat_rows = [SeatRow(n, s.bot, None, None) for n, s in enumerate(seats)]
        table = LiveTable.create(row, seat_rows, self.timing)
        table.inline_physics = False
        table.touched = self.clock.now()
        table.run_chance()  # an all-bot table starts at once
        try:
            self.store.add_table(row, seat_rows, [e for e, _ in table.take_unsaved()])
        except SQLAlchemyError as error:
            log.error("a new %s table could not be stored (%s)", game_name, _reason(error))
            raise _storage_down() from None
        self.tables[row.id] = table
        self.site.adopt(row.id)
        self.site.publish({"k": "new", "t": row.id})
        self._schedule(table)
        return table

    async def tutorial(
        self, game_name: str, name: str, seed: int | None = None, address: str | None = None
    ) -> tuple[LiveTable, str]:
        """A guided first game: the learner at seat 0, who starts, against the game's friendly
        bot; its first entry marks it, so it survives a restart, and it is not listed."""
        bot = TUTORS.get(game_name)
        if bot is None:
            known = ", ".join(sorted(TUTORS))
            raise TableError("no_tutorial", f"Guided games exist for {known}.")
        name = clean_name(name)
        seats = [SeatSpec(), SeatSpec(bot)]
        table = self.create(game_name, {"start_seat": 0}, seats, None, seed, address)
        table.event("tutorial", {"seat": 0, "bot": bot}, None)
        _seat, token = await self.join(table.id, 0, name)
        return table, token

    def get(self, table_id: str) -> LiveTable:
        table = self.tables.get(table_id)
        if table is None and self.site.shared:  # made through another worker just now?
            self._add_stored(table_id)
            table = self.tables.get(table_id)
        if table is None and table_id in self.stored_away:
            return self._fetch_finished(table_id)
        if table is None and table_id in self.unavailable:
            raise TableError(
                "unavailable",
                f"Table '{table_id}' cannot be reached right now: its storage is down. It goes "
                "on by itself when storage is back; try again in a moment.",
            )
        if table is None and table_id in self.closed:
            raise TableError(
                "table_closed",
                f"Table '{table_id}' was closed: nobody played on it for a long time.",
            )
        if table is None and table_id in self.broken:
            raise TableError(
                "table_broken",
                f"Table '{table_id}' could not be loaded ({self.broken[table_id]}); "
                "it is kept aside for repair.",
            )
        if table is None:
            raise TableError(
                "no_table", f"There is no table '{table_id}'; it may have been closed."
            )
        return table

    def _fetch_finished(self, table_id: str) -> LiveTable:
        """A finished game that left memory, read again (and kept among the latest)."""
        row = self.store.table(table_id)
        if row is None:
            raise TableError("no_table", f"There is no table '{table_id}'.")
        table = self._load(row)
        self.stored_away.discard(table_id)
        self.tables[table_id] = table
        self._keep_finished(table_id)
        return table

    def open_tables(self) -> list[LiveTable]:
        """Tables that are waiting for players or being played, newest first."""
        self.close_idle()
        live = [t for t in self.tables.values() if not t.over and not is_tutorial(t)]
        return sorted(live, key=lambda t: -t.row.created)

    def finished_tables(self, limit: int) -> list[LiveTable]:
        """The latest `limit` finished games, newest first (their replays can be watched)."""
        over = [t for t in self.tables.values() if t.over and not is_tutorial(t)]
        return sorted(over, key=lambda t: -t.row.created)[:limit]

    async def join(self, table_id: str, seat: int | None, name: str) -> tuple[int, str]:
        name = clean_name(name)
        for attempt in range(RACES):
            table = self.get(table_id)
            if seat is not None and not 0 <= seat < len(table.seats):
                raise TableError("no_seat", f"Seats are numbered 1 to {len(table.seats)}.")
            taken, token = table.join(seat, name)
            if await self._won(table, attempt):
                return taken, token
        raise AssertionError("unreachable: the last race is not retried")

    async def leave(self, table_id: str, token: str, bot: str | None) -> None:
        for attempt in range(RACES):
            table, seat = await self.seat_with(table_id, token)
            if seat is None:
                raise TableError("bad_token", _BAD_TOKEN)
            if is_tutorial(table) and table.started:
                self._end_tutorial(table, seat)
            else:
                table.leave(seat, bot)
            if await self._won(table, attempt):
                for connection in self.connections.get(table.id, set()):
                    if connection.seat == seat:
                        connection.seat = None
                return

    async def _won(self, table: LiveTable, attempt: int) -> bool:
        """Store a change that is not a move; False if another worker changed the table
        first (it was read anew: the caller tries again on it, up to `RACES` times)."""
        try:
            await self.changed(table)
        except TableError as error:
            if error.code != "stale_version" or attempt == RACES - 1:
                raise
            return False
        return True

    def _end_tutorial(self, table: LiveTable, seat: int) -> None:
        """The learner left a guided game: it stops where it is (no bot plays it out)."""
        if table.over or tutorial_left(table):
            return
        table.event("tutorial_left", {"seat": seat}, None)
        timers = self.timers.get(table.id)
        if timers is not None and timers.bot is not None:
            timers.bot.cancel()

    async def seat_with(self, table_id: str, token: str | None) -> tuple[LiveTable, int | None]:
        """The table and the seat that `token` holds there (None: no seat). A seat taken
        through another worker a moment ago is looked for in the database too."""
        table = self.get(table_id)
        seat = table.seat_of(token)
        if token and seat is None and self.site.shared:
            await self.refresh(table_id)
            table = self.get(table_id)
            seat = table.seat_of(token)
        return table, seat

    # --- play ---------------------------------------------------------------------------------
    async def act(self, table_id: str, seat: int | None, text: str, version: Any) -> None:
        table = self.get(table_id)
        if seat is None:
            raise TableError("spectator", "You are watching this table; join a free seat to play.")
        if tutorial_left(table):
            raise TableError("tutorial_left", "This guided game was left; start a new one.")
        table.check_catch_time(seat, text, version, self.clock.now())
        if not isinstance(version, int) or isinstance(version, bool):
            raise TableError("no_version", "An action must carry the table version it was made at.")
        if version != table.version:
            raise TableError(
                "stale_version",
                f"The table has changed (version {table.version}, your action was made at "
                f"{version}); look again and choose anew.",
            )
        table.play(seat, text)
        await self.changed(table)

    async def talk(self, table_id: str, seat: int | None, text: Any) -> None:
        """Store a chat line of a seated person and send it to everybody at the table."""
        table = self.get(table_id)
        if seat is None:
            raise TableError("spectator", "Only players at the table can chat; take a free seat.")
        line = table.talk(seat, clean_chat(text), self.clock.now())
        try:
            lines = self._store_chat(table, line)
        except SQLAlchemyError as error:
            log.error("table %s: a chat line could not be stored (%s)", table.id, _reason(error))
            raise _storage_down() from None
        for shown in lines:
            self._send_chat(table, shown)
        self.site.publish({"k": "chat", "t": table.id, "line": chat_json(lines[-1])})

    def _store_chat(self, table: LiveTable, line: ChatRow) -> list[ChatRow]:
        """Store `line`; if another worker's line took its number, it comes after that one
        (returned first, so this worker's connections see it too)."""
        lines = [line]
        for _ in range(RACES):
            try:
                self.store.add_chat(table.id, lines[-1])
                return lines
            except IntegrityError:
                stored = self.store.chat(table.id, CHAT_TAIL)
                lines = [*lines[:-1], *table.renumber_chat(stored, lines[-1])]
        self.store.add_chat(table.id, lines[-1])
        return lines

    def _send_chat(self, table: LiveTable, line: ChatRow) -> None:
        message = json.dumps({"type": "chat", "version": table.version, "line": chat_json(line)})
        self._send(list(self.connections.get(table.id, set())), message)

    async def changed(self, table: LiveTable) -> None:
        """Store the table's changes, push the new state to its connections, plan bots."""
        table.touched = self.clock.now()
        rows = await self.save(table)
        self._schedule(table)
        await self.push(table)
        self._tell_others(table, rows)
        if table.over:
            self._keep_finished(table.id)

    def _keep_finished(self, table_id: str) -> None:
        """Memory holds the latest `finished_kept` finished games; an older one is read from
        the database again when somebody asks for it (its record or replay)."""
        if table_id in self._finished:
            return
        self._finished.append(table_id)
        while len(self._finished) > self.finished_kept:
            oldest = self._finished.pop(0)
            if oldest in self.tables and not self.connections.get(oldest):
                del self.tables[oldest]
                self.timers.pop(oldest, None)
                self.connections.pop(oldest, None)
                self.stored_away.add(oldest)

    async def save(self, table: LiveTable) -> list[tuple[EntryRow, SeatRow | None]]:
        """Return the table's queued changes once they are committed (with other tables'
        changes). If they are not, the table is already back to what is stored (see
        `_write`)."""
        if self.tables.get(table.id) is not table:  # replaced after a failed save
            table.take_unsaved()
            raise TableError("not_saved", "The table was reloaded meanwhile; look again.")
        rows = table.take_unsaved()
        if not rows:
            return rows
        loop = asyncio.get_running_loop()
        done = self._pending[table.id] = loop.create_future()
        self._queue.append(_Save(table.id, rows, done))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write())
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
                self.store.add_entries(batch)  # on the loop: a thread would wait for the GIL
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
                self.store.add_entries([(save.table_id, e, s) for e, s in save.rows])
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
        self._reload(save.table_id)
        table = self.tables.get(save.table_id)
        if table is not None:
            self._schedule(table)
            self._in_background(self.push(table))

    def _saves_failed(self, saves: list[_Save], error: Exception) -> None:
        failed = {save.table_id for save in saves}
        log.error("storing failed for tables %s (%s)", ", ".join(sorted(failed)), _reason(error))
        for save in saves:
            save.done.set_exception(error)
            save.done.exception()  # retrieved: the waiters report it
        for table_id in failed:
            self._reload(table_id)

    def _reload(self, table_id: str) -> None:
        """Back to what is stored; if the database cannot be read either, the table is
        unavailable (its work stops) until a recovery task can load it."""
        table = self.tables.get(table_id)
        if table is None:
            return
        try:
            self.tables[table_id] = self._load(table.row)
        except Exception as error:
            log.warning(
                "table %s is unavailable until storage is back (%s)", table_id, _reason(error)
            )
            del self.tables[table_id]
            self.unavailable[table_id] = table.row
            self._stop_timers(table_id)
            self._in_background(self._recover(table_id))

    def _in_background(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _recover(self, table_id: str) -> None:
        """Load an unavailable table again with back-off; once it loads, it goes on."""
        delay = self.retry_first
        while True:
            await self.clock.sleep(delay)
            try:
                table = self._load(self.unavailable[table_id])
                self._roll_lost_chance(table)
            except Exception:
                delay = min(2 * delay, self.retry_most)
                continue
            log.info("table %s is back (version %d)", table_id, table.version)
            del self.unavailable[table_id]
            self.tables[table_id] = table
            self._schedule(table)
            await self.push(table)
            return

    async def push(self, table: LiveTable, only: Connection | None = None) -> None:
        """Send the table's state; changes still being stored are waited for first."""
        pending = self._pending.get(table.id)
        if pending is not None:
            if not pending.done():
                with contextlib.suppress(Exception):
                    await asyncio.shield(pending)
            if self._pending.get(table.id) is pending:
                del self._pending[table.id]
            if table.id not in self.tables:  # unavailable or closed meanwhile
                return
            table = self.tables[table.id]
        deadline = self.timers.get(table.id, _Timers()).deadline
        targets = [only] if only else list(self.connections.get(table.id, set()))
        await self._send_show(table, targets, only is not None)
        messages: dict[tuple[int | None, int | None], str] = {}
        for connection in targets:
            key = (connection.seat, connection.seen)
            if key not in messages:
                message = table.message(connection.seat, deadline, connection.seen)
                messages[key] = json.dumps(message, separators=(",", ":"))
            connection.seen = table.version
            self._send([connection], messages[key])

    def _send(self, connections: list[Connection], message: str) -> None:
        """Queue `message` for each connection; one that has fallen too far behind is
        closed and dropped (its client resyncs when it reconnects)."""
        for connection in connections:
            if not connection.offer(message):
                self.disconnect(connection)

    async def _send_show(self, table: LiveTable, targets: list[Connection], joining: bool) -> None:
        """Broadcast a new placement's motion (and open a person's catch window) before the
        state it leads to; a client that connects while it plays gets it too."""
        show, now = table.show, self.clock.now()
        if show is None or (joining and not show.running(now)):
            return
        if show.sent is None:
            show.sent = now
            seat = table.catcher()
            if seat is not None and show.version == table.version:
                show.window = open_window(show, seat, self.timing, now)
                self._schedule_catch(table, show.window)
        elif not joining:
            return
        self._send(targets, show.message(now))

    def _schedule_catch(self, table: LiveTable, window: CatchWindow) -> None:
        timers = self.timers.setdefault(table.id, _Timers())
        if timers.catch is not None and not timers.catch.done():
            timers.catch.cancel()
        timers.catch = self._supervised("catch window", table.id, self._close_catch, window)

    async def _close_catch(self, table_id: str, window: CatchWindow) -> None:
        """When the window runs out, the person has caught nothing: the server says so."""
        await self.clock.sleep(max(0.0, window.closes - self.clock.now()))
        table = self.tables[table_id]
        if table.version != window.version or table.catcher() != window.seat:
            return
        if not self.site.owns(table_id):
            return
        table.play(window.seat, "catch none")
        await self.changed(table)

    def connect(self, connection: Connection) -> None:
        connection.start()
        self.connections.setdefault(connection.table_id, set()).add(connection)

    def disconnect(self, connection: Connection) -> None:
        connection.stop()
        self.connections.get(connection.table_id, set()).discard(connection)

    def _stop_timers(self, table_id: str) -> None:
        timers = self.timers.pop(table_id, _Timers())
        for task in timers.tasks():
            if task is not asyncio.current_task():
                task.cancel()

    # --- idle tables ----------------------------------------------------------------------------
    def close_idle(self) -> None:
        """Close the unfinished tables that have not changed for `idle_close` seconds (looked
        for at most every few minutes, when the lobby is looked at or a table is made)."""
        now = self.clock.now()
        if now - self._swept < min(60.0, self.idle_close / 4):
            return
        self._swept = now
        for table in list(self.tables.values()):
            idle = now - table.touched >= self.idle_close
            if not table.over and idle and self.site.owns(table.id):
                self._close_table(table, now)

    def _close_table(self, table: LiveTable, now: float) -> None:
        """Note the closing in the table's history, keep its rows, let it go from memory
        and tell whoever still looks at it."""
        table.event("closed", {"idle_seconds": round(now - table.touched)}, None)
        try:
            self._store_now(table)
            self.store.mark_closed(table.id, now)
        except SQLAlchemyError:
            log.exception("table %s: closing it failed; it stays open for now", table.id)
            self.tables[table.id] = self._load(table.row)
            return
        log.info("table %s: closed after %d s without a change", table.id, now - table.touched)
        self._forget(table.id)
        self.site.publish({"k": "closed", "t": table.id})

    def _forget(self, table_id: str) -> None:
        """A closed table leaves memory; whoever still looks at it is told."""
        self.tables.pop(table_id, None)
        self.closed.add(table_id)
        self._stop_timers(table_id)
        gone = TableError("table_closed", "This table was closed: nobody played on it for long.")
        message = json.dumps({"type": "error", "code": gone.code, "message": gone.message})
        for connection in list(self.connections.pop(table_id, set())):
            connection.finish(message)

    # --- bots and clocks ----------------------------------------------------------------------
    def _schedule(self, table: LiveTable) -> None:
        if tutorial_left(table) or not self.site.owns(table.id):
            return
        timers = self.timers.setdefault(table.id, _Timers())
        if table.bot_to_move() is not None and (timers.bot is None or timers.bot.done()):
            timers.bot = self._supervised("bot turn", table.id, self._bot_turn)
        if table.physics_due() and (timers.physics is None or timers.physics.done()):
            timers.physics = self._supervised("physics", table.id, self._settle)
        self._schedule_clock(table, timers)

    def _supervised(
        self, what: str, table_id: str, work: Callable[..., Awaitable[None]], *args: Any
    ) -> asyncio.Task[None]:
        """A task running `work(table_id, *args)`; when it fails (a save error, a bug) it is
        logged and run again after a back-off, so a table goes on once storage is back."""

        async def supervise() -> None:
            delay = self.retry_first
            while True:
                try:
                    return await work(table_id, *args)
                except Exception as error:
                    if isinstance(error, TableError) and error.code == "stale_version":
                        continue  # another worker came first: the table was read anew
                    log.exception("table %s: %s failed; again in %g s", table_id, what, delay)
                await self.clock.sleep(delay)
                delay = min(2 * delay, self.retry_most)

        return asyncio.get_running_loop().create_task(supervise())

    def _schedule_clock(self, table: LiveTable, timers: _Timers) -> None:
        seat = table.mover()
        human = seat is not None and table.seats[seat].bot is None
        if not human or table.row.clock is None:
            if timers.deadline is not None:  # the other workers forget it too
                self.site.publish({"k": "clock", "t": table.id, "v": table.version, "d": None})
            self._stop_clock(timers)
            return
        if timers.clock is not None and not timers.clock.done() and timers.clocked_seat == seat:
            return  # the same person's turn goes on: the clock keeps running
        taken_over = timers.deadline if timers.clocked_seat == seat else None  # `_note_clock`
        self._stop_clock(timers)
        timers.deadline = taken_over or self.clock.now() + table.row.clock
        timers.clocked_seat = seat
        timers.clock = self._supervised("turn clock", table.id, self._clock, timers.deadline, seat)
        self.site.publish({"k": "clock", "t": table.id, "v": table.version, "d": timers.deadline})

    @staticmethod
    def _stop_clock(timers: _Timers) -> None:
        if timers.clock is not None and not timers.clock.done():
            timers.clock.cancel()
        timers.clock, timers.deadline, timers.clocked_seat = None, None, None

    def _unchanged(self, table: LiveTable, version: int) -> bool:
        """Whether `table` is still the live table at `version` (after work beside the loop)
        and this worker still runs its timers."""
        live = self.tables.get(table.id) is table and table.version == version
        return live and self.site.owns(table.id)

    async def _bot_turn(self, table_id: str) -> None:
        """Play the bots' moves while a bot is to move; a move decided on a table that has
        changed meanwhile is thrown away and decided anew."""
        while (spec := self.tables[table_id].bot_to_move()) is not None:
            await self.clock.sleep(self.bot_pause(self.tables[table_id]))
            table = self.tables[table_id]
            if tutorial_left(table):
                return
            await self.clock.sleep(table.show_left(self.clock.now()))  # the ship's motion
            spec, seat, version = table.bot_to_move(), table.mover(), table.version
            if spec is None or seat is None:
                return
            try:
                action = await self._decide(table, spec)
            except BrokenExecutor:
                raise  # a worker died, not the bot's fault: tried again (see `_supervised`)
            except Exception as error:  # it raised or ran out of time
                if self._unchanged(table, version):
                    await self._replace_bot(table, seat, spec, error)
                continue
            if self._unchanged(table, version):
                table.play(seat, action)
                await self.changed(table)

    def bot_pause(self, table: LiveTable) -> float:
        """Seconds a bot at `table` waits before each move, by the table's pace (a guided
        game's bot is slower still, so the learner can follow)."""
        tutorial = TUTORIAL_PACE if is_tutorial(table) else 1.0
        return self.bot_delay * BOT_PACES.get(table.row.pace, 1.0) * tutorial

    async def _decide(self, table: LiveTable, spec: str) -> str:
        """The move of bot `spec` at `table` now, worked out in the pool."""
        return await self.work.run(bot_decision, table.game, table.state, spec, table.bot_seed)

    async def _replace_bot(self, table: LiveTable, seat: int, spec: str, error: Exception) -> None:
        """A bot that failed is replaced for the rest of the game: by the game's stand-in,
        or by the random bot if the stand-in itself failed."""
        stand_in = stand_in_bot(table.game)
        if spec == stand_in:
            stand_in = "random"
        if spec == stand_in:
            raise error  # even the random bot fails: retried later (see `_supervised`)
        log.warning(
            "table %s: bot %s of seat %d failed (%s); %s plays on",
            table.id,
            spec,
            seat + 1,
            _reason(error),
            stand_in,
        )
        table.replace_bot(seat, stand_in, {"bot": spec, "reason": _reason(error)})
        await self.changed(table)

    async def _settle(self, table_id: str) -> None:
        """Run a Riff Raff placement's physics in the pool, then apply and push it."""
        while (table := self.tables[table_id]).physics_due() and not tutorial_left(table):
            version = table.version
            motion = await self.work.run(settle_with_motion, table.game, table.state, table.dice())
            if motion is not None and self._unchanged(table, version):
                table.apply_motion(motion)
                await self.changed(table)

    async def _clock(self, table_id: str, deadline: float, seat: int) -> None:
        await self.clock.sleep(max(0.0, deadline - self.clock.now()))
        timers = self.timers[table_id]
        if timers.clock is asyncio.current_task():  # run out: the next turn gets a new clock
            timers.clock, timers.deadline, timers.clocked_seat = None, None, None
        table = self.tables[table_id]
        if table.mover() != seat:
            return
        spec = stand_in_bot(table.game)
        table.event("timeout", {"seat": seat, "bot": spec}, None)
        while (table := self.tables[table.id]).mover() == seat:
            version = table.version
            try:
                action = await self._decide(table, spec)
            except Exception as error:
                log.warning("table %s: stand-in %s failed (%s)", table.id, spec, _reason(error))
                action = table.bot_action("random")  # quick, and cannot fail
            if self._unchanged(table, version):
                table.play(seat, action)
        await self.changed(table)

    # --- the other workers of the site (see `server.site`) ----------------------------------
    def _tell_others(self, table: LiveTable, rows: list[tuple[EntryRow, SeatRow | None]]) -> None:
        """Publish stored rows, the turn clock (if this worker runs it) and a new placement's
        motion, so the other workers need not read them from the database."""
        if not self.site.shared or not rows:
            return
        news: dict[str, Any] = {"k": "table", "t": table.id, "rows": [_row_json(r) for r in rows]}
        if self.site.owns(table.id):
            news["d"] = self.timers.get(table.id, _Timers()).deadline
        show = table.show
        if show is not None and rows[0][0].seq < show.version <= table.version:
            news["show"] = show.to_json()
        self.site.publish(news)

    def wanted(self) -> list[str]:
        """The tables whose bots, clocks or catches someone must run."""
        return [t.id for t in self.tables.values() if not t.over and not tutorial_left(t)]

    async def heard(self, news: dict[str, Any]) -> None:
        """News of another worker: a change, a chat line, a turn clock, a new or closed table."""
        kind, table_id = news.get("k"), str(news.get("t"))
        if kind == "new":
            self._add_stored(table_id)
        elif kind == "closed":
            self._forget(table_id)
        elif kind == "chat":
            self._heard_chat(table_id, ChatRow(**news["line"]))
        elif kind == "clock":
            table = self.tables.get(table_id)
            if table is not None and self._note_clock(table, news["v"], news["d"]):
                await self.push(table)
        elif kind == "table":
            rows = [_row_from_json(r) for r in news["rows"]]
            show = Show.from_json(news["show"]) if news.get("show") else None
            clock = (rows[-1][0].seq + 1, news["d"]) if "d" in news else None
            await self.refresh(table_id, rows, show, clock)

    async def gained(self, table_id: str) -> None:
        """This worker now runs the table's timers: it reads what it may have missed, closes
        a catch whose window it cannot know, rolls dice that are due and starts them."""
        await self.refresh(table_id)
        table = self.tables.get(table_id)
        if table is None or table.over or not self.site.owns(table_id):
            return
        window, seat = table.window(), table.catcher()
        if seat is not None and window is not None and window.version == table.version:
            self._schedule_catch(table, window)
        elif seat is not None:
            table.event("catch_lost", {"seat": seat}, None)
            table.play(seat, "catch none")
        table.run_chance()
        with contextlib.suppress(TableError):  # a lost race: the table was read anew
            await self.changed(table)  # starts the timers (else the site's next round does)

    def lost(self, table_id: str) -> None:
        self._stop_timers(table_id)

    def tend(self, table_ids: list[str]) -> None:
        """Start the timers these tables need that do not run (scheduling is idempotent)."""
        for table_id in table_ids:
            table = self.tables.get(table_id)
            if table is not None and not table.over:
                self._schedule(table)

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
        if table_id not in self.tables:
            self._add_stored(table_id)
            return
        pending = self._pending.get(table_id)
        if pending is not None and not pending.done():  # this worker's own save goes first
            with contextlib.suppress(Exception):
                await asyncio.shield(pending)
        table = self.tables.get(table_id)
        if table is None:
            return
        before = table.version
        self._catch_up(table, rows)
        table = self.tables[table_id]
        if clock is not None:
            self._note_clock(table, *clock)
        if table.version == before:
            return
        table.touched = self.clock.now()
        if show is not None and show.version <= table.version:
            table.show = show
            self._send(list(self.connections.get(table_id, set())), show.message(table.touched))
        self._schedule(table)
        await self.push(table)
        if table.over:
            self._keep_finished(table_id)

    def _catch_up(self, table: LiveTable, rows: list[_Row] | None) -> None:
        """Apply `rows`, or what the database holds past the table's version; a table that
        does not fit them is read anew."""
        try:
            if rows is not None and table.catch_up(rows):
                return
            seats, entries = self.store.snapshot(table.id, since=table.version)
            changed = {s.seat: s for s in seats}
            if table.catch_up([(e, changed.get(e.args.get("seat", -1))) for e in entries]):
                return
        except SQLAlchemyError:
            raise
        except Exception as error:
            log.warning("table %s: read anew (%s)", table.id, _reason(error))
        self.tables[table.id] = self._load(table.row)

    def _note_clock(self, table: LiveTable, version: int, deadline: float | None) -> bool:
        """Keep the owner's turn clock, as of `version`, for the connections and for a
        takeover; True when the table is at that version (its picture shows the clock)."""
        if self.site.owns(table.id):
            return False
        timers = self.timers.setdefault(table.id, _Timers())
        timers.deadline = deadline  # kept if this worker takes over
        timers.clocked_seat = table.mover() if table.version == version else None
        return table.version == version

    def _heard_chat(self, table_id: str, line: ChatRow) -> None:
        table = self.tables.get(table_id)
        if table is not None and table.heard_chat(line):
            self._send_chat(table, line)

    def _add_stored(self, table_id: str) -> None:
        """A table another worker made (or that left this worker's memory) is read."""
        if not self._knows(table_id) and (row := self.store.table(table_id)) is not None:
            self._add_loaded(row)

    def _knows(self, table_id: str) -> bool:
        """Whether the table is in memory, or known to be closed, broken, unavailable or
        finished and stored away."""
        found = (self.tables, self.closed, self.broken, self.unavailable, self.stored_away)
        return any(table_id in where for where in found)

    def _add_loaded(self, row: TableRow) -> None:
        try:
            table = self._load(row)
        except SQLAlchemyError:
            raise
        except Exception as error:
            log.error("table %s cannot be loaded (%s)", row.id, _reason(error))
            self.broken[row.id] = _reason(error)
            return
        self.tables[row.id] = table
        if table.over:
            self._keep_finished(row.id)

    async def sweep(self) -> None:
        """Look in the database for what other workers changed (while news may be missed):
        new versions, chat lines and closings of the tables in memory, and new tables."""
        unfinished = [t.id for t in self.tables.values() if not t.over]
        for table_id, (version, chats, closed) in self.store.progress(unfinished).items():
            table = self.tables.get(table_id)
            if closed:
                self._forget(table_id)
            elif table is not None and chats > table.chat_count:
                for line in self.store.chat(table_id, chats - table.chat_count):
                    self._heard_chat(table_id, line)
            if table is not None and not closed and version > table.version:
                await self.refresh(table_id)
        newest = max((t.row.created for t in self.tables.values()), default=0.0)
        for row in self.store.tables_since(newest - CLOCK_SKEW):
            if not self._knows(row.id):
                self._add_loaded(row)

    def games(self) -> list[dict[str, JsonValue]]:
        """Every registered game with its players, bots and options (worked out once)."""
        if not self._games:
            self._games = _describe_games()
        return self._games


CLOCK_SKEW = 60.0
"""Seconds the clocks of a site's machines may differ (a sweep looks back that far for new
tables)."""


def _row_json(row: tuple[EntryRow, SeatRow | None]) -> list[Any]:
    entry, seat = row
    stored = [entry.seq, entry.actor, entry.action, entry.key, entry.args]
    if seat is None:
        return [*stored, None]
    return [*stored, [seat.seat, seat.bot, seat.name, seat.token_hash, seat.replaced]]


def _row_from_json(data: list[Any]) -> tuple[EntryRow, SeatRow | None]:
    seq, actor, action, key, args, seat = data
    return EntryRow(seq, actor, action, key, args), None if seat is None else SeatRow(*seat)


_BAD_TOKEN = "This seat token is not valid at this table; join a seat to play."


def _storage_down() -> TableError:
    return TableError(
        "unavailable", "The server cannot store anything right now; try again in a moment."
    )


def is_tutorial(table: LiveTable) -> bool:
    """Whether `table` is a guided first game (its first entry says so)."""
    return bool(table.entries) and table.entries[0].key == "tutorial"


def tutorial_left(table: LiveTable) -> bool:
    """Whether the learner has left this guided game (it then stays as it is)."""
    return is_tutorial(table) and any(e.key == "tutorial_left" for e in reversed(table.entries))


def _reason(error: Exception) -> str:
    """Why a job failed, for the log: 'too slow: ...' or the exception and its message."""
    if isinstance(error, TooSlow):
        return f"too slow: {error}"
    return f"{type(error).__name__}: {error}"


def _describe_games() -> list[dict[str, JsonValue]]:
    return [_describe_game(name) for name in game_names()]


def _describe_game(name: str) -> dict[str, JsonValue]:
    cls = game_class(name)
    options = getattr(cls(None), "options", None)
    described = describe_options(type(options)) if is_dataclass(options) else []
    return {
        "name": name,
        "title": cls.title,
        "min_players": cls.min_players,
        "max_players": cls.max_players,
        "bots": bot_names(name),
        "options": [
            {"name": n, "default": d, "doc": doc} for n, d, doc in described if n != "players"
        ],
    }


def _one_line(text: str) -> str:
    """Only printable characters, runs of white space made one space, trimmed."""
    return " ".join("".join(ch for ch in text if ch.isprintable()).split())


def clean_name(name: str) -> str:
    """A display name: printable, trimmed, 1 to 32 characters."""
    cleaned = _one_line(name)
    if not cleaned:
        raise TableError("bad_name", "Please give a name of 1 to 32 characters.")
    if len(cleaned) > MAX_NAME:
        raise TableError("bad_name", f"A name can have at most {MAX_NAME} characters.")
    return cleaned


def clean_chat(text: Any) -> str:
    """A chat line: printable, trimmed, 1 to 300 characters."""
    if not isinstance(text, str):
        raise TableError("bad_message", "A chat message needs its text.")
    cleaned = _one_line(text)
    if not cleaned:
        raise TableError("bad_chat", "Type something to say first.")
    if len(cleaned) > MAX_CHAT:
        raise TableError("bad_chat", f"A chat line can have at most {MAX_CHAT} characters.")
    return cleaned
