"""Riff Raff at the web table: its placements' physics with the motion every client plays,
the catch by hand, the 3D scene, tables with a person at them catching by hand, and the
review of a finished game (each placement's risk and card choice against the careful bot's).

The motion broadcast and the catch window themselves are the host's (`server.settle`); this
module says when Riff Raff needs them and works the placement out.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import Any

from spieltisch.core.errors import IllegalAction
from spieltisch.core.protocol import Game
from spieltisch.core.record import GameRecord
from spieltisch.games.riffraff.rules import RiffRaff, settled_of
from spieltisch.games.riffraff.state import Catch, Phase, RiffRaffState
from spieltisch.server.hooks import GameHooks, Physics
from spieltisch.server.settle import CatchWindow, Fall, Motion
from spieltisch.server.store import SeatRow

__all__ = [
    "HOOKS",
    "REVIEW_BOT_SETTING",
    "REVIEW_TRIALS_SETTING",
    "catcher",
    "late_pieces",
    "placement_due",
    "placement_motion",
    "review_json",
    "scene",
]


def table_options(options: dict[str, Any], people: int) -> dict[str, Any]:
    """Tables with a person at them catch by hand unless the options say otherwise."""
    if people and "catching" not in options:
        return {**options, "catching": "choose"}
    return options


def placement_due(game: Game[Any, Any], state: Any) -> bool:
    """Whether the chance node due is a placement waiting for the physics."""
    return isinstance(game, RiffRaff) and state.phase is Phase.SETTLE


def placement_motion(game: Game[Any, Any], state: Any, rng: random.Random) -> Motion:
    """The placement's outcome (the one `sample_chance` draws from `rng`) with its motion."""
    assert isinstance(game, RiffRaff) and placement_due(game, state)
    result = game.placement_result(state, rng.getrandbits(64))
    outcome = settled_of(result)
    falls = tuple(Fall(f.body, f.time, f.air) for f in outcome.fallen)
    return Motion(state.active, outcome, result.trajectory, result.bodies, outcome.body, falls)


def catcher(game: Game[Any, Any], state: Any, seats: Sequence[SeatRow]) -> int | None:
    """The person who is to catch by hand now, or None."""
    if not isinstance(game, RiffRaff) or game.options.catching != "choose":
        return None
    if not isinstance(state, RiffRaffState) or state.phase is not Phase.CATCH:
        return None
    seat = state.active
    return seat if seat is not None and seats[seat].bot is None else None


def late_pieces(
    game: Game[Any, Any], state: Any, window: CatchWindow, text: str, now: float
) -> list[int]:
    """The pieces a catch `text` names whose time to be caught is over at `now`."""
    try:
        action = game.parse_action(state, text)
    except IllegalAction:
        return []  # the rules refuse it with their own message
    if not isinstance(action, Catch):
        return []
    return [b for b in action.bodies if now > window.deadlines.get(b, window.closes)]


def scene() -> dict[str, Any]:
    """The ship's and the cargo's geometry for the 3D client."""
    from spieltisch.games.riffraff.scene import scene_json

    return scene_json()


REVIEW_TRIALS_SETTING = "SPIELTISCH_REVIEW_TRIALS"
REVIEW_BOT_SETTING = "SPIELTISCH_REVIEW_BOT"
"""Environment variables that `serve --review-trials/--review-bot` set (the worker processes
that build reviews inherit them); unset, `analysis.review.riffraff`'s defaults apply."""


def review_json(record: GameRecord) -> dict[str, Any]:
    """The review, each decision with the choices whose risk is not clearly above the safest
    one's (the answers of its puzzle: the same rule that grades a choice "good" or better)."""
    from spieltisch.analysis.review import riffraff

    trials = int(os.environ.get(REVIEW_TRIALS_SETTING) or riffraff.TRIALS)
    bot = os.environ.get(REVIEW_BOT_SETTING) or riffraff.REVIEW_BOT
    data = riffraff.review_riffraff(record, trials, bot).to_json()
    for decision in data["decisions"]:
        choices = decision["choices"]
        safest = min((c["risk"] for c in choices), default=0.0)
        decision["answers"] = [
            c["action"] for c in choices if c["risk"] - safest < riffraff.RISK_INACCURACY
        ] or [decision["played"]]
        decision["win_lost"] = None
    return data


HOOKS = GameHooks(
    tutor="random",
    table_options=table_options,
    scene=scene,
    review=review_json,
    physics=Physics(placement_due, placement_motion, catcher, late_pieces),
    turn_clock=120.0,  # a placement is aimed with care, and the ship's motion plays out
)
