"""The `winner` bot: win-chance features and models, the valuation of turn ends, training."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from spieltisch.analysis.winner_training import (
    Examples,
    TrainConfig,
    Training,
    fit_model,
    join_examples,
    lambda_targets,
    play_examples,
    train_winner,
)
from spieltisch.bots.base import make_bot
from spieltisch.bots.pickomino import WinnerBot
from spieltisch.core.protocol import CHANCE
from spieltisch.games.pickomino import Phase, Pickomino, PickominoState
from spieltisch.games.pickomino.data import TILES
from spieltisch.games.pickomino.solver import (
    TurnOutcome,
    TurnTable,
    action_values,
    choose_action,
    solve_table,
    solve_values,
    turn_outcome,
)
from spieltisch.games.pickomino.winner import (
    WinValuation,
    outcome_ends,
    turn_ends,
    win_chances,
)
from spieltisch.games.pickomino.winprob import WinModel, feature_count, position_features

from .helpers import game_for, position

SLOPE = 1e-3  # small: the win chance is then an affine function of the worm difference


def worm_difference_model(players: int = 2, slope: float = SLOPE) -> WinModel:
    """A model without hidden layers whose logit is `slope` times the lead in worms."""
    weights = np.zeros((feature_count(players), 1))
    lead = players * (4 + len(TILES)) + len(TILES) + players
    weights[lead, 0] = slope * 10  # the lead feature is in tens of worms
    return WinModel(players, (weights, np.zeros(1)))


def mid_turn_states(game: Pickomino, count: int, seed: int) -> list[PickominoState]:
    """Positions where the player decides, from seeded games of the optimal bot."""
    bot, dice = make_bot(game, "optimal", seed), random.Random(seed)
    found: list[PickominoState] = []
    state = game.new_state()
    while len(found) < count:
        if state.phase is Phase.OVER:
            state = game.new_state()
        elif game.to_move(state) == CHANCE:
            state = game.apply(state, game.sample_chance(state, dice))
        else:
            found.append(state)
            state = game.apply(state, bot.choose(state))
    return found


# --- features and models ------------------------------------------------------------------------
def test_features_describe_the_position_from_the_given_seat() -> None:
    state = position(stacks=((25, 30), (36,)), seat=1, phase=Phase.ROLL)
    mine = position_features(state.grill, state.stacks, 1, 0)
    theirs = position_features(state.grill, state.stacks, 1, 1)
    block = 4 + len(TILES)
    assert len(mine) == feature_count(2)
    assert np.array_equal(mine[:block], theirs[block : 2 * block])
    assert np.array_equal(mine[block : 2 * block], theirs[:block])
    assert mine[1 + 30 - 21] == 1.0  # my top tile is 30
    assert mine[2 * block + 16 + 1] == 1.0  # the next to move is the seat after me
    assert theirs[2 * block + 16] == 1.0  # ... and seen by seat 1, that is itself
    assert mine[2 * block + 16 + 2] == pytest.approx((2 + 3 - 4) / 10)  # my lead in worms


def test_a_model_round_trips_through_a_file(tmp_path: Path) -> None:
    model = fit_model(2, play_examples(2, range(3), seed=5), TrainConfig(hidden=(8,), epochs=1))
    model.save(tmp_path / "m.npz")
    loaded = WinModel.load(tmp_path / "m.npz")
    rows = np.random.default_rng(0).random((5, feature_count(2)))
    assert np.array_equal(loaded.predict(rows), model.predict(rows))


def test_a_broken_model_file_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "bad.npz").write_bytes(b"not a model")
    with pytest.raises(ValueError, match="is not a win-chance model"):
        WinModel.load(tmp_path / "bad.npz")
    worm_difference_model(3).save(tmp_path / "three.npz")
    data = dict(np.load(tmp_path / "three.npz"))
    data["players"] = np.array(2)
    np.savez(tmp_path / "wrong.npz", **data)
    with pytest.raises(ValueError, match="needs"):
        WinModel.load(tmp_path / "wrong.npz")


# --- valuing the ends of a turn ----------------------------------------------------------------
def test_turn_ends_are_fail_every_steal_and_every_grill_tile() -> None:
    state = position(stacks=((25,), (30,), ()), grill=(21, 22, 36), seat=0)
    assert turn_ends(state) == [
        ("none", 0),
        ("steal", 30),
        ("grill", 21),
        ("grill", 22),
        ("grill", 36),
    ]


@pytest.mark.parametrize("players", [2, 3])
def test_a_worm_difference_model_plays_like_the_optimal_bot(players: int) -> None:
    """Valuing ends by a win chance linear in the lead is maximising the expected worms
    with a steal worth the victim's loss too: the optimal bot's steal weight 1 (2 players).
    With more players the lead is against the best other, so only compare two players."""
    game = game_for(players)
    model = worm_difference_model(players)
    for state in mid_turn_states(game, 60, seed=players):
        valuation = WinValuation(game, state, model, lookahead=0)
        chances = dict(win_chances(game, state, valuation))
        table = TurnTable.from_state(game, state, steal_weight=1.0)
        worms = action_values(game, state, table, solve_table(table))
        if players == 2:
            for action, expected, _ in worms:
                lead = _lead(game, state)
                assert chances[action] == pytest.approx(
                    0.5 + SLOPE / 4 * (lead + expected), abs=1e-8
                )
        assert set(chances) == set(game.legal_actions(state))


def _lead(game: Pickomino, state: PickominoState) -> int:
    scores = game.scores(state)
    return scores[state.seat] - max(s for seat, s in enumerate(scores) if seat != state.seat)


def test_one_turn_ahead_is_the_expectation_over_the_optimal_reply() -> None:
    """With the linear model, an end is worth the lead after it minus what the next player's
    optimal turn is expected to win back (its own gain plus, by a steal, my loss)."""
    game = game_for(2)
    model = worm_difference_model()
    state = mid_turn_states(game, 30, seed=11)[-1]
    chances = WinValuation(game, state, model, lookahead=1).chances()
    for (claim, total), chance in chances.items():
        after = game.turn_result(state, claim, total)
        reply = turn_outcome(TurnTable.from_state(game, after)).expected
        lead = _lead(game, after) * -1  # seen by the next player, so mine is the opposite
        assert chance == pytest.approx(0.5 + SLOPE / 4 * (lead - reply), abs=1e-8)


@pytest.mark.slow
def test_two_turns_ahead_add_my_own_next_turn_played_for_the_win() -> None:
    """With the linear model and two players, an end is worth the lead after it, less what
    the opponent's optimal turn wins back, plus what my own best next turn wins."""
    game, slope = game_for(2), 1e-4
    state = mid_turn_states(game, 30, seed=11)[-1]
    chances = WinValuation(game, state, worm_difference_model(slope=slope), lookahead=2).chances()
    for (claim, total), chance in chances.items():
        after = game.turn_result(state, claim, total)
        expected = 0.0
        for (reply, reply_total), p in outcome_ends(after, optimal_outcome(game, after)):
            mine = game.turn_result(after, reply, reply_total)
            assert mine.phase is not Phase.OVER and mine.seat == state.seat
            expected += p * (_lead(game, mine) + optimal_outcome(game, mine).expected)
        assert (chance - 0.5) * 4 / slope == pytest.approx(expected, abs=1e-3)


