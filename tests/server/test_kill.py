"""A real server killed with SIGKILL mid-game continues every table after a restart."""

from __future__ import annotations

import contextlib
import json
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.server.live import LiveServer, free_port, launch

TIMEOUT = 30.0  # liveness only: a busy machine may be slow, never this slow
pytestmark = pytest.mark.slow  # real servers killed and started again


def socket(server: LiveServer, table_id: str, token: str) -> ClientConnection:
    url = server.url.replace("http", "ws", 1) + f"api/tables/{table_id}/ws?token={token}"
    return connect(url, open_timeout=TIMEOUT, close_timeout=TIMEOUT)


def receive(ws: ClientConnection) -> dict[str, Any]:
    """The next state (a message saying who is here is passed over)."""
    message = json.loads(ws.recv(timeout=TIMEOUT))
    while message["type"] == "presence":
        message = json.loads(ws.recv(timeout=TIMEOUT))
    assert message["type"] == "state", message
    return dict(message)


def play(server: LiveServer, table_id: str, tokens: list[str], until: int) -> dict[str, Any]:
    """Both seats play their first legal action until the table reaches version `until`."""
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(socket(server, table_id, token)) for token in tokens]
        states = [receive(ws) for ws in sockets]
        while states[0]["version"] < until and states[0]["result"] is None:
            seat = states[0]["to_move"]
            mine = states[seat]
            action = mine["view"]["legal_actions"][0]
            sockets[seat].send(
                json.dumps({"type": "action", "action": action, "version": mine["version"]})
            )
            states = [receive(ws) for ws in sockets]
        return states[0]


def test_kill_9_and_restart_continue_the_table(tmp_path: Path) -> None:
    port = free_port()
    server = launch(tmp_path, port, bot_delay=0.0)
    try:
        body = {"game": "pickomino", "seats": [{"bot": None}, {"bot": None}], "seed": 11}
        table = httpx.post(server.url + "api/tables", json=body, timeout=TIMEOUT).json()
        tokens = [
            httpx.post(
                server.url + f"api/tables/{table['id']}/join", json={"name": n}, timeout=TIMEOUT
            ).json()["token"]
            for n in ("Anna", "Bert")
        ]
        before = play(server, table["id"], tokens, 25)
    finally:
        server.kill()
    restarted = launch(tmp_path, free_port(), bot_delay=0.0)
    try:
        with socket(restarted, table["id"], tokens[0]) as ws:
            again = receive(ws)
        assert again["version"] == before["version"]
        assert again["view"] == before["view"]
        assert again["you"] == 0
        after = play(restarted, table["id"], tokens, before["version"] + 10)
        assert after["version"] >= before["version"] + 10
    finally:
        restarted.kill()


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux: from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists() and "(Z)" not in _state(pid)


def _state(pid: int) -> str:
    with contextlib.suppress(OSError):
        return "(" + Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] + ")"
    return "(Z)"


def bot_game_workers(server: LiveServer) -> list[int]:
    """Start a game of two bots; the server's child processes once its workers run (the
    first bot move starts them)."""
    body = {"game": "pickomino", "seats": [{"bot": "greedy"}, {"bot": "greedy"}]}
    assert httpx.post(server.url + "api/tables", json=body, timeout=TIMEOUT).is_success
    deadline = time.monotonic() + TIMEOUT
    while len(workers := children(server.process.pid)) < 2:
        assert time.monotonic() < deadline, "no worker processes were started"
        time.sleep(0.05)
    return workers


def wait_until_gone(pids: list[int], what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while any(alive(pid) for pid in pids):
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def test_worker_processes_end_when_the_server_is_killed(tmp_path: Path) -> None:
    server = launch(tmp_path, free_port(), bot_delay=0.0)
    try:
        workers = bot_game_workers(server)
    finally:
        server.kill()
    wait_until_gone(workers, "worker processes outlived the killed server")


def test_a_server_stopped_by_sigterm_releases_its_worker_processes(tmp_path: Path) -> None:
    """uvicorn ends a SIGTERM by raising the signal again, so no exit handler runs: the
    worker pool must be shut down before that, or its semaphores are reported leaked."""
    errors = tmp_path / "stderr.txt"
    server = launch(tmp_path, free_port(), bot_delay=0.0, errors=errors)
    try:
        workers = bot_game_workers(server)
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(timeout=TIMEOUT)
    finally:
        if server.process.poll() is None:
            server.kill()
    # the tracker of the pool's semaphores is one of them, and it speaks last
    wait_until_gone(workers, "worker processes outlived the server")
    assert "leaked" not in errors.read_text(), errors.read_text()
