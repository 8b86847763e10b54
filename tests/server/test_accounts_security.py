"""Accounts against an attacker: requests and sockets from another site's page, guessing
passwords (throttled per name and per address, across workers), many accounts from one
address (throttled before any hashing), passwords in logs or answers, sessions of a deleted
account, and a cookie taken to another site."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, select
from starlette.websockets import WebSocketDisconnect

from spieltisch.server.accounts.sessions import SIGN_UPS_PER_ADDRESS, AccountSettings
from spieltisch.server.accounts.store import AccountStore
from spieltisch.server.clock import ManualClock
from spieltisch.server.schema import ACCOUNTS, SESSIONS, SIGN_IN_FAILURES
from tests.server.accounts import COOKIE, PASSWORD, SITE, app_client, sign_in, sign_up
from tests.server.database import db_url
from tests.server.helpers import TestClient, make_table
from tests.server.sites import shared_db

FOREIGN = "http://evil.example"
ELSEWHERE = "203.0.113.7"
"""Another client address than the test client's own."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path) as test_client:
        yield test_client


def account(client: TestClient) -> Any:
    return client.get("/api/session").json()["account"]


def try_sign_up(client: TestClient, name: str, password: str = PASSWORD) -> Any:
    return client.post("/api/account/signup", json={"name": name, "password": password})


