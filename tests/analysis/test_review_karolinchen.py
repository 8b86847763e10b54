"""The Karolinchen review: the expert's choices graded best, a losing card seen as one, and
the intervals of rollout estimates."""

from __future__ import annotations

import pytest

from spieltisch.analysis.review.grades import WIN_BLUNDER
from spieltisch.analysis.review.karolinchen import (
    review_card_decision,
    review_karolinchen,
    wilson_interval,
)
from spieltisch.bots import make_bot, play_match
from spieltisch.games.karolinchen.state import Lay
from tests.karolinchen.helpers import fruit, game_for, position


def test_wilson_intervals() -> None:
    assert wilson_interval(0.5, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    low, high = wilson_interval(0.0, 20)
    assert low == 0.0 and high == pytest.approx(0.1611, abs=1e-4)


def race_position() -> object:
    """Both worms need their blueberry to win; seat 0 has just filled its plums and holds
    apricots and blueberry. Two orange dice lie in the middle: laying the apricots fills
    them at once, and only the blueberry is left; laying the blueberry takes nothing, and
    seat 1 then rolls all six dice for its own."""
    return position(["rgyp", "gryopb"], middle="oorrgg", eaten=[18, 20])


def test_a_card_that_throws_the_race_away_is_a_blunder() -> None:
    game, state = game_for(2), race_position()
    decision = review_card_decision(game, state, Lay(fruit("b")), rollouts=300)  # type: ignore[arg-type]
    assert (decision.played, decision.best) == ("lay b", "lay o")
    assert decision.low > 0 and decision.win_lost > WIN_BLUNDER
    assert decision.grade == "blunder"
    chances = {c.action: c for c in decision.choices}
    assert chances["lay o"].low > chances["lay b"].high


def test_the_expert_card_is_best() -> None:
    game, state = game_for(2), race_position()
    decision = review_card_decision(game, state, Lay(fruit("o")), rollouts=50)  # type: ignore[arg-type]
    assert (decision.grade, decision.win_lost, decision.low, decision.high) == ("best", 0, 0, 0)


def test_the_experts_own_game_agrees_with_the_expert_everywhere() -> None:
    game = game_for(2)
    bots = [make_bot(game, "expert", seat) for seat in range(2)]
    review = review_karolinchen(play_match(game, bots, 7).record, rollouts=10)
    assert review.decisions
    assert all(d.played == d.expert for d in review.decisions)
    assert all(
        d.win_lost >= 0 and (d.grade == "best") == (d.played == d.best) for d in review.decisions
    )
    assert [p.agreed for p in review.summary] == [p.decisions for p in review.summary]
    assert sum(p.won for p in review.summary) == 1
