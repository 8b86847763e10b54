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

import numpy as np

from spieltisch.adapters.encoding import (
    ActionKey,
    Encoder,
    Field,
    FloatVector,
    VectorBuilder,
    as_vector,
    relative_seats,
)
from spieltisch.core.protocol import Game
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
COUNTS_LIMIT = 50_000
"""Remembered parts of fruits eaten and covered; more and they are forgotten and built again."""


def row_places(cards: tuple[int, ...]) -> list[int]:
    """For each fruit, the place of its card in the row `cards` (1, 2, ...), 0 if not laid."""
    places = [0] * NUM_FRUITS
    for place, fruit in enumerate(cards, start=1):
        places[fruit] = place
    return places


class KarolinchenEncoder(Encoder):
    keys_ignore_position = True

    def __init__(self, game: Game[Any, Any]) -> None:
        super().__init__(game)
        self._heads: dict[tuple[Phase, int], FloatVector] = {}
        self._middles: dict[tuple[int, ...], FloatVector] = {}
        self._seats = [relative_seats(seat, self.players) for seat in range(self.players)]
        self._rows_of: dict[tuple[int, ...], tuple[FloatVector, FloatVector]] = {}
        self._counts_of: dict[tuple[tuple[int, ...], tuple[int, ...], int], FloatVector] = {}

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

    def chance_key(self, state: KarolinchenState) -> Hashable:
        return (state.phase, state.dice_in_middle)

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
        return [
            *self._head(state.phase, (state.seat - seat) % self.players),
            *self._middle(state.middle),
            *self._rows(state.cards, seat),
            *self._counts(state.eaten, state.covered, seat),
        ]

    def observe_array(self, state: KarolinchenState, seat: int) -> FloatVector:
        """Put together from parts remembered by what each depends on: the phase and the
        mover, the middle, each seat's row of cards, the fruits eaten and covered."""
        mover = (state.seat - seat) % self.players
        head = self._heads.get((state.phase, mover))
        if head is None:
            head = self._heads[state.phase, mover] = as_vector(self._head(state.phase, mover))
        middle = self._middles.get(state.middle)
        if middle is None:
            middle = self._middles[state.middle] = as_vector(self._middle(state.middle))
        rows = [self._row_parts(state.cards[other]) for other in self._seats[seat]]
        counts = self._remembered_counts(state.eaten, state.covered, seat)
        return np.concatenate(
            (head, middle, *(places for places, _ in rows), *(card for _, card in rows), counts)
        )

    def _row_parts(self, row: tuple[int, ...]) -> tuple[FloatVector, FloatVector]:
        """One seat's places of its cards and its current card, as in `_rows`."""
        parts = self._rows_of.get(row)
        if parts is None:
            places, current = VectorBuilder(), VectorBuilder()
            places.scaled(row_places(row), NUM_FRUITS)
            current.one_hot(row[-1] if row else None, NUM_FRUITS)
            parts = self._rows_of[row] = (as_vector(places.values), as_vector(current.values))
        return parts

    def _remembered_counts(
        self, eaten: tuple[int, ...], covered: tuple[int, ...], seat: int
    ) -> FloatVector:
        counts = self._counts_of.get((eaten, covered, seat))
        if counts is None:
            if len(self._counts_of) >= COUNTS_LIMIT:
                self._counts_of.clear()
            counts = as_vector(self._counts(eaten, covered, seat))
            self._counts_of[eaten, covered, seat] = counts
        return counts

    def _head(self, phase: Phase, mover: int) -> list[float]:
        """The phase and the seat to move, `mover` seats after the observer."""
        vector = VectorBuilder()
        vector.one_hot(PHASES.index(phase), len(PHASES))
        vector.one_hot(mover, self.players)
        return vector.values

    def _middle(self, middle: tuple[int, ...]) -> list[float]:
        vector = VectorBuilder()
        vector.scaled(middle, DICE)
        return vector.values

    def _rows(self, cards: tuple[tuple[int, ...], ...], seat: int) -> list[float]:
        """Each seat's row of cards and its current card."""
        seats = relative_seats(seat, self.players)
        vector = VectorBuilder()
        for other in seats:
            vector.scaled(row_places(cards[other]), NUM_FRUITS)
        for other in seats:
            row = cards[other]
            vector.one_hot(row[-1] if row else None, NUM_FRUITS)
        return vector.values

    def _counts(self, eaten: tuple[int, ...], covered: tuple[int, ...], seat: int) -> list[float]:
        """Each seat's fruits eaten and covered."""
        seats = relative_seats(seat, self.players)
        vector = VectorBuilder()
        vector.scaled((eaten[other] for other in seats), TOTAL_FRUITS)
        vector.scaled((covered[other] for other in seats), TOTAL_FRUITS)
        return vector.values
