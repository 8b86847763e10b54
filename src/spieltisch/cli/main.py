"""`spieltisch` command line: one sub-command per module, each with `add_parser` and `run`,
named in `COMMAND_MODULES` (a new command is added there)."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from spieltisch import __version__

__all__ = ["COMMAND_MODULES", "build_parser", "main"]

COMMAND_MODULES = {
    "play": "play",
    "simulate": "simulate",
    "replay": "replay",
    "review": "review",
    "pickomino": "pickomino_cmds",
    "riffraff": "riffraff_cmds",
    "serve": "serve",
    "db": "db",
    "tournament": "tournament",
    "ratings": "ratings",
}
"""Each command, in the order of the help, and its module in `spieltisch.cli`, which adds the
command's parser (`add_parser`) and runs it."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command; given a command's name, of that command alone, which
    leaves the other commands' modules unloaded."""
    parser = argparse.ArgumentParser(
        prog="spieltisch",
        description="A game table for Pickomino, Karolinchen and Riff Raff: play, simulate, solve.",
    )
    parser.add_argument("--version", action="version", version=f"spieltisch {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in [command] if command in COMMAND_MODULES else COMMAND_MODULES:
        module = importlib.import_module(f"spieltisch.cli.{COMMAND_MODULES[name]}")
        module.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words[0] if words else None)  # a command comes first, if any
    args = parser.parse_args(words)
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
