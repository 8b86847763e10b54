"""The review of a finished game on the web: built once beside the event loop, then kept;
refused for a game still being played, a game without a review and an unknown table."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from spieltisch.server import reviews
from spieltisch.server.hooks import hooks_for
from tests.server.helpers import TestClient, client_for, finished_table, make_table


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


def test_riff_raff_has_no_review_and_an_unknown_table_is_not_found(client: TestClient) -> None:
    table_id = make_table(client, [None, None], game="riffraff")["id"]
    response = client.get(f"/api/tables/{table_id}/review")
    assert response.status_code == 409
    assert response.json()["error"] == "no_review"
    missing = client.get("/api/tables/nosuchtable/review")
    assert missing.status_code == 404
    assert missing.json()["error"] == "no_table"
