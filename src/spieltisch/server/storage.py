"""Storage calls beside the event loop: the loop awaits them, each within a bound.

The store (`server.store`) is plain synchronous SQLAlchemy. Its calls run here in threads, so
a database that is slow, locked or cut off never holds up the loop: views, syncs and the lobby
keep answering from memory while a move waits to be stored. Writes run one at a time in one
thread, in the order they were asked for; reads run in a few threads of their own, so a read
never waits behind a stuck write.

A call that has not ended within its bound raises `StorageTimeout` (an `SQLAlchemyError`, so
callers treat it as any failure of the database: a move is refused with `not_saved`, a table
answers `unavailable` and comes back by itself). A write still waiting its turn then never
runs; one already running is left to the database's own bounds (`database.STATEMENT_TIMEOUT_MS`
and the TCP timeouts), and what it stored, if anything, is what the table is rebuilt from.
SQLite's "database is locked" (another process writing) is retried within the bound.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import ParamSpec, TypeVar

from sqlalchemy.exc import OperationalError, SQLAlchemyError

__all__ = ["READ_BOUND", "WRITE_BOUND", "Storage", "StorageTimeout"]

WRITE_BOUND = 8.0
"""Seconds the loop waits for a write: longer than PostgreSQL's statement bound (5 s), so a
statement that fails there is reported as its own error, and short enough that a player whose
move cannot be stored hears so within seconds."""
READ_BOUND = 8.0
"""Seconds the loop waits for a read (a table another worker made, a finished game)."""
READERS = 2
"""Threads for reads: a few, as each holds a database connection while it runs."""
BUSY_RETRY = 0.05
"""Seconds between tries of a write that found SQLite locked by another process (doubling up
to `BUSY_RETRY_MOST`)."""
BUSY_RETRY_MOST = 0.5

P = ParamSpec("P")
T = TypeVar("T")


class StorageTimeout(SQLAlchemyError):
    """The database did not answer within the bound."""


class Storage:
    """The threads that run storage calls for one event loop."""

    def __init__(self, write_bound: float = WRITE_BOUND, read_bound: float = READ_BOUND) -> None:
        self.write_bound = write_bound
        self.read_bound = read_bound
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="storage-write")
        self._readers = ThreadPoolExecutor(READERS, thread_name_prefix="storage-read")

    async def write(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`call(*args)` in the writer thread, after every write asked for before it."""
        deadline = time.monotonic() + self.write_bound
        job = self._writer.submit(_retried_when_locked, deadline, partial(call, *args, **kwargs))
        return await _bounded(job, self.write_bound, "write")

    async def read(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`call(*args)` in a reader thread."""
        return await _bounded(self._readers.submit(call, *args, **kwargs), self.read_bound, "read")

    def close(self) -> None:
        """Let the calls under way end; the ones still waiting are dropped."""
        self._writer.shutdown(wait=True, cancel_futures=True)
        self._readers.shutdown(wait=True, cancel_futures=True)


async def _bounded(job: Future[T], bound: float, what: str) -> T:
    try:
        return await asyncio.wait_for(asyncio.wrap_future(job), bound)
    except TimeoutError:
        job.cancel()  # a job still waiting its turn never runs
        raise StorageTimeout(f"the database did not finish a {what} within {bound:g} s") from None


def _retried_when_locked(deadline: float, call: Callable[[], T]) -> T:
    """`call()`, tried again while SQLite says another process holds the database locked."""
    pause = BUSY_RETRY
    while True:
        try:
            return call()
        except OperationalError as error:
            if "database is locked" not in str(error) or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(2 * pause, BUSY_RETRY_MOST)
