"""A database that stalls holds up only the moves that must be stored: while another program
holds the tables' lock, the lobby and every table's picture keep answering from memory, a
move is refused within its bound, and afterwards the game goes on to its end with a history
without a hole."""

from __future__ import annotations

import json
import sqlite3
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from websockets.sync.client import ClientConnection, connect

from spieltisch.server.storage import WRITE_BOUND
from spieltisch.server.store import Store
from tests.server.database import on_sqlite
from tests.server.live import start_server
from tests.server.sites import shared_db

pytestmark = pytest.mark.slow  # a real server, and a lock held for seconds

HOLD = WRITE_BOUND + 4.0
"""Seconds the other program holds the lock: longer than any bound of a write."""
ANSWER_BOUND = 1.0
"""The 99th percentile allowed of the answers of the lobby and of a sync while the lock is held
(a generous bound for a busy machine; before the storage threads, answers waited for the
lock, 20 s for a lock of 20 s)."""
TIMEOUT = 60.0


def two_people(url: str) -> tuple[str, list[str]]:
    body = {"game": "pickomino", "seats": [{}, {}], "seed": 3}
    table = httpx.post(url + "api/tables", json=body, timeout=TIMEOUT).json()
    tokens = []
    for name in ("Ada", "Bea"):
        joined = httpx.post(f"{url}api/tables/{table['id']}/join", json={"name": name})
        tokens.append(joined.json()["token"])
    return str(table["id"]), tokens


def socket(url: str, table_id: str, token: str | None = None) -> ClientConnection:
    address = url.replace("http", "ws", 1) + f"api/tables/{table_id}/ws"
    return connect(address + (f"?token={token}" if token else ""), open_timeout=TIMEOUT)


def state_of(ws: ClientConnection) -> dict[str, Any]:
    """The next state (other messages, such as a chat line, are passed over)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=TIMEOUT))
        if message["type"] in ("state", "error"):
            return message


def time_answers(url: str, table_id: str, stop: threading.Event, took: list[float]) -> None:
    """Ask the lobby for its tables and a watched table for its state, again and again."""
    with socket(url, table_id) as ws, httpx.Client(base_url=url, timeout=TIMEOUT) as client:
        state_of(ws)
        while not stop.is_set():
            started = time.perf_counter()
            assert client.get("api/tables").status_code == 200
            ws.send(json.dumps({"type": "sync"}))
            assert state_of(ws)["type"] == "state"
            took.append(time.perf_counter() - started)
            time.sleep(0.02)


@contextmanager
def answers_timed(url: str, table_id: str) -> Iterator[list[float]]:
    took: list[float] = []
    stop = threading.Event()
    prober = threading.Thread(target=time_answers, args=(url, table_id, stop, took))
    prober.start()
    try:
        yield took
    finally:
        stop.set()
        prober.join(TIMEOUT)


@contextmanager
def held(hold: Callable[[threading.Event, threading.Event], None]) -> Iterator[None]:
    """Another program's lock, taken before the block and let go `HOLD` seconds later."""
    holding, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=hold, args=(holding, release))
    holder.start()
    assert holding.wait(TIMEOUT)
    started = time.monotonic()
    try:
        yield
    finally:
        time.sleep(max(0.0, HOLD - (time.monotonic() - started)))
        release.set()
        holder.join(TIMEOUT)


def move_and_leave(url: str, table_id: str, tokens: list[str], mover: ClientConnection) -> None:
    """After the stall: the mover's next move is stored, then both people leave and bots play
    the game to its end."""
    deadline = time.monotonic() + TIMEOUT
    while True:  # a table that could not even be read is back by itself after a while
        mover.send(json.dumps({"type": "sync"}))
        state = state_of(mover)
        if state["type"] == "state":
            break
        assert state["code"] == "unavailable" and time.monotonic() < deadline, state
        time.sleep(0.2)
    move = {"type": "action", "version": state["version"]}
    mover.send(json.dumps({**move, "action": state["view"]["legal_actions"][0]}))
    after = state_of(mover)
    while after["type"] == "state" and after["version"] == state["version"]:
        after = state_of(mover)  # a push that was on its way already
    assert after["type"] == "state" and after["version"] > state["version"], after
    for token in tokens:
        left = httpx.post(f"{url}api/tables/{table_id}/leave", json={"token": token})
        assert left.status_code == 200, left.text
    deadline = time.monotonic() + TIMEOUT
    while httpx.get(f"{url}api/tables/{table_id}", timeout=TIMEOUT).json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)


def stalled_game(
    url: str, db: str, hold: Callable[[threading.Event, threading.Event], None]
) -> None:
    played, tokens = two_people(url)
    watched, _ = two_people(url)
    with ExitStack() as stack:
        seats = [stack.enter_context(socket(url, played, token)) for token in tokens]
        states = [state_of(ws) for ws in seats]  # each seat's picture on joining
        state = states[states[0]["to_move"]]
        mover = seats[state["you"]]
        with answers_timed(url, watched) as took, held(hold):
            move = {"type": "action", "version": state["version"]}
            started = time.monotonic()
            mover.send(json.dumps({**move, "action": state["view"]["legal_actions"][0]}))
            refused = state_of(mover)
            waited = time.monotonic() - started
        took.sort()
        p99 = took[int(0.99 * len(took))]
        print(  # the figures, for `pytest -s`
            f"lock held {HOLD:g} s: the move refused after {waited:.2f} s; {len(took)} answers "
            f"of the lobby and a sync, p50 {1000 * statistics.median(took):.1f} ms, "
            f"p99 {1000 * p99:.1f} ms, slowest {1000 * took[-1]:.1f} ms"
        )
        assert refused["type"] == "error" and refused["code"] in ("not_saved", "unavailable")
        assert waited < WRITE_BOUND + 2.0, f"refused after {waited:.1f} s"
        assert len(took) > 10 and p99 < ANSWER_BOUND
        move_and_leave(url, played, tokens, mover)
    store = Store(db)
    try:
        seqs = [entry.seq for entry in store.entries(played)]
    finally:
        store.close()
    assert seqs == list(range(len(seqs)))  # no hole


def test_a_locked_postgresql_stalls_only_the_moves_it_must_store(tmp_path: Path) -> None:
    db = shared_db(tmp_path)

    def lock_entries(holding: threading.Event, release: threading.Event) -> None:
        engine = create_engine(db)
        with engine.begin() as connection:
            connection.execute(text("LOCK TABLE entries IN ACCESS EXCLUSIVE MODE"))
            holding.set()
            release.wait(TIMEOUT)
        engine.dispose()

    with start_server(tmp_path, extra=["--db", db]) as live:
        stalled_game(live.url, db, lock_entries)


@pytest.mark.skipif(not on_sqlite(), reason="another process's lock on the SQLite file")
def test_a_locked_sqlite_file_stalls_only_the_moves_it_must_store(tmp_path: Path) -> None:
    path = tmp_path / "spieltisch.sqlite3"

    def lock_file(holding: threading.Event, release: threading.Event) -> None:
        connection = sqlite3.connect(path, isolation_level=None)
        connection.execute("BEGIN IMMEDIATE")
        holding.set()
        release.wait(TIMEOUT)
        connection.execute("ROLLBACK")
        connection.close()

    with start_server(tmp_path) as live:
        stalled_game(live.url, f"sqlite:///{path}", lock_file)
