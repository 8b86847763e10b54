"""A player's rated games as the profile shows them, from a known set of counted ends: the
history, the latest games, wins and average place by table size, head-to-head records (ties
and a leaver counted last included); and two tables ending at once that both give a new
player a first rating, on two stores of one database (SQLite, and PostgreSQL when it is
reachable)."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Connection, insert, select, text

from spieltisch.ratings.model import Rating, finishing_places
from spieltisch.server.rated import RatedEnd, count_end
from spieltisch.server.rating_stats import (
    HeadToHead,
    PlacesBySeats,
    fellow_players,
    head_to_head,
    places_by_seats,
    rating_history,
    recent_games,
)
from spieltisch.server.schema import ACCOUNTS, RATING_CHANGES, RATINGS
from spieltisch.server.store import SeatRow, Store, TableRow
from tests.server.database import db_url
from tests.server.sites import shared_db

START = 1_000_000.0
NAMES = {"a": "Ada", "b": "Bea", "c": "Cem"}


def add_accounts(store: Store) -> None:
    with store.engine.begin() as db:
        for account_id, name in NAMES.items():
            values = {"name": name, "name_key": name.lower(), "password_hash": "x"}
            db.execute(insert(ACCOUNTS).values(id=account_id, created=START, **values))


def end_game(
    store: Store, table_id: str, game: str, seats: list[str], places: list[int], at: float
) -> None:
    """A rated table of `seats` (account ids, or bot names prefixed 'bot:') that ended with
    `places`, counted as the store counts a stored end."""
    accounts = tuple(None if s.startswith("bot:") else s for s in seats)
    bots = tuple(s[4:] if s.startswith("bot:") else None for s in seats)
    row = TableRow(table_id, game, {}, 1, None, START, rated=True)
    seat_rows = [SeatRow(n, bots[n], None, None, account_id=accounts[n]) for n in range(len(seats))]
    store.add_table(row, seat_rows, [])
    with store.engine.begin() as db:
        assert count_end(db, RatedEnd(table_id, game, accounts, bots, tuple(places), at))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """Four counted rated games of Ada, Bea and Cem."""
    played = Store(db_url(tmp_path))
    add_accounts(played)
    end_game(played, "t1", "pickomino", ["a", "b"], [0, 1], START + 1)
    end_game(played, "t2", "pickomino", ["a", "b", "bot:greedy"], [0, 0, 2], START + 2)  # a tie
    bea_left = finishing_places(winners=[1], scores=[5, 9, 3], left=[1])  # she led, then left
    assert bea_left == [0, 2, 1]
    end_game(played, "t3", "pickomino", ["a", "b", "c"], bea_left, START + 3)
    end_game(played, "t4", "karolinchen", ["a", "c"], [1, 0], START + 4)
    yield played
    played.close()


def test_wins_and_average_place_by_table_size(store: Store) -> None:
    assert places_by_seats(store.engine, "a") == [
        PlacesBySeats("karolinchen", 2, games=1, wins=0, average_place=2.0),
        PlacesBySeats("pickomino", 2, games=1, wins=1, average_place=1.0),
        PlacesBySeats("pickomino", 3, games=2, wins=2, average_place=1.0),  # a shared win counts
    ]
    assert places_by_seats(store.engine, "b") == [
        PlacesBySeats("pickomino", 2, games=1, wins=0, average_place=2.0),
        PlacesBySeats("pickomino", 3, games=2, wins=1, average_place=2.0),  # 1st (tied), 3rd
    ]
    assert places_by_seats(store.engine, "nobody") == []


def test_head_to_head_counts_ties_and_a_leaver_behind(store: Store) -> None:
    assert head_to_head(store.engine, "a", "b") == [HeadToHead("pickomino", 3, 2, 0, 1)]
    assert head_to_head(store.engine, "b", "a") == [HeadToHead("pickomino", 3, 0, 2, 1)]
    assert head_to_head(store.engine, "b", "c") == [HeadToHead("pickomino", 1, 0, 1, 0)]
    assert head_to_head(store.engine, "a", "c") == [
        HeadToHead("karolinchen", 1, 0, 1, 0),
        HeadToHead("pickomino", 1, 1, 0, 0),
    ]


def test_the_latest_games_newest_first_and_bounded(store: Store) -> None:
    recent = recent_games(store.engine, "a")
    assert [(g.table_id, g.place, g.players) for g in recent] == [
        ("t4", 1, 2),
        ("t3", 0, 3),
        ("t2", 0, 3),
        ("t1", 0, 2),
    ]
    assert [g.table_id for g in recent_games(store.engine, "a", most=2)] == ["t4", "t3"]
    assert fellow_players(store.engine, "a", ["t3", "t4"]) == {"t3": ["Bea", "Cem"], "t4": ["Cem"]}


def test_a_rating_history_is_a_chain_of_its_games(store: Store) -> None:
    history = rating_history(store.engine, "a", ["pickomino", "karolinchen"])
    pickomino = history["pickomino"]
    assert [g.table_id for g in pickomino] == ["t1", "t2", "t3"]
    assert pickomino[0].before == Rating()
    for earlier, later in itertools.pairwise(pickomino):
        assert later.before == earlier.after
    assert pickomino[0].after.mu > pickomino[0].before.mu  # won against Bea
    assert [g.table_id for g in history["karolinchen"]] == ["t4"]
    assert history["karolinchen"][0].after.mu < Rating().mu  # lost to Cem
    last_two = rating_history(store.engine, "a", ["pickomino"], most=2)["pickomino"]
    assert [g.table_id for g in last_two] == ["t2", "t3"]
    with store.engine.connect() as db:
        mu, games = db.execute(
            select(RATINGS.c.mu, RATINGS.c.games).where(
                RATINGS.c.account_id == "a", RATINGS.c.game == "pickomino"
            )
        ).one()
    assert (mu, games) == (pickomino[-1].after.mu, 3)


# --- two first ratings at once ---------------------------------------------------------------


def database(kind: str, folder: Path) -> str:
    return db_url(folder) if kind == "sqlite" else shared_db(folder)


def waiting_on_a_lock(db: Connection) -> bool:
    """Whether another PostgreSQL session is waiting for a lock."""
    query = text("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")
    return bool(db.execute(query).scalar())


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_two_tables_ending_at_once_both_rate_a_new_player(kind: str, tmp_path: Path) -> None:
    url = database(kind, tmp_path)
    first, second = Store(url), Store(url)
    try:
        add_accounts(first)
        for table_id in ("t1", "t2"):
            row = TableRow(table_id, "pickomino", {}, 1, None, START, rated=True)
            ada = SeatRow(0, None, "Ada", None, account_id="a")
            first.add_table(row, [ada, SeatRow(1, "greedy", None, None)], [])
        failed: list[BaseException] = []

        def second_end() -> None:
            try:
                with second.engine.begin() as db:
                    end = RatedEnd("t2", "pickomino", ("a", None), (None, "greedy"), (0, 1), START)
                    count_end(db, end)
            except BaseException as error:
                failed.append(error)

        other = threading.Thread(target=second_end)
        with first.engine.begin() as db:
            end = RatedEnd("t1", "pickomino", ("a", None), (None, "greedy"), (1, 0), START)
            assert count_end(db, end)
            other.start()  # its first rating of Ada now waits for this transaction
            if kind == "postgresql":
                with first.engine.connect() as watcher:
                    deadline = time.monotonic() + 30
                    while not waiting_on_a_lock(watcher) and time.monotonic() < deadline:
                        time.sleep(0.01)
                    assert waiting_on_a_lock(watcher)
            else:
                time.sleep(0.2)
        other.join(30)
        assert failed == []
        with first.engine.connect() as db:
            games = db.execute(select(RATINGS.c.games).where(RATINGS.c.account_id == "a"))
            assert games.scalar_one() == 2
            changes = db.execute(select(RATING_CHANGES).order_by(RATING_CHANGES.c.table_id)).all()
        assert [c.table_id for c in changes] == ["t1", "t2"]
        assert (changes[1].mu_before, changes[1].sigma_before) == (changes[0].mu, changes[0].sigma)
    finally:
        first.close()
        second.close()
