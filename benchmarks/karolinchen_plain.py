"""A plain Karolinchen simulator, the yardstick for the engine's speed.

The rules of docs/rules/karolinchen.md with the default options (seat k's tail is the k-th
fruit, the matching dice for a new card are taken at once), every worm playing `greedy` (the
card that takes the most dice now; on ties the one with the fewest fruits), written the
shortest way: a few mutable lists, no positions, no checks, no records. It reports the
statistics that `spieltisch simulate karolinchen` reports, so the two can be compared.

Run alone:  .venv/bin/python benchmarks/karolinchen_plain.py [--games N] [--seed S] [--json]
From Python:  karolinchen_plain.measure_ratio(games=4000) -> {figure: value}
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

COUNTS = (6, 5, 4, 3, 2, 1)
"""Fruits on the card of each fruit; a die has one face per fruit."""
DICE = 6


@dataclass
class GameResult:
    """One finished game's figures."""

    winner: int
    start: int
    turns: int
    eatings: int
    fruits: list[int]


@dataclass
class Tally:
    """Finished games and the figures of `simulate`'s report over them."""

    players: int
    games: list[GameResult] = field(default_factory=list)

    def stats(self) -> dict[str, float | list[float]]:
        """Means per game and the win rates, as `simulate` reports them."""
        count = len(self.games)
        return {
            "mean_eating_phases": statistics.mean(g.eatings for g in self.games),
            "mean_turns_per_game": statistics.mean(g.turns for g in self.games),
            "first_player_win_rate": sum(g.winner == g.start for g in self.games) / count,
            "mean_fruits": [
                statistics.mean(g.fruits[seat] for g in self.games) for seat in range(self.players)
            ],
            "win_rates": [
                sum(g.winner == seat for g in self.games) / count for seat in range(self.players)
            ],
        }


def roll(dice: int, rng: random.Random) -> list[int]:
    middle = [0] * DICE
    for _ in range(dice):
        middle[rng.randrange(DICE)] += 1
    return middle


def greedy(hand: list[int], middle: list[int]) -> int:
    return max(hand, key=lambda fruit: (min(middle[fruit], COUNTS[fruit]), -COUNTS[fruit]))


def play(players: int, start: int, rng: random.Random) -> GameResult:
    """One game of greedy worms; the dealt dice lie in the middle before the first look."""
    card = list(range(players))
    hands = [[f for f in range(DICE) if f != seat] for seat in range(players)]
    free = [COUNTS[seat] for seat in range(players)]
    covered, eaten = [0] * players, [0] * players
    middle, seat, turns, eatings = roll(DICE, rng), start, 0, 0
    while True:
        turns += 1
        if not middle[card[seat]]:  # no match (after eating, nothing lies in the middle)
            middle = roll(DICE - sum(covered), rng)
        while True:  # place, then lay the next card while the current one is full
            take = min(middle[card[seat]], free[seat])
            middle[card[seat]] -= take
            covered[seat] += take
            free[seat] -= take
            if free[seat]:
                break
            if not hands[seat]:
                fruits = [eaten[s] + covered[s] for s in range(players)]
                return GameResult(seat, start, turns, eatings, fruits)
            card[seat] = greedy(hands[seat], middle)
            hands[seat].remove(card[seat])
            free[seat] = COUNTS[card[seat]]
        if not any(middle):  # every worm eats; the dice come back unrolled
            eatings += 1
            for worm in range(players):
                eaten[worm], covered[worm] = eaten[worm] + covered[worm], 0
        seat = (seat + 1) % players


def simulate(games: int, seed: int = 0, players: int = 2) -> Tally:
    """`games` games, game i starting at seat i mod players, as `simulate` rotates them."""
    rng = random.Random(seed)
    return Tally(players, [play(players, index % players, rng) for index in range(games)])


def engine_simulate(games: int, seed: int = 0) -> dict[str, float | list[float]]:
    """The same games through spieltisch's engine: `simulate karolinchen --seats greedy,greedy`
    in this process (`--jobs 1`)."""
    from spieltisch.analysis.simulate import SimulationConfig, run_simulation

    result = run_simulation(SimulationConfig("karolinchen", ("greedy", "greedy"), games, seed))
    stats = dict(result.stats)
    stats["win_rates"] = [float(wins / result.games) for wins in result.wins]
    return stats


def processor_seconds(run: Callable[[int, int], object], games: int, seed: int) -> float:
    started = time.process_time()
    run(games, seed)
    return time.process_time() - started


def measure_ratio(games: int = 4000, rounds: int = 3) -> dict[str, float]:
    """Games per processor second of the engine and of this plain simulator (medians of
    `rounds` paired runs, alternating), and `ratio`: the engine's time per game over the plain
    simulator's (at most 1.0: the engine is as fast)."""
    engine_simulate(10)  # first use: imports and tables
    engine, plain = [], []
    for round_number in range(rounds):
        engine.append(processor_seconds(engine_simulate, games, round_number))
        plain.append(processor_seconds(simulate, games, round_number))
    ratios = [e / p for e, p in zip(engine, plain, strict=True)]
    return {
        "games": games,
        "engine_games_per_s": games / statistics.median(engine),
        "plain_games_per_s": games / statistics.median(plain),
        "ratio": statistics.median(ratios),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4000, help="games per run")
    parser.add_argument("--seed", type=int, default=0, help="seed of the dice")
    parser.add_argument("--rounds", type=int, default=3, help="paired runs for --ratio")
    parser.add_argument("--ratio", action="store_true", help="time against the engine")
    parser.add_argument("--engine", action="store_true", help="play through the engine instead")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if args.ratio:
        figures: dict[str, object] = dict(measure_ratio(args.games, args.rounds))
    elif args.engine:
        figures = dict(engine_simulate(args.games, args.seed))
    else:
        figures = dict(simulate(args.games, args.seed).stats())
    if args.json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key:<24}{value}")


if __name__ == "__main__":
    main()
