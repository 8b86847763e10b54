"""`spieltisch` command line: one sub-command per module, each with `add_parser` and `run`."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from spieltisch import __version__

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    import spieltisch.cli.db as db
    import spieltisch.cli.pickomino_cmds as pickomino_cmds
    import spieltisch.cli.play as play
    import spieltisch.cli.replay as replay
    import spieltisch.cli.riffraff_cmds as riffraff_cmds
    import spieltisch.cli.serve as serve
    import spieltisch.cli.simulate as simulate
    import spieltisch.cli.tournament as tournament

    parser = argparse.ArgumentParser(
        prog="spieltisch",
        description="A game table for Pickomino, Karolinchen and Riff Raff: play, simulate, solve.",
    )
    parser.add_argument("--version", action="version", version=f"spieltisch {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in (play, simulate, replay, pickomino_cmds, riffraff_cmds, serve, db, tournament):
        module.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status = int(args.run(args))
        sys.stdout.flush()  # inside the try: a reader that left is noticed here
        return status
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader left (`| head`): stop quietly, as Unix tools do
        _silence_stdout()
        return 0


def _silence_stdout() -> None:
    """Point standard output at the null device, so the flush at exit cannot fail again."""
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, sys.stdout.fileno())
    os.close(null)
