"""Riff Raff as integers and vectors, with placements on a discrete grid.

The game takes continuous placements; the environments offer the grid of the rules'
`legal_actions` (`riffraff.rules.PLACE_GRID`): for each of the 8 piece types, the point
u = 0.3, 0.6 or 0.9 along the middle line of the area named by the seat's card, with yaw 0 or
90 degrees, resting 'up'. Grid points the footprint rule refuses are masked out.

Actions (14 + 2 * players + 48), in this order: lay card 1..10; name the captain among a tie,
as a seat offset from the one naming (0 = itself, 1 = the next seat, ...); name who plays next,
as an offset too; announce one or two pieces; place piece type p at u with yaw, in the order
p, u, yaw (index = base + (p * 3 + u_index) * 2 + yaw_index).

The physics and the catches are chance (drawn by the environment's generator), so the game
must use catching='model'. Observations hold only what the seat may see: its own face-down
card, and only whether the others have chosen theirs.
"""

from __future__ import annotations

from typing import Any

from spieltisch.adapters.encoding import ActionKey, Encoder, Field, VectorBuilder, relative_seats
from spieltisch.core.errors import InvalidOptions
from spieltisch.core.protocol import CHANCE, Game
from spieltisch.games.riffraff.board import JOINT_NAMES
from spieltisch.games.riffraff.data import AREAS, CARD_NUMBERS, PIECE_NAMES, PIECES
from spieltisch.games.riffraff.rules import PLACE_GRID_U, PLACE_GRID_YAW, RiffRaff
from spieltisch.games.riffraff.state import (
    Announce,
    Captain,
    Card,
    Next,
    Phase,
    Place,
    RiffRaffState,
)

__all__ = ["PHASES", "RiffRaffEncoder"]

PHASES = tuple(Phase)
MAX_TILT = 0.5
"""Joint angles (radians) are observed as (angle + 0.5) / 1.0, clipped."""


class RiffRaffEncoder(Encoder):
    def __init__(self, game: Game[Any, Any]) -> None:
        if not isinstance(game, RiffRaff):
            raise TypeError("RiffRaffEncoder needs a Riff Raff game")
        if game.options.catching != "model":
            raise InvalidOptions(
                "the environments draw catches from the catch model; "
                "leave the option catching at 'model'"
            )
        self.riffraff = game
        super().__init__(game)

    def vocabulary(self) -> list[ActionKey]:
        keys: list[ActionKey] = [("card", number) for number in CARD_NUMBERS]
        keys += [("captain", offset) for offset in range(self.players)]
        keys += [("next", offset) for offset in range(self.players)]
        keys += [("announce", 1), ("announce", 2)]
        keys += [
            ("place", piece, u, yaw)
            for piece in range(len(PIECES))
            for u in PLACE_GRID_U
            for yaw in PLACE_GRID_YAW
        ]
        return keys

    def action_key(self, state: RiffRaffState, action: Any) -> ActionKey:
        mover = self.game.to_move(state)
        offset = 0 if mover is None or mover == CHANCE else mover
        if isinstance(action, Card):
            return ("card", action.number)
        if isinstance(action, Captain):
            return ("captain", (action.seat - offset) % self.players)
        if isinstance(action, Next):
            return ("next", (action.seat - offset) % self.players)
        if isinstance(action, Announce):
            return ("announce", action.count)
        if isinstance(action, Place):
            p = action.placement
            return ("place", p.piece, p.u, p.yaw)
        raise ValueError(f"{action!r} is not a player action of Riff Raff on the grid")

    def action_label(self, key: ActionKey) -> str:
        kind = key[0]
        if kind == "place":
            return f"place {PIECE_NAMES[key[1]]} u={key[2]} yaw={key[3]:g}"
        if kind in ("captain", "next"):
            return f"{kind} +{key[1]}"
        return f"{kind} {key[1]}"

    def fields(self) -> list[Field]:
        players, cards, types = self.players, len(CARD_NUMBERS), len(PIECES)
        return [
            Field("phase", len(PHASES), "one-hot: " + ", ".join(PHASES)),
            Field("to_move", players, "one-hot, seat-relative (none at chance)"),
            Field("round", 1, "the round / the last round"),
            Field("hand", cards, "own cards in hand per number 1..10 / 2"),
            Field("own_choice", cards, "one-hot of the own face-down card this round"),
            Field("chosen", players, "per seat (relative), 1 when it laid its card face down"),
            Field("latest", cards * players, "per seat (relative), one-hot latest revealed card"),
            Field("captain", players, "one-hot, seat-relative"),
            Field("active", players, "one-hot, seat-relative: the seat taking its turn"),
            Field("to_play", players, "per seat (relative), 1 while it still plays this round"),
            Field("supplies", types * players, "per seat (relative), pieces per type / sets"),
            Field("caught", players, "per seat (relative), pieces it caught / 16"),
            Field("areas", len(AREAS), "pieces on board per area 1..10 / 8"),
            Field("joints", len(JOINT_NAMES), "the ship's joint angles (rad), (a + 0.5) / 1"),
            Field("turn", 3, "pieces announced / 2, placed / 2, fallen this turn / 8"),
            Field("motion", 1, "the ship's remaining motion (rad/s), clipped to 1"),
        ]

    def observe(self, state: RiffRaffState, seat: int) -> list[float]:
        options = self.riffraff.options
        seats = relative_seats(seat, self.players)
        cards = len(CARD_NUMBERS)
        vector = VectorBuilder()
        vector.one_hot(PHASES.index(state.phase), len(PHASES))
        mover = self.game.to_move(state)
        vector.one_hot(None if mover is None or mover == CHANCE else seats.index(mover), len(seats))
        vector.scaled([state.round], options.rounds)
        vector.scaled((state.hands[seat].count(n) for n in CARD_NUMBERS), 2)
        own = state.chosen[seat]
        vector.one_hot(None if own is None else own - 1, cards)
        vector.flags(state.chosen[other] is not None for other in seats)
        for other in seats:
            latest = state.card(other)
            vector.one_hot(None if latest is None else latest - 1, cards)
        vector.one_hot(seats.index(state.captain), len(seats))
        vector.one_hot(None if state.active is None else seats.index(state.active), len(seats))
        vector.flags(other in state.to_play for other in seats)
        sets = max(1, options.cargo_count // (self.players * len(PIECES)))
        for other in seats:
            vector.scaled(state.supplies[other], sets)
        vector.scaled((state.caught[other] for other in seats), 16)
        vector.scaled((state.board.count_in(area) for area in AREAS), 8)
        vector.scaled((angle + MAX_TILT for angle in state.board.joints), 2 * MAX_TILT)
        vector.scaled([state.announced, state.loaded], 2)
        vector.scaled([len(state.falling)], 8)
        vector.scaled([state.motion], 1)
        return vector.values
