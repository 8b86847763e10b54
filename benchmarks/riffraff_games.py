"""Riff Raff game statistics against the targets the box sets: seeded games of `careful`
bots, as `spieltisch simulate` plays them (steadiness 1, catching by the model).

- four players, `careful` x4, 40 games: pieces fallen per placement 0.10-0.35, the median
  game's most pieces on board at once at least 18, someone loads all cargo in at least 25%;
- two players, `careful` against `random`, 100 games: careful wins at least 90%, and random
  loses at least twice as many pieces per placement.

About 13 minutes of processor time at full size; `--quick` plays a quarter of the games
(the figures then move by some hundredths).

    python benchmarks/riffraff_games.py [--json] [--quick] [--jobs N]
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass

from spieltisch.analysis.simulate import SimulationConfig, run_simulation

SEED = 1


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    value: float
    target: str
    met: bool


def four_careful(games: int, jobs: int) -> list[Check]:
    bots = ("careful",) * 4
    result = run_simulation(SimulationConfig("riffraff", bots, games, SEED, jobs))
    stats = result.stats
    fallen = float(stats["fallen_per_placement"])
    peak = float(stats["peak_on_board_median"])
    early = float(stats["early_end_rate"])
    return [
        Check("4p careful: fallen per placement", fallen, "0.10-0.35", 0.10 <= fallen <= 0.35),
        Check("4p careful: median of peak pieces on board", peak, ">= 18", peak >= 18),
        Check("4p careful: early end rate", early, ">= 0.25", early >= 0.25),
    ]


def careful_against_random(games: int, jobs: int) -> list[Check]:
    bots = ("careful", "random")
    result = run_simulation(SimulationConfig("riffraff", bots, games, SEED, jobs))
    careful_wins = float(result.wins[0] / result.games)
    by_seat = result.stats["fallen_per_placement_by_seat"]
    careful, random = (float(x) for x in by_seat)
    ratio = random / careful if careful else float("inf")
    return [
        Check(
            "2p careful vs random: careful's win rate", careful_wins, ">= 0.90", careful_wins >= 0.9
        ),
        Check("2p: random's falls over careful's", ratio, ">= 2", ratio >= 2),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--quick", action="store_true", help="a quarter of the games")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    args = parser.parse_args()
    share = 4 if args.quick else 1
    checks = four_careful(40 // share, args.jobs) + careful_against_random(100 // share, args.jobs)
    if args.json:
        print(json.dumps({c.name: {"value": round(c.value, 4), "met": c.met} for c in checks}))
        return
    for check in checks:
        verdict = "met" if check.met else "MISSED"
        print(f"{check.name:<48}{check.value:8.3f}  (target {check.target}: {verdict})")


if __name__ == "__main__":
    main()
