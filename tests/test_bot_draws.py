"""A bot that says it never draws from its generator (`Bot.draws`) plays whole games with a
generator that refuses every draw: simulations leave such a bot's generator unseeded."""

from __future__ import annotations

import random
from typing import Any, NoReturn

import pytest

from spieltisch.analysis.simulate import seed_drawing_bots
from spieltisch.bots import bot_names, make_bot, play_match
from spieltisch.bots.base import read_bot_spec
from spieltisch.core import make_game
from spieltisch.core.registry import game_names


class RefusesToDraw(random.Random):
    """Every draw of `random.Random` goes through one of these two."""

    def random(self) -> NoReturn:
        raise AssertionError("the bot drew from its generator")

    def getrandbits(self, k: int) -> NoReturn:
        raise AssertionError("the bot drew from its generator")


def bots_that_never_draw() -> list[tuple[str, str]]:
    return [
        (game, name)
        for game in game_names()
        for name in bot_names(game)
        if not read_bot_spec(game, name)[0].draws
    ]


def test_the_deterministic_bots_say_so_and_the_others_draw() -> None:
    assert set(bots_that_never_draw()) == {
        ("pickomino", "greedy"),
        ("pickomino", "optimal"),
        ("pickomino", "winner"),
        ("karolinchen", "greedy"),
        ("karolinchen", "expert"),
    }


@pytest.mark.parametrize(("game_name", "spec"), bots_that_never_draw())
def test_a_bot_that_says_it_never_draws_plays_whole_games_without_drawing(
    game_name: str, spec: str
) -> None:
    game = make_game(game_name, {"players": 2})
    for seed in range(2):
        bots = [make_bot(game, spec), make_bot(game, "random", seed)]
        bots[0].rng = RefusesToDraw()
        result = play_match(game, bots, seed)
        assert game.is_over(result.state)


def test_only_the_bots_that_draw_are_seeded_before_a_game() -> None:
    game = make_game("pickomino", {"players": 2})
    drawing, steady = make_bot(game, "random", 1), make_bot(game, "greedy", 1)
    before: Any = steady.rng.getstate()
    seed_drawing_bots([drawing, steady], [7, 8])
    assert drawing.rng.getstate() == random.Random(7).getstate()
    assert steady.rng.getstate() == before
