"""A person's catch window survives a restart of the server: it is stored with its motion and
deadlines, reopened with the time it had left (a catch sent after the restart counts, and the
server closes the window at its stored end), and closed empty if it ran out while the server
was down. (A site whose owner dies mid-catch: `test_site.py`.)"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from spieltisch.server.clock import ManualClock
from spieltisch.server.scheduler import CATCH
from spieltisch.server.store import Store
from tests.server.database import db_url
from tests.server.test_riffraff_table import (
    FALLING,
    act,
    make_client,
    receive,
    sockets,
    to_placing,
    two_people,
)


@dataclass
class Stopped:
    """A table whose server stopped while Ada was catching."""

    table: str
    ada: str
    show: dict[str, Any]  # the settle message as Ada got it when the window opened
    version: int  # the table's version in the window
    spent: float  # seconds of the window gone when the server stopped
    stopped: float  # the server's time when it stopped

    @property
    def closes_in(self) -> float:
        return float(self.show["catch"]["closes_in"])


def stop_in_the_window(path: Path, share: float) -> Stopped:
    """Ada places a piece that falls; when `share` of her window has gone the server stops."""
    clock = ManualClock()
    with make_client(path, clock) as client:
        table, ada, ben = two_people(client)
        first, second = sockets(client, table, ada, ben)
        with first, second:
            act(first, FALLING, to_placing(first, second)["version"])
            show = receive(first, "settle")
            in_window = receive(first)
        assert in_window["view"]["phase"] == "catch" and show["catch"]["seat"] == 0
        spent = share * show["catch"]["closes_in"]
        clock.advance(spent)
    return Stopped(table, ada, show, in_window["version"], spent, clock.now())


def stored_catches(path: Path) -> dict[str, str]:
    store = Store(db_url(path))
    try:
        return store.deadline_data(CATCH)
    finally:
        store.close()


def test_a_restarted_server_reopens_the_window_and_a_catch_sent_after_counts(
    tmp_path: Path,
) -> None:
    stopped = stop_in_the_window(tmp_path, 0.25)
    assert list(stored_catches(tmp_path)) == [stopped.table]
    spent, down = stopped.spent, stopped.closes_in / 4  # a quarter gone, another while down
    clock = ManualClock(stopped.stopped + down)
    with (
        make_client(tmp_path, clock) as client,
        client.websocket_connect(f"/api/tables/{stopped.table}/ws?token={stopped.ada}") as ws,
    ):
        show = dict(ws.receive_json())  # the motion again, as far as it has played
        assert show["type"] == "settle", show
        state = receive(ws)
        act(ws, f"catch {show['placed']}", state["version"])
        after = receive(ws)
    before = stopped.show
    assert show["frames"] == before["frames"] and show["falls"] == before["falls"]
    assert show["elapsed"] == pytest.approx(spent + down, abs=0.002)
    assert show["catch"]["seat"] == 0
    left = stopped.closes_in - spent - down
    assert show["catch"]["closes_in"] == pytest.approx(left, abs=0.002)
    piece = str(show["placed"])
    landing = before["catch"]["deadlines"][piece] - spent - down
    assert show["catch"]["deadlines"][piece] == pytest.approx(landing, abs=0.002)
    assert state["version"] == stopped.version and state["view"]["phase"] == "catch"
    assert after["log"][-1]["args"]["action"] == f"catch {show['placed']}"
    assert "catch_lost" not in [entry["key"] for entry in after["log"]]
    assert stored_catches(tmp_path) == {}  # the window is over: its row is gone


def test_a_reopened_window_closes_empty_at_its_stored_end(tmp_path: Path) -> None:
    stopped = stop_in_the_window(tmp_path, 0.25)
    down = stopped.closes_in / 4
    left = stopped.closes_in - stopped.spent - down
    clock = ManualClock(stopped.stopped + down)
    with (
        make_client(tmp_path, clock) as client,
        client.websocket_connect(f"/api/tables/{stopped.table}/ws?token={stopped.ada}") as ws,
    ):
        reopened = dict(ws.receive_json())
        assert reopened["type"] == "settle" and reopened["catch"], reopened
        receive(ws)
        clock.advance(left - 0.05)
        ws.send_json({"type": "sync"})
        still = receive(ws)  # a moment before the stored end the window is open
        clock.advance(0.05)
        after = receive(ws)
    assert still["version"] == stopped.version and still["view"]["phase"] == "catch"
    assert after["view"]["phase"] != "catch"
    assert after["log"][-1]["args"]["action"] == "catch none"
    assert "catch_lost" not in [entry["key"] for entry in after["log"]]


def test_a_window_that_ran_out_while_the_server_was_down_is_closed_empty(tmp_path: Path) -> None:
    stopped = stop_in_the_window(tmp_path, 0.25)
    over = stopped.stopped + stopped.closes_in  # a quarter of it past its end
    with (
        make_client(tmp_path, ManualClock(over)) as client,
        client.websocket_connect(f"/api/tables/{stopped.table}/ws?token={stopped.ada}") as ws,
    ):
        state = receive(ws)
    assert state["view"]["phase"] != "catch"
    keys = [entry["key"] for entry in state["log"]]
    assert keys[-2:] == ["catch_lost", "move"]  # nobody could catch while it was down
    assert state["log"][-1]["args"]["action"] == "catch none"
    assert state["version"] == stopped.version + 2
    assert stored_catches(tmp_path) == {}


def test_an_unreadable_stored_window_is_closed_empty_and_the_table_plays_on(
    tmp_path: Path,
) -> None:
    stopped = stop_in_the_window(tmp_path, 0.25)
    store = Store(db_url(tmp_path))
    try:
        store.set_deadline(stopped.table, CATCH, 0, stopped.stopped + 60.0, '{"version": "x"')
    finally:
        store.close()
    with (
        make_client(tmp_path, ManualClock(stopped.stopped)) as client,
        client.websocket_connect(f"/api/tables/{stopped.table}/ws?token={stopped.ada}") as ws,
    ):
        state = receive(ws)
    assert state["type"] == "state", state
    assert [entry["key"] for entry in state["log"]][-2:] == ["catch_lost", "move"]
