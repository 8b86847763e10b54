"""Drawing chance outcomes from exact probabilities with an injected generator."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from math import lcm
from typing import TypeVar

__all__ = ["sample_exact"]

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
