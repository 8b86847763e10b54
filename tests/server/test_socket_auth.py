"""A seat's WebSocket carries its token in a subprotocol header, never in the URL."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.helpers import TestClient, client_for, join, make_table, receive_state
from tests.server.live import CHROMIUM, LiveServer, chromium, start_server

TCHAR = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""A token of RFC 7230 (section 3.2.6): what RFC 6455 allows as a subprotocol name."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path) as test_client:
        yield test_client


def seated(client: TestClient) -> tuple[str, str]:
    table = make_table(client, [None, "random"])
    return table["id"], join(client, table["id"], "Ana")


def first_state(ws: Any) -> dict[str, Any]:
    while True:
        message = receive_state(ws)
        if message["type"] == "state":
            return message


def test_a_seat_named_by_its_subprotocol_plays(client: TestClient) -> None:
    table_id, token = seated(client)
    offered = ["spieltisch", f"token.{token}"]
    with client.websocket_connect(f"/api/tables/{table_id}/ws", subprotocols=offered) as ws:
        assert ws.accepted_subprotocol == "spieltisch"
        state = first_state(ws)
        assert state["you"] == 0
        while state["to_move"] != 0:  # the bot may start
            state = first_state(ws)
        action = state["view"]["legal_actions"][0]
        ws.send_json({"type": "action", "action": action, "version": state["version"]})
        after = first_state(ws)
        assert after["version"] > state["version"]


def test_a_wrong_token_watches_as_a_spectator(client: TestClient) -> None:
    table_id, token = seated(client)
    offered = ["spieltisch", f"token.{token}x"]
    with client.websocket_connect(f"/api/tables/{table_id}/ws", subprotocols=offered) as ws:
        assert ws.accepted_subprotocol == "spieltisch"
        refusal = receive_state(ws)
        assert (refusal["type"], refusal["code"]) == ("error", "bad_token")
        assert first_state(ws)["you"] is None


def test_the_accepted_subprotocol_never_holds_the_token(client: TestClient) -> None:
    table_id, token = seated(client)
    for offered in (["spieltisch", f"token.{token}"], [f"token.{token}", "spieltisch"]):
        with client.websocket_connect(f"/api/tables/{table_id}/ws", subprotocols=offered) as ws:
            assert ws.accepted_subprotocol == "spieltisch"
            assert first_state(ws)["you"] == 0
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:  # nothing offered
        assert ws.accepted_subprotocol is None
        assert first_state(ws)["you"] is None


def test_a_refused_socket_still_speaks_the_subprotocol(client: TestClient) -> None:
    """A browser fails a handshake that accepts none of its subprotocols, and would never
    read why it was refused."""
    with client.websocket_connect("/api/tables/nothing/ws", subprotocols=["spieltisch"]) as ws:
        assert ws.accepted_subprotocol == "spieltisch"
        assert receive_state(ws)["code"] == "no_table"


def test_the_deprecated_query_token_still_seats(client: TestClient) -> None:
    """Pages opened before an upgrade still send `?token=` for a release."""
    table_id, token = seated(client)
    with client.websocket_connect(f"/api/tables/{table_id}/ws?token={token}") as ws:
        assert first_state(ws)["you"] == 0


def test_seat_tokens_are_valid_subprotocol_names(client: TestClient) -> None:
    tokens = [seated(client)[1] for _ in range(20)]
    assert all(TCHAR.fullmatch(f"token.{token}") for token in tokens), tokens


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with start_server(tmp_path_factory.mktemp("socket-auth")) as live:
        yield live


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed")
def test_the_web_client_keeps_the_token_out_of_socket_urls(server: LiveServer) -> None:
    pytest.importorskip("playwright.sync_api")
    with chromium(["--headless=new", "--no-sandbox", "--disable-dev-shm-usage"]) as browser:
        page = browser.new_page()
        page.set_default_timeout(30_000)
        urls: list[str] = []
        page.on("websocket", lambda socket: urls.append(socket.url))
        page.goto(server.url)
        page.wait_for_selector("#make-table")
        page.fill("#name", "Ana")
        page.click("#make-table")
        page.wait_for_selector(".seat.mine")
        tokens = page.evaluate("Object.values(JSON.parse(localStorage['spieltisch.tokens']))")
        page.reload()  # the seat comes back on a new socket
        page.wait_for_selector(".seat.mine")
    assert len(tokens) == 1 and len(urls) >= 2, urls
    assert not any("token" in url or tokens[0] in url for url in urls), urls


@pytest.mark.slow  # a real serve process
def test_through_the_example_proxy_the_header_seats_and_no_token_is_logged(
    tmp_path: Path,
) -> None:
    """A real server behind docs/hosting/nginx.conf: the subprotocol header reaches the
    server, the handshake answers "spieltisch" alone, and the access log holds no token."""
    from websockets.sync.client import connect

    from tests.server.test_nginx_proxy import ACCESS_LOG, TIMEOUT, join, need_nginx, nginx

    need_nginx()
    with start_server(tmp_path / "server") as live, nginx(tmp_path / "nginx", [live]) as url:
        made = httpx.post(url + "api/tables", json={"game": "pickomino", "seats": [{}, {}]})
        table_id = made.json()["id"]
        token = join(url, table_id, "Ana")
        address = url.replace("http", "ws", 1) + f"api/tables/{table_id}/ws"
        offered: list[Any] = ["spieltisch", f"token.{token}"]
        with connect(address, subprotocols=offered, open_timeout=TIMEOUT) as ws:
            assert ws.subprotocol == "spieltisch"
            state = json.loads(ws.recv(timeout=TIMEOUT))
            assert (state["type"], state["you"]) == ("state", 0)
        log = tmp_path / "nginx" / ACCESS_LOG
        deadline = time.monotonic() + TIMEOUT
        while "/ws " not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)  # a socket's line is written once nginx has closed it
        said = log.read_text()
    assert f"GET /api/tables/{table_id}/ws HTTP/1.1" in said, said
    assert token not in said, said
