"""Turn-based tables: a time per move of hours or days, an optional time bank, and a named
rule for a person whose time runs out.

A table is turn-based when its first entry is a `turn_based` event with its settings (the
time per move by name, the bank's name and the rule's), so the settings survive a restart
with the table's history and need no column of their own; the table's `clock` holds the
time per move in seconds. Its turn clock's deadline is stored as any turn clock's
(`deadlines`, kind `clock`); with a time bank, each seat's time left is stored beside it
(kind `bank`, the seats' seconds as JSON), so a restart or another worker taking the table
over keeps both. Turn-based clocks run no task each: one sweep every `Lobby.turn_sweep`
seconds looks for the deadlines that have passed and applies the rule to them.

Only signed-in players sit at a turn-based table (a guest's seat lives in one browser, and
a game of days needs its player to come back from anywhere), and at most
`Lobby.max_turn_based` unfinished ones at once.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, select
from sqlalchemy.exc import SQLAlchemyError

from spieltisch.core.protocol import JsonValue
from spieltisch.server.common import TableError, reason
from spieltisch.server.schema import SEATS

if TYPE_CHECKING:
    from spieltisch.server.lobby import Lobby
    from spieltisch.server.scheduler import Timers
    from spieltisch.server.table import LiveTable

__all__ = [
    "BANK",
    "MAX_TURN_BASED",
    "MOVE_TIMES",
    "TIMEOUT_RULES",
    "TIME_BANKS",
    "TURN_BASED",
    "TURN_SWEEP",
    "TimeBank",
    "TurnBased",
    "TurnClocks",
    "check_seat",
    "turn_based_of",
    "turn_time_left",
]

log = logging.getLogger(__name__)

HOUR = 3600.0
DAY = 24 * HOUR
MOVE_TIMES: dict[str, float] = {
    "1h": HOUR,
    "12h": 12 * HOUR,
    "1d": DAY,
    "3d": 3 * DAY,
    "7d": 7 * DAY,
}
"""The times per move a turn-based table may have, by name."""
TIMEOUT_RULES = ("bot_plays", "remove")
"""What happens when a person's time runs out: the game's stand-in bot plays that turn and
the person plays on (`bot_plays`), or the person leaves the table and the bot plays the
seat to the end (`remove`)."""
TURN_BASED = "turn_based"
"""The key of a turn-based table's first entry, whose args are its settings."""
BANK = "bank"
"""The kind of a stored row holding each seat's time left in the bank (its data)."""
MAX_TURN_BASED = 20
"""The most unfinished turn-based tables one player may sit at (`serve --max-turn-based`)."""
TURN_SWEEP = 30.0
"""Seconds between two looks for turn-based deadlines that have passed."""


@dataclass(frozen=True)
class TimeBank:
    """A bank of time, in times per move: a seat starts with `base`, gets `per_move` after
    each of its turns on top of what it left, and never holds more than `cap`."""

    base: float
    per_move: float
    cap: float


TIME_BANKS: dict[str, TimeBank | None] = {
    "none": None,  # every move has the time per move, no more
    "small": TimeBank(base=2, per_move=1, cap=3),
    "large": TimeBank(base=3, per_move=1, cap=7),
}
"""The time banks a turn-based table may have, by name."""


