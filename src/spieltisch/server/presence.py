"""Who is at a table now: each person's seat is "here", "away" or "gone", with when its player
was last seen, across the workers of a site.

- **here**: a socket of the seat is open (on any worker), or closed less than `AWAY_AFTER`
  seconds ago (a reload or a short drop of the network does not count as leaving);
- **away**: last seen from `AWAY_AFTER` to `GONE_AFTER` seconds ago;
- **gone**: last seen longer ago than `GONE_AFTER`, or never.

Open seats and bots' seats have no presence (None). A worker counts its own sockets; it tells
the others when a seat comes or goes on it (`here` news) and repeats which seats it holds
every `BEAT_EVERY` seconds (`beat` news), so a worker that died stops counting after
`HEARD_FOR`. The last-seen time is stored in `seats.last_seen` when a seat's last socket on a
worker closes and, while it stays open, every `SEEN_EVERY` seconds: never a write per
message, and always in the storage thread (the loop never waits for it). Everything goes by
the lobby's clock, so tests move time by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, select, update
from sqlalchemy.exc import SQLAlchemyError

from spieltisch.core.protocol import JsonValue
from spieltisch.server.common import reason
from spieltisch.server.connection import Connection
from spieltisch.server.schema import SEATS
from spieltisch.server.store import Store
from spieltisch.server.table import LiveTable

if TYPE_CHECKING:
    from spieltisch.server.lobby import Lobby

__all__ = [
    "AWAY_AFTER",
    "BEAT_EVERY",
    "GONE_AFTER",
    "HEARD_FOR",
    "PRESENCES",
    "ROUND_EVERY",
    "SEEN_EVERY",
    "Presence",
    "read_last_seen",
    "with_marks",
    "write_last_seen",
]

log = logging.getLogger(__name__)

AWAY_AFTER = 60.0
"""Seconds of grace after a player's last socket closed before the seat shows "away"."""
GONE_AFTER = 15 * 60.0
"""Seconds after which a player not seen since shows as "gone"."""
SEEN_EVERY = 60.0
"""Seconds between stores of the last-seen time of the seats whose sockets stay open."""
BEAT_EVERY = 15.0
"""Seconds between a worker's reminders to the others of the seats it holds."""
HEARD_FOR = 3 * BEAT_EVERY
"""Seconds another worker's word that a seat is here counts without being repeated."""
ROUND_EVERY = 5.0
"""Seconds between looks for seats whose presence changed with time (here to away)."""
PRESENCES = ("here", "away", "gone")

Key = tuple[str, int, str | None]
"""A player at a seat: (table, seat number, the hash of the seat's token). A seat that
changes hands gets a new token, so its new player starts unseen, on every worker."""


