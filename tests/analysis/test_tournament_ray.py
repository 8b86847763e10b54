"""`--backend ray`: the same tournament on a local Ray instance gives the same results."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")
pytestmark = pytest.mark.slow  # starts a local Ray cluster (about 10 s)

from spieltisch.analysis.tournament import TournamentConfig, run_tournament  # noqa: E402
from spieltisch.cli.main import main  # noqa: E402


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


def test_tournament_command_runs_on_ray(
    local_ray: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["tournament", "pickomino", "--bots", "greedy,random", "--games", "6", "--json"]
    assert main([*args, "--backend", "ray", "--out", str(tmp_path / "ray.html")]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert main([*args, "--out", str(tmp_path / "local.html")]) == 0
    assert json.loads(capsys.readouterr().out) == on_ray
