"""The workers of one table site: who runs a table's timers, and how a change reaches everyone.

A site is every worker (process or machine) that serves the same database. The database is
the truth: each entry of a table has a unique (table, seq), so of two workers that store the
same version only one succeeds. What workers tell each other is news, not truth: a lost
message is healed by reading the database again.

`Site` is a worker alone (the default: one process, any database). `RedisSite` joins the
workers of a site through Redis:
- News of a change (table, version, turn clock, a Riff Raff placement's motion) is published
  on one channel; every other worker reads what changed from the database and pushes it to
  its own connections. While Redis is away, workers look for changes in the database every
  `SWEEP_EVERY` seconds instead, and once more when it is back.
- Each unfinished table has a lease, a Redis key naming its owner that expires after
  `LEASE` seconds unless renewed. Only the owner runs the table's bots, turn clock and catch
  window. A worker renews its leases every `ROUND` seconds; one that cannot renew them stops
  its timers when they may have run out. The leases of a worker that died run out, and the
  others take them over on their next round: within `LEASE + 2 * ROUND` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

__all__ = ["LEASE", "ROUND", "SWEEP_EVERY", "Member", "RedisSite", "Site", "worker_name"]

log = logging.getLogger(__name__)

LEASE = 3.0
"""Seconds a table's lease lasts unless its owner renews it."""
ROUND = 0.75
"""Seconds between a worker's rounds of renewing its leases and claiming orphaned tables."""
SWEEP_EVERY = 2.0
"""Seconds between looks into the database for changes while the broker is away."""
RECONNECT_MOST = 5.0
"""The longest wait between attempts to reach the broker again."""
CANCEL_AGAIN = 1.0
"""Seconds a stopping worker waits for its site jobs before it cancels them again."""
SEND_TRIES, SEND_PAUSE = 3, 0.1
"""A message that cannot be published is tried this many times, the pauses growing by this."""

# renew a lease only while it is still ours (another worker may have taken it over)
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
# let a lease go only if it is ours
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


