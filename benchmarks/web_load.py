"""Load on the web table: many tables played at once by scripted WebSocket clients.

Starts `spieltisch serve` on a free loopback port with a fresh SQLite file, opens N tables of
two people each, and lets one client per seat play: as soon as its view says it is to move,
it sends a legal action (seeded choice), at once or after a person's pause (--think). Prints
actions per second and the round trip of an action (sent until the new state arrives) as
p50 / p99. Acting at once is a saturation test: the round trip is then mostly the queue.

Hostile company for those tables: --riffraff-careful N adds N Riff Raff tables of two
`careful` bots (bot turns and physics, played nonstop), --slow-readers N adds N spectators
at the measured tables that never read their socket.

Company that must not slow the others: --replay-readers N adds N clients that fetch the
replay of a finished Riff Raff game (two `random` bots, played before the run) over and over;
--reconnect-storm N opens, reads and aborts N spectator sockets a second from 127.0.0.9 (in a
process of its own) while each table's two players connect from an address of their own
(127.0.1.1, ...), under the server's default limits per address. With either, --sync-probes
spectators (10 by default) each ask a waiting table of their own for its state every 0.2 s
and report that round trip.

Signed-in players: --accounts makes every player an account (`account_load.py`): they sign
up, sign in (timed: sign-ins per second, p50 / p99), join with the session cookie and play
through sockets that carry the cookie and no token.

Several workers of one site: --workers N serves with N worker processes (and --broker, Redis
at 127.0.0.1:6379 unless given), --db URL on another database (a PostgreSQL URL gets a fresh
schema of its own, dropped afterwards). The two seats of a table may then sit on different
workers, so every move also crosses the broker.

A fair storm: on this machine the storm's client, the measured clients and the server share the
same cores, and whatever the storm's client burns is taken from the server (an attacker's
machine is not the server's). --pin puts the storm's process on CPUs of its own, all but the
first, and the server and the measured clients (the players and the probes: light with
--tables 20) on the first (os.sched_setaffinity, as `taskset` does). --server-nice N runs
the server at that niceness (-10: ahead of the other processes of a shared machine; below 0
needs root), --client-nice N the clients and the storm (on a busy machine the storm's process
reaches 1,000 a second only so). The storm's achieved rate is reported (storm_per_second):
the figure counts only if it reached the rate asked for.

Turn-based tables: --turn-based N writes N turn-based tables (a player to move against a bot,
a day per move, with their deadlines) into a fresh database, starts the server on it and on an
empty one, and reports each server's memory (RSS) and one deadline sweep's time
(`turn_based_load.py`); nothing is played.

Run from the project root after set-up:
    .venv/bin/python benchmarks/web_load.py --tables 200 --actions 40
    .venv/bin/python benchmarks/web_load.py --tables 1000 --think 2 --workers 2 \
        --db postgresql+psycopg://root@127.0.0.1/test
    .venv/bin/python benchmarks/web_load.py --tables 20 --think 0.5 --reconnect-storm 1000 \
        --pin --server-nice -10 --client-nice -10
Only loopback addresses are used; the run stops after --actions moves per table or
--seconds, whichever comes first.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Subprotocol

from account_load import SignIns, no_cookies, sign_in_all, signed_in_headers
from turn_based_load import children_rss, prepare, process_rss, sweep_figures

HOST = "127.0.0.1"
MAX_TABLES = 1000
OPENING = 20  # tables opened at once before the run
MAX_SECONDS = 300.0
PLAYERS_FROM = "127.0.0.2"  # where the lobby requests and sync probes come from


def player_address(table: int) -> str:
    """The two players of each table connect from an address of their own, as people do:
    127.0.1.1, 127.0.1.2, ... (the storm comes from `STORM_FROM`)."""
    return f"127.0.{1 + table // 250}.{1 + table % 250}"


STORM_FROM = "127.0.0.9"  # not 127.0.0.1, which the server trusts as its proxy
PROBE_EVERY = 0.2  # seconds between a sync probe's requests
MAX_STORM = 5000  # reconnects a second


@dataclass
class Totals:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    finished_tables: int = 0
    syncs: list[float] = field(default_factory=list)
    replays_read: int = 0
    storm_ends: dict[str, int] = field(default_factory=dict)  # STORM_ENDS -> attempts
    storm_seconds: float = 0.0
    sign_ins: SignIns = field(default_factory=SignIns)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Placement:
    """Where the server, the measured clients and the storm run: CPUs (None: wherever the
    system puts them) and niceness."""

    server_cpus: frozenset[int] | None = None
    client_cpus: frozenset[int] | None = None
    storm_cpus: frozenset[int] | None = None
    server_nice: int = 0
    client_nice: int = 0

    @classmethod
    def chosen(cls, pin: bool, server_nice: int, client_nice: int) -> Placement:
        """--pin: the server and the measured clients on the first CPU this process may use,
        the storm on the others (as if from another machine)."""
        if not pin:
            return cls(server_nice=server_nice, client_nice=client_nice)
        cpus = sorted(os.sched_getaffinity(0))
        if len(cpus) < 2:
            raise SystemExit("--pin needs at least two CPUs")
        first, rest = frozenset(cpus[:1]), frozenset(cpus[1:])
        return cls(first, first, rest, server_nice, client_nice)

    def place_server(self) -> None:
        """In the server's process before it starts (its threads inherit both)."""
        if self.server_cpus is not None:
            os.sched_setaffinity(0, self.server_cpus)
        if self.server_nice:
            os.setpriority(os.PRIO_PROCESS, 0, self.server_nice)

    def place_client(self, storm: bool = False) -> None:
        """In a client process (this one, or the storm's), before it starts threads."""
        cpus = self.storm_cpus if storm else self.client_cpus
        if cpus is not None:
            os.sched_setaffinity(0, cpus)
        if self.client_nice:
            os.setpriority(os.PRIO_PROCESS, 0, self.client_nice)

    def described(self) -> dict[str, Any]:
        def cpus(chosen: frozenset[int] | None) -> str:
            return ",".join(map(str, sorted(chosen))) if chosen is not None else "any"

        return {
            "server_cpus": cpus(self.server_cpus),
            "client_cpus": cpus(self.client_cpus),
            "storm_cpus": cpus(self.storm_cpus),
            "server_nice": self.server_nice,
            "client_nice": self.client_nice,
        }


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process `pid` has used, its threads included."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(
    data_dir: Path,
    port: int,
    bot_delay: float = 0.0,
    site: Sequence[str] = (),
    placement: Placement | None = None,
    wait: float = 90.0,
) -> subprocess.Popen[bytes]:
    """`spieltisch serve` on `port`; `site` adds settings such as --db, --workers, --broker."""
    command = [sys.executable, "-m", "spieltisch", "serve", "--host", HOST, "--port", str(port)]
    command += ["--data-dir", str(data_dir), "--bot-delay", str(bot_delay)]
    # every table and every account is made from one address
    command += ["--tables-per-minute", "0", "--sign-ups-per-address", "0", *site]
    process = subprocess.Popen(
        command,
        stdout=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        preexec_fn=placement.place_server if placement else None,
    )
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://{HOST}:{port}/api/games", timeout=2).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit(f"the server did not start within {wait:g} s")


