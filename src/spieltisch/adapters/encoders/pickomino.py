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

from spieltisch.adapters.encoding import ActionKey, Encoder, Field, VectorBuilder, relative_seats
from spieltisch.games.pickomino.data import DICE, FACE_SYMBOLS, NUM_FACES, TILES
from spieltisch.games.pickomino.state import (
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


def stack_places(stack: tuple[int, ...]) -> list[int]:
    """For each tile, its place in `stack` counted from the bottom (1, 2, ...), 0 if absent."""
    places = [0] * len(TILES)
    for place, tile in enumerate(stack, start=1):
        places[tile - TILES[0]] = place
    return places


class PickominoEncoder(Encoder):
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
        tiles = len(TILES)
        seats = relative_seats(seat, self.players)
        vector = VectorBuilder()
        vector.one_hot(PHASES.index(state.phase), len(PHASES))
        vector.one_hot(seats.index(state.seat), self.players)
        grill, out = set(state.grill), set(state.out_of_game)  # a property: compute it once
        vector.flags(tile in grill for tile in TILES)
        vector.flags(tile in out for tile in TILES)
        for other in seats:
            vector.scaled(stack_places(state.stacks[other]), tiles)
        for other in seats:
            top = state.top(other)
            vector.one_hot(None if top is None else top - TILES[0], tiles)
        scores = self.game.scores(state)
        vector.scaled((scores[other] for other in seats), MAX_WORMS)
        vector.scaled(state.kept, DICE)
        vector.scaled(state.rolled, DICE)
        vector.scaled([state.total], 40)
        return vector.values
