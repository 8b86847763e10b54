"""A rated game played through two real workers of one site (two `serve` processes on the
shared PostgreSQL and Redis): Ada's seat through one, Bea's through the other. Its end is
counted once: each player's rating shows one rated game, and the table is marked counted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from websockets.sync.client import ClientConnection, connect

from spieltisch.server.schema import RATINGS, TABLES
from spieltisch.server.store import Store
from tests.server.live import LiveServer
from tests.server.sites import shared_db
from tests.server.test_workers import socket_url, workers

pytestmark = [pytest.mark.slow, pytest.mark.workers]

PASSWORD = "seven little worms"
MOST_MOVES = 3000  # liveness only: a game of Pickomino between two people is far shorter


def signed_up(server: LiveServer, name: str) -> httpx.Client:
    """A client of `server` with the session of a new account, sending the site's Origin."""
    client = httpx.Client(base_url=server.url, headers={"origin": server.url.rstrip("/")})
    answer = client.post("api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return client


def next_state(socket: ClientConnection) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(socket.recv(timeout=30))
        if message.get("type") == "state":
            return message


def play_both(sockets: list[ClientConnection]) -> dict[str, Any]:
    """Each seat plays its first legal action on its own socket until the game is over."""
    states = [next_state(s) for s in sockets]
    for _ in range(MOST_MOVES):
        newest = max(states, key=lambda s: s["version"])
        if newest["result"] is not None:
            return newest
        mover = newest["to_move"]
        if mover is None:  # dice or a bot: wait for what comes next
            states[0] = next_state(sockets[0])
            continue
        while states[mover]["version"] < newest["version"]:
            states[mover] = next_state(sockets[mover])
        state = states[mover]
        action = state["view"]["legal_actions"][0]
        sockets[mover].send(
            json.dumps({"type": "action", "action": action, "version": state["version"]})
        )
        states[mover] = next_state(sockets[mover])
    raise AssertionError("the game did not end")


def test_a_rated_game_through_two_workers_counts_once(tmp_path: Path) -> None:
    url = shared_db(tmp_path)
    with workers(tmp_path / "a", url) as a, workers(tmp_path / "b", url) as b:
        ada, bea = signed_up(a, "Ada"), signed_up(b, "Bea")
        body = {"game": "pickomino", "seats": [{"bot": None}, {"bot": None}], "rated": True}
        made = ada.post("api/tables", json=body)
        assert made.status_code == 201, made.text
        table_id = made.json()["id"]
        tokens = [
            client.post(f"api/tables/{table_id}/join", json={"name": "x", "seat": seat}).json()
            for seat, client in enumerate((ada, bea))
        ]
        urls = [
            socket_url(a, table_id, tokens[0]["token"]),
            socket_url(b, table_id, tokens[1]["token"]),
        ]
        with connect(urls[0]) as first, connect(urls[1]) as second:
            final = play_both([first, second])
        assert final["result"]["replaced_by_bot"] == []
        profiles = [c.get(f"api/players/{n}").json() for c, n in ((bea, "Ada"), (ada, "Bea"))]
        assert [p["ratings"][0]["games"] for p in profiles] == [1, 1]
        ada.close()
        bea.close()
    store = Store(url)
    try:
        with store.engine.connect() as db:
            games = db.execute(select(RATINGS.c.games)).scalars().all()
            counted = db.execute(select(TABLES.c.rated_counted).where(TABLES.c.id == table_id))
            assert sorted(games) == [1, 1] and counted.scalar_one() is not None
    finally:
        store.close()
