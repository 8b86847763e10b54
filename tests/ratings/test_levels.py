"""The bots' strength labels follow from their calibrated ratings by one rule."""

from __future__ import annotations

from spieltisch.ratings.bots import EASY_BELOW, STRONG_FROM, strength_levels


def test_the_strongest_is_best_and_the_others_go_by_their_rating() -> None:
    points = {"a": EASY_BELOW - 1, "b": EASY_BELOW, "c": STRONG_FROM - 1, "d": STRONG_FROM}
    assert strength_levels(points | {"e": STRONG_FROM + 50}) == {
        "a": "easy",
        "b": "good",
        "c": "good",
        "d": "strong",
        "e": "best",
    }


def test_a_lone_or_weak_best_bot_is_still_best() -> None:
    assert strength_levels({"random": 1200}) == {"random": "best"}
    assert strength_levels({"x": 1300, "y": 1300}) == {"x": "best", "y": "best"}
    assert strength_levels({}) == {}
