"""The guided first game ("Learn to play"): the learner starts against the game's friendly
bot, whose moves come at a slower pace; the table is not listed, and leaving stops it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from spieltisch.core import CHANCE
from spieltisch.server.clock import ManualClock
from spieltisch.server.connection import Connection
from spieltisch.server.lobby import TUTORIAL_PACE, Lobby, SeatSpec
from spieltisch.server.store import Store
from spieltisch.server.table import LiveTable
from tests.server.database import db_url
from tests.server.helpers import TestClient, client_for, receive_state, threads
from tests.server.test_clock import settle
from tests.support.waits import until

DELAY = 1.0
TUTORS = {"pickomino": "greedy", "karolinchen": "greedy", "riffraff": "random"}
"""The friendly bot of each game's guided first game (its hooks, `spieltisch.serving`)."""


def start(client: TestClient, game: str, name: str = "Lea") -> dict[str, object]:
    response = client.post("/api/tutorials", json={"game": game, "name": name, "seed": 4})
    assert response.status_code == 201, response.text
    return dict(response.json())


@pytest.mark.parametrize("game", ["pickomino", "karolinchen", "riffraff"])
def test_the_learner_starts_against_the_friendly_bot(tmp_path: Path, game: str) -> None:
    with client_for(tmp_path) as client:
        joined = start(client, game)
        table = joined["table"]
        assert isinstance(table, dict)
        seats = table["seats"]
        assert [(s["name"], s["bot"]) for s in seats] == [("Lea", None), (None, TUTORS[game])]
        with client.websocket_connect(
            f"/api/tables/{table['id']}/ws?token={joined['token']}"
        ) as ws:
            state = receive_state(ws)
        assert state["log"][0] == {
            "seq": 0,
            "key": "tutorial",
            "args": {"seat": 0, "bot": TUTORS[game]},
        }
        assert state["table"]["options"]["start_seat"] == 0
        assert client.get("/api/tables").json() == []  # a guided game is nobody else's business


def test_bad_requests_change_nothing(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        unknown = client.post("/api/tutorials", json={"game": "chess", "name": "Lea"})
        nameless = client.post("/api/tutorials", json={"game": "pickomino", "name": "  "})
        assert unknown.status_code == 400 and unknown.json()["error"] == "no_tutorial"
        assert nameless.status_code == 422 and nameless.json()["error"] == "bad_name"
        assert not client.app.state.lobby.tables  # type: ignore[attr-defined]


def test_leaving_stops_the_game_where_it_is(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        joined = start(client, "pickomino")
        table_id = joined["table"]["id"]  # type: ignore[index]
        token = joined["token"]
        with client.websocket_connect(f"/api/tables/{table_id}/ws?token={token}") as ws:
            state = receive_state(ws)
            ws.send_json({"type": "action", "action": "roll", "version": state["version"]})
            state = receive_state(ws)
            assert (
                client.post(f"/api/tables/{table_id}/leave", json={"token": token}).status_code
                == 200
            )
            state = receive_state(ws)
            assert state["log"][-1]["key"] == "tutorial_left"
            seat = dict(state["table"]["seats"][0])
            assert seat.pop("presence") == "here"  # the learner's socket is open
            assert isinstance(seat.pop("last_seen"), float)
            assert seat == {
                "seat": 0,
                "name": "Lea",
                "bot": None,
                "open": False,
                "replaced": False,
                "account": False,
            }
            version = state["version"]
        with client.websocket_connect(f"/api/tables/{table_id}/ws?token={token}") as ws:
            state = receive_state(ws)  # the old token still names the seat, but play has ended
            ws.send_json(
                {"type": "action", "action": state["view"]["legal_actions"][0], "version": version}
            )
            refused = receive_state(ws)
        assert refused["type"] == "error" and refused["code"] == "tutorial_left"
        assert client.get(f"/api/tables/{table_id}").json()["version"] == version


def learners_page(table_id: str) -> Connection:
    """The learner's open page: a socket of seat 0 that takes what it is sent."""

    async def send(text: str) -> None:
        pass

    return Connection(table_id, 0, send)


async def bot_waits(between: float, tutorial: bool, path: Path) -> bool:
    """Whether the bot is still waiting `between` seconds after the learner's turn ended
    (then the test lets the time run on and sees it move)."""
    clock = ManualClock()
    lobby = Lobby(Store(db_url(path, "pace")), DELAY, clock, executor=threads())
    if tutorial:
        table, _token = await lobby.tutorial("pickomino", "Lea", seed=4)
        lobby.connect(learners_page(table.id))
    else:
        table = await lobby.create(
            "pickomino", {"start_seat": 0}, [SeatSpec(), SeatSpec("greedy")], seed=4
        )
        await lobby.join(table.id, 0, "Lea")
    while table.mover() == 0:  # the learner's turn: the first legal action each time
        table.play(0, table.game.format_action(table.game.legal_actions(table.state)[0]))
        await lobby.changed(table)
    await settle()
    start = table.version
    clock.advance(between)
    await settle()
    waiting = table.version == start and clock.sleeping() > 0
    clock.advance(DELAY * TUTORIAL_PACE)
    await until(lambda: table.version > start)
    await lobby.close()
    lobby.store.close()
    return waiting


def test_the_friendly_bot_takes_its_time(tmp_path: Path) -> None:
    between = DELAY * (1 + TUTORIAL_PACE) / 2  # after a usual delay, before a guided one
    assert not asyncio.run(bot_waits(between, tutorial=False, path=tmp_path))
    assert asyncio.run(bot_waits(between, tutorial=True, path=tmp_path))


async def rolls_while(clock: ManualClock, table: LiveTable, seconds: float) -> int:
    """How many rolls the table draws while `seconds` pass on the lobby's clock."""
    start = sum(1 for e in table.entries if e.actor == CHANCE)
    for _ in range(int(seconds / 0.5)):
        clock.advance(0.5)
        await settle()
    return sum(1 for e in table.entries if e.actor == CHANCE) - start


def test_a_guided_game_waits_for_its_learners_page(tmp_path: Path) -> None:
    """Nothing runs ahead of the lessons: before the learner's page is open (or after it has
    closed) the guided game's rolls and bot wait; they go on while it is open."""

    async def main() -> None:
        clock = ManualClock()
        lobby = Lobby(Store(db_url(tmp_path, "waits")), DELAY, clock, executor=threads())
        table, _token = await lobby.tutorial("karolinchen", "Lea", seed=4)
        lobby.resume()
        assert await rolls_while(clock, table, 30 * DELAY) == 0
        page = learners_page(table.id)
        lobby.connect(page)
        assert await rolls_while(clock, table, 30 * DELAY) > 0
        lobby.disconnect(page)
        await rolls_while(clock, table, 4 * DELAY)  # a roll under way ends
        assert await rolls_while(clock, table, 30 * DELAY) == 0
        await lobby.close()
        lobby.store.close()

    asyncio.run(main())
