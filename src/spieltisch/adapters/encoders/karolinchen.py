"""Karolinchen as integers and vectors.

Actions (8): 0-5 lay the card of cherries, gooseberries, mirabelles, plums, apricots,
blueberry; 6 take the matching dice; 7 leave them (6 and 7 occur only with auto_take off).

Chance outcomes: every roll of 1 to 6 dice as colour counts (`Dice`), the start seats
(`FirstSeat`), then every assignment of tail fruits (`Tails`), in that order.

The observation is listed by `KarolinchenEncoder.fields()`; seat-relative blocks start with
the observer. Karolinchen has no hidden information.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from typing import Any

from spieltisch.adapters.encoding import ActionKey, Encoder, Field, VectorBuilder, relative_seats
from spieltisch.games.karolinchen.data import DICE, FRUITS, NUM_FRUITS, TOTAL_FRUITS
from spieltisch.games.karolinchen.state import (
    FirstSeat,
    KarolinchenState,
    Lay,
    Leave,
    Phase,
    Tails,
    Take,
    dice_outcomes,
)

__all__ = ["PHASES", "KarolinchenEncoder"]

PHASES = tuple(Phase)


class KarolinchenEncoder(Encoder):
    def vocabulary(self) -> list[ActionKey]:
        lays: list[ActionKey] = [("lay", fruit) for fruit in range(NUM_FRUITS)]
        return [*lays, ("take",), ("leave",)]

    def action_key(self, state: Any, action: Any) -> ActionKey:
        if isinstance(action, Lay):
            return ("lay", action.fruit)
        if isinstance(action, Take):
            return ("take",)
        if isinstance(action, Leave):
            return ("leave",)
        raise ValueError(f"{action!r} is not a player action of Karolinchen")

    def action_label(self, key: ActionKey) -> str:
        return f"lay {FRUITS[key[1]].name}" if key[0] == "lay" else str(key[0])

    def chance_vocabulary(self) -> list[Hashable]:
        rolls: list[Hashable] = [
            outcome for dice in range(1, DICE + 1) for outcome, _ in dice_outcomes(dice)
        ]
        seats = [FirstSeat(seat) for seat in range(self.players)]
        tails = [
            Tails(fruits) for fruits in itertools.permutations(range(NUM_FRUITS), self.players)
        ]
        return rolls + seats + tails

    def fields(self) -> list[Field]:
        players = self.players
        return [
            Field("phase", len(PHASES), "one-hot: " + ", ".join(PHASES)),
            Field("to_move", players, "one-hot, seat-relative: whose turn it is"),
            Field("middle", NUM_FRUITS, "dice in the middle per colour / 6"),
            Field("laid", NUM_FRUITS * players, "per seat (relative), 1 per fruit card laid"),
            Field("current", NUM_FRUITS * players, "per seat (relative), one-hot current card"),
            Field("eaten", players, "per seat (relative), fruits eaten / 21"),
            Field("covered", players, "per seat (relative), fruits under its dice / 21"),
        ]

    def observe(self, state: KarolinchenState, seat: int) -> list[float]:
        seats = relative_seats(seat, self.players)
        vector = VectorBuilder()
        vector.one_hot(PHASES.index(state.phase), len(PHASES))
        mover = seats.index(state.seat) if state.phase is not Phase.OVER else None
        vector.one_hot(mover, self.players)
        vector.scaled(state.middle, DICE)
        for other in seats:
            vector.flags(fruit in state.cards[other] for fruit in range(NUM_FRUITS))
        for other in seats:
            cards = state.cards[other]
            vector.one_hot(cards[-1] if cards else None, NUM_FRUITS)
        vector.scaled((state.eaten[other] for other in seats), TOTAL_FRUITS)
        vector.scaled((state.covered[other] for other in seats), TOTAL_FRUITS)
        return vector.values
