"""The server checks its database before it starts: a file that is empty or no database, a
database of another program or of a newer version, and one it cannot write are refused with
a clear message; a table that cannot be rebuilt is marked broken and the others start."""

from __future__ import annotations

import importlib.util
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from spieltisch.server.store import SCHEMA_VERSION, StorageError, Store

from .helpers import client_for, join, make_table
from .live import free_port, start_server

SCHEMA_1 = Path(__file__).parent / "data" / "schema1.sqlite3"
"""A database written by the server of schema 1: a finished all-bot game (seed 11) and a
game of Ada against a bot, three moves in (seed 12). test_migrations upgrades it and plays
on."""
FINISHED_ID, PLAYING_ID = "wlWpyC3hmINC", "qw9yumgD_okA"


def sqlite_in(folder: Path) -> list[str]:
    """The `serve` option for the SQLite file in `folder`, whatever database the other
    tests use: these tests are about files."""
    return ["--db", f"sqlite:///{folder / 'spieltisch.sqlite3'}"]


def serve_refused(*options: str) -> str:
    """Start `serve` with `options`; it must exit with status 2. Returns what it printed."""
    command = [sys.executable, "-m", "spieltisch", "serve", "--port", str(free_port()), *options]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    return done.stdout


@pytest.mark.slow  # a real serve process
def test_an_empty_database_file_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    (tmp_path / "spieltisch.sqlite3").write_bytes(b"")
    said = serve_refused("--data-dir", str(tmp_path))
    assert "is empty (0 bytes)" in said
    assert (tmp_path / "spieltisch.sqlite3").stat().st_size == 0


@pytest.mark.slow  # a real serve process
def test_a_file_that_is_no_database_is_refused(tmp_path: Path) -> None:
    (tmp_path / "spieltisch.sqlite3").write_text("my shopping list\n")
    assert "is not an SQLite database" in serve_refused("--data-dir", str(tmp_path))


@pytest.mark.slow  # a real serve process
def test_another_programs_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "spieltisch.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE invoices (number INTEGER)")
    said = serve_refused("--data-dir", str(tmp_path))
    assert "not spieltisch's (invoices)" in said
    with sqlite3.connect(path) as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert names == {"invoices"}


@pytest.mark.slow  # a real serve process
def test_a_database_of_a_newer_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "spieltisch.sqlite3"
    Store(f"sqlite:///{path}").close()
    newer = f"{SCHEMA_VERSION + 1:04d}"
    with sqlite3.connect(path) as db:
        db.execute("UPDATE alembic_version SET version_num = ?", (newer,))
    said = serve_refused("--data-dir", str(tmp_path))
    assert f"newer spieltisch (schema {newer}; this one knows up to" in said


@pytest.mark.slow  # a real serve process
def test_a_read_only_database_is_reported_at_start(tmp_path: Path) -> None:
    path = tmp_path / "spieltisch.sqlite3"
    Store(f"sqlite:///{path}").close()
    said = serve_refused("--db", f"sqlite:///file:{path}?mode=ro&uri=true")
    assert "readonly database" in said and "can write to" in said


@pytest.mark.slow
def test_the_upgraded_database_serves_its_old_tables(tmp_path: Path) -> None:
    shutil.copy(SCHEMA_1, tmp_path / "spieltisch.sqlite3")
    with start_server(tmp_path, extra=sqlite_in(tmp_path)) as live:
        finished = httpx.get(f"{live.url}api/tables/{FINISHED_ID}/record").json()
        assert finished["seed"] == 11 and len(finished["actions"]) > 100
        playing = httpx.get(f"{live.url}api/tables/{PLAYING_ID}").json()
        assert playing["status"] == "playing" and playing["version"] == 6


def break_a_table(path: Path, table_id: str) -> None:
    """Make the first move stored for `table_id` one the rules do not allow."""
    with sqlite3.connect(path) as db:
        db.execute(
            "UPDATE entries SET action = 'take 99' WHERE table_id = ? AND seq = "
            "(SELECT MIN(seq) FROM entries WHERE table_id = ? AND actor >= 0)",
            (table_id, table_id),
        )


