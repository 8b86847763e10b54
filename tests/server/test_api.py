"""The REST lobby and the WebSocket tables: play, bad input, bots, leaving, restart."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spieltisch.core.record import GameRecord, replay
from spieltisch.core.registry import game_class, game_names, make_game
from spieltisch.server.app import MAX_MESSAGE
from spieltisch.server.table import CHAT_BURST, TableError
from tests.server.helpers import TestClient, client_for, join, make_table, play_until, receive_state


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with client_for(tmp_path) as test_client:
        yield test_client


def socket_url(table_id: str, token: str | None = None) -> str:
    return f"/api/tables/{table_id}/ws" + (f"?token={token}" if token else "")


def test_games_and_schema(client: TestClient) -> None:
    games = client.get("/api/games").json()
    pickomino = next(g for g in games if g["name"] == "pickomino")
    assert "optimal" in pickomino["bots"]
    assert {o["name"] for o in pickomino["options"]} >= {"short_game"}
    schema = client.get("/openapi.json").json()
    assert "/api/tables" in schema["paths"]
    assert "/api/tables/{table_id}/join" in schema["paths"]


def test_create_list_join_and_full(client: TestClient) -> None:
    table = make_table(client, [None, None])
    assert table["status"] == "waiting"
    assert [t["id"] for t in client.get("/api/tables").json()] == [table["id"]]
    join(client, table["id"], "Anna")
    join(client, table["id"], "  Bert\n ")
    info = client.get(f"/api/tables/{table['id']}").json()
    assert info["status"] == "playing"
    assert [s["name"] for s in info["seats"]] == ["Anna", "Bert"]
    full = client.post(f"/api/tables/{table['id']}/join", json={"name": "Cleo"})
    assert full.status_code == 409
    assert "watch" in full.json()["message"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess", "seats": [{}, {}]}, "unknown game"),
        ({"game": "pickomino", "seats": [{}]}, "2 to 7"),
        ({"game": "pickomino", "seats": [{}, {"bot": "wizard"}]}, "no bot 'wizard'"),
        ({"game": "pickomino", "seats": [{}, {}], "options": {"colour": 1}}, "unknown option"),
        ({"game": "pickomino", "seats": [{}, {}], "clock": 1}, "5 to 3600"),
    ],
)
def test_create_errors_are_sentences(client: TestClient, body: dict[str, Any], words: str) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert words in response.json()["message"]


def test_bad_names_and_unknown_table(client: TestClient) -> None:
    table = make_table(client, [None, "greedy"])
    empty = client.post(f"/api/tables/{table['id']}/join", json={"name": " \t"})
    assert empty.status_code == 422  # a name that cannot be one
    long = client.post(f"/api/tables/{table['id']}/join", json={"name": "x" * 40})
    assert "at most 32" in long.json()["message"]
    assert client.get("/api/tables/nope").status_code == 404


def test_a_whole_game_against_a_bot(client: TestClient) -> None:
    table = make_table(client, [None, "greedy"])
    token = join(client, table["id"], "Anna")
    with client.websocket_connect(socket_url(table["id"], token)) as ws:
        state = receive_state(ws)
        assert state["you"] == 0
        final = play_until(ws, state, lambda s: s["result"] is not None)
    assert final["table"]["status"] == "over"
    record = GameRecord.from_json(client.get(f"/api/tables/{table['id']}/record").json())
    game = make_game("pickomino", record.options)
    assert list(game.scores(replay(record))) == final["result"]["scores"]
    steps = client.get(f"/api/tables/{table['id']}/replay").json()["steps"]
    assert len(steps) == len(record.actions) + 1
    assert steps[-1]["view"]["winners"] == final["result"]["winners"]
    assert client.get("/api/tables").json() == []


def test_record_only_when_over(client: TestClient) -> None:
    table = make_table(client, [None, "greedy"])
    response = client.get(f"/api/tables/{table['id']}/record")
    assert response.status_code == 409
    assert "once the game is over" in response.json()["message"]


def expect_error(ws: Any, code: str) -> dict[str, Any]:
    message = receive_state(ws)
    assert message["type"] == "error", message
    assert message["code"] == code, message
    assert message["message"].endswith("."), message
    return message


def test_bad_input_is_refused_and_the_socket_stays_usable(client: TestClient) -> None:
    table = make_table(client, [None, None])
    anna = join(client, table["id"], "Anna")
    bert = join(client, table["id"], "Bert")
    with (
        client.websocket_connect(socket_url(table["id"], anna)) as ws,
        client.websocket_connect(socket_url(table["id"], bert)) as other,
    ):
        state = receive_state(ws)
        receive_state(other)
        came = receive_state(ws)  # Bert came: both seats are here now
        assert came["type"] == "presence", came
        assert [seat["presence"] for seat in came["seats"]] == ["here", "here"]
        version = state["version"]
        legal = state["view"]["legal_actions"]
        ws.send_text("{not json")
        expect_error(ws, "bad_json")
        ws.send_text(json.dumps({"type": "action", "action": "x" * MAX_MESSAGE}))
        expect_error(ws, "too_large")
        ws.send_json([1, 2])
        expect_error(ws, "bad_message")
        ws.send_bytes(b"\x00\x01")
        expect_error(ws, "bad_message")
        ws.send_json({"type": "dance"})
        expect_error(ws, "bad_message")
        ws.send_json({"type": "action", "action": legal[0], "version": version - 1})
        assert "has changed" in expect_error(ws, "stale_version")["message"]
        ws.send_json({"type": "action", "action": legal[0]})
        expect_error(ws, "no_version")
        ws.send_json({"type": "action", "action": "steal", "version": version})
        expect_error(ws, "illegal_action")
        other.send_json({"type": "action", "action": legal[0], "version": version})
        assert "Anna is to move" in expect_error(other, "not_your_turn")["message"]
        ws.send_json({"type": "sync"})
        again = receive_state(ws)
        assert again["version"] == version
        ws.send_json({"type": "action", "action": legal[0], "version": version})
        after = receive_state(ws)
        assert after["version"] == version + 1
        assert not after["log_full"] and after["log"][0]["seq"] == version
        assert receive_state(other)["version"] == version + 1


def test_wrong_token_watches_and_spectators_cannot_act(client: TestClient) -> None:
    table = make_table(client, [None, "greedy"])
    join(client, table["id"], "Anna")
    with client.websocket_connect(socket_url(table["id"], "forged")) as ws:
        expect_error(ws, "bad_token")
        state = receive_state(ws)
        assert state["you"] is None
        assert state["view"]["legal_actions"] == []
        ws.send_json({"type": "action", "action": "take 1", "version": state["version"]})
        expect_error(ws, "spectator")
        ws.send_json({"type": "sync"})
        assert receive_state(ws)["type"] == "state"


def test_leaving_mid_game_hands_the_seat_to_a_bot(client: TestClient) -> None:
    table = make_table(client, [None, None])
    anna = join(client, table["id"], "Anna")
    bert = join(client, table["id"], "Bert")
    response = client.post(f"/api/tables/{table['id']}/leave", json={"token": bert})
    assert response.status_code == 200
    seat = response.json()["seats"][1]
    assert seat["replaced"] and seat["bot"] == "optimal"
    forged = client.post(f"/api/tables/{table['id']}/leave", json={"token": bert})
    assert forged.status_code == 403
    with client.websocket_connect(socket_url(table["id"], anna)) as ws:
        final = play_until(ws, receive_state(ws), lambda s: s["result"] is not None)
    assert final["result"]["replaced_by_bot"] == [1]
    record = client.get(f"/api/tables/{table['id']}/record").json()
    assert record["meta"]["replaced_by_bot"] == [1]


def test_leaving_before_the_start_frees_the_seat(client: TestClient) -> None:
    table = make_table(client, [None, None])
    anna = join(client, table["id"], "Anna")
    client.post(f"/api/tables/{table['id']}/leave", json={"token": anna})
    seats = client.get(f"/api/tables/{table['id']}").json()["seats"]
    assert seats[0]["open"]


def test_restart_continues_every_table(tmp_path: Path) -> None:
    """A new server on the same file has the same states, versions, tokens and dice."""
    with client_for(tmp_path) as first:
        table = make_table(first, [None, None])
        anna = join(first, table["id"], "Anna")
        bert = join(first, table["id"], "Bert")
        tokens = {0: anna, 1: bert}
        with first.websocket_connect(socket_url(table["id"], anna)) as ws:
            _play_both(first, table["id"], tokens, receive_state(ws), 12)
            ws.send_json({"type": "sync"})
            state = receive_state(ws)
            while state["version"] < 12:
                state = receive_state(ws)
    # The database is all that survives: the same rows must give the same game onwards.
    with (
        client_for(tmp_path) as second,
        second.websocket_connect(socket_url(table["id"], anna)) as ws,
    ):
        again = receive_state(ws)
        assert again["version"] == state["version"]
        assert again["view"] == state["view"]
        assert again["you"] == 0
        after_restart = _play_both(second, table["id"], tokens, again, 40)
    with client_for(tmp_path / "other") as fresh:
        copy = make_table(fresh, [None, None])
        tokens = {0: join(fresh, copy["id"], "Anna"), 1: join(fresh, copy["id"], "Bert")}
        with fresh.websocket_connect(socket_url(copy["id"], tokens[0])) as ws:
            start = receive_state(ws)
        uninterrupted = _play_both(fresh, copy["id"], tokens, start, 40)
    assert after_restart == uninterrupted


def _play_both(
    client: TestClient, table_id: str, tokens: dict[int, str], state: dict[str, Any], until: int
) -> list[dict[str, Any]]:
    """Play the first legal action for whichever seat is to move; the log from version 2 on."""
    while state["version"] < until and state["result"] is None:
        seat = state["to_move"]
        with client.websocket_connect(socket_url(table_id, tokens[seat])) as ws:
            mine = receive_state(ws)
            action = mine["view"]["legal_actions"][0]
            ws.send_json({"type": "action", "action": action, "version": mine["version"]})
            state = receive_state(ws)
    with client.websocket_connect(socket_url(table_id)) as ws:
        log = receive_state(ws)["log"]
    return [e for e in log if e["key"] in ("move", "chance")]


def test_odds_for_the_player_to_move(client: TestClient) -> None:
    table = make_table(client, [None, "greedy"])
    join(client, table["id"], "Anna")
    odds = client.get(f"/api/tables/{table['id']}/odds").json()
    actions = {o["action"] for o in odds["odds"]}
    assert actions and all(a.startswith("take") for a in actions)
    assert all(0 <= o["p_fail"] <= 1 for o in odds["odds"])


def test_the_web_client_is_served(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "<html" in page.text.lower() or "<!doctype" in page.text.lower()


@pytest.mark.parametrize("game_name", game_names())
def test_each_connection_gets_only_its_own_view(client: TestClient, game_name: str) -> None:
    """Seats get the game's view for their seat and spectators the public one, nothing more."""
    game_cls = game_class(game_name)
    seats = [{"bot": None}] * game_cls.min_players
    response = client.post("/api/tables", json={"game": game_name, "seats": seats, "seed": 3})
    table_id = response.json()["id"]
    tokens = [join(client, table_id, f"P{n}") for n in range(game_cls.min_players)]
    live = client.app.state.lobby.tables[table_id]  # type: ignore[attr-defined]
    for seat, token in [*enumerate(tokens), (None, None)]:
        with client.websocket_connect(socket_url(table_id, token)) as ws:
            message = receive_state(ws)
        assert message["you"] == seat
        assert message["view"] == json.loads(json.dumps(live.game.view(live.state, seat)))
        assert set(message) == {
            "type",
            "version",
            "you",
            "table",
            "view",
            "to_move",
            "deadline",
            "log",
            "log_full",
            "chat",
            "result",
        }


