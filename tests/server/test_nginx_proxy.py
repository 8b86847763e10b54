"""The example nginx configuration (docs/hosting/nginx.conf) in front of real servers.

Debian's nginx runs as this test's own process on a free loopback port, with the example
file as it is but for the upstream's addresses, the listen address and the access log's
file. Through it a game is made, joined and played over WebSockets; request bodies are
limited as the server limits them; the server's compression comes through; and the table
quota counts the address nginx saw, not the proxy's nor one the client claims, unless the
server is told not to trust this proxy; the access log keeps no query string, so no seat
token; a burst of requests from one address is refused by nginx itself (429, JSON) while
another address is served; the Host header keeps its port, so a signed-in page's Origin
matches it. The last test puts two servers of one site (PostgreSQL and Redis) behind it and kills
one: the game goes on through the other.

Where nginx is not installed the tests are skipped, except under CI=true, where that is a
failure (`./test` installs it)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from spieltisch.server.limits import Limits
from tests.server.live import LiveServer, free_port, launch, start_server
from tests.server.sites import need_redis, shared_db

NGINX = Path("/usr/sbin/nginx")
EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "hosting" / "nginx.conf"
TIMEOUT = 30.0  # liveness only: a busy machine may be slow, never this slow
ACCESS_LOG = "spieltisch.access.log"  # in the folder of `nginx`
pytestmark = pytest.mark.slow  # nginx and a real server as their own processes


def need_nginx() -> None:
    if NGINX.exists():
        return
    message = f"{NGINX} is missing (Debian's nginx; ./test installs it)"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


def render(example: str, upstreams: list[str], listen: str, access_log: Path) -> str:
    """The example with the upstream's servers, the listen address and the access log's
    file replaced, nothing else."""
    block = re.compile(r"(upstream spieltisch \{\n)(.*?)(\n\})", re.S)
    found = block.search(example)
    assert found, "the example has no `upstream spieltisch` block"
    kept = [line for line in found[2].splitlines() if not re.match(r"\s*server ", line)]
    assert len(kept) < len(found[2].splitlines()), "the upstream names no server"
    servers = [f"    server {address};" for address in upstreams]
    rendered = example[: found.start(2)] + "\n".join(kept + servers) + example[found.end(2) :]
    rendered, listens = re.subn(r"(?m)^    listen 80;$", f"    listen {listen};", rendered)
    assert listens == 1, "the example listens on port 80 once"
    own_log = f"    access_log {access_log} spieltisch;"
    rendered, logs = re.subn(r"(?m)^    access_log \S+ spieltisch;$", own_log, rendered)
    assert logs == 1, "the example's server logs access in its own format once"
    return rendered


@contextlib.contextmanager
def nginx(folder: Path, servers: list[LiveServer]) -> Iterator[str]:
    """nginx with the example's site in front of `servers`; yields its URL."""
    need_nginx()
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    upstreams = [s.url.removeprefix("http://").rstrip("/") for s in servers]
    site = folder / "spieltisch.conf"
    example = EXAMPLE.read_text(encoding="utf-8")
    log = folder / ACCESS_LOG
    site.write_text(render(example, upstreams, f"127.0.0.1:{port}", log))
    temp = {kind: folder / kind for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")}
    main = folder / "nginx.conf"
    main.write_text(
        "events { worker_connections 256; }\n"
        "http {\n"
        f"    access_log {folder / 'access.log'};\n"
        + "".join(f"    {kind}_temp_path {path};\n" for kind, path in temp.items())
        + f"    include {site};\n"
        "}\n"
    )
    command = [str(NGINX), "-p", f"{folder}/", "-c", str(main), "-e", str(folder / "error.log")]
    settings = f"daemon off; master_process off; pid {folder / 'nginx.pid'};"
    url = f"http://127.0.0.1:{port}/"
    with (folder / "stderr.log").open("wb") as stderr:
        process = subprocess.Popen(
            [*command, "-g", settings], stdin=subprocess.DEVNULL, stderr=stderr
        )
    try:
        _wait_until_up(url, process, folder)
        yield url
    finally:
        process.send_signal(signal.SIGQUIT)  # finish what is under way, then stop
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def _wait_until_up(url: str, process: subprocess.Popen[bytes], folder: Path) -> None:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            logs = [folder / "stderr.log", folder / "error.log"]
            said = "".join(log.read_text() for log in logs if log.exists())
            pytest.fail(f"nginx stopped (status {process.returncode}): {said}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "api/games", timeout=2).status_code == 200:
                return
        time.sleep(0.1)
    pytest.fail(f"nginx did not answer at {url} within {TIMEOUT} s")


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server on the test's database behind nginx (one new table per address and
    minute); the URL of nginx."""
    need_nginx()
    folder = tmp_path_factory.mktemp("proxied")
    with (
        start_server(folder / "server", extra=["--tables-per-minute", "1"]) as server,
        nginx(folder / "nginx", [server]) as url,
    ):
        yield url


def from_address(address: str) -> httpx.Client:
    """A client whose connections come from `address` (any 127.x.y.z is this machine)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=TIMEOUT)


