"""Schema migrations: databases written by older servers are upgraded in place and play on,
an empty one is made at the newest schema, a newer one is refused untouched, a failed upgrade
changes nothing, servers starting together upgrade once, and `spieltisch db` does the same
from the command line. On PostgreSQL the old databases are rebuilt from the SQLite files."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, MetaData, create_engine, inspect, select, text

from spieltisch.cli.main import main
from spieltisch.core.record import replay_states
from spieltisch.server import migrate
from spieltisch.server.schema import METADATA
from spieltisch.server.store import SCHEMA_VERSION, StorageError, Store
from spieltisch.server.table import LiveTable

from .database import db_url, on_sqlite

DATA = Path(__file__).parent / "data"
OUR_TABLES = {
    "tables",
    "seats",
    "entries",
    "chat",
    "deadlines",
    "meta",
    "alembic_version",
    "accounts",
    "sessions",
    "sign_in_failures",
    "ratings",
    "mail_sent",
}
ACCOUNT_TABLES = {"accounts", "sessions", "sign_in_failures"}
"""The tables of schema 4."""
HEAD = migrate.head()
NEWER = f"{SCHEMA_VERSION + 1:04d}"  # a revision this spieltisch does not know


@dataclass(frozen=True)
class OldDatabase:
    """A database an older server wrote: a finished all-bot game with a public seed and a
    person's unfinished game against a bot, waiting for the person's move."""

    file: Path
    revision: str
    finished: str  # the finished table's id
    finished_seed: int
    playing: str  # the unfinished table's id
    playing_version: int
    secret_dice: bool  # whether the unfinished table rolls the server's secret dice


SCHEMA_1 = OldDatabase(
    DATA / "schema1.sqlite3", "0001", "wlWpyC3hmINC", 11, "qw9yumgD_okA", 6, False
)
"""Written by the server of schema 1: two greedy bots played to the end on seed 11; Ada
against a bot on seed 12, three moves in and to move."""

SCHEMA_2 = OldDatabase(
    DATA / "schema2.sqlite3", "0002", "mNRl9Xi-EwAv", 21, "8T5KD9RIp1Ad", 5, True
)
"""Written by the last server before the migrations (commit a1d5793) through its REST and
WebSocket API with bot delay 0: table mNRl9Xi-EwAv, two greedy bots at pace `instant` with
the public seed 21, played to the end; table 8T5KD9RIp1Ad, Ada (seat 0) against greedy at
pace `slow` on the server's secret dice, Ada took the 1s and rolled again, then said
"good luck" in the chat. Stored with 512-byte pages and vacuumed to keep it small."""


def open_copy(old: OldDatabase, folder: Path) -> str:
    """A database of the test's kind holding `old`'s rows as its server left them (no Alembic
    stamp): a copy of the file on SQLite, else the old schema migrated to and filled in."""
    url = db_url(folder)
    if on_sqlite():
        shutil.copy(old.file, url.removeprefix("sqlite:///"))
        return url
    engine = create_engine(url)
    source = create_engine(f"sqlite:///{old.file}")
    try:
        with engine.begin() as db, source.connect() as rows:
            migrate.upgrade(db, old.revision)
            db.execute(text("DROP TABLE alembic_version"))
            copy_rows(rows, db)
    finally:
        engine.dispose()
        source.dispose()
    return url


def copy_rows(source: Connection, target: Connection) -> None:
    """Every row of spieltisch's tables (read with their types, so SQLite's 0 and 1 arrive
    as booleans)."""
    read, write = MetaData(), MetaData()
    read.reflect(source)
    write.reflect(target, only=list(read.tables))
    for name, table in read.tables.items():
        rows = [dict(row._mapping) for row in source.execute(select(table))]
        if rows and name != "meta":  # the migration wrote meta's version
            target.execute(write.tables[name].insert(), rows)


@contextmanager
def connect(url: str) -> Iterator[Connection]:
    """A connection to `url`, closed (its engine too) at the end."""
    engine = create_engine(url)
    try:
        with engine.connect() as db:
            yield db
    finally:
        engine.dispose()


def schema_of(url: str) -> dict[str, Any]:
    """The tables, their columns and keys, the stamped revision and meta's version."""
    with connect(url) as db:
        found = inspect(db)
        tables = {
            name: (
                [(c["name"], str(c["type"]), c["nullable"]) for c in found.get_columns(name)],
                found.get_pk_constraint(name)["constrained_columns"],
            )
            for name in sorted(found.get_table_names())
        }
        stamped = migrate.stamped(db)
        version = (
            db.execute(text("SELECT value FROM meta")).scalars().all() if "meta" in tables else None
        )
    return {"tables": tables, "stamped": stamped, "meta": version}