def worker_name() -> str:
    """A name for this worker, unique on the site: host, process and a random tail."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


class Member(Protocol):
    """What a site needs of the lobby of its worker."""

    def wanted(self) -> list[str]:
        """The tables whose timers someone must run (the unfinished ones)."""

    async def heard(self, news: dict[str, Any]) -> None:
        """Another worker changed something (see `Site.publish`)."""

    async def gained(self, table_id: str) -> None:
        """This worker now owns the table: catch up with the database, start its timers."""

    def lost(self, table_id: str) -> None:
        """This worker no longer owns the table: stop its timers."""

    async def sweep(self) -> None:
        """Look in the database for what changed (news may have been missed)."""

    def tend(self, table_ids: list[str]) -> None:
        """Have the timers of these tables (this worker's) running."""


class Site:
    """A worker alone: it owns every table and has nobody to tell."""

    worker = "local"
    shared = False  # whether other workers serve the same tables

    def owns(self, table_id: str) -> bool:
        return True

    def adopt(self, table_id: str) -> None:
        """A table made here: this worker wants to own it."""

    def publish(self, news: dict[str, Any]) -> None:
        """Tell the other workers (`news` is JSON: 'k' says what, 't' the table)."""

    async def start(self, member: Member) -> None:
        """Begin serving `member` (needs the running event loop)."""

    async def close(self) -> None:
        """Stop, letting this worker's leases go."""


class RedisSite(Site):
    """The workers of a site joined through Redis at `url`; `prefix` keeps the keys and the
    channel of one site apart from another's on the same Redis."""

    shared = True

    def __init__(
        self, url: str, prefix: str, worker: str | None = None, lease: float = LEASE
    ) -> None:
        from redis.asyncio import Redis

        self.url = url
        self.prefix = prefix
        self.worker = worker or worker_name()
        self.lease = lease
        self.round = min(ROUND, lease / 4)
        self.redis = Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self.owned: set[str] = set()
        self.connected = False  # whether news is being received
        self._held_until: dict[str, float] = {}  # table -> when its lease may run out
        self._outbox: asyncio.Queue[str] = asyncio.Queue()
        self._orphans: set[str] = set()  # unowned in the last round
        self._member: Member | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._adopting: set[asyncio.Task[None]] = set()

    @property
    def channel(self) -> str:
        return self.prefix + "news"

    def _lease_key(self, table_id: str) -> str:
        return f"{self.prefix}lease:{table_id}"

    # --- what the lobby asks --------------------------------------------------------------
    def owns(self, table_id: str) -> bool:
        """Ours, and claimed or renewed recently enough that it cannot have run out."""
        return time.monotonic() < self._held_until.get(table_id, -math.inf)

    def adopt(self, table_id: str) -> None:
        task = asyncio.get_running_loop().create_task(self._claim_new(table_id))
        self._adopting.add(task)
        task.add_done_callback(self._adopting.discard)

    def publish(self, news: dict[str, Any]) -> None:
        self._outbox.put_nowait(json.dumps({**news, "w": self.worker}, separators=(",", ":")))

    async def start(self, member: Member) -> None:
        """Check that Redis answers (a worker does not start without its site), then run."""
        self._member = member
        await self.redis.ping()
        loop = asyncio.get_running_loop()
        for job in (self._keep_leases, self._listen, self._send):
            self._tasks.append(loop.create_task(self._forever(job)))

    async def close(self) -> None:
        await _cancel_all({*self._tasks, *self._adopting})
        with contextlib.suppress(Exception):
            pipe = self.redis.pipeline(transaction=False)
            for table_id in self.owned:
                pipe.eval(_RELEASE, 1, self._lease_key(table_id), self.worker)
            await pipe.execute()
        self.owned.clear()
        await self.redis.aclose()

    # --- leases ---------------------------------------------------------------------------
    async def _claim_new(self, table_id: str) -> None:
        if await self._claim(table_id):
            await self._gained(table_id)

    async def _claim(self, table_id: str) -> bool:
        ms, asked = int(self.lease * 1000), time.monotonic()
        won = await self.redis.set(self._lease_key(table_id), self.worker, nx=True, px=ms)
        if won:
            self.owned.add(table_id)
            self._held_until[table_id] = asked + self.lease
        return bool(won)

    async def _gained(self, table_id: str) -> None:
        assert self._member is not None
        log.info("worker %s runs the timers of table %s now", self.worker, table_id)
        await self._member.gained(table_id)

    async def _keep_leases(self) -> None:
        """Every round: say this worker is alive, renew its leases, claim orphaned tables,
        and have the timers of every table it holds running (one that a late round let
        lapse for a moment is started again)."""
        assert self._member is not None
        while True:
            _stop_if_cancelled()
            try:
                await self._renew()
                await self._claim_orphans()
            except Exception as error:
                _stop_if_cancelled()
                self._renew_failed(error)
            self._member.tend(sorted(self.owned))
            await asyncio.sleep(self.round)

    async def _renew(self) -> None:
        """Renew the leases of the tables still wanted; let go of the others (finished,
        closed, or gone from memory)."""
        assert self._member is not None
        ms, asked = int(self.lease * 1000), time.monotonic()
        done = self.owned - set(self._member.wanted())
        owned = sorted(self.owned - done)
        pipe = self.redis.pipeline(transaction=False)
        for table_id in done:
            pipe.eval(_RELEASE, 1, self._lease_key(table_id), self.worker)
            self.owned.discard(table_id)
            self._held_until.pop(table_id, None)
        pipe.zadd(self.prefix + "workers", {self.worker: time.time()})
        pipe.zremrangebyscore(self.prefix + "workers", "-inf", time.time() - self.lease)
        pipe.expire(self.prefix + "workers", int(10 * self.lease))  # gone with the site
        for table_id in owned:
            pipe.eval(_RENEW, 1, self._lease_key(table_id), self.worker, ms)
        kept = (await pipe.execute())[len(done) + 3 :]
        for table_id, renewed in zip(owned, kept, strict=True):
            if renewed:
                self._held_until[table_id] = asked + self.lease
            else:
                self._lose(table_id)

    def _renew_failed(self, error: Exception) -> None:
        """Redis did not answer: the leases stay ours until they may have run out."""
        lapsed = [t for t in self.owned if not self.owns(t)]
        if lapsed:
            log.warning(
                "worker %s cannot renew its leases (%s); it stops the timers of %d tables",
                self.worker,
                error,
                len(lapsed),
            )
            for table_id in lapsed:
                self._lose(table_id)

    def _lose(self, table_id: str) -> None:
        self.owned.discard(table_id)
        self._held_until.pop(table_id, None)
        if self._member is not None:
            self._member.lost(table_id)

    async def _claim_orphans(self) -> None:
        """Claim the wanted tables that nobody owns, up to this worker's fair share; a table
        still orphaned a round later is claimed whatever the share."""
        assert self._member is not None
        everything = self._member.wanted()
        wanted = [t for t in everything if t not in self.owned]
        if not wanted:
            self._orphans = set()
            return
        owners = await self.redis.mget([self._lease_key(t) for t in wanted])
        orphans = [t for t, owner in zip(wanted, owners, strict=True) if owner is None]
        workers = max(1, await self.redis.zcard(self.prefix + "workers"))
        share = math.ceil(len(everything) / workers)
        for table_id in orphans:
            overdue = table_id in self._orphans
            if (len(self.owned) < share or overdue) and await self._claim(table_id):
                await self._gained(table_id)
        self._orphans = {t for t in orphans if t not in self.owned}

    # --- news -----------------------------------------------------------------------------
    async def _send(self) -> None:
        """Publish queued news, each message tried again on a fresh connection (one dropped
        by the broker fails once); what still cannot be sent is dropped (the others sweep)."""
        while True:
            _stop_if_cancelled()
            message = await self._outbox.get()
            for attempt in range(SEND_TRIES):
                try:
                    await self.redis.publish(self.channel, message)
                    break
                except Exception as error:
                    _stop_if_cancelled()
                    log.debug("news not sent (%s), attempt %d", error, attempt + 1)
                    if attempt + 1 < SEND_TRIES:
                        await asyncio.sleep(SEND_PAUSE * (attempt + 1))

    async def _listen(self) -> None:
        """Read the news; while Redis cannot be reached, sweep the database instead."""
        assert self._member is not None
        delay, sweeper = 0.25, None
        try:
            while True:
                _stop_if_cancelled()
                if sweeper is None:
                    sweeper = asyncio.get_running_loop().create_task(self._sweep_while_away())
                try:
                    async with self.redis.pubsub(ignore_subscribe_messages=True) as pubsub:
                        await pubsub.subscribe(self.channel)
                        sweeper.cancel()
                        sweeper, self.connected, delay = None, True, 0.25
                        await self._member.sweep()  # what was missed while away
                        await self._read(pubsub)
                except Exception as error:
                    _stop_if_cancelled()
                    if self.connected:
                        log.warning("worker %s lost the broker (%s)", self.worker, error)
                finally:
                    self.connected = False
                await asyncio.sleep(delay)
                delay = min(2 * delay, RECONNECT_MOST)
        finally:
            if sweeper is not None:
                sweeper.cancel()

    async def _read(self, pubsub: Any) -> None:
        assert self._member is not None
        async for message in pubsub.listen():
            if message.get("type") != "message":
                continue
            news = json.loads(message["data"])
            if news.get("w") == self.worker:
                continue
            try:
                await self._member.heard(news)
            except Exception:  # a database error, say: the next sweep heals it
                _stop_if_cancelled()
                log.exception("news of table %s could not be taken in", news.get("t"))

    async def _sweep_while_away(self) -> None:
        assert self._member is not None
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                await self._member.sweep()
            except Exception as error:
                _stop_if_cancelled()
                log.warning("worker %s could not look for changes (%s)", self.worker, error)

    @staticmethod
    async def _forever(job: Callable[[], Awaitable[None]]) -> None:
        """Run a site job; a bug in it is logged and the job starts again."""
        while True:
            try:
                await job()
            except asyncio.CancelledError:
                raise
            except Exception:
                _stop_if_cancelled()
                log.exception("a site job failed; it starts again")
                await asyncio.sleep(1.0)


async def _cancel_all(tasks: set[asyncio.Task[None]]) -> None:
    """Cancel `tasks` and wait until they have ended. A task that goes on after a
    cancellation (one that redis-py turned into an error of its own while the task was not
    asking `_stop_if_cancelled`) is cancelled again every `CANCEL_AGAIN` seconds."""
    while tasks:
        for task in tasks:
            task.cancel()
        ended, tasks = await asyncio.wait(tasks, timeout=CANCEL_AGAIN)
        for task in ended:  # what a job raised on its way out is of no interest now
            if not task.cancelled():
                task.exception()


def _stop_if_cancelled() -> None:
    """redis-py may turn a cancellation into an error of its own: a job being stopped stops."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        raise asyncio.CancelledError
