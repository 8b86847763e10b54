"""The catch model: how likely a hand catches a falling piece, for bots and terminal play.

A person reacts in about 0.3-0.4 s. A piece that is in the air for `air` seconds is caught
with probability `(air - REACTION_START) / REACTION_SPAN`, at most `BEST_CHANCE`; with several
pieces falling at once each chance is multiplied by `CROWD_FACTOR[n]`. A player has two hands:
the model aims at the two pieces in the air longest and catches each independently.
Probabilities are whole percents, so the outcomes have exact probabilities.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Final

from spieltisch.games.riffraff.board import Fall

__all__ = [
    "BEST_CHANCE",
    "CROWD_FACTOR",
    "HANDS",
    "REACTION_SPAN",
    "REACTION_START",
    "catch_chance",
    "catch_outcomes",
    "catch_targets",
]

HANDS: Final = 2
REACTION_START: Final = 0.15
REACTION_SPAN: Final = 0.45
BEST_CHANCE: Final = Fraction(9, 10)
CROWD_FACTOR: Final = {1: Fraction(1), 2: Fraction(3, 4)}
CROWD_MORE: Final = Fraction(3, 5)


def catch_chance(air: float, falling: int) -> Fraction:
    """The chance to catch one piece in the air `air` seconds while `falling` pieces fall."""
    raw = (air - REACTION_START) / REACTION_SPAN
    percent = Fraction(round(min(max(raw, 0.0), 1.0) * 100), 100)
    return min(percent, BEST_CHANCE) * CROWD_FACTOR.get(falling, CROWD_MORE)


def catch_targets(falling: tuple[Fall, ...]) -> tuple[Fall, ...]:
    """The (at most two) pieces the hands go for: the longest in the air, then by number."""
    ranked = sorted(falling, key=lambda fall: (-fall.air, fall.body))
    return tuple(ranked[:HANDS])


def catch_outcomes(falling: tuple[Fall, ...]) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every set of caught pieces (sorted numbers) with its exact probability."""
    chances = {fall.body: catch_chance(fall.air, len(falling)) for fall in catch_targets(falling)}
    outcomes = []
    bodies = sorted(chances)
    for size in range(len(bodies) + 1):
        for caught in combinations(bodies, size):
            probability = Fraction(1)
            for body in bodies:
                probability *= chances[body] if body in caught else 1 - chances[body]
            if probability > 0:
                outcomes.append((caught, probability))
    return outcomes