def differences_from_the_stores_tables(url: str) -> list[Any]:
    """What the migrated schema lacks or has unlike the tables the store's queries use."""
    with connect(url) as db:
        found = compare_metadata(MigrationContext.configure(db), METADATA)
    seed_type = ("modify_type", None, "tables", "seed")
    # SQLite's INTEGER holds 64 bits, so schema 1's seed column stays as it was there
    return [d for d in found if not (on_sqlite() and tuple(d[0][:4]) == seed_type)]


# --- older databases ----------------------------------------------------------------------


@pytest.mark.parametrize("old", [SCHEMA_1, SCHEMA_2], ids=["schema1", "schema2"])
def test_an_older_database_is_upgraded_in_place_and_plays_on(
    tmp_path: Path, old: OldDatabase
) -> None:
    url = open_copy(old, tmp_path)
    store = Store(url)
    assert store.found_revision == old.revision
    assert store.revision() == HEAD and store.schema_version() == SCHEMA_VERSION
    rows = {row.id: row for row in store.tables()}
    assert set(rows) == {old.finished, old.playing}
    finished = LiveTable.load(store, rows[old.finished])
    record = finished.record()
    assert finished.over and record.seed == old.finished_seed
    assert replay_states(record)[-1] == finished.state
    playing = LiveTable.load(store, rows[old.playing])
    assert (playing.row.secret is not None) == old.secret_dice
    assert playing.version == old.playing_version and playing.seats[0].name == "Ada"
    move = playing.game.format_action(playing.game.legal_actions(playing.state)[0])
    playing.play(0, move)
    store.add_entries([(old.playing, entry, seat) for entry, seat in playing.take_unsaved()])
    store.close()

    reopened = Store(url)
    assert reopened.found_revision == HEAD
    again = LiveTable.load(reopened, rows[old.playing])
    assert again.actions == playing.actions and again.state == playing.state
    reopened.close()
    assert schema_of(url)["meta"] == [str(SCHEMA_VERSION)]
    assert differences_from_the_stores_tables(url) == []


