"""Riff Raff: cargo on a swinging ship; the rules, the physics and the text notation.

The physics engine (MuJoCo) is imported only by `riffraff.physics`, and only when a placement
is simulated: the rules, records and replays work without it.
"""

from typing import TYPE_CHECKING

from spieltisch.core.lazy import lazy_names

if TYPE_CHECKING:
    from spieltisch.games.riffraff.board import Board, Fall, PiecePose, Placement
    from spieltisch.games.riffraff.rules import PLACE_GRID, RiffRaff
    from spieltisch.games.riffraff.state import (
        Action,
        Announce,
        Captain,
        Card,
        Catch,
        FirstCaptain,
        Next,
        Phase,
        Place,
        RiffRaffOptions,
        RiffRaffState,
        Settled,
    )

__all__ = [
    "PLACE_GRID",
    "Action",
    "Announce",
    "Board",
    "Captain",
    "Card",
    "Catch",
    "Fall",
    "FirstCaptain",
    "Next",
    "Phase",
    "PiecePose",
    "Place",
    "Placement",
    "RiffRaff",
    "RiffRaffOptions",
    "RiffRaffState",
    "Settled",
]

_BOARD = ["Board", "Fall", "PiecePose", "Placement"]
_RULES = ["PLACE_GRID", "RiffRaff"]
__getattr__ = lazy_names(
    __name__,
    {"board": _BOARD, "rules": _RULES, "state": [n for n in __all__ if n not in _BOARD + _RULES]},
)
