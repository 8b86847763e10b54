"""Pickomino as integers and vectors.

Actions (10): 0-5 take the dice of face 1, 2, 3, 4, 5, worm; 6 roll again; 7 stop and steal;
8 stop and take from the grill; 9 stop without a tile (a failed turn).

Chance outcomes: every roll of 1 to 8 dice as face counts (`Dice`), then the start seats
(`FirstSeat`), in that order.

The observation is listed by `PickominoEncoder.fields()`; seat-relative blocks start with the
observer. All of Pickomino is public, so the observation holds the whole position (each stack
in its order) and only the count of turns played, which the rules never read, is left out.
"""

from __future__ import annotations

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
from spieltisch.games.pickomino.data import DICE, FACE_SYMBOLS, FACE_VALUES, NUM_FACES, TILES
from spieltisch.games.pickomino.state import (
    NO_DICE,
    FirstSeat,
    Phase,
    PickominoState,
    Roll,
    Stop,
    Take,
    dice_outcomes,
)

__all__ = ["PHASES", "PickominoEncoder"]

PHASES = (Phase.START, Phase.ROLL, Phase.CHOOSE, Phase.DECIDE, Phase.OVER)
CLAIMS = ("steal", "grill", "none")
MAX_WORMS = sum((tile - 17) // 4 for tile in TILES)
Stacks = tuple[tuple[int, ...], ...]


class PickominoEncoder(Encoder):
    keys_ignore_position = True

    def __init__(self, game: Game[Any, Any]) -> None:
        super().__init__(game)
        self._heads: dict[tuple[Phase, int], FloatVector] = {}
        self._boards: dict[int, tuple[tuple[int, ...], Stacks, FloatVector]] = {}
        self._kept_parts: dict[tuple[int, ...], tuple[FloatVector, FloatVector]] = {}
        self._rolled_parts: dict[tuple[int, ...], FloatVector] = {}

    def vocabulary(self) -> list[ActionKey]:
        takes: list[ActionKey] = [("take", face) for face in range(NUM_FACES)]
        return [*takes, ("roll",), *[("stop", claim) for claim in CLAIMS]]

    def action_key(self, state: Any, action: Any) -> ActionKey:
        if isinstance(action, Take):
            return ("take", action.face)
        if isinstance(action, Roll):
            return ("roll",)
        if isinstance(action, Stop):
            return ("stop", action.claim)
        raise ValueError(f"{action!r} is not a player action of Pickomino")

    def action_label(self, key: ActionKey) -> str:
        if key[0] == "take":
            return f"take {FACE_SYMBOLS[key[1]]}"
        return "roll" if key[0] == "roll" else f"stop {key[1]}"

    def chance_vocabulary(self) -> list[Hashable]:
        rolls: list[Hashable] = [
            outcome for dice in range(1, DICE + 1) for outcome, _ in dice_outcomes(dice)
        ]
        return rolls + [FirstSeat(seat) for seat in range(self.players)]

    def chance_key(self, state: PickominoState) -> Hashable:
        return (state.phase, state.dice_left)

    def legal_key(self, state: PickominoState) -> Hashable | None:
        """A choice of faces depends on the dice alone; a stop's claims depend on the tiles
        too, which change every turn, so those are worked out each time."""
        return (state.kept, state.rolled) if state.phase is Phase.CHOOSE else None

    def fields(self) -> list[Field]:
        tiles, players = len(TILES), self.players
        return [
            Field("phase", len(PHASES), "one-hot: start, roll, choose, decide, over"),
            Field("to_move", players, "one-hot, seat-relative: whose turn it is (or was)"),
            Field("grill", tiles, "1 where tile 21+i lies face up on the grill"),
            Field("out", tiles, "1 where tile 21+i is turned face down (out of the game)"),
            Field(
                "stacks",
                tiles * players,
                "per seat (relative), per tile 21+i: its place in the stack from the bottom "
                "(1, 2, ...) / 16, 0 when not held",
            ),
            Field("tops", tiles * players, "per seat (relative), one-hot of its top tile"),
            Field("scores", players, "per seat (relative), worms / all worms of the game"),
            Field("kept", NUM_FACES, "dice set aside this turn per face (1..5, worm) / 8"),
            Field("rolled", NUM_FACES, "the roll waiting for a choice per face / 8"),
            Field("total", 1, "the sum of the set-aside dice / 40"),
        ]

    def observe(self, state: PickominoState, seat: int) -> list[float]:
        return [
            *self._head(state.phase, (state.seat - seat) % self.players),
            *self._board(state, seat),
            *self._dice(state.kept, state.rolled),
        ]

    def observe_array(self, state: PickominoState, seat: int) -> FloatVector:
        """Put together from parts remembered by what each depends on: the phase and the
        mover, the tiles (a turn long), the dice set aside and the roll."""
        mover = (state.seat - seat) % self.players
        head = self._heads.get((state.phase, mover))
        if head is None:
            head = self._heads[state.phase, mover] = as_vector(self._head(state.phase, mover))
        board = self._boards.get(seat)
        if board is None or board[0] is not state.grill or board[1] is not state.stacks:
            board = self._boards[seat] = (
                state.grill,
                state.stacks,
                as_vector(self._board(state, seat)),
            )
        kept = self._kept_parts.get(state.kept)
        if kept is None:
            kept = self._kept_parts[state.kept] = self._kept_vectors(state.kept)
        rolled = self._rolled_parts.get(state.rolled)
        if rolled is None:
            rolled = self._rolled_parts[state.rolled] = as_vector(
                self._dice(NO_DICE, state.rolled)[NUM_FACES : 2 * NUM_FACES]
            )
        return np.concatenate((head, board[2], kept[0], rolled, kept[1]))

    def _head(self, phase: Phase, mover: int) -> list[float]:
        """The phase and the seat to move, `mover` seats after the observer."""
        vector = VectorBuilder()
        vector.one_hot(PHASES.index(phase), len(PHASES))
        vector.one_hot(mover, self.players)
        return vector.values

    def _board(self, state: PickominoState, seat: int) -> list[float]:
        """The grill, the tiles out of the game, the stacks, their tops and the scores: zeros
        with each tile's entries set, quicker than joining the fields one by one."""
        tiles, players, first = len(TILES), self.players, TILES[0]
        stacks_at = 2 * tiles
        tops_at = stacks_at + tiles * players
        scores_at = tops_at + tiles * players
        values = [0.0] * (scores_at + players)
        for tile in state.grill:
            values[tile - first] = 1.0
        for tile in state.out_of_game:  # a property: read it once
            values[tiles + tile - first] = 1.0
        scores = self.game.scores(state)
        for offset, other in enumerate(relative_seats(seat, players)):
            stack = state.stacks[other]
            for place, tile in enumerate(stack, start=1):
                values[stacks_at + offset * tiles + tile - first] = place / tiles
            if stack:
                values[tops_at + offset * tiles + stack[-1] - first] = 1.0
            values[scores_at + offset] = scores[other] / MAX_WORMS
        return values

    def _dice(self, kept: tuple[int, ...], rolled: tuple[int, ...]) -> list[float]:
        """The dice set aside, the roll waiting for a choice and the sum set aside."""
        vector = VectorBuilder()
        vector.scaled(kept, DICE)
        vector.scaled(rolled, DICE)
        vector.scaled([sum(c * v for c, v in zip(kept, FACE_VALUES, strict=True))], 40)
        return vector.values

    def _kept_vectors(self, kept: tuple[int, ...]) -> tuple[FloatVector, FloatVector]:
        """The fields of `_dice` that depend on the dice set aside alone: the dice and their
        sum. These and the roll are remembered apart: each comes in a few thousand kinds."""
        values = self._dice(kept, NO_DICE)
        return as_vector(values[:NUM_FACES]), as_vector(values[2 * NUM_FACES :])
