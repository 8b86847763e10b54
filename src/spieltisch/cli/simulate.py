"""`spieltisch simulate`: many seeded bot games in parallel, with win rates and statistics.

The simulation (and with it the games and bots) is imported by `run`, not by the parser."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

from spieltisch.cli.common import (
    add_option_argument,
    fail,
    parse_option_pairs,
    parse_seats,
    print_json,
)
from spieltisch.core.errors import InvalidOptions
from spieltisch.core.protocol import JsonValue
from spieltisch.core.registry import game_names

if TYPE_CHECKING:
    from spieltisch.analysis.simulate import SimulationConfig, SimulationResult

__all__ = ["ProgressBar", "add_parser", "format_table", "run"]

INTERRUPTED = 130


def add_parser(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "simulate",
        help="play many bot games and report win rates",
        description=(
            "Play many seeded games between bots and report each seat's win rate (a shared win "
            "counts 1/k to each of k winners; 95% Wilson interval) and game statistics. The same "
            "arguments give the same results, whatever --jobs is. Pickomino seats that all decide "
            "a turn from its own position (greedy, optimal, winner) are played a whole turn at a "
            "time, each turn's end drawn from its exact chances: the same game in distribution, "
            "many times faster."
        ),
    )
    parser.add_argument("game", choices=game_names(), help="the game to play")
    parser.add_argument(
        "--seats",
        required=True,
        metavar="BOT,BOT,...",
        help="one bot per seat, e.g. optimal,greedy",
    )
    parser.add_argument("--games", type=int, default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument(
        "--jobs", type=int, default=1, help="worker processes (default 1: play in this process)"
    )
    parser.add_argument(
        "--start-seat",
        default="rotate",
        metavar="rotate|random|K",
        help="rotate: game i starts at seat i mod players (default); random: the rules draw it; "
        "K: always seat K",
    )
    parser.add_argument(
        "--dice",
        action="store_true",
        help="roll every die even where whole turns could be drawn (as with a random seat)",
    )
    add_option_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.set_defaults(run=run)


def _config(args: argparse.Namespace) -> SimulationConfig:
    from spieltisch.analysis.simulate import SimulationConfig, parse_start_seat

    seats = parse_seats(args.seats, args.game, allow_humans=False)
    return SimulationConfig(
        game=args.game,
        bots=tuple(seats),
        games=args.games,
        seed=args.seed,
        jobs=args.jobs,
        start_seat=parse_start_seat(args.start_seat),
        options=parse_option_pairs(args.option),
        dice=args.dice,
    )


def run(args: argparse.Namespace) -> int:
    from spieltisch.analysis.simulate import SimulationError, run_simulation

    try:
        config = _config(args)
    except (InvalidOptions, SimulationError) as error:
        return fail(str(error))
    bar = None if args.json else ProgressBar(config.games, sys.stderr)
    started = time.perf_counter()
    try:
        result = run_simulation(config, bar.update if bar is not None else None)
    except SimulationError as error:
        return fail(str(error))
    except KeyboardInterrupt:
        done = bar.done if bar is not None else 0
        if bar is not None:
            bar.finish()
        print(f"simulation interrupted after {done} of {config.games} games", file=sys.stderr)
        return INTERRUPTED
    seconds = time.perf_counter() - started
    if bar is not None:
        bar.finish()
    if args.json:
        print_json(result.to_json())
    else:
        print(format_table(result))
        rate = result.games / seconds if seconds > 0 else float("inf")
        print(f"{result.games} games in {seconds:.1f} s ({rate:.0f} games/s)")
    return 0


# --- output -------------------------------------------------------------------------------------
def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _number(value: JsonValue) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def format_table(result: SimulationResult) -> str:
    """The results as a readable table: one row per seat, then the game's statistics."""
    config = result.config
    start = config.start_seat if isinstance(config.start_seat, str) else f"seat {config.start_seat}"
    level = "whole turns drawn" if result.level == "turn" else "every die rolled"
    lines = [
        f"{config.game}: {result.games} games, seed {config.seed}, start seat {start}, {level}",
        "",
        f"{'seat':<5} {'bot':<12} {'wins':>10} {'win rate':>9}  95% interval",
    ]
    for row in result.seats_json():
        low, high = row["ci95"]
        lines.append(
            f"{row['seat']:<5} {row['bot']:<12} {row['wins']:>10.1f} {_percent(row['win_rate']):>9}"
            f"  {_percent(low)} to {_percent(high)}"
        )
    if result.shared_games:
        lines.append(f"shared wins in {result.shared_games} games (1/k to each of k winners)")
    stats: list[tuple[str, str]] = [("mean decision runs", f"{result.mean_decision_runs:.2f}")]
    for key, value in result.stats.items():
        shown = "  ".join(_number(v) for v in value) if isinstance(value, list) else _number(value)
        stats.append((key.replace("_", " "), shown))
    width = max(len(label) for label, _ in stats)
    lines += ["", "statistics (a list gives seat 0, seat 1, ...)"]
    lines += [f"  {label:<{width}}  {shown}" for label, shown in stats]
    return "\n".join(lines)


class ProgressBar:
    """A one-line text bar: games done, games per second and the time left."""

    WIDTH = 30
    INTERVAL = 0.1

    def __init__(self, total: int, stream: TextIO) -> None:
        self.total = total
        self.stream = stream
        self.done = 0
        self.started = time.perf_counter()
        self.drawn = 0.0
        self.visible = False
        self.live = stream.isatty()  # a log file or pipe gets no redrawn bar lines

    def update(self, done: int) -> None:
        self.done = done
        now = time.perf_counter()
        if not self.live or (done < self.total and now - self.drawn < self.INTERVAL):
            return
        self.drawn = now
        elapsed = now - self.started
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (self.total - done) / rate if rate > 0 else 0.0
        filled = self.WIDTH * done // self.total
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        eta = f"{int(left) // 60}:{int(left) % 60:02d}"
        self.stream.write(f"\r[{bar}] {done}/{self.total} games  {rate:.0f} games/s  ETA {eta} ")
        self.stream.flush()
        self.visible = True

    def finish(self) -> None:
        """End the bar's line so that what follows starts on a fresh one."""
        if self.visible:
            self.stream.write("\n")
            self.stream.flush()
            self.visible = False
