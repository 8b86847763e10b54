"""The Pickomino game review: known best answers, bots that lose nothing by their own measure,
and luck that averages out and accounts for each turn's result."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Sequence
from itertools import pairwise
from typing import NamedTuple

import pytest

from spieltisch.analysis.review.grades import WIN_BLUNDER, WIN_INACCURACY, grade
from spieltisch.analysis.review.pickomino import (
    PickominoReview,
    puzzles,
    review_decision,
    review_pickomino,
    review_states,
    roll_luck,
    solves_puzzle,
    win_model,
)
from spieltisch.bots import make_bot, play_match
from spieltisch.core.record import replay_states
from spieltisch.games.pickomino import Phase, Pickomino, PickominoState
from spieltisch.games.pickomino.data import tile_worms
from spieltisch.games.pickomino.solver import TurnTable, cached_solution, solve_table
from spieltisch.games.pickomino.state import ROLL, Action, Claim, dice_outcomes
from spieltisch.games.pickomino.winner import TurnEnd, WinValuation
from tests.pickomino.helpers import STEAL, TAKE_GRILL, game_for, grill_without, position, take


class Played(NamedTuple):
    game: Pickomino
    states: list[PickominoState]
    actions: tuple[Action, ...]


def played_game(seats: Sequence[str], seed: int) -> Played:
    game = game_for(len(seats), start_seat=seed % len(seats))
    bots = [make_bot(game, name, seed + seat) for seat, name in enumerate(seats)]
    match = play_match(game, bots, seed)
    return Played(game, replay_states(match.record), match.actions)


def reviewed(played: Played, *, model: bool) -> PickominoReview:
    game = played.game
    names = [f"seat {seat}" for seat in range(game.num_players)]
    chances = win_model(game.num_players) if model else None
    return review_states(game, played.states, played.actions, names, chances)


# --- positions with a known best answer -------------------------------------------------------
def last_tile_position() -> PickominoState:
    """Seat 0 can take 22, the grill's last tile, and win 4 worms to 3; one die is left and
    it fails the turn one time in three (only 1 to 4 are free), which returns its 31."""
    return position(stacks=((31,), (29,)), grill=(22,), kept="5555www")


def test_a_stop_that_wins_the_game_is_best_and_a_roll_that_risks_it_a_blunder() -> None:
    game, state = game_for(2), last_tile_position()
    model = win_model(2)
    rolled_on = review_decision(game, state, ROLL, model)
    assert rolled_on is not None
    assert (rolled_on.played, rolled_on.best) == ("roll", "grill")
    assert rolled_on.win_lost is not None and rolled_on.win_lost > WIN_BLUNDER
    assert rolled_on.worms_lost == pytest.approx(1 - (2 / 3 * 1 + 1 / 3 * -3))
    assert rolled_on.grade == "blunder"
    fails = {c.action: c.p_fail for c in rolled_on.choices}
    assert fails == {"roll": pytest.approx(1 / 3), "grill": 0.0}
    stopped = review_decision(game, state, TAKE_GRILL, model)
    assert stopped is not None
    assert (stopped.best, stopped.grade, stopped.worms_lost, stopped.win_lost) == (
        "grill",
        "best",
        0.0,
        0.0,
    )
    assert {c.action: c.p_win for c in stopped.choices}["grill"] == 1.0


def steal_position() -> PickominoState:
    """Seat 0's 25 can steal seat 1's 25 (two worms) or take the grill's 24 (one)."""
    return position(stacks=((), (25,)), kept="55www")


def test_a_steal_is_worth_more_than_a_grill_tile() -> None:
    game = game_for(2)
    decision = review_decision(game, steal_position(), TAKE_GRILL, win_model(2))
    assert decision is not None
    assert (decision.played, decision.best) == ("grill", "steal")
    assert decision.worms_lost == pytest.approx(2 * 2 - 1)  # the victim's loss counts too
    assert decision.win_lost is not None and decision.win_lost >= WIN_INACCURACY
    assert decision.grade in ("inaccuracy", "mistake", "blunder")


