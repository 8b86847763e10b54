"""Pickomino (Heckmeck am Bratwurmeck, Regenwormen)."""

from typing import TYPE_CHECKING

from spieltisch.core.lazy import lazy_names

if TYPE_CHECKING:
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

__getattr__ = lazy_names(
    __name__, {"rules": ["Pickomino"], "state": [n for n in __all__ if n != "Pickomino"]}
)
