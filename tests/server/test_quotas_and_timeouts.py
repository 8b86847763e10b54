"""Nobody can fill the server: tables per address and in all are limited, idle tables are
closed, a request that arrives too slowly is cut off, and bot specs fit their column."""

from __future__ import annotations

import asyncio
import socket
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from spieltisch.server import create_app
from spieltisch.server.clock import ManualClock
from spieltisch.server.limits import Limits, TableQuota
from spieltisch.server.lobby import Lobby, SeatSpec
from spieltisch.server.store import MAX_BOT_SPEC, Store
from spieltisch.server.table import TableError
from tests.server.database import db_url
from tests.server.helpers import TestClient, join, threads
from tests.server.live import start_server

TWO_PEOPLE = {"game": "pickomino", "seats": [{"bot": None}, {"bot": None}]}


def app_client(tmp_path: Path, limits: Limits, clock: ManualClock | None = None) -> TestClient:
    url = db_url(tmp_path, "t")
    app = create_app(url, 0.0, clock=clock, executor=threads(), limits=limits)
    return TestClient(app)


def test_one_address_may_make_only_so_many_tables_a_minute(tmp_path: Path) -> None:
    clock = ManualClock()
    with app_client(tmp_path, Limits(tables_per_minute=3), clock) as client:
        for _ in range(3):
            assert client.post("/api/tables", json=TWO_PEOPLE).status_code == 201
        refused = client.post("/api/tables", json=TWO_PEOPLE)
        assert refused.status_code == 429
        assert refused.json()["error"] == "too_many_tables"
        assert "try again in 60 s" in refused.json()["message"]
        assert len(client.get("/api/tables").json()) == 3  # the refusal made nothing
        clock.advance(60)
        assert client.post("/api/tables", json=TWO_PEOPLE).status_code == 201


def test_the_quota_counts_each_address_by_itself() -> None:
    quota = TableQuota(per_minute=1, open_tables=10)
    quota.admit("10.0.0.1", 0.0, 0)
    quota.admit("10.0.0.2", 0.0, 1)
    with pytest.raises(TableError, match="new tables a minute"):
        quota.admit("10.0.0.1", 59.0, 2)
    quota.admit("10.0.0.1", 60.0, 2)


def test_no_more_games_in_play_than_the_server_holds(tmp_path: Path) -> None:
    with app_client(tmp_path, Limits(tables_per_minute=0, open_tables=2)) as client:
        for _ in range(2):
            made = client.post("/api/tables", json=TWO_PEOPLE)
            assert made.status_code == 201
            join(client, made.json()["id"], "Ada")
        full = client.post("/api/tables", json=TWO_PEOPLE)
        assert full.status_code == 503 and full.json()["error"] == "server_full"
        bots = {"game": "pickomino", "seats": [{"bot": "greedy"}, {"bot": "greedy"}]}
        assert client.post("/api/tables", json=bots).status_code == 503


def test_a_bot_spec_longer_than_its_column_is_a_clear_400(tmp_path: Path) -> None:
    with app_client(tmp_path, Limits()) as client:
        spec = "greedy" + " " * MAX_BOT_SPEC
        body = {"game": "pickomino", "seats": [{"bot": spec}, {"bot": None}]}
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 400 and refused.json()["error"] == "bad_bot"
        table = client.post("/api/tables", json=TWO_PEOPLE).json()
        token = join(client, table["id"], "Ada")
        join(client, table["id"], "Bo")
        leave = client.post(
            f"/api/tables/{table['id']}/leave", json={"token": token, "bot": "x" * 200}
        )
        assert leave.status_code == 400 and leave.json()["error"] == "bad_bot"
        assert client.get(f"/api/tables/{table['id']}").json()["seats"][0]["name"] == "Ada"


# --- idle tables ------------------------------------------------------------------------------


def test_an_idle_table_is_closed_and_a_finished_one_kept(tmp_path: Path) -> None:
    clock = ManualClock()
    url = db_url(tmp_path, "t")

    async def scenario() -> None:
        lobby = Lobby(Store(url), 0.0, clock, executor=threads(), idle_close=3600.0)
        idle = await lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()])
        busy = await lobby.create("pickomino", {}, [SeatSpec(), SeatSpec()])
        finished = await lobby.create("pickomino", {}, [SeatSpec("greedy"), SeatSpec("greedy")])
        while not finished.over:
            await lobby.scheduler.bot_turn(finished.id)
        clock.advance(3000)
        await lobby.join(busy.id, None, "Ada")  # a change: the clock starts again
        clock.advance(600)
        assert {t.id for t in lobby.open_tables()} == {busy.id}
        assert lobby.tables[finished.id].over  # kept for its replay
        with pytest.raises(TableError) as closed:
            lobby.get(idle.id)
        assert closed.value.code == "table_closed"
        await lobby.writer.finish()  # the closing is stored in the background
        entries = lobby.store.entries(idle.id)
        assert entries[-1].key == "closed" and entries[-1].args == {"idle_seconds": 3600}
        await lobby.close()
        again = Lobby(Store(url), 0.0, clock, executor=threads())
        again.load()
        assert idle.id not in again.tables and idle.id in again.closed
        assert {busy.id, finished.id} <= set(again.tables)
        await again.close()

    asyncio.run(scenario())


