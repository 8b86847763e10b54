"""What the connections of a table are sent: the state in each seat's view after every change,
a Riff Raff placement's motion before it, chat lines.

A push only puts a message in each connection's own bounded queue (`server.connection`);
connections with the same seat and the same last seen version share one encoded message.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import TYPE_CHECKING

from spieltisch.server.common import chat_json, is_tutorial
from spieltisch.server.connection import Connection
from spieltisch.server.presence import with_marks
from spieltisch.server.scheduler import Timers
from spieltisch.server.settle import open_window, timing_for
from spieltisch.server.store import ChatRow
from spieltisch.server.table import LiveTable

if TYPE_CHECKING:
    from spieltisch.server.lobby import Lobby

__all__ = ["Pusher"]


class Pusher:
    """Sends the lobby's tables to their connections."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby

    async def push(self, table: LiveTable, only: Connection | None = None) -> None:
        """Send the table's state; changes still being stored are waited for first."""
        pending = self.lobby.writer.pending.get(table.id)
        if pending is not None:
            if not pending.done():
                with contextlib.suppress(Exception):
                    await asyncio.shield(pending)
            if self.lobby.writer.pending.get(table.id) is pending:
                del self.lobby.writer.pending[table.id]
            if table.id not in self.lobby.tables:  # unavailable or closed meanwhile
                return
            table = self.lobby.tables[table.id]
        deadline = self.lobby.timers.get(table.id, Timers()).deadline
        targets = [only] if only else list(self.lobby.connections.get(table.id, set()))
        await self._send_show(table, targets, only is not None)
        messages: dict[tuple[int | None, int | None], str] = {}
        marks = self.lobby.presence.marks(table)  # who is here (`server.presence`)
        for connection in targets:
            key = (connection.seat, connection.seen)
            if key not in messages:
                message = table.message(connection.seat, deadline, connection.seen)
                message["table"] = with_marks(table.summary(), marks)
                messages[key] = json.dumps(message, separators=(",", ":"))
            connection.seen = table.version
            self.send([connection], messages[key])

    def send(self, connections: list[Connection], message: str) -> None:
        """Queue `message` for each connection; one that has fallen too far behind is
        closed and dropped (its client resyncs when it reconnects)."""
        for connection in connections:
            if not connection.offer(message):
                self.disconnect(connection)

    async def _send_show(self, table: LiveTable, targets: list[Connection], joining: bool) -> None:
        """Broadcast a new placement's motion (and open a person's catch window) before the
        state it leads to; a client that connects while it plays gets it too."""
        show, now = table.show, self.lobby.clock.now()
        if show is None or (joining and not show.running(now)):
            return
        if show.sent is None:
            show.sent = now
            seat = table.catcher()
            if seat is not None and show.version == table.version:
                timing = timing_for(self.lobby.timing, is_tutorial(table))
                show.window = open_window(show, seat, timing, now)
                self.lobby.scheduler.open_catch(table, show)
        elif not joining:
            return
        self.send(targets, show.message(now))

    def connect(self, connection: Connection) -> None:
        connection.start()
        self.lobby.connections.setdefault(connection.table_id, set()).add(connection)

    def disconnect(self, connection: Connection) -> None:
        connection.stop()
        self.lobby.connections.get(connection.table_id, set()).discard(connection)

    def send_chat(self, table: LiveTable, line: ChatRow) -> None:
        message = json.dumps({"type": "chat", "version": table.version, "line": chat_json(line)})
        self.send(list(self.lobby.connections.get(table.id, set())), message)
