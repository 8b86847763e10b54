"""The ship's physical position as plain values, placements and their footprint rule.

These are what the rules store and the record carries; the physics module turns them into an
engine state and back. Nothing here imports the physics engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import isfinite

from spieltisch.games.riffraff.data import (
    AREAS,
    DECK_AREAS,
    FACES,
    PIECE_NAMES,
    PIECES,
    SHIP,
    area_shape,
    footprint_half_extents,
)

__all__ = [
    "JOINT_NAMES",
    "REST",
    "Board",
    "Fall",
    "PiecePose",
    "Placement",
    "footprint_problem",
    "piece_type",
]

JOINT_NAMES = ("roll", "pitch", "turn5", "seesaw5", "turn7", "seesaw7", "turn9", "seesaw9")
"""The ship's joints in the order `Board.joints` lists their angles (radians)."""


def piece_type(body: int) -> int:
    """Cargo pieces are numbered set by set: piece `body` is of type `body % 8`."""
    return body % len(PIECES)


@dataclass(frozen=True, slots=True)
class PiecePose:
    """A piece on board: which one, the area it belongs to, and its pose in the world
    (x, y, z of its centre, then the unit quaternion w, x, y, z)."""

    body: int
    area: int
    pose: tuple[float, float, float, float, float, float, float]


@dataclass(frozen=True, slots=True)
class Board:
    """The ship at rest: its joint angles and the cargo on board (ordered by piece number)."""

    joints: tuple[float, ...] = (0.0,) * len(JOINT_NAMES)
    pieces: tuple[PiecePose, ...] = ()

    def bodies(self) -> tuple[int, ...]:
        return tuple(p.body for p in self.pieces)

    def count_in(self, area: int) -> int:
        return sum(1 for p in self.pieces if p.area == area)


REST = Board()
"""The empty ship, upright."""


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a player means to put a piece: its type, the area, the point (u, v) in the area
    (see `data.AreaShape`), the yaw in degrees from the area's long axis, and the resting face."""

    piece: int
    area: int
    u: float
    v: float = 0.0
    yaw: float = 0.0
    face: str = "up"


@dataclass(frozen=True, slots=True)
class Fall:
    """A piece that fell: when it landed (seconds after the release) and how long it was in
    the air before, the time a hand had to catch it."""

    body: int
    time: float
    air: float


def _inner_gaps(placement: Placement) -> tuple[float, float]:
    """How far the footprint stays clear of the area's inner edge along u and across v
    (negative: it crosses it)."""
    shape = area_shape(placement.area)
    half_u, half_v = footprint_half_extents(placement.piece, placement.face, placement.yaw)
    mast = SHIP.mast_width / 2 if shape.yard is not None else 0.0
    gap_u = placement.u * shape.length - half_u - mast
    gap_v = (placement.v + 1) * shape.half_width - half_v if placement.area in DECK_AREAS else 1.0
    return gap_u, gap_v


def footprint_problem(placement: Placement) -> str | None:
    """Why the placement is not allowed (a sentence), or None when it is.

    The point must lie in the area (0 <= u <= 1, -1 <= v <= 1) and the footprint may stick
    out over the ship's side or ends but not across the area's inner edges: the mast (and the
    other half of a yard), or the deck's centre lines into another quarter.
    """
    if placement.piece not in range(len(PIECES)):
        return f"there is no piece type {placement.piece}"
    if placement.area not in AREAS:
        return f"there is no area {placement.area}; the areas are 1 to 10"
    if placement.face not in FACES:
        return f"'{placement.face}' is not a resting face; the faces are {', '.join(FACES)}"
    values = (placement.u, placement.v, placement.yaw)
    if not all(isfinite(x) for x in values):
        return "u, v and the yaw must be finite numbers"
    if not (0.0 <= placement.u <= 1.0 and -1.0 <= placement.v <= 1.0):
        return "the point must lie in the area: u from 0 to 1 and v from -1 to 1"
    gap_u, gap_v = _inner_gaps(placement)
    name = PIECE_NAMES[placement.piece]
    if gap_u < 0:
        inner = "the mast" if placement.area not in DECK_AREAS else "midships"
        need = placement.u - gap_u / area_shape(placement.area).length
        return (
            f"the {name} would reach past {inner} into another area; "
            f"move it out to u >= {need:.2f} or turn it"
        )
    if gap_v < 0:
        need = placement.v - gap_v / area_shape(placement.area).half_width
        return (
            f"the {name} would reach over the centre line into another quarter; "
            f"move it out to v >= {need:.2f} or turn it"
        )
    return None


def clamp_to_area(placement: Placement) -> Placement:
    """The nearest allowed placement with the same piece, yaw and face (used to keep execution
    noise from carrying a piece through the mast)."""
    shape = area_shape(placement.area)
    half_u, half_v = footprint_half_extents(placement.piece, placement.face, placement.yaw)
    mast = SHIP.mast_width / 2 if shape.yard is not None else 0.0
    u = min(max(placement.u, (half_u + mast) / shape.length), 1.0)
    v = min(max(placement.v, -1.0), 1.0)
    if placement.area in DECK_AREAS:
        v = max(v, min(half_v / shape.half_width - 1, 1.0))
    return Placement(placement.piece, placement.area, u, v, placement.yaw, placement.face)
