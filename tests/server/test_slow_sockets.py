"""A socket that never takes its messages holds up nobody: pushes do not wait for it, the
other connections get every message, and once it is too far behind it is closed."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from spieltisch.server.clock import ManualClock
from spieltisch.server.connection import Connection
from spieltisch.server.lobby import Lobby, SeatSpec
from spieltisch.server.store import Store
from tests.server.database import db_url
from tests.server.helpers import threads

LIVENESS = 60.0  # seconds: only a push that waits for the stuck socket takes this long
BEHIND = 4


async def settle() -> None:
    for _ in range(50):
        await asyncio.sleep(0)


async def never_sends(_text: str) -> None:
    await asyncio.Event().wait()  # a client that never reads: the send never completes


def test_a_stuck_socket_is_closed_and_holds_up_nobody(tmp_path: Path) -> None:
    received: list[str] = []
    closed: list[bool] = []

    async def receive(text: str) -> None:
        received.append(text)

    async def close() -> None:
        closed.append(True)

    async def main() -> tuple[bool, bool, int]:
        store = Store(db_url(tmp_path, "s"))
        lobby = Lobby(store, 0.0, ManualClock(), executor=threads())
        table = await lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()], seed=4)
        stuck = Connection(table.id, None, never_sends, close=close, limit=BEHIND)
        reader = Connection(table.id, None, receive, limit=BEHIND)
        lobby.connect(stuck)
        lobby.connect(reader)
        for name in ["Ada", "Bea", *[f"x{n}" for n in range(BEHIND + 2)]]:
            if name in ("Ada", "Bea"):
                await asyncio.wait_for(lobby.join(table.id, None, name), LIVENESS)
            else:
                await asyncio.wait_for(lobby.push(table), LIVENESS)
            await settle()
        dropped = stuck not in lobby.connections[table.id]
        kept = reader in lobby.connections[table.id]
        await lobby.close()
        store.close()
        return dropped, kept, table.version

    dropped, kept, version = asyncio.run(main())
    assert dropped and closed == [True]
    assert kept and len(received) == BEHIND + 4  # two joins and every push
    assert json.loads(received[-1])["version"] == version


def test_a_connection_sends_its_messages_in_order() -> None:
    async def main() -> list[str]:
        sent: list[str] = []

        async def send(text: str) -> None:
            sent.append(text)

        connection = Connection("t", None, send, limit=3)
        connection.start()
        assert all(connection.offer(text) for text in "abc")
        await settle()
        connection.stop()
        assert not connection.offer("d")  # a stopped connection takes nothing more
        return sent

    assert asyncio.run(main()) == ["a", "b", "c"]
