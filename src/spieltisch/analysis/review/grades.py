"""The grades of a decision in a game review, and the thresholds that set them.

A decision is graded by what it lost against the best choice. Where a win-chance model
applies, the loss is measured in win chance; elsewhere in the expected worms of the turn.

Anchors for the thresholds:

- GNU Backgammon marks a move doubtful, bad or very bad at 0.04, 0.08 and 0.16 of equity.
  In a game without gammons equity is 2p - 1, so these are 2, 4 and 8 points of win chance.
- Lichess marks an inaccuracy, mistake or blunder when the winning chances (from -1 to 1)
  drop by 0.1, 0.2 or 0.3: 5, 10 and 15 points of win chance.
- chess.com grades by expected points lost (0 to 1): an inaccuracy from about 0.05, a
  mistake from 0.10, a blunder from 0.20.

Pickomino is a dice game like backgammon: a single decision rarely swings the game as a
chess move can, and much of each game is luck. The backgammon scale fits it, so the
win-chance thresholds are GNU Backgammon's (2, 4, 8 points, each class twice the last).

Where no model applies (5 to 7 players) the expected worms of the turn grade instead, at the
same thresholds converted at the rate the models give a worm: over 15 seeded games each of
2, 3 and 4 players (`greedy` and `optimal` seats), the decisions that lost worms lost 0.046
to 0.052 of win chance per worm in total (a median of 0.033 to 0.038 per decision), about 4
points a worm. So 0.5, 1 and 2 worms.
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "GRADES",
    "SAME",
    "WIN_BLUNDER",
    "WIN_INACCURACY",
    "WIN_MISTAKE",
    "WORMS_BLUNDER",
    "WORMS_INACCURACY",
    "WORMS_MISTAKE",
    "Grade",
    "grade",
]

Grade = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
GRADES: tuple[Grade, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")

SAME = 1e-9
"""Two values closer than this are equal: a choice that loses no more is a best choice."""

WIN_INACCURACY = 0.02
WIN_MISTAKE = 0.04
WIN_BLUNDER = 0.08
"""Win chance lost (0 to 1) from which a decision is an inaccuracy, a mistake, a blunder."""

WORMS_INACCURACY = 0.5
WORMS_MISTAKE = 1.0
WORMS_BLUNDER = 2.0
"""Expected worms of the turn lost from which a decision is an inaccuracy, a mistake, a
blunder (used where no win-chance model applies)."""


def grade(lost: float, *, by_win: bool) -> Grade:
    """The grade of a decision that lost `lost` (win chance if `by_win`, else worms)."""
    inaccuracy, mistake, blunder = (
        (WIN_INACCURACY, WIN_MISTAKE, WIN_BLUNDER)
        if by_win
        else (WORMS_INACCURACY, WORMS_MISTAKE, WORMS_BLUNDER)
    )
    if lost >= blunder:
        return "blunder"
    if lost >= mistake:
        return "mistake"
    if lost >= inaccuracy:
        return "inaccuracy"
    return "best" if lost <= SAME else "good"
