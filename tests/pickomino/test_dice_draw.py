"""A roll is drawn die by die as `rng.randrange(6)` draws a die, so seeded games stay the same."""

from __future__ import annotations

import random

from spieltisch.core import make_game
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
