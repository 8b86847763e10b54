"""Two people at a live server's table, over HTTP and their sockets, for the tests of what
the server does when its storage fails: seat them, read their states, make a move once the
table is back, and let bots finish the game."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from spieltisch.server.store import Store

__all__ = ["TIMEOUT", "gapless", "move_and_leave", "socket", "state_of", "two_people"]

TIMEOUT = 60.0


def two_people(url: str) -> tuple[str, list[str]]:
    body = {"game": "pickomino", "seats": [{}, {}], "seed": 3, "clock": None}  # no clock
    table = httpx.post(url + "api/tables", json=body, timeout=TIMEOUT).json()
    tokens = []
    for name in ("Ada", "Bea"):
        joined = httpx.post(f"{url}api/tables/{table['id']}/join", json={"name": name})
        tokens.append(joined.json()["token"])
    return str(table["id"]), tokens


def socket(url: str, table_id: str, token: str | None = None) -> ClientConnection:
    address = url.replace("http", "ws", 1) + f"api/tables/{table_id}/ws"
    return connect(address + (f"?token={token}" if token else ""), open_timeout=TIMEOUT)


def state_of(ws: ClientConnection) -> dict[str, Any]:
    """The next state (other messages, such as a chat line, are passed over)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=TIMEOUT))
        if message["type"] in ("state", "error"):
            return message


def move_and_leave(url: str, table_id: str, tokens: list[str], mover: ClientConnection) -> None:
    """After the stall: the mover's next move is stored, then both people leave and bots play
    the game to its end."""
    deadline = time.monotonic() + TIMEOUT
    while True:  # a table that could not even be read is back by itself after a while
        mover.send(json.dumps({"type": "sync"}))
        state = state_of(mover)
        if state["type"] == "state":
            break
        assert state["code"] == "unavailable" and time.monotonic() < deadline, state
        time.sleep(0.2)
    move = {"type": "action", "version": state["version"]}
    mover.send(json.dumps({**move, "action": state["view"]["legal_actions"][0]}))
    after = state_of(mover)
    while after["type"] == "state" and after["version"] == state["version"]:
        after = state_of(mover)  # a push that was on its way already
    assert after["type"] == "state" and after["version"] > state["version"], after
    for token in tokens:
        left = httpx.post(f"{url}api/tables/{table_id}/leave", json={"token": token})
        assert left.status_code == 200, left.text
    deadline = time.monotonic() + TIMEOUT
    while httpx.get(f"{url}api/tables/{table_id}", timeout=TIMEOUT).json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)


def gapless(db: str, table_id: str) -> bool:
    """Whether the stored history of the table has every entry from the first on."""
    store = Store(db)
    try:
        seqs = [entry.seq for entry in store.entries(table_id)]
    finally:
        store.close()
    return seqs == list(range(len(seqs)))
