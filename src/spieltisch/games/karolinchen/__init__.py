"""Karolinchen, the children's dice game of worms eating through a fruit garden."""

from typing import TYPE_CHECKING

from spieltisch.core.lazy import lazy_names

if TYPE_CHECKING:
    from spieltisch.games.karolinchen.rules import Karolinchen
    from spieltisch.games.karolinchen.state import (
        LEAVE,
        TAKE,
        Action,
        Dice,
        FirstSeat,
        KarolinchenOptions,
        KarolinchenState,
        Lay,
        Leave,
        Phase,
        Step,
        Tails,
        Take,
    )

__all__ = [
    "LEAVE",
    "TAKE",
    "Action",
    "Dice",
    "FirstSeat",
    "Karolinchen",
    "KarolinchenOptions",
    "KarolinchenState",
    "Lay",
    "Leave",
    "Phase",
    "Step",
    "Tails",
    "Take",
]

__getattr__ = lazy_names(
    __name__, {"rules": ["Karolinchen"], "state": [n for n in __all__ if n != "Karolinchen"]}
)
