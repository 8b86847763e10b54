"""A full disk refuses the moves that cannot be stored and nothing else; when space comes
back, the tables go on by themselves, with a history without a hole. On a real, small disk
(a tmpfs mounted for the test)."""

from __future__ import annotations

import contextlib
import errno
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.server.database import on_sqlite
from tests.server.live import start_server
from tests.server.seated import (
    TIMEOUT,
    gapless,
    move_and_leave,
    socket,
    state_of,
    two_people,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not on_sqlite(), reason="the SQLite file on a disk of its own"),
]

DISK = "8m"


@contextlib.contextmanager
def small_disk(where: Path) -> Iterator[Path]:
    where.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={DISK}", "tmpfs", str(where)],
        capture_output=True,
        text=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"a tmpfs cannot be mounted here: {mounted.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(disk: Path) -> Path:
    """Take every free byte of `disk`; the file that holds them."""
    filler = disk / "filler"
    with filler.open("wb") as file:
        try:
            while True:
                file.write(b"\0" * 65536)
                file.flush()
        except OSError as error:
            assert error.errno == errno.ENOSPC
    return filler


def test_a_full_disk_refuses_moves_and_the_table_goes_on_when_space_is_back(
    tmp_path: Path,
) -> None:
    with small_disk(tmp_path / "disk") as disk, start_server(disk) as live:
        url = live.url
        table_id, tokens = two_people(url)
        with socket(url, table_id, tokens[0]) as first, socket(url, table_id, tokens[1]) as second:
            seats = [first, second]
            states = [state_of(ws) for ws in seats]
            state = states[states[0]["to_move"]]
            mover = seats[state["you"]]
            filler = fill(disk)
            move = {"type": "action", "version": state["version"]}
            mover.send(json.dumps({**move, "action": state["view"]["legal_actions"][0]}))
            refused = state_of(mover)
            assert refused["type"] == "error", refused
            assert refused["code"] in ("not_saved", "unavailable")
            assert httpx.get(url + "api/tables", timeout=TIMEOUT).status_code == 200
            filler.unlink()  # space is back
            move_and_leave(url, table_id, tokens, mover)
        assert live.process.poll() is None  # it never stopped
        assert gapless(f"sqlite:///{disk / 'spieltisch.sqlite3'}", table_id)
