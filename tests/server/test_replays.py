"""Records and replays of finished games: built once beside the event loop, then kept."""

from __future__ import annotations

import asyncio
import gzip
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spieltisch.server import replays
from tests.server.helpers import TestClient, client_for, finished_table


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path) as test_client:
        yield test_client


def test_a_replay_is_built_once_off_the_loop_and_kept(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds: list[bool] = []
    build = replays._steps

    def counted(snapshot: Any) -> Any:
        try:
            asyncio.get_running_loop()
            builds.append(True)  # on the event loop
        except RuntimeError:
            builds.append(False)
        return build(snapshot)

    monkeypatch.setattr(replays, "_steps", counted)
    table_id = finished_table(client)
    plain = client.get(f"/api/tables/{table_id}/replay", headers={"Accept-Encoding": "identity"})
    packed = client.get(f"/api/tables/{table_id}/replay", headers={"Accept-Encoding": "gzip"})
    assert builds == [False]
    assert plain.headers.get("content-encoding") is None
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.json() == plain.json()  # the client decodes the kept compressed bytes
    steps = plain.json()["steps"]
    assert len(steps) == len(plain.json()["record"]["actions"]) + 1
    assert plain.json()["table"]["status"] == "over"
    # the last step is followed by the result: who won, with each seat's score
    (finished,) = [t for t in client.get("/api/tables/finished").json() if t["id"] == table_id]
    assert plain.json()["result"]["winners"] == finished["result"]["winners"]
    assert plain.json()["result"]["scores"] == finished["result"]["scores"]


def test_a_record_is_kept_encoded(client: TestClient) -> None:
    table_id = finished_table(client)
    first = client.get(f"/api/tables/{table_id}/record", headers={"Accept-Encoding": "gzip"})
    second = client.get(f"/api/tables/{table_id}/record", headers={"Accept-Encoding": ""})
    assert first.json() == second.json() == json.loads(second.content)
    assert first.json()["game"] == "pickomino"


def test_readers_at_once_share_one_build_and_old_games_leave() -> None:
    calls: list[str] = []

    class Finished:
        version = 9

        def __init__(self, table_id: str) -> None:
            self.id = table_id

        def record(self) -> Any:
            calls.append(self.id)
            time.sleep(0.05)  # long enough for the other readers to arrive
            return Record(self.id)

    class Record:
        def __init__(self, name: str) -> None:
            self.name = name

        def to_json(self) -> dict[str, str]:
            return {"game": self.name}

    async def read_all() -> list[replays.Encoded]:
        kept = replays.FinishedGames(kept=2)
        tables: list[Any] = [Finished("a")] * 3 + [Finished("b"), Finished("c"), Finished("a")]
        same = await asyncio.gather(*(kept.record(t) for t in tables[:3]))
        for table in tables[3:]:
            await kept.record(table)
        return same

    answers = asyncio.run(read_all())
    assert len({id(answer) for answer in answers}) == 1
    assert json.loads(gzip.decompress(answers[0].compressed)) == {"game": "a"}
    assert calls == ["a", "b", "c", "a"]  # "a" was read at once by three, then left for "c"
