"""A WebSocket over its address's quota is refused by uvicorn's HTTP protocol itself, before a
WebSocket connection or the application is started for it; a connection from an address shut
out for ignoring its refusals is closed as it is accepted (`server.handshake`)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.config import Config
from uvicorn.server import ServerState

from spieltisch.server.handshake import EARLY_REFUSAL, SHUT_OUT, QuotaH11Protocol, accept_gate
from spieltisch.server.limits import SocketRefused

UPGRADE = (
    b"GET /api/tables/T/ws HTTP/1.1\r\nHost: example\r\nUpgrade: websocket\r\n"
    b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    b"Sec-WebSocket-Version: 13\r\n"
)
REFUSED = SocketRefused("too_many_reconnects", "At most 1 new connection; try again in 3 s.", 3)


class Transport(asyncio.Transport):
    """Keeps what the protocol writes, whether it closed, and the protocol it handed on to."""

    def __init__(self, peer: str) -> None:
        super().__init__()
        self.peer = peer
        self.written = b""
        self.closed = False
        self.handed_to: Any = None

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": (self.peer, 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def write(self, data: Any) -> None:
        self.written += bytes(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def set_protocol(self, protocol: Any) -> None:
        self.handed_to = protocol


def upgrade(
    peer: str, refused: SocketRefused | None, extra: bytes = b""
) -> tuple[Transport, list[str], list[str]]:
    """Send an upgrade request from `peer` to the protocol whose quota answers `refused`;
    the transport, the addresses the quota was asked about and those the app saw."""
    asked: list[str] = []
    reached: list[str] = []

    def refusal(address: str) -> SocketRefused | None:
        asked.append(address)
        return refused

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(scope["client"][0])
        await send({"type": "websocket.close"})

    async def run() -> Transport:
        config = Config(app, ws="websockets-sansio", forwarded_allow_ips="127.0.0.1")
        protocol = QuotaH11Protocol(config, ServerState(), {EARLY_REFUSAL: refusal})
        transport = Transport(peer)
        protocol.connection_made(transport)
        protocol.data_received(UPGRADE + extra + b"\r\n")
        await asyncio.sleep(0.05)  # the application's task, if any, runs
        return transport

    return asyncio.run(run()), asked, reached


def test_a_socket_over_the_quota_gets_429_before_its_handshake() -> None:
    transport, asked, reached = upgrade("10.0.0.7", REFUSED)
    head, _, body = transport.written.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 429 Too Many Requests\r\n"), head
    assert b"retry-after: 3\r\n" in head + b"\r\n" and b"content-type: application/json" in head
    assert json.loads(body) == {"error": REFUSED.code, "message": REFUSED.message}
    assert transport.closed and transport.handed_to is None
    assert asked == ["10.0.0.7"] and reached == []


def test_a_socket_within_the_quota_goes_on_to_its_handshake() -> None:
    transport, asked, reached = upgrade("10.0.0.7", None)
    assert asked == reached == ["10.0.0.7"] and transport.handed_to is not None
    assert b"429" not in transport.written


def test_a_socket_forwarded_by_a_trusted_proxy_is_left_to_the_gate() -> None:
    """The forwarded address is known only after uvicorn's proxy middleware has run."""
    _, asked, reached = upgrade("127.0.0.1", REFUSED, b"X-Forwarded-For: 10.0.0.8\r\n")
    assert asked == [] and reached == ["10.0.0.8"]
    _, asked, reached = upgrade("10.0.0.9", REFUSED, b"X-Forwarded-For: 10.0.0.8\r\n")
    assert asked == ["10.0.0.9"] and reached == []  # an untrusted peer forwards nothing


class AbortableTransport(Transport):
    def __init__(self, peer: str) -> None:
        super().__init__(peer)
        self.aborted = False

    def abort(self) -> None:
        self.aborted = self.closed = True


def accepted(peer: str, shut_out: bool, trusted: str = "127.0.0.1") -> AbortableTransport:
    """A connection from `peer` accepted by the gate whose quota answers `shut_out`."""
    asked: list[str] = []

    def is_shut_out(address: str) -> bool:
        asked.append(address)
        return shut_out

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "websocket.close"})

    async def run() -> AbortableTransport:
        config = Config(app, ws="websockets-sansio", forwarded_allow_ips=trusted)
        config.load()
        state = {EARLY_REFUSAL: lambda _: None, SHUT_OUT: is_shut_out}
        gate = accept_gate(QuotaH11Protocol)(
            config=config, server_state=ServerState(), app_state=state
        )
        transport = AbortableTransport(peer)
        gate.connection_made(transport)
        return transport

    transport = asyncio.run(run())
    assert asked == [peer]
    return transport


def test_a_shut_out_address_is_closed_as_it_is_accepted_before_any_protocol() -> None:
    transport = accepted("10.0.0.7", shut_out=True)
    assert transport.aborted and transport.handed_to is None and transport.written == b""


def test_any_other_connection_is_handed_to_uvicorns_protocol() -> None:
    transport = accepted("10.0.0.7", shut_out=False)
    assert not transport.closed and isinstance(transport.handed_to, QuotaH11Protocol)


def test_a_trusted_proxy_is_never_shut_out() -> None:
    """Its connections carry many clients; the gate counts them by forwarded address."""
    transport = accepted("127.0.0.1", shut_out=True, trusted="127.0.0.1")
    assert not transport.closed and isinstance(transport.handed_to, QuotaH11Protocol)
