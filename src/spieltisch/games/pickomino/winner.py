"""Playing a Pickomino turn for the win: the turn solver with turn ends valued by win chances.

The exact turn solver maximises any value of its turn ends. `WinValuation` values each way a
turn can end (fail, steal a top tile, take a grill tile) by the mover's chance to win the game
from the position it leads to. `lookahead` whole turns after this one are played out
exactly before the model values the position: the others' turns as the turn solver plays
them for the most worms (the `optimal` bot), the mover's own next turn for the win. With
`lookahead=1` the chance is the expectation over the next player's whole turn of the model's
win chance after it; with `lookahead=0` the model values the position right after the turn.
The values are fixed for a whole turn, so one solve serves every decision of that turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from spieltisch.games.pickomino.data import TILES
from spieltisch.games.pickomino.rules import Pickomino
from spieltisch.games.pickomino.solver import (
    SUMS,
    TurnOutcome,
    TurnSolution,
    TurnTable,
    action_values,
    cached_outcome,
    solve_table,
)
from spieltisch.games.pickomino.state import Action, Claim, Phase, PickominoState
from spieltisch.games.pickomino.winprob import (
    WinModel,
    feature_count,
    fill_features,
    shipped_model,
)

__all__ = [
    "WinValuation",
    "outcome_ends",
    "shipped_win_chances",
    "turn_ends",
    "win_chances",
    "win_share",
]

Floats = npt.NDArray[np.float64]
TurnEnd = tuple[Claim, int]  # ('none', 0), ('steal', tile) or ('grill', tile)


def turn_ends(state: PickominoState) -> list[TurnEnd]:
    """Every distinct way the turn of `state`'s mover can end."""
    others = [state.top(seat) for seat in range(len(state.stacks)) if seat != state.seat]
    ends: list[TurnEnd] = [("none", 0)]
    ends += [("steal", top) for top in others if top is not None]
    ends += [("grill", tile) for tile in state.grill]
    return ends


def outcome_ends(state: PickominoState, outcome: TurnOutcome) -> list[tuple[TurnEnd, float]]:
    """Each end of the turn of `state`'s mover that `outcome` gives a chance, with it."""
    ends: list[tuple[TurnEnd, float]] = [(("none", 0), outcome.p_fail)]
    for tile, chance in outcome.p_tile.items():
        claim: Claim = "grill" if tile in state.grill else "steal"
        ends.append(((claim, tile), chance))
    return ends


def win_share(game: Pickomino, final: PickominoState, seat: int) -> float:
    """The seat's share of the win in a finished game: 1/k for each of k winners."""
    winners = game.winners(final)
    return 1 / len(winners) if seat in winners else 0.0


@dataclass
class WinValuation:
    """The mover's win chance for each end of the turn of `state` (any phase of the turn)."""

    game: Pickomino
    state: PickominoState
    model: WinModel
    lookahead: int = 1
    _chances: dict[TurnEnd, float] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.lookahead < 0:
            raise ValueError(f"lookahead is a count of turns, not {self.lookahead}")
        ends = turn_ends(self.state)
        after = [self.game.turn_result(self.state, claim, total) for claim, total in ends]
        chances = self._played_out(after, self.lookahead)
        self._chances = dict(zip(ends, (float(c) for c in chances), strict=True))

    # --- the Valuation protocol of the solver -----------------------------------------------
    @property
    def fail_value(self) -> float:
        return self._chances["none", 0]

    def claim(self, total: int) -> tuple[Claim, int | None]:
        """The better stop with a worm and `total` (a steal wins a tie), as in `TurnTable`."""
        claim, tile = self._best_end(total)
        return claim, tile if claim != "none" else None

    def claim_value(self, claim: str, total: int) -> float:
        for kind, tile in self._claims_at(total):
            if kind == claim:
                return self._chances[kind, tile]
        return self.fail_value

    def stop_values(self) -> Floats:
        values = np.full((SUMS, 2), self.fail_value)
        for total in range(TILES[0], SUMS):
            values[total, 1] = self._chances[self._best_end(total)]
        return values

    # --- what the turn can bring --------------------------------------------------------------
    def chances(self) -> dict[TurnEnd, float]:
        """The win chance after each end of the turn."""
        return dict(self._chances)

    def _best_end(self, total: int) -> TurnEnd:
        """The end a stop with a worm and `total` makes: the first best claim, else a fail."""
        options = self._claims_at(total)
        return max(options, key=self._chances.__getitem__) if options else ("none", 0)

    def _claims_at(self, total: int) -> list[TurnEnd]:
        found: list[TurnEnd] = []
        if ("steal", total) in self._chances:
            found.append(("steal", total))
        reachable = [tile for tile in self.state.grill if tile <= total]
        if reachable:
            found.append(("grill", reachable[-1]))
        return found

    @property
    def seat(self) -> int:
        return self.state.seat

    def _played_out(self, positions: Sequence[PickominoState], turns: int) -> Floats:
        """The win chance from each position with `turns` more whole turns played exactly."""
        if turns == 0:
            return self._model_chances(positions)
        return np.array([self._after_next_turn(position, turns) for position in positions])

    def _model_chances(self, positions: Sequence[PickominoState]) -> Floats:
        """The model's (or, at the end of the game, the rules') win chance of each position."""
        chances = np.empty(len(positions))
        open_rows = []
        for i, position in enumerate(positions):
            if position.phase is Phase.OVER:
                chances[i] = win_share(self.game, position, self.seat)
            else:
                open_rows.append(i)
        if open_rows:
            rows = np.zeros((len(open_rows), feature_count(self.game.num_players)))
            for row, i in zip(rows, open_rows, strict=True):
                p = positions[i]
                fill_features(p.grill, p.stacks, p.seat, self.seat, row)
            chances[open_rows] = self.model.predict(rows)
        return chances

    def _after_next_turn(self, position: PickominoState, turns: int) -> float:
        """The expected win chance after the next turn: the mover's own played for the win,
        another player's for the most worms, then `turns - 1` more turns."""
        if position.phase is Phase.OVER:
            return win_share(self.game, position, self.seat)
        if position.seat == self.seat:
            mine = WinValuation(self.game, position, self.model, turns - 1)
            return solve_table(mine).expected
        outcome = cached_outcome(TurnTable.from_state(self.game, position))
        ends = outcome_ends(position, outcome)
        after = [self.game.turn_result(position, claim, tile) for (claim, tile), _ in ends]
        weights = np.array([chance for _, chance in ends])
        return float(weights @ self._played_out(after, turns - 1))


def win_chances(
    game: Pickomino,
    state: PickominoState,
    valuation: WinValuation,
    solution: TurnSolution | None = None,
) -> list[tuple[Action, float]]:
    """Each legal action with the mover's chance to win the game when playing it and then
    the rest of the turn for the win."""
    if solution is None:
        solution = solve_table(valuation)
    return [(action, value) for action, value, _ in action_values(game, state, valuation, solution)]


def shipped_win_chances(game: Pickomino, state: PickominoState) -> dict[Action, float] | None:
    """What the `winner` bot sees in each legal action: the chance to win the game with it,
    or None where no model for this many players is shipped or nobody is deciding."""
    if state.phase not in (Phase.CHOOSE, Phase.DECIDE):
        return None
    try:
        model = shipped_model(game.num_players)
    except ValueError:
        return None
    return dict(win_chances(game, state, WinValuation(game, state, model)))