@pytest.mark.slow
def test_a_broken_table_is_marked_and_skipped_and_the_others_start(tmp_path: Path) -> None:
    shutil.copy(SCHEMA_1, tmp_path / "spieltisch.sqlite3")
    break_a_table(tmp_path / "spieltisch.sqlite3", PLAYING_ID)
    for _ in range(2):  # marked the first time, still kept aside the second
        with start_server(tmp_path, extra=sqlite_in(tmp_path)) as live:
            broken = httpx.get(f"{live.url}api/tables/{PLAYING_ID}")
            assert broken.status_code == 410
            assert broken.json()["error"] == "table_broken"
            assert "'take 99'" in broken.json()["message"]
            assert httpx.get(f"{live.url}api/tables/{FINISHED_ID}").status_code == 200
            created = httpx.post(
                f"{live.url}api/tables",
                json={"game": "pickomino", "seats": [{"bot": "greedy"}, {"bot": "greedy"}]},
            )
            assert created.status_code == 201
    with sqlite3.connect(tmp_path / "spieltisch.sqlite3") as db:
        (reason,) = db.execute("SELECT broken FROM tables WHERE id = ?", (PLAYING_ID,)).fetchone()
    assert "take 99" in reason


@pytest.mark.slow  # a real serve process
def test_the_banner_names_a_broken_table(tmp_path: Path) -> None:
    shutil.copy(SCHEMA_1, tmp_path / "spieltisch.sqlite3")
    break_a_table(tmp_path / "spieltisch.sqlite3", PLAYING_ID)
    port = free_port()
    command = [sys.executable, "-m", "spieltisch", "serve", "--data-dir", str(tmp_path)]
    with subprocess.Popen(
        [*command, "--port", str(port)], stdout=subprocess.PIPE, text=True
    ) as process:
        assert process.stdout is not None
        wanted = f"table {PLAYING_ID} is broken and was not started"
        banner: list[str] = []
        while len(banner) < 4 and not any(wanted in line for line in banner):
            banner.append(process.stdout.readline())  # a warning line may come first
        process.terminate()
    assert any(wanted in line for line in banner), banner


def test_storage_errors_name_the_database(tmp_path: Path) -> None:
    (tmp_path / "x.sqlite3").write_bytes(b"")
    with pytest.raises(StorageError, match=r"x\.sqlite3 is empty"):
        Store(f"sqlite:///{tmp_path / 'x.sqlite3'}")


def test_a_url_that_names_no_usable_database_is_refused() -> None:
    with pytest.raises(StorageError, match=r"'tables\.db' is not a database URL"):
        Store("tables.db")
    with pytest.raises(StorageError, match="nosuch://host/db cannot be used: Can't load plugin"):
        Store("nosuch://host/db")


def test_a_database_whose_driver_is_missing_is_refused() -> None:
    if importlib.util.find_spec("MySQLdb") is not None:
        pytest.skip("MySQLdb, the driver this test expects to be missing, is installed")
    with pytest.raises(StorageError, match=r"its driver is not installed \(No module named"):
        Store("mysql+mysqldb://user@127.0.0.1/tables")


# --- the dice ---------------------------------------------------------------------------------


def test_a_tables_dice_come_from_the_servers_secret_nobody_sees(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        made = client.post(
            "/api/tables", json={"game": "pickomino", "seats": [{"bot": None}, {"bot": None}]}
        ).json()
        assert made["seeded"] is False and made["seed"] is None
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        row = lobby.tables[made["id"]].row
        assert row.secret is not None and int(row.secret, 16).bit_length() > 100
        assert row.dice_key == row.secret
        join(client, made["id"], "Ada")
        join(client, made["id"], "Bo")
        everything = str(client.get(f"/api/tables/{made['id']}").json())
        assert row.secret not in everything and str(row.seed) not in everything


def test_two_tables_never_share_their_dice(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        seats = [{"bot": None}, {"bot": None}]
        body = {"game": "pickomino", "seats": seats}
        ids = [client.post("/api/tables", json=body).json()["id"] for _ in range(2)]
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        assert lobby.tables[ids[0]].row.secret != lobby.tables[ids[1]].row.secret


def test_a_seeded_table_shows_its_seed_to_everybody(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        made = make_table(client, [None, "greedy"], seed=2024)
        assert made["seeded"] is True and made["seed"] == 2024
        listed = [t for t in client.get("/api/tables").json() if t["id"] == made["id"]]
        assert listed[0]["seeded"] is True and listed[0]["seed"] == 2024
        token = join(client, made["id"], "Ada")
        with client.websocket_connect(f"/api/tables/{made['id']}/ws?token={token}") as ws:
            state = ws.receive_json()
        assert state["table"]["seed"] == 2024 and state["table"]["seeded"] is True
