"""The account routes: sign up, in and out, password, settings, data, deletion, "My tables",
seats that belong to an account, and every refusal."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from spieltisch.server.accounts.store import FORMER_PLAYER
from spieltisch.server.clock import ManualClock
from spieltisch.server.schema import ACCOUNTS, CHAT, SEATS, SESSIONS
from tests.server.accounts import COOKIE, PASSWORD, app_client, sign_in, sign_up
from tests.server.database import db_url
from tests.server.helpers import TestClient, join, make_table, receive_state


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as test_client:
        yield test_client


def session(client: TestClient) -> Any:
    return client.get("/api/session").json()["account"]


def first_state(ws: Any) -> dict[str, Any]:
    while True:
        message = dict(ws.receive_json())
        if message["type"] == "state":
            return message


def test_signing_up_signs_in_with_a_cookie_only_the_server_reads(client: TestClient) -> None:
    assert session(client) is None
    response = client.post("/api/account/signup", json={"name": "Ada", "password": PASSWORD})
    assert response.status_code == 201
    assert response.json() == {"account": {"name": "Ada", "settings": {}}}
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # served over plain HTTP here
    assert session(client) == {"name": "Ada", "settings": {}}


def test_the_cookie_is_secure_when_the_page_came_over_https(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        client.base_url = client.base_url.copy_with(scheme="https")
        client.headers["origin"] = "https://testserver"
        response = client.post("/api/account/signup", json={"name": "Ada", "password": PASSWORD})
        assert response.status_code == 201
        assert "Secure" in response.headers["set-cookie"]


@pytest.mark.parametrize(
    ("name", "password", "status", "code", "words"),
    [
        ("Al", PASSWORD, 422, "bad_name", "3 to 20"),
        ("ada@home", PASSWORD, 422, "bad_name", "cannot contain"),
        ("Ada", "short", 422, "weak_password", "at least 8"),
        ("Ada", "ADA", 422, "weak_password", "at least 8"),
        ("adalovelace", "AdaLovelace", 422, "weak_password", "user name"),
    ],
)
def test_sign_up_refusals_say_why(
    client: TestClient, name: str, password: str, status: int, code: str, words: str
) -> None:
    response = client.post("/api/account/signup", json={"name": name, "password": password})
    assert response.status_code == status
    assert response.json()["error"] == code and words in response.json()["message"]
    assert session(client) is None and "set-cookie" not in response.headers


@pytest.mark.parametrize("other", ["Ada", "ADA", "Àda"])
def test_a_name_that_is_taken_or_looks_the_same_is_refused(client: TestClient, other: str) -> None:
    sign_up(client)
    client.cookies.clear()
    response = client.post("/api/account/signup", json={"name": other, "password": PASSWORD})
    assert response.status_code == 409 and response.json()["error"] == "name_taken"


def test_a_wrong_name_and_a_wrong_password_get_the_same_answer(client: TestClient) -> None:
    sign_up(client)
    client.cookies.clear()
    wrong_password = sign_in(client, "Ada", "not the pass phrase")
    nobody = sign_in(client, "Nobody", PASSWORD)
    assert wrong_password.status_code == nobody.status_code == 401
    assert wrong_password.json() == nobody.json()
    assert nobody.json()["error"] == "bad_sign_in"
    assert session(client) is None


def test_signing_in_makes_a_new_session_and_ends_the_old(client: TestClient) -> None:
    sign_up(client)
    first = client.cookies[COOKIE]
    response = sign_in(client, "ada")  # the name in any case
    assert response.status_code == 200 and response.json()["account"]["name"] == "Ada"
    second = client.cookies[COOKIE]
    assert second != first
    client.cookies.set(COOKIE, first)
    assert session(client) is None  # the old session id is no more
    client.cookies.set(COOKIE, second)
    assert session(client)["name"] == "Ada"


def test_signing_out_ends_the_session_on_the_server(client: TestClient) -> None:
    sign_up(client)
    secret = client.cookies[COOKIE]
    response = client.post("/api/account/signout")
    assert response.status_code == 204
    assert COOKIE not in client.cookies
    client.cookies.set(COOKIE, secret)  # a copy of the cookie kept elsewhere
    assert session(client) is None


def test_changing_the_password_ends_every_other_session(tmp_path: Path) -> None:
    with app_client(tmp_path) as phone, app_client(tmp_path) as laptop:
        sign_up(phone)
        assert sign_in(laptop).status_code == 200
        wrong = phone.post("/api/account/password", json={"old": "wrong guess", "new": "x" * 9})
        assert wrong.status_code == 403 and wrong.json()["error"] == "wrong_password"
        weak = phone.post("/api/account/password", json={"old": PASSWORD, "new": "short"})
        assert weak.status_code == 422 and weak.json()["error"] == "weak_password"
        new = "another pass phrase"
        changed = phone.post("/api/account/password", json={"old": PASSWORD, "new": new})
        assert changed.status_code == 204
        assert session(phone)["name"] == "Ada"
        assert session(laptop) is None
        assert sign_in(laptop).status_code == 401
        assert sign_in(laptop, password=new).status_code == 200


def test_settings_keep_the_language(client: TestClient) -> None:
    sign_up(client)
    response = client.put("/api/account/settings", json={"language": "de"})
    assert response.status_code == 200
    assert response.json() == {"account": {"name": "Ada", "settings": {"language": "de"}}}
    assert session(client)["settings"] == {"language": "de"}
    bad = client.put("/api/account/settings", json={"language": "xx"})
    assert bad.status_code == 422 and bad.json()["error"] == "bad_settings"
    unknown = client.put("/api/account/settings", json={"colour": "red"})
    assert unknown.status_code == 422
    assert session(client)["settings"] == {"language": "de"}


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/api/account/tables", None),
        ("get", "/api/account/data", None),
        ("put", "/api/account/settings", {"language": "de"}),
        ("post", "/api/account/password", {"old": PASSWORD, "new": "y" * 10}),
        ("post", "/api/account/delete", {"password": PASSWORD}),
        ("post", "/api/tables/nope/seat", None),
    ],
)
def test_account_routes_need_a_session(
    client: TestClient, method: str, path: str, body: Any
) -> None:
    response = client.request(method, path, json=body)
    assert response.status_code == 401 and response.json()["error"] == "not_signed_in"


def test_joining_signed_in_seats_the_account_and_marks_it(client: TestClient) -> None:
    sign_up(client)
    table = make_table(client, [None, None])
    response = client.post(f"/api/tables/{table['id']}/join", json={"name": "Anything"})
    assert response.status_code == 200
    seats = response.json()["table"]["seats"]
    assert seats[0]["name"] == "Ada" and seats[0]["account"] is True
    assert seats[1]["account"] is False
    again = client.post(f"/api/tables/{table['id']}/join", json={"name": "Ada"})
    assert again.status_code == 409 and again.json()["error"] == "already_seated"
    client.cookies.clear()
    guest = client.post(f"/api/tables/{table['id']}/join", json={"name": " ADA "})
    assert guest.status_code == 409 and guest.json()["error"] == "name_taken"
    assert "sign in" in guest.json()["message"]
    join(client, table["id"], "Bea")
    info = client.get(f"/api/tables/{table['id']}").json()
    assert [(s["name"], s["account"]) for s in info["seats"]] == [("Ada", True), ("Bea", False)]


def test_a_guided_game_seats_the_signed_in_learner(client: TestClient) -> None:
    sign_up(client)
    response = client.post("/api/tutorials", json={"game": "pickomino", "name": "x"})
    assert response.status_code == 201
    assert response.json()["table"]["seats"][0]["name"] == "Ada"
    assert response.json()["table"]["seats"][0]["account"] is True
    client.cookies.clear()
    guest = client.post("/api/tutorials", json={"game": "pickomino", "name": "ada"})
    assert guest.status_code == 409 and guest.json()["error"] == "name_taken"


def test_guest_seats_of_this_browser_become_the_accounts(client: TestClient) -> None:
    table = make_table(client, [None, "greedy"])
    token = join(client, table["id"], "Guest")
    other = make_table(client, [None, "greedy"])
    sign_up(
        client,
        seats=[
            {"table": table["id"], "token": token},
            {"table": other["id"], "token": "not a token"},
            {"table": "nope", "token": token},
        ],
    )
    seats = client.get(f"/api/tables/{table['id']}").json()["seats"]
    assert seats[0] == {**seats[0], "name": "Ada", "account": True}
    assert client.get(f"/api/tables/{other['id']}").json()["seats"][0]["open"] is True
    mine = client.get("/api/account/tables").json()
    assert [(t["table"], t["seat"]) for t in mine] == [(table["id"], 0)]
    with client.websocket_connect(f"/api/tables/{table['id']}/ws?token={token}") as ws:
        assert first_state(ws)["you"] == 0  # the guest token still holds the seat


def test_my_tables_say_whose_turn_it_is(client: TestClient) -> None:
    sign_up(client)
    assert client.get("/api/account/tables").json() == []
    table = make_table(client, [None, None])
    client.post(f"/api/tables/{table['id']}/join", json={"name": "x"})
    waiting = client.get("/api/account/tables").json()
    assert waiting[0]["to_move"] is None and waiting[0]["your_turn"] is False
    client.cookies.clear()
    join(client, table["id"], "Bea")
    assert sign_in(client).status_code == 200
    (mine,) = client.get("/api/account/tables").json()
    assert mine["table"] == table["id"] and mine["game"] == "pickomino"
    assert mine["players"] == ["Ada", "Bea"]
    assert mine["to_move"] == "Ada" and mine["your_turn"] is True
    assert isinstance(mine["version"], int) and isinstance(mine["updated"], float)


def test_the_account_takes_its_seat_back_on_another_device(client: TestClient) -> None:
    sign_up(client)
    table = make_table(client, [None, "greedy"])
    old = client.post(f"/api/tables/{table['id']}/join", json={"name": "x"}).json()["token"]
    client.cookies.clear()  # another device: no token, no cookie yet
    assert sign_in(client).status_code == 200
    with client.websocket_connect(f"/api/tables/{table['id']}/ws") as ws:
        assert first_state(ws)["you"] == 0  # the cookie and no token: the account's seat
    fresh = client.post(f"/api/tables/{table['id']}/seat")
    assert fresh.status_code == 200 and fresh.json()["seat"] == 0
    token = fresh.json()["token"]
    assert token != old
    signed_in = client.cookies[COOKIE]
    client.cookies.clear()
    with client.websocket_connect(f"/api/tables/{table['id']}/ws?token={token}") as ws:
        assert first_state(ws)["you"] == 0
    with client.websocket_connect(f"/api/tables/{table['id']}/ws?token={old}") as ws:
        assert receive_state(ws)["code"] == "bad_token"  # the old token was replaced
    with client.websocket_connect(f"/api/tables/{table['id']}/ws") as ws:
        assert first_state(ws)["you"] is None  # no cookie, no token: a spectator
    client.cookies.set(COOKIE, signed_in)
    nowhere = client.post(f"/api/tables/{make_table(client, [None, None])['id']}/seat")
    assert nowhere.status_code == 404 and nowhere.json()["error"] == "no_seat_here"


def test_the_data_download_is_a_json_file_of_everything_kept(client: TestClient) -> None:
    sign_up(client)
    client.put("/api/account/settings", json={"language": "fr"})
    table = make_table(client, [None, "greedy"])
    client.post(f"/api/tables/{table['id']}/join", json={"name": "x"})
    response = client.get("/api/account/data")
    assert response.status_code == 200
    assert response.headers["content-disposition"].startswith("attachment;")
    data = json.loads(response.content)
    assert data["name"] == "Ada" and data["settings"] == {"language": "fr"}
    assert isinstance(data["created"], float)
    assert data["tables"] == [
        {
            "table": table["id"],
            "game": "pickomino",
            "seat": 0,
            "name": "Ada",
            "left": False,
            "finished": False,
            "result": None,
        }
    ]


def test_deleting_the_account_gives_up_its_seats_and_forgets_its_name(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        sign_up(client)
        playing = make_table(client, [None, "greedy"])
        client.post(f"/api/tables/{playing['id']}/join", json={"name": "x"})
        waiting = make_table(client, [None, None])
        client.post(f"/api/tables/{waiting['id']}/join", json={"name": "x"})
        with client.websocket_connect(f"/api/tables/{playing['id']}/ws") as ws:
            first_state(ws)
            ws.send_json({"type": "chat", "text": "hello"})
            refused = client.post("/api/account/delete", json={"password": "wrong guess"})
            assert refused.status_code == 403 and refused.json()["error"] == "wrong_password"
            response = client.post("/api/account/delete", json={"password": PASSWORD})
            assert response.status_code == 204
        assert session(client) is None
        seat = client.get(f"/api/tables/{playing['id']}").json()["seats"][0]
        assert seat["name"] == FORMER_PLAYER and seat["replaced"] and not seat["account"]
        assert client.get(f"/api/tables/{waiting['id']}").json()["seats"][0]["open"]
        assert sign_in(client).status_code == 401
        sign_up(client)  # the name is free again
    engine = create_engine(db_url(tmp_path))
    with engine.connect() as db:
        assert db.execute(select(ACCOUNTS.c.name)).scalars().all() == ["Ada"]  # the new one
        names = db.execute(select(SEATS.c.name).where(SEATS.c.table_id == playing["id"]))
        assert FORMER_PLAYER in names.scalars().all()
        talk = db.execute(select(CHAT.c.name).where(CHAT.c.table_id == playing["id"]))
        assert set(talk.scalars().all()) <= {FORMER_PLAYER}
    engine.dispose()


def test_sessions_expire_after_the_idle_time(tmp_path: Path) -> None:
    clock = ManualClock()
    with app_client(tmp_path, clock) as client:
        sign_up(client)
        clock.advance(29 * 24 * 3600.0)
        assert session(client)["name"] == "Ada"  # used: the idle time starts again
        clock.advance(29 * 24 * 3600.0)
        assert session(client)["name"] == "Ada"
        clock.advance(30 * 24 * 3600.0 + 1)
        assert session(client) is None
        assert COOKIE not in client.cookies  # the answer cleared the cookie


def test_a_session_is_marked_used_only_now_and_then(tmp_path: Path) -> None:
    clock = ManualClock()
    with app_client(tmp_path, clock) as client:
        sign_up(client)
        engine = create_engine(db_url(tmp_path))

        def last_used() -> float:
            with engine.connect() as db:
                return float(db.execute(select(SESSIONS.c.last_used)).scalar_one())

        made = last_used()
        clock.advance(600)
        assert session(client)["name"] == "Ada"
        assert last_used() == made  # within the refresh interval: no write
        clock.advance(3600)
        assert session(client)["name"] == "Ada"
        assert last_used() == made + 4200
        engine.dispose()


def test_the_site_hashes_passwords_at_its_full_cost(tmp_path: Path) -> None:
    from spieltisch.server.accounts.passwords import DEFAULT_COST

    with app_client(tmp_path, password_cost=DEFAULT_COST) as full:
        sign_up(full)
        assert sign_in(full, "Ada", PASSWORD).status_code == 200
        engine = create_engine(db_url(tmp_path, "tables"))
        with engine.connect() as db:
            stored = db.execute(select(ACCOUNTS.c.password_hash)).scalar_one()
        engine.dispose()
    cost = DEFAULT_COST
    assert f"$m={cost.memory_kib},t={cost.time_cost},p={cost.parallelism}$" in stored


def test_a_name_without_an_account_costs_a_dummy_hash(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from spieltisch.server.accounts import passwords, service

    checked: list[str] = []
    real_nobody, real_verify = passwords.verify_nobody, passwords.verify_password

    def nobody(password: str, cost: passwords.PasswordCost) -> Any:
        checked.append("dummy")
        return real_nobody(password, cost)

    def verify(stored: str, password: str, cost: passwords.PasswordCost) -> Any:
        checked.append("account")
        return real_verify(stored, password, cost)

    monkeypatch.setattr(service, "verify_nobody", nobody)
    monkeypatch.setattr(service, "verify_password", verify)
    sign_up(client)
    assert sign_in(client, "Nobody", PASSWORD).status_code == 401
    assert sign_in(client, "Ada", "a wrong guess").status_code == 401
    assert checked == ["dummy", "account"]


def test_a_guided_game_left_is_not_among_my_tables(client: TestClient) -> None:
    sign_up(client)
    joined = client.post("/api/tutorials", json={"game": "pickomino", "name": "x"}).json()
    table_id = joined["table"]["id"]
    assert [t["table"] for t in client.get("/api/account/tables").json()] == [table_id]
    left = client.post(f"/api/tables/{table_id}/leave", json={"token": joined["token"]})
    assert left.status_code == 200
    assert client.get("/api/account/tables").json() == []
