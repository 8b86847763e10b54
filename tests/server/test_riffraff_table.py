"""Riff Raff at the web table without a browser: the scene, the broadcast motion of each
placement, the catch window the server times, and refusals (a restart mid-window:
`test_catch_restart.py`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spieltisch.games.riffraff.data import SHIP
from spieltisch.server import create_app, webfiles
from spieltisch.server.clock import ManualClock
from spieltisch.server.settle import (
    GUIDED_SLOWER,
    CatchTiming,
    Fall,
    merged_spans,
    playback_time,
)
from tests.server.database import db_url
from tests.server.helpers import TestClient, join, threads

TIMING = CatchTiming(slow_motion=2.0, margin=0.3)
OPTIONS = {"start_seat": 0, "steadiness": "0"}
FALLING = "place barrel u=1"  # a barrel let go on the tip of the upper yard rolls off
TWO_FALL = [  # after `to_placing`: the last placement knocks two pieces off, one after the other
    "place boat 9 u=0.9 v=0 yaw=90 up",
    "place sailor 1 u=0.9 v=0 yaw=0 up",
    "card 1",
    "card 2",
    "place boat 2 u=0.9 v=0 yaw=0 up",
    "place chest 1 u=0.3 v=0 yaw=90 up",
    "card 2",
    "card 3",
    "place chest 3 u=0.3 v=0 yaw=90 up",
    "place flacon 2 u=0.9 v=0 yaw=90 up",
]


def make_client(path: Path, clock: ManualClock | None = None) -> TestClient:
    """A server whose time stands still until the test moves it (`clock_of`)."""
    path.mkdir(parents=True, exist_ok=True)
    url = db_url(path)
    clock = clock or ManualClock()
    app = create_app(url, bot_delay=0.0, timing=TIMING, clock=clock, executor=threads())
    return TestClient(app)


def clock_of(client: TestClient) -> ManualClock:
    clock = client.app.state.lobby.clock  # type: ignore[attr-defined]
    assert isinstance(clock, ManualClock)
    return clock


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as found:
        yield found


def two_people(client: TestClient, **options: Any) -> tuple[str, str, str]:
    body = {"game": "riffraff", "seats": [{"bot": None}] * 2, "seed": 5}
    response = client.post("/api/tables", json={**body, "options": {**OPTIONS, **options}})
    assert response.status_code == 201, response.text
    table = response.json()["id"]
    return table, join(client, table, "Ada"), join(client, table, "Ben")


def receive(ws: Any, kind: str = "state") -> dict[str, Any]:
    """The next message of `kind`, skipping others."""
    while True:
        message = dict(ws.receive_json())
        if message["type"] in (kind, "error"):
            return message


def act(ws: Any, action: str, version: int) -> None:
    ws.send_json({"type": "action", "action": action, "version": version})


def to_placing(first: Any, second: Any) -> dict[str, Any]:
    """Ada lays card 9 and Ben card 1: Ada is captain and loads the upper yard first."""
    state = receive(first)
    act(first, "card 9", state["version"])
    state = receive(second)
    while state["view"]["phase"] != "cards" or state["to_move"] != 1:
        state = receive(second)
    act(second, "card 1", state["version"])
    state = receive(first)
    while state["view"]["phase"] != "place":
        state = receive(first)
    assert state["to_move"] == 0
    return state


def sockets(client: TestClient, table: str, *tokens: str | None) -> list[Any]:
    return [
        client.websocket_connect(f"/api/tables/{table}/ws" + (f"?token={t}" if t else ""))
        for t in tokens
    ]


# --- pieces of the timing -------------------------------------------------------------------
def test_falls_play_slower_by_the_factor() -> None:
    spans = merged_spans((Fall(3, 1.0, 0.4), Fall(4, 1.2, 0.3), Fall(5, 2.0, 0.1)))
    assert spans == [(0.6, 1.2), (1.9, 2.0)]
    assert playback_time(0.5, spans, 4.0) == pytest.approx(0.5)
    assert playback_time(1.2, spans, 4.0) == pytest.approx(1.2 + 3 * 0.6)
    assert playback_time(2.5, spans, 4.0) == pytest.approx(2.5 + 3 * 0.7)


# --- scene, vendor files and options ---------------------------------------------------------
def test_the_scene_comes_from_the_game_data(client: TestClient) -> None:
    scene = client.get("/api/games/riffraff/scene").json()
    assert scene["ship"]["hull_size"] == list(SHIP.hull_size)
    assert [y["height"] for y in scene["ship"]["yards"]] == [y.height for y in SHIP.yards]
    assert [a["area"] for a in scene["areas"]] == list(range(1, 11))
    assert len(scene["pieces"]) == 8 and all(p["parts"] for p in scene["pieces"])
    missing = client.get("/api/games/pickomino/scene")
    assert missing.status_code == 404 and missing.json()["error"] == "no_scene"


def test_missing_vendor_files_get_a_clear_answer(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(webfiles, "VENDOR_DIR", tmp_path / "no-vendor")
    answer = client.get("/vendor/three/build/three.module.js")
    assert answer.status_code == 404
    assert "tools/fetch_web_deps.py" in answer.text
    assert client.get("/vendor/../app.py").status_code == 404


def test_people_catch_by_hand_and_bot_tables_use_the_model(client: TestClient) -> None:
    def catching(seats: list[str | None], **options: Any) -> str:
        body = {"game": "riffraff", "seats": [{"bot": s} for s in seats], "options": options}
        return str(client.post("/api/tables", json=body).json()["options"]["catching"])

    assert catching([None, "careful"]) == "choose"
    assert catching(["random", "careful"]) == "model"
    assert catching([None, "careful"], catching="model") == "model"


# --- the motion and the catch ------------------------------------------------------------------
def test_everybody_gets_the_same_motion_before_the_state(client: TestClient) -> None:
    table, ada, ben = two_people(client)
    first, second, watcher = sockets(client, table, ada, ben, None)
    with first, second, watcher:
        state = to_placing(first, second)
        act(first, FALLING, state["version"])
        shows = [receive(ws, "settle") for ws in (first, second, watcher)]
        states = [dict(ws.receive_json()) for ws in (first, second, watcher)]
    after = states[0]
    assert all(s["type"] == "state" and s["version"] == after["version"] for s in states)
    plain = [{k: v for k, v in show.items() if k != "elapsed"} for show in shows]
    assert plain[0] == plain[1] == plain[2]
    show = shows[0]
    assert show["version"] == after["version"] and after["view"]["phase"] == "catch"
    assert show["frames"] and len(show["frames"][0]["j"]) == 8
    assert [f[0] for f in show["falls"]] == [show["placed"]]
    assert show["catch"]["seat"] == 0 and show["catch"]["closes_in"] > 0


def test_a_catch_inside_the_window_counts(client: TestClient) -> None:
    table, ada, ben = two_people(client)
    first, second = sockets(client, table, ada, ben)
    with first, second:
        act(first, FALLING, to_placing(first, second)["version"])
        show = receive(first, "settle")
        state = receive(first)
        act(first, f"catch {show['placed']}", state["version"])
        after = receive(first)
    assert after["view"]["phase"] != "catch"
    assert after["log"][-1]["args"]["action"] == f"catch {show['placed']}"


def test_the_window_closes_with_an_empty_catch(client: TestClient) -> None:
    table, ada, ben = two_people(client)
    first, second = sockets(client, table, ada, ben)
    with first, second:
        act(first, FALLING, to_placing(first, second)["version"])
        show = receive(first, "settle")
        in_window = receive(first)
        clock_of(client).advance(show["catch"]["closes_in"] - 0.05)
        first.send_json({"type": "sync"})
        still = receive(first)  # a moment before the end the window is open
        clock_of(client).advance(0.05)
        after = receive(first)
    assert still["version"] == in_window["version"] and still["view"]["phase"] == "catch"
    assert after["view"]["phase"] != "catch"
    assert after["log"][-1]["args"]["action"] == "catch none"


def test_a_late_catch_is_refused_and_changes_nothing(client: TestClient) -> None:
    table, ada, ben = two_people(client)
    first, second = sockets(client, table, ada, ben)
    with first, second:
        act(first, FALLING, to_placing(first, second)["version"])
        show = receive(first, "settle")
        state = receive(first)
        # the server's own close is late (a busy machine): the catch is refused all the same
        clock_of(client).advance(show["catch"]["closes_in"] + 0.1, wake=False)
        act(first, f"catch {show['placed']}", state["version"])
        refused = receive(first, "error")
        first.send_json({"type": "sync"})
        again = receive(first)
    assert refused["code"] == "too_late" and "window closed" in refused["message"]
    assert again["version"] == state["version"] and again["view"]["phase"] == "catch"


def play(
    players: list[Any], watcher: Any, state: dict[str, Any], actions: list[str]
) -> dict[str, Any]:
    """Each action in turn by the seat to move, from `state` on; the watcher's state after."""
    for action in actions:
        act(players[state["to_move"]], action, state["version"])
        played = state["version"]
        while state["version"] <= played or state["to_move"] is None:
            state = receive(watcher)
    return state


