"""Speed figures of spieltisch, printed as medians over repeated runs.

Run from the project root after set-up:  .venv/bin/python benchmarks/run.py [--quick] [--peers]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

import peers
import review_bench
import riffraff_bench
import riffraff_web
import winner_bench
from spieltisch.bots import make_bot, play_match
from spieltisch.core import make_game
from spieltisch.games.pickomino.solver import TurnTable, solve_table

COLD_SOLVE = """
import json, time
from spieltisch.games.pickomino.solver import TurnTable, solve_table, turn_outcome
started = time.perf_counter()
solve_table(TurnTable())
middle = time.perf_counter()
outcome = turn_outcome(TurnTable())
print(json.dumps({"solve": middle - started, "outcome_warm": outcome.seconds}))
"""

COLD_COMMAND = """
import json, time
from spieltisch.games.pickomino.solver import TurnTable, turn_outcome
print(json.dumps({"outcome": turn_outcome(TurnTable()).seconds}))
"""


def fresh_process(code: str) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout))


def median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.2f} ms"


def cold_solves(repeats: int) -> None:
    solves = [fresh_process(COLD_SOLVE)["solve"] for _ in range(repeats)]
    outcomes = [fresh_process(COLD_COMMAND)["outcome"] for _ in range(repeats)]
    print(f"cold full-grill solve (fresh process, tables built)  {median_ms(solves)}")
    print(f"cold full-grill solve with p_fail and p_tile         {median_ms(outcomes)}")


def warm_solve(repeats: int) -> None:
    table = TurnTable()
    solve_table(table)
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        solve_table(table)
        samples.append(time.perf_counter() - started)
    print(f"warm full-grill solve                                {median_ms(samples)}")


def games_per_second(
    seats: list[str], seconds: float, rounds: int, game_name: str = "pickomino"
) -> float:
    """Median over `rounds` of the games of `game_name` one process plays in `seconds`."""
    rates = []
    for round_number in range(rounds):
        started, games = time.perf_counter(), 0
        while time.perf_counter() - started < seconds:
            seed = random.Random(f"{round_number}:{games}").randrange(2**32)
            game = make_game(game_name, {"players": len(seats), "start_seat": games % 2})
            bots = [make_bot(game, name, seed + i) for i, name in enumerate(seats)]
            play_match(game, bots, seed)
            games += 1
        rates.append(games / (time.perf_counter() - started))
    return statistics.median(rates)


def simulate_command(games: int, jobs: int) -> float:
    command = [
        sys.executable,
        "-m",
        "spieltisch",
        "simulate",
        "pickomino",
        "--seats",
        "optimal,greedy",
        "--games",
        str(games),
        "--seed",
        "1",
        "--jobs",
        str(jobs),
        "--json",
    ]
    started = time.perf_counter()
    subprocess.run(command, capture_output=True, check=True)
    return time.perf_counter() - started


def line(label: str, measure: Callable[[], float], unit: str) -> None:
    print(f"{label:<53}{measure():,.0f} {unit}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repeats and games")
    parser.add_argument(
        "--peers", action="store_true", help="only the side-by-side table with the peers"
    )
    args = parser.parse_args()
    if args.peers:
        peers.report(args.quick)
        return
    repeats, rounds, games = (5, 2, 1000) if args.quick else (21, 5, 10_000)
    print(f"spieltisch benchmarks (medians; python {sys.version.split()[0]})")
    cold_solves(repeats)
    warm_solve(200 if args.quick else 1000)
    line(
        "random vs random games per second (1 process)",
        lambda: games_per_second(["random", "random"], 1.0, rounds),
        "games/s",
    )
    line(
        "optimal vs greedy games per second (1 process)",
        lambda: games_per_second(["optimal", "greedy"], 1.0, rounds),
        "games/s",
    )
    for bots in (["random", "random"], ["greedy", "greedy"]):
        line(
            f"Karolinchen {bots[0]} vs {bots[1]}, 2 players (1 process)",
            lambda bots=bots: games_per_second(bots, 1.0, rounds, "karolinchen"),
            "games/s",
        )
    winner_bench.report(args.quick)
    review_bench.report(args.quick)
    riffraff_bench.report(args.quick)
    riffraff_web.report(args.quick)
    elapsed = simulate_command(games, 2)
    print(
        f"simulate {games:,} optimal-vs-greedy games, --jobs 2     "
        f"{elapsed:.1f} s ({games / elapsed:,.0f} games/s)"
    )


if __name__ == "__main__":
    main()
