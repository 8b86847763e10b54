"""Waiting for what happens beside a test (bots, timers, other processes). The limit is a
liveness bound only: a test never depends on how soon the check comes true."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

__all__ = ["LIVENESS", "until", "wait_for"]

LIVENESS = 60.0
"""Seconds: only something stuck takes this long."""
NEVER = "the table never got there"


async def until(
    check: Callable[[], object],
    what: str = NEVER,
    liveness: float = LIVENESS,
    pause: float = 0.01,
) -> None:
    """Sleep on the event loop until `check()` is true; fail with `what` after `liveness` s."""
    end = time.monotonic() + liveness
    while not check():
        assert time.monotonic() < end, what
        await asyncio.sleep(pause)


def wait_for(
    check: Callable[[], object],
    what: str = NEVER,
    liveness: float = LIVENESS,
    pause: float = 0.01,
) -> None:
    """Sleep until `check()` is true; fail with `what` after `liveness` s."""
    end = time.monotonic() + liveness
    while not check():
        assert time.monotonic() < end, what
        time.sleep(pause)
