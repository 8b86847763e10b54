"""Riff Raff's components as data: cards, cargo, the ship's areas, dimensions and tunables.

Every length is in metres, every mass in kilograms, every time in seconds. The ship's frame:
x points to the bow (fore), y to port, z up along the mast; the pivot of the cardan joint is
the origin of the ship's frame. Nothing here imports the physics engine, so the rules can use
the geometry (areas, footprints) without it.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import cos, radians, sin
from typing import Final

__all__ = [
    "AREAS",
    "CARD_NUMBERS",
    "DECK_AREAS",
    "FACES",
    "PIECES",
    "PIECE_NAMES",
    "PIECE_WORDS",
    "SHIP",
    "TUNING",
    "YARD_AREAS",
    "AreaShape",
    "PieceSpec",
    "ShipSpec",
    "Tuning",
    "YardSpec",
    "area_shape",
    "footprint_half_extents",
    "piece_index",
    "sets_per_player",
]

CARD_NUMBERS: Final = tuple(range(1, 11))
DECK_AREAS: Final = (1, 2, 3, 4)
YARD_AREAS: Final = (5, 6, 7, 8, 9, 10)
AREAS: Final = DECK_AREAS + YARD_AREAS


def sets_per_player(players: int) -> int:
    """Sets of 8 cargo pieces per player: two in the 2-player game, else one."""
    return 2 if players == 2 else 1


# --- cargo --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PieceSpec:
    """One cargo type: its name, mass and size (x along its long axis, y across, z up)."""

    name: str
    mass: float
    size: tuple[float, float, float]
    rolls: bool = False  # pieces with a rounded underside get rolling friction (condim 6)


PIECES: Final = (
    PieceSpec("boat", 0.014, (0.070, 0.020, 0.015), rolls=True),
    PieceSpec("barrel", 0.008, (0.022, 0.022, 0.025), rolls=True),
    PieceSpec("flacon", 0.020, (0.026, 0.026, 0.045)),
    PieceSpec("box", 0.023, (0.040, 0.030, 0.030)),
    PieceSpec("sailor", 0.007, (0.012, 0.018, 0.050)),
    PieceSpec("plank", 0.005, (0.080, 0.015, 0.006)),
    # the rat's belly is round in section: without rolling friction it rocked on the ship for
    # ever in the engine, and one rocking rat kept a window running to its cap
    PieceSpec("rat", 0.006, (0.040, 0.015, 0.015), rolls=True),
    PieceSpec("chest", 0.013, (0.035, 0.022, 0.025)),
)
PIECE_NAMES: Final = tuple(p.name for p in PIECES)
PIECE_WORDS: Final = tuple({"flacon": "bottle", "box": "crate"}.get(n, n) for n in PIECE_NAMES)
"""The pieces as people call them, the web client's words: a 'flacon' of the notation is a
bottle, a 'box' a crate (both words are read as actions too, see `piece_index`)."""

FACES: Final = ("up", "side", "end")
"""Resting faces: 'up' as built (long axis along the area, height z), 'side' turned a quarter
about the long axis (the y size becomes the height), 'end' stood on its end (the x size becomes
the height)."""


def piece_index(name: str) -> int | None:
    """The type index of a piece name (also 'crate' for box, 'bottle' for flacon), or None."""
    word = {"crate": "box", "bottle": "flacon"}.get(name.strip().lower(), name.strip().lower())
    return PIECE_NAMES.index(word) if word in PIECE_NAMES else None


def footprint_half_extents(piece: int, face: str, yaw_degrees: float) -> tuple[float, float]:
    """Half the size of the piece's footprint along the area's u and v axes (a bounding box)."""
    x, y, z = PIECES[piece].size
    length, width = {"up": (x, y), "side": (x, z), "end": (z, y)}[face]
    c, s = abs(cos(radians(yaw_degrees))), abs(sin(radians(yaw_degrees)))
    return (c * length + s * width) / 2, (s * length + c * width) / 2


# --- the ship -----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class YardSpec:
    """A yard: the two areas on it, its top face above the deck, length and mass."""

    areas: tuple[int, int]  # (port half, starboard half)
    height: float
    length: float
    mass: float


@dataclass(frozen=True, slots=True)
class ShipSpec:
    pivot_height: float = 0.30  # the cardan joint above the table
    ball_radius: float = 0.022
    hull_size: tuple[float, float, float] = (0.28, 0.10, 0.05)
    hull_mass: float = 0.15
    deck_height: float = 0.08  # the deck above the pivot
    mast_width: float = 0.012
    mast_height: float = 0.40
    mast_mass: float = 0.03
    rod_mass: float = 0.02  # the ball rod between the pivot and the ball
    yard_width: float = 0.035
    yard_thickness: float = 0.008
    yards: tuple[YardSpec, ...] = (
        YardSpec((5, 6), 0.15, 0.30, 0.015),
        YardSpec((7, 8), 0.25, 0.26, 0.013),
        YardSpec((9, 10), 0.35, 0.22, 0.011),
    )
    joint_range: float = 40.0  # degrees, roll and pitch
    yard_turn_range: float = 25.0  # degrees a yard turns about the mast on its peg
    yard_seesaw_range: float = 3.0  # degrees a yard see-saws on its peg
    cone_top: tuple[float, float] = (0.035, 0.27)  # radius and height of the wave cone's top
    cone_base_radius: float = 0.22


SHIP: Final = ShipSpec()


@dataclass(frozen=True, slots=True)
class Tuning:
    """The values that set the feel of the game, and the simulation settings."""

    # the stiffer ship (issue 14): a box at u 0.9 of area 5 heels the empty ship about 3.6°
    # (target 3-6°; a stiffer ball would carry more cargo but heel it less than 3°), and the
    # empty ship swings with a period of about 1.5 s (target 1.4-2.2 s; the ball hangs as low
    # as the table allows, a shorter drop would swing faster than 1.4 s)
    ball_mass: float = 0.33
    ball_drop: float = 0.26  # the ball's centre below the pivot (its bottom 2 cm above the table)
    joint_damping: float = 0.05  # N·m·s/rad, roll and pitch: with the dry friction below, the
    # empty ship swings past upright once or twice after a push and rests within a second
    joint_friction: float = 0.005  # N·m of dry friction in the cardan joint: the swing stops
    # within about 0.5° of its resting angle and windows end sooner (0.001 N·m and 0.1
    # N·m·s/rad: 1.29 and 1.51 s simulated with 8 and 24 pieces; now 1.14 and 1.34 s)
    yard_damping: float = 0.002  # turning and see-sawing on the pegs
    yard_friction: float = 0.02  # N·m of dry friction on the pegs
    friction: float = 0.5  # wood on wood (0.45 let 0.36 pieces fall per placement in 16
    # seeded 4-player careful games, 0.5 lets 0.31; the issue asks for 0.10-0.35)
    rolling_friction: float = 0.0005
    timestep: float = 1 / 240
    integrator: str = "Euler"  # implicitfast at 1/120 s never let the loaded ship rest
    cone: str = "elliptic"  # pyramidal cones made a loaded ship's windows longer
    solver: str = "Newton"  # CG and PGS need many more iterations for the same contacts
    iterations: int = 50  # the solver's iterations per step, at most (Newton needs about 6)
    ls_iterations: int = 20
    tolerance: float = 1e-8  # 1e-5 saved no iterations
    jacobian: str = "auto"  # sparse here; dense is six times slower with 24 pieces
    condim: int = 4  # contact dimensions of cargo: friction and torsion
    condim_rolling: int = 6  # round pieces also resist rolling (4 saves a tenth, barrels roll)
    multiccd: bool = True  # several contact points per pair: without, pieces teeter and walk
    solref: float = 0.01
    impratio: float = 10.0
    noslip_iterations: int = 0  # extra passes that stop contact creep (each costs ~5% a step)
    dry_solimp: float = 0.99  # impedance of the joints' dry friction: near 1, it holds
    settle_min: float = 0.5  # simulated seconds before rest is checked
    settle_max: float = 3.0  # the settle window's end at the latest, when all goes well
    settle_cap: float = 8.0  # the extension's end: a window still moving runs on to this
    calm_rounds: int = 4  # after the cap: motion taken out, then this many short settles
    calm_time: float = 0.5  # simulated seconds of each calming settle
    check_every: int = 6  # steps between checks for falls and rest (25 ms)
    # at rest: for `rest_checks` checks in a row no piece moved more than `rest_move` from where
    # it was when the quiet began, the ship turned slower than `rest_turn` and its speed changed
    # less than `rest_turn_accel` (so a swing's turning point is not taken for rest)
    rest_move: float = 0.0005  # metres
    # (0.01 rad/s and 0.03 rad/s² ran windows 0.3-0.6 s longer; the ship left at these rates
    # is within about 0.2° of where it comes to rest)
    rest_turn: float = 0.02  # rad/s
    rest_turn_accel: float = 0.06  # rad/s²
    rest_checks: int = 4  # consecutive checks at rest that end the window
    # carrying: a loaded ship swings on slowly long after its cargo has stopped sliding (24
    # pieces: still on the ship after about 1.1 s, the ship at rest after about 2.9 s). Once no
    # piece has moved on the ship for `carry_checks` checks, the ship swings on with the cargo
    # fixed to it as one rigid body, without the cargo's contacts, until it rests or has turned
    # `carry_turn`; then the contacts take over again and rest is checked as always
    carry: bool = True
    carry_checks: int = 2  # 4 carried 0.5 s less per window with 24 pieces
    carry_turn: float = radians(2.0)  # larger jumps set rocking pieces (a rat) swinging
    # sleeping: a piece that has not moved on the ship for `sleep_checks` checks, and the pieces
    # of the resting board when a window starts, are carried by their part of the ship (its
    # mass added to the part's, moved along with it) and drop their contacts with the ship and
    # with other sleeping pieces, most of a loaded step's cost, if they touch no restless
    # piece; a piece wakes when a restless piece touches it or the ship has turned
    # `sleep_turn` since it fell asleep
    sleep: bool = True
    sleep_checks: int = 4
    sleep_turn: float = radians(1.0)
    fall_height: float = 0.22  # a piece whose centre is lower than this has fallen
    release_gap: float = 0.003  # the gap under a piece when it is let go
    sample_every: int = 8  # steps between frames of the animation (30 per second)
    # execution noise at steadiness 1 on the deck, and how it grows
    noise_position: float = 0.006  # metres along u and across v
    noise_yaw: float = 6.0  # degrees
    noise_height: float = 0.003  # metres, upwards only
    noise_kick: float = 0.03  # rad/s given to the ship at release
    noise_per_metre: float = 2.5  # extra factor per metre of yard height above the deck
    noise_per_motion: float = 4.0  # extra factor per rad/s of the ship's motion


TUNING: Final = Tuning()


# --- areas --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class AreaShape:
    """An area as a rectangle on its surface, in the frame of the part that carries it.

    A point (u, v) of the area: u from 0 at the inner end (the mast, or midships) to 1 at the
    outer end (the yard's tip, the bow or the stern); v from -1 to 1 across, 0 on the middle.
    On the deck v = -1 is the centre line and v = 1 the ship's side; on a yard v = 1 is the
    yard's fore edge.
    `yard` is the yard's index (0 lowest) or None for the deck.
    """

    area: int
    yard: int | None
    origin: tuple[float, float]  # the inner end's middle, in the part's (x, y)
    u_axis: tuple[float, float]  # unit vector along u in the part's (x, y)
    v_axis: tuple[float, float]  # unit vector along v (outboard on the deck, fore on yards)
    length: float  # from u = 0 to u = 1
    half_width: float  # from v = 0 to v = 1
    surface: float  # height of the top surface in the part's frame

    def point(self, u: float, v: float) -> tuple[float, float]:
        """The part-frame (x, y) of the area point (u, v)."""
        ux, uy = self.u_axis
        vx, vy = self.v_axis
        return (
            self.origin[0] + ux * u * self.length + vx * v * self.half_width,
            self.origin[1] + uy * u * self.length + vy * v * self.half_width,
        )


def _deck_shape(area: int) -> AreaShape:
    length, width, _ = SHIP.hull_size
    fore = area in (1, 2)
    port = area in (1, 3)
    side = 1.0 if port else -1.0
    return AreaShape(
        area=area,
        yard=None,
        origin=(0.0, side * width / 4),
        u_axis=(1.0, 0.0) if fore else (-1.0, 0.0),
        v_axis=(0.0, side),
        length=length / 2,
        half_width=width / 4,
        surface=SHIP.deck_height,
    )


def _yard_shape(area: int) -> AreaShape:
    yard = (area - 5) // 2
    port = area % 2 == 1
    return AreaShape(
        area=area,
        yard=yard,
        origin=(0.0, 0.0),
        u_axis=(0.0, 1.0) if port else (0.0, -1.0),
        v_axis=(1.0, 0.0),
        length=SHIP.yards[yard].length / 2,
        half_width=SHIP.yard_width / 2,
        surface=SHIP.yard_thickness / 2,
    )


def area_shape(area: int) -> AreaShape:
    """The rectangle of ship area 1..10 (deck quarters are in the ship's frame, yard halves in
    their yard's frame, whose origin is the yard's centre on the mast)."""
    if area not in AREAS:
        raise ValueError(f"there is no area {area}; the areas are 1 to 10")
    return _deck_shape(area) if area in DECK_AREAS else _yard_shape(area)
