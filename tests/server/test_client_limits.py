"""How often a seat may change hands, and how many WebSockets one address may hold and open:
each limit is a setting of `serve` and each refusal says what was refused and for how long."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidMessage, InvalidStatus
from websockets.sync.client import connect

from spieltisch.server import create_app
from spieltisch.server.limits import RECONNECT_SPAN, Limits, SeatChanges, SocketQuota
from spieltisch.server.table import TableError
from tests.server.database import db_url
from tests.server.helpers import (
    TestClient,
    WebSocketDenialResponse,
    join,
    make_table,
    receive_state,
    threads,
)
from tests.server.live import free_port, launch, start_server

TIMEOUT = 30.0  # liveness only


def client_with(path: Path, limits: Limits) -> TestClient:
    app = create_app(
        db_url(path, "client_limits"), bot_delay=0.0, executor=threads(), limits=limits
    )
    return TestClient(app)


@pytest.fixture
def seats_client(tmp_path: Path) -> Iterator[TestClient]:
    with client_with(tmp_path, Limits(seat_changes_per_minute=4)) as client:
        yield client


def leave(client: TestClient, table_id: str, token: str) -> httpx.Response:
    response: httpx.Response = client.post(f"/api/tables/{table_id}/leave", json={"token": token})
    return response


def test_a_seat_that_changed_hands_too_often_cannot_be_joined(seats_client: TestClient) -> None:
    table_id = make_table(seats_client, [None, None])["id"]
    for _ in range(2):  # four changes at the first seat: join, leave, join, leave
        assert leave(seats_client, table_id, join(seats_client, table_id, "Ada", 0)).is_success
    version = seats_client.get(f"/api/tables/{table_id}").json()["version"]
    for seat in (0, None):  # asked for, or the first free seat
        again = seats_client.post(
            f"/api/tables/{table_id}/join", json={"name": "Ada", "seat": seat}
        )
        assert again.status_code == 429, again.text
        assert again.json()["error"] == "too_many_seat_changes"
        assert "4 times in the last minute" in again.json()["message"]
        assert "try again in" in again.json()["message"]
    assert seats_client.get(f"/api/tables/{table_id}").json()["version"] == version
    token = join(seats_client, table_id, "Bea", 1)  # another seat is not counted
    assert leave(seats_client, table_id, token).is_success  # and leaving is never refused


def test_seat_changes_are_forgotten_after_a_minute() -> None:
    changes = SeatChanges(per_minute=2)
    table: Any = SimpleNamespace(id="T", seats=[SimpleNamespace(seat=0, bot=None, name=None)])
    changes.note("T", 0, now=100.0)
    changes.note("T", 0, now=110.0)
    with pytest.raises(TableError, match="try again in 40 s"):
        changes.check_join(table, None, now=120.0)
    changes.check_join(table, None, now=160.5)  # the first change is over a minute old
    SeatChanges(per_minute=0).check_join(table, 0, now=120.0)  # 0: no limit


def test_open_sockets_per_address_are_limited() -> None:
    quota = SocketQuota(most_open=2, per_second=0)
    quota.admit("a", 0.0)
    quota.admit("a", 0.0)
    with pytest.raises(TableError, match="At most 2 open connections"):
        quota.admit("a", 0.0)
    quota.admit("b", 0.0)  # another address has its own count
    quota.release("a")
    quota.admit("a", 0.0)
    quota.admit(None, 0.0)  # no address known: not counted


def test_new_sockets_per_address_are_limited_on_average() -> None:
    quota = SocketQuota(most_open=0, per_second=2)
    burst = int(2 * RECONNECT_SPAN)
    for _ in range(burst):  # a burst gets in at once
        quota.admit("a", 50.0)
    with pytest.raises(TableError) as refused:
        quota.admit("a", 50.0)
    assert refused.value.code == "too_many_reconnects"
    assert "At most 2 new connections a second" in refused.value.message
    quota.admit("b", 50.0)
    quota.admit("a", 50.5)  # half a second later one more is due
    with pytest.raises(TableError):
        quota.admit("a", 50.5)


def test_an_address_refused_faster_than_its_rate_is_shut_out_until_it_slows() -> None:
    quota = SocketQuota(most_open=0, per_second=2)
    budget = int(2 * RECONNECT_SPAN)
    for _ in range(budget):  # its bucket of new sockets runs dry
        quota.admit("a", 50.0)
    for _ in range(budget):  # refused, and told why, as often as it may open sockets
        assert not quota.shut_out("a", 50.0)
        assert quota.refuse("a", 50.0) is not None
    assert quota.shut_out("a", 50.0), "refused faster than it may connect"
    assert not quota.shut_out("b", 50.0), "another address is not counted with it"
    assert quota.refusal("b", 50.0) is None
    assert not quota.shut_out("a", 50.5), "half a second later one more may try"
    quota.admit("a", 50.5)  # and gets in: its bucket of new sockets has refilled as well
    assert quota.refuse("a", 50.5) is not None
    assert quota.shut_out("a", 50.5)
    assert not quota.shut_out("a", 50.0 + 2 * RECONNECT_SPAN)


def test_a_socket_over_the_address_limit_is_refused_before_its_handshake(
    tmp_path: Path,
) -> None:
    with client_with(tmp_path, Limits(sockets_per_address=2)) as client:
        table_id = make_table(client, [None, None])["id"]
        url = f"/api/tables/{table_id}/ws"
        with client.websocket_connect(url) as first, client.websocket_connect(url) as second:
            assert receive_state(first)["type"] == receive_state(second)["type"] == "state"
            third = client.websocket_connect(url, subprotocols=["spieltisch"])
            with pytest.raises(WebSocketDenialResponse) as refused, third:
                pass
        assert refused.value.status_code == 429
        assert refused.value.json()["error"] == "too_many_sockets"
        assert "At most 2 open connections" in refused.value.json()["message"]
        assert refused.value.headers["retry-after"] == "1"
        with client.websocket_connect(url) as again:  # the two have closed
            assert receive_state(again)["type"] == "state"


def test_a_socket_over_the_reconnect_rate_is_told_when_to_try_again(tmp_path: Path) -> None:
    with client_with(tmp_path, Limits(reconnects_per_second=1)) as client:
        url = f"/api/tables/{make_table(client, [None, None])['id']}/ws"
        for _ in range(int(RECONNECT_SPAN)):  # the burst gets in
            with client.websocket_connect(url) as ws:
                assert receive_state(ws)["type"] == "state"
        with pytest.raises(WebSocketDenialResponse) as refused, client.websocket_connect(url):
            pass
    assert refused.value.status_code == 429
    assert refused.value.json()["error"] == "too_many_reconnects"
    assert refused.value.headers["retry-after"] == "1"
    assert "try again in 1 s" in refused.value.json()["message"]


@pytest.mark.slow  # a real serve process
def test_serve_takes_the_limits_as_options(tmp_path: Path) -> None:
    options = ["--sockets-per-address", "1", "--reconnects-per-second", "1"]
    options += ["--seat-changes-per-minute", "2"]
    with start_server(tmp_path, extra=options) as server, httpx.Client(timeout=TIMEOUT) as http:
        body = {"game": "pickomino", "seats": [{"bot": None}, {"bot": None}]}
        table_id = http.post(server.url + "api/tables", json=body).json()["id"]
        token = http.post(f"{server.url}api/tables/{table_id}/join", json={"name": "Ada"})
        http.post(f"{server.url}api/tables/{table_id}/leave", json=token.json())
        again = http.post(f"{server.url}api/tables/{table_id}/join", json={"name": "Ada"})
        assert again.status_code == 429 and again.json()["error"] == "too_many_seat_changes"
        address = server.url.replace("http", "ws", 1) + f"api/tables/{table_id}/ws"
        with connect(address, open_timeout=TIMEOUT) as held:
            assert json.loads(held.recv(timeout=TIMEOUT))["type"] == "state"
            assert first_answer(address) == ("too_many_sockets", 429)
        # one socket a second over 10 s: the held one and 9 more get in at once, then one a
        # second (a busy machine may take longer than that for each attempt: try on until refused)
        refused = ("too_many_reconnects", 429)
        answers: list[tuple[str, int | None]] = []
        while refused not in answers and len(answers) < 100:
            answers.append(first_answer(address))
    assert refused in answers, answers
    assert ("state", None) in answers[: answers.index(refused)], answers
    assert set(answers) <= {("state", None), refused, ("too_many_sockets", 429)}, answers


@pytest.mark.slow  # a real serve process
def test_refused_sockets_leave_the_log_alone(tmp_path: Path) -> None:
    """A storm of refused sockets must not write a line for each."""
    log = tmp_path / "server.log"
    server = launch(tmp_path / "data", free_port(), 0.0, ["--reconnects-per-second", "1"], log)
    try:
        body = {"game": "pickomino", "seats": [{"bot": None}, {"bot": None}]}
        table_id = httpx.post(server.url + "api/tables", json=body, timeout=TIMEOUT).json()["id"]
        address = server.url.replace("http", "ws", 1) + f"api/tables/{table_id}/ws"
        answers: list[tuple[str, int | None]] = []
        while answers.count(("too_many_reconnects", 429)) < 3 and len(answers) < 100:
            answers.append(first_answer(address))
    finally:
        server.process.terminate()
        server.process.wait(timeout=TIMEOUT)
    assert answers.count(("too_many_reconnects", 429)) == 3, answers
    said = log.read_text(errors="replace")
    assert "ERROR" not in said and "Traceback" not in said, said


@pytest.mark.slow  # a real serve process
def test_an_address_that_ignores_its_refusals_is_closed_unanswered(tmp_path: Path) -> None:
    """Refused faster than its reconnect rate, an address's new connections are closed as
    they are accepted, with no answer; another address is served as before."""
    with start_server(tmp_path, extra=["--reconnects-per-second", "1"]) as server:
        body = {"game": "pickomino", "seats": [{"bot": None}, {"bot": None}]}
        table_id = httpx.post(server.url + "api/tables", json=body, timeout=TIMEOUT).json()["id"]
        address = server.url.replace("http", "ws", 1) + f"api/tables/{table_id}/ws"
        answers: list[tuple[str, int | None]] = []
        while ("closed", None) not in answers and len(answers) < 200:
            answers.append(first_answer(address, source="127.0.0.9"))
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.10")) as other:
            assert other.get(server.url + "api/games", timeout=TIMEOUT).status_code == 200
        assert first_answer(address, source="127.0.0.10") == ("state", None)
    assert ("closed", None) in answers, answers
    closed_at = answers.index(("closed", None))
    assert answers[:closed_at].count(("too_many_reconnects", 429)) >= int(RECONNECT_SPAN)


def first_answer(address: str, source: str | None = None) -> tuple[str, int | None]:
    """The type of the first message on a new socket (None: it was let in, and is closed
    here), or the error code and HTTP status of the answer that refused its handshake, or
    "closed" when the server closed the connection without an answer; from `source`."""
    try:
        with connect(
            address,
            open_timeout=TIMEOUT,
            close_timeout=TIMEOUT,
            source_address=(source, 0) if source else None,
        ) as ws:
            return str(json.loads(ws.recv(timeout=TIMEOUT))["type"]), None
    except (ConnectionError, ConnectionClosed, InvalidMessage):
        return "closed", None
    except InvalidStatus as refused:
        assert refused.response.headers["Content-Type"] == "application/json"
        return str(json.loads(refused.response.body or b"")["error"]), refused.response.status_code


@pytest.mark.parametrize(
    "option", ["--seat-changes-per-minute", "--sockets-per-address", "--reconnects-per-second"]
)
@pytest.mark.slow  # a real serve process
def test_a_negative_limit_is_refused_at_start(tmp_path: Path, option: str) -> None:
    command = [sys.executable, "-m", "spieltisch", "serve", "--data-dir", str(tmp_path)]
    done = subprocess.run([*command, option, "-1"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and f"{option} must be from 0 to" in done.stdout
