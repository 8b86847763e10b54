"""The server's sense of time: what time it is and how to wait, in one injectable object.

Bots' pace, turn clocks and Riff Raff's catch windows all ask the lobby's clock. A running
server uses `WallClock`; tests use `ManualClock`, which stands still until the test moves it
on, so what they check does not depend on how fast the machine is.
"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Protocol

__all__ = ["Clock", "ManualClock", "WallClock"]


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Return once `seconds` have passed on this clock."""
        ...


class WallClock:
    """The real time, and asyncio's sleep."""

    def now(self) -> float:
        return time.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class ManualClock:
    """A clock that moves only when `advance` is called (from any thread).

    A wait of zero seconds or less only yields to the event loop; a longer one ends when the
    clock has been moved past its deadline.
    """

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start
        self._lock = threading.Lock()
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        with self._lock:
            return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with self._lock:
            self._sleepers.append((self._now + seconds, woken))
        await woken

    def advance(self, seconds: float, wake: bool = True) -> None:
        """Move the clock on; with `wake` False the sleepers whose time has come stay asleep
        until the next advance (a timer that fires late, as on a busy machine)."""
        with self._lock:
            self._now += seconds
            if not wake:
                return
            due = [s for s in self._sleepers if s[0] <= self._now]
            self._sleepers = [s for s in self._sleepers if s[0] > self._now]
        for _, woken in due:
            woken.get_loop().call_soon_threadsafe(_wake, woken)

    def sleeping(self) -> int:
        """How many waits are pending (so a test can tell that a timer has been set); a
        cancelled wait does not count."""
        with self._lock:
            return sum(1 for _, woken in self._sleepers if not woken.done())


def _wake(woken: asyncio.Future[None]) -> None:
    if not woken.done():  # a cancelled sleeper stays cancelled
        woken.set_result(None)
