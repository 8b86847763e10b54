"""Rated tables: only signed-in players sit at them, their end moves the players' ratings
once (also when two workers store it), a seat a bot took over counts last, and the profile
and leaderboard routes show the ratings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from spieltisch.ratings.model import MU0, Rating, shown
from spieltisch.server.clock import ManualClock
from spieltisch.server.rated import RatedEnd, bot_rating, count_end, counted_last
from spieltisch.server.schema import ACCOUNTS, RATINGS
from spieltisch.server.store import EntryRow, SeatRow, Store, TableRow
from tests.server.accounts import PASSWORD, app_client, sign_up
from tests.server.database import db_url
from tests.server.helpers import TestClient, join, make_table, play_until, receive_state

START = 1_000_000.0  # the manual clock's start


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path, ManualClock(START)) as test_client:
        yield test_client


def rated_table(client: TestClient, seats: list[str | None]) -> dict[str, Any]:
    return make_table(client, seats, rated=True, seed=None)


def ratings(client: TestClient) -> dict[str, tuple[float, float, int]]:
    """Each account's name -> (mu, sigma, games) in Pickomino, straight from the database."""
    store: Store = client.app.state.lobby.store  # type: ignore[attr-defined]
    query = select(ACCOUNTS.c.name, RATINGS).join(ACCOUNTS, ACCOUNTS.c.id == RATINGS.c.account_id)
    with store.engine.connect() as db:
        return {r.name: (r.mu, r.sigma, r.games) for r in db.execute(query)}


