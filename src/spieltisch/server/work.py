"""Slow work beside the event loop: bot decisions and Riff Raff physics, each with a time limit.

The loop only parses, checks, stores and pushes; anything that may take long runs in a pool.
A running server uses processes (`process_pool`): the careful bot is mostly Python, so in a
thread it would hold the GIL and slow every request down. Tests may use a thread pool, which
lets a stand-in bot block on a `threading.Event`. The jobs are plain functions of picklable
arguments (a game, a state, a bot spec, a seed).

The time limit goes by the lobby's clock, so a test on a `ManualClock` decides when a job has
taken too long. A job that runs out of time is abandoned (its result is ignored).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from spieltisch.server.clock import Clock

__all__ = ["TooSlow", "Work", "process_pool"]

T = TypeVar("T")


class TooSlow(Exception):
    """A job did not finish within its time limit."""


def process_pool(workers: int | None = None) -> ProcessPoolExecutor:
    """Worker processes, started fresh ('spawn': the server's threads are not copied)."""
    count = workers or max(1, (os.cpu_count() or 2) - 1)
    return ProcessPoolExecutor(count, mp_context=multiprocessing.get_context("spawn"))


class Work:
    """Runs jobs in `executor`, each allowed `limit` seconds of `clock` time."""

    def __init__(self, executor: Executor, clock: Clock, limit: float) -> None:
        self.executor = executor
        self.clock = clock
        self.limit = limit

    async def run(self, job: Callable[..., T], *args: Any) -> T:
        """The job's result; raises what the job raised, or `TooSlow`."""
        done = asyncio.wrap_future(self.executor.submit(job, *args))
        timer = asyncio.ensure_future(self.clock.sleep(self.limit))
        either: set[asyncio.Future[Any]] = {done, timer}
        try:
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
        if not done.done():
            done.cancel()  # a job that has started goes on, but nobody waits for it
            raise TooSlow(f"no result within {self.limit:g} s")
        return done.result()

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