def test_without_a_model_the_worms_grade_the_decision() -> None:
    """Five players (no model): seat 0's 35 steals seat 1's 35 (4 worms, and a quarter more
    for the victim's loss) or takes the grill's 28 (2 worms); the last die risks a third."""
    game = game_for(5)
    assert win_model(5) is None
    state = position(
        stacks=((), (35,), (), (), ()), grill=grill_without(*range(29, 36)), kept="5555www"
    )
    decision = review_decision(game, state, TAKE_GRILL, None)
    assert decision is not None
    assert decision.best == "steal"
    assert decision.worms_lost == pytest.approx(4 * 1.25 - 2)
    assert decision.win_lost is None and decision.grade == "blunder"
    stolen = review_decision(game, state, STEAL, None)
    assert stolen is not None and stolen.grade == "best"


def test_a_blunder_is_a_puzzle_solved_by_the_better_choice() -> None:
    game = game_for(2)
    decision = review_decision(game, last_tile_position(), ROLL, win_model(2))
    assert decision is not None
    review = PickominoReview("pickomino", ("Ann", "Bob"), "win chance", (decision,), (), (), ())
    assert puzzles(review, 0) == [decision] and puzzles(review, 1) == []
    assert solves_puzzle(decision, "grill")
    assert not solves_puzzle(decision, "roll")
    assert not solves_puzzle(decision, "steal")  # not a legal answer here


def test_a_forced_choice_is_not_reviewed() -> None:
    game = game_for(2)
    only_worms = position(phase=Phase.CHOOSE, rolled="wwww")
    assert game.legal_actions(only_worms) == [take("w")]
    assert review_decision(game, only_worms, take("w"), win_model(2)) is None


def test_grades_follow_the_thresholds() -> None:
    assert [grade(x, by_win=True) for x in (0, 0.01, 0.02, 0.04, 0.08)] == [
        "best",
        "good",
        "inaccuracy",
        "mistake",
        "blunder",
    ]
    assert [grade(x, by_win=False) for x in (0, 0.4, 0.5, 1.0, 2.0)] == [
        "best",
        "good",
        "inaccuracy",
        "mistake",
        "blunder",
    ]


# --- the bots' own games --------------------------------------------------------------------
def test_the_optimal_bots_game_loses_no_worms() -> None:
    review = reviewed(played_game(["optimal", "optimal"], 5), model=True)
    assert len(review.decisions) > 20
    assert all(d.worms_lost == 0.0 for d in review.decisions)
    assert all(p.worms_lost == 0.0 and p.average_worms_lost == 0.0 for p in review.summary)


def test_the_winner_bots_game_loses_no_win_chance() -> None:
    review = reviewed(played_game(["winner", "winner"], 6), model=True)
    assert review.graded_by == "win chance"
    assert all(d.win_lost == 0.0 and d.grade == "best" for d in review.decisions)


def test_a_record_is_reviewed_with_the_players_names() -> None:
    game = game_for(2)
    bots = [make_bot(game, name, seat) for seat, name in enumerate(["greedy", "optimal"])]
    review = review_pickomino(play_match(game, bots, 3, ("Ann", "Bob")).record)
    assert [p.name for p in review.summary] == ["Ann", "Bob"]
    assert sum(p.decisions for p in review.summary) == len(review.decisions)
    assert review.summary[0].grades["best"] < review.summary[0].decisions  # greedy errs
    adjusted = [p.luck_adjusted_win for p in review.summary]
    assert None not in adjusted and sum(adjusted) == pytest.approx(1.0)  # type: ignore[arg-type]
    json = review.to_json()
    assert json["decisions"][0]["choices"] and json["summary"][1]["name"] == "Bob"


def test_the_chart_gives_each_seats_chance_before_every_turn() -> None:
    played = played_game(["greedy", "optimal"], 8)
    review = reviewed(played, model=True)
    turns = played.states[-1].turn
    assert [entry.turn for entry in review.chart] == list(range(turns + 1))
    assert all(sum(entry.p_win) == pytest.approx(1.0) for entry in review.chart)
    final = review.chart[-1].p_win
    assert final == tuple(player.win_share for player in review.summary)
    assert reviewed(played, model=False).chart == ()


