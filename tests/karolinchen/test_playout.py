"""`Karolinchen.play_out`: the same games as applying one action at a time, only faster."""

from __future__ import annotations

import random
from itertools import pairwise
from typing import Any

import pytest

from spieltisch.analysis.karolinchen_stats import karolinchen_collect, playout_totals
from spieltisch.analysis.simulate import SimulationConfig, game_options, game_seeds, run_simulation
from spieltisch.bots import make_bot, play_match
from spieltisch.bots.karolinchen import GREEDY_RULE, playout_seat
from spieltisch.core import Game, IllegalAction, make_game
from spieltisch.games.karolinchen import Dice, KarolinchenState, Lay, Phase
from tests.karolinchen.helpers import counts, game_for, position

OPTION_SETS = [
    {"players": 2},
    {"players": 3, "tail_fruits": "random", "start_seat": "random"},
    {"players": 2, "auto_take": False},
]


def step_by_step(game: Any, bots: list[Any], seed: int) -> list[KarolinchenState]:
    """Every position of a game played one action at a time, chance from `seed`."""
    rng, state = random.Random(seed), game.new_state()
    states = [state]
    while (mover := game.to_move(state)) is not None:
        action = game.sample_chance(state, rng) if mover < 0 else bots[mover].choose(state)
        state = game.apply(state, action)
        states.append(state)
    return states


def runs_of_decisions(game: Any, states: list[KarolinchenState]) -> int:
    """How often the seat to decide changed (chance in between does not count)."""
    deciders = [game.to_move(s) for s in states if game.to_move(s) not in (None, -1)]
    return sum(1 for i, seat in enumerate(deciders) if i == 0 or seat != deciders[i - 1])


@pytest.mark.parametrize("options", OPTION_SETS)
@pytest.mark.parametrize("seats", [("greedy", "random", "greedy"), ("expert", "greedy", "random")])
def test_play_out_plays_the_game_that_single_steps_play(
    options: dict[str, Any], seats: tuple[str, ...]
) -> None:
    game = game_for(**options)
    players = game.num_players
    for seed in range(6):
        states = step_by_step(
            game, [make_bot(game, seats[s], seed + s) for s in range(players)], seed
        )
        bots = [make_bot(game, seats[s], seed + s) for s in range(players)]
        playout = game.play_out(
            game.new_state(), [playout_seat(b) for b in bots], random.Random(seed)
        )
        dealt = next(s for s in states if s.phase not in (Phase.TAILS, Phase.START))
        eatings = sum(sum(b.eaten) > sum(a.eaten) for a, b in pairwise(states))
        assert playout == (dealt, states[-1], eatings, runs_of_decisions(game, states))
        assert playout_totals(game, playout) == karolinchen_collect(game, states, [])


def test_greedys_table_rule_decides_as_the_bot() -> None:
    bot = make_bot(game_for(3), "greedy")
    for middle in ("gggyyb", "oooyyy", "", "ppyy", "rrrrrr"):
        state = position(["r", "yg", "o"], middle=middle, covered=(6 - len(middle), 0, 0), seat=1)
        rule = GREEDY_RULE.decide(state.phase, state.middle, state.cards[1])
        assert rule == bot.choose(state)


def test_play_out_refuses_an_illegal_decision_and_a_bad_roll() -> None:
    game = game_for(2)
    with pytest.raises(IllegalAction, match="already laid out"):
        game.play_out(game.new_state(), [lambda s: Lay(s.cards[s.seat][0])] * 2, random.Random(1))
    rolling = position(["r", "g"], covered=(2, 0), phase=Phase.ROLL)
    with pytest.raises(IllegalAction, match="exactly 4 dice"):
        game.apply(rolling, Dice(counts("rrr")))
    with pytest.raises(IllegalAction, match="exactly 4 dice"):
        game.apply(rolling, Dice([4, 0, 0, 0, 0, 0]))  # type: ignore[arg-type]


def test_simulate_reports_what_play_match_games_give() -> None:
    request = SimulationConfig("karolinchen", ("expert", "random", "greedy"), games=9, seed=3)
    result = run_simulation(request)
    totals: dict[str, Any] = {}
    winners: dict[tuple[int, ...], int] = {}
    for index in range(request.games):
        game = make_game("karolinchen", game_options(request, index))
        dice_seed, bot_seeds = game_seeds(request.seed, index, 3)
        bots = [make_bot(game, name, s) for name, s in zip(request.bots, bot_seeds, strict=True)]
        played = play_match(game, bots, dice_seed)
        states = [game.new_state()]
        for action in played.actions:
            states.append(game.apply(states[-1], action))
        for key, value in karolinchen_collect(game, states, []).items():
            totals[key] = [*totals.get(key, []), value]
        won = tuple(game.winners(played.state))
        winners[won] = winners.get(won, 0) + 1
    assert result.winners == dict(sorted(winners.items()))
    assert result.stats["mean_turns_per_game"] == pytest.approx(sum(totals["turns"]) / 9)
    assert result.stats["mean_eating_phases"] == pytest.approx(sum(totals["eating_phases"]) / 9)


@pytest.mark.parametrize("options", OPTION_SETS)
def test_resolve_chance_applies_the_outcomes_that_sample_chance_draws(
    options: dict[str, Any],
) -> None:
    game = game_for(**options)
    bots = [make_bot(game, "random", seat) for seat in range(game.num_players)]
    for seed in range(4):
        for state in step_by_step(game, bots, seed):
            fast, plain = random.Random(seed), random.Random(seed)
            expected = Game.resolve_chance(game, state, plain)  # one outcome at a time
            assert game.resolve_chance(state, fast) == expected
            assert fast.random() == plain.random()  # the same draws were used up