class Presence:
    """The lobby's record of who is here, and the task that keeps it up to date."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.local: dict[Key, int] = {}  # sockets open on this worker, per seat
        self.remote: dict[Key, dict[str, float]] = {}  # worker -> when it last said "here"
        self.seen: dict[Key, float] = {}  # when the seat's player was last seen
        self.unsaved: dict[Key, float] = {}  # last-seen times still to be stored
        self.shown: dict[str, list[str]] = {}  # table -> the presences last pushed
        self._keys: dict[Connection, Key] = {}
        self._task: asyncio.Task[None] | None = None

    # --- what a table view shows -----------------------------------------------------------
    def mark(self, table: LiveTable, seat: int) -> dict[str, JsonValue]:
        """The seat's presence and last-seen time, as a table view shows them."""
        row = table.seats[seat]
        key = (table.id, seat, row.token_hash)
        now = self.lobby.clock.now()
        last = now if self.connected_now(key) else self.seen.get(key)
        if row.bot is not None or row.name is None:
            return {"presence": None, "last_seen": last}
        if last is None or now - last >= GONE_AFTER:
            return {"presence": "gone", "last_seen": last}
        return {"presence": "here" if now - last < AWAY_AFTER else "away", "last_seen": last}

    def marks(self, table: LiveTable) -> list[dict[str, JsonValue]]:
        return [self.mark(table, seat) for seat in range(len(table.seats))]

    def summary(self, table: LiveTable) -> dict[str, JsonValue]:
        """The table's summary with each seat's presence (see `with_marks`)."""
        return with_marks(table.summary(), self.marks(table))

    def connected_now(self, key: Key) -> bool:
        if self.local.get(key):
            return True
        now = self.lobby.clock.now()
        return any(now - heard < HEARD_FOR for heard in self.remote.get(key, {}).values())

    def anyone_here(self, table: LiveTable) -> bool:
        """Whether a person's socket is open at the table now, on any worker."""
        seats = enumerate(table.seats)
        return any(self.connected_now((table.id, n, row.token_hash)) for n, row in seats)

    # --- sockets of this worker ------------------------------------------------------------
    def connected(self, connection: Connection) -> None:
        if connection.seat is None:
            return
        table = self.lobby.tables.get(connection.table_id)
        token_hash = table.seats[connection.seat].token_hash if table is not None else None
        key = (connection.table_id, connection.seat, token_hash)
        self._keys[connection] = key
        self.local[key] = self.local.get(key, 0) + 1
        self.seen[key] = self.lobby.clock.now()
        if self.local[key] == 1:
            self._tell({"k": "here", "t": key[0], "s": key[1], "h": key[2], "on": True})
            self._push_if_changed(key[0], skip=connection)  # it gets the whole picture

    def disconnected(self, connection: Connection) -> None:
        key = self._keys.pop(connection, None)
        if key is None or key not in self.local:
            return
        self.local[key] -= 1
        if self.local[key] > 0:
            return
        del self.local[key]
        now = self.lobby.clock.now()
        self.seen[key] = self.unsaved[key] = now
        self._tell({"k": "here", "t": key[0], "s": key[1], "h": key[2], "on": False, "at": now})
        self._store_unsaved()

    # --- the other workers -----------------------------------------------------------------
    def heard(self, news: dict[str, Any]) -> None:
        """Another worker's `here` or `beat` news."""
        worker, now = str(news.get("w")), self.lobby.clock.now()
        if news.get("k") == "here":
            key = _key(news["t"], news["s"], news.get("h"))
            if news.get("on"):
                self.remote.setdefault(key, {})[worker] = now
            else:
                self.remote.get(key, {}).pop(worker, None)
                self.seen[key] = max(self.seen.get(key, 0.0), float(news.get("at", now)))
            self._push_if_changed(key[0])
        elif news.get("k") == "beat":
            held = {_key(*seat) for seat in news.get("seats", [])}
            for key in held:
                self.remote.setdefault(key, {})[worker] = now
            for key, workers in self.remote.items():
                if key not in held and workers.pop(worker, None) is not None:
                    self.seen[key] = max(self.seen.get(key, 0.0), now)

    def _tell(self, news: dict[str, JsonValue]) -> None:
        if self.lobby.site.shared:
            self.lobby.site.publish(news)

    # --- the round: time passing, reminders, stores ----------------------------------------
    def start(self) -> None:
        """Start the round (on the running event loop)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._rounds())

    async def stop(self) -> None:
        """Stop the round and store every last-seen time (as the server stops)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        now = self.lobby.clock.now()
        for key in self.local:
            self.unsaved[key] = now
        self._store_unsaved()

    async def _rounds(self) -> None:
        clock = self.lobby.clock
        stored = beaten = clock.now()
        while True:
            await clock.sleep(ROUND_EVERY)
            try:
                now = clock.now()
                self._forget_silent(now)
                self._forget_tables()
                if now - beaten >= BEAT_EVERY:
                    beaten = now
                    self._beat()
                if now - stored >= SEEN_EVERY:
                    stored = now
                    self.unsaved.update(dict.fromkeys(self.local, now))
                    self._store_unsaved()
                for table_id in {key[0] for key in (*self.seen, *self.local)}:
                    table = self.lobby.tables.get(table_id)
                    if table is not None and not table.over:
                        self._push_if_changed(table_id)
            except Exception:  # a bug here must not stop the round
                log.exception("the presence round failed")

    def _forget_silent(self, now: float) -> None:
        """Drop other workers' word that has not been repeated within `HEARD_FOR` (a worker
        that died); its seats were last seen when it last spoke."""
        for key, workers in list(self.remote.items()):
            for worker, heard in list(workers.items()):
                if now - heard >= HEARD_FOR:
                    del workers[worker]
                    self.seen[key] = max(self.seen.get(key, 0.0), heard)
            if not workers:
                del self.remote[key]

    def _forget_tables(self) -> None:
        """Let go of the seats of tables no longer in memory (closed or forgotten)."""
        for key in [k for k in self.seen if k[0] not in self.lobby.tables and k not in self.local]:
            del self.seen[key]
            self.remote.pop(key, None)
        for table_id in [t for t in self.shown if t not in self.lobby.tables]:
            del self.shown[table_id]

    def _beat(self) -> None:
        if self.local:
            self._tell({"k": "beat", "seats": [list(key) for key in self.local]})

    def _push_if_changed(self, table_id: str, skip: Connection | None = None) -> None:
        """Tell the table's sockets on this worker (but `skip`) when a seat's presence
        changed: a `presence` message with every seat's marks, beside the `state` messages
        (the table's version has not changed; the next state carries the marks too)."""
        table = self.lobby.tables.get(table_id)
        if table is None:
            self.shown.pop(table_id, None)
            return
        marks = self.marks(table)
        now = [str(mark["presence"]) for mark in marks]
        if self.shown.get(table_id) == now:
            return
        self.shown[table_id] = now
        if table.unsaved:  # a change is on its way to storage: its own push tells both
            return
        targets = list(self.lobby.connections.get(table_id, set()) - {skip})
        message = {"type": "presence", "seats": marks}
        self.lobby.pusher.send(targets, json.dumps(message, separators=(",", ":")))

    def _store_unsaved(self) -> None:
        if not self.unsaved:
            return
        batch, self.unsaved = self.unsaved, {}
        self.lobby.writer.store_in_background(self._store(batch))

    async def _store(self, batch: dict[Key, float]) -> None:
        try:
            await self.lobby.storage.write(write_last_seen, self.lobby.store, batch)
        except SQLAlchemyError as error:
            log.warning("last-seen times of %d seats not stored (%s)", len(batch), reason(error))
            for key, when in batch.items():  # tried again with the next store
                self.unsaved.setdefault(key, when)

    def load(self) -> None:
        """Take up the stored last-seen times of the tables in memory (at start-up)."""
        self.seen.update(read_last_seen(self.lobby.store, list(self.lobby.tables)))


