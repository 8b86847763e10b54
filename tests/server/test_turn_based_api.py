"""Turn-based tables through the API: made and joined by signed-in players only, "My tables"
with the time left, the least first, and the cap of turn-based tables per player."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from spieltisch.server.clock import ManualClock
from spieltisch.server.limits import Limits
from tests.server.accounts import app_client, sign_up
from tests.server.helpers import TestClient, make_table
from tests.server.smtp import inbox
from tests.server.test_mail import DELAY, player, portal, settings, site, sweep

HOUR, DAY = 3600.0, 86400.0


def turn_based(client: TestClient, move: str, **settings: str) -> dict[str, Any]:
    """A table of the signed-in player (who starts) against a bot, joined."""
    turns = {"move": move, **settings}
    table = make_table(client, [None, "greedy"], options={"start_seat": 0}, turn_based=turns)
    joined = client.post(f"/api/tables/{table['id']}/join", json={"name": "x"})
    assert joined.status_code == 200, joined.text
    return table


def test_my_tables_list_the_least_time_left_first_with_the_whole_turn(tmp_path: Path) -> None:
    clock = ManualClock()
    with app_client(tmp_path, clock) as client:
        sign_up(client)
        week = turn_based(client, "7d")
        hour = turn_based(client, "1h", bank="large", rule="remove")
        real = make_table(client, [None, "greedy"], options={"start_seat": 0}, clock=60)
        client.post(f"/api/tables/{real['id']}/join", json={"name": "x"})
        mine = client.get("/api/account/tables").json()
    assert [row["table"] for row in mine] == [real["id"], hour["id"], week["id"]]
    by_id = {row["table"]: row for row in mine}
    assert by_id[hour["id"]]["turn_based"] == {"move": "1h", "bank": "large", "rule": "remove"}
    assert by_id[hour["id"]]["deadline"] == clock.now() + 3 * HOUR  # the large bank's base
    assert by_id[hour["id"]]["turn_time"] == 3 * HOUR
    assert by_id[week["id"]]["deadline"] == clock.now() + 7 * DAY
    assert by_id[real["id"]]["turn_based"] is None and by_id[real["id"]]["turn_time"] == 60
    assert week["turn_based"] == {"move": "7d", "bank": "none", "rule": "bot_plays"}
    assert week["clock"] == 7 * DAY


def test_a_guest_neither_makes_nor_joins_a_turn_based_table(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        body = {"game": "pickomino", "seats": [{"bot": None}, {"bot": None}]}
        refused = client.post("/api/tables", json={**body, "turn_based": {"move": "1d"}})
        assert refused.status_code == 403
        assert refused.json()["error"] == "turn_based_needs_account"
        sign_up(client)
        table = make_table(client, [None, None], turn_based={"move": "1d"})
        client.cookies.clear()  # a guest now
        guest = client.post(f"/api/tables/{table['id']}/join", json={"name": "Gast"})
    assert guest.status_code == 403 and guest.json()["error"] == "turn_based_needs_account"


def test_a_turn_based_table_seats_one_person_at_this_screen_at_most(tmp_path: Path) -> None:
    here = [{"bot": None, "name": "Ann"}, {"bot": None, "name": "Ben"}, {"bot": "greedy"}]
    body = {"game": "pickomino", "seats": here, "turn_based": {"move": "1d"}}
    with app_client(tmp_path) as client:
        sign_up(client)
        two = client.post("/api/tables", json=body)
        one = client.post("/api/tables", json={**body, "seats": [here[0], here[2]]})
        tables = client.get("/api/tables").json()
    assert two.status_code == 403 and two.json()["error"] == "turn_based_needs_account"
    assert one.status_code == 201, one.text
    assert one.json()["turn_based"]["move"] == "1d" and len(one.json()["here"]) == 1
    assert [table["id"] for table in tables] == [one.json()["id"]]  # the refused one was not made


def test_settings_that_are_not_offered_are_refused(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        sign_up(client)
        body = {"game": "pickomino", "seats": [{"bot": None}, {"bot": "greedy"}]}
        refused = client.post("/api/tables", json={**body, "turn_based": {"move": "2d"}})
        tables = client.get("/api/tables").json()
    assert refused.status_code == 400 and refused.json()["error"] == "bad_turn_based"
    assert tables == []


def test_the_serve_limit_caps_a_players_turn_based_tables(tmp_path: Path) -> None:
    with app_client(tmp_path, limits=Limits(turn_based_per_player=2)) as client:
        sign_up(client)
        turn_based(client, "1d")
        turn_based(client, "3d")
        third = make_table(client, [None, "greedy"], turn_based={"move": "1d"})
        refused = client.post(f"/api/tables/{third['id']}/join", json={"name": "x"})
        real = make_table(client, [None, "greedy"])
        real_time = client.post(f"/api/tables/{real['id']}/join", json={"name": "x"})
    assert refused.status_code == 409 and refused.json()["error"] == "too_many_turn_based"
    assert real_time.status_code == 200  # real-time tables are not counted


def test_a_turn_passing_to_a_player_at_a_turn_based_table_is_mailed(tmp_path: Path) -> None:
    """The turn mail's entry point is called where a turn passes to a person: the player who
    asked for turn mail gets one when their first turn at a turn-based table begins."""
    clock = ManualClock()
    with inbox() as box, site(tmp_path, clock, settings(box.port)) as client:
        player(client, "Ada", email="ada@example.org", turns=True)
        table = turn_based(client, "1d")
        real = make_table(client, [None, "greedy"], options={"start_seat": 0}, clock=60)
        client.post(f"/api/tables/{real['id']}/join", json={"name": "x"})
        clock.advance(DELAY)
        portal(client).call(asyncio.sleep, 0.2)  # the turn is kept beside the loop
        sent = sweep(client)
        [mail] = box.taken()
    assert sent == 1
    body = mail.get_content()
    assert table["id"] in body and real["id"] not in body  # real time: no turn mail