@contextlib.contextmanager
def fresh_database(url: str | None) -> Iterator[str | None]:
    """`url` itself, or for PostgreSQL a fresh schema in it that is dropped afterwards."""
    if url is None or not url.startswith("postgresql"):
        yield url
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    schema = f"bench_{random.randrange(16**8):08x}"
    engine = create_engine(url)
    with engine.begin() as db:
        db.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        found = make_url(url).update_query_dict({"options": f"-csearch_path={schema}"})
        yield found.render_as_string(hide_password=False)
    finally:
        with engine.begin() as db:
            db.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        engine.dispose()


async def open_table(
    client: httpx.AsyncClient, game: str, seated: bool = True, players: Sequence[Any] = ({}, {})
) -> tuple[str, list[str]]:
    """A table of two people, seated (else it waits for them, as the sync probes' do);
    `players` are the headers each joins with (a signed-in player's cookie)."""
    body = {"game": game, "seats": [{"bot": None}, {"bot": None}]}
    table = (await client.post("/api/tables", json=body)).json()
    tokens = []
    for name, headers in zip(("A", "B") if seated else (), players, strict=False):
        path = f"/api/tables/{table['id']}/join"
        joined = await client.post(path, json={"name": name}, headers=headers)
        tokens.append(joined.json()["token"])
    return table["id"], tokens


