"""SMTP servers for the mail tests, each on a loopback port in a thread of its own: a real
one (aiosmtpd) that keeps what it is sent, one that accepts connections and never answers,
and a port where nothing listens."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from tests.server.live import free_port

__all__ = ["Inbox", "hanging_smtp", "inbox", "nobody_listening"]


@dataclass
class Inbox:
    """What a test's SMTP server was sent: each mail with its envelope's recipients."""

    port: int
    mails: list[tuple[list[str], EmailMessage]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        message = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        with self._lock:
            self.mails.append((list(envelope.rcpt_tos), message))
        return "250 OK"

    def taken(self) -> list[EmailMessage]:
        """The mails received so far, oldest first (and forgets them)."""
        with self._lock:
            found, self.mails = [m for _, m in self.mails], []
        return found


@contextmanager
def inbox() -> Iterator[Inbox]:
    """A real SMTP server on a free loopback port."""
    box = Inbox(free_port())
    controller = Controller(box, hostname="127.0.0.1", port=box.port)
    controller.start()
    try:
        yield box
    finally:
        controller.stop()


@contextmanager
def hanging_smtp() -> Iterator[int]:
    """A port that accepts connections and never says a word (a server that hangs)."""
    listener = socket.create_server(("127.0.0.1", free_port()))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except TimeoutError:
                continue
            except OSError:
                return

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        stop.set()
        thread.join()
        for connection in held:
            connection.close()
        listener.close()


def nobody_listening() -> int:
    """A loopback port nothing listens on (a connection is refused)."""
    return free_port()
