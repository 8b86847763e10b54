"""Argument helpers shared by the commands: seats, game options, the server's database, JSON
output."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from spieltisch.core.errors import InvalidOptions

if TYPE_CHECKING:
    from spieltisch.core.protocol import Game

__all__ = [
    "HUMAN",
    "add_database_options",
    "add_option_argument",
    "fail",
    "game_from_args",
    "parse_option_pairs",
    "parse_seats",
    "print_json",
]

HUMAN = "you"


def fail(message: str) -> int:
    """Print a user-facing error and return the exit status for it."""
    print(f"spieltisch: error: {message}", file=sys.stderr)
    return 2


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set a game option (repeatable), e.g. --option short_game=true",
    )


def add_database_options(parser: argparse.ArgumentParser) -> None:
    """--db and --data-dir: the server's database, SQLite in the data directory by default."""
    from pathlib import Path  # here: a command without a database does not load pathlib

    parser.add_argument(
        "--db",
        metavar="URL",
        help="SQLAlchemy database URL, e.g. postgresql://user@host/db "
        "(default: SQLite in --data-dir)",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=Path(os.environ.get("SPIELTISCH_DATA", "data")),
        help="directory of the default SQLite file (default: ./data or $SPIELTISCH_DATA)",
    )


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidOptions(f"'{pair}' is not KEY=VALUE")
        options[key.strip()] = value.strip()
    return options


def parse_seats(text: str, game_name: str, allow_humans: bool) -> list[str]:
    """Seat list like 'you,optimal,greedy': each a bot of the game or (if allowed) a human."""
    from spieltisch.bots.base import bot_names, read_bot_spec

    seats = [s.strip().lower() for s in text.split(",") if s.strip()]
    known = bot_names(game_name)
    for seat in seats:
        if seat == HUMAN and allow_humans:
            continue
        if seat.split(":")[0] not in known:
            humans = f"'{HUMAN}' for a person, or " if allow_humans else ""
            raise InvalidOptions(f"unknown seat '{seat}': use {humans}one of {', '.join(known)}")
        try:
            read_bot_spec(game_name, seat)
        except KeyError as error:
            raise InvalidOptions(str(error.args[0])) from None
    return seats


def game_from_args(
    game_name: str, seats: Sequence[str], pairs: Sequence[str], extra: dict[str, Any] | None = None
) -> Game[Any, Any]:
    """The game with `players` set from the seats and the `--option` pairs applied."""
    from spieltisch.core.registry import make_game

    options: dict[str, Any] = {"players": len(seats), **(extra or {})}
    options.update(parse_option_pairs(pairs))
    return make_game(game_name, options)


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, sort_keys=False))
