"""A plain Karolinchen simulator, the yardstick for the engine's speed.

The rules of docs/rules/karolinchen.md with the default options (seat k's tail is the k-th
fruit, the matching dice for a new card are taken at once), every worm playing `greedy` (the
card that takes the most dice now; on ties the one with the fewest fruits), written the
shortest way: a few mutable lists, no positions, no checks, no records. It reports the
statistics that `spieltisch simulate karolinchen` reports, so the two can be compared.

Run alone:  .venv/bin/python benchmarks/karolinchen_plain.py [--games N] [--seed S] [--json]
Against the engine:  ... karolinchen_plain.py --ratio [--games N] [--rounds R] [--json]
From Python:  karolinchen_plain.measure_ratio(games=4000, rounds=4) -> {figure: value}
"""

from __future__ import annotations

import argparse
import gc
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


def engine_play(games: int, seed: int = 0) -> dict[str, float | list[float]]:
    """The same games on spieltisch's engine, in the loop a researcher writes: two greedy
    seats (greedy's rule on the engine's table), one seeded generator, `play_out` to the end,
    each game's figures kept as this simulator keeps them."""
    from spieltisch.bots.karolinchen import GREEDY_RULE
    from spieltisch.core import make_game

    tables = [make_game("karolinchen", {"start_seat": seat}) for seat in (0, 1)]
    rng, tally = random.Random(seed), Tally(2)
    for index in range(games):
        game = tables[index % 2]
        playout = game.play_out(game.new_state(), [GREEDY_RULE, GREEDY_RULE], rng)
        end = playout.state
        fruits = list(game.scores(end))
        tally.games.append(
            GameResult(end.seat, index % 2, end.turn + 1, playout.eating_phases, fruits)
        )
    return tally.stats()


def engine_simulate(games: int, seed: int = 0) -> dict[str, float | list[float]]:
    """The same games through `simulate karolinchen --seats greedy,greedy` in this process
    (`--jobs 1`): each game also draws its own seeds, so that any number of jobs gives the
    same report."""
    from spieltisch.analysis.simulate import SimulationConfig, run_simulation

    result = run_simulation(SimulationConfig("karolinchen", ("greedy", "greedy"), games, seed))
    stats = dict(result.stats)
    stats["win_rates"] = [float(wins / result.games) for wins in result.wins]
    return stats


Run = Callable[[int, int], object]


def processor_seconds(run: Run, games: int, seed: int) -> float:
    gc.collect()  # no garbage of the run before counts against this one
    started = time.process_time()
    run(games, seed)
    return time.process_time() - started


def paired(first: Run, second: Run, games: int, rounds: int) -> tuple[float, float, float]:
    """Median processor seconds of `first` and of `second` over `rounds` pairs, which of the
    two runs first alternating, and the median of the pairs' ratios first/second."""
    times: list[tuple[float, float]] = []
    for round_number in range(rounds):
        if round_number % 2:
            two = processor_seconds(second, games, round_number)
            one = processor_seconds(first, games, round_number)
        else:
            one = processor_seconds(first, games, round_number)
            two = processor_seconds(second, games, round_number)
        times.append((one, two))
    return (
        statistics.median(one for one, _ in times),
        statistics.median(two for _, two in times),
        statistics.median(one / two for one, two in times),
    )


def games_per_second(seconds: float, run: Run = simulate) -> float:
    """This simulator's (or `run`'s) two-player games per processor second, over about
    `seconds`."""
    games, spent, seed = 0, 0.0, 0
    while spent < seconds:
        spent += processor_seconds(run, 500, seed)
        games, seed = games + 500, seed + 1
    return games / spent


def engine_games_per_second(seconds: float) -> float:
    """The engine's own loop (`engine_play`): two-player games per processor second."""
    engine_play(10)  # first use: imports and tables
    return games_per_second(seconds, engine_play)


def measure_ratio(games: int = 4000, rounds: int = 4) -> dict[str, float]:
    """Games per processor second of this plain simulator, of the engine's own loop
    (`engine_play`) and of `simulate` (`engine_simulate`), and the ratios of their times per
    game to the plain simulator's: `ratio` for the engine (at most 1.0: as fast as plain
    Python), `simulate_ratio` for the whole simulation."""
    engine_simulate(10)  # first use: imports and tables
    engine, plain, ratio = paired(engine_play, simulate, games, rounds)
    whole, plain_again, whole_ratio = paired(engine_simulate, simulate, games, rounds)
    return {
        "games": games,
        "plain_games_per_s": games / statistics.median([plain, plain_again]),
        "engine_games_per_s": games / engine,
        "simulate_games_per_s": games / whole,
        "ratio": ratio,
        "simulate_ratio": whole_ratio,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4000, help="games per run")
    parser.add_argument("--seed", type=int, default=0, help="seed of the dice")
    parser.add_argument("--rounds", type=int, default=4, help="paired runs for --ratio")
    parser.add_argument("--ratio", action="store_true", help="time against the engine")
    parser.add_argument(
        "--engine",
        choices=("play", "simulate"),
        help="play the games on the engine instead: its own loop, or simulate's",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if args.ratio:
        figures: dict[str, object] = dict(measure_ratio(args.games, args.rounds))
    elif args.engine:
        run = engine_play if args.engine == "play" else engine_simulate
        figures = dict(run(args.games, args.seed))
    else:
        figures = dict(simulate(args.games, args.seed).stats())
    if args.json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key:<24}{value}")


if __name__ == "__main__":
    main()
