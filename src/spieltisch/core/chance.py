"""Drawing chance outcomes from exact probabilities with an injected generator."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from fractions import Fraction
from functools import cache
from math import factorial, lcm
from typing import TypeVar

__all__ = ["multinomial_outcomes", "sample_exact"]

T = TypeVar("T")


def sample_exact(outcomes: Sequence[tuple[T, Fraction]], rng: random.Random) -> T:
    """Draw one outcome with exactly its probability, using integers only (platform-independent)."""
    if not outcomes:
        raise ValueError("no chance outcomes to sample from")
    denominator = lcm(*(p.denominator for _, p in outcomes))
    ticket = rng.randrange(denominator)
    for outcome, probability in outcomes:
        ticket -= probability.numerator * (denominator // probability.denominator)
        if ticket < 0:
            return outcome
    raise ValueError("chance probabilities sum to less than 1")


def _compositions(dice: int, faces: int) -> Iterator[tuple[int, ...]]:
    if faces == 1:
        yield (dice,)
        return
    for first in range(dice, -1, -1):
        for rest in _compositions(dice - first, faces - 1):
            yield (first, *rest)


@cache
def multinomial_outcomes(dice: int, faces: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every roll of `dice` fair dice with `faces` faces as counts per face (in ascending
    order of the counts), with its exact probability."""
    total = faces**dice
    outcomes = []
    for counts in sorted(_compositions(dice, faces)):
        ways = factorial(dice)
        for count in counts:
            ways //= factorial(count)
        outcomes.append((counts, Fraction(ways, total)))
    return tuple(outcomes)
