"""The 95% intervals of the reviews' estimates: a proportion's, and a mean of paired
differences' (both the Karolinchen rollouts and the Riff Raff trials use them)."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["Z95", "mean_interval", "wilson_interval"]

Z95 = 1.959964
"""The standard normal quantile of a two-sided 95% interval."""


def wilson_interval(p: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion `p` observed in `n` trials."""
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 / (1 + Z95**2 / n) * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of paired differences and its 95% normal interval."""
    n = len(values)
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = Z95 * spread / math.sqrt(n)
    return mean, mean - half, mean + half
