"""The profile's extras through the routes: each rating's history, the latest rated games with
the other players, wins and average place by table size, the head-to-head record, the bots'
strength levels in the lobby, and the history in the data download and gone with the account."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from spieltisch.ratings.model import shown
from spieltisch.server.clock import ManualClock
from spieltisch.server.rated import RatedEnd, bot_rating, count_end
from spieltisch.server.schema import RATING_CHANGES
from spieltisch.server.store import SeatRow, Store, TableRow
from tests.server.accounts import PASSWORD, app_client, sign_in
from tests.server.helpers import TestClient
from tests.server.test_rated import START, sign_up_id


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_client(tmp_path, ManualClock(START)) as test_client:
        yield test_client


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.lobby.store  # type: ignore[attr-defined]
    return store


def counted(client: TestClient, table_id: str, seats: list[str], places: list[int]) -> None:
    """A rated Pickomino table of `seats` (account ids, or a bot's name after 'bot:') whose
    end with `places` was counted."""
    store = store_of(client)
    accounts = tuple(None if s.startswith("bot:") else s for s in seats)
    bots = tuple(s[4:] if s.startswith("bot:") else None for s in seats)
    seat_rows = [SeatRow(n, bots[n], None, None, account_id=a) for n, a in enumerate(accounts)]
    store.add_table(TableRow(table_id, "pickomino", {}, 1, None, START, rated=True), seat_rows, [])
    at = START + len(table_id)  # later tables have longer ids here
    with store.engine.begin() as db:
        assert count_end(db, RatedEnd(table_id, "pickomino", accounts, bots, tuple(places), at))


def test_a_profile_shows_history_recent_games_and_places(client: TestClient) -> None:
    ada, bea = sign_up_id(client, "Ada"), sign_up_id(client, "Bea")
    counted(client, "t", [ada, bea], [0, 1])
    counted(client, "tt", [ada, bea, "bot:greedy"], [0, 0, 2])  # Ada and Bea share the win
    counted(client, "ttt", [bea, ada, "bot:random"], [0, 2, 1])  # Ada left: last
    profile = client.get("/api/players/ada").json()
    [pickomino] = profile["ratings"]
    history = pickomino["history"]
    assert [p["table_id"] for p in history] == [None, "t", "tt", "ttt"]
    assert history[0]["rating"] == 1500 and history[-1]["rating"] == pickomino["rating"]
    recent = profile["recent"]
    assert [(g["table_id"], g["place"], g["players"], g["with"]) for g in recent] == [
        ("ttt", 3, 3, ["Bea"]),
        ("tt", 1, 3, ["Bea"]),
        ("t", 1, 2, ["Bea"]),
    ]
    assert [g["rating"] - g["change"] for g in recent] == [p["rating"] for p in history[-2::-1]]
    assert profile["by_players"] == [
        {"game": "pickomino", "players": 2, "games": 1, "wins": 1}
        | {"win_rate": 1.0, "average_place": 1.0},
        {"game": "pickomino", "players": 3, "games": 2, "wins": 1}
        | {"win_rate": 0.5, "average_place": 2.0},
    ]
    versus = client.get("/api/players/Ada/versus/BEA").json()
    assert versus == {
        "name": "Ada",
        "other": "Bea",
        "games": [{"game": "pickomino", "games": 3, "ahead": 1, "behind": 1, "tied": 1}],
    }


def test_head_to_head_refuses_unknown_and_the_same_player(client: TestClient) -> None:
    sign_up_id(client, "Ada")
    same = client.get("/api/players/Ada/versus/ada")
    assert same.status_code == 400 and same.json()["error"] == "same_player"
    missing = client.get("/api/players/Ada/versus/Nobody")
    assert missing.status_code == 404 and missing.json()["error"] == "no_player"
    sign_up_id(client, "Bea")
    apart = client.get("/api/players/Ada/versus/Bea").json()
    assert apart["games"] == []


def test_a_new_player_has_no_history(client: TestClient) -> None:
    sign_up_id(client, "Ada")
    profile = client.get("/api/players/Ada").json()
    assert profile == {"name": "Ada", "ratings": [], "recent": [], "by_players": []}


def test_the_history_is_in_the_data_download_and_goes_with_the_account(
    client: TestClient,
) -> None:
    ada = sign_up_id(client, "Ada")
    counted(client, "t", [ada, "bot:greedy"], [1, 0])
    sign_in(client, "Ada")
    data = client.get("/api/account/data").json()
    [game] = data["rating_history"]
    assert (game["table"], game["place"], game["players"]) == ("t", 2, 2)
    assert game["mu"] == data["ratings"][0]["mu"]
    assert client.post("/api/account/delete", json={"password": PASSWORD}).status_code == 204
    with store_of(client).engine.connect() as db:
        assert db.execute(select(func.count()).select_from(RATING_CHANGES)).scalar() == 0


def test_the_lobby_labels_the_bots_by_their_calibrated_strength(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()}
    levels = games["pickomino"]["bot_levels"]
    points = {bot: shown(bot_rating("pickomino", bot)).points for bot in levels}
    assert levels == {"random": "easy", "greedy": "good", "winner": "strong", "optimal": "best"}
    assert points["random"] < 1500 <= points["greedy"] < 1600 <= points["winner"]
    assert max(points, key=points.__getitem__) == "optimal"
    assert games["karolinchen"]["bot_levels"] == {
        "expert": "best",
        "greedy": "good",
        "random": "easy",
    }