def test_a_piece_that_landed_is_not_caught_while_another_still_falls(
    client: TestClient,
) -> None:
    table, ada, ben = two_people(client)
    first, second, watcher = sockets(client, table, ada, ben, None)
    with first, second, watcher:
        players = [first, second]
        state = play(players, watcher, to_placing(first, second), TWO_FALL[:-1])
        act(players[state["to_move"]], TWO_FALL[-1], state["version"])
        show = receive(watcher, "settle")
        state = receive(watcher)
        deadlines = {int(piece): left for piece, left in show["catch"]["deadlines"].items()}
        landed, falling = sorted(deadlines, key=deadlines.__getitem__)
        assert deadlines[landed] < deadlines[falling] == show["catch"]["closes_in"]
        catcher = players[show["catch"]["seat"]]
        clock_of(client).advance((deadlines[landed] + deadlines[falling]) / 2, wake=False)
        act(catcher, f"catch {landed}", state["version"])
        refused = receive(catcher)
        while refused["type"] == "state" and refused["version"] <= state["version"]:
            refused = receive(catcher)  # the states it had not read yet
        act(catcher, f"catch {falling}", state["version"])
        after = receive(watcher)
    assert refused["type"] == "error", f"the catch of {landed}, which had landed, counted"
    assert refused["code"] == "too_late" and f"Piece {landed} had already" in refused["message"]
    assert after["log"][-1]["args"]["action"] == f"catch {falling}"


