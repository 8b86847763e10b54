"""Decision times of the Pickomino `winner` bot in whole games against `optimal` seats.

A turn's first decision values every way the turn can end (the slow part); the rest of the
turn reuses that. Printed: the mean decision (the issue's figure), the median, the 95th
percentile and the slowest, per number of players.

Run alone:  .venv/bin/python benchmarks/winner_bench.py [--quick] [--lookahead N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from spieltisch.bots import make_bot
from spieltisch.core import make_game
from spieltisch.core.protocol import CHANCE
from spieltisch.games.pickomino.winprob import shipped_model


def decision_times(players: int, games: int, spec: str = "winner") -> list[float]:
    """Seconds of every decision of one `winner` seat in seeded games (start seat rotating)."""
    times = []
    for index in range(games):
        game = make_game("pickomino", {"players": players, "start_seat": index % players})
        bots = [make_bot(game, spec if seat == 0 else "optimal", index) for seat in range(players)]
        dice, state = random.Random(index), game.new_state()
        while (mover := game.to_move(state)) is not None:
            if mover == CHANCE:
                state = game.apply(state, game.sample_chance(state, dice))
                continue
            started = time.perf_counter()
            action = bots[mover].choose(state)
            if mover == 0:
                times.append(time.perf_counter() - started)
            state = game.apply(state, action)
    return times


def report(quick: bool, lookahead: int = 1) -> None:
    started = time.perf_counter()
    for players in (2, 3, 4):
        shipped_model(players)
    loaded = time.perf_counter() - started
    print(f"winner: load the shipped models (2-4 players)        {loaded:.2f} s")
    for players in (2, 3, 4):
        times = decision_times(players, 4 if quick else 30, f"winner:lookahead={lookahead}")
        cut = sorted(times)[int(0.95 * (len(times) - 1))]
        print(
            f"winner (lookahead {lookahead}) decision, {players} players ({len(times)} decisions) "
            f"mean {1000 * statistics.mean(times):.1f} ms, median "
            f"{1000 * statistics.median(times):.2f} ms, p95 {1000 * cut:.1f} ms, "
            f"max {1000 * max(times):.0f} ms"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer games")
    parser.add_argument("--lookahead", type=int, default=1, help="turns played out (default 1)")
    arguments = parser.parse_args()
    report(arguments.quick, arguments.lookahead)
