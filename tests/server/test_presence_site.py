"""Who is here across two workers of a site joined through the real Redis: a seat connected
through one worker is "here" on the other, "away" there after the grace time once its socket
closed, and "away" too when the worker that held it dies without a word. Both workers go by
one `ManualClock`."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from spieltisch.server.clock import ManualClock
from spieltisch.server.connection import Connection
from spieltisch.server.lobby import Lobby, SeatSpec
from spieltisch.server.presence import AWAY_AFTER, HEARD_FOR, ROUND_EVERY
from spieltisch.server.site import RedisSite
from spieltisch.server.store import Store
from tests.server.database import db_url
from tests.server.helpers import threads
from tests.server.sites import need_redis, site_prefix
from tests.server.test_clock import settle
from tests.server.test_presence import pushed
from tests.support.waits import until

pytestmark = pytest.mark.workers


def worker(url: str, prefix: str, name: str, clock: ManualClock) -> Lobby:
    site = RedisSite(need_redis(), prefix, name)
    return Lobby(Store(url), 0.0, clock=clock, executor=threads(), site=site)


async def start(lobby: Lobby) -> None:
    lobby.load()
    await lobby.site.start(lobby)
    lobby.resume()


async def stop(lobby: Lobby) -> None:
    for connection in [c for group in lobby.connections.values() for c in group]:
        lobby.disconnect(connection)
    await lobby.site.close()
    await lobby.close()
    lobby.store.close()


def watch(lobby: Lobby, table_id: str, seat: int | None) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []

    async def send(text: str) -> None:
        seen.append(json.loads(text))

    lobby.connect(Connection(table_id, seat, send))
    return seen


async def _ignore(_text: str) -> None:
    return None


async def passes(clock: ManualClock, seconds: float) -> None:
    while seconds > 0:
        clock.advance(min(seconds, ROUND_EVERY))
        await settle()
        await asyncio.sleep(0.05)  # news between the workers travels through Redis
        seconds -= ROUND_EVERY


def test_presence_is_seen_across_the_workers_of_a_site(tmp_path: Path) -> None:
    async def main() -> None:
        clock, url, prefix = ManualClock(), db_url(tmp_path, "site"), site_prefix()
        a, b = worker(url, prefix, "A", clock), worker(url, prefix, "B", clock)
        await start(a)
        await start(b)
        try:
            table = await a.create("pickomino", {}, [SeatSpec(), SeatSpec()], seed=3)
            await a.join(table.id, 0, "Ada")
            await a.join(table.id, 1, "Bea")
            await until(lambda: table.id in b.tables and b.tables[table.id].started)
            bea = watch(b, table.id, 1)
            ada = Connection(table.id, 0, _ignore)
            a.connect(ada)
            await until(lambda: pushed(bea) == ["here", "here"], "B hears that Ada is here")
            a.disconnect(ada)
            await passes(clock, AWAY_AFTER + ROUND_EVERY)
            await until(lambda: pushed(bea) == ["away", "here"], "B shows Ada away")

            a.connect(Connection(table.id, 0, _ignore))
            await until(lambda: pushed(bea) == ["here", "here"], "B hears Ada is back")
            await _die(a)  # no word that Ada left: B stops counting A's word after a while
            await passes(clock, HEARD_FOR + AWAY_AFTER + 2 * ROUND_EVERY)
            await until(lambda: pushed(bea) == ["away", "here"], "B shows Ada away again")
        finally:
            await stop(b)

    asyncio.run(main())


async def _die(lobby: Lobby) -> None:
    """Stop the worker's site without telling anybody, as a killed process would."""
    site = lobby.site
    assert isinstance(site, RedisSite)
    site.owned.clear()
    for task in site._tasks:
        task.cancel()
    await site.redis.aclose()
    lobby.store.close()
