"""The rating update, the shown number and the thresholds, against values worked out by hand."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from spieltisch.ratings.model import (
    BETA,
    ELO_PER_MU,
    MU0,
    SIGMA0,
    TAU,
    Rating,
    RatingSettings,
    finishing_places,
    on_leaderboard,
    shown,
    update,
)

NEW = Rating()


def hand_two_player_win() -> tuple[float, float, float]:
    """Weng and Lin's Plackett-Luce update (their algorithm 4, gamma = sigma / c) for two new
    players, the first finishing ahead: the winner's and loser's mu and their common sigma."""
    variance = SIGMA0**2 + TAU**2  # the dynamics term is added first
    c = math.sqrt(2 * (variance + BETA**2))
    # the winner's only term: its own stage, where each has chance 1/2 of coming first
    omega = variance / c * (1 - 0.5)
    delta = math.sqrt(variance) / c * variance / c**2 * 0.5 * 0.5
    return MU0 + omega, MU0 - omega, math.sqrt(variance * (1 - delta))


def test_two_new_players_move_by_the_papers_equations() -> None:
    winner_mu, loser_mu, sigma = hand_two_player_win()
    assert (winner_mu, loser_mu, sigma) == pytest.approx((27.6354, 22.3646, 8.0659), abs=1e-4)
    winner, loser = update([NEW, NEW], [0, 1])
    assert winner.mu == pytest.approx(winner_mu)
    assert loser.mu == pytest.approx(loser_mu)
    assert winner.sigma == pytest.approx(sigma)
    assert loser.sigma == pytest.approx(sigma)


def test_a_tie_between_equals_moves_no_mean_but_narrows_both() -> None:
    _, _, sigma = hand_two_player_win()  # the same two halves of p (1 - p), each over two
    first, second = update([NEW, NEW], [0, 0])
    assert first.mu == pytest.approx(MU0)
    assert second.mu == pytest.approx(MU0)
    assert first.sigma == pytest.approx(sigma)


def test_a_tie_moves_the_weaker_up_and_the_stronger_down() -> None:
    strong, weak = Rating(30.0, 3.0), Rating(20.0, 3.0)
    after_strong, after_weak = update([strong, weak], [0, 0])
    assert after_strong.mu < strong.mu
    assert after_weak.mu > weak.mu


def test_a_finishing_order_orders_the_changes() -> None:
    after = update([NEW] * 5, [3, 0, 4, 1, 2])
    changes = [rating.mu - MU0 for rating in after]
    assert changes[1] > changes[3] > changes[4] > changes[0] > changes[2]
    assert changes[1] > 0 > changes[2]
    assert sum(changes) == pytest.approx(0.0, abs=1e-9)  # equal players: what one wins, ...


def test_beating_a_stronger_player_is_worth_more() -> None:
    over_strong, _ = update([NEW, Rating(35.0, 2.0)], [0, 1])
    over_weak, _ = update([NEW, Rating(15.0, 2.0)], [0, 1])
    assert over_strong.mu > over_weak.mu > MU0


def test_a_fixed_bot_keeps_its_rating_and_still_counts_as_opponent() -> None:
    bot = Rating(31.0, 0.4)
    player, after_bot = update([NEW, bot], [0, 1], fixed=[False, True])
    assert after_bot == bot
    assert player == update([NEW, bot], [0, 1])[0]  # the same as if the bot were a player
    assert player.mu > hand_two_player_win()[0]  # beating a strong bot is worth more


def test_bad_updates_are_refused() -> None:
    with pytest.raises(ValueError, match="two or more"):
        update([NEW], [0])
    with pytest.raises(ValueError, match="one place and flag each"):
        update([NEW, NEW], [0])
    with pytest.raises(ValueError, match="one place and flag each"):
        update([NEW, NEW], [0, 1], fixed=[True])
    with pytest.raises(ValueError, match="positive sigma"):
        Rating(25.0, 0.0)
    with pytest.raises(ValueError, match="finite mu"):
        Rating(math.nan, 1.0)


def test_places_put_winners_first_then_scores_and_leavers_last() -> None:
    assert finishing_places([2], [5, 9, 3, 5]) == [2, 1, 0, 2]
    assert finishing_places([0, 1], [4, 4, 1]) == [0, 0, 2]
    assert finishing_places([], [4, 7, 4]) == [1, 0, 1]  # no winner: by score alone
    assert finishing_places([1], [8, 6, 9, 2], left=[0, 2]) == [2, 0, 2, 1]
    with pytest.raises(ValueError, match="not one of the game's 2 seats"):
        finishing_places([2], [1, 1])


def test_the_shown_number_starts_at_1500_provisional() -> None:
    start = shown(NEW)
    assert (start.points, start.provisional, str(start)) == (1500, True, "1500?")
    settled = shown(Rating(MU0 + 10.0, 2.0))
    assert (settled.points, settled.provisional, str(settled)) == (1795, False, "1795")
    assert str(shown(Rating(MU0, 5.0))) == "1500"  # at the threshold: no longer provisional
    assert str(shown(Rating(MU0, 5.01))) == "1500?"
    assert str(shown(Rating(MU0, 3.0), RatingSettings(provisional_sigma=2.0))) == "1500?"


def test_400_points_are_ten_to_one_between_settled_players() -> None:
    gap = 400 / ELO_PER_MU
    c = math.sqrt(2) * BETA  # two players whose sigma has shrunk to nothing
    assert 1 / (1 + math.exp(-gap / c)) == pytest.approx(10 / 11)
    assert round(ELO_PER_MU, 2) == 29.48


def test_the_leaderboard_wants_settled_and_recent_players() -> None:
    now = datetime(2026, 5, 1, 12, tzinfo=UTC)
    settled = Rating(MU0, 3.5)
    assert on_leaderboard(settled, now - timedelta(days=7), now)
    assert not on_leaderboard(settled, now - timedelta(days=7, seconds=1), now)
    assert not on_leaderboard(Rating(MU0, 3.6), now, now)
    assert on_leaderboard(Rating(MU0, 3.6), now, now, RatingSettings(leaderboard_sigma=4.0))


def games_until(threshold: float, seats: int) -> int:
    """Rated games a new player needs, finishing in turn at every place against settled
    opponents, until sigma is at most `threshold`."""
    player, games = NEW, 0
    while player.sigma > threshold:
        place = games % seats
        others = [Rating(MU0, 1.0)] * (seats - 1)
        places = [place, *(p for p in range(seats) if p != place)]
        player = update([player, *others], places, [False] + [True] * (seats - 1))[0]
        games += 1
    return games


def test_the_thresholds_take_about_10_and_25_games() -> None:
    settings = RatingSettings()
    assert 8 <= games_until(settings.provisional_sigma, 2) <= 12
    assert 20 <= games_until(settings.leaderboard_sigma, 2) <= 30
    assert 8 <= games_until(settings.provisional_sigma, 4) <= 14
