"""A WebSocket text message that is not UTF-8 closes its connection with code 1007, and the
server logs one line for that connection, without a traceback; the server plays on."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.server.live import LiveServer, free_port, launch

TIMEOUT = 30.0  # liveness only
BAD_TEXT = b"take \xff\xfe 4"  # not UTF-8


def open_socket(server: LiveServer, table_id: str) -> ClientConnection:
    address = server.url.replace("http", "ws", 1) + f"api/tables/{table_id}/ws"
    return connect(address, open_timeout=TIMEOUT, close_timeout=TIMEOUT)


def expect_state(ws: ClientConnection) -> None:
    assert json.loads(ws.recv(timeout=TIMEOUT))["type"] == "state"


def closing_code(ws: ClientConnection) -> int | None:
    """The code the server closed `ws` with, once it has."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ws.recv(timeout=TIMEOUT)
    return closed.value.rcvd.code if closed.value.rcvd else None


@pytest.mark.slow  # a real serve process
def test_text_that_is_not_utf8_closes_the_socket_with_one_log_line(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = launch(tmp_path / "data", free_port(), 0.0, errors=log)
    try:
        body = {"game": "pickomino", "seats": [{"bot": None}, {"bot": None}]}
        made = httpx.post(server.url + "api/tables", json=body, timeout=TIMEOUT)
        table_id = made.json()["id"]
        for _ in range(2):  # two connections, three bad messages each
            with open_socket(server, table_id) as ws:
                expect_state(ws)
                for _ in range(3):
                    try:
                        ws.send(BAD_TEXT, text=True)
                    except ConnectionClosed:
                        break
                assert closing_code(ws) == 1007
        with open_socket(server, table_id) as ws:  # the server plays on
            expect_state(ws)
            ws.send(json.dumps({"type": "sync"}))
            assert json.loads(ws.recv(timeout=TIMEOUT))["type"] == "state"
    finally:
        server.process.terminate()
        server.process.wait(timeout=TIMEOUT)
    said = log.read_text(errors="replace")
    assert "Traceback" not in said, said
    lines = [line for line in said.splitlines() if "not UTF-8" in line]
    assert len(lines) == 2, said
    assert all("127.0.0.1:" in line for line in lines), lines


@pytest.mark.slow  # a real serve process
def test_bad_text_sent_all_at_once_is_one_line_too(tmp_path: Path) -> None:
    """Several bad messages in one TCP segment: the first closes, the others are dropped."""
    log = tmp_path / "server.log"
    server = launch(tmp_path / "data", free_port(), 0.0, errors=log)
    try:
        body = {"game": "pickomino", "seats": [{"bot": None}, {"bot": None}]}
        table_id = httpx.post(server.url + "api/tables", json=body, timeout=TIMEOUT).json()["id"]
        with open_socket(server, table_id) as ws:
            expect_state(ws)
            with contextlib.suppress(ConnectionClosed), ws.send_context():
                for _ in range(5):  # written together when the context ends (or cut off)
                    ws.protocol.send_text(BAD_TEXT)
            assert closing_code(ws) == 1007
        deadline = time.monotonic() + TIMEOUT
        while "not UTF-8" not in log.read_text(errors="replace") and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        server.process.terminate()
        server.process.wait(timeout=TIMEOUT)
    said = log.read_text(errors="replace")
    assert "Traceback" not in said and "Fatal error" not in said, said
    assert said.count("not UTF-8") == 1, said