def test_a_face_down_riff_raff_card_stays_hidden(client: TestClient) -> None:
    """The card a player lays face down reaches nobody else: not in views, not in the log."""
    response = client.post("/api/tables", json={"game": "riffraff", "seats": [{}, {}], "seed": 4})
    table_id = response.json()["id"]
    tokens = [join(client, table_id, name) for name in ("Anna", "Bert")]
    with client.websocket_connect(socket_url(table_id)) as spectator:
        start = receive_state(spectator)
        chooser = start["to_move"]
        assert start["view"]["phase"] == "cards"
        with client.websocket_connect(socket_url(table_id, tokens[chooser])) as ws:
            mine = receive_state(ws)
            here = receive_state(spectator)["seats"][chooser]  # the chooser came (presence)
            assert here["presence"] == "here"
            card = mine["view"]["legal_actions"][-1]
            ws.send_json({"type": "action", "action": card, "version": mine["version"]})
            assert receive_state(ws)["view"]["cards"]["my_choice"] is not None
        watched = receive_state(spectator)
    with client.websocket_connect(socket_url(table_id, tokens[1 - chooser])) as ws:
        other = receive_state(ws)
    for message in (watched, other):
        assert message["view"]["cards"]["chosen"][chooser] is True
        assert message["view"]["cards"]["my_choice"] is None
        moves = [e for e in message["log"] if e["key"] == "move"]
        assert moves and all("action" not in e["args"] for e in moves)
    assert card not in json.dumps(watched)  # (the other seat holds the same numbers)


