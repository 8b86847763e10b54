"""Karolinchen at the web table: the friendly bot of its guided first game, and the review of a
finished game (each card choice against the rollouts' best)."""

from __future__ import annotations

from typing import Any

from spieltisch.analysis.review.grades import WIN_INACCURACY
from spieltisch.core.record import GameRecord
from spieltisch.server.hooks import GameHooks

__all__ = ["HOOKS", "review_json"]


def review_json(record: GameRecord) -> dict[str, Any]:
    """The review, each card choice with the choices whose estimated win chance is within an
    inaccuracy of the best one's (the answers of its puzzle)."""
    from spieltisch.analysis.review.karolinchen import review_karolinchen

    cards = review_karolinchen(record).to_json()
    for decision in cards["decisions"]:
        best = max(c["p_win"] for c in decision["choices"])
        close = [c["action"] for c in decision["choices"] if best - c["p_win"] < WIN_INACCURACY]
        decision["answers"] = close
    return cards


HOOKS = GameHooks(
    tutor="greedy",
    review=review_json,
    paced_chance=True,
    turn_clock=60.0,  # one card a turn
)