def test_with_three_players_two_turns_ahead_are_both_others_optimal_turns() -> None:
    game, model = game_for(3), worm_difference_model(3, slope=0.05)
    state = mid_turn_states(game, 40, seed=4)[-1]
    chances = WinValuation(game, state, model, lookahead=2).chances()
    for (claim, total), chance in chances.items():
        expected, after = 0.0, game.turn_result(state, claim, total)
        for first, p in outcome_ends(after, optimal_outcome(game, after)):
            middle = game.turn_result(after, *first)
            for second, q in outcome_ends(middle, optimal_outcome(game, middle)):
                last = game.turn_result(middle, *second)
                assert last.seat == state.seat
                features = position_features(last.grill, last.stacks, last.seat, state.seat)
                expected += p * q * float(model.predict(features[None, :])[0])
        assert chance == pytest.approx(expected, abs=1e-12)


def optimal_outcome(game: Pickomino, state: PickominoState) -> TurnOutcome:
    return turn_outcome(TurnTable.from_state(game, state))


def test_a_negative_lookahead_is_refused() -> None:
    game = game_for(2)
    with pytest.raises(ValueError, match="count of turns"):
        WinValuation(game, game.new_state(), worm_difference_model(), lookahead=-1)


def test_the_winner_bot_refuses_a_lookahead_it_cannot_afford() -> None:
    game = game_for(2)
    bot = make_bot(game, "winner:lookahead=2")
    assert isinstance(bot, WinnerBot) and bot.lookahead == 2
    for text in ("-1", "3", "x"):
        with pytest.raises(KeyError, match=f"lookahead={text!r} should be a whole number from 0"):
            make_bot(game, f"winner:lookahead={text}")
    with pytest.raises(KeyError, match="steal_weight='x' should be a number"):
        make_bot(game, "optimal:steal_weight=x")


