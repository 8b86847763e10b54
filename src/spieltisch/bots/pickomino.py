"""Pickomino bots: `greedy` (a simple rule of thumb), `optimal` (the exact turn solver for the
most worms) and `winner` (the exact turn solver for the best chance to win the game).

Each decides a turn from the turn's own position, so each also gives the exact chances of
every way its whole turn ends (`turn_outcome`): the simulator draws whole turns from them.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from spieltisch.bots.base import Bot, Bounded, register_bot
from spieltisch.games.pickomino.data import FACE_VALUES, WORM
from spieltisch.games.pickomino.rules import Pickomino
from spieltisch.games.pickomino.solver import (
    TurnOutcome,
    TurnSolution,
    TurnTable,
    Valuation,
    best_action,
    cached_outcome,
    choose_action,
    greedy_outcome,
    solve_table,
    turn_outcome,
)
from spieltisch.games.pickomino.state import ROLL, Action, Phase, PickominoState, Stop, Take
from spieltisch.games.pickomino.winner import WinValuation
from spieltisch.games.pickomino.winprob import shipped_model

__all__ = ["GreedyBot", "OptimalBot", "TurnPlayer", "WinnerBot", "table_key", "turn_key"]


@runtime_checkable
class TurnPlayer(Protocol):
    """A bot that knows the chances of every way its whole turn ends."""

    def turn_outcome(self, state: PickominoState) -> TurnOutcome: ...

    def outcome_key(self, state: PickominoState) -> tuple[object, ...]:
        """All that `turn_outcome(state)` and the claims of its ends depend on: two positions
        with equal keys end their turns alike."""
        ...


@register_bot(Pickomino.name)
class GreedyBot(Bot):
    name = "greedy"
    description = "takes worms first, then the biggest total; stops at the first tile"
    draws = False
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

    def turn_outcome(self, state: PickominoState) -> TurnOutcome:
        """The chances of each way the turn starting in `state` ends."""
        return greedy_outcome(TurnTable.from_state(self.game, state))

    def outcome_key(self, state: PickominoState) -> tuple[object, ...]:
        return table_key(state)


@register_bot(Pickomino.name)
class OptimalBot(Bot):
    """Plays each turn exactly as the turn solver says: the most expected worms this turn.

    A failed turn costs the own top tile; a steal also counts the victim's loss with weight
    `steal_weight` (default 1 / (players - 1)).
    """

    name = "optimal"
    description = "exact per-turn dynamic programming: the most expected worms each turn"
    draws = False
    parameters = {"steal_weight": Bounded(float, 0, 10)}  # noqa: RUF012  (read-only class data)
    game: Pickomino
    steal_weight: float | None = None

    def choose(self, state: PickominoState) -> Action:
        if state.phase not in (Phase.CHOOSE, Phase.DECIDE):
            raise ValueError(f"optimal cannot act in phase {state.phase}")
        table = TurnTable.from_state(self.game, state, self.steal_weight)
        return best_action(self.game, state, table)

    def turn_outcome(self, state: PickominoState) -> TurnOutcome:
        """The chances of each way the turn starting in `state` ends."""
        return cached_outcome(TurnTable.from_state(self.game, state, self.steal_weight))

    def outcome_key(self, state: PickominoState) -> tuple[object, ...]:
        return table_key(state)


def table_key(state: PickominoState) -> tuple[object, ...]:
    """What the `TurnTable` of the mover's turn holds: the grill, the mover's top tile and
    the others' top tiles (in order, as the solver's caches normalise them)."""
    tops = [stack[-1] if stack else None for stack in state.stacks]
    own = tops.pop(state.seat)
    return state.grill, own, tuple(sorted(top for top in tops if top is not None))


def turn_key(state: PickominoState) -> tuple[object, ...]:
    """What stays the same through one turn: the tiles and whose turn it is."""
    return state.grill, state.stacks, state.seat, state.turn


@register_bot(Pickomino.name)
class WinnerBot(Bot):
    """Plays each turn for the best chance to win the game, not for the most worms.

    The exact turn solver values each way the turn can end by the chance to win from there
    (`games.pickomino.winner.WinValuation`): a model trained on self-play estimates it, after
    the next player's whole turn played exactly as `optimal` would (`lookahead=1`) or right
    after this turn (`lookahead=0`); each further turn of lookahead plays one more turn out,
    its own turns for the win. Where no model for the number of players is shipped, it
    plays as `optimal`.
    """

    name = "winner"
    description = "exact turn solver maximising the chance to win the game (learned win chances)"
    draws = False
    # each turn of lookahead multiplies the work by about 18 (the ways a turn can end)
    parameters = {"lookahead": Bounded(int, 0, 2)}  # noqa: RUF012  (read-only class data)
    game: Pickomino
    lookahead: int = 1
    _turn: tuple[tuple[object, ...], Valuation, TurnSolution] | None = None
    _OUTCOMES_KEPT = 1 << 16

    def __init__(self, game: Pickomino, rng: random.Random) -> None:
        super().__init__(game, rng)
        self._outcomes: dict[tuple[object, ...], TurnOutcome] = {}

    def choose(self, state: PickominoState) -> Action:
        if state.phase not in (Phase.CHOOSE, Phase.DECIDE):
            raise ValueError(f"winner cannot act in phase {state.phase}")
        valuation, solution = self.solved_turn(state)
        return choose_action(self.game, state, valuation, solution)

    def solved_turn(self, state: PickominoState) -> tuple[Valuation, TurnSolution]:
        """The valuation of this turn's ends and the turn solved for it (kept for the turn)."""
        key = turn_key(state)
        if self._turn is None or self._turn[0] != key:
            valuation = self._valuation(state)
            solution = solve_table(valuation)
            self._turn = key, valuation, solution
        return self._turn[1], self._turn[2]

    def turn_outcome(self, state: PickominoState) -> TurnOutcome:
        """The chances of each way the turn starting in `state` ends (kept by position)."""
        key = self.outcome_key(state)
        if key not in self._outcomes:
            if len(self._outcomes) >= self._OUTCOMES_KEPT:
                self._outcomes.clear()
            valuation = self._valuation(state)
            if isinstance(valuation, TurnTable):
                self._outcomes[key] = cached_outcome(valuation)
            else:
                self._outcomes[key] = turn_outcome(valuation)
        return self._outcomes[key]

    def outcome_key(self, state: PickominoState) -> tuple[object, ...]:
        return state.grill, state.stacks, state.seat

    def _valuation(self, state: PickominoState) -> TurnTable | WinValuation:
        try:
            model = shipped_model(self.game.num_players)
        except ValueError:
            return TurnTable.from_state(self.game, state)
        return WinValuation(self.game, state, model, self.lookahead)
