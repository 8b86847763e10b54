"""Pickomino (Heckmeck am Bratwurmeck, Regenwormen)."""

from spieltisch.games.pickomino.rules import Pickomino
from spieltisch.games.pickomino.state import (
    ROLL,
    Action,
    Dice,
    FirstSeat,
    Phase,
    PickominoOptions,
    PickominoState,
    Roll,
    Stop,
    Take,
)

__all__ = [
    "ROLL",
    "Action",
    "Dice",
    "FirstSeat",
    "Phase",
    "Pickomino",
    "PickominoOptions",
    "PickominoState",
    "Roll",
    "Stop",
    "Take",
]