def make_table(client: httpx.Client, url: str, **extra: Any) -> httpx.Response:
    body = {"game": "pickomino", "seats": [{"bot": None}, {"bot": None}], "seed": 5}
    return client.post(url + "api/tables", json=body, **extra)


def join(url: str, table_id: str, name: str) -> str:
    response = httpx.post(f"{url}api/tables/{table_id}/join", json={"name": name}, timeout=TIMEOUT)
    assert response.status_code == 200, response.text
    return str(response.json()["token"])


def socket(url: str, table_id: str, token: str) -> ClientConnection:
    address = url.replace("http", "ws", 1) + f"api/tables/{table_id}/ws?token={token}"
    return connect(address, open_timeout=TIMEOUT, close_timeout=TIMEOUT)


def next_state(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message = json.loads(ws.recv(timeout=TIMEOUT))
        if message["type"] == "state":
            return dict(message)


def in_step(sockets: list[ClientConnection], states: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each seat's state once all show the same version and a seat is to move: a socket on
    another server of a site may hear of a change (a new table's first roll) a moment later."""
    while True:
        newest = max(state["version"] for state in states)
        behind = [seat for seat, state in enumerate(states) if state["version"] < newest]
        if not behind and states[0]["to_move"] is not None:
            return states
        for seat in behind or range(len(states)):
            states[seat] = next_state(sockets[seat])


def move(sockets: list[ClientConnection], states: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seat to move plays its first legal action; every seat's state after it."""
    states = in_step(sockets, states)
    seat = states[0]["to_move"]
    mine = states[seat]
    action = mine["view"]["legal_actions"][0]
    sockets[seat].send(json.dumps({"type": "action", "action": action, "version": mine["version"]}))
    return in_step(sockets, [next_state(ws) for ws in sockets])


def test_a_game_is_made_joined_and_played_through_nginx(proxied: str) -> None:
    with from_address("127.0.0.4") as client:
        games = client.get(proxied + "api/games")
        assert games.status_code == 200
        assert "pickomino" in [game["name"] for game in games.json()]
        made = make_table(client, proxied)
    assert made.status_code == 201, made.text
    table_id = made.json()["id"]
    tokens = [join(proxied, table_id, name) for name in ("Ada", "Bea")]
    with socket(proxied, table_id, tokens[0]) as ada, socket(proxied, table_id, tokens[1]) as bea:
        states = in_step([ada, bea], [next_state(ada), next_state(bea)])
        assert [s["you"] for s in states] == [0, 1]
        assert states[0]["to_move"] in (0, 1)
        after = move([ada, bea], states)
    assert after[0]["version"] == after[1]["version"] > states[0]["version"]
    assert after[0]["log"][-1]["seq"] == after[1]["log"][-1]["seq"]


def test_the_table_quota_counts_the_address_that_nginx_saw(proxied: str) -> None:
    with from_address("127.0.0.2") as first, from_address("127.0.0.3") as second:
        assert make_table(first, proxied).status_code == 201
        again = make_table(first, proxied)
        assert again.status_code == 429, "the same client: its one table a minute is made"
        claimed = make_table(first, proxied, headers={"X-Forwarded-For": "198.51.100.7"})
        assert claimed.status_code == 429, "an address the client claims is not believed"
        assert make_table(second, proxied).status_code == 201, "another client is not counted"


def test_behind_a_proxy_it_does_not_trust_the_server_counts_the_proxys_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """FORWARDED_ALLOW_IPS names the proxies whose X-Forwarded-For the server believes
    (uvicorn reads it); nginx at 127.0.0.1, not named, is taken for every table's client."""
    need_nginx()
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "192.0.2.1")
    with (
        start_server(tmp_path / "server", extra=["--tables-per-minute", "1"]) as server,
        nginx(tmp_path / "nginx", [server]) as url,
        from_address("127.0.0.2") as first,
        from_address("127.0.0.3") as second,
    ):
        assert make_table(first, url).status_code == 201
        assert make_table(second, url).status_code == 429


def test_the_access_log_keeps_no_query_strings_and_so_no_seat_tokens(tmp_path: Path) -> None:
    need_nginx()
    with (
        start_server(tmp_path / "server") as server,
        nginx(tmp_path / "nginx", [server]) as url,
        httpx.Client(timeout=TIMEOUT) as client,
    ):
        made = make_table(client, url)
        table_id = made.json()["id"]
        tokens = [join(url, table_id, name) for name in ("Ada", "Bea")]
        for token in tokens:
            with socket(url, table_id, token) as ws:
                assert next_state(ws)["type"] == "state"
        assert client.get(f"{url}api/tables?token={tokens[0]}").status_code == 200
        log = tmp_path / "nginx" / ACCESS_LOG
        deadline = time.monotonic() + TIMEOUT
        while log.read_text().count("/ws ") < 2 and time.monotonic() < deadline:
            time.sleep(0.05)  # a socket's line is written once nginx has closed it
        said = log.read_text()
    assert said.count(f'GET /api/tables/{table_id}/ws HTTP/1.1" 101') == 2, said
    assert 'GET /api/tables HTTP/1.1" 200' in said, said
    assert "token=" not in said and not any(token in said for token in tokens), said


def test_a_burst_from_one_address_is_refused_by_nginx_while_another_is_served(
    proxied: str,
) -> None:
    """The example's limit_req zone for the API: beyond its burst, one address is refused
    at nginx (the server never sees those requests) until it slows down; another address
    is not counted with it."""
    asked = 0
    refused: list[httpx.Response] = []
    with from_address("127.0.0.5") as storm, ThreadPoolExecutor(8) as pool:
        while not refused and asked < 5000:  # far beyond a burst, however slow the machine
            answers = list(pool.map(lambda _: storm.get(proxied + "api/games"), range(100)))
            asked += len(answers)
            refused = [a for a in answers if a.status_code != 200]
    assert refused, f"{asked} requests from one address, none refused"
    assert asked > 200, "the burst itself is let through"
    assert {a.status_code for a in refused} == {429}, refused[0].text
    assert refused[0].json()["error"] == "too_many_requests"
    assert refused[0].headers["Retry-After"] == "1"
    with from_address("127.0.0.6") as other:
        assert other.get(proxied + "api/games").status_code == 200


def test_the_host_header_keeps_the_port_so_a_signed_in_page_is_not_foreign(
    proxied: str,
) -> None:
    """A browser on nginx's port sends Origin http://127.0.0.1:PORT; the server compares it
    with the Host header nginx passes on, which must keep that port."""
    origin = proxied.rstrip("/")
    with from_address("127.0.0.7") as client:
        answer = client.post(
            proxied + "api/account/signout",
            headers={"Origin": origin, "Cookie": "spieltisch_session=gone"},
        )
        foreign = client.post(
            proxied + "api/account/signout",
            headers={"Origin": "http://127.0.0.1", "Cookie": "spieltisch_session=gone"},
        )
    assert answer.status_code == 204, answer.text
    assert foreign.status_code == 403 and foreign.json()["error"] == "foreign_origin"


def test_request_bodies_are_limited_as_the_server_limits_them(proxied: str) -> None:
    most = Limits().body  # the server's --max-body by default
    for size, refused in ((most, False), (most + 1, True)):
        head, tail = b'{"game": "pickomino", "seats": [], "x": "', b'"}'
        body = head + b"." * (size - len(head) - len(tail)) + tail
        answer = httpx.post(
            proxied + "api/tables",
            content=body,
            headers={"Content-Type": "application/json"},
            timeout=TIMEOUT,
        )
        assert (answer.status_code == 413) == refused, (size, answer.status_code, answer.text)
        if refused:  # by nginx, before the server saw it (the server answers in JSON)
            assert "nginx" in answer.text, answer.text


def test_the_servers_compression_passes_through(proxied: str) -> None:
    answer = httpx.get(proxied + "app.js", headers={"Accept-Encoding": "gzip"}, timeout=TIMEOUT)
    assert answer.status_code == 200
    assert answer.headers["Content-Encoding"] == "gzip"
    assert "export { ApiError };" in answer.text  # the whole file, unpacked


@pytest.mark.workers
def test_a_game_goes_on_through_nginx_when_one_server_of_a_site_is_killed(
    tmp_path: Path,
) -> None:
    """Two servers of one site behind nginx, as two machines would run them; the two seats'
    sockets land on different servers. One server is killed: requests go to the other, the
    seat that was on the dead one reconnects through nginx as the browser does, and the
    game goes on."""
    need_nginx()
    site = ["--db", shared_db(tmp_path), "--broker", need_redis(), "--tables-per-minute", "0"]
    a = launch(tmp_path / "a", free_port(), 0.0, site)
    b = launch(tmp_path / "b", free_port(), 0.0, site)
    try:
        with nginx(tmp_path / "nginx", [a, b]) as url, httpx.Client(timeout=TIMEOUT) as client:
            made = make_table(client, url)
            assert made.status_code == 201, made.text
            table_id = made.json()["id"]
            tokens = [join(url, table_id, name) for name in ("Ada", "Bea")]
            with contextlib.ExitStack() as stack:
                sockets = [stack.enter_context(socket(url, table_id, t)) for t in tokens]
                states = move(sockets, [next_state(ws) for ws in sockets])
                spread = time.monotonic() + 5  # a REST connection may still be closing
                while connections_to(a, b) != [1, 1] and time.monotonic() < spread:
                    time.sleep(0.05)
                assert connections_to(a, b) == [1, 1], "least_conn spreads the two sockets"
                a.kill()
                for _ in range(4):  # whichever server nginx picks first
                    assert client.get(f"{url}api/tables/{table_id}").status_code == 200
                closed = [seat for seat, ws in enumerate(sockets) if not answers_sync(ws)]
                assert len(closed) == 1, "the socket on the killed server is closed"
                sockets[closed[0]] = stack.enter_context(socket(url, table_id, tokens[closed[0]]))
                resumed = next_state(sockets[closed[0]])
                assert resumed["version"] == states[0]["version"]
                states[closed[0]] = resumed
                after = move(sockets, states)
            assert after[0]["version"] == after[1]["version"] > states[0]["version"]
    finally:
        for server in (a, b):
            if server.process.poll() is None:
                server.process.terminate()
                server.process.wait(timeout=30)


def connections_to(*servers: LiveServer) -> list[int]:
    """How many open TCP connections each server has accepted (from /proc/net/tcp)."""
    rows = [line.split() for line in Path("/proc/net/tcp").read_text().splitlines()[1:]]
    local = [int(row[1].split(":")[1], 16) for row in rows if row[3] == "01"]  # established
    return [local.count(int(s.url.rstrip("/").rsplit(":", 1)[1])) for s in servers]


def answers_sync(ws: ClientConnection) -> bool:
    """Whether the socket still answers a sync (False: it was closed)."""
    try:
        ws.send(json.dumps({"type": "sync"}))
        next_state(ws)
    except ConnectionClosed:
        return False
    return True
