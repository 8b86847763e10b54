"""Game reviews: what each decision of a finished game cost, and how lucky each roll was.

`pickomino` and `karolinchen` review their games; `grades` holds the thresholds that grade a
decision. The modules load the solvers and bots they need; this package loads nothing more.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["player_names"]


def player_names(players: Sequence[str], count: int) -> list[str]:
    """The record's player names, or 'seat N' where they are missing or not all different."""
    if len(players) == count and len(set(players)) == count:
        return list(players)
    return [f"seat {seat}" for seat in range(count)]
