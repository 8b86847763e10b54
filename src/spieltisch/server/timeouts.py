"""A request must arrive in time: uvicorn's HTTP/1.1 protocol with a deadline for each
request's head and body.

Uvicorn closes a connection that is idle between requests (its keep-alive timeout), but it
waits for ever for a request that arrives a byte at a time, or never. Enough such sockets
(a slowloris attack) use up the server's file descriptors, and nobody else gets in. Here a
connection gets `request_timeout` seconds from its first byte (or from being opened) until
its request has fully arrived; a slower one is closed. A WebSocket, once upgraded, is not
affected.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11

from spieltisch.server.handshake import QuotaH11Protocol

__all__ = ["timed_protocol"]


class _TimedH11Protocol(QuotaH11Protocol):
    request_timeout = 10.0
    _deadline: asyncio.TimerHandle | None = None
    _upgraded = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self._arriving():
            self._arm()
        else:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._upgraded = True  # the socket belongs to the WebSocket protocol from now on
        self._disarm()
        super().handle_websocket_upgrade(event)

    def _arriving(self) -> bool:
        """Whether a request's head or body is still on its way."""
        return not self._upgraded and self.conn.their_state in (h11.IDLE, h11.SEND_BODY)

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self._arriving() and not self.transport.is_closing():
            self.transport.close()


def timed_protocol(request_timeout: float) -> type[Any]:
    """Uvicorn's HTTP/1.1 protocol, closing a request that takes over `request_timeout` s
    (and refusing a WebSocket over its address's quota at once, `handshake`)."""
    return type("TimedH11Protocol", (_TimedH11Protocol,), {"request_timeout": request_timeout})
