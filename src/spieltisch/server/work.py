"""Slow work beside the event loop: bot decisions and Riff Raff physics, each with a time limit.

The loop only parses, checks, stores and pushes; anything that may take long runs in a pool.
A running server uses processes (`process_pool`): the careful bot is mostly Python, so in a
thread it would hold the GIL and slow every request down. Tests may use a thread pool, which
lets a stand-in bot block on a `threading.Event`. The jobs are plain functions of picklable
arguments (a game, a state, a bot spec, a seed).

In a worker process a job is stopped by an alarm once it has run `limit` seconds, so a
runaway job frees its worker. The lobby itself waits at most `patience` (twice the limit:
the job's own time and as long again for its turn in the queue) by its clock, so a test on a
`ManualClock` decides when a job has taken too long; a job that runs out of patience is
abandoned (its result is ignored). A pool whose worker died (a crash in the physics) is
replaced by a new one.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from types import FrameType
from typing import Any, TypeVar

from spieltisch.server.clock import Clock

__all__ = ["TooSlow", "Work", "process_pool", "when_orphaned"]

T = TypeVar("T")
log = logging.getLogger(__name__)


class TooSlow(Exception):
    """A job did not finish within its time limit."""


def process_pool(workers: int | None = None) -> ProcessPoolExecutor:
    """Worker processes, started fresh ('spawn': the server's threads are not copied); each
    ends when the server process is gone, even if it was killed."""
    return ProcessPoolExecutor(
        workers or max(2, os.cpu_count() or 2),
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_exit_with,
        initargs=(os.getpid(),),
    )


def _exit_with(parent: int) -> None:
    """Watch (in a worker) for the parent to go: a worker's own queue never tells it."""
    when_orphaned(parent, lambda: os._exit(0))


def when_orphaned(parent: int, then: Callable[[], None], every: float = 1.0) -> None:
    """Call `then` (in a thread of its own) once this process's parent `parent` is gone."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        then()

    threading.Thread(target=watch, name="watch-parent", daemon=True).start()


def within(limit: float, job: Callable[..., T], *args: Any) -> T:
    """Run `job`; in a worker process's main thread an alarm stops it after `limit` s."""
    if threading.current_thread() is not threading.main_thread():
        return job(*args)  # a thread pool: only the lobby's patience limits it
    previous = signal.signal(signal.SIGALRM, _too_slow)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        return job(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _too_slow(_signal: int, _frame: FrameType | None) -> None:
    raise TooSlow("stopped by its alarm")


class Work:
    """Runs jobs in `executor` (worker processes if None), each stopped after `limit`
    seconds of running and waited for at most `patience` seconds of `clock` time."""

    def __init__(
        self, executor: Executor | None, clock: Clock, limit: float, workers: int | None = None
    ) -> None:
        self.renew = executor is None  # our own pool: a broken one is replaced
        self.workers = workers  # of our own pool (None: `process_pool`'s default)
        self.executor = executor or process_pool(workers)
        self.closed = False
        self.clock = clock
        self.limit = limit
        self.patience = 2 * limit

    async def run(self, job: Callable[..., T], *args: Any) -> T:
        """The job's result; raises what the job raised, or `TooSlow`."""
        try:
            return await self._run(job, *args)
        except BrokenExecutor:
            if self.renew and not self.closed:
                log.error("a worker process died; starting new workers")
                self.executor.shutdown(wait=False, cancel_futures=True)
                self.executor = process_pool(self.workers)
            raise

    async def _run(self, job: Callable[..., T], *args: Any) -> T:
        done = asyncio.wrap_future(self.executor.submit(within, self.limit, job, *args))
        timer = asyncio.ensure_future(self.clock.sleep(self.patience))
        either: set[asyncio.Future[Any]] = {done, timer}
        try:
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
        if not done.done():
            done.cancel()  # a job that has started goes on, but nobody waits for it
            raise TooSlow(f"no result within {self.patience:g} s")
        return done.result()

    def warm(self) -> None:
        """Start a worker process and its imports now, not at the first bot's move (a
        worker that takes over tables from a dead one moves their bots at once)."""
        if self.renew:
            self.executor.submit(_ready)

    async def close(self, stop_running: bool = False) -> None:
        """Drop the queued jobs and stop the workers. Our own pool is waited for (a running
        job ends by its alarm, or at once with `stop_running`: its worker is terminated): its
        queues must be released before the process exits, and a server stopped by SIGTERM
        exits by that signal, without running exit handlers."""
        self.closed = True
        if not self.renew:
            self.executor.shutdown(wait=False, cancel_futures=True)
            return
        if stop_running:
            workers: dict[int, multiprocessing.Process] = getattr(self.executor, "_processes", {})
            for process in list((workers or {}).values()):
                process.terminate()
        await asyncio.to_thread(self.executor.shutdown, wait=True, cancel_futures=True)


def _ready() -> None:
    import spieltisch.server.table  # noqa: F401  (what a bot decision or a settle needs)
