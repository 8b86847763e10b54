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

import httpx
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from spieltisch.server.storage import READ_BOUND, WRITE_BOUND
from tests.server.database import on_sqlite
from tests.server.live import start_server
from tests.server.proxy import CuttableProxy
from tests.server.seated import TIMEOUT, gapless, move_and_leave, socket, state_of, two_people
from tests.server.sites import shared_db

pytestmark = pytest.mark.slow  # a real server, and a lock held for seconds

LOCKED = 20.0
"""Seconds another program holds the lock (longer than any bound of a storage call)."""
SILENT = 30.0
"""Seconds the proxy in front of PostgreSQL forwards nothing."""
ANSWER_BOUND = 1.0
"""The 99th percentile allowed of the answers of the lobby and of a sync while the lock is held
(a generous bound for a busy machine; before the storage threads, answers waited for the
lock, 20 s for a lock of 20 s)."""


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
def held(
    hold: Callable[[threading.Event, threading.Event], None], seconds: float
) -> Iterator[None]:
    """Another program's lock, taken before the block and let go `seconds` later."""
    holding, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=hold, args=(holding, release))
    holder.start()
    assert holding.wait(TIMEOUT)
    started = time.monotonic()
    try:
        yield
    finally:
        time.sleep(max(0.0, seconds - (time.monotonic() - started)))
        release.set()
        holder.join(TIMEOUT)


def stalled_game(
    url: str,
    db: str,
    hold: Callable[[threading.Event, threading.Event], None],
    seconds: float = LOCKED,
    refused_within: float = WRITE_BOUND + 2.0,
) -> None:
    """Two people play at a table while `hold` stalls the database: the move is refused
    within `refused_within` s and the other answers stay quick."""
    played, tokens = two_people(url)
    watched, _ = two_people(url)
    with ExitStack() as stack:
        seats = [stack.enter_context(socket(url, played, token)) for token in tokens]
        states = [state_of(ws) for ws in seats]  # each seat's picture on joining
        state = states[states[0]["to_move"]]
        mover = seats[state["you"]]
        with answers_timed(url, watched) as took, held(hold, seconds):
            move = {"type": "action", "version": state["version"]}
            started = time.monotonic()
            mover.send(json.dumps({**move, "action": state["view"]["legal_actions"][0]}))
            refused = state_of(mover)
            waited = time.monotonic() - started
        took.sort()
        p99 = took[int(0.99 * len(took))]
        print(  # the figures, for `pytest -s`
            f"storage stalled {seconds:g} s: the move refused after {waited:.2f} s; "
            f"{len(took)} answers of the lobby and a sync, "
            f"p50 {1000 * statistics.median(took):.1f} ms, p99 {1000 * p99:.1f} ms, "
            f"slowest {1000 * took[-1]:.1f} ms"
        )
        assert refused["type"] == "error" and refused["code"] in ("not_saved", "unavailable")
        assert waited < refused_within, f"refused after {waited:.1f} s"
        assert len(took) > 10 and p99 < ANSWER_BOUND
        move_and_leave(url, played, tokens, mover)
    assert gapless(db, played)


@pytest.mark.postgres
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


@pytest.mark.postgres
def test_a_silent_postgresql_stalls_only_the_moves_it_must_store(tmp_path: Path) -> None:
    """A proxy in front of PostgreSQL stops forwarding without closing anything: no bound of
    the database or of TCP ends the call that waits, only the server's own."""
    db = make_url(shared_db(tmp_path))
    proxy = CuttableProxy((db.host or "127.0.0.1", db.port or 5432))
    through = db.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)

    def silence(holding: threading.Event, release: threading.Event) -> None:
        proxy.silence()
        holding.set()
        release.wait(TIMEOUT)
        proxy.speak()

    with start_server(tmp_path, extra=["--db", through]) as live:
        # the write gives up after its bound, and the table is then read anew before the
        # player hears: through the silent proxy that read waits up to its own bound too
        refused_within = WRITE_BOUND + READ_BOUND + 2.0
        url = db.render_as_string(hide_password=False)
        stalled_game(live.url, url, silence, SILENT, refused_within)
