"""A real server on PostgreSQL whose connection to the database is cut in the middle of bot
games and of a person's moves: afterwards no table has a hole in its history, every game
finishes, every record replays, and the server starts again. The cut is a TCP proxy between
the server and PostgreSQL that drops every connection and refuses new ones."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from websockets.sync.client import ClientConnection, connect

from spieltisch.core.record import GameRecord, record_game, replay
from tests.server.database import db_url, on_sqlite
from tests.server.live import LiveServer, free_port, launch
from tests.server.proxy import CuttableProxy
from tests.support import waits

pytestmark = pytest.mark.skipif(
    on_sqlite(), reason="cuts a PostgreSQL connection: run with SPIELTISCH_TEST_DB (./test does)"
)

BOT_TABLES = 6
LIVENESS = 120.0  # seconds: only a stuck table takes this long
wait_for = partial(waits.wait_for, liveness=LIVENESS, pause=0.1)


def through(proxy: CuttableProxy, url: str) -> str:
    return make_url(url).set(host="127.0.0.1", port=proxy.port).render_as_string(False)


@contextlib.contextmanager
def server_on(data_dir: Path, url: str) -> Iterator[LiveServer]:
    live = launch(data_dir, free_port(), 0.05, ["--db", url])
    try:
        yield live
    finally:
        live.kill()


def state_of(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=LIVENESS))
        if message["type"] in ("state", "error"):
            return dict(message)


def play_some(ws: ClientConnection, moves: int) -> tuple[int, int]:
    """Make up to `moves` moves of this seat; returns (moves accepted, refusals)."""
    accepted = refused = 0
    ws.send('{"type": "sync"}')
    state = state_of(ws)
    for _ in range(moves):
        if state.get("result") is not None:
            break  # the game is over
        if state["type"] == "error":
            refused += 1
            time.sleep(0.2)
            ws.send('{"type": "sync"}')
        elif state["to_move"] == state["you"] and state["view"]["legal_actions"]:
            action = state["view"]["legal_actions"][0]
            ws.send(json.dumps({"type": "action", "action": action, "version": state["version"]}))
            accepted += 1
        state = state_of(ws)
    return accepted, refused


def stored_sequences(url: str) -> dict[str, list[int]]:
    engine = create_engine(url)
    with engine.connect() as db:
        rows = db.execute(text("SELECT table_id, seq FROM entries ORDER BY table_id, seq")).all()
    engine.dispose()
    found: dict[str, list[int]] = {}
    for table_id, seq in rows:
        found.setdefault(table_id, []).append(seq)
    return found


def test_cutting_the_database_leaves_no_hole_and_every_game_finishes(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    real = make_url(url)
    proxy = CuttableProxy((real.host or "127.0.0.1", real.port or 5432))
    with server_on(tmp_path, through(proxy, url)) as live:
        bots = {"game": "pickomino", "seats": [{"bot": "greedy"}, {"bot": "greedy"}]}
        ids = [httpx.post(f"{live.url}api/tables", json=bots).json()["id"] for _ in range(6)]
        person = httpx.post(
            f"{live.url}api/tables", json={"game": "pickomino", "seats": [{}, {"bot": "greedy"}]}
        ).json()["id"]
        token = httpx.post(f"{live.url}api/tables/{person}/join", json={"name": "Ada"}).json()
        address = live.url.replace("http", "ws") + f"api/tables/{person}/ws?token={token['token']}"
        with connect(address, open_timeout=30) as ws:
            play_some(ws, 4)
            proxy.cut()
            during = httpx.get(f"{live.url}api/tables/{ids[0]}", timeout=30)
            _, refused = play_some(ws, 4)
            time.sleep(2)  # bot moves fail meanwhile
            proxy.restore()
            assert refused > 0 or during.status_code == 503

        def finished() -> set[str]:
            return {t["id"] for t in httpx.get(f"{live.url}api/tables/finished").json()}

        wait_for(lambda: set(ids) <= finished(), "the bot games did not finish")
        with connect(address, open_timeout=30) as ws:
            while person not in finished():
                play_some(ws, 20)
        records = {t: httpx.get(f"{live.url}api/tables/{t}/record").json() for t in [*ids, person]}
    for table_id, data in records.items():  # every record replays, move by move, to its end
        record = GameRecord.from_json(data)
        assert record_game(record).is_over(replay(record)), f"{table_id} replays unfinished"
    for table_id, seqs in stored_sequences(url).items():
        assert seqs == list(range(len(seqs))), f"table {table_id} has a hole: {seqs}"
    with server_on(tmp_path, url) as again:  # and the server starts on what was stored
        for table_id in [*ids, person]:
            assert httpx.get(f"{again.url}api/tables/{table_id}").status_code == 200
