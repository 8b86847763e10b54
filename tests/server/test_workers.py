"""Real workers of one site, on the real PostgreSQL and Redis: two `serve` processes as two
machines would run them, and `serve --workers 2` on one port with a worker killed (-9) in the
middle of twenty bot games. Also the settings that cannot make a site, refused with what to
add."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

from spieltisch.core.record import GameRecord, replay_states
from spieltisch.core.registry import make_game
from spieltisch.server.store import Store
from tests.server.live import LiveServer, free_port, launch
from tests.server.sites import need_redis, shared_db
from tests.support import waits

pytestmark = pytest.mark.workers

LIVENESS = 240.0  # seconds: only a stuck site takes this long
wait_for = partial(waits.wait_for, liveness=LIVENESS, pause=0.1)
TABLES = 20


@contextmanager
def workers(data_dir: Path, url: str, *extra: str) -> Iterator[LiveServer]:
    broker = ["--db", url, "--broker", need_redis(), "--tables-per-minute", "0"]
    live = launch(data_dir, free_port(), 0.05, [*broker, *extra])
    try:
        yield live
    finally:
        live.process.send_signal(signal.SIGTERM)
        try:
            live.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            live.kill()


def make_table(
    server: LiveServer, seats: list[str | None], game: str = "pickomino", pace: str = "normal"
) -> str:
    body = {"game": game, "seats": [{"bot": s} for s in seats], "pace": pace}
    response = httpx.post(server.url + "api/tables", json=body, timeout=30)
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


def socket_url(server: LiveServer, table_id: str, token: str | None = None) -> str:
    query = f"?token={token}" if token else ""
    return server.url.replace("http", "ws") + f"api/tables/{table_id}/ws{query}"


def test_a_seat_on_one_machine_sees_a_move_made_through_the_other(tmp_path: Path) -> None:
    url = shared_db(tmp_path)
    with workers(tmp_path / "a", url) as a, workers(tmp_path / "b", url) as b:
        table_id = make_table(a, [None, None])
        joined = [
            httpx.post(f"{s.url}api/tables/{table_id}/join", json={"name": n}, timeout=30).json()
            for s, n in ((a, "Ada"), (b, "Bea"))
        ]
        with connect(socket_url(a, table_id, joined[0]["token"])) as ada:
            state = json.loads(ada.recv(timeout=30))
            while state["to_move"] is None:
                state = json.loads(ada.recv(timeout=30))
            mover = state["to_move"]
            token = joined[mover]["token"]
            with connect(socket_url(b, table_id, token)) as mine:
                seen = json.loads(mine.recv(timeout=30))
                action = seen["view"]["legal_actions"][0]
                mine.send(
                    json.dumps({"type": "action", "action": action, "version": seen["version"]})
                )
                after = json.loads(mine.recv(timeout=30))
                assert after["type"] == "state" and after["version"] > seen["version"]
            while state["version"] < after["version"]:
                state = json.loads(ada.recv(timeout=30))
            assert state["version"] == after["version"]
            assert state["log"][-1]["seq"] == after["log"][-1]["seq"]


class Spectator(threading.Thread):
    """Watches a table until it is over, reconnecting when its worker is gone; keeps the
    view it saw at each version."""

    def __init__(self, server: LiveServer, table_id: str) -> None:
        super().__init__(daemon=True)
        self.url = socket_url(server, table_id)
        self.views: dict[int, str] = {}
        self.newest = -1  # the highest version seen (a game may be over before it is watched)
        self.clashes: list[int] = []  # versions seen with two different views
        self.over = False
        self.trouble: list[str] = []  # why connections ended, for a report of a stall

    def run(self) -> None:
        end = time.monotonic() + LIVENESS
        while not self.over and time.monotonic() < end:
            try:
                with connect(self.url, open_timeout=10) as socket:
                    while not self.over:
                        self._see(json.loads(socket.recv(timeout=30)))
            except (WebSocketException, OSError, TimeoutError) as error:
                self.trouble = [*self.trouble[-4:], f"{type(error).__name__}: {error}"]
            time.sleep(0.2)

    def _see(self, message: dict[str, Any]) -> None:
        if message.get("type") != "state":
            return
        view = json.dumps(message["view"], sort_keys=True)
        version = message["version"]
        self.newest = max(self.newest, version)
        if self.views.setdefault(version, view) != view:
            self.clashes.append(version)
        self.over = message["result"] is not None


def worker_pids(supervisor: int) -> list[int]:
    """The worker processes of a `serve --workers` (not multiprocessing's own helper)."""
    children = Path(f"/proc/{supervisor}/task/{supervisor}/children").read_text().split()
    found = []
    for pid in map(int, children):
        with suppress(OSError):
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            if b"spawn_main" in command:
                found.append(pid)
    return found


def test_twenty_bot_games_finish_when_a_worker_is_killed(tmp_path: Path) -> None:
    url = shared_db(tmp_path)
    with workers(tmp_path, url, "--workers", "2") as site:
        wait_for(lambda: len(worker_pids(site.process.pid)) == 2, "two workers run")
        games = ["pickomino", "karolinchen"]
        tables = [
            make_table(site, ["greedy", "random", "greedy"], games[n % 2], "slow")
            for n in range(TABLES)
        ]
        spectators = [Spectator(site, table_id) for table_id in tables]
        for spectator in spectators:
            spectator.start()
        try:
            wait_for(lambda: all(s.newest > 3 for s in spectators), "every game is under way")
        except AssertionError:
            raise AssertionError(stall_report(url, tables, spectators)) from None
        victim = worker_pids(site.process.pid)[0]
        os.kill(victim, signal.SIGKILL)
        assert sum(not s.over for s in spectators) >= TABLES // 2, "killed in the middle"
        for spectator in spectators:
            spectator.join(LIVENESS)
        assert all(s.over for s in spectators), "every game finishes"
        assert not [s.clashes for s in spectators if s.clashes], "no version shown twice"
        wait_for(lambda: victim not in worker_pids(site.process.pid), "the dead worker is gone")
        wait_for(lambda: len(worker_pids(site.process.pid)) == 2, "a new worker replaces it")
    store = Store(url)
    try:
        for table_id in tables:
            check_history(store, table_id)
    finally:
        store.close()


def stall_report(url: str, tables: list[str], spectators: list[Spectator]) -> str:
    """What the stuck tables' spectators saw, against what the database holds."""
    store, lines = Store(url), ["some games did not get under way:"]
    try:
        for table_id, spectator in zip(tables, spectators, strict=True):
            if spectator.newest <= 3:
                seen = spectator.newest
                stored = len(store.entries(table_id))
                alive = "watching" if spectator.is_alive() else "stopped"
                lines.append(f"{table_id}: versions seen {sorted(spectator.views)} (last {seen}),")
                lines.append(f"  {stored} entries stored, spectator {alive}: {spectator.trouble}")
    finally:
        store.close()
    return "\n".join(lines)


def check_history(store: Store, table_id: str) -> None:
    """Every version stored once, in order, and the record replays to the stored result."""
    entries = store.entries(table_id)
    assert [e.seq for e in entries] == list(range(len(entries)))
    row = store.table(table_id)
    assert row is not None
    game = make_game(row.game, row.options)
    actions = tuple(e.action for e in entries if e.action is not None)
    record = GameRecord(row.game, row.options, game.rules_version, actions, None, ("",) * 3, {})
    final = replay_states(record)[-1]
    assert game.is_over(final)


def serve_refuses(tmp_path: Path, *extra: str) -> str:
    command = [sys.executable, "-m", "spieltisch", "serve", "--data-dir", str(tmp_path)]
    done = subprocess.run(
        [*command, "--port", str(free_port()), *extra],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    return done.stdout


def test_several_workers_on_sqlite_are_refused_with_what_to_add(tmp_path: Path) -> None:
    said = serve_refuses(tmp_path, "--workers", "2")
    assert "--workers 2 needs a database server" in said and "--db postgresql" in said
    said = serve_refuses(tmp_path, "--broker", "redis://127.0.0.1:6379/0")
    assert "--broker joins workers that share a database server" in said


def test_several_workers_without_a_broker_are_refused(tmp_path: Path) -> None:
    said = serve_refuses(
        tmp_path, "--workers", "2", "--db", "postgresql+psycopg://root@127.0.0.1/test"
    )
    assert "needs --broker redis://" in said


def test_a_broker_that_does_not_answer_is_named(tmp_path: Path) -> None:
    port = free_port()
    broker = f"redis://:secret@127.0.0.1:{port}/0"
    said = serve_refuses(tmp_path, "--db", shared_db(tmp_path), "--broker", broker)
    assert f"cannot reach the broker at redis://:***@127.0.0.1:{port}/0" in said
    assert "secret" not in said
