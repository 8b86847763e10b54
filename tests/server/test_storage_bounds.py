"""Every wait for PostgreSQL is bounded: statements, locks, a vanished server."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from spieltisch.server.database import (
    KEEPALIVE,
    LOCK_TIMEOUT_MS,
    STATEMENT_TIMEOUT_MS,
    TCP_USER_TIMEOUT_MS,
)
from spieltisch.server.store import EntryRow, SeatRow, Store, TableRow
from tests.server.sites import shared_db

pytestmark = pytest.mark.postgres  # PostgreSQL's own bounds, whatever the test database is


@pytest.fixture
def postgres(tmp_path: Path) -> str:
    return shared_db(tmp_path)


def setting(store: Store, name: str) -> str:
    with store.engine.connect() as db:
        return str(db.execute(text(f"SHOW {name}")).scalar())


def test_the_bounds_are_set_on_every_connection(postgres: str) -> None:
    store = Store(postgres)
    try:
        assert setting(store, "statement_timeout") == f"{STATEMENT_TIMEOUT_MS // 1000}s"
        assert setting(store, "lock_timeout") == f"{LOCK_TIMEOUT_MS // 1000}s"
        assert setting(store, "search_path").startswith("test_")  # the URL's own options stay
        with store.engine.connect() as db:
            info = db.connection.dbapi_connection.info  # type: ignore[union-attr]
            params = info.get_parameters()
        assert {key: int(params[key]) for key in KEEPALIVE} == KEEPALIVE  # this side's socket
        assert int(params["tcp_user_timeout"]) == TCP_USER_TIMEOUT_MS
    finally:
        store.close()


def test_the_url_may_set_its_own_bounds(postgres: str) -> None:
    given = make_url(postgres)
    options = f"{given.query['options']} -c statement_timeout=7s"
    store = Store(given.update_query_dict({"options": options}).render_as_string(False))
    try:
        assert setting(store, "statement_timeout") == "7s"
    finally:
        store.close()


def test_a_write_behind_a_held_lock_gives_up_within_the_bound(postgres: str) -> None:
    store = Store(postgres)
    row = TableRow("t1", "pickomino", {"players": 2}, 1, None, 0.0)
    store.add_table(row, [SeatRow(0, None, None, None), SeatRow(1, "greedy", None, None)], [])
    holding, release = threading.Event(), threading.Event()

    def hold_the_lock() -> None:
        other = create_engine(postgres)
        with other.begin() as db:
            db.execute(text("LOCK TABLE entries IN ACCESS EXCLUSIVE MODE"))
            holding.set()
            release.wait(30)
        other.dispose()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    try:
        assert holding.wait(10)
        started = time.monotonic()
        with pytest.raises(OperationalError, match="lock timeout"):
            store.add_entries([("t1", EntryRow(0, None, None, "joined", {}), None)])
        waited = time.monotonic() - started
        assert LOCK_TIMEOUT_MS / 1000 - 0.1 <= waited < 15  # the bound, not the holder's 30 s
    finally:
        release.set()
        holder.join()
        store.close()