async def seat_client(
    ws: ClientConnection,
    rng: random.Random,
    totals: Totals,
    budget: list[int],
    end: float,
    think: float,
) -> None:
    """Play whenever this seat is to move; measure each action's round trip."""
    try:
        async with asyncio.timeout_at(asyncio.get_running_loop().time() + end - time.monotonic()):
            await _play_seat(ws, rng, totals, budget, think)
    except TimeoutError:
        return


async def _play_seat(
    ws: ClientConnection, rng: random.Random, totals: Totals, budget: list[int], think: float
) -> None:
    pending: tuple[int, float] | None = None
    while True:
        message: dict[str, Any] = json.loads(await ws.recv())
        if message["type"] == "error":
            totals.errors += 1
            code = str(message.get("code"))
            totals.error_codes[code] = totals.error_codes.get(code, 0) + 1
            pending = None
            await ws.send(json.dumps({"type": "sync"}))
            continue
        if message["type"] != "state":
            continue
        if pending is not None and message["version"] > pending[0]:
            totals.latencies.append(time.perf_counter() - pending[1])
            pending = None
        if message["result"] is not None or budget[0] <= 0:
            return
        legal = message["view"]["legal_actions"]
        if message["to_move"] == message["you"] and legal and pending is None:
            if think:  # a person's pause (0.5 to 1.5 times `think`); newer states wait
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            budget[0] -= 1
            pending = (message["version"], time.perf_counter())
            action = {"type": "action", "action": rng.choice(legal), "version": message["version"]}
            await ws.send(json.dumps(action))


def seat_protocols(token: str) -> list[Subprotocol]:
    """A seat's socket names its token in a subprotocol, as the web client does."""
    return [Subprotocol("spieltisch"), Subprotocol(f"token.{token}")]


async def play_table(
    base: str,
    number: int,
    table_id: str,
    tokens: list[str],
    args: argparse.Namespace,
    totals: Totals,
    secrets: Sequence[str] = (),
) -> None:
    """Table `number`'s two players play it (seeded choices) from an address of their own."""
    seed = args.seed + 2 * number
    url = base.replace("http", "ws", 1) + f"/api/tables/{table_id}/ws"
    end = time.monotonic() + args.seconds
    budget = [args.actions]
    source = (player_address(number), 0)
    if secrets:  # signed-in players: the cookie, no token, finds each one's seat
        first_socket, second_socket = (
            connect(
                url,
                subprotocols=[Subprotocol("spieltisch")],
                additional_headers=signed_in_headers(base, secret),
                local_addr=source,
            )
            for secret in secrets
        )
    else:
        first_socket = connect(url, subprotocols=seat_protocols(tokens[0]), local_addr=source)
        second_socket = connect(url, subprotocols=seat_protocols(tokens[1]), local_addr=source)
    async with first_socket as first, second_socket as second:
        await asyncio.gather(
            seat_client(first, random.Random(seed), totals, budget, end, args.think),
            seat_client(second, random.Random(seed + 1), totals, budget, end, args.think),
        )
    totals.finished_tables += 1


