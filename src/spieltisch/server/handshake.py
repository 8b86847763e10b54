"""A WebSocket over its address's quota is refused at its first request line, before uvicorn
builds a WebSocket connection or a task for it.

`limits.SocketGate` refuses such a socket before routing, but only after uvicorn has parsed its
handshake a second time, made a WebSocket protocol and started the application: most of the
cost of a refused socket. Here uvicorn's HTTP protocol asks the application's quota first
(published in the lifespan state under `EARLY_REFUSAL`) and answers the same 429 at once.
A socket that comes through a trusted proxy with `X-Forwarded-For` is left to the gate, which
sees the forwarded address; so is every socket the quota lets in (the gate counts it).

An address that goes on regardless, refused faster than its quota's rate (a script ignoring
its 429s; a browser waits longer after each refusal), is shut out: `AcceptGate` closes its
new connections as they are accepted, before uvicorn's protocol is made, with no answer (its
429s said why): about a tenth of a 429's cost. A trusted proxy is never shut out.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

if TYPE_CHECKING:
    from spieltisch.server.limits import SocketRefused

__all__ = [
    "EARLY_REFUSAL",
    "SHUT_OUT",
    "AcceptGate",
    "EarlyRefusal",
    "QuotaH11Protocol",
    "ShutOut",
    "accept_gate",
    "refusal_answer",
]

EARLY_REFUSAL = "spieltisch.socket_refusal"
"""The lifespan state's key for the quota's question: would a new socket from this address be
refused now, and why."""

EarlyRefusal = Callable[[str], "SocketRefused | None"]

SHUT_OUT = "spieltisch.shut_out"
"""The lifespan state's key for: is this address shut out now (refused too often lately)?"""

ShutOut = Callable[[str], bool]


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


class AcceptGate(asyncio.Protocol):
    """The protocol of a connection just accepted: one from a shut-out address is closed at
    once (a reset, so that neither side keeps its port); any other is handed to `protocol`,
    made only now, which takes over the transport."""

    protocol: type[Any] = QuotaH11Protocol

    def __init__(self, **made_with: Any) -> None:
        self.made_with = made_with  # uvicorn's config, server_state and app_state

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        peer = transport.get_extra_info("peername")
        if peer and self._shut_out(peer[0]):
            transport.abort()
            return
        protocol = self.protocol(**self.made_with)
        transport.set_protocol(protocol)
        protocol.connection_made(transport)

    def _shut_out(self, host: str) -> bool:
        shut_out: ShutOut | None = self.made_with["app_state"].get(SHUT_OUT)
        if shut_out is None or not shut_out(host):
            return False
        trusted = getattr(self.made_with["config"].loaded_app, "trusted_hosts", None)
        return trusted is None or host not in trusted  # a proxy speaks for many


def accept_gate(protocol: type[Any]) -> type[AcceptGate]:
    """The gate in front of uvicorn's HTTP/1.1 `protocol` (a `QuotaH11Protocol`)."""
    return type("AcceptGate", (AcceptGate,), {"protocol": protocol})


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