def with_marks(
    summary: dict[str, JsonValue], marks: list[dict[str, JsonValue]]
) -> dict[str, JsonValue]:
    """A copy of a table's summary whose seats carry their presence marks."""
    seats = summary["seats"]
    assert isinstance(seats, list)
    marked: list[JsonValue] = []
    for seat, mark in zip(seats, marks, strict=True):
        assert isinstance(seat, dict)
        marked.append({**seat, **mark})
    return {**summary, "seats": marked}


def _key(table_id: Any, seat: Any, token_hash: Any) -> Key:
    return str(table_id), int(seat), None if token_hash is None else str(token_hash)


def write_last_seen(store: Store, batch: dict[Key, float]) -> None:
    """Store each player's last-seen time in one transaction: a later time only, and only
    while the seat is still theirs (its token hash unchanged)."""
    rows = [{"t": t, "s": s, "h": h, "when": when} for (t, s, h), when in batch.items() if h]
    if not rows:
        return
    match = (SEATS.c.table_id == bindparam("t")) & (SEATS.c.seat == bindparam("s"))
    theirs = SEATS.c.token_hash == bindparam("h")
    newer = SEATS.c.last_seen.is_(None) | (SEATS.c.last_seen < bindparam("when"))
    statement = update(SEATS).where(match & theirs & newer).values(last_seen=bindparam("when"))
    with store.engine.begin() as db:
        db.execute(statement, rows)


def read_last_seen(store: Store, table_ids: list[str]) -> dict[Key, float]:
    """The stored last-seen times of the players at these tables."""
    found: dict[Key, float] = {}
    with store.engine.connect() as db:
        for start in range(0, len(table_ids), 500):  # a bounded IN list
            chunk = table_ids[start : start + 500]
            columns = SEATS.c.table_id, SEATS.c.seat, SEATS.c.token_hash, SEATS.c.last_seen
            query = select(*columns).where(
                SEATS.c.table_id.in_(chunk) & SEATS.c.last_seen.isnot(None)
            )
            for r in db.execute(query):
                found[(r.table_id, r.seat, r.token_hash)] = float(r.last_seen)
    return found
