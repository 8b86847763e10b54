"""Each seat's chance to win a Pickomino game at the start of every turn: the review's chart.

The win-chance model values a position between turns from one seat's point of view. It is
asked once for each seat; the answers, which the model does not force to add up, are scaled
to sum to 1. After the last turn the chances are the shares of the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from spieltisch.games.pickomino.rules import Pickomino
from spieltisch.games.pickomino.state import NO_DICE, Phase, PickominoState
from spieltisch.games.pickomino.winner import win_share
from spieltisch.games.pickomino.winprob import WinModel, feature_count, fill_features

__all__ = ["TurnChances", "win_chart"]


@dataclass(frozen=True)
class TurnChances:
    """Each seat's chance to win before turn `turn` (the turns played so far) of `seat`."""

    turn: int
    seat: int
    p_win: tuple[float, ...]


def win_chart(
    game: Pickomino, states: Sequence[PickominoState], model: WinModel
) -> tuple[TurnChances, ...]:
    """The chances before every turn of the game and after its end."""
    return tuple(
        TurnChances(state.turn, state.seat, _chances(game, state, model))
        for state in states
        if state.phase is Phase.OVER or (state.phase is Phase.ROLL and state.kept == NO_DICE)
    )


def _chances(game: Pickomino, state: PickominoState, model: WinModel) -> tuple[float, ...]:
    seats = range(game.num_players)
    if state.phase is Phase.OVER:
        return tuple(win_share(game, state, seat) for seat in seats)
    rows = np.zeros((game.num_players, feature_count(game.num_players)))
    for seat in seats:
        fill_features(state.grill, state.stacks, state.seat, seat, rows[seat])
    chances = model.predict(rows)
    return tuple(float(c) for c in chances / chances.sum())
