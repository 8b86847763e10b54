"""Karolinchen, the children's dice game of worms eating through a fruit garden."""

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
