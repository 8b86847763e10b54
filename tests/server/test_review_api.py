"""The review of a finished game on the web: built once beside the event loop, then kept;
refused for a game still being played, a game without a review and an unknown table."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from spieltisch.analysis.review import riffraff as riffraff_review
from spieltisch.server import create_app, reviews
from spieltisch.server.hooks import hooks_for
from spieltisch.server.settle import CatchTiming
from tests.analysis.test_review_riffraff import LIGHT_CAREFUL
from tests.server.database import db_url
from tests.server.helpers import (
    TestClient,
    client_for,
    finished_table,
    make_table,
    threads,
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path) as test_client:
        yield test_client


def test_a_pickomino_review_is_built_once_off_the_loop_and_kept(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    on_loop: list[bool] = []
    hooks = hooks_for("pickomino")
    build = hooks.review
    assert build is not None

    def counted(record: Any) -> Any:
        try:
            asyncio.get_running_loop()
            on_loop.append(True)
        except RuntimeError:
            on_loop.append(False)
        return build(record)

    monkeypatch.setattr(reviews, "hooks_for", lambda _name: replace(hooks, review=counted))
    table_id = finished_table(client)
    first = client.get(f"/api/tables/{table_id}/review", headers={"Accept-Encoding": "gzip"})
    second = client.get(f"/api/tables/{table_id}/review", headers={"Accept-Encoding": ""})
    assert first.status_code == 200, first.text
    assert on_loop == [False]  # built once, in a thread
    assert first.headers["content-encoding"] == "gzip"
    assert first.json() == second.json()
    review = first.json()
    assert review["game"] == "pickomino"
    assert review["graded_by"] == "win chance"
    assert [p["seat"] for p in review["summary"]] == [0, 1]
    assert len(review["chart"]) > 2
    graded = {d["grade"] for d in review["decisions"]}
    assert graded - {"best", "good"}, "greedy bots make mistakes the review should find"
    for decision in review["decisions"]:
        actions = [c["action"] for c in decision["choices"]]
        assert decision["best"] in decision["answers"]
        assert set(decision["answers"]) <= set(actions)
        if decision["grade"] in ("mistake", "blunder"):
            assert decision["played"] not in decision["answers"]


def test_a_karolinchen_review_gives_each_card_choice_with_answers(client: TestClient) -> None:
    table_id = finished_table(client, "karolinchen")
    response = client.get(f"/api/tables/{table_id}/review")
    assert response.status_code == 200, response.text
    review = response.json()
    assert review["game"] == "karolinchen"
    assert review["decisions"]
    for decision in review["decisions"]:
        assert decision["best"] in decision["answers"]


def test_a_game_being_played_is_not_reviewed(client: TestClient) -> None:
    table_id = make_table(client, [None, "greedy"])["id"]
    response = client.get(f"/api/tables/{table_id}/review")
    assert response.status_code == 409
    assert response.json()["error"] == "not_over"


def test_a_game_without_a_review_is_refused_and_an_unknown_table_is_not_found(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = finished_table(client)
    no_review = replace(hooks_for("pickomino"), review=None)
    monkeypatch.setattr(reviews, "hooks_for", lambda _name: no_review)
    response = client.get(f"/api/tables/{table_id}/review")
    assert response.status_code == 409
    assert response.json()["error"] == "no_review"
    missing = client.get("/api/tables/nosuchtable/review")
    assert missing.status_code == 404
    assert missing.json()["error"] == "no_table"


def test_the_games_say_which_have_a_review(client: TestClient) -> None:
    games = {g["name"]: g["review"] for g in client.get("/api/games").json()}
    assert games == {"pickomino": True, "karolinchen": True, "riffraff": True}


@pytest.mark.slow
def test_a_riffraff_review_gives_each_placement_and_card_with_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(riffraff_review, "TRIALS", 2)
    monkeypatch.setattr(riffraff_review, "REVIEW_BOT", LIGHT_CAREFUL)
    fast = CatchTiming(speed=1000.0)  # the motions play at once: the bots' game ends quickly
    app = create_app(db_url(tmp_path), bot_delay=0.0, executor=threads(), timing=fast)
    with TestClient(app) as client:
        table_id = finished_table(client, "riffraff", (LIGHT_CAREFUL, "random"), within=180)
        response = client.get(f"/api/tables/{table_id}/review")
    assert response.status_code == 200, response.text
    review = response.json()
    assert (review["game"], review["trials"], review["bot"]) == ("riffraff", 2, LIGHT_CAREFUL)
    assert {d["kind"] for d in review["decisions"]} == {"card", "place"}
    for decision in review["decisions"]:
        assert decision["best"] in decision["answers"]
        assert decision["win_lost"] is None
        if decision["grade"] in ("mistake", "blunder"):
            assert decision["played"] not in decision["answers"]
    assert [p["seat"] for p in review["summary"]] == [0, 1]


def test_a_review_runs_in_the_review_pool_not_beside_the_bots(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    assert lobby.reviews is not lobby.work and lobby.reviews.limit > lobby.work.limit
    jobs: list[str] = []
    run = lobby.reviews.run

    async def counted(job: Any, *args: Any) -> Any:
        jobs.append(job.__name__)
        return await run(job, *args)

    monkeypatch.setattr(lobby.reviews, "run", counted)
    table_id = finished_table(client)
    assert client.get(f"/api/tables/{table_id}/review").status_code == 200
    assert jobs == ["encoded_review"]
