"""Pickomino bots: `greedy` (a simple rule of thumb) and `optimal` (the exact turn solver)."""

from __future__ import annotations

from spieltisch.bots.base import Bot, register_bot
from spieltisch.games.pickomino.data import FACE_VALUES, WORM
from spieltisch.games.pickomino.rules import Pickomino
from spieltisch.games.pickomino.solver import TurnTable, best_action
from spieltisch.games.pickomino.state import ROLL, Action, Phase, PickominoState, Stop, Take

__all__ = ["GreedyBot", "OptimalBot"]


@register_bot(Pickomino.name)
class GreedyBot(Bot):
    name = "greedy"
    description = "takes worms first, then the biggest total; stops at the first tile"
    game: Pickomino

    def choose(self, state: PickominoState) -> Action:
        if state.phase is Phase.CHOOSE:
            return Take(self.face_to_take(state))
        if state.phase is Phase.DECIDE:
            claims = self.game.claims(state)
            if claims != ["none"] or state.turn_must_end:
                return Stop(claims[0])  # steal before grill
            return ROLL
        raise ValueError(f"greedy cannot act in phase {state.phase}")

    def face_to_take(self, state: PickominoState) -> int:
        faces = self.game.choosable_faces(state)
        if WORM in faces and not state.has_worm:
            return WORM
        return max(faces, key=lambda f: (state.rolled[f] * FACE_VALUES[f], f))


@register_bot(Pickomino.name)
class OptimalBot(Bot):
    """Plays each turn exactly as the turn solver says: the most expected worms this turn.

    A failed turn costs the own top tile; a steal also counts the victim's loss with weight
    `steal_weight` (default 1 / (players - 1)).
    """

    name = "optimal"
    description = "exact per-turn dynamic programming: the most expected worms each turn"
    parameters = {"steal_weight": float}  # noqa: RUF012  (read-only class data)
    game: Pickomino
    steal_weight: float | None = None

    def choose(self, state: PickominoState) -> Action:
        if state.phase not in (Phase.CHOOSE, Phase.DECIDE):
            raise ValueError(f"optimal cannot act in phase {state.phase}")
        table = TurnTable.from_state(self.game, state, self.steal_weight)
        return best_action(self.game, state, table)