# --- luck -----------------------------------------------------------------------------------
def test_the_luck_of_every_roll_averages_to_zero_exactly() -> None:
    game, model = game_for(2), win_model(2)
    state = position(stacks=((27,), (30,)), phase=Phase.ROLL, kept="555ww4")
    worms = win = 0.0
    for dice, chance in dice_outcomes(state.dice_left):
        luck = roll_luck(game, state, dice, model)
        assert luck.win is not None
        worms += float(chance) * luck.worms
        win += float(chance) * luck.win
    assert worms == pytest.approx(0.0, abs=1e-12)
    assert win == pytest.approx(0.0, abs=1e-12)


def turn_end(game: Pickomino, start: PickominoState, end: PickominoState) -> TurnEnd:
    """How the turn from `start` ended: ('none', 0), ('steal', tile) or ('grill', tile)."""
    taken = end.stacks[start.seat][len(start.stacks[start.seat]) :]
    if not taken:
        return "none", 0
    claim: Claim = "grill" if taken[0] in start.grill else "steal"
    return claim, taken[0]


def realised_worms(game: Pickomino, start: PickominoState, end: PickominoState) -> float:
    """What the turn from `start` brought its mover as the solver counts it."""
    table = TurnTable.from_state(game, start)
    claim, tile = turn_end(game, start, end)
    if claim == "none":
        return table.fail_value
    return (1 + table.steal_weight if claim == "steal" else 1) * tile_worms(tile)


def turns(states: Sequence[PickominoState]) -> list[tuple[PickominoState, PickominoState]]:
    """Each turn's first position and the position after it."""
    firsts = [s for s in states if s.phase in (Phase.ROLL, Phase.OVER) and s.dice_left == 8]
    return list(pairwise(firsts))


@pytest.mark.parametrize("seed", [1, 2])
def test_a_turns_result_is_its_expectation_plus_luck_minus_losses(seed: int) -> None:
    """In worms and in win chance: the value of how a turn ended is the turn's value at its
    start, plus its rolls' luck, minus its decisions' losses."""
    played = played_game(["greedy", "optimal"], seed)
    game, model = played.game, win_model(2)
    assert model is not None
    review = reviewed(played, model=True)
    luck: defaultdict[int, float] = defaultdict(float)
    lost: defaultdict[int, float] = defaultdict(float)
    win_luck: defaultdict[int, float] = defaultdict(float)
    win_lost: defaultdict[int, float] = defaultdict(float)
    for roll in review.rolls:
        luck[roll.turn] += roll.worms
        win_luck[roll.turn] += roll.win or 0.0
    for decision in review.decisions:
        lost[decision.turn] += decision.worms_lost
        win_lost[decision.turn] += decision.win_lost or 0.0
    for start, end in turns(played.states):
        turn = start.turn
        expected = cached_solution(TurnTable.from_state(game, start)).expected
        result = realised_worms(game, start, end)
        assert result == pytest.approx(expected + luck[turn] - lost[turn], abs=1e-9)
        valuation = WinValuation(game, start, model)
        won = valuation.chances()[turn_end(game, start, end)]
        chance = solve_table(valuation).expected
        assert won == pytest.approx(chance + win_luck[turn] - win_lost[turn], abs=1e-9)


@pytest.mark.slow
def test_luck_sums_to_about_zero_over_many_games() -> None:
    """The mean luck of a roll is zero: over 40 seeded games it stays within four standard
    errors of zero (and below a twentieth of a worm)."""
    lucks = []
    for seed in range(40):
        played = played_game(["greedy", "optimal"], 100 + seed)
        lucks += [roll.worms for roll in reviewed(played, model=False).rolls]
    mean, error = statistics.fmean(lucks), statistics.stdev(lucks) / len(lucks) ** 0.5
    assert abs(mean) <= 4 * error
    assert abs(mean) < 0.05