def account_names(folder: Path) -> list[str]:
    engine = create_engine(db_url(folder))
    with engine.connect() as db:
        names = sorted(db.execute(select(ACCOUNTS.c.name)).scalars())
    engine.dispose()
    return names


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The passwords the server hashes from now on, in order."""
    from spieltisch.server.accounts import passwords, service

    seen: list[str] = []
    real_hash = passwords.hash_password

    def counting(password: str, cost: passwords.PasswordCost = passwords.DEFAULT_COST) -> str:
        seen.append(password)
        return real_hash(password, cost)

    monkeypatch.setattr(service, "hash_password", counting)
    return seen


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("post", "/api/account/signout", None),
        ("post", "/api/account/password", {"old": PASSWORD, "new": "taken over!"}),
        ("post", "/api/account/delete", {"password": PASSWORD}),
        ("put", "/api/account/settings", {"language": "nl"}),
        ("post", "/api/tables", {"game": "pickomino", "seats": [{}, {}]}),
        ("post", "/api/account/signin", {"name": "Ada", "password": PASSWORD}),
    ],
)
@pytest.mark.parametrize("where", [{"origin": FOREIGN}, {"referer": FOREIGN + "/page"}, {}])
def test_a_foreign_page_cannot_act_with_the_cookie(
    client: TestClient, method: str, path: str, body: Any, where: dict[str, str]
) -> None:
    sign_up(client)
    del client.headers["origin"]
    response = client.request(method, path, json=body, headers=where)
    assert response.status_code == 403 and response.json()["error"] == "foreign_origin"
    client.headers["origin"] = SITE
    assert account(client) == {"name": "Ada", "settings": {}}  # nothing changed
    assert client.get("/api/tables").json() == []


def test_the_sites_own_page_may_act_by_origin_referer_or_a_named_origin(tmp_path: Path) -> None:
    proxy = "https://games.example"
    with app_client(tmp_path, settings=AccountSettings(origins=(proxy,))) as client:
        sign_up(client)
        del client.headers["origin"]
        for where in ({"referer": SITE + "/#/lobby"}, {"origin": proxy + "/"}):
            response = client.put("/api/account/settings", json={"language": "it"}, headers=where)
            assert response.status_code == 200, (where, response.text)
        client.cookies.clear()  # without the cookie nothing is the account's: no check
        assert client.post("/api/account/signout", headers={"origin": FOREIGN}).status_code == 204


def test_a_foreign_page_gets_no_socket_with_the_cookie(client: TestClient) -> None:
    sign_up(client)
    table = make_table(client, [None, "greedy"])
    client.post(f"/api/tables/{table['id']}/join", json={"name": "x"})
    url = f"/api/tables/{table['id']}/ws"
    with client.websocket_connect(url, headers={"origin": FOREIGN}) as ws:
        refusal = ws.receive_json()
        assert refusal["code"] == "foreign_origin"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    with client.websocket_connect(url, headers={"origin": SITE}) as ws:
        assert ws.receive_json()["you"] == 0


def test_twenty_wrong_passwords_are_throttled(tmp_path: Path) -> None:
    clock = ManualClock()
    with app_client(tmp_path, clock) as client:
        sign_up(client)
        client.cookies.clear()
        answers = [sign_in(client, password=f"wrong guess {n}") for n in range(20)]
        codes = [a.json()["error"] for a in answers]
        assert codes[:10] == ["bad_sign_in"] * 10
        assert codes[10:] == ["too_many_sign_ins"] * 10
        throttled = answers[-1]
        assert throttled.status_code == 429
        assert 0 < throttled.json()["retry_after"] <= 15 * 60
        assert f"{throttled.json()['retry_after']} s" in throttled.json()["message"]
        assert sign_in(client).status_code == 429  # the right password waits too
        clock.advance(throttled.json()["retry_after"] + 1)
        assert sign_in(client).status_code == 200


def test_one_address_guessing_many_names_is_throttled(tmp_path: Path) -> None:
    settings = AccountSettings(failures_per_name=100, failures_per_address=5)
    with app_client(tmp_path, settings=settings) as client:
        codes = [sign_in(client, f"name{n}").json()["error"] for n in range(7)]
        assert codes == ["bad_sign_in"] * 5 + ["too_many_sign_ins"] * 2


def test_one_address_making_many_accounts_waits_and_the_wait_costs_no_hash(
    tmp_path: Path, hashed: list[str]
) -> None:
    """Two workers of one database count the address's sign-ups together; another address
    is not held back; after the window the address may sign up again."""
    clock = ManualClock()
    with (
        app_client(tmp_path, clock) as one,
        app_client(tmp_path, clock) as two,
        app_client(tmp_path, clock, address=ELSEWHERE) as elsewhere,
    ):
        made = [f"Ada{n}" for n in range(SIGN_UPS_PER_ADDRESS)]
        for n, name in enumerate(made):
            sign_up(one if n % 2 else two, name)
            clock.advance(10)
        hashed.clear()
        refused = try_sign_up(one, "Bea")
        assert refused.status_code == 429 and refused.json()["error"] == "too_many_sign_ups"
        retry = refused.json()["retry_after"]
        assert retry == 15 * 60 - 10 * SIGN_UPS_PER_ADDRESS  # until the oldest leaves the window
        assert f"{retry} s" in refused.json()["message"]
        assert try_sign_up(two, "Bea").status_code == 429
        assert hashed == [] and account_names(tmp_path) == sorted(made)
        sign_up(elsewhere, "Cyd")
        clock.advance(retry - 1)
        assert try_sign_up(one, "Bea").json()["retry_after"] == 1
        clock.advance(1)
        sign_up(one, "Bea")
        assert try_sign_up(two, "Dan").status_code == 429  # as many in the window again


def test_refused_sign_ups_do_not_count(tmp_path: Path, hashed: list[str]) -> None:
    settings = AccountSettings(sign_ups_per_address=2)
    with app_client(tmp_path, settings=settings) as client:
        sign_up(client, "Ada")
        codes = [
            try_sign_up(client, "-Bea-").json()["error"],
            try_sign_up(client, "Bea", "short").json()["error"],
            try_sign_up(client, "ADA").json()["error"],
        ]
        assert codes == ["bad_name", "weak_password", "name_taken"]
        sign_up(client, "Bea")
        assert try_sign_up(client, "Cyd").json()["error"] == "too_many_sign_ups"
    assert hashed == [PASSWORD, PASSWORD]  # the two accounts made, nothing for the refusals


def test_sign_ups_sent_at_once_do_not_pass_the_limit_together(tmp_path: Path) -> None:
    settings = AccountSettings(sign_ups_per_address=3)
    with app_client(tmp_path, settings=settings) as client, ThreadPoolExecutor(8) as senders:
        answers = list(senders.map(lambda n: try_sign_up(client, f"Ada{n}"), range(8)))
    codes = sorted(a.json()["error"] if a.status_code != 201 else "made" for a in answers)
    assert codes == ["made"] * 3 + ["too_many_sign_ups"] * 5
    assert len(account_names(tmp_path)) == 3


def test_no_limit_on_sign_ups_when_it_is_zero(tmp_path: Path) -> None:
    with app_client(tmp_path, settings=AccountSettings(sign_ups_per_address=0)) as client:
        for n in range(2 * SIGN_UPS_PER_ADDRESS):
            sign_up(client, f"Ada{n}")


def test_forgetting_old_events_of_one_kind_keeps_the_other_kinds(tmp_path: Path) -> None:
    """Failed sign-ins and sign-ups share a table; each kind is forgotten on its own, so a
    kind counted over a longer window keeps its rows when another kind's old ones go."""
    with app_client(tmp_path):
        pass  # the database, made
    engine = create_engine(db_url(tmp_path))
    store = AccountStore(engine)
    store.record(["signup:" + ELSEWHERE], now=100.0, forget_before=0.0)
    store.record(["name:ada", "address:" + ELSEWHERE], now=100.0, forget_before=0.0)
    store.record(["name:bea"], now=500.0, forget_before=400.0)
    with engine.connect() as db:
        keys = sorted(db.execute(select(SIGN_IN_FAILURES.c.key)).scalars())
    assert keys == ["address:" + ELSEWHERE, "name:bea", "signup:" + ELSEWHERE]
    store.record(["signup:" + ELSEWHERE], now=500.0, forget_before=400.0)
    assert store.recorded(["signup:" + ELSEWHERE], since=0.0, most=10) == {
        "signup:" + ELSEWHERE: [500.0]
    }
    engine.dispose()