def test_the_solver_follows_win_chances_not_worms() -> None:
    """Far behind at the last tile, taking a small tile loses anyway: the bot rolls on."""
    game = game_for(2)
    state = position(
        stacks=((21,), (36, 35, 34)), grill=(22,), kept="5555w", rolled="", phase=Phase.DECIDE
    )
    model = worm_difference_model(slope=1.0)
    valuation = WinValuation(game, state, model, lookahead=0)
    solution = solve_values(valuation.stop_values(), valuation.fail_value)
    assert valuation.claim_value("grill", state.total) == 0.0  # taking 22 ends the game lost
    optimal = TurnTable.from_state(game, state)
    assert choose_action(game, state, optimal, solve_table(optimal)) == game.legal_actions(state)[1]
    assert choose_action(game, state, valuation, solution) != game.legal_actions(state)[1]


# --- the bot and its training ------------------------------------------------------------------
def test_the_winner_bot_plays_whole_games() -> None:
    from spieltisch.bots.match import play_match

    game = game_for(2)
    for seed in range(2):
        bots = [make_bot(game, "winner", seed), make_bot(game, "optimal", seed)]
        assert play_match(game, bots, seed=seed).state.phase is Phase.OVER


def test_training_is_seeded_and_independent_of_the_jobs() -> None:
    small = Training(players=2, games=6, rounds=2, seed=3, fit=TrainConfig(hidden=(8,), epochs=1))
    first = train_winner(small, progress=lambda line: None)
    again = train_winner(small, progress=lambda line: None)
    parallel = train_winner(Training(2, 6, 2, 3, jobs=2, fit=small.fit), progress=lambda line: None)
    for a, b, c in zip(first.weights, again.weights, parallel.weights, strict=True):
        assert np.array_equal(a, b) and np.array_equal(a, c)


def test_examples_of_the_winner_rounds_are_the_learners_views() -> None:
    optimal_round = play_examples(2, range(4), seed=1)
    winner_round = play_examples(2, range(4), seed=1, model=worm_difference_model())
    assert isinstance(optimal_round, Examples)
    assert set(np.unique(optimal_round.labels)) <= {0.0, 0.5, 1.0}
    assert len(winner_round) < len(optimal_round)  # one view per position instead of two


def test_each_example_knows_every_position_its_turn_can_lead_to() -> None:
    examples = play_examples(2, range(3), seed=2)
    backups = examples.backups
    turn_chances = np.add.reduceat(backups.chances, backups.first[:-1])
    assert np.allclose(turn_chances, 1.0)
    going_on = backups.following >= 0
    # The position the game went to is the same seat's next example ...
    taken_rows = backups.features[backups.taken[going_on]]
    assert np.array_equal(taken_rows, examples.features[backups.following[going_on]])
    # ... or the end of the game, with that seat's result as its value.
    assert np.array_equal(backups.finals[backups.taken[~going_on]], examples.labels[~going_on])
    assert np.isnan(backups.finals[backups.taken[going_on]]).all()


def test_examples_joined_in_parts_are_the_examples_played_at_once() -> None:
    whole = play_examples(2, range(4), seed=3)
    joined = join_examples([play_examples(2, range(2), 3), play_examples(2, range(2, 4), 3)])
    assert np.array_equal(whole.features, joined.features)
    for name in ("chances", "finals", "first", "taken", "following"):
        assert np.array_equal(
            getattr(whole.backups, name), getattr(joined.backups, name), equal_nan=True
        ), name


