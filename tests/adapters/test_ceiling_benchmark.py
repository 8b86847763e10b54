"""The PettingZoo ceiling benchmark measures the loop it says: the same games, the same steps."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture(scope="module")
def ceiling() -> Any:
    sys.path.insert(0, str(BENCHMARKS))  # it imports research_loops beside it
    try:
        import pettingzoo_ceiling

        yield pettingzoo_ceiling
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_the_idle_environment_lasts_the_steps_it_is_given(ceiling: Any) -> None:
    idle = ceiling._IdleEnv(40, 8, 10)
    steps = 0
    for seed in range(3):
        idle.reset(seed=seed)
        for _agent in idle.agent_iter():
            _, _, termination, _, _ = idle.last()
            idle.step(None if termination else 0)
            steps += 1
    assert steps == 3 * 40


def test_rules_alone_plays_the_games_of_the_environment(ceiling: Any) -> None:
    steps = ceiling.steps_per_game(games=30)
    assert 20 < steps < 200
    play = ceiling.rules_alone_loop()
    for seed in range(5):
        play(seed)  # random games end
    figures = ceiling.measure(seconds=0.05, rounds=1)
    assert set(figures) == {
        "real",
        "free_observation",
        "rules_alone",
        "free_rules",
        "steps_per_game",
    }
    assert all(value > 0 for value in figures.values())