@dataclass(frozen=True)
class TurnBased:
    """A turn-based table's settings, by name (see `MOVE_TIMES`, `TIME_BANKS`,
    `TIMEOUT_RULES`)."""

    move: str
    bank: str = "none"
    rule: str = "bot_plays"

    def __post_init__(self) -> None:
        if self.move not in MOVE_TIMES:
            raise TableError("bad_turn_based", f"A time per move is one of: {_names(MOVE_TIMES)}.")
        if self.bank not in TIME_BANKS:
            raise TableError("bad_turn_based", f"A time bank is one of: {_names(TIME_BANKS)}.")
        if self.rule not in TIMEOUT_RULES:
            raise TableError("bad_turn_based", f"A rule is one of: {_names(TIMEOUT_RULES)}.")

    @property
    def seconds(self) -> float:
        """The time per move in seconds."""
        return MOVE_TIMES[self.move]

    @property
    def time_bank(self) -> TimeBank | None:
        return TIME_BANKS[self.bank]

    def args(self) -> dict[str, Any]:
        return {"move": self.move, "bank": self.bank, "rule": self.rule}

    def first_time(self) -> float:
        """A seat's time for its first turn."""
        bank = self.time_bank
        return self.seconds if bank is None else bank.base * self.seconds

    def after_turn(self, left: float) -> float:
        """A seat's time for its next turn, when it left `left` seconds of this one."""
        bank = self.time_bank
        if bank is None:
            return self.seconds
        return min(bank.cap, max(0.0, left) / self.seconds + bank.per_move) * self.seconds

    def longest(self) -> float:
        """The longest a turn may take."""
        bank = self.time_bank
        return self.seconds if bank is None else bank.cap * self.seconds


def _names(names: Any) -> str:
    return ", ".join(names)


def turn_based_of(table: LiveTable) -> TurnBased | None:
    """A turn-based table's settings (its first entry), or None for a real-time table."""
    if not table.entries or table.entries[0].key != TURN_BASED:
        return None
    args = table.entries[0].args
    return TurnBased(str(args["move"]), str(args.get("bank", "none")), str(args["rule"]))


async def check_seat(lobby: Lobby, table: LiveTable, account_id: str | None) -> None:
    """Whether a person may take a seat at `table`: at a turn-based one only signed in, and
    only while at fewer than `lobby.max_turn_based` unfinished turn-based tables."""
    if turn_based_of(table) is None:
        return
    if account_id is None:
        raise TableError(
            "turn_based_needs_account",
            "Sign in to play at a turn-based table: its game takes days, and only an account "
            "can come back to its seat from anywhere.",
        )
    held = await turn_based_count(lobby, account_id)
    if held >= lobby.max_turn_based:
        raise TableError(
            "too_many_turn_based",
            f"You play at {held} turn-based tables, the most one player may at once; "
            "finish one of them first.",
        )


async def turn_based_count(lobby: Lobby, account_id: str) -> int:
    """How many unfinished turn-based tables the account sits at (and has not left): its
    seats are looked up in the database (beside the loop), its tables in memory."""
    table_ids = await lobby.storage.read(_seated_at, lobby.store.engine, account_id)
    found = (lobby.tables.get(table_id) for table_id in table_ids)
    return sum(1 for t in found if t is not None and not t.over and turn_based_of(t) is not None)


def _seated_at(engine: Engine, account_id: str) -> list[str]:
    """The tables where the account holds a seat it has not left to a bot."""
    mine = (SEATS.c.account_id == account_id) & SEATS.c.bot.is_(None)
    with engine.connect() as db:
        return [row.table_id for row in db.execute(select(SEATS.c.table_id).where(mine))]


def turn_time_left(lobby: Lobby, table: LiveTable, yours: bool) -> dict[str, JsonValue]:
    """For "My tables": whether the table is turn-based, and on the player's turn its
    deadline and the whole time that turn has (for the alarm at 80 %)."""
    turns = turn_based_of(table)
    timers = lobby.timers.get(table.id)
    deadline = None if timers is None or not yours else timers.deadline
    told: dict[str, JsonValue] = {"turn_based": None if turns is None else turns.args()}
    if deadline is None or timers is None or table.row.clock is None:
        return {**told, "deadline": None, "turn_time": None}
    whole = table.row.clock
    if turns is not None and timers.clocked_seat is not None:
        whole = lobby.scheduler.turns.time_for(table, turns, timers.clocked_seat, timers)
    return {**told, "deadline": deadline, "turn_time": whole}


