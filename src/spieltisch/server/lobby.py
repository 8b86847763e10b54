"""The lobby: the facade of the table host that the app calls (make a table or a guided game,
join, leave, act, chat, list), over the parts that do the work:

- `server.tables`: the tables kept in memory and their lifecycle;
- `server.scheduler`: the timed work (bots, physics, turn clocks, catch windows);
- `server.writer`: the group commit of every table's changes, and recovery;
- `server.push`: what each connection is sent;
- `server.news`: the other workers of the site (`server.site`).

Everything runs on one event loop but the slow work: bot decisions and Riff Raff physics run
in a pool (`server.work`), and their result is applied only if the table has not changed
meanwhile. A change is checked and applied in memory, then stored, and only then pushed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field, is_dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from spieltisch.bots.base import bot_names
from spieltisch.core.options import describe_options
from spieltisch.core.protocol import JsonValue
from spieltisch.core.registry import game_class, game_names
from spieltisch.server.clock import Clock, WallClock
from spieltisch.server.common import (
    TableError,
    chat_json,
    clean_chat,
    clean_name,
    is_tutorial,
    reason,
    storage_down,
    tutorial_left,
)
from spieltisch.server.connection import Connection
from spieltisch.server.hooks import default_turn_clock, hooks_for, tutors
from spieltisch.server.limits import TableQuota
from spieltisch.server.mail.turns import TurnMail
from spieltisch.server.news import SiteNews
from spieltisch.server.newtable import MAX_SEED, check_settings, checked_game
from spieltisch.server.presence import Presence
from spieltisch.server.push import Pusher
from spieltisch.server.rated import bots_described
from spieltisch.server.scheduler import BOT_PACES, TUTORIAL_PACE, Scheduler, Timers
from spieltisch.server.settle import CatchTiming
from spieltisch.server.site import Site
from spieltisch.server.storage import Storage
from spieltisch.server.store import ChatRow, SeatRow, Store, TableRow
from spieltisch.server.table import CHAT_TAIL, LiveTable
from spieltisch.server.tables import TableKeeper
from spieltisch.server.turnbased import (
    MAX_TURN_BASED,
    TURN_BASED,
    TURN_SWEEP,
    TurnBased,
    check_seat,
)
from spieltisch.server.work import Work
from spieltisch.server.writer import Writer

__all__ = ["BOT_PACES", "TUTORIAL_PACE", "Connection", "Lobby", "SeatSpec"]

log = logging.getLogger(__name__)

RACES = 3
"""How often a join or a leave is tried when other workers keep changing the table first."""


@dataclass(frozen=True)
class SeatSpec:
    """A seat when a table is made: a person (bot None) or a bot spec such as 'optimal'."""

    bot: str | None = None


@dataclass
class Lobby:
    store: Store
    bot_delay: float = 1.0  # seconds a bot waits before each action at the normal pace
    clock: Clock = field(default_factory=WallClock)  # the time of bots, clocks and catches
    timing: CatchTiming = field(default_factory=CatchTiming)  # motion playback, catch window
    executor: Executor | None = None  # bot decisions and physics (None: worker processes)
    work_limit: float = 30.0  # seconds a bot decision or a settle may run (see `Work`)
    review_limit: float = 900.0  # seconds a game's review may run (in a pool of its own)
    retry_first: float = 1.0  # seconds before a failed bot turn, clock or catch runs again
    retry_most: float = 60.0  # the longest wait between retries (each doubles the last)
    quota: TableQuota = field(default_factory=TableQuota)  # who may make a table now
    idle_close: float = 24 * 3600.0  # an unfinished table without a change is closed after
    waiting_close: float = 3600.0  # the same for a table waiting for players, a guided game
    active_window: float = 1800.0  # a table is in play while it changed this recently
    max_turn_based: int = MAX_TURN_BASED  # unfinished turn-based tables one player may sit at
    turn_sweep: float = TURN_SWEEP  # seconds between looks for passed turn-based deadlines
    site: Site = field(default_factory=Site)  # the other workers of the site, if any
    tables: dict[str, LiveTable] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)  # table -> why it cannot be loaded
    closed: set[str] = field(default_factory=set)  # tables closed unfinished (idle)
    connections: dict[str, set[Connection]] = field(default_factory=dict)
    timers: dict[str, Timers] = field(default_factory=dict)  # see `server.scheduler`
    unavailable: dict[str, TableRow] = field(default_factory=dict)  # storage down
    finished_kept: int = 500  # finished games kept in memory (the others are read on demand)
    stored_away: set[str] = field(default_factory=set)  # finished games not in memory
    finished_in_memory: list[str] = field(default_factory=list)  # finished games, oldest first
    storage: Storage = field(default_factory=Storage)  # the store's calls, beside the loop
    mail: TurnMail = field(default_factory=TurnMail)  # turn mail, digests (`server.mail`)
    _games: list[dict[str, JsonValue]] = field(default_factory=list)
    work: Work = field(init=False)
    reviews: Work = field(init=False)  # one worker: a long review never holds up the bots
    keeper: TableKeeper = field(init=False)  # the tables in memory (`server.tables`)
    scheduler: Scheduler = field(init=False)  # bots, physics, clocks, catches
    writer: Writer = field(init=False)  # the group commit (`server.writer`)
    pusher: Pusher = field(init=False)  # what connections are sent (`server.push`)
    news: SiteNews = field(init=False)  # the other workers of the site (`server.news`)
    presence: Presence = field(init=False)  # who is here (`server.presence`)

    def __post_init__(self) -> None:
        self.work = Work(self.executor, self.clock, self.work_limit)
        self.reviews = Work(self.executor, self.clock, self.review_limit, workers=1)
        self.keeper = TableKeeper(self)
        self.scheduler = Scheduler(self)
        self.writer = Writer(self)
        self.pusher = Pusher(self)
        self.news = SiteNews(self)
        self.presence = Presence(self)

    # --- start and stop ---------------------------------------------------------------------
    def load(self) -> None:
        """Rebuild every stored table (see `TableKeeper.load`)."""
        self.keeper.load()
        self.presence.load()

    def resume(self) -> None:
        """Start the bots and clocks of every table (needs the running event loop)."""
        self.scheduler.resume()
        self.presence.start()

    async def close(self) -> None:
        tasks = [t for timers in self.timers.values() for t in timers.tasks()]
        tasks += list(self.writer.background)
        await self.scheduler.stop()
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.presence.stop()
        await self.writer.finish()  # what was played is stored before the server stops
        await self.work.close()
        await self.reviews.close(stop_running=True)  # a review may run for minutes
        await asyncio.to_thread(self.storage.close)

    # --- connections, and the site's `Member` (see `server.push`, `server.news`) -----------
    async def push(self, table: LiveTable, only: Connection | None = None) -> None:
        await self.pusher.push(table, only)

    def connect(self, connection: Connection) -> None:
        self.pusher.connect(connection)
        self.presence.connected(connection)
        table = self.tables.get(connection.table_id)
        if table is not None and is_tutorial(table) and not table.over:
            self.scheduler.schedule(table)  # a guided game waits for its learner (see there)

    def disconnect(self, connection: Connection) -> None:
        self.pusher.disconnect(connection)
        self.presence.disconnected(connection)

    def bot_pause(self, table: LiveTable) -> float:
        return self.scheduler.bot_pause(table)

    def wanted(self) -> list[str]:
        return self.news.wanted()

    async def heard(self, news: dict[str, Any]) -> None:
        await self.news.heard(news)

    async def gained(self, table_id: str) -> None:
        await self.news.gained(table_id)

    def lost(self, table_id: str) -> None:
        self.news.lost(table_id)

    def tend(self, table_ids: list[str]) -> None:
        self.news.tend(table_ids)

    async def sweep(self) -> None:
        await self.news.sweep()

    # --- lobby ------------------------------------------------------------------------------
    async def create(
        self,
        game_name: str,
        options: dict[str, Any],
        seats: Sequence[SeatSpec],
        clock: float | None = None,
        seed: int | None = None,
        address: str | None = None,
        pace: str = "normal",
        rated: bool = False,
        turn_based: TurnBased | None = None,
    ) -> LiveTable:
        """A new table with `seats`; `address` is the client's, for the quota; a turn-based
        table's time per move comes from `turn_based` (`server.turnbased`)."""
        game = checked_game(game_name, options, [spec.bot for spec in seats])
        check_settings(clock, seed, pace, rated, turn_based)
        if turn_based is not None:
            clock = turn_based.seconds
        self.keeper.close_idle()
        now = self.clock.now()
        self.quota.admit(address, now, sum(1 for t in self.tables.values() if self.in_play(t, now)))
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
            rated=rated,
        )
        seat_rows = [SeatRow(n, s.bot, None, None) for n, s in enumerate(seats)]
        table = LiveTable.create(row, seat_rows, self.timing)
        if turn_based is not None:  # its first entry, so that it survives a restart
            table.event(TURN_BASED, turn_based.args(), None)
        table.inline_physics = False
        table.touched = self.clock.now()
        table.run_chance()  # an all-bot table starts at once
        try:
            entries = [e for e, _ in table.take_unsaved()]
            await self.storage.write(self.store.add_table, row, seat_rows, entries)
        except SQLAlchemyError as error:
            log.error("a new %s table could not be stored (%s)", game_name, reason(error))
            raise storage_down() from None
        self.tables[row.id] = table
        self.site.adopt(row.id)
        self.site.publish({"k": "new", "t": row.id})
        self.scheduler.schedule(table)
        return table

    async def tutorial(
        self,
        game_name: str,
        name: str,
        seed: int | None = None,
        address: str | None = None,
        account_id: str | None = None,
    ) -> tuple[LiveTable, str]:
        """A guided first game: the learner at seat 0, who starts, against the game's friendly
        bot; its first entry marks it, so it survives a restart, and it is not listed."""
        bot = hooks_for(game_name).tutor if game_name in game_names() else None
        if bot is None:
            known = ", ".join(sorted(tutors(game_names())))
            raise TableError("no_tutorial", f"Guided games exist for {known}.")
        name = clean_name(name)
        seats = [SeatSpec(), SeatSpec(bot)]
        table = await self.create(game_name, {"start_seat": 0}, seats, None, seed, address)
        table.event("tutorial", {"seat": 0, "bot": bot}, None)
        _seat, token = await self.join(table.id, 0, name, account_id)
        return table, token

    async def find(self, table_id: str) -> LiveTable:
        """The table, read from the database when it is not in memory: made through another
        worker just now, or a finished game that left memory."""
        if table_id not in self.tables and self.site.shared:
            await self.keeper.add_stored(table_id)
        if table_id not in self.tables and table_id in self.stored_away:
            return await self.keeper.fetch_finished(table_id)
        return self.get(table_id)

    def get(self, table_id: str) -> LiveTable:
        """A table in memory (`find` also reads the database), or why there is none."""
        table = self.tables.get(table_id)
        if table is None and table_id in (self.unavailable.keys() | self.stored_away):
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

    def in_play(self, table: LiveTable, now: float) -> bool:
        """Whether the table holds one of the server's places for games (`quota`): unfinished,
        changed within `active_window` seconds, and not still waiting for its first person
        (a table of bots alone is in play). A table nobody sat down at, or one its people
        left alone, takes no place; the idle closing lets it go (`TableKeeper.close_idle`)."""
        people = [seat for seat in table.seats if seat.bot is None]
        unsat = bool(people) and all(seat.name is None for seat in people)
        return not table.over and not unsat and now - table.touched <= self.active_window

    def open_tables(self) -> list[LiveTable]:
        """Tables that are waiting for players or being played, newest first."""
        self.keeper.close_idle()
        live = [t for t in self.tables.values() if not t.over and not is_tutorial(t)]
        return sorted(live, key=lambda t: -t.row.created)

    def finished_tables(self, limit: int) -> list[LiveTable]:
        """The latest `limit` finished games, newest first (their replays can be watched)."""
        over = [t for t in self.tables.values() if t.over and not is_tutorial(t)]
        return sorted(over, key=lambda t: -t.row.created)[:limit]

    async def join(
        self, table_id: str, seat: int | None, name: str, account_id: str | None = None
    ) -> tuple[int, str]:
        """Seat a person; `account_id`: the signed-in player's account (else a guest)."""
        name = clean_name(name)
        for attempt in range(RACES):
            table = await self.find(table_id)
            if seat is not None and not 0 <= seat < len(table.seats):
                raise TableError("no_seat", f"Seats are numbered 1 to {len(table.seats)}.")
            await check_seat(self, table, account_id)
            taken, token = table.join(seat, name, account_id)
            if await self.won(table, attempt):
                return taken, token
        raise AssertionError("unreachable: the last race is not retried")

    async def leave(self, table_id: str, token: str, bot: str | None) -> None:
        for attempt in range(RACES):
            table, seat = await self.seat_with(table_id, token)
            if seat is None:
                raise TableError("bad_token", _BAD_TOKEN)
            if is_tutorial(table) and table.started:
                self.end_tutorial(table, seat)
            else:
                table.leave(seat, bot)
            if await self.won(table, attempt):
                for connection in self.connections.get(table.id, set()):
                    if connection.seat == seat:
                        self.presence.disconnected(connection)  # its player left the seat
                        connection.seat = None
                return

    async def won(self, table: LiveTable, attempt: int) -> bool:
        """Store a change that is not a move; False if another worker changed the table
        first (it was read anew: the caller tries again on it, up to `RACES` times)."""
        try:
            await self.changed(table)
        except TableError as error:
            if error.code != "stale_version" or attempt == RACES - 1:
                raise
            return False
        return True

    def end_tutorial(self, table: LiveTable, seat: int) -> None:
        """The learner left a guided game: it stops where it is (no bot plays it out)."""
        if table.over or tutorial_left(table):
            return
        table.event("tutorial_left", {"seat": seat}, None)
        timers = self.timers.get(table.id)
        if timers is not None and timers.bot is not None:
            timers.bot.cancel()

    async def seat_with(
        self, table_id: str, token: str | None, account_id: str | None = None
    ) -> tuple[LiveTable, int | None]:
        """The table and the seat that `token` holds there, or without a token the seat of
        the signed-in `account_id` (None: no seat). A seat taken through another worker a
        moment ago is looked for in the database too."""
        table = await self.find(table_id)
        seat = _seat_of(table, token, account_id)
        if (token or account_id) and seat is None and self.site.shared:
            await self.news.refresh(table_id)
            table = self.get(table_id)
            seat = _seat_of(table, token, account_id)
        return table, seat

    async def act(self, table_id: str, seat: int | None, text: str, version: Any) -> None:
        table = await self.find(table_id)
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
        table = await self.find(table_id)
        if seat is None:
            raise TableError("spectator", "Only players at the table can chat; take a free seat.")
        line = table.talk(seat, clean_chat(text), self.clock.now())
        try:
            lines = await self._store_chat(table, line)
        except SQLAlchemyError as error:
            log.error("table %s: a chat line could not be stored (%s)", table.id, reason(error))
            raise storage_down() from None
        for shown in lines:
            self.pusher.send_chat(table, shown)
        self.site.publish({"k": "chat", "t": table.id, "line": chat_json(lines[-1])})

    async def _store_chat(self, table: LiveTable, line: ChatRow) -> list[ChatRow]:
        """Store `line`; if another worker's line took its number, it comes after that one
        (returned first, so this worker's connections see it too)."""
        lines = [line]
        for _ in range(RACES):
            try:
                await self.storage.write(self.store.add_chat, table.id, lines[-1])
                return lines
            except IntegrityError:
                stored = await self.storage.read(self.store.chat, table.id, CHAT_TAIL)
                lines = [*lines[:-1], *table.chat.renumber(stored, lines[-1])]
        await self.storage.write(self.store.add_chat, table.id, lines[-1])
        return lines

    async def changed(self, table: LiveTable) -> None:
        """Store the table's changes, push the new state to its connections, plan bots."""
        table.touched = self.clock.now()
        rows = await self.writer.save(table)
        self.scheduler.schedule(table)
        await self.pusher.push(table)
        self.news.tell_others(table, rows)
        if table.over:
            self.keeper.keep_finished(table.id)

    def games(self) -> list[dict[str, JsonValue]]:
        """Every registered game with its players, bots and options (worked out once)."""
        if not self._games:
            self._games = _describe_games()
        return self._games


_BAD_TOKEN = "This seat token is not valid at this table; join a seat to play."


def _seat_of(table: LiveTable, token: str | None, account_id: str | None) -> int | None:
    if token or account_id is None:
        return table.seat_of(token)
    return table.seat_of_account(account_id)


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
        **bots_described(name),  # the calibrated bots' shown ratings and strength levels
        "review": hooks_for(name).review is not None,
        "clock": default_turn_clock(name, 2),  # a table of two or more people's time per turn
        "options": [
            {"name": n, "default": d, "doc": doc} for n, d, doc in described if n != "players"
        ],
    }