def play_to_the_end(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    with client.websocket_connect(f"/api/tables/{table_id}/ws?token={token}") as ws:
        state = receive_state(ws)
        return play_until(ws, state, lambda s: s["result"] is not None)


def test_a_rated_game_against_a_bot_moves_the_players_rating_once(client: TestClient) -> None:
    sign_up(client)
    table = rated_table(client, [None, "greedy"])
    assert table["rated"] is True
    token = join(client, table["id"], "Ada")
    final = play_to_the_end(client, table["id"], token)
    mu, sigma, games = ratings(client)["Ada"]
    assert games == 1 and sigma < MU0 / 3
    won = 0 in final["result"]["winners"]
    assert (mu > MU0) == won
    profile = client.get("/api/players/ada").json()
    assert profile["name"] == "Ada"
    [entry] = profile["ratings"]
    assert entry["game"] == "pickomino" and entry["games"] == 1
    assert entry["provisional"] is True and entry["shown"] == f"{entry['rating']}?"
    assert entry["rating"] == shown(Rating(mu, sigma)).points
    assert entry["stronger_than"] is not None or entry["weaker_than"] is not None
    data = client.get("/api/account/data").json()
    assert data["ratings"] == [{"game": "pickomino", "mu": mu, "sigma": sigma, "games": 1}]
    deleted = client.post("/api/account/delete", json={"password": PASSWORD})
    assert deleted.status_code == 204
    assert games_of(client.app.state.lobby.store) == []  # type: ignore[attr-defined]


def test_guests_can_neither_make_nor_join_a_rated_table(client: TestClient) -> None:
    body = {"game": "pickomino", "seats": [{"bot": None}, {"bot": "greedy"}], "rated": True}
    refused = client.post("/api/tables", json=body)
    assert refused.status_code == 403 and refused.json()["error"] == "rated_needs_account"
    sign_up(client)
    table = rated_table(client, [None, None])
    client.cookies.clear()
    guest = client.post(f"/api/tables/{table['id']}/join", json={"name": "Bea"})
    assert guest.status_code == 403 and guest.json()["error"] == "rated_needs_account"
    info = client.get(f"/api/tables/{table['id']}").json()
    assert [s["name"] for s in info["seats"]] == [None, None]


def test_a_rated_table_rolls_secret_dice(client: TestClient) -> None:
    sign_up(client)
    seats = [{"bot": None}, {"bot": "greedy"}]
    body = {"game": "pickomino", "seats": seats, "rated": True, "seed": 3}
    refused = client.post("/api/tables", json=body)
    assert refused.status_code == 400 and refused.json()["error"] == "rated_seeded"


def test_a_casual_game_leaves_the_ratings_alone(client: TestClient) -> None:
    sign_up(client)
    table = make_table(client, [None, "greedy"])
    assert table["rated"] is False
    play_to_the_end(client, table["id"], join(client, table["id"], "Ada"))
    assert ratings(client) == {}
    assert client.get("/api/players/Ada").json()["ratings"] == []


def test_a_player_who_leaves_a_rated_game_counts_last(client: TestClient) -> None:
    sign_up(client, "Bea")
    table = rated_table(client, [None, None])
    bea = join(client, table["id"], "Bea")
    client.cookies.clear()
    sign_up(client, "Ada")
    ada = join(client, table["id"], "Ada")
    left = client.post(f"/api/tables/{table['id']}/leave", json={"token": bea})
    assert left.status_code == 200, left.text
    final = play_to_the_end(client, table["id"], ada)
    assert final["result"]["replaced_by_bot"] == [0]
    after = ratings(client)
    assert after["Ada"][0] > MU0 > after["Bea"][0]  # whatever the stand-in bot scored
    assert after["Ada"][2] == after["Bea"][2] == 1


def test_running_out_of_time_or_leaving_counts_last_and_nothing_else_does() -> None:
    seats = [
        SeatRow(0, None, "Ada", "h0", account_id="a"),
        SeatRow(1, "optimal", "Bea", None, replaced=True, account_id="b"),  # left
        SeatRow(2, None, "Cem", "h2", account_id="c"),
        SeatRow(3, "greedy", None, None),
    ]
    entries = [
        EntryRow(0, None, None, "joined", {"seat": 0}),
        EntryRow(1, None, None, "timeout", {"seat": 2, "bot": "optimal"}),
        EntryRow(2, 2, "roll", None, {}),
    ]
    assert counted_last(seats, entries) == [1, 2]
    assert counted_last(seats, entries[:1]) == [1]


def test_a_player_whose_clock_ran_out_in_a_rated_game_counts_last(tmp_path: Path) -> None:
    clock = ManualClock(START)
    with app_client(tmp_path, clock) as client:
        sign_up(client)
        table = make_table(client, [None, "greedy"], rated=True, seed=None, clock=30)
        token = join(client, table["id"], "Ada")
        with client.websocket_connect(f"/api/tables/{table['id']}/ws?token={token}") as ws:
            state = receive_state(ws)
            clock.advance(31)  # Ada lets her first turn's clock run out: a bot plays it
            while not any(e["key"] == "timeout" for e in state["log"]):
                state = receive_state(ws)
            play_until(ws, state, lambda s: s["result"] is not None)
        mu, _, games = ratings(client)["Ada"]
        [game] = client.get("/api/players/Ada").json()["recent"]
    assert games == 1 and mu < MU0  # last against one bot, whatever the scores said
    assert (game["place"], game["players"]) == (2, 2)  # and so in her history


def test_unknown_players_and_games_are_refused(client: TestClient) -> None:
    missing = client.get("/api/players/Nobody")
    assert missing.status_code == 404 and missing.json()["error"] == "no_player"
    game = client.get("/api/leaderboard/chess")
    assert game.status_code == 400 and game.json()["error"] == "unknown_game"


def test_the_leaderboard_lists_settled_active_players_best_first(client: TestClient) -> None:
    ids = {name: sign_up_id(client, name) for name in ("Ada", "Bea", "Cem", "Dan")}
    day = 24 * 3600.0
    rows = [
        ("Ada", 30.0, 3.0, START - day),  # settled, played yesterday
        ("Bea", 32.0, 3.4, START),  # settled and better
        ("Cem", 40.0, 4.0, START),  # not yet settled for the leaderboard
        ("Dan", 35.0, 3.0, START - 8 * day),  # settled but away for eight days
    ]
    store: Store = client.app.state.lobby.store  # type: ignore[attr-defined]
    with store.engine.begin() as db:
        for name, mu, sigma, when in rows:
            values = {"mu": mu, "sigma": sigma, "games": 30, "last_played": when}
            db.execute(insert(RATINGS).values(account_id=ids[name], game="pickomino", **values))
    board = client.get("/api/leaderboard/pickomino").json()
    assert [(p["place"], p["name"]) for p in board["players"]] == [(1, "Bea"), (2, "Ada")]
    assert board["players"][0]["rating"] == shown(Rating(32.0, 3.4)).points
    assert client.get("/api/leaderboard/karolinchen").json()["players"] == []
    cem = client.get("/api/players/Cem").json()["ratings"][0]
    assert cem["provisional"] is False and cem["shown"] == str(cem["rating"])


def test_the_lobby_shows_the_bots_calibrated_ratings(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    pickomino = games["pickomino"]["bot_ratings"]
    assert pickomino["greedy"] == shown(bot_rating("pickomino", "greedy")).points
    assert pickomino["optimal"] > pickomino["greedy"] > pickomino["random"]


def sign_up_id(client: TestClient, name: str) -> str:
    sign_up(client, name)
    store: Store = client.app.state.lobby.store  # type: ignore[attr-defined]
    with store.engine.connect() as db:
        found = db.execute(select(ACCOUNTS.c.id).where(ACCOUNTS.c.name == name)).scalar_one()
    client.cookies.clear()
    return str(found)


# --- exactly once, at the store ------------------------------------------------------------


def two_seat_table(store: Store, rated: bool = True) -> None:
    row = TableRow("t1", "pickomino", {}, 1, None, START, rated=rated)
    seats = [SeatRow(0, None, "Ada", "h", account_id="a1"), SeatRow(1, "greedy", None, None)]
    store.add_table(row, seats, [])


def the_end(now: float = START) -> RatedEnd:
    return RatedEnd("t1", "pickomino", ("a1", None), (None, "greedy"), (0, 1), now)


def games_of(store: Store) -> list[tuple[str, int]]:
    with store.engine.connect() as db:
        return [(r.account_id, r.games) for r in db.execute(select(RATINGS))]


def test_an_end_stored_by_two_workers_counts_once(tmp_path: Path) -> None:
    url = db_url(tmp_path)
    first, second = Store(url), Store(url)
    try:
        two_seat_table(first)
        last = EntryRow(0, None, None, "joined", {"seat": 0})
        first.add_entries([("t1", last, None)], [the_end()])
        with pytest.raises(IntegrityError):  # the same version: the other worker's is stored
            second.add_entries([("t1", last, None)], [the_end()])
        later = EntryRow(1, None, None, "joined", {"seat": 0})
        second.add_entries([("t1", later, None)], [the_end(START + 1)])  # the table counted
        with second.engine.begin() as db:
            assert count_end(db, the_end()) is False
        assert games_of(first) == [("a1", 1)]
    finally:
        first.close()
        second.close()


def test_a_casual_tables_end_is_never_counted(tmp_path: Path) -> None:
    store = Store(db_url(tmp_path))
    try:
        two_seat_table(store, rated=False)
        with store.engine.begin() as db:
            assert count_end(db, the_end()) is False
        assert games_of(store) == []
    finally:
        store.close()