class TurnClocks:
    """The turn-based part of the scheduler: each turn's time (from the bank), the banks
    kept and stored, and the sweep that finds the deadlines that have passed."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.last_sweep_seconds = 0.0  # how long the latest sweep took (for the benchmark)

    def turn_passed(self, table: LiveTable, seat: int, deadline: float) -> None:
        """A turn has passed to the person at `seat`: their turn mail, if they asked for it
        (`server.mail`, which batches it and leaves it out while they are at the table)."""
        account_id = table.seats[seat].account_id
        if account_id is not None:
            self.lobby.mail.turn_started(account_id, table.id, table.game.name, deadline)

    def time_for(self, table: LiveTable, turns: TurnBased, seat: int, timers: Timers) -> float:
        """The seconds `seat` has for the turn starting now."""
        if timers.banks is None:
            return turns.first_time()
        return timers.banks.get(seat, turns.first_time())

    def turn_ended(self, table: LiveTable, timers: Timers, timed_out: bool = False) -> None:
        """The clocked seat's turn is over (by its move, or its time ran out): what it left
        goes into its bank, which is stored."""
        turns, seat, deadline = turn_based_of(table), timers.clocked_seat, timers.deadline
        if turns is None or turns.time_bank is None or seat is None or deadline is None:
            return
        left = 0.0 if timed_out else deadline - self.lobby.clock.now()
        banks = dict(timers.banks or {})
        banks[seat] = turns.after_turn(left)
        timers.banks = banks
        data = json.dumps({str(s): round(t, 3) for s, t in banks.items()})
        self.lobby.writer.store_in_background(self._store_banks(table.id, data))

    async def _store_banks(self, table_id: str, data: str) -> None:
        store = self.lobby.store
        try:
            await self.lobby.storage.write(store.set_deadline, table_id, BANK, 0, 0.0, data)
        except SQLAlchemyError as error:
            log.warning("table %s: its time bank was not stored (%s)", table_id, reason(error))

    def restore_banks(self, table_id: str, data: str | None) -> None:
        """Take a table's stored banks up (at start-up, or when this worker takes it over)."""
        if data is None:
            return
        try:
            banks = {int(seat): float(left) for seat, left in json.loads(data).items()}
        except (ValueError, AttributeError, TypeError) as error:
            log.warning("table %s: its stored time bank is unreadable (%s)", table_id, error)
            return
        self.lobby.scheduler.timers_of(table_id).banks = banks

    async def read_banks(self, table_id: str) -> None:
        """A table taken over from another worker gets its banks from the database."""
        table = self.lobby.tables.get(table_id)
        if table is None or (turns := turn_based_of(table)) is None or turns.time_bank is None:
            return
        stored = await self.lobby.storage.read(self.lobby.store.deadline_data, BANK, table_id)
        self.restore_banks(table_id, stored.get(table_id))

    async def sweep_forever(self) -> None:
        """Look for passed turn-based deadlines now and every `turn_sweep` seconds."""
        while True:
            try:
                self.sweep()
            except Exception:
                log.exception("the sweep of turn-based deadlines failed; again later")
            await self.lobby.clock.sleep(self.lobby.turn_sweep)

    def sweep(self) -> int:
        """Start the timeout of every turn-based table this worker runs whose deadline has
        passed; the number started."""
        started, begun = 0, time.perf_counter()
        now, scheduler = self.lobby.clock.now(), self.lobby.scheduler
        for table_id, timers in list(self.lobby.timers.items()):
            deadline, seat = timers.deadline, timers.clocked_seat
            if deadline is None or seat is None or deadline > now:
                continue
            if timers.clock is not None and not timers.clock.done():
                continue
            table = self.lobby.tables.get(table_id)
            if table is None or turn_based_of(table) is None:
                continue
            if not self.lobby.site.owns(table_id):
                continue
            run = scheduler.run_clock
            timers.clock = scheduler.supervised("turn clock", table_id, run, deadline, seat)
            started += 1
        self.last_sweep_seconds = time.perf_counter() - begun
        return started
