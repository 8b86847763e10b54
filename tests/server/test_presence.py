"""Who is here: each person's seat is "here" while its socket is open and for a grace time
after, then "away", then "gone"; the last-seen time is stored and survives a restart; the
views (REST and socket) carry both, and a change of presence is pushed. Time runs on a
`ManualClock`, moved by the test."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from spieltisch.server import presence as presence_module
from spieltisch.server.app import create_app
from spieltisch.server.clock import ManualClock
from spieltisch.server.connection import Connection
from spieltisch.server.lobby import Lobby, SeatSpec
from spieltisch.server.presence import (
    AWAY_AFTER,
    GONE_AFTER,
    ROUND_EVERY,
    SEEN_EVERY,
    read_last_seen,
    write_last_seen,
)
from spieltisch.server.store import Store
from tests.server.database import db_url
from tests.server.helpers import client_for, join, make_table, threads
from tests.server.test_clock import settle
from tests.support.waits import until

PEOPLE = [SeatSpec(), SeatSpec()]


def new_lobby(path: Path, clock: ManualClock) -> Lobby:
    lobby = Lobby(Store(db_url(path)), 0.0, clock=clock, executor=threads())
    lobby.load()
    return lobby


def watch(lobby: Lobby, table_id: str, seat: int | None) -> list[dict[str, Any]]:
    """A socket at the table: the messages it gets, as they come."""
    seen: list[dict[str, Any]] = []

    async def send(text: str) -> None:
        seen.append(json.loads(text))

    lobby.connect(Connection(table_id, seat, send))
    return seen


def presences(lobby: Lobby, table_id: str) -> list[Any]:
    return [mark["presence"] for mark in lobby.presence.marks(lobby.tables[table_id])]


def pushed(messages: list[dict[str, Any]]) -> list[Any]:
    """The presences the latest state or presence message says."""
    for message in reversed(messages):
        if message["type"] == "presence":
            return [seat["presence"] for seat in message["seats"]]
        if message["type"] == "state":
            return [seat["presence"] for seat in message["table"]["seats"]]
    return []


async def seated_table(lobby: Lobby) -> str:
    table = await lobby.create("pickomino", {}, PEOPLE, seed=3)
    await lobby.join(table.id, 0, "Ada")
    await lobby.join(table.id, 1, "Bea")
    return table.id


async def passes(clock: ManualClock, seconds: float) -> None:
    """Move the clock on in steps of the presence round, letting each round run."""
    while seconds > 0:
        step = min(seconds, ROUND_EVERY)
        clock.advance(step)
        await settle()
        seconds -= step


def test_a_seat_is_here_then_away_after_the_grace_time_then_gone(tmp_path: Path) -> None:
    async def main() -> None:
        clock = ManualClock()
        lobby = new_lobby(tmp_path, clock)
        lobby.resume()
        table_id = await seated_table(lobby)
        assert presences(lobby, table_id) == ["gone", "gone"]  # never seen yet
        watcher = watch(lobby, table_id, 1)
        ada = Connection(table_id, 0, _ignore)
        lobby.connect(ada)
        assert presences(lobby, table_id) == ["here", "here"]
        await until(lambda: pushed(watcher) == ["here", "here"], "Bea is told Ada is here")
        lobby.disconnect(ada)
        left = clock.now()
        await passes(clock, AWAY_AFTER - ROUND_EVERY)
        assert presences(lobby, table_id)[0] == "here"  # within the grace time
        await passes(clock, ROUND_EVERY)
        assert presences(lobby, table_id) == ["away", "here"]
        await until(lambda: pushed(watcher) == ["away", "here"], "Bea is told Ada is away")
        assert lobby.presence.mark(lobby.tables[table_id], 0)["last_seen"] == left
        await passes(clock, GONE_AFTER - AWAY_AFTER)
        await until(lambda: pushed(watcher) == ["gone", "here"], "Bea is told Ada is gone")
        await lobby.close()
        lobby.store.close()

    asyncio.run(main())


async def _ignore(_text: str) -> None:
    return None


def test_bots_and_open_seats_have_no_presence(tmp_path: Path) -> None:
    async def main() -> None:
        lobby = new_lobby(tmp_path, ManualClock())
        table = await lobby.create("pickomino", {}, [SeatSpec(), SeatSpec("greedy")], seed=3)
        assert presences(lobby, table.id) == [None, None]
        await lobby.join(table.id, 0, "Ada")
        assert presences(lobby, table.id) == ["gone", None]
        await lobby.close()
        lobby.store.close()

    asyncio.run(main())


def test_the_last_seen_time_is_stored_and_survives_a_restart(tmp_path: Path) -> None:
    async def main() -> tuple[float, float]:
        clock = ManualClock()
        lobby = new_lobby(tmp_path, clock)
        lobby.resume()
        table_id = await seated_table(lobby)
        ada = Connection(table_id, 0, _ignore)
        lobby.connect(ada)
        await passes(clock, 30)
        lobby.disconnect(ada)
        left = clock.now()
        await until(lambda: _stored(lobby, table_id, 0) == left, "stored when she left")
        bea = Connection(table_id, 1, _ignore)
        lobby.connect(bea)
        assert _stored(lobby, table_id, 1) is None  # not at once: a round stores it
        await passes(clock, SEEN_EVERY + ROUND_EVERY)  # Bea's time is stored while she stays
        await until(lambda: _stored(lobby, table_id, 1) is not None, "Bea's time is stored")
        await lobby.close()
        lobby.store.close()

        again = new_lobby(tmp_path, clock)
        mark = again.presence.mark(again.tables[table_id], 0)
        again.store.close()
        assert mark["presence"] == "away"
        assert isinstance(mark["last_seen"], float)
        return left, mark["last_seen"]

    left, after_restart = asyncio.run(main())
    assert after_restart == left


def _stored(lobby: Lobby, table_id: str, seat: int) -> float | None:
    token_hash = lobby.tables[table_id].seats[seat].token_hash
    return read_last_seen(lobby.store, [table_id]).get((table_id, seat, token_hash))


def test_the_views_carry_presence_and_last_seen(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        table = make_table(client, [None, None], clock=None)
        ada = join(client, table["id"], "Ada")
        join(client, table["id"], "Bea")
        address = f"/api/tables/{table['id']}/ws"
        with client.websocket_connect(address, subprotocols=["spieltisch", f"token.{ada}"]) as ws:
            state = ws.receive_json()
            assert [s["presence"] for s in state["table"]["seats"]] == ["here", "gone"]
            viewed = client.get(f"/api/tables/{table['id']}").json()
            assert [s["presence"] for s in viewed["seats"]] == ["here", "gone"]
            assert isinstance(viewed["seats"][0]["last_seen"], float)
            assert viewed["seats"][1]["last_seen"] is None
            listed = client.get("/api/tables").json()[0]
            assert [s["presence"] for s in listed["seats"]] == ["here", "gone"]


def test_a_seat_left_before_the_start_is_not_here_for_the_next_person(tmp_path: Path) -> None:
    async def main() -> list[Any]:
        lobby = new_lobby(tmp_path, ManualClock())
        table = await lobby.create("pickomino", {}, PEOPLE, seed=3)
        _, token = await lobby.join(table.id, 0, "Ada")
        lobby.connect(Connection(table.id, 0, _ignore))  # her page stays open a moment
        await lobby.leave(table.id, token, None)
        await lobby.join(table.id, 0, "Cem")
        found = presences(lobby, table.id)
        await lobby.close()
        lobby.store.close()
        return found

    assert asyncio.run(main()) == ["gone", None]  # Cem has not come yet; seat 2 is open


def test_messages_write_no_last_seen_time_and_a_closing_socket_writes_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    writes: list[dict[Any, float]] = []

    def counted(store: Store, batch: dict[Any, float]) -> None:
        writes.append(dict(batch))
        write_last_seen(store, batch)

    monkeypatch.setattr(presence_module, "write_last_seen", counted)
    app = create_app(db_url(tmp_path), clock=ManualClock(), executor=threads())  # no rounds
    with TestClient(app) as client:
        table = make_table(client, [None, None], clock=None)
        ada = join(client, table["id"], "Ada")
        address = f"/api/tables/{table['id']}/ws"
        with client.websocket_connect(address, subprotocols=["spieltisch", f"token.{ada}"]) as ws:
            ws.receive_json()
            for n in range(10):
                ws.send_json({"type": "sync"} if n % 2 else {"type": "chat", "text": f"hi {n}"})
                ws.receive_json()
            assert writes == []
        deadline = time.monotonic() + 30  # liveness only
        while not writes:
            assert time.monotonic() < deadline, "the closing socket's time was not stored"
            time.sleep(0.01)
    assert len(writes) == 1 and len(writes[0]) == 1
