"""The checks a new table passes before it is made: its game, seats and options, and its
settings (turn clock, seed, bot pace, rated, turn-based). Bad input is refused with a
`TableError` that says what is allowed, and nothing is made."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spieltisch.bots.base import read_bot_spec
from spieltisch.core.errors import InvalidOptions
from spieltisch.core.protocol import Game
from spieltisch.core.registry import game_class, make_game
from spieltisch.server.common import TableError, check_bot_spec
from spieltisch.server.hooks import hooks_for
from spieltisch.server.scheduler import BOT_PACES
from spieltisch.server.turnbased import TurnBased

__all__ = ["MAX_SEED", "check_settings", "checked_game"]

MAX_SEED = 2**63  # a seed is stored as a signed 64-bit integer


def checked_game(
    game_name: str, options: dict[str, Any], bots: Sequence[str | None]
) -> Game[Any, Any]:
    """The game of a new table with one seat per entry of `bots` (None: a person), its
    options changed by the game's hooks for the number of people."""
    try:
        cls = game_class(game_name)
    except KeyError as error:
        raise TableError("unknown_game", str(error.args[0]) + ".") from None
    if not cls.min_players <= len(bots) <= cls.max_players:
        raise TableError(
            "bad_seats",
            f"{cls.title} is played by {cls.min_players} to {cls.max_players} players; "
            f"{len(bots)} seats were given.",
        )
    change_options = hooks_for(game_name).table_options
    if change_options is not None:
        options = change_options(options, sum(1 for bot in bots if bot is None))
    try:
        game = make_game(game_name, {**options, "players": len(bots)})
    except InvalidOptions as error:
        raise TableError("bad_options", f"Game options: {error}.") from None
    for bot in bots:
        if bot is not None:
            check_bot_spec(bot)
            try:
                read_bot_spec(game_name, bot)
            except KeyError as error:
                raise TableError("unknown_bot", str(error.args[0]) + ".") from None
    return game


def check_settings(
    clock: float | None, seed: int | None, pace: str, rated: bool, turn_based: TurnBased | None
) -> None:
    """A new table's turn clock (a real-time one; a turn-based table's comes from its time
    per move), seed, bot pace and rating."""
    if turn_based is None and clock is not None and not 5 <= clock <= 3600:
        raise TableError("bad_clock", "A turn clock must be from 5 to 3600 seconds.")
    if seed is not None and not 0 <= seed < MAX_SEED:
        raise TableError("bad_seed", f"A seed must be a whole number from 0 to {MAX_SEED - 1}.")
    if pace not in BOT_PACES:
        raise TableError("bad_pace", f"A bot pace is one of: {', '.join(BOT_PACES)}.")
    if rated and seed is not None:
        raise TableError("rated_seeded", "A rated table rolls secret dice; leave out the seed.")
