"""What a client may send is limited, and each limit breached is a clear error: the body of
a request, the size and nesting of a socket message, the seed; a finished game's seats stay
as they were; the banner names the address really bound."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from spieltisch.server import create_app
from spieltisch.server.limits import Limits, json_depth
from tests.server.database import db_url
from tests.server.helpers import TestClient, join, make_table, receive_state, threads

LIMITS = Limits(body=2048, message=4096, depth=4)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    url = db_url(tmp_path, "limits")
    with TestClient(create_app(url, bot_delay=0.0, executor=threads(), limits=LIMITS)) as found:
        yield found


def test_a_body_over_the_limit_is_refused_unread(client: TestClient) -> None:
    body = {"game": "pickomino", "seats": [{"bot": None}] * 2, "options": {"x": "y" * 4000}}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 413
    assert response.json() == {
        "error": "too_large",
        "message": "A request body may have at most 2048 bytes.",
    }
    assert client.get("/api/tables").json() == []


def test_a_body_without_a_length_is_refused(client: TestClient) -> None:
    chunks = iter([b'{"game": "pickomino", ', b'"seats": [{"bot": null}, {"bot": null}]}'])
    response = client.post("/api/tables", content=chunks)  # sent chunked: no length
    assert response.status_code == 411 and response.json()["error"] == "length_required"


@pytest.mark.parametrize("seed", [2**63, 2**70, -1])
def test_a_seed_out_of_range_is_a_clear_400(client: TestClient, seed: int) -> None:
    body = {"game": "pickomino", "seats": [{"bot": None}] * 2, "seed": seed}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert response.json()["error"] == "bad_seed"
    assert "from 0 to 9223372036854775807" in response.json()["message"]


def test_the_largest_seed_is_taken(client: TestClient) -> None:
    assert make_table(client, [None, None], seed=2**63 - 1)["status"] == "waiting"


def test_socket_messages_too_long_or_too_deep_are_refused_and_the_socket_stays(
    client: TestClient,
) -> None:
    table = make_table(client, [None, None])
    with client.websocket_connect(f"/api/tables/{table['id']}/ws") as ws:
        receive_state(ws)
        for text, code in [
            ("x" * 4097, "too_large"),
            ("[" * 200 + "]" * 200, "too_deep"),
            ("[" * 1500, "too_deep"),  # beyond the parser: too deep, not a traceback
            (json.dumps({"type": "sync", "a": [[[[1]]]]}), "too_deep"),
        ]:
            ws.send_text(text)
            assert ws.receive_json()["code"] == code
        ws.send_json({"type": "sync"})
        assert receive_state(ws)["type"] == "state"  # still served


def test_json_depth_counts_levels_of_lists_and_objects() -> None:
    assert [json_depth(v) for v in (1, [], {"a": 1}, [[1], {"b": [2]}])] == [0, 1, 1, 3]


def test_seats_of_a_finished_game_cannot_be_joined_or_left(client: TestClient) -> None:
    table = make_table(client, ["greedy", None])
    token = join(client, table["id"], "Ada")
    leave = client.post(f"/api/tables/{table['id']}/leave", json={"token": token})
    assert leave.status_code == 200  # a bot plays Ada's seat to the end
    end = time.monotonic() + 60  # the bots finish the game (a liveness bound only)
    while (record := client.get(f"/api/tables/{table['id']}/record")).status_code != 200:
        assert time.monotonic() < end, "the bots never finished"
        time.sleep(0.01)
    again = client.post(f"/api/tables/{table['id']}/join", json={"name": "Mallory"})
    assert again.status_code == 409 and again.json()["error"] == "game_over"
    assert client.get(f"/api/tables/{table['id']}/record").json() == record.json()


def test_a_nul_byte_in_a_vendor_path_is_a_404(client: TestClient) -> None:
    assert client.get("/vendor/%00").status_code == 404


@pytest.mark.slow
def test_the_banner_names_the_address_bound_and_limits_are_settings(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "spieltisch", "serve", "--host", "127.0.0.1", "--port", "0"]
    command += ["--data-dir", str(tmp_path), "--max-body", "1024"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        banner = server.stdout.readline()  # the server prints it once it listens
        url = banner.split(" at ")[1].split()[0]
        assert url.startswith("http://127.0.0.1:") and not url.endswith(":0/")
        assert httpx.get(url + "api/games", timeout=30).status_code == 200
        big = httpx.post(url + "api/tables", json={"game": "x" * 2000, "seats": []}, timeout=30)
        assert big.status_code == 413
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.slow
def test_a_limit_out_of_range_is_refused_at_start(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "spieltisch", "serve", "--data-dir", str(tmp_path)]
    done = subprocess.run(
        [*command, "--max-body", "10"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and "--max-body must be from 1024" in done.stdout
