"""Turn-level play is the same game in distribution as rolling every die.

Each bot's turns from a few positions are played through the rules with seeded dice and
drawn whole from the bot's `turn_outcome`; a chi-square test on the counts of each way the
turn ended must not tell the two apart. Whole games compare their win rates.
"""

from __future__ import annotations

import random
from collections import Counter
from math import sqrt

import pytest

from spieltisch.analysis.simulate import SimulationConfig, plays_turns, run_simulation
from spieltisch.analysis.winner_training import Policy, draw_end, play_game
from spieltisch.bots import make_bot
from spieltisch.bots.pickomino import TurnPlayer
from spieltisch.core.protocol import CHANCE
from spieltisch.games.pickomino import Phase, Pickomino, PickominoState
from spieltisch.games.pickomino.data import TILES
from spieltisch.games.pickomino.winner import outcome_ends

POSITIONS = {
    "first turn": (2, PickominoState(TILES, ((), ()), 0, Phase.ROLL)),
    "steals on offer": (
        3,
        PickominoState(
            (21, 22, 23, 25, 26, 27, 30, 31, 33, 35), ((24,), (28,), (29,)), 0, Phase.ROLL
        ),
    ),
    "late, own tiles at stake": (
        2,
        PickominoState((25, 26, 34), ((21, 30, 23), (22, 27)), 1, Phase.ROLL, turn=9),
    ),
}
TURNS = 1500
End = tuple[object, ...]


def dice_turns(
    game: Pickomino, name: str, start: PickominoState, rng: random.Random
) -> Counter[End]:
    """How `TURNS` turns from `start` ended, every die rolled and every choice the bot's."""
    bot = make_bot(game, name, 0)
    ends: Counter[End] = Counter()
    for _ in range(TURNS):
        state = start
        while state.turn == start.turn:
            mover = game.to_move(state)
            action = game.sample_chance(state, rng) if mover == CHANCE else bot.choose(state)
            state = game.apply(state, action)
        ends[state.grill, state.stacks] += 1
    return ends


def drawn_turns(
    game: Pickomino, name: str, start: PickominoState, rng: random.Random
) -> Counter[End]:
    """How `TURNS` turns from `start` ended, each drawn whole from the bot's turn outcome."""
    bot = make_bot(game, name, 0)
    assert isinstance(bot, TurnPlayer)
    chances = outcome_ends(start, bot.turn_outcome(start))
    ends: Counter[End] = Counter()
    for _ in range(TURNS):
        after = game.turn_result(start, *chances[draw_end(chances, rng)][0])
        ends[after.grill, after.stacks] += 1
    return ends


def chi_square_upper(df: int, z: float = 3.09) -> float:
    """The chi-square quantile at the standard normal quantile `z` (Wilson-Hilferty);
    3.09: a 1 in 1000 chance that two samples of one distribution exceed it."""
    return df * (1 - 2 / (9 * df) + z * sqrt(2 / (9 * df))) ** 3


def two_sample_chi_square(a: Counter[End], b: Counter[End]) -> tuple[float, int]:
    """The statistic of a 2 x k contingency table and its degrees of freedom; ends seen
    fewer than 10 times in all are pooled into one."""
    seen = a + b
    rare = [end for end, count in seen.items() if count < 10]
    rows = [(a[end], b[end]) for end in seen if end not in rare]
    rows.append((sum(a[end] for end in rare), sum(b[end] for end in rare)))
    rows = [row for row in rows if sum(row) > 0]
    total_a, total_b = sum(a.values()), sum(b.values())
    statistic = 0.0
    for count_a, count_b in rows:
        both = count_a + count_b
        for count, total in ((count_a, total_a), (count_b, total_b)):
            expected = both * total / (total_a + total_b)
            statistic += (count - expected) ** 2 / expected
    return statistic, len(rows) - 1


@pytest.mark.parametrize("name", ["greedy", "optimal", "winner"])
@pytest.mark.parametrize("where", list(POSITIONS))
def test_drawn_turns_end_as_played_turns(name: str, where: str) -> None:
    players, start = POSITIONS[where]
    game = Pickomino({"players": players})
    seed = f"{name}/{where}"
    played = dice_turns(game, name, start, random.Random(f"dice/{seed}"))
    drawn = drawn_turns(game, name, start, random.Random(f"turn/{seed}"))
    statistic, df = two_sample_chi_square(played, drawn)
    assert df >= 3
    assert statistic < chi_square_upper(df), (statistic, df, played, drawn)


def test_the_chi_square_test_tells_greedy_from_optimal() -> None:
    players, start = POSITIONS["first turn"]
    game = Pickomino({"players": players})
    played = dice_turns(game, "greedy", start, random.Random(1))
    drawn = drawn_turns(game, "optimal", start, random.Random(2))
    statistic, df = two_sample_chi_square(played, drawn)
    assert statistic > chi_square_upper(df)


def request(dice: bool) -> SimulationConfig:
    """Greedy seats, whose games are quick to play die by die: starting first matters."""
    return SimulationConfig("pickomino", ("greedy",) * 3, 600, seed=5, dice=dice)


@pytest.mark.slow  # 1,200 games
def test_whole_games_win_alike() -> None:
    turns, dice = run_simulation(request(False)), run_simulation(request(True))
    assert (turns.level, dice.level) == ("turn", "dice")
    for seat in range(3):
        rate_t = float(turns.wins[seat] / turns.games)
        rate_d = float(dice.wins[seat] / dice.games)
        spread = sqrt(rate_t * (1 - rate_t) / turns.games + rate_d * (1 - rate_d) / dice.games)
        assert abs(rate_t - rate_d) < 3.3 * spread


def test_seats_that_need_dice_play_every_roll() -> None:
    assert plays_turns(request(False))
    assert not plays_turns(request(True))
    assert plays_turns(SimulationConfig("pickomino", ("optimal:steal_weight=0", "winner"), 1))
    assert not plays_turns(SimulationConfig("pickomino", ("optimal", "random"), 1))
    assert not plays_turns(SimulationConfig("karolinchen", ("greedy", "greedy"), 1))


def test_turn_level_is_the_same_for_any_jobs() -> None:
    one = SimulationConfig("pickomino", ("optimal", "greedy", "winner"), 3, seed=3)
    two = SimulationConfig("pickomino", ("optimal", "greedy", "winner"), 3, seed=3, jobs=2)
    first, second = run_simulation(one), run_simulation(two)
    assert first.level == "turn" and first.to_json() == second.to_json()


def test_a_random_start_seat_is_drawn_at_turn_level_too() -> None:
    game = Pickomino({"players": 2, "start_seat": "random"})
    policy = _policy_of(make_bot(game, "greedy", 0))
    first = {
        play_game(game, [policy] * 2, random.Random(seed))[0][0].state.seat for seed in range(12)
    }
    assert first == {0, 1}
    config = SimulationConfig("pickomino", ("greedy", "optimal"), 20, seed=2, start_seat="random")
    assert run_simulation(config).level == "turn"


def _policy_of(bot: object) -> Policy:
    assert isinstance(bot, TurnPlayer)
    player = bot
    return lambda game, state: player.turn_outcome(state)
