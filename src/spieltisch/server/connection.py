"""One open WebSocket with its own bounded queue of outgoing messages and its own writer.

A push only puts a message into each connection's queue; the connection's writer task sends
them one after the other. A connection that falls more than `limit` messages behind (a
client that does not read) is closed and nobody waits for it; the client resyncs when it
reconnects, since a new connection starts with the whole picture.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

__all__ = ["CLOSE_WAIT", "MAX_BEHIND", "Connection"]

Send = Callable[[str], Awaitable[None]]
Close = Callable[[], Awaitable[None]]

MAX_BEHIND = 64
"""Messages a connection may have waiting before it is closed as too slow."""

CLOSE_WAIT = 10.0
"""Seconds a lagging socket's close may take before it is given up (a liveness bound)."""


@dataclass(eq=False)
class Connection:
    """A seat (or None for a spectator) at a table, and how to send text to it."""

    table_id: str
    seat: int | None
    send: Send
    seen: int | None = None  # the table version last sent (None: send the whole picture)
    close: Close | None = None  # closes the socket of a client that has fallen behind
    limit: int = MAX_BEHIND
    closed: bool = False
    _queue: asyncio.Queue[str] = field(init=False, repr=False)
    _writer: asyncio.Task[None] | None = field(default=None, repr=False)
    _closing: asyncio.Task[None] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._queue = asyncio.Queue(self.limit)

    def start(self) -> None:
        """Start the writer (on the running event loop)."""
        self._writer = asyncio.get_running_loop().create_task(self._write())

    def offer(self, text: str) -> bool:
        """Queue `text` without waiting; False if the connection is closed or, having fallen
        too far behind, is closed now."""
        if self.closed:
            return False
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.shut()
            return False
        return True

    async def _write(self) -> None:
        while True:
            text = await self._queue.get()
            try:
                await self.send(text)
            except Exception:  # the socket is gone: its reader ends the connection
                self.closed = True
                return

    def shut(self) -> None:
        """Stop sending and close the socket, without waiting for either."""
        self.stop()
        if self.close is not None and self._closing is None:
            self._closing = asyncio.get_running_loop().create_task(_close(self.close))

    def finish(self, text: str) -> None:
        """Send `text` as the last message, then close the socket, without waiting."""
        self.stop()
        if self.close is not None and self._closing is None:
            close = self.close

            async def last_words() -> None:
                await self.send(text)
                await close()

            self._closing = asyncio.get_running_loop().create_task(_close(last_words))

    def stop(self) -> None:
        """Stop sending (the socket has closed)."""
        self.closed = True
        if self._writer is not None and self._writer is not asyncio.current_task():
            self._writer.cancel()


async def _close(close: Close) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(close(), CLOSE_WAIT)
