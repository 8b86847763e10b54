"""`spieltisch pickomino solve|odds|train-winner`: the turn solver from the command line.

The solver and the training (numpy) are imported by the command that runs them, not by the
argument parser: `spieltisch --help` starts without them.
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from spieltisch.analysis.training_plan import TrainConfig, Training
from spieltisch.cli.common import fail, print_json
from spieltisch.games.pickomino.data import TILES, tile_worms

if TYPE_CHECKING:
    from pathlib import Path

    from spieltisch.games.pickomino.solver import TurnTable

__all__ = ["add_parser", "parse_tiles", "run_odds", "run_solve", "run_train_winner"]


def parse_tiles(text: str) -> tuple[int, ...]:
    """'21-36', '21,22,30' or a mix like '21-25,30' as ascending distinct tiles."""
    tiles: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        low, dash, high = part.partition("-")
        try:
            numbers = range(int(low), int(high) + 1) if dash else [int(part)]
        except ValueError:
            raise ValueError(f"'{part}' is not a tile number or range like 21-36") from None
        for number in numbers:
            if number not in TILES:
                raise ValueError(f"there is no tile {number}; tiles are numbered 21 to 36")
            tiles.add(number)
    return tuple(sorted(tiles))


def _path(text: str) -> Path:
    """A file argument as a Path; pathlib loads only for a command that is given one."""
    from pathlib import Path

    return Path(text)


def _tile(text: str) -> int:
    (tile,) = parse_tiles(text)
    return tile


def add_parser(commands: Any) -> None:
    parser = commands.add_parser("pickomino", help="Pickomino tools: the exact turn solver")
    tools = parser.add_subparsers(dest="tool", metavar="TOOL", required=True)
    solve = tools.add_parser("solve", help="the optimal turn's value from a given table")
    _add_grill(solve)
    solve.add_argument("--own-top", metavar="N", help="your own top tile (lost when you fail)")
    solve.add_argument("--tops", default="", metavar="N,N,...", help="the others' top tiles")
    solve.add_argument("--players", type=int, help="players at the table (default: tops + 1)")
    solve.add_argument(
        "--steal-weight",
        type=float,
        metavar="W",
        help="weight of a victim's loss in a steal (default 1 / (players - 1))",
    )
    solve.add_argument("--json", action="store_true", help="print JSON")
    solve.set_defaults(run=run_solve)
    odds = tools.add_parser(
        "odds", help="for each tile, the best chance to end a turn with a worm and that sum"
    )
    _add_grill(odds)
    odds.add_argument("--json", action="store_true", help="print JSON")
    odds.add_argument(
        "--plot", type=_path, metavar="FILE", help="also draw the table as a chart (.png or .svg)"
    )
    odds.set_defaults(run=run_odds)
    _add_train_parser(tools)


def _add_train_parser(tools: Any) -> None:
    train = tools.add_parser(
        "train-winner",
        help="train the win-chance model of the 'winner' bot by self-play",
        description="Round 1 plays 'optimal' against itself; every later round plays the "
        "last model's 'winner' against 'optimal'. Each round fits a new model to its games' "
        "results, then refits it to TD(lambda) targets from the exact chances of each turn.",
    )
    train.add_argument("--players", type=int, default=2, help="seats, 2 to 7 (default 2)")
    train.add_argument(
        "--games", type=int, default=Training.games, help="games per round (default %(default)s)"
    )
    train.add_argument(
        "--rounds",
        type=int,
        default=Training.rounds,
        help="rounds of self-play (default %(default)s)",
    )
    train.add_argument("--epochs", type=int, default=TrainConfig.epochs, help="epochs per fit")
    train.add_argument(
        "--sweeps",
        type=int,
        default=Training.sweeps,
        help="refits of each round's model to its own TD targets (default %(default)s)",
    )
    train.add_argument(
        "--trace",
        type=float,
        default=Training.trace,
        help="lambda of the TD targets, 0 to 1 (default %(default)s)",
    )
    train.add_argument("--seed", type=int, default=1, help="seed of the games and the fit")
    train.add_argument("--jobs", type=int, default=1, help="processes that play the games")
    train.add_argument(
        "--out", type=_path, help="where to write the model (default: the one the bot uses)"
    )
    train.set_defaults(run=run_train_winner)


def _add_grill(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--grill",
        default="21-36",
        metavar="TILES",
        help="face-up grill tiles, e.g. 21-36 or 21,22,30 (default: all)",
    )


def _table(args: argparse.Namespace) -> TurnTable:
    from spieltisch.games.pickomino.solver import TurnTable

    grill = parse_tiles(args.grill)
    own = _tile(args.own_top) if args.own_top else None
    tops = parse_tiles(args.tops) if args.tops else ()
    held = [*tops, *([own] if own is not None else [])]
    twice = sorted({t for t in held if held.count(t) > 1} | (set(held) & set(grill)))
    if twice:
        tiles = ", ".join(str(t) for t in twice)
        verb = "is" if len(twice) == 1 else "are"
        raise ValueError(
            f"a tile can be on the grill or on one stack only; {tiles} {verb} given twice "
            "(leave the stacks' tiles out of --grill, e.g. --grill 21-26,28-36)"
        )
    players = args.players or max(2, len(tops) + 1)
    if not max(2, len(tops) + 1) <= players <= 7:
        raise ValueError(f"--players must be from {max(2, len(tops) + 1)} to 7")
    weight = args.steal_weight if args.steal_weight is not None else 1 / (players - 1)
    return TurnTable(grill, own, tops, weight)


def _one_blas_thread() -> None:
    """Before the solver loads numpy: its arrays are small, so OpenBLAS's worker threads (one
    per core) would cost this short command more to start than they could save. A value set
    by the user is kept."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def run_solve(args: argparse.Namespace) -> int:
    _one_blas_thread()
    from spieltisch.games.pickomino.solver import turn_outcome

    try:
        table = _table(args)
    except ValueError as error:
        return fail(str(error))
    outcome = turn_outcome(table)
    if args.json:
        print_json(
            {
                "grill": list(table.grill),
                "own_top": table.own_top,
                "tops": list(table.other_tops),
                "steal_weight": table.steal_weight,
                "expected_worms": outcome.expected,
                "p_fail": outcome.p_fail,
                "p_tile": {str(tile): p for tile, p in outcome.p_tile.items()},
                "seconds": outcome.seconds,
                "solve_ms": outcome.solve_seconds * 1000,
            }
        )
        return 0
    print(f"Expected worms this turn: {outcome.expected:.4f}")
    print(f"Chance to fail:           {outcome.p_fail:7.2%}")
    print("\n tile  worms  chance")
    for tile, chance in outcome.p_tile.items():
        how = "steal" if tile in table.other_tops else "grill"
        bar = "█" * round(chance * 100)
        print(f"  {tile}    {tile_worms(tile)}   {chance:7.2%}  {bar} ({how})")
    solve_ms = outcome.solve_seconds * 1000
    print(f"\nsolved in {outcome.seconds * 1000:.1f} ms ({solve_ms:.1f} ms dynamic programming)")
    return 0


