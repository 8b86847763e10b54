"""`--backend ray`: the same tournament on a local Ray instance gives the same results."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from spieltisch.analysis.tournament import TournamentConfig, run_tournament  # noqa: E402


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def test_ray_backend_matches_local_processes(local_ray: None, tmp_path: Path) -> None:
    config = TournamentConfig("karolinchen", ("greedy", "random"), (2, 3), 24, seed=9)
    on_ray = run_tournament(config, tmp_path / "ray.games.jsonl", jobs=2, backend="ray")
    local = run_tournament(config, tmp_path / "local.games.jsonl", jobs=2)
    assert on_ray == local
    assert run_tournament(config, tmp_path / "ray.games.jsonl", backend="ray") == local
