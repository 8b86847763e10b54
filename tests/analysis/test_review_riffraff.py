"""The Riff Raff review: a placement that drops pieces against careful's, the grades and their
thresholds, and a short seeded game reviewed end to end."""

from __future__ import annotations

import json
from functools import cache

import pytest

from spieltisch.analysis.review.riffraff import (
    RISK_BLUNDER,
    RISK_INACCURACY,
    RISK_MISTAKE,
    review_placement,
    review_riffraff,
    risk_grade,
)
from spieltisch.bots import make_bot, play_match
from spieltisch.core.errors import RecordError
from spieltisch.core.record import GameRecord
from spieltisch.core.registry import make_game
from spieltisch.games.riffraff import Card, Place, RiffRaff
from spieltisch.games.riffraff.state import RiffRaffState

LIGHT_CAREFUL = "careful:samples=1:candidates=1:wider=0"
"""A careful bot that tries one placement once: enough to play and review a game quickly."""


def test_the_risk_thresholds_grade_only_what_the_trials_tell_apart() -> None:
    assert risk_grade(0.0, 0.0) == "best"
    assert risk_grade(-0.2, -0.4) == "best"  # safer than careful's
    assert risk_grade(0.5, -0.01) == "good"  # the interval holds zero
    assert risk_grade(RISK_INACCURACY - 0.01, 0.01) == "good"
    assert risk_grade(RISK_INACCURACY, 0.01) == "inaccuracy"
    assert risk_grade(RISK_MISTAKE, 0.01) == "mistake"
    assert risk_grade(RISK_BLUNDER, 0.01) == "blunder"


def top_yard() -> tuple[RiffRaff, RiffRaffState]:
    """Seat 0 is to load the empty ship's high yard (area 9) with the table's usual noise."""
    game = RiffRaff({"players": 2, "start_seat": 0})
    return game, game.apply(game.apply(game.new_state(), Card(9)), Card(2))


def test_a_flacon_at_the_yards_tip_is_an_error_against_careful() -> None:
    game, state = top_yard()
    played = game.read_action(state, "place flacon 9 u=0.9 v=0 yaw=0 up")
    assert isinstance(played, Place)
    decision = review_placement(game, state, played, trials=30, seed=3)
    again = review_placement(game, state, played, trials=30, seed=3)
    assert decision == again  # every draw is seeded
    risks = {c.action: c.risk for c in decision.choices}
    assert decision.kind == "place" and decision.best == decision.suggested != decision.played
    assert risks[decision.played] > risks[decision.suggested] + RISK_MISTAKE
    assert decision.risk_added == pytest.approx(risks[decision.played] - risks[decision.suggested])
    assert decision.low > 0 and decision.grade in ("mistake", "blunder")


def test_carefuls_own_placement_is_best() -> None:
    game, state = top_yard()
    first = review_placement(game, state, _any(game, state), trials=2, seed=5)
    suggested = game.read_action(state, first.suggested)
    assert isinstance(suggested, Place)
    again = review_placement(game, state, suggested, trials=4, seed=5)
    assert (again.played, again.best) == (first.suggested, first.suggested)
    assert (again.grade, again.risk_added, len(again.choices)) == ("best", 0, 1)


def _any(game: RiffRaff, state: RiffRaffState) -> Place:
    action = game.legal_actions(state)[0]
    assert isinstance(action, Place)
    return action


@cache
def riffraff_record() -> GameRecord:
    """A seeded 2-player game: a light careful bot against the random bot."""
    game = RiffRaff({"players": 2})
    bots = [make_bot(game, LIGHT_CAREFUL, 0), make_bot(game, "random", 1)]
    return play_match(game, bots, 3, ("Ann", "Bob")).record


@pytest.mark.slow
def test_a_short_seeded_game_is_reviewed() -> None:
    review = review_riffraff(riffraff_record(), trials=2, bot=LIGHT_CAREFUL)
    assert review.players == ("Ann", "Bob") and review.trials == 2
    kinds = {d.kind for d in review.decisions}
    assert kinds == {"card", "place"}
    for decision in review.decisions:
        assert decision.risk_added >= 0
        assert (decision.grade == "best") == (decision.risk_added == 0)
        if decision.played == decision.suggested:
            assert decision.grade == "best"
    careful, other = review.summary
    # careful's cards follow a fixed rule: the review's careful lays the same ones
    assert all(
        d.played == d.suggested for d in review.decisions if d.seat == 0 and d.kind == "card"
    )
    assert careful.decisions + other.decisions == len(review.decisions)
    assert careful.placements == sum(d.kind == "place" and d.seat == 0 for d in review.decisions)
    assert sum(p.won for p in review.summary) >= 1
    assert json.loads(json.dumps(review.to_json()))["summary"][0]["name"] == "Ann"


def test_only_a_finished_riffraff_game_is_reviewed() -> None:
    game = RiffRaff({"players": 2})
    with pytest.raises(RecordError, match="not finished"):
        review_riffraff(GameRecord.start(game))
    with pytest.raises(RecordError, match="not a Riff Raff one"):
        review_riffraff(GameRecord.start(make_game("pickomino", {"players": 2})))
