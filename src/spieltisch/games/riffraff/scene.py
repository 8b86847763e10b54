"""The ship and the cargo as plain data for a 3D client, read from `data.py`.

The browser builds its scene from this one description (served at
/api/games/riffraff/scene), so the drawn ship has the simulated dimensions. Lengths are in
metres in the frames of `data.py`: the world has z up with the table at z = 0; the ship's
frame has its origin at the pivot, x to the bow, y to port. A cargo piece is drawn as
primitives centred on its bounding box, sized from `PieceSpec.size`. Nothing here imports the
physics engine.
"""

from __future__ import annotations

from dataclasses import asdict
from functools import cache
from typing import Final

from spieltisch.core.protocol import JsonValue
from spieltisch.games.riffraff.board import JOINT_NAMES
from spieltisch.games.riffraff.data import (
    AREAS,
    DECK_AREAS,
    FACES,
    PIECES,
    SHIP,
    TUNING,
    area_shape,
)

__all__ = ["COLOURS", "piece_parts", "scene_json"]

COLOURS: Final = {
    "boat": "#d98c33",
    "barrel": "#9a5a26",
    "flacon": "#4dbf8c",
    "box": "#e6cc4d",
    "sailor": "#3359cc",
    "plank": "#bf9966",
    "rat": "#737373",
    "chest": "#cc3333",
}
"""One colour per cargo type (colour goes with the type, as in the box)."""

Part = dict[str, JsonValue]


def _part(shape: str, size: tuple[float, ...], at: tuple[float, float, float]) -> Part:
    """A primitive: 'box' (full x, y, z), 'cylinder' (radius, height; axis z), 'sphere'
    (radius), 'ellipsoid' (half x, y, z), 'lid' (a half cylinder: radius, length along x)."""
    return {"shape": shape, "size": [round(s, 6) for s in size], "at": [round(a, 6) for a in at]}


def piece_parts(name: str, size: tuple[float, float, float]) -> list[Part]:
    """The primitives of one cargo type, centred on its bounding box `size` (x, y, z)."""
    x, y, z = size
    if name == "barrel":
        return [_part("cylinder", (x / 2, z), (0, 0, 0))]
    if name == "boat":
        return [_part("ellipsoid", (x / 2, y / 2, z / 2), (0, 0, 0))]
    if name == "flacon":
        bulb, neck = z * 0.53, z * 0.47
        return [
            _part("cylinder", (x / 2, bulb), (0, 0, -z / 2 + bulb / 2)),
            _part("cylinder", (x * 0.21, neck), (0, 0, z / 2 - neck / 2)),
        ]
    if name == "sailor":
        head = x / 2
        body = z - 2 * head
        return [
            _part("box", (x, y * 0.55, body), (0, 0, -z / 2 + body / 2)),
            _part("sphere", (head,), (0, 0, z / 2 - head)),
            _part("box", (x * 0.66, y, z * 0.08), (0, 0, z * 0.18)),
        ]
    if name == "rat":
        body = x * 0.62
        return [
            _part("ellipsoid", (body / 2, y / 2, z / 2), (-x / 2 + body / 2, 0, 0)),
            _part("box", (x - body, y * 0.2, y * 0.2), (x / 2 - (x - body) / 2, 0, -z * 0.2)),
        ]
    if name == "chest":
        lid = y * 0.32
        base = z - lid
        return [
            _part("box", (x, y, base), (0, 0, -z / 2 + base / 2)),
            _part("lid", (y / 2, x), (0, 0, z / 2 - lid)),
        ]
    return [_part("box", (x, y, z), (0, 0, 0))]  # box, plank


def _areas() -> list[JsonValue]:
    shapes = []
    for area in AREAS:
        shape = area_shape(area)
        shapes.append({**asdict(shape), "deck": area in DECK_AREAS})
    return shapes


@cache
def scene_json() -> dict[str, JsonValue]:
    """Everything a client needs to draw the ship, its areas and the cargo."""
    ship = asdict(SHIP)
    ship["yards"] = [{**asdict(y), "areas": list(y.areas)} for y in SHIP.yards]
    return {
        "ship": ship,
        "ball_drop": TUNING.ball_drop,
        "joints": list(JOINT_NAMES),
        "faces": list(FACES),
        "areas": _areas(),
        "pieces": [
            {
                "name": spec.name,
                "mass": spec.mass,
                "size": list(spec.size),
                "colour": COLOURS[spec.name],
                "parts": piece_parts(spec.name, spec.size),
            }
            for spec in PIECES
        ],
    }
