"""The server's places for games go to games in play: a table nobody sat down at, or one its
people left alone, takes none, and such tables (and guided games left alone) close sooner
than a game in play."""

from __future__ import annotations

from pathlib import Path

from spieltisch.server import create_app
from spieltisch.server.clock import ManualClock
from spieltisch.server.limits import Limits
from tests.server.database import db_url
from tests.server.helpers import TestClient, join, threads

TWO_PEOPLE: dict[str, object] = {
    "game": "pickomino",
    "seats": [{"bot": None}, {"bot": None}],
    "clock": None,  # no turn clock: its timeouts would play moves while the test's time jumps
}
LIMITS = Limits(tables_per_minute=0, open_tables=2, active_minutes=30, waiting_hours=1)


def client_with(tmp_path: Path, clock: ManualClock) -> TestClient:
    app = create_app(db_url(tmp_path, "t"), 0.0, clock=clock, executor=threads(), limits=LIMITS)
    return TestClient(app)


def make(client: TestClient, body: dict[str, object] = TWO_PEOPLE) -> tuple[int, str]:
    made = client.post("/api/tables", json=body)
    return made.status_code, str(made.json().get("id", made.json().get("error")))


def test_tables_nobody_sat_down_at_take_no_place(tmp_path: Path) -> None:
    with client_with(tmp_path, ManualClock()) as client:
        waiting = [make(client) for _ in range(5)]  # invitations not taken up yet
        assert {status for status, _ in waiting} == {201}
        for _, table_id in waiting[:2]:
            join(client, table_id, "Ada")  # now these two are in play
        assert make(client) == (503, "server_full")


def test_a_game_left_alone_gives_its_place_back(tmp_path: Path) -> None:
    clock = ManualClock()
    with client_with(tmp_path, clock) as client:
        for _ in range(2):
            join(client, make(client)[1], "Ada")
        assert make(client)[0] == 503
        clock.advance(29 * 60)
        assert make(client)[0] == 503
        clock.advance(2 * 60)  # nobody played for over 30 minutes: the places are free again
        assert make(client)[0] == 201


def test_tables_waiting_for_players_and_guided_games_close_sooner(tmp_path: Path) -> None:
    clock = ManualClock()
    with client_with(tmp_path, clock) as client:
        _, waiting = make(client)
        _, in_play = make(client)
        join(client, in_play, "Ada")
        join(client, in_play, "Bea")
        guided = client.post("/api/tutorials", json={"game": "pickomino", "name": "Lea"})
        tutorial = guided.json()["table"]["id"]
        clock.advance(3601)
        client.get("/api/tables")  # the lobby looks for idle tables
        codes = {t: client.get(f"/api/tables/{t}").status_code for t in (waiting, tutorial)}
        assert codes == {waiting: 410, tutorial: 410}
        assert client.get(f"/api/tables/{in_play}").json()["status"] == "playing"
        clock.advance(24 * 3600)
        client.get("/api/tables")
        assert client.get(f"/api/tables/{in_play}").status_code == 410


def test_the_settings_are_serve_options() -> None:
    from spieltisch.cli.main import build_parser

    args = build_parser().parse_args(["serve", "--active-minutes", "5", "--waiting-hours", "2"])
    assert (args.active_minutes, args.waiting_hours) == (5.0, 2.0)
