"""Analysis: simulations of many bot games, with win rates and game statistics."""

from spieltisch.analysis import karolinchen_stats
from spieltisch.analysis.game_stats import StatsHook, register_stats, stats_hook
from spieltisch.analysis.simulate import (
    SimulationConfig,
    SimulationError,
    SimulationResult,
    game_seeds,
    run_simulation,
    wilson_interval,
    win_shares,
)

__all__ = [
    "SimulationConfig",
    "SimulationError",
    "SimulationResult",
    "StatsHook",
    "game_seeds",
    "karolinchen_stats",
    "register_stats",
    "run_simulation",
    "stats_hook",
    "wilson_interval",
    "win_shares",
]
