"""The plain simulator of benchmarks/ plays the engine's game: the same statistics within chance.

It is the yardstick of the engine's speed, so it must play the same rules: over thousands of
seeded greedy games each mean differs from the engine's by less than 4 standard errors (a
wrong tie rule of greedy moves the mean turns by about 10, playing the first card of the hand
by 40).
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
from math import sqrt
from pathlib import Path
from types import ModuleType

PLAIN = Path(__file__).resolve().parents[2] / "benchmarks" / "karolinchen_plain.py"
GAMES = 4000


def load_plain() -> ModuleType:
    spec = importlib.util.spec_from_file_location("karolinchen_plain", PLAIN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def standard_errors(difference: float, spread: float) -> float:
    """`difference` of two means of GAMES games each, in standard errors of that difference."""
    return difference / (spread * sqrt(2 / GAMES))


def test_plain_simulator_and_engine_agree_within_chance() -> None:
    plain = load_plain()
    tally = plain.simulate(GAMES, seed=0)
    mine, engine = tally.stats(), plain.engine_simulate(GAMES, seed=0)
    games = tally.games
    spreads = {
        "mean_turns_per_game": statistics.pstdev(g.turns for g in games),
        "mean_eating_phases": statistics.pstdev(g.eatings for g in games),
    }
    for key, spread in spreads.items():
        assert abs(standard_errors(engine[key] - mine[key], spread)) < 4, key
    first = mine["first_player_win_rate"]
    spread = sqrt(first * (1 - first))
    assert abs(standard_errors(engine["first_player_win_rate"] - first, spread)) < 4
    for seat in (0, 1):
        spread = statistics.pstdev(g.fruits[seat] for g in games)
        difference = engine["mean_fruits"][seat] - mine["mean_fruits"][seat]
        assert abs(standard_errors(difference, spread)) < 4, seat


def test_plain_simulator_is_seeded() -> None:
    plain = load_plain()
    assert plain.simulate(50, seed=3).stats() == plain.simulate(50, seed=3).stats()
    assert plain.simulate(50, seed=3).stats() != plain.simulate(50, seed=4).stats()