def test_a_spectator_of_a_table_being_closed_is_told(tmp_path: Path) -> None:
    clock = ManualClock()
    with app_client(tmp_path, Limits(), clock) as client:
        table = client.post("/api/tables", json=TWO_PEOPLE).json()
        with client.websocket_connect(f"/api/tables/{table['id']}/ws") as ws:
            assert ws.receive_json()["type"] == "state"
            clock.advance(25 * 3600)
            assert client.get("/api/tables").json() == []
            told = ws.receive_json()
        assert told["code"] == "table_closed"
        gone = client.get(f"/api/tables/{table['id']}")
        assert gone.status_code == 410 and gone.json()["error"] == "table_closed"


# --- requests that arrive too slowly (a real server) ------------------------------------------


def read_until_closed(sock: socket.socket, within: float) -> bytes:
    """What the server sends until it closes the socket; fails if it stays open `within` s."""
    sock.settimeout(within)
    got = b""
    while chunk := sock.recv(4096):
        got += chunk
    return got


@pytest.mark.slow
def test_a_request_that_never_finishes_is_cut_off_and_others_are_served(tmp_path: Path) -> None:
    with start_server(tmp_path, extra=["--request-timeout", "1"]) as live:
        port = int(live.url.rsplit(":", 1)[1].strip("/"))
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(50)]
        for number, sock in enumerate(held):  # half a head each, or nothing at all
            if number % 2:
                sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        started = time.monotonic()
        assert httpx.get(f"{live.url}api/games", timeout=30).status_code == 200
        for sock in held:
            assert read_until_closed(sock, within=30) == b""  # closed without an answer
            sock.close()
        assert time.monotonic() - started < 30


@pytest.mark.slow
def test_a_body_that_trickles_in_is_cut_off(tmp_path: Path) -> None:
    with start_server(tmp_path, extra=["--request-timeout", "1"]) as live:
        port = int(live.url.rsplit(":", 1)[1].strip("/"))
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(
                b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 500\r\n\r\n{"
            )
            assert b"201" not in read_until_closed(sock, within=30)
        assert httpx.get(f"{live.url}api/tables", timeout=30).json() == []


@pytest.mark.slow
def test_a_websocket_outlives_the_request_timeout(tmp_path: Path) -> None:
    with start_server(tmp_path, extra=["--request-timeout", "0.5"]) as live:
        table = httpx.post(f"{live.url}api/tables", json=TWO_PEOPLE, timeout=30).json()
        address = live.url.replace("http", "ws") + f"api/tables/{table['id']}/ws"
        with connect(address, open_timeout=30) as ws:
            ws.recv(timeout=30)
            time.sleep(1.5)  # three request timeouts: the socket must still be open
            ws.send('{"type": "sync"}')
            assert '"type":"state"' in str(ws.recv(timeout=30))


def test_memory_keeps_only_the_latest_finished_games(tmp_path: Path) -> None:
    async def scenario() -> None:
        lobby = Lobby(Store(db_url(tmp_path, "kept")), 0.0, ManualClock(), executor=threads())
        lobby.finished_kept = 2
        made = []
        for seed in range(4):
            bots = [SeatSpec("greedy"), SeatSpec("greedy")]
            table = await lobby.create("pickomino", {}, bots, seed=seed)
            while table.id not in lobby.finished_in_memory:  # over, stored and counted
                await asyncio.sleep(0.01)
            made.append(table)
        assert set(lobby.tables) == {made[2].id, made[3].id}
        assert {t.id for t in lobby.finished_tables(20)} == {made[2].id, made[3].id}
        again = await lobby.find(made[0].id)  # read from the database when asked for
        assert again.over and again.record().actions == made[0].record().actions
        assert made[2].id not in lobby.tables  # and the oldest in memory made room
        await lobby.close()

    asyncio.run(scenario())
