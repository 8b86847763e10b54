"""Playing one game to the end between bots, with the dice from one seeded generator."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spieltisch.bots.base import Bot
from spieltisch.core.protocol import CHANCE, Game
from spieltisch.core.record import GameRecord

__all__ = ["MatchResult", "play_match"]


@dataclass(frozen=True)
class MatchResult:
    state: Any
    record: GameRecord
    actions: tuple[Any, ...]


def play_match(
    game: Game[Any, Any], bots: Sequence[Bot], seed: int, players: Sequence[str] = ()
) -> MatchResult:
    """Play until the game is over; chance comes from `random.Random(seed)`."""
    if len(bots) != game.num_players:
        raise ValueError(f"{game.title} with these options needs {game.num_players} bots")
    dice = random.Random(seed)
    state = game.new_state()
    actions = []
    mover = game.to_move(state)
    while mover is not None:
        action = game.sample_chance(state, dice) if mover == CHANCE else bots[mover].choose(state)
        state = game.apply(state, action)
        actions.append(action)
        mover = game.to_move(state)
    record = GameRecord(
        game.name,
        game.options_json(),
        game.rules_version,
        tuple(game.format_action(a) for a in actions),
        seed,
        tuple(players),
    )
    return MatchResult(state, record, tuple(actions))