async def run(args: argparse.Namespace, base: str) -> tuple[Totals, float]:
    totals = Totals()
    limits = httpx.Limits(max_connections=20)
    transport = httpx.AsyncHTTPTransport(local_address=PLAYERS_FROM, limits=limits)
    jar = no_cookies()  # each signed-in player's request names its own cookie
    async with httpx.AsyncClient(
        base_url=base, transport=transport, timeout=30, cookies=jar
    ) as client:
        replayed = await finished_riffraff(client) if args.replay_readers else None
        accompanied = args.replay_readers or args.reconnect_storm
        probes = args.sync_probes if args.sync_probes is not None else 10 * bool(accompanied)
        idle = [(await open_table(client, args.game, seated=False))[0] for _ in range(probes)]
        secrets: list[list[str]] = []
        if args.accounts:
            secrets = await sign_in_all(client, base, args.tables, totals.sign_ins)
        players = [[signed_in_headers(base, s) for s in pair] for pair in secrets]
        tables: list[tuple[str, list[str]]] = []
        while len(tables) < args.tables:
            batch = range(len(tables), min(len(tables) + OPENING, args.tables))
            tables += await asyncio.gather(
                *(open_table(client, args.game, True, *players[n : n + 1]) for n in batch)
            )
        careful = {"game": "riffraff", "seats": [{"bot": "careful"}, {"bot": "careful"}]}
        for _ in range(args.riffraff_careful):
            (await client.post("/api/tables", json=careful)).raise_for_status()
    ws_base = base.replace("http", "ws", 1)
    watched = [tables[n % len(tables)][0] for n in range(args.slow_readers)]
    async with contextlib.AsyncExitStack() as stack:
        for table_id in watched:  # spectators that never read (a tiny receive buffer)
            url = f"{ws_base}/api/tables/{table_id}/ws"
            await stack.enter_async_context(connect(url, max_queue=1, max_size=None))
        started = time.perf_counter()
        playing = asyncio.gather(
            *(
                play_table(base, n, table_id, tokens, args, totals, *secrets[n : n + 1])
                for n, (table_id, tokens) in enumerate(tables)
            )
        )
        company = [read_replays(base, replayed, totals) for _ in range(args.replay_readers)]
        if args.reconnect_storm:
            place = args.placement
            company.append(storm(ws_base, tables[0][0], args.reconnect_storm, totals, place))
        company += [probe_syncs(ws_base, table_id, totals) for table_id in idle]
        await run_beside(playing, company)
        return totals, time.perf_counter() - started


async def run_beside(playing: asyncio.Future[Any], company: list[Any]) -> None:
    """Run the `company` tasks until the players are done, then stop them."""
    tasks = [asyncio.ensure_future(work) for work in company]
    try:
        await playing
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def finished_riffraff(client: httpx.AsyncClient) -> str:
    """A Riff Raff game of two `random` bots, played to its end (for the replay readers)."""
    body = {"game": "riffraff", "seats": [{"bot": "random"}, {"bot": "random"}], "pace": "instant"}
    table = (await client.post("/api/tables", json=body)).json()
    deadline = time.monotonic() + MAX_SECONDS
    while (await client.get(f"/api/tables/{table['id']}")).json()["status"] != "over":
        if time.monotonic() > deadline:
            raise SystemExit("the Riff Raff game for the replay readers did not end")
        await asyncio.sleep(0.5)
    return str(table["id"])