def test_only_the_active_seat_catches(client: TestClient) -> None:
    table, ada, ben = two_people(client)
    first, second, watcher = sockets(client, table, ada, ben, None)
    with first, second, watcher:
        act(first, FALLING, to_placing(first, second)["version"])
        show = receive(second, "settle")
        state = receive(second)
        act(second, f"catch {show['placed']}", state["version"])
        assert receive(second, "error")["code"] == "not_your_turn"
        act(watcher, f"catch {show['placed']}", state["version"])
        assert receive(watcher, "error")["code"] == "spectator"
        act(first, "catch 99", state["version"])
        refused = receive(first, "error")
    assert refused["code"] == "illegal_action" and "fell this turn" in refused["message"]


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ("place barrel u=abc", "not a number"),
        ("place barrel u=2", "u from 0 to 1"),
        ("place anchor u=0.5", "not a piece"),
        ("place plank u=0 yaw=0", "past the mast"),  # the plank would reach into area 10
        ("place box 5 u=0.6", "load onto area 9"),
    ],
)
def test_a_bad_placement_is_refused_and_changes_nothing(
    client: TestClient, action: str, words: str
) -> None:
    table, ada, ben = two_people(client)
    first, second = sockets(client, table, ada, ben)
    with first, second:
        state = to_placing(first, second)
        act(first, action, state["version"])
        refused = receive(first, "error")
        first.send_json({"type": "sync"})
        again = receive(first)
    assert refused["code"] == "illegal_action" and words in refused["message"], refused
    assert again["version"] == state["version"] and again["view"]["phase"] == "place"


def test_the_log_tells_everybody_the_placement_and_its_fall_but_not_the_cards(
    client: TestClient,
) -> None:
    table, ada, ben = two_people(client)
    first, second, watcher = sockets(client, table, ada, ben, None)
    with first, second, watcher:
        act(first, FALLING, to_placing(first, second)["version"])
        for ws in (first, second, watcher):
            receive(ws, "settle")
            receive(ws)
            ws.send_json({"type": "sync"})  # the whole log
        logs = [receive(ws)["log"] for ws in (first, second, watcher)]
    for log in logs:
        place, settled = log[-2]["args"], log[-1]["args"]
        assert place["action"].startswith("place barrel 9") and place["piece"] == "barrel"
        assert settled["outcome"] == "settled"  # the physics outcome is told by its story
        assert [f["piece"] for f in settled["fell"]] == ["barrel"]
    cards = [next(e for e in log if e["key"] == "move" and e["args"]["seat"] == 0) for log in logs]
    assert cards[0]["args"]["action"] == "card 9"
    assert "action" not in cards[1]["args"] and "action" not in cards[2]["args"]


def test_a_guided_game_plays_falls_slower_still(client: TestClient) -> None:
    """In "Learn to play" falling cargo plays `GUIDED_SLOWER` times slower than at a usual
    table, so that the learner reads "Catch!" while the first pieces fall."""
    joined = client.post("/api/tutorials", json={"game": "riffraff", "name": "Ada", "seed": 5})
    assert joined.status_code == 201, joined.text
    table, token = joined.json()["table"]["id"], joined.json()["token"]
    (learner,) = sockets(client, table, token)
    with learner:
        state = receive(learner)
        act(learner, "card 10", state["version"])
        while state["view"]["phase"] != "place" or state["to_move"] != 0:
            state = receive(learner)
        act(learner, "place barrel u=1", state["version"])
        show = receive(learner, "settle")
    assert show["slow_motion"] == pytest.approx(TIMING.slow_motion * GUIDED_SLOWER)
