"""Helpers for the server tests: an app on a temporary SQLite file and a seated person.

Bots and physics run in a thread pool here (quick to start); the real servers of `live` use
worker processes.
"""

from __future__ import annotations

import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

with warnings.catch_warnings():  # Starlette suggests another HTTP client for its test client
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
    from starlette.testclient import WebSocketDenialResponse, WebSocketTestSession

from spieltisch.server import create_app
from tests.server.database import db_url

__all__ = [
    "TestClient",
    "WebSocketDenialResponse",
    "client_for",
    "finished_table",
    "join",
    "make_table",
    "play_until",
    "receive_state",
    "threads",
]


def threads() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(2)


def client_for(path: Path, bot_delay: float = 0.0) -> TestClient:
    path.mkdir(parents=True, exist_ok=True)
    url = db_url(path)
    return TestClient(create_app(url, bot_delay=bot_delay, executor=threads()))


def make_table(client: TestClient, seats: list[str | None], **extra: Any) -> dict[str, Any]:
    """A table made through the API; without a turn clock unless `extra` names one (left
    out, two or more people would get the game's clock)."""
    body = {"game": "pickomino", "seats": [{"bot": s} for s in seats], "seed": 7, "clock": None}
    body.update(extra)
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def join(client: TestClient, table_id: str, name: str, seat: int | None = None) -> str:
    response = client.post(f"/api/tables/{table_id}/join", json={"name": name, "seat": seat})
    assert response.status_code == 200, response.text
    return str(response.json()["token"])


def receive_state(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next state message (errors are returned too, for the caller to check)."""
    return dict(ws.receive_json())


def play_until(ws: WebSocketTestSession, state: dict[str, Any], done: Any) -> dict[str, Any]:
    """Play the first legal action whenever it is our turn until `done(state)`."""
    while not done(state):
        if state["to_move"] == state["you"] and state["view"]["legal_actions"]:
            action = state["view"]["legal_actions"][0]
            ws.send_json({"type": "action", "action": action, "version": state["version"]})
        state = receive_state(ws)
        assert state["type"] == "state", state
    return state


def finished_table(
    client: TestClient,
    game: str = "pickomino",
    bots: tuple[str, str] = ("greedy", "greedy"),
    within: float = 60,
) -> str:
    """A seeded game of two bots (greedy ones unless told) played to its end."""
    table_id = str(make_table(client, list(bots), game=game)["id"])
    deadline = time.monotonic() + within
    while client.get(f"/api/tables/{table_id}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.05)
    return table_id
