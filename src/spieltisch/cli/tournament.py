"""`spieltisch tournament`: a seeded round-robin of bots, with ratings and an HTML report.

The tournament (and with it the games and bots) is imported by `run`, not by the parser."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spieltisch.analysis.backends import BACKENDS
from spieltisch.cli.common import add_option_argument, fail, parse_option_pairs, print_json
from spieltisch.cli.simulate import ProgressBar
from spieltisch.core.errors import InvalidOptions
from spieltisch.core.registry import game_names

if TYPE_CHECKING:
    from spieltisch.analysis.tournament import TournamentConfig

__all__ = ["add_parser", "run"]

INTERRUPTED = 130


def add_parser(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "tournament",
        help="a round-robin of bots with ratings and an HTML report",
        description=(
            "Play every seating of the bots at every seat count, cycling through them for "
            "--games games; report Elo ratings with bootstrap intervals, win rates and a "
            "head-to-head table, and write an HTML report with plots. Finished games are kept "
            "in a file next to the report (REPORT.games.jsonl): the same command continues an "
            "interrupted tournament. The same arguments give the same results, whatever the "
            "backend and --jobs."
        ),
    )
    parser.add_argument("game", choices=game_names(), help="the game to play")
    parser.add_argument("--bots", required=True, metavar="A,B,...", help="the bots, e.g. a,b,c")
    parser.add_argument(
        "--players", default="2", metavar="N|N-M", help="seat counts, e.g. 2-4 (default 2)"
    )
    parser.add_argument("--games", type=int, default=100, help="games in all (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel workers (default 1)")
    parser.add_argument(
        "--backend", choices=BACKENDS, default="local", help="local processes (default) or ray"
    )
    parser.add_argument(
        "--ray-address", metavar="ADDRESS", help="a Ray cluster to join (default: start one)"
    )
    parser.add_argument(
        "--out",
        type=Path,
        metavar="REPORT.html",
        help="the HTML report (default tournament-GAME.html); results go next to it",
    )
    add_option_argument(parser)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.set_defaults(run=run)


def _config(args: argparse.Namespace) -> TournamentConfig:
    from spieltisch.analysis.tournament import TournamentConfig, parse_players

    bots = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    return TournamentConfig(
        game=args.game,
        bots=bots,
        players=parse_players(args.players),
        games=args.games,
        seed=args.seed,
        options=parse_option_pairs(args.option),
    )


def run(args: argparse.Namespace) -> int:
    from spieltisch.analysis.report import format_summary, html_report, summary_json
    from spieltisch.analysis.tournament import TournamentError, results_path, run_tournament

    try:
        config = _config(args)
    except (InvalidOptions, TournamentError) as error:
        return fail(str(error))
    report = args.out or Path(f"tournament-{config.game}.html")
    store = results_path(report)
    bar = ProgressBar(config.games, sys.stderr)
    try:
        results = run_tournament(
            config, store, args.jobs, args.backend, bar.update, args.ray_address
        )
    except TournamentError as error:
        bar.finish()
        return fail(str(error))
    except KeyboardInterrupt:
        bar.finish()
        print(
            f"tournament interrupted after {bar.done} of {config.games} games; they are kept "
            f"in {store}: run the same command again to go on",
            file=sys.stderr,
        )
        return INTERRUPTED
    bar.finish()
    summary = summary_json(config, results)
    try:
        page = html_report(config, results, summary)
    except ImportError:
        return fail("the HTML report needs matplotlib: pip install 'spieltisch[rl]'")
    report.write_text(page, encoding="utf-8")
    if args.json:
        print_json(summary)
    else:
        print(format_summary(summary))
        print(f"\nreport: {report}\nresults: {store}")
    return 0
