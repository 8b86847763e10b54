"""The default turn clock: a table made through the API with two or more people and no
`clock` gets the game's time per turn; an explicit null switches it off; a table with one
person gets none. When the time runs out the stand-in plays and the log says so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from spieltisch.server.app import create_app
from spieltisch.server.clock import ManualClock
from spieltisch.server.hooks import DEFAULT_TURN_CLOCK, default_turn_clock
from tests.server.database import db_url
from tests.server.helpers import client_for, join, threads


def made(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def test_two_people_get_the_games_turn_clock_unless_it_is_switched_off(tmp_path: Path) -> None:
    two: list[dict[str, Any]] = [{}, {}]
    with client_for(tmp_path) as client:
        assert made(client, {"game": "pickomino", "seats": two})["clock"] == 90
        assert made(client, {"game": "karolinchen", "seats": two})["clock"] == 60
        assert made(client, {"game": "pickomino", "seats": two, "clock": None})["clock"] is None
        assert made(client, {"game": "pickomino", "seats": two, "clock": 30})["clock"] == 30
        alone = made(client, {"game": "pickomino", "seats": [{}, {"bot": "greedy"}]})
        assert alone["clock"] is None
        games = {g["name"]: g for g in client.get("/api/games").json()}
        assert games["pickomino"]["clock"] == 90
        assert games["riffraff"]["clock"] == 120


def test_a_game_without_its_own_time_gets_the_hosts_default() -> None:
    assert default_turn_clock("no-such-game", 2) == DEFAULT_TURN_CLOCK
    assert default_turn_clock("pickomino", 1) is None


def test_when_the_default_clock_runs_out_the_stand_in_plays_and_the_log_says_so(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    app = create_app(db_url(tmp_path), bot_delay=0.0, clock=clock, executor=threads())
    with TestClient(app) as client:
        table = made(client, {"game": "pickomino", "seats": [{}, {}], "seed": 3})
        ada = join(client, table["id"], "Ada")
        join(client, table["id"], "Bea")
        address = f"/api/tables/{table['id']}/ws"
        with client.websocket_connect(address, subprotocols=["spieltisch", f"token.{ada}"]) as ws:
            state = ws.receive_json()
            assert state["deadline"] == clock.now() + 90
            clock.advance(90)
            keys: list[str] = []
            while "timeout" not in keys:
                message = ws.receive_json()
                keys += [entry["key"] for entry in message.get("log", [])]
            assert "timeout" in keys
