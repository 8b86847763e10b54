"""Karolinchen as integers and vectors.

Actions (8): 0-5 lay the card of cherries, gooseberries, mirabelles, plums, apricots,
blueberry; 6 take the matching dice; 7 leave them (6 and 7 occur only with auto_take off).

Chance outcomes: every roll of 1 to 6 dice as colour counts (`Dice`), the start seats
(`FirstSeat`), then every assignment of tail fruits (`Tails`), in that order.

The observation is listed by `KarolinchenEncoder.fields()`; seat-relative blocks start with
the observer. Karolinchen has no hidden information, so the observation holds the whole
position (each row of cards in its order) and only the count of turns played, which the rules
never read, is left out.
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


def row_places(cards: tuple[int, ...]) -> list[int]:
    """For each fruit, the place of its card in the row `cards` (1, 2, ...), 0 if not laid."""
    places = [0] * NUM_FRUITS
    for place, fruit in enumerate(cards, start=1):
        places[fruit] = place
    return places


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
            Field("to_move", players, "one-hot, seat-relative: whose turn it is (or was)"),
            Field("middle", NUM_FRUITS, "dice in the middle per colour / 6"),
            Field(
                "laid",
                NUM_FRUITS * players,
                "per seat (relative), per fruit card: its place in the row, tail first "
                "(1, 2, ...) / 6, 0 when not laid",
            ),
            Field("current", NUM_FRUITS * players, "per seat (relative), one-hot current card"),
            Field("eaten", players, "per seat (relative), fruits eaten / 21"),
            Field("covered", players, "per seat (relative), fruits under its dice / 21"),
        ]

    def observe(self, state: KarolinchenState, seat: int) -> list[float]:
        seats = relative_seats(seat, self.players)
        vector = VectorBuilder()
        vector.one_hot(PHASES.index(state.phase), len(PHASES))
        vector.one_hot(seats.index(state.seat), self.players)
        vector.scaled(state.middle, DICE)
        for other in seats:
            vector.scaled(row_places(state.cards[other]), NUM_FRUITS)
        for other in seats:
            cards = state.cards[other]
            vector.one_hot(cards[-1] if cards else None, NUM_FRUITS)
        vector.scaled((state.eaten[other] for other in seats), TOTAL_FRUITS)
        vector.scaled((state.covered[other] for other in seats), TOTAL_FRUITS)
        return vector.values
