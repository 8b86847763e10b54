"""The turn solver is checked against a brute force written independently of it.

The brute force enumerates every roll of the remaining dice over all six faces (no
projection onto free faces), keys positions by the full tuple of set-aside counts and
works in exact fractions or plain floats.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial, prod

import pytest

from spieltisch.bots import make_bot
from spieltisch.core import CHANCE, make_game
from spieltisch.games.pickomino import Phase, Pickomino, PickominoState
from spieltisch.games.pickomino.solver import (
    TurnTable,
    action_odds,
    position_index,
    solve_table,
    solve_values,
    tile_odds,
    turn_outcome,
)

VALUES = (1, 2, 3, 4, 5, 5)


def worms(tile: int) -> int:
    return {21: 1, 22: 1, 23: 1, 24: 1, 25: 2, 26: 2, 27: 2, 28: 2}.get(
        tile, 3 if tile <= 32 else 4
    )


@cache
def rolls(dice: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every roll of `dice` dice as face counts with its multinomial probability."""
    found = []
    for faces in combinations_with_replacement(range(6), dice):
        counts = tuple(faces.count(f) for f in range(6))
        ways = factorial(dice) // prod(factorial(c) for c in counts)
        found.append((counts, Fraction(ways, 6**dice)))
    return tuple(found)


def brute_force(stop: Callable[[int, bool], Fraction], fail: Fraction) -> Callable[..., Fraction]:
    """Value after a set-aside, as a function of the set-aside counts (exact fractions)."""

    @cache
    def after(kept: tuple[int, ...]) -> Fraction:
        total = sum(c * v for c, v in zip(kept, VALUES, strict=True))
        stopping = stop(total, kept[5] > 0)
        left = 8 - sum(kept)
        if left == 0 or all(kept):
            return stopping
        return max(stopping, rolling(kept))

    @cache
    def rolling(kept: tuple[int, ...]) -> Fraction:
        left = 8 - sum(kept)
        expected = Fraction(0)
        for counts, chance in rolls(left):
            options = [
                after(tuple(c if f != face else counts[face] for f, c in enumerate(kept)))
                for face in range(6)
                if counts[face] and not kept[face]
            ]
            expected += chance * (max(options) if options else fail)
        return expected

    def value(kept: tuple[int, ...] = (0,) * 6, roll: bool = False) -> Fraction:
        return rolling(kept) if roll or not any(kept) else after(kept)

    return value


def table_stop(table: TurnTable) -> Callable[[int, bool], Fraction]:
    fail = -Fraction(worms(table.own_top)) if table.own_top else Fraction(0)
    weight = Fraction(table.steal_weight).limit_denominator(1000)

    def stop(total: int, worm: bool) -> Fraction:
        if not worm:
            return fail
        grill = [t for t in table.grill if t <= total]
        options = [Fraction(worms(grill[-1]))] if grill else []
        if total in table.other_tops:
            options.append((1 + weight) * worms(total))
        return max(options, default=fail)

    return stop


def test_full_grill_matches_exact_brute_force() -> None:
    table = TurnTable()
    exact = brute_force(table_stop(table), Fraction(0))
    solution = solve_table(table)
    assert solution.expected == pytest.approx(float(exact()), abs=1e-12)
    # and a few positions inside the turn: (mask, dice left, sum) against set-aside counts
    for kept in [(0, 0, 0, 3, 0, 0), (0, 0, 0, 3, 0, 2), (1, 0, 0, 0, 4, 1), (2, 2, 0, 0, 0, 0)]:
        mask = sum(1 << f for f, c in enumerate(kept) if c)
        total = sum(c * v for c, v in zip(kept, VALUES, strict=True))
        here = position_index(mask, 8 - sum(kept), total)
        assert solution.value[here] == pytest.approx(float(exact(kept)), abs=1e-12)
        assert solution.roll_value[here] == pytest.approx(float(exact(kept, roll=True)), abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_random_tables_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    tiles = list(range(21, 37))
    rng.shuffle(tiles)
    grill = tuple(sorted(tiles[: rng.randint(1, 12)]))
    held = tiles[12:]
    table = TurnTable(grill, held[0], tuple(held[1:3]), rng.choice([1.0, 0.5, 1 / 3]))
    fail = -Fraction(worms(held[0]))
    exact = brute_force(table_stop(table), fail)
    assert solve_table(table).expected == pytest.approx(float(exact()), abs=1e-9)


def test_known_probability_of_any_tile_from_an_empty_set_aside() -> None:
    # Maximising the chance of 21+ with a worm is the same DP with 0/1 stop values.
    exact = brute_force(lambda total, worm: Fraction(int(worm and total >= 21)), Fraction(0))
    assert tile_odds((21,))[21]["at_least"] == pytest.approx(float(exact()), abs=1e-12)


def test_exactly_is_never_more_likely_than_at_least() -> None:
    for chances in tile_odds().values():
        assert 0 < chances["exactly"] <= chances["at_least"] <= 1


def test_outcome_probabilities_sum_to_one_and_agree_with_the_value() -> None:
    table = TurnTable(tuple(range(21, 33)), 33, (34, 35), 0.5)
    outcome = turn_outcome(table)
    assert outcome.p_fail + sum(outcome.p_tile.values()) == pytest.approx(1, abs=1e-12)
    value = sum(
        p * (1.5 if tile in (34, 35) else 1) * worms(tile) for tile, p in outcome.p_tile.items()
    )
    value -= outcome.p_fail * worms(33)
    assert value == pytest.approx(outcome.expected, abs=1e-12)
    assert solve_table(table, fails=True).p_fail == pytest.approx(outcome.p_fail, abs=1e-12)


def test_stop_values_below_failing_are_rejected_by_the_model() -> None:
    # Stopping is never worse than failing, so the roll value is never below the fail value.
    solution = solve_values(TurnTable().stop_values(), 0.0)
    assert solution.expected >= 0


def test_optimal_bot_realises_the_solver_value_in_real_turns() -> None:
    """Play many first turns with the game engine; the mean matches the solver's value."""
    game = make_game("pickomino", {"players": 2})
    bot = make_bot(game, "optimal", 0)
    dice = random.Random(7)
    results = []
    for _ in range(3000):
        state = game.new_state()
        while state.turn == 0:
            chance = game.to_move(state) == CHANCE
            state = game.apply(
                state, game.sample_chance(state, dice) if chance else bot.choose(state)
            )
        results.append(sum(worms(t) for t in state.stacks[0]))
    mean = sum(results) / len(results)
    spread = (sum((r - mean) ** 2 for r in results) / len(results)) ** 0.5
    expected = solve_table(TurnTable()).expected
    assert abs(mean - expected) < 4 * spread / len(results) ** 0.5


def test_action_odds_cover_every_legal_action() -> None:
    game = make_game("pickomino", {"players": 3})
    assert isinstance(game, Pickomino)
    state = PickominoState(
        tuple(range(21, 31)), ((31,), (32,), ()), 0, Phase.CHOOSE, rolled=(1, 0, 2, 0, 3, 2)
    )
    table = TurnTable.from_state(game, state)
    odds = action_odds(game, state, table)
    assert [o.action for o in odds] == game.legal_actions(state)
    assert all(0 <= o.p_fail <= 1 for o in odds)
    best = max(odds, key=lambda o: o.expected_worms)
    assert make_bot(game, "optimal", 1).choose(state) == best.action
