"""The chances of each end of a whole turn: `greedy`'s against an enumeration of the turn
through the rules with the bot itself choosing every action; the cached optimal ones."""

from __future__ import annotations

import pytest

from spieltisch.bots import make_bot
from spieltisch.bots.base import Bot
from spieltisch.games.pickomino import Phase, Pickomino, PickominoState
from spieltisch.games.pickomino.solver import (
    TurnOutcome,
    TurnTable,
    cached_outcome,
    greedy_outcome,
    turn_outcome,
)
from spieltisch.games.pickomino.winner import outcome_ends

GAME = Pickomino({"players": 3})
START = PickominoState(
    (21, 22, 23, 25, 26, 27, 30, 31, 33, 35), ((24,), (28,), (29,)), 0, Phase.ROLL
)
Ends = dict[tuple[object, ...], float]


def enumerated_ends(bot: Bot, state: PickominoState, memo: dict[PickominoState, Ends]) -> Ends:
    """The chance of each position after the turn, every roll enumerated (a ROLL state)."""
    if state not in memo:
        found: Ends = {}
        for dice, chance in GAME.chance_outcomes(state):
            after = GAME.apply(state, dice)
            while after.turn == state.turn and after.phase is not Phase.ROLL:
                after = GAME.apply(after, bot.choose(after))
            done = after.turn != state.turn
            ends = {(after.grill, after.stacks): 1.0} if done else enumerated_ends(bot, after, memo)
            for end, share in ends.items():
                found[end] = found.get(end, 0.0) + float(chance) * share
        memo[state] = found
    return memo[state]


def outcome_positions(outcome: TurnOutcome) -> Ends:
    positions: Ends = {}
    for end, chance in outcome_ends(START, outcome):
        after = GAME.turn_result(START, *end)
        positions[after.grill, after.stacks] = chance
    return positions


@pytest.mark.slow
def test_greedy_turn_ends_match_the_turn_played_through_the_rules() -> None:
    outcome = greedy_outcome(TurnTable.from_state(GAME, START))
    expected = enumerated_ends(make_bot(GAME, "greedy", 0), START, {})
    found = outcome_positions(outcome)
    assert found.keys() == expected.keys()
    for end, chance in expected.items():
        assert found[end] == pytest.approx(chance, abs=1e-12)


def test_greedy_ignores_the_own_top_tile_but_values_its_loss() -> None:
    bare = greedy_outcome(TurnTable((21, 25, 30), None, (27,)))
    owner = greedy_outcome(TurnTable((21, 25, 30), 36, (27,)))
    assert owner.p_tile == bare.p_tile and owner.p_fail == bare.p_fail
    assert owner.expected == pytest.approx(bare.expected - 4 * owner.p_fail)


def test_cached_outcome_is_turn_outcome() -> None:
    table = TurnTable((22, 24, 29, 33), 26, (31, 25), 0.5)
    cached, fresh = cached_outcome(table), turn_outcome(table)
    assert cached.expected == fresh.expected and cached.p_fail == pytest.approx(fresh.p_fail)
    assert cached.p_tile.keys() == fresh.p_tile.keys()
    for tile, chance in fresh.p_tile.items():
        assert cached.p_tile[tile] == pytest.approx(chance, abs=1e-15)
