"""Several seats at one screen: the table-making request seats the people "here" at once and
returns a token for each; each token's socket acts only for its own seat and is told only its
own seat's secrets; a "watch" socket is a spectator's even with the session cookie."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from spieltisch.server.onescreen import SeatIn, people_for_clock
from tests.server.accounts import app_client, sign_up
from tests.server.helpers import TestClient, client_for, join, receive_state


def made(client: TestClient, body: dict[str, Any], status: int = 201) -> dict[str, Any]:
    response = client.post("/api/tables", json=body)
    assert response.status_code == status, response.text
    return dict(response.json())


def here_table(client: TestClient, game: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    return made(client, {"game": game, "seats": seats, "seed": 5, "pace": "instant"})


def next_state(ws: Any) -> dict[str, Any]:
    """The next state message (presence and chat messages are passed over)."""
    while True:
        message = receive_state(ws)
        if message["type"] == "state":
            return message


def protocols(token: str | None = None, watch: bool = False) -> list[str]:
    return ["spieltisch", *([f"token.{token}"] if token else []), *(["watch"] if watch else [])]


def test_the_people_here_are_seated_at_once_each_with_a_token(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        seats = [{"name": "Ann"}, {"bot": "greedy"}, {"name": "Ben"}]
        table = here_table(client, "karolinchen", seats)
        assert [h["seat"] for h in table["here"]] == [0, 2]
        assert table["status"] == "playing"  # every seat is taken: the game starts
        assert [s["name"] for s in table["seats"]] == ["Ann", None, "Ben"]
        tokens = {h["seat"]: h["token"] for h in table["here"]}
        assert len(set(tokens.values())) == 2
        for seat, token in tokens.items():
            address = f"/api/tables/{table['id']}/ws"
            with client.websocket_connect(address, subprotocols=protocols(token)) as ws:
                assert receive_state(ws)["you"] == seat


def test_a_table_without_seats_here_answers_as_before(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        table = here_table(client, "pickomino", [{}, {"bot": "greedy"}])
        assert "here" not in table
        assert table["status"] == "waiting"


def test_a_seat_here_acts_only_for_itself(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        seats = [{"name": "Ann"}, {"name": "Ben"}]
        table = made(client, {"game": "pickomino", "seats": seats, "seed": 5, "clock": None})
        ann, ben = (h["token"] for h in table["here"])
        address = f"/api/tables/{table['id']}/ws"
        with client.websocket_connect(address, subprotocols=protocols(ben)) as ws:
            state = receive_state(ws)
            assert state["you"] == 1 and state["to_move"] == 0
            ws.send_json({"type": "action", "action": "roll", "version": state["version"]})
            refusal = receive_state(ws)
            assert refusal["type"] == "error" and refusal["code"] == "not_your_turn"
        with client.websocket_connect(address, subprotocols=protocols(ann)) as ws:
            state = receive_state(ws)
            assert state["you"] == 0 and state["view"]["legal_actions"]


def test_each_seat_here_needs_a_name_and_nothing_is_made_without(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        before = len(client.get("/api/tables").json())
        refusal = made(
            client, {"game": "pickomino", "seats": [{"name": "Ann"}, {"name": " "}]}, 422
        )
        assert refusal["error"] == "bad_name"
        assert len(client.get("/api/tables").json()) == before


def test_the_people_here_count_as_one_for_the_default_turn_clock(tmp_path: Path) -> None:
    def seats(*given: dict[str, str]) -> list[SeatIn]:
        return [SeatIn.model_validate(seat) for seat in given]

    assert people_for_clock(seats({"name": "Ann"}, {"name": "Ben"}, {"bot": "greedy"})) == 1
    assert people_for_clock(seats({"name": "Ann"}, {"name": "Ben"}, {})) == 2
    with client_for(tmp_path) as client:
        family = made(client, {"game": "karolinchen", "seats": [{"name": "Ann"}, {"name": "Ben"}]})
        assert family["clock"] is None
        mixed = made(
            client, {"game": "karolinchen", "seats": [{"name": "Ann"}, {"name": "Ben"}, {}]}
        )
        assert mixed["clock"] == 60


def test_a_mixed_table_waits_for_the_person_from_the_invite(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        seats = [{"name": "Ann"}, {"name": "Ben"}, {}]
        table = here_table(client, "karolinchen", seats)
        assert table["status"] == "waiting"
        assert [s["open"] for s in table["seats"]] == [False, False, True]
        join(client, table["id"], "Cleo")
        assert client.get(f"/api/tables/{table['id']}").json()["status"] == "playing"


def test_a_face_down_card_is_told_only_to_its_own_seat_here(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        seats = [{"name": "Ann"}, {"name": "Ben"}, {"bot": "random"}]
        table = made(
            client,
            {
                "game": "riffraff",
                "seats": seats,
                "seed": 5,
                "options": {"start_seat": 0},
                "clock": None,
                "pace": "instant",
            },
        )
        tokens = {h["seat"]: h["token"] for h in table["here"]}
        address = f"/api/tables/{table['id']}/ws"
        with (
            client.websocket_connect(address, subprotocols=protocols(tokens[0])) as ann,
            client.websocket_connect(address, subprotocols=protocols(tokens[1])) as ben,
        ):
            state = next_state(ann)
            next_state(ben)
            card = next(a for a in state["view"]["legal_actions"] if a.startswith("card "))
            ann.send_json({"type": "action", "action": card, "version": state["version"]})
            mine, theirs = next_state(ann), next_state(ben)
            assert mine["view"]["cards"]["my_choice"] == int(card.split()[1])
            assert theirs["view"]["cards"]["my_choice"] is None
            assert theirs["view"]["cards"]["chosen"][0] is True
            told = [e for e in theirs["log"] if e["key"] == "move" and e["args"].get("seat") == 0]
            assert told and all("action" not in e["args"] for e in told)
            assert card not in str(theirs["log"])


def test_a_watch_socket_is_a_spectators_even_when_signed_in(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        sign_up(client, "Ada")
        seats = [{"name": "ignored: the account's"}, {"name": "Ben"}]
        table = made(client, {"game": "pickomino", "seats": seats, "seed": 5, "clock": None})
        assert [s["name"] for s in table["seats"]] == ["Ada", "Ben"]
        assert [s["account"] for s in table["seats"]] == [True, False]
        address = f"/api/tables/{table['id']}/ws"
        with client.websocket_connect(address, subprotocols=protocols()) as ws:
            assert receive_state(ws)["you"] == 0  # the cookie's seat, as before
        with client.websocket_connect(address, subprotocols=protocols(watch=True)) as ws:
            assert receive_state(ws)["you"] is None


def test_a_rated_table_seats_one_person_here(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        sign_up(client, "Ada")
        two = {"game": "pickomino", "seats": [{"name": "Ada"}, {"name": "Ben"}], "rated": True}
        assert made(client, two, 403)["error"] == "rated_needs_account"
        one = {"game": "pickomino", "seats": [{"name": "Ada"}, {"bot": "greedy"}], "rated": True}
        assert made(client, one)["here"][0]["seat"] == 0


def test_several_learners_at_one_screen_get_a_guided_game(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        body = {"game": "karolinchen", "names": ["Ann", "Ben"], "seed": 4}
        response = client.post("/api/tutorials/here", json=body)
        assert response.status_code == 201, response.text
        table = response.json()
        assert [h["seat"] for h in table["here"]] == [0, 1]
        assert [s["name"] for s in table["seats"][:2]] == ["Ann", "Ben"]
        assert table["seats"][2]["bot"] == "greedy"
        assert table["status"] == "playing"
        assert table["id"] not in [t["id"] for t in client.get("/api/tables").json()]
        ben = table["here"][1]["token"]
        left = client.post(f"/api/tables/{table['id']}/leave", json={"token": ben})
        assert left.status_code == 200, left.text
        address = f"/api/tables/{table['id']}/ws"
        with client.websocket_connect(address, subprotocols=protocols(ben)) as ws:
            assert next_state(ws)["log"][-1]["key"] == "tutorial_left"
        too_many = {"game": "pickomino", "names": ["A", "B", "C", "D", "E", "F", "G"]}
        assert client.post("/api/tutorials/here", json=too_many).json()["error"] == "bad_seats"
        assert (
            client.post("/api/tutorials/here", json={"game": "nope", "names": ["A"]}).json()[
                "error"
            ]
            == "no_tutorial"
        )
