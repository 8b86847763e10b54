"""A roll is drawn die by die as `rng.randrange(6)` draws a die, so seeded games stay the same."""

from __future__ import annotations

import random
from typing import Any

import pytest

from spieltisch.core import Game, make_game
from spieltisch.games.pickomino.data import NUM_FACES


def test_each_die_is_the_draw_of_randrange() -> None:
    game = make_game("pickomino")
    state = game.new_state()
    fast, plain = random.Random(9), random.Random(9)
    for _ in range(500):
        counts = [0] * NUM_FACES
        for _ in range(state.dice_left):
            counts[plain.randrange(NUM_FACES)] += 1
        assert game.sample_chance(state, fast).counts == tuple(counts)


@pytest.mark.parametrize("options", [{"players": 2}, {"players": 4, "start_seat": "random"}])
def test_resolve_chance_applies_the_outcomes_that_sample_chance_draws(
    options: dict[str, Any],
) -> None:
    game = make_game("pickomino", options)
    moves = random.Random(5)
    for seed in range(20):
        state = game.new_state()
        while not game.is_over(state):
            fast, plain = random.Random(seed), random.Random(seed)
            expected = Game.resolve_chance(game, state, plain)  # one outcome at a time
            assert game.resolve_chance(state, fast) == expected
            assert fast.random() == plain.random()  # the same draws were used up
            state = expected
            if not game.is_over(state):
                state = game.apply(state, moves.choice(game.legal_actions(state)))