def run_odds(args: argparse.Namespace) -> int:
    try:
        tiles = parse_tiles(args.grill)
    except ValueError as error:
        return fail(str(error))
    _one_blas_thread()
    from spieltisch.games.pickomino.solver import tile_odds

    odds = tile_odds(tiles)
    if args.plot is not None:
        problem = _plot(odds, args.plot)
        if problem:
            return fail(problem)
    if args.json:
        print_json({str(tile): chances for tile, chances in odds.items()})
        return 0
    print(" tile   at least   exactly")
    for tile, chances in odds.items():
        print(f"  {tile}   {chances['at_least']:7.2%}   {chances['exactly']:7.2%}")
    return 0


def _plot(odds: dict[int, dict[str, float]], path: Path) -> str | None:
    """Draw the chart; the problem as a sentence, or None when it was drawn."""
    from spieltisch.analysis.odds_plot import plot_tile_odds

    try:
        plot_tile_odds(odds, path)
    except ImportError:
        return "the chart needs matplotlib: pip install 'spieltisch[rl]'"
    except (ValueError, OSError) as error:
        return str(error)
    return None


def run_train_winner(args: argparse.Namespace) -> int:
    problem = _training_problem(args)
    if problem:
        return fail(problem)
    from spieltisch.analysis.winner_training import train_winner
    from spieltisch.games.pickomino.winprob import model_path

    training = Training(
        args.players,
        args.games,
        args.rounds,
        args.seed,
        args.jobs,
        TrainConfig(epochs=args.epochs, seed=args.seed),
        args.sweeps,
        args.trace,
    )
    try:
        model = train_winner(training, lambda line: print(line, flush=True))
    except KeyboardInterrupt:
        return fail("interrupted; no model was written")
    path = args.out or model_path(args.players)
    path.parent.mkdir(parents=True, exist_ok=True)
    model.save(path)
    print(f"model written to {path}")
    return 0


def _training_problem(args: argparse.Namespace) -> str | None:
    if not 2 <= args.players <= 7:
        return f"--players must be from 2 to 7, not {args.players}"
    for name in ("games", "rounds", "epochs", "jobs"):
        if getattr(args, name) < 1:
            return f"--{name} must be at least 1"
    if args.sweeps < 0:
        return "--sweeps must be 0 or more"
    if not 0 <= args.trace <= 1:
        return f"--trace must be from 0 to 1, not {args.trace}"
    if args.out is not None and args.out.suffix != ".npz":
        return f"--out must name a .npz file, not {args.out}"
    return None
