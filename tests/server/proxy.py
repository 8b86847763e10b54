"""A TCP proxy that a test can cut, to take a database or a broker away from a server, or
silence: it then forwards nothing but closes nothing either, as a network partition that
drops packets looks to both ends while their kernels still answer."""

from __future__ import annotations

import contextlib
import socket
import threading

__all__ = ["CuttableProxy"]


class CuttableProxy:
    """Forwards TCP connections to `target` until `cut`; then drops them all and closes new
    ones at once, until `restore`. Between `silence` and `speak` it holds every byte back."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.open = True
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.flowing = threading.Event()
        self.flowing.set()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            client, _ = self.listener.accept()
            if not self.open:
                client.close()
                continue
            upstream = socket.create_connection(self.target)
            self.pairs.append((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pipe, args=(a, b, self.flowing), daemon=True).start()

    def cut(self) -> None:
        self.open = False
        for pair in self.pairs:
            for sock in pair:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
        self.pairs = []

    def restore(self) -> None:
        self.open = True

    def silence(self) -> None:
        self.flowing.clear()

    def speak(self) -> None:
        self.flowing.set()


def _pipe(source: socket.socket, sink: socket.socket, flowing: threading.Event) -> None:
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            flowing.wait()
            sink.sendall(data)
    for sock in (source, sink):
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)