def test_neither_password_nor_hash_is_logged_or_answered(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    new = "a fresh pass phrase"
    answers: list[str] = []
    with app_client(tmp_path) as client:
        for response in (
            client.post("/api/account/signup", json={"name": "Ada", "password": PASSWORD}),
            sign_in(client, password="wrong guess"),
            sign_in(client),
            client.get("/api/session"),
            client.get("/api/account/data"),
            client.post("/api/account/password", json={"old": PASSWORD, "new": new}),
            client.put("/api/account/settings", json={"language": "en"}),
            client.post("/api/account/signup", json={"name": "Ada", "password": new}),
        ):
            answers.append(response.text + str(response.headers))
    engine = create_engine(db_url(tmp_path))
    with engine.connect() as db:
        (stored,) = db.execute(select(ACCOUNTS.c.password_hash)).scalars().all()
        session_hashes = db.execute(select(SESSIONS.c.id_hash)).scalars().all()
    engine.dispose()
    assert stored.startswith("$argon2id$")
    assert client.cookies[COOKIE] not in session_hashes  # only the secret's digest is kept
    said = "\n".join(answers) + "\n".join(r.getMessage() for r in caplog.records)
    for secret in (PASSWORD, new, stored, stored.rsplit("$", 1)[-1]):
        assert secret not in said


def test_a_deleted_accounts_sessions_end_at_once(tmp_path: Path) -> None:
    with app_client(tmp_path) as phone, app_client(tmp_path) as laptop:
        sign_up(phone)
        assert sign_in(laptop).status_code == 200
        assert phone.post("/api/account/delete", json={"password": PASSWORD}).status_code == 204
        assert account(laptop) is None
        assert laptop.get("/api/account/tables").status_code == 401


def test_a_cookie_of_one_site_is_nothing_at_another(tmp_path: Path) -> None:
    with app_client(tmp_path, name="one") as one, app_client(tmp_path, name="two") as two:
        sign_up(one)
        sign_up(two, "Bea")
        two.cookies.set(COOKIE, one.cookies[COOKIE])
        assert account(two) is None
        assert two.get("/api/account/tables").status_code == 401


@pytest.mark.slow
@pytest.mark.postgres
def test_wrong_passwords_are_counted_across_workers(tmp_path: Path) -> None:
    """Two workers of one database: guesses spread over both are counted together."""
    url = shared_db(tmp_path)
    clock = ManualClock()
    from spieltisch.server import create_app
    from tests.server.helpers import threads

    def worker() -> TestClient:
        app = create_app(url, bot_delay=0.0, executor=threads(), clock=clock)
        return TestClient(app, headers={"origin": SITE})

    with worker() as a, worker() as b:
        sign_up(a)
        a.cookies.clear()
        codes = [
            sign_in(a if n % 2 else b, password=f"wrong {n}").json()["error"] for n in range(20)
        ]
        assert codes == ["bad_sign_in"] * 10 + ["too_many_sign_ins"] * 10
        assert sign_in(b).status_code == 429 and sign_in(a).status_code == 429


def test_a_right_password_clears_its_names_count(tmp_path: Path) -> None:
    settings = AccountSettings(failures_per_name=3, failures_per_address=100)
    with app_client(tmp_path, settings=settings) as client:
        sign_up(client)
        codes = [sign_in(client, password="wrong guess").json()["error"] for _ in range(2)]
        assert sign_in(client).status_code == 200
        codes += [sign_in(client, password="wrong guess").json()["error"] for _ in range(4)]
        assert codes == ["bad_sign_in"] * 5 + ["too_many_sign_ins"]
