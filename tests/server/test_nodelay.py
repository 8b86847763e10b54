"""Every connection `serve` accepts sends without delay (TCP_NODELAY): on a kept-alive
connection the answers after the first come as fast as the first, not about 40 ms late
(the body held back until the client acknowledges the head, which it delays)."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path

import pytest

from spieltisch.cli.serve import _bind
from tests.server.live import start_server

REQUESTS = 25
FAST = 0.020  # seconds: the fastest answer on a reused connection (without the option: ~44)


def test_the_listener_is_tcp_and_its_connections_send_without_delay() -> None:
    listener = _bind("127.0.0.1", 0)
    assert listener.proto == socket.IPPROTO_TCP
    assert listener.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    assert asyncio.run(_accepted_nodelay(listener))


async def _accepted_nodelay(listener: socket.socket) -> int:
    """TCP_NODELAY of a connection that asyncio accepted on `listener`."""
    found: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            accepted = transport.get_extra_info("socket")
            found.set_result(accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    server = await asyncio.get_running_loop().create_server(Probe, sock=listener)
    async with server:
        _, writer = await asyncio.open_connection(*listener.getsockname()[:2])
        value = await asyncio.wait_for(found, 10)
        writer.close()
    return value


@pytest.mark.slow  # a real serve process
def test_answers_on_a_kept_alive_connection_come_at_once(tmp_path: Path) -> None:
    with start_server(tmp_path) as server:
        port = int(server.url.rstrip("/").rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            times = [_timed_get(connection, "/api/tables") for _ in range(REQUESTS)]
    # the fastest, not the median: without the option every later answer waits about 40 ms,
    # while a busy machine delays only some of them
    later = min(times[1:])
    assert later < FAST, f"fastest answer after the first: {later * 1000:.1f} ms ({times})"


def _timed_get(connection: socket.socket, path: str) -> float:
    """Seconds from sending a GET on `connection` to having its whole answer."""
    start = time.perf_counter()
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: test\r\n\r\n".encode())
    received = b""
    while b"\r\n\r\n" not in received:
        received += _read(connection)
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += _read(connection)
    return time.perf_counter() - start


def _read(connection: socket.socket) -> bytes:
    data = connection.recv(65536)
    assert data, "the server closed the kept-alive connection"
    return data