def test_an_empty_database_is_made_at_the_newest_schema(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    store = Store(url)
    assert store.found_revision is None and store.revision() == HEAD
    store.close()
    schema = schema_of(url)
    assert set(schema["tables"]) == OUR_TABLES
    assert schema["stamped"] == (HEAD,) and schema["meta"] == [str(SCHEMA_VERSION)]
    assert differences_from_the_stores_tables(url) == []


def test_the_newest_revision_is_the_schema_version() -> None:
    assert migrate.head() == f"{SCHEMA_VERSION:04d}"


def test_the_migrations_are_packages_so_they_ship() -> None:
    """setuptools' packages.find puts only folders with an __init__.py into the wheel."""
    folders = {path.parent for path in migrate.MIGRATIONS.rglob("*.py")}
    assert migrate.MIGRATIONS / "versions" in folders
    assert all((folder / "__init__.py").exists() for folder in folders)


def test_opening_an_upgraded_database_again_changes_nothing(tmp_path: Path) -> None:
    url = open_copy(SCHEMA_1, tmp_path)
    Store(url).close()
    before = schema_of(url)
    store = Store(url)
    assert store.found_revision == HEAD
    assert len(store.entries(SCHEMA_1.finished)) > 100
    store.close()
    assert schema_of(url) == before


@pytest.mark.slow
def test_opening_prints_and_logs_nothing(tmp_path: Path) -> None:
    """Checked in a fresh interpreter, where nothing but spieltisch sets up logging."""
    url = open_copy(SCHEMA_1, tmp_path)
    code = "import sys\nfrom spieltisch.server.store import Store\nStore(sys.argv[1]).close()"
    done = subprocess.run(
        [sys.executable, "-c", code, url], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert schema_of(url)["stamped"] == (HEAD,)


# --- refusals -----------------------------------------------------------------------------


def test_a_database_of_an_unknown_revision_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    Store(url).close()
    with connect(url) as db:
        db.execute(text("UPDATE alembic_version SET version_num = :newer"), {"newer": NEWER})
        db.commit()
    before = schema_of(url)
    with pytest.raises(StorageError) as refused:
        Store(url)
    said = str(refused.value)
    assert f"written by a newer spieltisch (schema {NEWER}; this one knows up to {HEAD})" in said
    assert "run the newer version or use another database" in said
    assert schema_of(url) == before


def test_an_unstamped_database_of_a_newer_meta_version_is_refused(tmp_path: Path) -> None:
    url = open_copy(SCHEMA_2, tmp_path)
    with connect(url) as db:
        db.execute(text("UPDATE meta SET value = :newer"), {"newer": str(SCHEMA_VERSION + 1)})
        db.commit()
    with pytest.raises(StorageError, match=rf"newer spieltisch \(schema {NEWER};"):
        Store(url)
    assert schema_of(url)["stamped"] == ()


def test_a_failed_upgrade_leaves_the_database_as_it_was(tmp_path: Path) -> None:
    """Schema 2 adds the column `pace`; here it is there already, so the upgrade fails after
    it added the columns before it, and all of them are undone."""
    url = open_copy(SCHEMA_1, tmp_path)
    with connect(url) as db:
        db.execute(text("ALTER TABLE tables ADD COLUMN pace VARCHAR(16)"))
        db.commit()
    before = schema_of(url)
    with pytest.raises(StorageError, match=r"cannot be used: .*pace"):
        Store(url)
    assert schema_of(url) == before


# --- the migrations themselves --------------------------------------------------------------


def test_every_migration_can_be_undone_and_done_again(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    Store(url).close()
    newest = schema_of(url)
    with connect(url) as db:
        migrate.downgrade(db, "0001")
        db.commit()
    schema_1 = schema_of(url)
    assert set(schema_1["tables"]) == OUR_TABLES - {
        "meta",
        "deadlines",
        "ratings",
        "mail_sent",
        *ACCOUNT_TABLES,
    }
    columns = [name for name, _, _ in schema_1["tables"]["tables"][0]]
    assert columns == ["id", "game", "options", "seed", "clock", "created"]
    with connect(url) as db:
        migrate.downgrade(db, "base")
        db.commit()
    assert set(schema_of(url)["tables"]) == {"alembic_version"}
    with connect(url) as db:
        migrate.upgrade(db)
        db.commit()
    assert schema_of(url) == newest


def test_servers_starting_together_upgrade_the_database_once(tmp_path: Path) -> None:
    url = open_copy(SCHEMA_1, tmp_path)
    together = threading.Barrier(4)
    found: list[str | None] = []
    failed: list[BaseException] = []

    def start() -> None:
        together.wait()
        try:
            store = Store(url)
        except BaseException as error:  # reported below, with the others
            failed.append(error)
            return
        found.append(store.found_revision)
        store.close()

    starts = [threading.Thread(target=start, daemon=True) for _ in range(4)]
    for thread in starts:
        thread.start()
    for thread in starts:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in starts)
    assert failed == []
    assert sorted(str(revision) for revision in found) == ["0001", HEAD, HEAD, HEAD]
    assert schema_of(url)["stamped"] == (HEAD,)


# --- spieltisch db ----------------------------------------------------------------------------


def run_db(*args: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["db", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_db_upgrade_and_version(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = open_copy(SCHEMA_1, tmp_path)
    status, out, _ = run_db("version", "--db", url, capsys=capsys)
    assert status == 0
    assert "current:  0001" in out and f"head:     {HEAD}" in out and "db upgrade" in out
    status, out, _ = run_db("upgrade", "--db", url, capsys=capsys)
    assert status == 0 and out.endswith(f"is at schema {HEAD} (was 0001)\n")
    status, out, _ = run_db("upgrade", "--db", url, capsys=capsys)
    assert status == 0 and out.endswith(f"is already up to date (schema {HEAD})\n")
    status, out, _ = run_db("version", "--db", url, capsys=capsys)
    assert f"current:  {HEAD}" in out and f"head:     {HEAD}" in out
    assert schema_of(url)["stamped"] == (HEAD,)


def test_db_upgrade_refuses_a_newer_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = db_url(tmp_path)
    Store(url).close()
    with connect(url) as db:
        db.execute(text("UPDATE alembic_version SET version_num = :newer"), {"newer": NEWER})
        db.commit()
    status, out, err = run_db("upgrade", "--db", url, capsys=capsys)
    assert status == 2 and out == ""
    assert f"newer spieltisch (schema {NEWER}" in err and "Traceback" not in err
    status, out, _ = run_db("version", "--db", url, capsys=capsys)
    assert status == 0 and f"current:  {NEWER}" in out and "newer spieltisch" in out


def test_db_commands_in_the_data_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The default database is the SQLite file in --data-dir, whatever the other tests use;
    `version` tells of a missing one without making it."""
    folder = tmp_path / "data"
    status, out, _ = run_db("version", "--data-dir", str(folder), capsys=capsys)
    assert status == 0 and "current:  none" in out and not folder.exists()
    status, out, _ = run_db("upgrade", "--data-dir", str(folder), capsys=capsys)
    assert status == 0 and f"was empty and is now at schema {HEAD}" in out
    with sqlite3.connect(folder / "spieltisch.sqlite3") as db:
        (stamped,) = db.execute("SELECT version_num FROM alembic_version").fetchone()
    assert stamped == HEAD
    (folder / "spieltisch.sqlite3").write_bytes(b"")
    status, _, err = run_db("upgrade", "--data-dir", str(folder), capsys=capsys)
    assert status == 2 and "is empty (0 bytes)" in err
