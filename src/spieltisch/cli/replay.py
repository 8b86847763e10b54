"""`spieltisch replay FILE`: a saved game record in text notation, turn by turn."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from spieltisch.cli.common import HUMAN, fail
from spieltisch.core.errors import RecordError
from spieltisch.core.protocol import CHANCE, Game
from spieltisch.core.record import GameRecord, load_record, replay_states
from spieltisch.core.registry import make_game

__all__ = ["add_parser", "record_lines", "run"]


def add_parser(commands: Any) -> None:
    """Add the `replay` command to the sub-parsers of the main parser."""
    parser = commands.add_parser(
        "replay",
        help="print a saved game turn by turn",
        description="Print a game record (as written by 'play --save') in text notation: "
        "the setup, every turn and the result. The record is checked move by move.",
    )
    parser.add_argument("file", type=Path, metavar="FILE", help="the game record (JSON)")
    parser.add_argument("--final", action="store_true", help="also draw the final position")
    parser.set_defaults(run=run)


def _names(record: GameRecord, game: Game[Any, Any]) -> list[str]:
    if len(record.players) == game.num_players and len(set(record.players)) == game.num_players:
        return list(record.players)
    return [f"seat {seat}" for seat in range(game.num_players)]


def _seat_kinds(record: GameRecord, count: int) -> list[str] | None:
    seats = record.meta.get("seats")
    if isinstance(seats, list) and len(seats) == count and all(isinstance(s, str) for s in seats):
        return seats
    return None


def _header(record: GameRecord, game: Game[Any, Any], names: Sequence[str]) -> list[str]:
    options = ", ".join(
        f"{key}={value if isinstance(value, str) else json.dumps(value)}"
        for key, value in record.options.items()
    )
    kinds = _seat_kinds(record, len(names))
    players = ", ".join(
        name if kinds is None or kinds[seat] in (name, HUMAN) else f"{name} ({kinds[seat]})"
        for seat, name in enumerate(names)
    )
    return [
        f"{game.title} · rules version {record.rules_version}",
        f"Options   {options or '(defaults)'}",
        f"Seed      {'not recorded' if record.seed is None else record.seed}",
        f"Players   {players}",
        f"Actions   {len(record.actions)}",
    ]


def record_lines(record: GameRecord, final: bool = False) -> list[str]:
    """The whole printout of a record; raises `RecordError` if it does not replay."""
    from spieltisch.cli.present import presenter_for

    states = replay_states(record)  # checks the game, its rules version and every action
    game = make_game(record.game, record.options)
    names = _names(record, game)
    presenter = presenter_for(game, names)
    lines = [*_header(record, game, names), ""]
    lines += presenter.summary(states, record.actions)
    last = states[-1]
    mover = game.to_move(last)
    lines.append("")
    if mover is None:
        lines += ["Final scores", *presenter.result_lines(last)]
    else:
        who = "chance" if mover == CHANCE else names[mover]
        scores = ", ".join(f"{n} {s}" for n, s in zip(names, game.scores(last), strict=True))
        lines += [f"Not finished: {who} to move.", f"Scores so far: {scores}"]
    if final:
        lines += ["", presenter.board(last)]
    return lines


def run(args: argparse.Namespace, write: Callable[[str], None] = print) -> int:
    """Print the record; a file that is not a valid record exits with status 2."""
    try:
        record = load_record(args.file)
        lines = record_lines(record, final=args.final)
    except RecordError as error:
        return fail(str(error))
    for line in lines:
        write(line)
    return 0
