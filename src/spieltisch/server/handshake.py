"""A WebSocket over its address's quota is refused at its first request line, before uvicorn
builds a WebSocket connection or a task for it.

`limits.SocketGate` refuses such a socket before routing, but only after uvicorn has parsed its
handshake a second time, made a WebSocket protocol and started the application: most of the
cost of a refused socket. Here uvicorn's HTTP protocol asks the application's quota first
(published in the lifespan state under `EARLY_REFUSAL`) and answers the same 429 at once.
A socket that comes through a trusted proxy with `X-Forwarded-For` is left to the gate, which
sees the forwarded address; so is every socket the quota lets in (the gate counts it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

if TYPE_CHECKING:
    from spieltisch.server.limits import SocketRefused

__all__ = ["EARLY_REFUSAL", "EarlyRefusal", "QuotaH11Protocol", "refusal_answer"]

EARLY_REFUSAL = "spieltisch.socket_refusal"
"""The lifespan state's key for the quota's question: would a new socket from this address be
refused now, and why."""

EarlyRefusal = Callable[[str], "SocketRefused | None"]


class QuotaH11Protocol(H11Protocol):
    """Uvicorn's HTTP/1.1 protocol, refusing a WebSocket over its address's quota at once."""

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        refused = self._early_refusal()
        if refused is None:
            super().handle_websocket_upgrade(event)
            return
        self.connections.discard(self)
        self.transport.write(refusal_answer(refused))
        self.transport.close()

    def _early_refusal(self) -> SocketRefused | None:
        refusal: EarlyRefusal | None = self.app_state.get(EARLY_REFUSAL)
        if refusal is None or not self.client:
            return None
        host = self.client[0]
        trusted = getattr(self.app, "trusted_hosts", None)  # uvicorn's ProxyHeadersMiddleware
        forwarded = any(name == b"x-forwarded-for" for name, _ in self.headers)
        if forwarded and trusted is not None and host in trusted:
            return None  # the forwarded address is the gate's to count
        return refusal(host)


def refusal_answer(refused: SocketRefused) -> bytes:
    """The whole HTTP answer refusing a handshake: 429, Retry-After, the refusal as JSON."""
    from spieltisch.server.limits import refusal_body

    body = refusal_body(refused.code, refused.message)
    head = (
        "HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nretry-after: {refused.retry_after}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode("ascii") + body