async def read_replays(base: str, table_id: str | None, totals: Totals) -> None:
    """Fetch a finished game's replay over and over, as a browser does (gzip accepted)."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        while True:
            response = await client.get(f"/api/tables/{table_id}/replay")
            response.raise_for_status()
            totals.replays_read += 1


async def probe_syncs(ws_base: str, table_id: str, totals: Totals) -> None:
    """A spectator from the players' address that asks a waiting table for its state now and
    then and measures how long the answer takes (nothing else is sent to it)."""
    url = f"{ws_base}/api/tables/{table_id}/ws"
    async with connect(url, local_addr=(PLAYERS_FROM, 0)) as ws:
        await ws.recv()  # the state on joining
        while True:
            await asyncio.sleep(PROBE_EVERY)
            asked = time.perf_counter()
            await ws.send(json.dumps({"type": "sync"}))
            await ws.recv()
            totals.syncs.append(time.perf_counter() - asked)


async def storm(
    ws_base: str, table_id: str, per_second: int, totals: Totals, placement: Placement
) -> None:
    """The reconnect storm, in a process of its own (so that its own work does not slow the
    measured clients), until cancelled with the rest of the company."""
    context = multiprocessing.get_context("spawn")
    counts = context.Array("q", len(STORM_ENDS) + 1)  # and the storm's milliseconds
    stop = context.Event()
    url = f"{ws_base}/api/tables/{table_id}/ws"
    process = context.Process(target=storm_process, args=(url, per_second, counts, stop, placement))
    process.start()
    try:
        await asyncio.Event().wait()
    finally:
        stop.set()
        await asyncio.to_thread(process.join, 15)
        if process.is_alive():
            process.kill()
        totals.storm_ends = dict(zip(STORM_ENDS, counts[:-1], strict=True))
        totals.storm_seconds = counts[-1] / 1000


STORM_ENDS = ("served", "refused", "dropped", "failed")
"""How a storm's connection can end: its first message arrived (its handshake was let in);
429 (over its address's quota); closed by the server without an answer; another answer, or
none within `STORM_WAIT`, or the connection could not be made."""

STORM_WAIT = 10.0  # seconds


def storm_process(url: str, per_second: int, counts: Any, stop: Any, placement: Placement) -> None:
    placement.place_client(storm=True)
    asyncio.run(_storm(url, per_second, counts, stop))


async def _storm(url: str, per_second: int, counts: Any, stop: Any) -> None:
    """Open a spectator socket, read its first message and reset it, `per_second` times a
    second, all from one address (attempts not made while a second's worth is in flight are
    dropped, not made up). Raw handshakes, so that the storm's own CPU stays small."""
    parts = urlsplit(url)
    host, port = parts.hostname or HOST, parts.port or 80
    request = (
        f"GET {parts.path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    ).encode()
    loop = asyncio.get_running_loop()
    ends: Counter[str] = Counter()
    in_flight: set[asyncio.Task[None]] = set()
    started = time.perf_counter()
    launched = 0
    while not stop.is_set():
        due = int((time.perf_counter() - started) * per_second)
        launched = max(launched, due - per_second)
        while launched < due and len(in_flight) < per_second:
            launched += 1
            task = loop.create_task(storm_attempt(host, port, request, ends))
            in_flight.add(task)
            task.add_done_callback(in_flight.discard)
        counts[:] = [
            *(ends[end] for end in STORM_ENDS),
            int(1000 * (time.perf_counter() - started)),
        ]
        await asyncio.sleep(0.005)
    for task in in_flight:
        task.cancel()


async def storm_attempt(host: str, port: int, request: bytes, ends: Counter[str]) -> None:
    loop = asyncio.get_running_loop()
    ended = loop.create_future()
    try:
        transport, _ = await loop.create_connection(
            lambda: StormAttempt(request, ended), host, port, local_addr=(STORM_FROM, 0)
        )
    except OSError:
        ends["failed"] += 1
        return
    try:
        ends[await asyncio.wait_for(ended, STORM_WAIT)] += 1
    except TimeoutError:
        ends["failed"] += 1
    finally:
        transport.abort()  # a reset: neither side keeps the port in TIME_WAIT


class StormAttempt(asyncio.Protocol):
    """One handshake of the storm, sent raw; the server's first answer says how it ended."""

    def __init__(self, request: bytes, ended: asyncio.Future[str]) -> None:
        self.request = request
        self.ended = ended
        self.received = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        self.received += data
        head, done, first_message = self.received.partition(b"\r\n\r\n")
        status = head.split(b" ", 2)[1:2]
        if not done or (status == [b"101"] and not first_message):
            return
        self._end({b"101": "served", b"429": "refused"}.get(status[0] if status else b"", "failed"))

    def connection_lost(self, exc: Exception | None) -> None:
        self._end("dropped")

    def _end(self, end: str) -> None:
        if not self.ended.done():
            self.ended.set_result(end)


COMPANY_FIGURES = (
    "replay_readers",
    "replays_read",
    "reconnect_storm",
    "storm_served",
    "storm_refused",
    "storm_dropped",
    "storm_failed",
    "storm_per_second",
    "sync_p50_ms",
    "sync_p99_ms",
    "sign_ins",
    "sign_ins_per_second",
    "sign_in_p50_ms",
    "sign_in_p99_ms",
)


def company_figures(args: argparse.Namespace, totals: Totals, seconds: float) -> dict[str, Any]:
    """The figures of the replay readers, the storm and the sync probes (when any ran)."""
    if not (args.replay_readers or args.reconnect_storm or totals.syncs):
        return {}
    syncs = totals.syncs
    storm = sum(totals.storm_ends.values())
    return {
        "replay_readers": args.replay_readers,
        "replays_read": totals.replays_read,
        "reconnect_storm": args.reconnect_storm,
        **{f"storm_{end}": totals.storm_ends.get(end, 0) for end in STORM_ENDS},
        "storm_seconds": round(totals.storm_seconds, 1),
        "storm_per_second": (
            round(storm / totals.storm_seconds, 1) if totals.storm_seconds else 0.0
        ),
        "syncs": len(syncs),
        "sync_p50_ms": round(1000 * statistics.median(syncs), 2) if syncs else None,
        "sync_p99_ms": round(1000 * percentile(syncs, 0.99), 2) if syncs else None,
    }


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help=f"tables at once (<= {MAX_TABLES})")
    parser.add_argument("--actions", type=int, default=40, help="player actions per table")
    parser.add_argument("--seconds", type=float, default=60.0, help="time limit of the run")
    parser.add_argument("--game", default="pickomino")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--riffraff-careful", type=int, default=0, metavar="N", help="Riff Raff bot tables"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="a player's mean pause before each action (0: act at once, a saturation test)",
    )
    parser.add_argument(
        "--slow-readers", type=int, default=0, metavar="N", help="spectators that never read"
    )
    parser.add_argument(
        "--replay-readers", type=int, default=0, metavar="N", help="clients reading a replay"
    )
    parser.add_argument(
        "--reconnect-storm",
        type=int,
        default=0,
        metavar="N",
        help=f"spectator sockets opened and aborted a second from one address (<= {MAX_STORM})",
    )
    parser.add_argument(
        "--sync-probes",
        type=int,
        metavar="N",
        help="waiting tables whose sync is timed (10 with company, else none)",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the server and the measured clients on the first CPU, the storm on the others",
    )
    parser.add_argument(
        "--server-nice",
        type=int,
        default=0,
        metavar="N",
        help="the server's niceness (-10: ahead of the machine's other work; < 0 needs root)",
    )
    parser.add_argument(
        "--client-nice",
        type=int,
        default=0,
        metavar="N",
        help="the clients' niceness (the storm's too: on a busy machine it reaches its rate "
        "only ahead of the other work)",
    )
    parser.add_argument(
        "--port", type=int, help="load a server already running on this loopback port instead"
    )
    parser.add_argument(
        "--accounts",
        action="store_true",
        help="every player an account: timed sign-ins, seats and sockets by session cookie",
    )
    parser.add_argument("--workers", type=int, default=1, help="worker processes of the server")
    parser.add_argument("--db", metavar="URL", help="the server's database (default: SQLite)")
    parser.add_argument(
        "--broker", default="redis://127.0.0.1:6379/0", help="Redis, with --workers above 1"
    )
    parser.add_argument(
        "--turn-based", type=int, default=0, metavar="N", help="N turn-based tables' memory"
    )
    args = parser.parse_args()
    if args.turn_based:
        return turn_based(args)
    args.tables = max(1, min(args.tables, MAX_TABLES))
    args.seconds = max(1.0, min(args.seconds, MAX_SECONDS))
    args.reconnect_storm = max(0, min(args.reconnect_storm, MAX_STORM))
    args.placement = Placement.chosen(args.pin, args.server_nice, args.client_nice)
    load_before = os.getloadavg()[0]  # the machine's other work, as `uptime` shows it
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 50)  # the clients' own collections are no server latency
    server_cpu = None
    if args.port:
        args.placement.place_client()
        totals, seconds = asyncio.run(run(args, f"http://{HOST}:{args.port}"))
    else:
        port = free_port()
        with tempfile.TemporaryDirectory() as data_dir, fresh_database(args.db) as url:
            site = ["--db", url] if url else []
            if args.workers > 1:
                site += ["--workers", str(args.workers), "--broker", args.broker]
            server = start_server(Path(data_dir), port, site=site, placement=args.placement)
            args.placement.place_client()
            try:
                cpu_before = cpu_seconds(server.pid)
                totals, seconds = asyncio.run(run(args, f"http://{HOST}:{port}"))
                server_cpu = cpu_seconds(server.pid) - cpu_before  # one worker: all of it
            finally:
                server.terminate()
                server.wait(timeout=60)
    count = len(totals.latencies)
    figures = {
        "tables": args.tables,
        "workers": args.workers,
        "database": (args.db or "sqlite").split(":")[0].split("+")[0],
        "riffraff_careful": args.riffraff_careful,
        "slow_readers": args.slow_readers,
        "think": args.think,
        **args.placement.described(),
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "actions": count,
        "seconds": round(seconds, 2),
        "actions_per_second": round(count / seconds, 1) if seconds else 0.0,
        "p50_ms": round(1000 * statistics.median(totals.latencies), 2) if count else None,
        "p99_ms": round(1000 * percentile(totals.latencies, 0.99), 2) if count else None,
        "max_ms": round(1000 * max(totals.latencies), 2) if count else None,
        "server_cpu_s": round(server_cpu, 2) if server_cpu is not None else None,
        "errors": totals.errors,
        "error_codes": totals.error_codes,
        **company_figures(args, totals, seconds),
        **(totals.sign_ins.figures() if args.accounts else {}),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        company = {k: v for k, v in figures.items() if k in COMPANY_FIGURES}
        print(
            f"{figures['tables']} tables on {figures['workers']} worker(s), "
            f"{figures['database']}: {count} actions in {figures['seconds']} s: "
            f"{figures['actions_per_second']} actions/s; round trip p50 {figures['p50_ms']} ms, "
            f"p99 {figures['p99_ms']} ms, max {figures['max_ms']} ms; {totals.errors} errors "
            f"{totals.error_codes or ''}" + (f"; {company}" if company else "")
        )
        print(
            f"server on CPUs {figures['server_cpus']} at nice {figures['server_nice']}, "
            f"clients on CPUs {figures['client_cpus']}, the storm on {figures['storm_cpus']}, "
            f"both at nice {figures['client_nice']}; "
            f"load average {figures['load_before']} "
            f"before, {figures['load_after']} after; server CPU {figures['server_cpu_s']} s"
        )
    return 0


def turn_based(args: argparse.Namespace) -> int:
    """The figures of `--turn-based N` (see `turn_based_load.py`)."""
    count, now = max(1, args.turn_based), time.time()
    with tempfile.TemporaryDirectory() as data_dir, contextlib.ExitStack() as stack:
        urls = [stack.enter_context(fresh_database(args.db)) for _ in range(2)]
        empty, full = [
            url or f"sqlite:///{data_dir}/{name}.sqlite3"
            for url, name in zip(urls, ("empty", "full"), strict=True)
        ]
        prepared = prepare(full, count, now)
        memory = {
            name: served_memory(Path(data_dir), url)
            for name, url in (("empty", empty), ("full", full))
        }
        sweeps = sweep_figures(full, now)
    per_table = (memory["full"][0] - memory["empty"][0]) / count
    figures = {
        "turn_based_tables": count,
        "database": (args.db or "sqlite").split(":")[0].split("+")[0],
        "prepare_seconds": round(prepared, 1),
        "server_rss_mb_empty": round(memory["empty"][0] / 2**20, 1),
        "server_rss_mb": round(memory["full"][0] / 2**20, 1),
        "server_start_seconds": round(memory["full"][1], 1),
        "rss_kb_per_table": round(per_table / 1024, 1),
        "worker_pool_rss_mb": round(memory["full"][2] / 2**20, 1),
        **sweeps,
    }
    print(json.dumps(figures) if args.json else "\n".join(f"{k}: {v}" for k, v in figures.items()))
    return 0


def served_memory(data_dir: Path, url: str) -> tuple[int, float, int]:
    """The RSS of a server on `url` once it answers (and a moment later), the seconds it
    took to start, and its worker processes' RSS."""
    begun = time.monotonic()
    server = start_server(data_dir, free_port(), site=["--db", url], wait=1800.0)
    started = time.monotonic() - begun
    try:
        time.sleep(3.0)  # the start's garbage collected, the pool warmed up
        return process_rss(server.pid), started, children_rss(server.pid)
    finally:
        server.terminate()
        server.wait(timeout=120)


if __name__ == "__main__":
    sys.exit(main())
