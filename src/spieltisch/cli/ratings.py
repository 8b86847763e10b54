"""`spieltisch ratings calibrate`: the bots' fixed ratings, fitted to seeded bot games.

The calibration (and with it the games and bots) is imported by `run`, not by the parser."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spieltisch.cli.common import add_option_argument, fail, parse_option_pairs, print_json
from spieltisch.cli.simulate import ProgressBar
from spieltisch.core.errors import InvalidOptions
from spieltisch.core.registry import game_class, game_names

if TYPE_CHECKING:
    from spieltisch.analysis.tournament import TournamentConfig
    from spieltisch.ratings.calibrate import BotFit

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "ratings",
        help="the bots' fixed ratings on the players' rating scale",
        description="Ratings of players and bots (docs/ratings.md).",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    calibrate = actions.add_parser(
        "calibrate",
        help="fit the bots' ratings to seeded bot-against-bot games",
        description=(
            "Play --games seeded games between the bots, each at a random seat count of "
            "--players with a random lineup, and fit every bot's rating on the players' "
            "Weng-Lin scale (maximum a posteriori; the bots' mean is the scale's start). The "
            "values, with the command and seed that made them, are written into --out for "
            "the game, keeping the other games'. The same arguments give the same values, "
            "whatever --jobs."
        ),
    )
    calibrate.add_argument("--game", required=True, choices=game_names(), help="the game")
    calibrate.add_argument(
        "--bots", metavar="A,B,...", help="the bots to rate (default: every bot of the game)"
    )
    calibrate.add_argument(
        "--players", metavar="N|N-M", help="seat counts, e.g. 2-4 (default: all of the game's)"
    )
    calibrate.add_argument("--games", type=int, default=1000, help="games in all (default 1000)")
    calibrate.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    calibrate.add_argument("--jobs", type=int, default=1, help="parallel workers (default 1)")
    calibrate.add_argument(
        "--out",
        type=Path,
        metavar="FILE.json",
        help="the data file to write (default: the package's spieltisch/ratings/bots.json)",
    )
    add_option_argument(calibrate)
    calibrate.add_argument("--json", action="store_true", help="print the game's entry as JSON")
    calibrate.set_defaults(run=run)


def _config(args: argparse.Namespace) -> TournamentConfig:
    from spieltisch.analysis.tournament import TournamentConfig, parse_players
    from spieltisch.bots.base import bot_names

    cls = game_class(args.game)
    bots = (
        tuple(b.strip() for b in args.bots.split(",") if b.strip())
        if args.bots
        else tuple(bot_names(args.game))
    )
    players = (
        parse_players(args.players)
        if args.players
        else tuple(range(cls.min_players, cls.max_players + 1))
    )
    options = parse_option_pairs(args.option)
    return TournamentConfig(args.game, bots, players, args.games, args.seed, options)


def command_line(config: TournamentConfig) -> str:
    """The command that makes `config`'s values (the output file and jobs change nothing)."""
    words = [
        "spieltisch ratings calibrate",
        f"--game {config.game}",
        f"--bots {','.join(config.bots)}",
        f"--players {','.join(str(p) for p in config.players)}",
        f"--games {config.games}",
        f"--seed {config.seed}",
        *(f"--option {key}={value}" for key, value in config.options.items()),
    ]
    return " ".join(words)


def _entry(config: TournamentConfig, fits: list[BotFit]) -> dict[str, Any]:
    return {
        "command": command_line(config),
        "seed": config.seed,
        "games": config.games,
        "players": list(config.players),
        "options": dict(config.options),
        "bots": {fit.bot: fit.to_json() for fit in fits},
    }


def run(args: argparse.Namespace) -> int:
    from spieltisch.analysis.tournament import TournamentError
    from spieltisch.ratings.bots import BOTS_FILE, store_calibration
    from spieltisch.ratings.calibrate import fit_ratings, play_calibration

    try:
        config = _config(args)
    except (InvalidOptions, TournamentError) as error:
        return fail(str(error))
    bar = ProgressBar(config.games, sys.stderr)
    started = time.perf_counter()
    try:
        results = play_calibration(config, args.jobs, bar.update)
    except ValueError as error:  # TournamentError among them
        return fail(str(error))
    finally:
        bar.finish()
    seconds = time.perf_counter() - started
    entry = _entry(config, fit_ratings(results, config.bots))
    out = args.out or BOTS_FILE
    store_calibration(config.game, entry, out)
    if args.json:
        print_json(entry)
    else:
        for bot, values in sorted(entry["bots"].items(), key=lambda item: item[1]["mu"]):
            low, high = values["shown_95"]
            print(
                f"{bot:>12}  {values['shown']:5d}  ({low}-{high})  "
                f"mu {values['mu']:.2f}  sigma {values['sigma']:.2f}  seats {values['seats']}"
            )
        print(f"{config.games} games in {seconds:.0f} s; written to {out}")
    return 0
