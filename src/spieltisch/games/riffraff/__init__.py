"""Riff Raff: cargo on a swinging ship; the rules, the physics and the text notation.

The physics engine (MuJoCo) is imported only by `riffraff.physics`, and only when a placement
is simulated: the rules, records and replays work without it.
"""

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