def test_chat_reaches_everybody_and_keeps_the_version(client: TestClient) -> None:
    table = make_table(client, [None, None])
    anna = join(client, table["id"], "Anna")
    join(client, table["id"], "Bert")
    with (
        client.websocket_connect(socket_url(table["id"], anna)) as ws,
        client.websocket_connect(socket_url(table["id"])) as spectator,
    ):
        version = receive_state(ws)["version"]
        receive_state(spectator)
        ws.send_json({"type": "chat", "text": "  <b>hello</b>\n  there "})
        for socket in (ws, spectator):
            line = socket.receive_json()
            assert line["type"] == "chat" and line["version"] == version
            assert line["line"] == {"n": 0, "seat": 0, "name": "Anna", "text": "<b>hello</b> there"}
        ws.send_json({"type": "chat", "text": "x" * 301})
        expect_error(ws, "bad_chat")
        spectator.send_json({"type": "chat", "text": "hi"})
        expect_error(spectator, "spectator")
    with client.websocket_connect(socket_url(table["id"])) as ws:
        assert [c["text"] for c in receive_state(ws)["chat"]] == ["<b>hello</b> there"]


def test_chat_is_limited_to_a_few_lines_at_a_time(client: TestClient) -> None:
    table = make_table(client, [None, None])
    anna = join(client, table["id"], "Anna")
    with client.websocket_connect(socket_url(table["id"], anna)) as ws:
        receive_state(ws)
        for n in range(CHAT_BURST):
            ws.send_json({"type": "chat", "text": f"line {n}"})
            assert ws.receive_json()["line"]["n"] == n
        ws.send_json({"type": "chat", "text": "one too many"})
        expect_error(ws, "chat_too_fast")
    with client.websocket_connect(socket_url(table["id"])) as ws:
        said = [c["text"] for c in receive_state(ws)["chat"]]
    assert said == [f"line {n}" for n in range(CHAT_BURST)]