def test_td_targets_mix_one_turn_backups_along_the_game() -> None:
    examples = play_examples(2, range(2), seed=4)
    model = worm_difference_model(slope=0.05)
    backups = examples.backups
    values = backups.finals.copy()
    unfinished = np.isnan(values)
    values[unfinished] = model.predict(backups.features[unfinished].astype(np.float64))
    one_turn = [
        float(values[a:b] @ backups.chances[a:b])
        for a, b in zip(backups.first[:-1], backups.first[1:], strict=True)
    ]
    assert np.allclose(lambda_targets(model, examples, 0.0), one_turn)
    # With trace 1 the target is the final result plus the surprise of every later turn.
    whole = lambda_targets(model, examples, 1.0)
    for i in range(len(examples)):
        surprise, k = 0.0, i
        while k >= 0:
            surprise += one_turn[k] - values[backups.taken[k]]
            k = int(backups.following[k])
        assert whole[i] == pytest.approx(np.clip(examples.labels[i] + surprise, 0, 1))


def test_td_sweeps_refit_the_model() -> None:
    fit = TrainConfig(hidden=(8,), epochs=1)
    plain = train_winner(Training(2, 4, 1, 3, fit=fit, sweeps=0), progress=lambda line: None)
    swept = train_winner(Training(2, 4, 1, 3, fit=fit, sweeps=1), progress=lambda line: None)
    assert not np.array_equal(plain.weights[0], swept.weights[0])


# --- explaining a decision ---------------------------------------------------------------------
@pytest.mark.slow
def test_terminal_odds_and_the_web_overlay_show_the_chance_to_win() -> None:
    from spieltisch.cli.present import PickominoPresenter
    from spieltisch.serving.pickomino import odds_for

    game = game_for(2)
    state = position(phase=Phase.CHOOSE, rolled="22345555w"[:8])
    lines = PickominoPresenter(game, ["Ann", "Bob"]).odds_lines(state)
    assert all("% to win" in line for line in lines[1:])
    assert sum("best to win" in line for line in lines) >= 1
    odds = odds_for(game, state)
    assert odds is not None and all(0 < entry["p_win"] < 1 for entry in odds)


def test_without_a_model_for_the_player_count_odds_leave_out_the_chance_to_win() -> None:
    from spieltisch.serving.pickomino import odds_for

    game = game_for(7)
    state = position(stacks=((),) * 7, phase=Phase.CHOOSE, rolled="2345555w")
    odds = odds_for(game, state)
    assert odds is not None and all("p_win" not in entry for entry in odds)


def test_without_a_model_the_winner_bot_plays_as_optimal() -> None:
    game = game_for(7)
    winner, optimal = make_bot(game, "winner", 1), make_bot(game, "optimal", 1)
    for state in mid_turn_states(game, 40, seed=7):
        assert winner.choose(state) == optimal.choose(state)


def test_the_train_command_writes_a_model_the_bot_can_load(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from spieltisch.cli.main import main

    out = tmp_path / "models" / "m.npz"
    command = ["pickomino", "train-winner", "--players", "3", "--games", "4", "--rounds", "2"]
    assert main([*command, "--epochs", "1", "--sweeps", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "round 2:" in printed and "epoch 1: cross-entropy" in printed
    assert "sweep 1: TD(0.8) targets" in printed
    assert WinModel.load(out).players == 3


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--players", "1", "from 2 to 7"),
        ("--games", "0", "at least 1"),
        ("--jobs", "0", "jobs"),
        ("--sweeps", "-1", "0 or more"),
        ("--trace", "1.5", "from 0 to 1"),
        ("--out", "model.txt", ".npz"),
    ],
)
def test_the_train_command_refuses_bad_numbers(
    flag: str, value: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from spieltisch.cli.main import main

    out = ["--out", str(tmp_path / "m.npz")] if flag != "--out" else []
    assert main(["pickomino", "train-winner", flag, value, *out]) == 2
    assert message in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
