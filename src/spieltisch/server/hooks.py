"""What a game may add to the table host, registered beside the game, so that the host itself
names no game.

A game's hooks live in `spieltisch.serving.<game name>`, a module whose `HOOKS` is a
`GameHooks`. `hooks_for` imports that module the first time the game is asked about (the
server never imports it by name); a game without one has no hooks, and the host serves it
with the game protocol alone.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from spieltisch.core.protocol import Game, JsonValue
from spieltisch.core.record import GameRecord
from spieltisch.server.settle import CatchWindow, Motion
from spieltisch.server.store import SeatRow

__all__ = [
    "DEFAULT_TURN_CLOCK",
    "SERVING_PACKAGE",
    "GameHooks",
    "Physics",
    "default_turn_clock",
    "hooks_for",
    "needs_physics",
    "settle_with_motion",
    "tutors",
]

SERVING_PACKAGE = "spieltisch.serving"
"""Where the games' hooks live, one module per game named like the game."""
DEFAULT_TURN_CLOCK = 90.0
"""Seconds per turn of a table with two or more people, for a game that names none."""


@dataclass(frozen=True)
class Physics:
    """A game whose chance outcome can be a simulation with a motion that every client plays
    (`server.settle`), and in which a person may catch falling pieces by hand."""

    due: Callable[[Game[Any, Any], Any], bool]
    """Whether the chance node due now is worked out by the physics."""
    motion: Callable[[Game[Any, Any], Any, random.Random], Motion]
    """The outcome of that chance node (the one `sample_chance` draws from the generator)
    with its motion; a job for a worker process, so a function of a module."""
    catcher: Callable[[Game[Any, Any], Any, Sequence[SeatRow]], int | None]
    """The person who is to catch by hand now, or None."""
    late_pieces: Callable[[Game[Any, Any], Any, CatchWindow, str, float], list[int]]
    """The pieces a catch names whose time to be caught is over at a moment."""


@dataclass(frozen=True)
class GameHooks:
    """A game's additions to the host; every one may be left out."""

    tutor: str | None = None
    """The friendly bot of the game's guided first game ("Learn to play"); None: no guide."""
    table_options: Callable[[dict[str, Any], int], dict[str, Any]] | None = None
    """The options of a new table, given those asked for and how many people sit at it."""
    odds: Callable[[Game[Any, Any], Any], list[dict[str, JsonValue]] | None] | None = None
    """Each legal action of the player to move with its odds, or None where there are none."""
    scene: Callable[[], dict[str, Any]] | None = None
    """The geometry a 3D client draws the game with."""
    review: Callable[[GameRecord], dict[str, Any]] | None = None
    """The review of a finished game as JSON, each decision with the `answers` that solve it
    as a puzzle (`server.reviews`); it may take seconds and runs beside the loop."""
    physics: Physics | None = None
    paced_chance: bool = False
    """Whether the game's chance outcomes (Karolinchen's rolls, one after another with no
    decision between them) come one at a time at the table's pace, so people can follow."""
    turn_clock: float | None = None
    """Seconds per turn that a table with two or more people gets unless it asks otherwise
    (None: `DEFAULT_TURN_CLOCK`)."""


NO_HOOKS = GameHooks()


@cache
def hooks_for(game_name: str) -> GameHooks:
    """The hooks of the game `game_name` (none if it has no serving module)."""
    module_name = f"{SERVING_PACKAGE}.{game_name}"
    if not game_name.isidentifier() or importlib.util.find_spec(module_name) is None:
        return NO_HOOKS
    hooks = getattr(importlib.import_module(module_name), "HOOKS", NO_HOOKS)
    if not isinstance(hooks, GameHooks):
        raise TypeError(f"{module_name}.HOOKS is not a GameHooks")
    return hooks


def tutors(game_names: Sequence[str]) -> dict[str, str]:
    """The games of `game_names` that have a guided first game, with their friendly bots."""
    found = {name: hooks_for(name).tutor for name in game_names}
    return {name: bot for name, bot in found.items() if bot is not None}


def default_turn_clock(game_name: str, people: int) -> float | None:
    """The turn clock a new table gets when none is asked for: the game's time per turn when
    two or more people sit at it (nobody waits for ever for one who left), else none."""
    if people < 2:
        return None
    return hooks_for(game_name).turn_clock or DEFAULT_TURN_CLOCK


def needs_physics(game: Game[Any, Any], state: Any) -> bool:
    """Whether the chance node due now is worked out by the game's physics."""
    physics = hooks_for(game.name).physics
    return physics is not None and physics.due(game, state)


def settle_with_motion(game: Game[Any, Any], state: Any, rng: random.Random) -> Motion | None:
    """The outcome of the chance node due with its motion, if the game's physics works it out
    (None for any other chance node); a job for a worker process."""
    physics = hooks_for(game.name).physics
    if physics is None or not physics.due(game, state):
        return None
    return physics.motion(game, state, rng)