def test_the_chat_limit_counts_only_the_last_seconds(client: TestClient) -> None:
    table = make_table(client, [None, None])
    join(client, table["id"], "Anna")
    live = client.app.state.lobby.get(table["id"])  # type: ignore[attr-defined]
    for n in range(CHAT_BURST):
        live.talk(0, "hi", now=100.0 + n)
    with pytest.raises(TableError, match="again in 6 s"):
        live.talk(0, "hi", now=104.5)
    live.talk(0, "hi", now=110.0)  # the first line is 10 s old: one more may come
    live.talk(1, "hi", now=110.0)  # every seat has its own count


def test_bots_play_on_after_a_restart(tmp_path: Path) -> None:
    """A bot whose turn it was when the server stopped plays as soon as it is back."""
    with client_for(tmp_path, bot_delay=3600) as first:
        table = make_table(first, ["greedy", None])
        token = join(first, table["id"], "Anna")
        with first.websocket_connect(socket_url(table["id"], token)) as ws:
            assert receive_state(ws)["to_move"] == 0  # the bot thinks for an hour
    with (
        client_for(tmp_path) as second,
        second.websocket_connect(socket_url(table["id"], token)) as ws,
    ):
        state = receive_state(ws)
        seen = list(state["log"])
        while state["to_move"] != 1:
            state = receive_state(ws)
            seen += state["log"]
        assert any(e["key"] == "move" and e["args"]["seat"] == 0 for e in seen)


def test_assets_are_compressed_and_cached_sensibly(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        gzip = {"Accept-Encoding": "gzip"}
        page = client.get("/app.js", headers=gzip)
        assert page.headers["content-encoding"] == "gzip"
        assert page.headers["cache-control"] == "no-cache" and page.headers["etag"]
        again = client.get("/app.js", headers={**gzip, "If-None-Match": page.headers["etag"]})
        assert again.status_code == 304
        three = client.get("/vendor/three/build/three.module.js", headers=gzip)
        if three.status_code == 200:  # present once tools/fetch_web_deps.py has run
            assert three.headers["content-encoding"] == "gzip"
            assert "max-age" in three.headers["cache-control"]
        assert client.get("/api/games", headers=gzip).headers["content-encoding"] == "gzip"
