"""The simulator: seeds per game, determinism across jobs, win shares, start seats, statistics."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from spieltisch.analysis.game_stats import (
    add_totals,
    mean_per_game,
    pickomino_collect,
    riffraff_collect,
    stats_hook,
)
from spieltisch.analysis.simulate import (
    SimulationConfig,
    SimulationError,
    check_config,
    chunk_size,
    game_options,
    game_seeds,
    parse_start_seat,
    run_simulation,
    wilson_interval,
    win_shares,
)
from spieltisch.bots import make_bot, play_match
from spieltisch.core.registry import make_game
from spieltisch.games.pickomino import ROLL, Action, Dice, FirstSeat, Pickomino, Stop, Take
from spieltisch.games.pickomino.data import face_from_symbol
from spieltisch.games.riffraff.board import Board, PiecePose

FAST = ("random", "greedy")


def config(**changes: object) -> SimulationConfig:
    base: dict[str, object] = {"game": "pickomino", "bots": FAST, "games": 24, "seed": 7}
    return SimulationConfig(**{**base, **changes})  # type: ignore[arg-type]


def test_same_request_gives_the_same_report() -> None:
    assert run_simulation(config()).to_json() == run_simulation(config()).to_json()


def test_jobs_do_not_change_the_report() -> None:
    request = config(bots=("greedy", "greedy"), games=40)
    one = run_simulation(request)
    two = run_simulation(config(bots=("greedy", "greedy"), games=40, jobs=2))
    assert one.to_json() == two.to_json()
    assert one.winners == two.winners


def test_another_seed_gives_other_games() -> None:
    request = config(bots=("greedy", "greedy"), games=30)
    other = config(bots=("greedy", "greedy"), games=30, seed=8)
    assert run_simulation(request).to_json() != run_simulation(other).to_json()


def test_each_game_is_play_match_with_its_seeds() -> None:
    request = config(bots=("greedy", "random", "greedy"), games=6)
    result = run_simulation(request)
    winners: dict[tuple[int, ...], int] = {}
    turns = 0
    for index in range(request.games):
        game = make_game("pickomino", game_options(request, index))
        dice_seed, bot_seeds = game_seeds(request.seed, index, 3)
        bots = [make_bot(game, name, s) for name, s in zip(request.bots, bot_seeds, strict=True)]
        played = play_match(game, bots, dice_seed)
        key = tuple(game.winners(played.state))
        winners[key] = winners.get(key, 0) + 1
        turns += played.state.turn
    assert result.winners == dict(sorted(winners.items()))
    assert result.mean_decision_runs == pytest.approx(turns / request.games)


def test_progress_reports_every_chunk_up_to_the_total() -> None:
    seen: list[int] = []
    run_simulation(config(games=10), seen.append)
    assert seen == sorted(seen) and seen[-1] == 10


def test_chunk_size_depends_on_the_games_only() -> None:
    assert chunk_size(1) == 1
    assert chunk_size(2000) == 31
    assert chunk_size(10**6) == 100


# --- wins -------------------------------------------------------------------------------------
def test_a_shared_win_counts_one_kth_to_each_winner() -> None:
    shares = win_shares({(0,): 3, (0, 1): 2, (0, 1, 2): 3}, 3)
    assert shares == [Fraction(5), Fraction(2), Fraction(1)]
    assert sum(shares) == 3 + 2 + 3


def test_win_rates_sum_to_one() -> None:
    report = run_simulation(config(bots=("greedy", "random", "greedy"), games=20)).to_json()
    assert sum(seat["wins"] for seat in report["seats"]) == pytest.approx(20)
    assert sum(seat["win_rate"] for seat in report["seats"]) == pytest.approx(1)
    for seat in report["seats"]:
        low, high = seat["ci95"]
        assert 0 <= low <= seat["win_rate"] <= high <= 1


def test_wilson_interval() -> None:
    assert wilson_interval(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(10, 10)[1] == pytest.approx(1)
    low, high = wilson_interval(2.5, 5)  # fractional wins from shared games
    assert low < 0.5 < high


# --- start seats ------------------------------------------------------------------------------
def test_rotate_starts_game_i_at_seat_i_mod_players() -> None:
    request = config(bots=("greedy", "greedy", "random"))
    assert [game_options(request, i)["start_seat"] for i in range(5)] == [0, 1, 2, 0, 1]
    game = make_game("pickomino", game_options(request, 4))
    assert game.new_state().seat == 1


def test_random_start_seat_is_a_chance_node() -> None:
    request = config(start_seat="random")
    assert game_options(request, 3)["start_seat"] == "random"
    game = make_game("pickomino", game_options(request, 3))
    assert all(isinstance(a, FirstSeat) for a in game.legal_actions(game.new_state()))
    assert run_simulation(request).games == request.games


def test_fixed_start_seat() -> None:
    request = config(start_seat=1)
    assert {game_options(request, i)["start_seat"] for i in range(4)} == {1}
    assert run_simulation(request).games == request.games


def test_start_seat_words() -> None:
    assert parse_start_seat("Rotate") == "rotate"
    assert parse_start_seat("random") == "random"
    assert parse_start_seat("2") == 2
    with pytest.raises(SimulationError, match="'rotate', 'random' or a seat number"):
        parse_start_seat("first")


# --- bad requests -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"games": 0}, "at least 1"),
        ({"jobs": 0}, "at least 1"),
        ({"bots": ("greedy", "clever")}, "no bot 'clever'.*greedy"),
        ({"bots": ("greedy",)}, "2 to 7 seats"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"options": {"colour": "red"}}, "unknown option colour"),
        ({"options": {"short_game": "maybe"}}, "short_game"),
        ({"options": {"players": "3"}}, "--seats"),
        ({"options": {"start_seat": "1"}}, "--start-seat"),
        ({"start_seat": 2}, "start_seat"),
        ({"start_seat": "first"}, "'rotate', 'random' or a seat number"),
    ],
)
def test_bad_requests_are_explained(changes: dict[str, object], message: str) -> None:
    with pytest.raises(SimulationError, match=message):
        check_config(config(**changes))


# --- Pickomino statistics ---------------------------------------------------------------------
def roll(symbols: str) -> Dice:
    counts = [0] * 6
    for symbol in symbols:
        face = face_from_symbol(symbol)
        assert face is not None
        counts[face] += 1
    return Dice(tuple(counts))


def take(symbol: str) -> Take:
    face = face_from_symbol(symbol)
    assert face is not None
    return Take(face)


def test_pickomino_turns_failures_and_steals() -> None:
    game = Pickomino({"players": 2})
    actions: list[Action] = [
        # seat 0: eight worms, the take ends the turn by itself: 40 takes 36 from the grill
        roll("wwwwwwww"), take("w"),
        # seat 1: seven worms and a 1 make 36, 0's top tile: a steal
        roll("wwwwwww1"), take("w"), ROLL, roll("1"), take("1"), Stop("steal"),
        # seat 0: no tile to return, no worm: a failing stop
        roll("11111112"), take("1"), Stop("none"),
        # seat 1: the second roll shows only 1s, already set aside: fails at once, returns 36
        roll("1111111w"), take("1"), ROLL, roll("1"),
    ]  # fmt: skip
    states = [game.new_state()]
    for action in actions:
        states.append(game.apply(states[-1], action))
    numbers = pickomino_collect(game, states, actions)
    assert numbers == {
        "worms": [0, 0],
        "turns": [2, 2],
        "failed": [1, 1],
        "steals": [0, 1],
    }
    hook = stats_hook("pickomino")
    assert hook is not None
    summary = hook.summarize(numbers, 1)
    assert summary["fail_rate"] == 0.5
    assert summary["fail_rate_by_seat"] == [0.5, 0.5]
    assert summary["steals_per_game"] == 1
    assert summary["steals_per_game_by_seat"] == [0, 1]


def test_pickomino_statistics_agree_with_the_games() -> None:
    report = run_simulation(config(bots=("greedy", "greedy"), games=12)).to_json()
    stats = report["stats"]
    assert set(stats) == {
        "mean_worms",
        "fail_rate",
        "fail_rate_by_seat",
        "steals_per_game",
        "steals_per_game_by_seat",
    }
    assert len(stats["mean_worms"]) == 2
    assert 0 < stats["fail_rate"] < 1
    assert stats["steals_per_game"] == pytest.approx(sum(stats["steals_per_game_by_seat"]))


def test_totals_add_up_and_default_to_means() -> None:
    totals: dict[str, int | float | list[int | float]] = {}
    add_totals(totals, {"moves": 10, "points": [1, 2]})
    add_totals(totals, {"moves": 20, "points": [3, 0]})
    assert totals == {"moves": 30, "points": [4, 2]}
    assert mean_per_game(totals, 2) == {"moves": 15, "points": [2, 1]}
    with pytest.raises(ValueError, match="shape"):
        add_totals(totals, {"moves": [1, 2]})


def test_riffraff_reports_the_most_pieces_on_board_at_once() -> None:
    hook = stats_hook("riffraff")
    assert hook is not None
    totals: dict[str, int | float | list[int | float]] = {}
    for peak in (12, 20, 18, 25):
        game: dict[str, int | float | list[int | float]] = {
            "placements": [1, 1],
            "fallen": [0, 0],
            "caught": [0, 0],
            "early_end": 0,
        }
        histogram: list[int | float] = [int(count == peak) for count in range(33)]
        add_totals(totals, {**game, "peak_on_board": peak, "peak_on_board_games": histogram})
    stats = hook.summarize(totals, 4)
    assert stats["peak_on_board_median"] == 19
    assert stats["peak_on_board_mean"] == 18.75


def test_riffraff_collects_the_peak_from_the_boards_of_a_game() -> None:
    game = make_game("riffraff", {"players": 2})
    state = game.new_state()
    pieces = tuple(PiecePose(body, 1, (0, 0, 0.4, 1, 0, 0, 0)) for body in range(3))
    loaded = replace(state, board=Board(pieces=pieces))
    lighter = replace(state, board=Board(pieces=pieces[:1]))
    numbers = riffraff_collect(game, [state, loaded, lighter], [])
    assert numbers["peak_on_board"] == 3
    histogram = numbers["peak_on_board_games"]
    assert isinstance(histogram, list) and histogram.index(1) == 3 and sum(histogram) == 1
