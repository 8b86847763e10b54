"""The ship in MuJoCo: the only module that imports the physics engine.

The model: the ship hangs in a cardan joint (a roll hinge about the ship's long axis, then a
pitch hinge across it) at the top of the wave cone, with the steel ball below the pivot as the
counterweight. Hull, mast and the three yards are built from boxes; each yard turns a little
about the mast and see-saws on its peg. A model holds exactly the cargo taking part in a
placement (the pieces on board and the new one): compiling one takes about a millisecond, and
pieces off the ship would cost every step time. Models are cached by their cargo types. A
piece that falls is parked far from the ship and from every other piece, at rest; it falls
freely there (touching nothing) until the next placement's model leaves it out.

Contacts between convex shapes use MuJoCo's multi-contact option (multiccd): with a single
contact point a cylinder or box standing on a face teeters and walks off.

The settle window ends when the ship and cargo rest (`Tuning.rest_*`). While the cargo rests on
a ship that still swings, the ship is carried on with its cargo fixed to it (`Tuning.carry*`),
a cheap rigid swing without contacts, and the contacts then take over again. Before that, each
piece that rests on the ship while others still move sleeps (`Tuning.sleep*`), and the pieces
of the resting board start the window asleep: the hull or yard it lies on carries its mass (in
a massless ballast body fixed to that part) and moves it along, and it keeps only its contacts
with awake pieces, until a restless piece touches it or the ship turns too far. A window still
moving after `settle_max` runs on to `settle_cap`, and after that its motion is taken out and
it settles from standstill a few short times; falls in this extension count like any other. So
the board a placement leaves is a resting one, and nothing falls between turns (`drift` checks
this).

Determinism: a fixed time step, one thread, and every random number from the numpy Generator
the caller passes in. A placement starts from a fresh engine state built from a `Board` (all
velocities zero), so its result depends on its inputs alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache
from math import cos, pi, radians, sin, sqrt

import mujoco  # type: ignore[import-untyped]
import numpy as np
from numpy.typing import NDArray

from spieltisch.games.riffraff.board import (
    JOINT_NAMES,
    Board,
    Fall,
    PiecePose,
    Placement,
    clamp_to_area,
    piece_type,
)
from spieltisch.games.riffraff.data import (
    AREAS,
    PIECES,
    SHIP,
    TUNING,
    Tuning,
    area_shape,
)

__all__ = [
    "Drift",
    "Frame",
    "PlacementResult",
    "ShipModel",
    "drift",
    "generator",
    "noise_scale",
    "ship_model",
    "simulate_placement",
    "tilt_degrees",
]

Pose = tuple[float, float, float, float, float, float, float]
_SHIP_GROUP, _CARGO_GROUP, _SEA_GROUP = 0, 1, 2
_CARGO_CONTYPE, _CARGO_CONAFFINITY = 2, 3  # cargo touches the ship, the sea and cargo
_PARK_HEIGHT = 5.0
_RAY_START = 0.09
"""Rays looking for the surface under a new piece start this far above the area: below the
next yard up (yards are 10 cm apart), above any cargo stacked on the area."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One sample of the motion for an animation: the time, the ship's joint angles and the
    pose of every piece taking part (in the order of `PlacementResult.bodies`)."""

    time: float
    joints: tuple[float, ...]
    poses: tuple[Pose, ...]


@dataclass(frozen=True, slots=True)
class PlacementResult:
    """What one placement did: the ship at rest afterwards, the pieces that fell (in the
    order they landed), the ship's tilt in degrees, how much it still moved at the end of the
    window (rad/s), the simulated time, and the sampled motion."""

    board: Board
    fallen: tuple[Fall, ...]
    roll: float
    pitch: float
    motion: float
    seconds: float
    bodies: tuple[int, ...]
    trajectory: tuple[Frame, ...]


def tilt_degrees(joints: tuple[float, ...]) -> tuple[float, float]:
    """Roll (positive: heeling to starboard) and pitch (positive: bow down) in degrees."""
    return joints[0] * 180 / pi, joints[1] * 180 / pi


# --- the model ----------------------------------------------------------------------------------
def _f(*values: float) -> str:
    return " ".join(f"{v:.6g}" for v in values)


def _cone_mesh() -> str:
    (top_radius, top_height), base = SHIP.cone_top, SHIP.cone_base_radius
    points = []
    for i in range(16):
        angle = 2 * pi * i / 16
        points += [top_radius * cos(angle), top_radius * sin(angle), top_height]
        points += [base * cos(angle), base * sin(angle), 0.0]
    return f'<mesh name="cone" vertex="{_f(*points)}"/>'


def _cargo_geoms(kind: str) -> list[str]:
    """The primitives of one cargo type, centred on its bounding box."""
    g = f'group="{_CARGO_GROUP}"'
    shapes = {
        "boat": [f'<geom type="ellipsoid" size="0.035 0.01 0.0075" {g}/>'],
        "barrel": [f'<geom type="cylinder" size="0.011 0.0125" {g}/>'],
        "flacon": [
            f'<geom type="cylinder" size="0.013 0.012" pos="0 0 -0.0105" {g}/>',
            f'<geom type="cylinder" size="0.0055 0.0105" pos="0 0 0.012" {g}/>',
        ],
        "box": [f'<geom type="box" size="0.02 0.015 0.015" {g}/>'],
        "sailor": [
            f'<geom type="box" size="0.006 0.005 0.02" pos="0 0 -0.005" {g}/>',
            f'<geom type="sphere" size="0.006" pos="0 0 0.019" {g}/>',
            f'<geom type="box" size="0.004 0.009 0.002" pos="0 0 0.009" {g}/>',
            f'<geom type="box" size="0.004 0.002 0.004" pos="0 0.007 0.013" {g}/>',
            f'<geom type="box" size="0.004 0.002 0.004" pos="0 -0.007 0.013" {g}/>',
        ],
        "plank": [f'<geom type="box" size="0.04 0.0075 0.003" {g}/>'],
        "rat": [
            # a flat belly: a body round in section would roll off any tilted area
            f'<geom type="ellipsoid" size="0.0125 0.0075 0.006" pos="-0.0075 0 -0.0015" {g}/>',
            f'<geom type="capsule" fromto="0.005 0 0 0.019 0 -0.006" size="0.0015" {g}/>',
        ],
        "chest": [
            f'<geom type="box" size="0.0175 0.011 0.009" pos="0 0 -0.0035" {g}/>',
            f'<geom type="cylinder" size="0.007 0.0175" pos="0 0 0.0055" euler="0 90 0" {g}/>',
        ],
    }
    return shapes[kind]


_COLOURS = (
    "0.85 0.55 0.2 1",  # boat
    "0.6 0.35 0.15 1",  # barrel
    "0.3 0.75 0.55 1",  # flacon
    "0.9 0.8 0.3 1",  # box
    "0.2 0.35 0.8 1",  # sailor
    "0.75 0.6 0.4 1",  # plank
    "0.45 0.45 0.45 1",  # rat
    "0.8 0.2 0.2 1",  # chest
)


def _cargo_body(index: int, kind: int, tuning: Tuning) -> str:
    spec = PIECES[kind]
    condim = tuning.condim_rolling if spec.rolls else tuning.condim
    contact = (
        f'condim="{condim}" contype="{_CARGO_CONTYPE}" conaffinity="{_CARGO_CONAFFINITY}" '
        f'rgba="{_COLOURS[kind]}" '
    )
    geoms = "".join(_cargo_geoms(spec.name)).replace("<geom ", "<geom " + contact)
    park = _f(*_park_position(index))
    return f'<body name="cargo{index}" pos="{park}"><freejoint name="cargo{index}"/>{geoms}</body>'


def _park_position(index: int) -> tuple[float, float, float]:
    return (2.0 + 0.5 * (index % 8), 2.0 + 0.5 * (index // 8), _PARK_HEIGHT)


def _dry(tuning: Tuning) -> str:
    """Joint attributes that make dry friction hold: MuJoCo's default soft friction lets a
    joint under a steady torque creep round slowly (a yard on its peg, the loaded ship)."""
    return f'solimpfriction="{tuning.dry_solimp} {tuning.dry_solimp} 0.001"'


def _ballast(part: str) -> str:
    """A body without mass or shape fixed to `part`: sleeping pieces' mass is put there. (Not
    in the part itself: the engine finds what a body may touch from boxes around its centre of
    mass, and those would move with it.)"""
    return (
        f'<body name="ballast_{part}"><inertial pos="0 0 0" mass="0" diaginertia="0 0 0"/></body>'
    )


def _yard_body(number: int, tuning: Tuning) -> str:
    yard = SHIP.yards[number]
    name = yard.areas[0]
    centre = SHIP.deck_height + yard.height - SHIP.yard_thickness / 2
    size = _f(SHIP.yard_width / 2, yard.length / 2, SHIP.yard_thickness / 2)
    joint = f'damping="{tuning.yard_damping}" frictionloss="{tuning.yard_friction}" {_dry(tuning)}'
    return (
        f'<body name="yard{name}" pos="0 0 {centre:.6g}">'
        f'<joint name="turn{name}" type="hinge" axis="0 0 1" range="-{SHIP.yard_turn_range} '
        f'{SHIP.yard_turn_range}" {joint}/>'
        f'<joint name="seesaw{name}" type="hinge" axis="1 0 0" '
        f'range="-{SHIP.yard_seesaw_range} {SHIP.yard_seesaw_range}" {joint}/>'
        f'<geom name="yard{name}" type="box" size="{size}" mass="{yard.mass}" '
        f'group="{_SHIP_GROUP}" contype="1" conaffinity="2" rgba="0.7 0.5 0.3 1"/>'
        f"{_ballast(f'yard{name}')}</body>"
    )


def _ship_body(tuning: Tuning) -> str:
    length, width, height = SHIP.hull_size
    hull_z = SHIP.deck_height - height / 2
    mast_z = SHIP.deck_height + SHIP.mast_height / 2
    mast = SHIP.mast_width / 2
    ship = f'group="{_SHIP_GROUP}" contype="1" conaffinity="2" rgba="0.55 0.35 0.2 1"'
    hinge = (
        f'damping="{tuning.joint_damping}" frictionloss="{tuning.joint_friction}" {_dry(tuning)} '
        f'range="-{SHIP.joint_range} {SHIP.joint_range}"'
    )
    yards = "".join(_yard_body(i, tuning) for i in range(len(SHIP.yards)))
    return (
        f'<body name="roll" pos="0 0 {SHIP.pivot_height}">'
        f'<joint name="roll" type="hinge" axis="1 0 0" {hinge}/>'
        f'<inertial pos="0 0 0" mass="0.001" diaginertia="1e-7 1e-7 1e-7"/>'
        f'<body name="ship"><joint name="pitch" type="hinge" axis="0 1 0" {hinge}/>'
        f'<geom name="ball" type="sphere" size="{SHIP.ball_radius}" pos="0 0 -{tuning.ball_drop}" '
        f'mass="{tuning.ball_mass}" contype="0" conaffinity="0" group="{_SHIP_GROUP}"/>'
        f'<geom name="rod" type="cylinder" fromto="0 0 -{tuning.ball_drop} 0 0 {hull_z:.6g}" '
        f'size="0.003" mass="{SHIP.rod_mass}" contype="0" conaffinity="0" group="3"/>'
        f'<geom name="hull" type="box" size="{_f(length / 2, width / 2, height / 2)}" '
        f'pos="0 0 {hull_z:.6g}" mass="{SHIP.hull_mass}" {ship}/>'
        f'<geom name="mast" type="box" size="{_f(mast, mast, SHIP.mast_height / 2)}" '
        f'pos="0 0 {mast_z:.6g}" mass="{SHIP.mast_mass}" {ship}/>'
        f"{_ballast('ship')}{yards}</body></body>"
    )


def model_xml(types: tuple[int, ...], tuning: Tuning = TUNING) -> str:
    """The MJCF text of the ship with cargo pieces of `types` (body 'cargoN' is types[N])."""
    cargo = "".join(_cargo_body(i, kind, tuning) for i, kind in enumerate(types))
    friction = _f(tuning.friction, 0.005, tuning.rolling_friction)
    return (
        '<mujoco model="riffraff">'
        f'<option timestep="{tuning.timestep!r}" integrator="{tuning.integrator}" '
        f'solver="{tuning.solver}" cone="{tuning.cone}" impratio="{tuning.impratio}" '
        f'iterations="{tuning.iterations}" '
        f'ls_iterations="{tuning.ls_iterations}" noslip_iterations="{tuning.noslip_iterations}" '
        f'tolerance="{tuning.tolerance}" jacobian="{tuning.jacobian}">'
        f'<flag multiccd="{"enable" if tuning.multiccd else "disable"}"/></option>'
        '<visual><global offwidth="1280" offheight="960"/></visual>'
        f'<default><geom friction="{friction}" solref="{tuning.solref} 1" density="650"/></default>'
        f"<asset>{_cone_mesh()}</asset>"
        "<worldbody>"
        '<light pos="0.3 -0.5 1.2" dir="-0.3 0.5 -1" directional="true"/>'
        f'<geom name="table" type="box" size="0.6 0.6 0.01" pos="0 0 -0.01" group="{_SEA_GROUP}" '
        'contype="4" conaffinity="2" rgba="0.55 0.4 0.25 1"/>'
        f'<geom name="cone" type="mesh" mesh="cone" group="{_SEA_GROUP}" contype="4" '
        'conaffinity="2" rgba="0.2 0.45 0.8 1"/>'
        f"{_ship_body(tuning)}{cargo}</worldbody></mujoco>"
    )


class ShipModel:
    """The compiled model with its lookup tables; cargo is addressed by slot (0, 1, ...)."""

    def __init__(self, types: tuple[int, ...], tuning: Tuning = TUNING) -> None:
        self.tuning = tuning
        self.types = types
        cargo_count = len(types)
        self.cargo_count = cargo_count
        self.model = mujoco.MjModel.from_xml_string(model_xml(types, tuning))
        self._set_cargo_masses()
        m = self.model
        self.cargo_body = np.array(
            [self._id(mujoco.mjtObj.mjOBJ_BODY, f"cargo{i}") for i in range(cargo_count)],
            dtype=int,
        )
        self.cargo_qpos = np.array(
            [m.jnt_qposadr[m.body_jntadr[b]] for b in self.cargo_body], dtype=int
        )
        self.cargo_dof = np.array(
            [m.jnt_dofadr[m.body_jntadr[b]] for b in self.cargo_body], dtype=int
        )
        self.joint_qpos = np.array(
            [m.jnt_qposadr[self._id(mujoco.mjtObj.mjOBJ_JOINT, n)] for n in JOINT_NAMES]
        )
        self.joint_dof = np.array(
            [m.jnt_dofadr[self._id(mujoco.mjtObj.mjOBJ_JOINT, n)] for n in JOINT_NAMES]
        )
        self.ship_body = self._id(mujoco.mjtObj.mjOBJ_BODY, "ship")
        yard_joints = [
            self._id(mujoco.mjtObj.mjOBJ_JOINT, f"{kind}{y.areas[0]}")
            for y in SHIP.yards
            for kind in ("turn", "seesaw")
        ]
        self.yard_qpos = m.jnt_qposadr[yard_joints]
        self.yard_dof = m.jnt_dofadr[yard_joints]
        self.yard_bodies = tuple(
            self._id(mujoco.mjtObj.mjOBJ_BODY, f"yard{y.areas[0]}") for y in SHIP.yards
        )
        self.area_body = dict.fromkeys(AREAS, self.ship_body)
        self.ballast = {self.ship_body: self._id(mujoco.mjtObj.mjOBJ_BODY, "ballast_ship")}
        for yard, body in zip(SHIP.yards, self.yard_bodies, strict=True):
            self.area_body.update(dict.fromkeys(yard.areas, body))
            ballast = f"ballast_yard{yard.areas[0]}"
            self.ballast[body] = self._id(mujoco.mjtObj.mjOBJ_BODY, ballast)
        m.body_sameframe[list(self.ballast.values())] = 0  # its centre of mass will move
        self.cargo_geoms = tuple(np.flatnonzero(m.geom_bodyid == b) for b in self.cargo_body)
        self.hull_geom = self._id(mujoco.mjtObj.mjOBJ_GEOM, "hull")
        self.yard_geoms = tuple(
            self._id(mujoco.mjtObj.mjOBJ_GEOM, f"yard{y.areas[0]}") for y in SHIP.yards
        )
        sea = [self._id(mujoco.mjtObj.mjOBJ_GEOM, n) for n in ("table", "cone")]
        self.is_sea = np.zeros(m.ngeom, dtype=bool)
        self.is_sea[sea] = True
        body_to_cargo = np.full(m.nbody, -1)
        body_to_cargo[self.cargo_body] = np.arange(cargo_count)
        self.geom_cargo = body_to_cargo[m.geom_bodyid]
        self.ship_only = np.array([1, 0, 0, 0, 0, 0], dtype=np.uint8)
        self.ship_and_cargo = np.array([1, 1, 0, 0, 0, 0], dtype=np.uint8)

    def _id(self, kind: mujoco.mjtObj, name: str) -> int:
        return int(mujoco.mj_name2id(self.model, kind, name))

    def _set_cargo_masses(self) -> None:
        """Give every cargo body its mass from the data table (inertia scaled alike)."""
        m = self.model
        for i in range(self.cargo_count):
            body = self._id(mujoco.mjtObj.mjOBJ_BODY, f"cargo{i}")
            scale = PIECES[self.types[i]].mass / m.body_mass[body]
            m.body_mass[body] *= scale
            m.body_inertia[body] *= scale


def _quiet_warning(message: str) -> None:
    """MuJoCo's warnings would go to the terminal and a log file; `_Window` reads the
    warning counters instead."""


mujoco.set_mju_user_warning(_quiet_warning)


@lru_cache(maxsize=64)
def ship_model(types: tuple[int, ...]) -> ShipModel:
    """The shared compiled model for cargo of `types` (built on first use)."""
    return ShipModel(types)


# --- from a board to the engine and back ----------------------------------------------------
def _load(ship: ShipModel, board: Board) -> mujoco.MjData:
    """A fresh engine state at rest holding `board` in the first slots (in board order)."""
    m = ship.model
    data = mujoco.MjData(m)
    data.qpos[ship.joint_qpos] = board.joints
    for slot, piece in enumerate(board.pieces):
        address = ship.cargo_qpos[slot]
        data.qpos[address : address + 7] = piece.pose
    _refresh(ship, data)
    return data


def _refresh(ship: ShipModel, data: mujoco.MjData, contacts: bool = False) -> None:
    """Bring the poses and velocities of every body (and with `contacts` the contact list) up
    to date after qpos or qvel were set: the part of `mj_forward` that the checks read, which
    leaves out the constraint solver, most of its cost. (The next step computes it all anew.)"""
    m = ship.model
    mujoco.mj_kinematics(m, data)
    mujoco.mj_comPos(m, data)
    mujoco.mj_comVel(m, data)
    if contacts:
        mujoco.mj_collision(m, data)


def _pose(ship: ShipModel, data: mujoco.MjData, slot: int) -> Pose:
    address = ship.cargo_qpos[slot]
    values = data.qpos[address : address + 7].tolist()
    return (values[0], values[1], values[2], values[3], values[4], values[5], values[6])


def _park(ship: ShipModel, data: mujoco.MjData, slot: int) -> None:
    address, dof = ship.cargo_qpos[slot], ship.cargo_dof[slot]
    data.qpos[address : address + 7] = (*_park_position(slot), 1.0, 0.0, 0.0, 0.0)
    data.qvel[dof : dof + 6] = 0.0


def _unpark(ship: ShipModel, data: mujoco.MjData, slot: int, pose: Pose) -> None:
    address, dof = ship.cargo_qpos[slot], ship.cargo_dof[slot]
    data.qpos[address : address + 7] = pose
    data.qvel[dof : dof + 6] = 0.0


def _ride_along(ship: ShipModel, data: mujoco.MjData, slot: int) -> None:
    """Give the piece in `slot` the velocity it has fixed to the turning ship."""
    turning = np.zeros(6)  # angular, then linear at the ship's origin; world frame
    mujoco.mj_objectVelocity(
        ship.model, data, mujoco.mjtObj.mjOBJ_XBODY, ship.ship_body, turning, 0
    )
    address, dof = ship.cargo_qpos[slot], ship.cargo_dof[slot]
    centre = data.qpos[address : address + 3]
    spin = turning[:3]
    data.qvel[dof : dof + 3] = turning[3:] + np.cross(spin, centre - data.xpos[ship.ship_body])
    orientation = _matrix(data.qpos[address + 3 : address + 7])
    data.qvel[dof + 3 : dof + 6] = orientation.T @ spin  # in the piece's frame


def _in_frame(data: mujoco.MjData, body: int, pose: Pose) -> Pose:
    """A world pose as seen in the frame of `body`."""
    frame = data.xmat[body].reshape(3, 3)
    position = frame.T @ (np.array(pose[:3]) - data.xpos[body])
    inverse, quat = np.zeros(4), np.zeros(4)
    mujoco.mju_negQuat(inverse, data.xquat[body])
    mujoco.mju_mulQuat(quat, inverse, np.array(pose[3:]))
    return _as_pose(position, quat)


def _from_frame(data: mujoco.MjData, body: int, pose: Pose) -> Pose:
    """The world pose of a pose in the frame of `body`."""
    position = data.xpos[body] + data.xmat[body].reshape(3, 3) @ np.array(pose[:3])
    quat = np.zeros(4)
    mujoco.mju_mulQuat(quat, data.xquat[body], np.array(pose[3:]))
    return _as_pose(position, quat)


def _centres_on_ship(
    ship: ShipModel, data: mujoco.MjData, bodies: NDArray[np.int_]
) -> NDArray[np.float64]:
    """The centres of mass of `bodies` in the ship's frame (one row each)."""
    frame = data.xmat[ship.ship_body].reshape(3, 3)
    centres: NDArray[np.float64] = (data.xipos[bodies] - data.xpos[ship.ship_body]) @ frame
    return centres


def _as_pose(position: NDArray[np.float64], quat: NDArray[np.float64]) -> Pose:
    x, y, z = position.tolist()
    w, i, j, k = quat.tolist()
    return (x, y, z, w, i, j, k)


@dataclass(frozen=True, slots=True)
class _Inertia:
    """A rigid part's mass, its first moment (mass times centre of mass) and its inertia tensor
    about the origin, in the frame of the body that carries it: parts add up term by term."""

    mass: float
    moment: NDArray[np.float64]
    tensor: NDArray[np.float64]


def _about_origin(mass: float, centre: NDArray[np.float64], own: NDArray[np.float64]) -> _Inertia:
    """A part of `mass` whose centre is at `centre` and whose own inertia tensor (about that
    centre) is `own` (the parallel-axis theorem)."""
    return _Inertia(mass, mass * centre, own + _offset_inertia(mass, centre))


def _offset_inertia(mass: float, centre: NDArray[np.float64]) -> NDArray[np.float64]:
    """The inertia tensor about the origin of a point `mass` at `centre`."""
    return mass * (centre @ centre * np.eye(3) - np.outer(centre, centre))


def _piece_inertia(ship: ShipModel, data: mujoco.MjData, body: int, slot: int) -> _Inertia:
    """The inertia of the piece in `slot`, as it lies now, in the frame of `body`."""
    model, piece = ship.model, ship.cargo_body[slot]
    frame = data.xmat[body].reshape(3, 3)
    axes = frame.T @ data.ximat[piece].reshape(3, 3)
    own = axes @ np.diag(model.body_inertia[piece]) @ axes.T
    centre = frame.T @ (data.xipos[piece] - data.xpos[body])
    return _about_origin(float(model.body_mass[piece]), centre, own)


def _combined(parts: list[_Inertia]) -> _Inertia:
    """Rigid parts joined into one."""
    return _Inertia(
        sum(part.mass for part in parts),
        np.sum([part.moment for part in parts], axis=0),
        np.sum([part.tensor for part in parts], axis=0),
    )


def _set_inertia(model: mujoco.MjModel, body: int, inertia: _Inertia) -> None:
    """Give `body` this mass, centre and inertia (as principal moments and axes)."""
    centre = inertia.moment / inertia.mass
    own = inertia.tensor - _offset_inertia(inertia.mass, centre)
    principal, axes = np.linalg.eigh(own)
    axes[:, 2] = _cross(axes[:, 0], axes[:, 1])  # a rotation, not a reflection
    model.body_mass[body] = inertia.mass
    model.body_ipos[body] = centre
    model.body_iquat[body] = _quaternion(axes)
    model.body_inertia[body] = principal


def _cross(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """The cross product of vectors, or of rows of vectors (numpy's own is slow on small
    arrays, and the sleeping pieces take it at every check)."""
    ax, ay, az = a.T
    bx, by, bz = b.T
    return np.stack((ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx), axis=-1)


_MASS_ARRAYS = ("body_mass", "body_ipos", "body_iquat", "body_inertia", "body_subtreemass")


def _weigh_ballast(ship: ShipModel, saved: dict[str, NDArray[np.float64]]) -> None:
    """Give every body above a ballast in the tree the mass below it (`saved`: the model's
    own mass arrays, without ballast)."""
    model = ship.model
    model.body_subtreemass[:] = saved["body_subtreemass"]
    for body in ship.ballast.values():
        added = model.body_mass[body] - saved["body_mass"][body]
        while added:
            model.body_subtreemass[body] += added
            if body == 0:
                break
            body = model.body_parentid[body]


def _mass_arrays(model: mujoco.MjModel) -> dict[str, NDArray[np.float64]]:
    return {name: getattr(model, name).copy() for name in _MASS_ARRAYS}


def _restore_masses(model: mujoco.MjModel, saved: dict[str, NDArray[np.float64]]) -> None:
    for name, values in saved.items():
        getattr(model, name)[:] = values


@contextmanager
def _cargo_fixed_to_ship(ship: ShipModel, data: mujoco.MjData, slots: list[int]) -> Iterator[None]:
    """The ship carries the mass of the pieces in `slots` as they lie now, in its ballast;
    the model's own masses are given back on leaving."""
    body, saved = ship.ship_body, _mass_arrays(ship.model)
    try:
        pieces = [_piece_inertia(ship, data, body, slot) for slot in slots]
        _set_inertia(ship.model, ship.ballast[body], _combined(pieces))
        _weigh_ballast(ship, saved)
        yield
    finally:
        _restore_masses(ship.model, saved)


# --- placing a piece ---------------------------------------------------------------------------
def _part_frame(
    ship: ShipModel, data: mujoco.MjData, area: int
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """World position and rotation matrix of the part carrying `area` (ship or a yard)."""
    yard = area_shape(area).yard
    body = ship.ship_body if yard is None else ship.yard_bodies[yard]
    return data.xpos[body].copy(), data.xmat[body].reshape(3, 3).copy()


def _rotation_z(degrees: float) -> NDArray[np.float64]:
    c, s = cos(radians(degrees)), sin(radians(degrees))
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


_FACE_ROTATIONS = {
    "up": np.eye(3),
    "side": np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]]),
    "end": np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]]),
}
_HALF_HEIGHT_AXIS = {"up": 2, "side": 1, "end": 0}


def _orientation(placement: Placement, part: NDArray[np.float64]) -> NDArray[np.float64]:
    shape = area_shape(placement.area)
    along = float(np.degrees(np.arctan2(shape.u_axis[1], shape.u_axis[0])))
    turned: NDArray[np.float64] = part @ _rotation_z(along + placement.yaw)
    result: NDArray[np.float64] = turned @ _FACE_ROTATIONS[placement.face]
    return result


def _surface_below(
    ship: ShipModel,
    data: mujoco.MjData,
    points: list[NDArray[np.float64]],
    normal: NDArray[np.float64],
) -> float | None:
    """The highest surface (ship or cargo) under any of `points`, as a distance along `normal`
    from the first point's plane; None when nothing is below."""
    best = None
    geom = np.zeros(1, dtype=np.int32)
    for point in points:
        start = point + normal * _RAY_START
        distance = mujoco.mj_ray(ship.model, data, start, -normal, ship.ship_and_cargo, 0, -1, geom)
        if distance >= 0:
            height = _RAY_START - distance + float(np.dot(point - points[0], normal))
            best = height if best is None else max(best, height)
    return best


def _release_pose(
    ship: ShipModel, data: mujoco.MjData, placement: Placement, lift: float
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Where the piece is let go: centred over (u, v), its lowest point `lift` above the
    highest surface under its footprint."""
    shape = area_shape(placement.area)
    origin, part = _part_frame(ship, data, placement.area)
    x, y = shape.point(placement.u, placement.v)
    normal = part[:, 2]
    centre = origin + part @ np.array([x, y, shape.surface])
    rotation = _orientation(placement, part)
    half = np.array(PIECES[placement.piece].size) / 2
    corners = [centre]
    for sx in (-1, 1):
        for sy in (-1, 1):
            corner = rotation @ (half * np.array([sx, sy, 0.0]))
            corners.append(centre + corner - normal * float(np.dot(corner, normal)))
    surface = _surface_below(ship, data, corners, normal) or 0.0
    half_height = float(half[_HALF_HEIGHT_AXIS[placement.face]])
    position = centre + normal * (surface + half_height + lift)
    return position, rotation


def _overlap(ship: ShipModel, data: mujoco.MjData, slot: int) -> float:
    """How deep the piece in `slot` reaches into anything (0 when it touches nothing)."""
    contacts = data.contact
    cargo = ship.geom_cargo[contacts.geom[: data.ncon]]
    mine = (cargo == slot).any(axis=1)
    return float(max(0.0, -contacts.dist[: data.ncon][mine].min())) if mine.any() else 0.0


def _clear_overlap(ship: ShipModel, data: mujoco.MjData, slot: int, area: int, gap: float) -> None:
    """Lift a new piece off whatever it overlaps, `gap` clear, along the area's normal: the
    rays that find the surface under it can miss a narrow or round top (a flacon's bulb)."""
    address = ship.cargo_qpos[slot]
    normal = _part_frame(ship, data, area)[1][:, 2]
    for _ in range(4):
        _refresh(ship, data, contacts=True)
        depth = _overlap(ship, data, slot)
        if depth == 0.0:
            return
        data.qpos[address : address + 3] += normal * (depth + gap)
    _refresh(ship, data, contacts=True)


def _matrix(quat: NDArray[np.float64]) -> NDArray[np.float64]:
    """The rotation matrix of a unit quaternion."""
    rotation = np.zeros(9)
    mujoco.mju_quat2Mat(rotation, quat)
    return rotation.reshape(3, 3)


def _quaternion(rotation: NDArray[np.float64]) -> NDArray[np.float64]:
    quat = np.zeros(4)
    mujoco.mju_mat2Quat(quat, rotation.reshape(9))
    return quat


@dataclass(frozen=True, slots=True)
class _Noise:
    du: float
    dv: float
    yaw: float
    lift: float
    kick: tuple[float, float]


def _draw_noise(
    generator: np.random.Generator | None, placement: Placement, scale: float, tuning: Tuning
) -> _Noise:
    """Execution noise: always six draws in a fixed order, so the stream stays aligned."""
    if generator is None:
        return _Noise(0.0, 0.0, 0.0, tuning.release_gap, (0.0, 0.0))
    draws = generator.standard_normal(6)
    shape = area_shape(placement.area)
    return _Noise(
        du=float(draws[0]) * tuning.noise_position * scale / shape.length,
        dv=float(draws[1]) * tuning.noise_position * scale / shape.half_width,
        yaw=float(draws[2]) * tuning.noise_yaw * scale,
        lift=tuning.release_gap + abs(float(draws[3])) * tuning.noise_height * scale,
        kick=(
            float(draws[4]) * tuning.noise_kick * scale,
            float(draws[5]) * tuning.noise_kick * scale,
        ),
    )


def generator(seed: int | None) -> np.random.Generator | None:
    """The noise generator of one placement, seeded from the game's generator (None: none)."""
    return None if seed is None else np.random.Generator(np.random.PCG64(seed))


def noise_scale(area: int, steadiness: float, motion: float, tuning: Tuning = TUNING) -> float:
    """How much larger than on the deck of a still ship the noise is: it grows with the yard's
    height and the ship's motion, times the seat's steadiness (0 is a perfect hand)."""
    yard = area_shape(area).yard
    height = 0.0 if yard is None else SHIP.yards[yard].height
    return (
        steadiness * (1 + tuning.noise_per_metre * height) * (1 + tuning.noise_per_motion * motion)
    )


# --- the settle window -------------------------------------------------------------------------
class _Window:
    """Steps the engine until the ship and cargo rest, recording falls and frames."""

    def __init__(
        self,
        ship: ShipModel,
        data: mujoco.MjData,
        bodies: tuple[int, ...],
        frames: bool,
        carry: bool = True,
        enough_falls: int | None = None,
    ) -> None:
        self.ship, self.data = ship, data
        self.enough_falls = enough_falls  # the window ends once this many pieces have fallen
        self.tuning = ship.tuning
        self.carry = carry and ship.tuning.carry
        self.bodies = bodies  # the piece number in each slot
        self.on_board = list(range(len(bodies)))  # slots
        self.last_touch = [0.0] * len(bodies)
        self.fallen: list[Fall] = []
        self.landing: dict[int, Pose] = {}
        self.frames: list[Frame] | None = [] if frames else None
        self.steps = 0
        self.unstable = False
        self.quiet_from: NDArray[np.float64] | None = None  # piece centres when all went quiet
        self.last_turning = np.zeros(2)  # the ship's joint speeds at the previous check
        self.still_from: NDArray[np.float64] | None = None  # centres in the ship's frame
        self.still_checks = 0  # checks since no piece moved on the ship
        self.riding: dict[int, Pose] = {}  # while carried: each piece's pose in the ship's frame
        self.sleepers = _Sleepers(ship, data) if ship.tuning.sleep else None

    @property
    def time(self) -> float:
        return self.steps * self.tuning.timestep

    def run(self, hurry: float | None = None) -> None:
        """The window proper, then (rarely) its extension and the final calming; with
        `hurry`, only the window up to that many simulated seconds."""
        try:
            if self.sleepers is not None:  # the board was at rest; the new piece is last
                self.sleepers.sleep_all(self.on_board[:-1])
            self._run(hurry)
        finally:
            self._wake_all()  # the model is shared: every piece gets its contacts back

    def idle(self, seconds: float) -> None:
        """Step for `seconds` whatever happens, with the pieces awake at first (a check
        that a board stays put)."""
        try:
            self._step_until_rest(seconds, seconds)
        finally:
            self._wake_all()

    def _run(self, hurry: float | None) -> None:
        tuning = self.tuning
        self._sample()
        if hurry is not None:
            self._step_until_rest(hurry, min(tuning.settle_min, hurry))
            self._sample()
            return
        rested = self._step_until_rest(tuning.settle_max, tuning.settle_min)
        if not rested and not self.unstable:
            rested = self._step_until_rest(tuning.settle_cap, 0.0)
        for _ in range(tuning.calm_rounds):
            if rested or self.unstable:
                break
            self._calm()
            rested = self._step_until_rest(self.time + tuning.calm_time, 0.0)
        self._sample()

    def _step_until_rest(self, until: float, earliest: float) -> bool:
        """Step until the ship and cargo rest (not before `earliest`) or the time is `until`;
        whether they rest."""
        tuning = self.tuning
        max_steps = round(until / tuning.timestep)
        min_steps = round(earliest / tuning.timestep)
        quiet = 0
        self.quiet_from = None
        while self.steps < max_steps:
            mujoco.mj_step(self.ship.model, self.data, tuning.check_every)
            self.steps += tuning.check_every
            if self.data.warning[mujoco.mjtWarning.mjWARN_BADQACC].number:
                self.unstable = True  # the engine has reset itself: nothing here is valid
                return False
            self._check_falls()
            if self.enough_falls is not None and len(self.fallen) >= self.enough_falls:
                return False
            if self.sleepers is not None:
                self.sleepers.check(self.on_board)
            if self.frames is not None and self.steps % tuning.sample_every < tuning.check_every:
                self._sample()
            quiet = quiet + 1 if self._at_rest() else 0
            if self.steps >= min_steps and quiet >= tuning.rest_checks:
                return True
            if self._still_on_ship() and quiet == 0 and self.time >= tuning.settle_min:
                self._carry(max_steps)
        return False

    def _still_on_ship(self) -> bool:
        """Whether no piece on board has moved on the ship (in the ship's frame, more than
        `rest_move`) for `rest_checks` checks, while the ship may still swing."""
        if not self.carry or not self.on_board:
            return False
        centres = _centres_on_ship(self.ship, self.data, self.ship.cargo_body[self.on_board])
        still = self.still_from
        if still is None or still.shape != centres.shape:
            moved = True
        else:
            moved = bool(np.abs(centres - still).max() > self.tuning.rest_move)
        if moved:
            self.still_from, self.still_checks = centres, 0
            return False
        self.still_checks += 1
        return self.still_checks >= self.tuning.carry_checks

    def _carry(self, max_steps: int) -> None:
        """Swing the ship on with its resting cargo fixed to it, one rigid body, until the ship
        rests (or `max_steps`); then put every piece back where it rides and let the contacts
        take over again. The cargo's contacts, most of a step's cost, are left out meanwhile."""
        ship, data, tuning = self.ship, self.data, self.tuning
        self._wake_all()
        yards = data.qpos[ship.yard_qpos].copy()
        self.riding = {
            slot: _in_frame(data, ship.ship_body, _pose(ship, data, slot)) for slot in self.on_board
        }
        with _cargo_fixed_to_ship(ship, data, self.on_board):
            for slot in self.on_board:
                _park(ship, data, slot)
            still, start = 0, data.qpos[ship.joint_qpos[:2]].copy()
            while self.steps < max_steps and still < tuning.rest_checks:
                if np.abs(data.qpos[ship.joint_qpos[:2]] - start).max() > tuning.carry_turn:
                    break
                mujoco.mj_step(ship.model, data, tuning.check_every)
                self.steps += tuning.check_every
                if (
                    self.frames is not None
                    and self.steps % tuning.sample_every < tuning.check_every
                ):
                    self._sample()
                still = still + 1 if self._ship_still() else 0
        data.qpos[ship.yard_qpos] = yards
        data.qvel[ship.yard_dof] = 0.0
        _refresh(ship, data)
        for slot in self.on_board:
            _unpark(ship, data, slot, _from_frame(data, ship.ship_body, self.riding[slot]))
            _ride_along(ship, data, slot)
        self.riding = {}
        self.still_from = self.quiet_from = None
        _refresh(ship, data)

    def _wake_all(self) -> None:
        if self.sleepers is not None:
            self.sleepers.wake_all()

    def _calm(self) -> None:
        """Take all motion out (every velocity zero), as a last resort after the hard cap."""
        self.data.qvel[:] = 0.0
        _refresh(self.ship, self.data)

    def motion(self) -> float:
        """The ship's angular speed (rad/s) at the end of the window."""
        speeds = self.data.qvel[self.ship.joint_dof[:2]]
        return float(sqrt(float(np.dot(speeds, speeds))))

    def _at_rest(self) -> bool:
        """The ship neither turns nor is about to (a swing's turning point has a small speed
        but a large acceleration, taken over the check interval), and no piece on board has
        moved since the quiet stretch began (a piece trembling in its contacts goes nowhere)."""
        tuning, ship, data = self.tuning, self.ship, self.data
        centres = data.xipos[ship.cargo_body]
        if not self._ship_still():
            self.quiet_from = None
            return False
        if self.quiet_from is None or self.quiet_from.shape != centres.shape:
            self.quiet_from = centres.copy()
            return True
        moved = np.abs(centres - self.quiet_from)[self.on_board]
        if moved.size and moved.max() > tuning.rest_move:
            self.quiet_from = centres.copy()
            return False
        return True

    def _ship_still(self) -> bool:
        """The ship turns slower than `rest_turn` and its speed changed by less than
        `rest_turn_accel` since the last check."""
        tuning = self.tuning
        turning = self.data.qvel[self.ship.joint_dof[:2]].copy()
        interval = tuning.check_every * tuning.timestep
        accel = np.abs(turning - self.last_turning).max() / interval
        self.last_turning = turning
        return self.motion() <= tuning.rest_turn and accel <= tuning.rest_turn_accel

    def _check_falls(self) -> None:
        ship, data = self.ship, self.data
        contacts = data.contact.geom[: data.ncon]
        cargo = ship.geom_cargo[contacts]
        sea = ship.is_sea[contacts]
        landed = set(cargo[:, 0][sea[:, 1]].tolist()) | set(cargo[:, 1][sea[:, 0]].tolist())
        touching = set(cargo[~sea].tolist())
        for slot in list(self.on_board):
            if slot in touching and slot not in landed:
                self.last_touch[slot] = self.time
            height = data.xipos[ship.cargo_body[slot], 2]
            if slot in landed or height < self.tuning.fall_height:
                self._fall(slot)

    def _fall(self, slot: int) -> None:
        if self.sleepers is not None:
            self.sleepers.wake(slot)
        self.fallen.append(Fall(self.bodies[slot], self.time, self.time - self.last_touch[slot]))
        self.landing[slot] = _pose(self.ship, self.data, slot)
        self.on_board.remove(slot)
        _park(self.ship, self.data, slot)

    def _sample(self) -> None:
        if self.frames is None:
            return
        joints = tuple(self.data.qpos[self.ship.joint_qpos].tolist())
        poses = tuple(self._drawn_pose(slot) for slot in range(len(self.bodies)))
        if not self.frames or self.frames[-1].time != self.time:
            self.frames.append(Frame(self.time, joints, poses))

    def _drawn_pose(self, slot: int) -> Pose:
        """Where a piece is seen: where it landed, where it rides on the ship, or its pose."""
        if slot in self.landing:
            return self.landing[slot]
        if slot in self.riding:
            return _from_frame(self.data, self.ship.ship_body, self.riding[slot])
        return _pose(self.ship, self.data, slot)


# --- sleeping pieces -------------------------------------------------------------------------
_ASLEEP_CONTYPE, _ASLEEP_CONAFFINITY = 8, _CARGO_CONTYPE
"""A sleeping piece's contact bits: it touches awake cargo only, not the ship (contype 1,
conaffinity 2), the sea (4, 2) or other sleeping pieces."""


@dataclass(frozen=True, slots=True)
class _Rider:
    """A sleeping piece as its part of the ship carries it: the part, the piece's pose in the
    part's frame (position, quaternion and rotation matrix) and its inertia there."""

    part: int
    position: NDArray[np.float64]
    quat: NDArray[np.float64]
    rotation: NDArray[np.float64]
    inertia: _Inertia


class _Sleepers:
    """Pieces resting on the ship, carried by their part of the ship (hull or yard) instead of
    simulated (see `Tuning.sleep`): the part takes on a sleeping piece's mass and inertia, and
    the piece itself floats weightless where it lies, moved with its part at every check, with
    only its contacts with awake pieces."""

    def __init__(self, ship: ShipModel, data: mujoco.MjData) -> None:
        self.ship, self.data = ship, data
        self.tuning = ship.tuning
        self.since: dict[int, NDArray[np.float64]] = {}  # slot: the ship's joints then
        self.riders: dict[int, _Rider] = {}
        self.unweighed: set[int] = set()  # parts whose riders changed since `weigh`
        self.still = np.zeros(ship.cargo_count, dtype=int)  # checks without moving
        self.anchor: NDArray[np.float64] | None = None  # centres when each last moved
        self.saved = _mass_arrays(ship.model)
        for slot in range(ship.cargo_count):  # the model is shared: start with all awake
            self._give_contacts(slot)

    def check(self, on_board: list[int]) -> None:
        """After each check: wake what restless pieces (awake ones that moved lately) touch or
        the ship's turn disturbs, put to sleep what has rested long enough and touches no
        restless piece (so pieces lying against each other sleep and wake together), and move
        the sleeping pieces with their parts."""
        self._count_still()
        joints = self.data.qpos[self.ship.joint_qpos[:2]]
        restless = {
            slot
            for slot in on_board
            if slot not in self.since and self.still[slot] < self.tuning.sleep_checks
        }
        touched = self._touched_by(restless)
        for slot, at in list(self.since.items()):
            if slot in touched or np.abs(joints - at).max() > self.tuning.sleep_turn:
                self.wake(slot)
        for slot in on_board:
            rested = self.still[slot] >= self.tuning.sleep_checks
            if rested and slot not in self.since and slot not in touched:
                self._sleep(slot, joints.copy())
        self.weigh()
        self._carry_riders()

    def sleep_all(self, slots: list[int]) -> None:
        """Put the pieces in `slots`, all resting, to sleep at once."""
        joints = self.data.qpos[self.ship.joint_qpos[:2]]
        for slot in slots:
            self._sleep(slot, joints.copy())
        self.weigh()
        self._carry_riders()

    def wake(self, slot: int) -> None:
        """The piece takes part in the simulation again, where and as fast as it rides."""
        if self.since.pop(slot, None) is None:
            return
        self.unweighed.add(self.riders.pop(slot).part)
        self.data.xfrc_applied[self.ship.cargo_body[slot]] = 0.0
        self._give_contacts(slot)
        self.still[slot] = 0

    def wake_all(self) -> None:
        """Wake every piece and give the model its own masses back."""
        for slot in list(self.since):
            self.wake(slot)
        _restore_masses(self.ship.model, self.saved)
        self.unweighed.clear()

    def _give_contacts(self, slot: int) -> None:
        geoms = self.ship.cargo_geoms[slot]
        self.ship.model.geom_contype[geoms] = _CARGO_CONTYPE
        self.ship.model.geom_conaffinity[geoms] = _CARGO_CONAFFINITY

    def _count_still(self) -> None:
        """Counts each piece's checks without moving (on the ship, from where it last moved)."""
        centres = _centres_on_ship(self.ship, self.data, self.ship.cargo_body)
        if self.anchor is None:
            self.anchor = centres
        moved = np.abs(centres - self.anchor).max(axis=1) > self.tuning.rest_move
        self.anchor[moved] = centres[moved]
        self.still = np.where(moved, 0, self.still + 1)

    def _touched_by(self, restless: set[int]) -> set[int]:
        """The pieces in contact with a restless piece."""
        contacts = self.data.contact.geom[: self.data.ncon]
        pairs = self.ship.geom_cargo[contacts]
        pairs = pairs[(pairs >= 0).all(axis=1)].tolist()
        return {b for a, b in pairs if a in restless} | {a for a, b in pairs if b in restless}

    def _sleep(self, slot: int, joints: NDArray[np.float64]) -> None:
        ship, data, model = self.ship, self.data, self.ship.model
        part = ship.area_body[_area_of(ship, data, slot)]
        pose = np.array(_in_frame(data, part, _pose(ship, data, slot)))
        self.riders[slot] = _Rider(
            part,
            pose[:3],
            pose[3:],
            _matrix(pose[3:]),
            _piece_inertia(ship, data, part, slot),
        )
        self.unweighed.add(part)
        body = ship.cargo_body[slot]
        data.xfrc_applied[body, :3] = -model.body_mass[body] * model.opt.gravity
        model.geom_contype[ship.cargo_geoms[slot]] = _ASLEEP_CONTYPE
        model.geom_conaffinity[ship.cargo_geoms[slot]] = _ASLEEP_CONAFFINITY
        self.since[slot] = joints

    def weigh(self) -> None:
        """Put the mass and inertia of the pieces riding on each part whose riders changed
        into its ballast, and give every body above a ballast in the tree the mass below it."""
        if not self.unweighed:
            return
        model, saved = self.ship.model, self.saved
        for part in self.unweighed:
            ballast = self.ship.ballast[part]
            riders = [rider.inertia for rider in self.riders.values() if rider.part == part]
            for name in _MASS_ARRAYS[:-1]:
                getattr(model, name)[ballast] = saved[name][ballast]
            if riders:
                _set_inertia(model, ballast, _combined(riders))
        self.unweighed.clear()
        _weigh_ballast(self.ship, saved)

    def _carry_riders(self) -> None:
        """Put every sleeping piece where its part carries it, moving as the part moves."""
        if not self.riders:
            return
        ship, data = self.ship, self.data
        slots = list(self.riders)
        riders = [self.riders[slot] for slot in slots]
        parts = np.array([rider.part for rider in riders])
        frames = data.xmat[parts].reshape(-1, 3, 3)
        positions = data.xpos[parts] + np.einsum(
            "kij,kj->ki", frames, np.array([rider.position for rider in riders])
        )
        quats = _quat_products(data.xquat[parts], np.array([rider.quat for rider in riders]))
        spin, linear = data.cvel[parts, :3], data.cvel[parts, 3:]  # about the tree's centre
        reference = data.subtree_com[ship.model.body_rootid[parts]]
        velocities = linear + _cross(spin, positions - reference)
        local_spin = np.einsum(
            "kji,kj->ki",
            np.array([rider.rotation for rider in riders]),
            np.einsum("kji,kj->ki", frames, spin),
        )
        qpos, dof = ship.cargo_qpos[slots], ship.cargo_dof[slots]
        data.qpos[qpos[:, None] + np.arange(3)] = positions
        data.qpos[qpos[:, None] + np.arange(3, 7)] = quats
        data.qvel[dof[:, None] + np.arange(3)] = velocities
        data.qvel[dof[:, None] + np.arange(3, 6)] = local_spin


def _quat_products(a: NDArray[np.float64], b: NDArray[np.float64]) -> NDArray[np.float64]:
    """Row by row, the Hamilton product a * b of quaternions (w, x, y, z)."""
    aw, ax, ay, az = a.T
    bw, bx, by, bz = b.T
    return np.stack(
        (
            aw * bw - ax * bx - ay * by - az * bz,
            aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
        ),
        axis=1,
    )


# --- areas of resting pieces -----------------------------------------------------------------
def _area_of(ship: ShipModel, data: mujoco.MjData, slot: int) -> int:
    """The area under the piece's centre of mass: the ship part straight below it; when no
    part is below (a piece hanging over the side), the nearest area."""
    centre = data.xipos[ship.cargo_body[slot]].copy()
    geom = np.zeros(1, dtype=np.int32)
    down = np.array([0.0, 0.0, -1.0])
    distance = mujoco.mj_ray(ship.model, data, centre, down, ship.ship_only, 0, -1, geom)
    if distance >= 0:
        hit = centre + down * distance
        area = _area_at(ship, data, int(geom[0]), hit)
        if area is not None:
            return area
    return _nearest_area(ship, data, centre)


def _local(
    ship: ShipModel, data: mujoco.MjData, body: int, point: NDArray[np.float64]
) -> NDArray[np.float64]:
    result: NDArray[np.float64] = data.xmat[body].reshape(3, 3).T @ (point - data.xpos[body])
    return result


def _area_at(
    ship: ShipModel, data: mujoco.MjData, geom: int, point: NDArray[np.float64]
) -> int | None:
    if geom == ship.hull_geom:
        x, y, _ = _local(ship, data, ship.ship_body, point)
        return (1 if y >= 0 else 2) if x >= 0 else (3 if y >= 0 else 4)
    if geom in ship.yard_geoms:
        yard = ship.yard_geoms.index(geom)
        _, y, _ = _local(ship, data, ship.yard_bodies[yard], point)
        port, starboard = SHIP.yards[yard].areas
        return port if y >= 0 else starboard
    return None


def _nearest_area(ship: ShipModel, data: mujoco.MjData, centre: NDArray[np.float64]) -> int:
    best, best_distance = AREAS[0], float("inf")
    for area in AREAS:
        shape = area_shape(area)
        origin, part = _part_frame(ship, data, area)
        x, y = shape.point(0.5, 0.0)
        middle = origin + part @ np.array([x, y, shape.surface])
        distance = float(np.linalg.norm(centre - middle))
        if distance < best_distance:
            best, best_distance = area, distance
    return best


# --- one placement ----------------------------------------------------------------------------
def free_body(board: Board, piece: int, cargo_count: int) -> int:
    """The lowest-numbered piece of type `piece` that is not on board."""
    used = set(board.bodies())
    for body in range(piece, cargo_count, len(PIECES)):
        if body not in used:
            return body
    raise ValueError(f"every {PIECES[piece].name} is already on board")


def simulate_placement(
    board: Board,
    placement: Placement,
    body: int,
    generator: np.random.Generator | None = None,
    steadiness: float = 1.0,
    motion: float = 0.0,
    frames: bool = True,
    hurry: float | None = None,
    enough_falls: int | None = None,
) -> PlacementResult:
    """Put piece number `body` on the ship as `placement` says and run the settle window.

    `hurry` ends the window after that many simulated seconds, at rest or not: for a look-
    ahead that counts falls (a cascade has begun by then); its board need not be at rest.
    `enough_falls` (for a look-ahead too) ends it as soon as that many pieces have fallen.

    Without a generator the piece is let go exactly where asked (no noise, no kick). With
    one, the point, yaw and release height get Gaussian noise and the ship a small kick, all
    drawn from it and scaled by `noise_scale`. The placement must be allowed (see
    `board.footprint_problem`); noise never carries the footprint across the area's inner
    edges.
    """
    bodies = (*board.bodies(), body)
    ship = ship_model(tuple(piece_type(b) for b in bodies))
    tuning = ship.tuning
    data = _load(ship, board)
    scale = noise_scale(placement.area, steadiness, motion, tuning)
    noise = _draw_noise(generator, placement, scale, tuning)
    moved = replace(
        placement,
        u=placement.u + noise.du,
        v=placement.v + noise.dv,
        yaw=placement.yaw + noise.yaw,
    )
    position, rotation = _release_pose(ship, data, clamp_to_area(moved), noise.lift)
    address = ship.cargo_qpos[len(bodies) - 1]
    data.qpos[address : address + 3] = position
    data.qpos[address + 3 : address + 7] = _quaternion(rotation)
    data.qvel[ship.joint_dof[:2]] = noise.kick
    _clear_overlap(ship, data, len(bodies) - 1, placement.area, noise.lift)
    window = _Window(ship, data, bodies, frames, enough_falls=enough_falls)
    window.run(hurry)
    if window.unstable:
        return _slipped(board, body, window.time)
    return _result(ship, window)


def _slipped(board: Board, body: int, seconds: float) -> PlacementResult:
    """The rare placement the engine cannot integrate: the piece counts as slipping from the
    hand and falling at once, the ship stays as it was (deterministic, like every result)."""
    roll, pitch = tilt_degrees(board.joints)
    return PlacementResult(board, (Fall(body, 0.0, 0.0),), roll, pitch, 0.0, seconds, (body,), ())


def _result(ship: ShipModel, window: _Window) -> PlacementResult:
    data = window.data
    resting = sorted(window.on_board, key=lambda slot: window.bodies[slot])
    pieces = tuple(
        PiecePose(window.bodies[slot], _area_of(ship, data, slot), _pose(ship, data, slot))
        for slot in resting
    )
    joints = tuple(data.qpos[ship.joint_qpos].tolist())
    roll, pitch = tilt_degrees(joints)
    return PlacementResult(
        board=Board(joints, pieces),
        fallen=tuple(window.fallen),
        roll=roll,
        pitch=pitch,
        motion=window.motion(),
        seconds=window.time,
        bodies=window.bodies,
        trajectory=tuple(window.frames or ()),
    )


def swing(board: Board, roll_speed: float, seconds: float) -> list[float]:
    """The roll angle (degrees) every step after pushing the resting `board` sideways with
    `roll_speed` rad/s (a check of the ship's pendulum; no cargo may be on board)."""
    if board.pieces:
        raise ValueError("swing is for the empty ship")
    ship = ship_model((0,))
    data = _load(ship, board)
    _park(ship, data, 0)
    data.qvel[ship.joint_dof[0]] = roll_speed
    angles = []
    for _ in range(round(seconds / ship.tuning.timestep)):
        mujoco.mj_step(ship.model, data)
        angles.append(float(data.qpos[ship.joint_qpos[0]]) * 180 / pi)
    return angles


@dataclass(frozen=True, slots=True)
class Drift:
    """What a stored board does when left alone: the pieces that fall, the farthest any
    resting piece's centre moves (metres) and the largest change of roll or pitch (degrees)."""

    fallen: tuple[int, ...]
    moved: float
    tilted: float


def drift(board: Board, seconds: float) -> Drift:
    """Simulate `board` from rest for `seconds` with no new piece and no kick: a board left
    by a settle window should not change (nothing falls between turns)."""
    ship = ship_model(tuple(piece_type(p.body) for p in board.pieces))
    data = _load(ship, board)
    window = _Window(ship, data, board.bodies(), frames=False, carry=False)
    window.idle(seconds)
    fallen = tuple(fall.body for fall in window.fallen)
    moved = max(
        (
            float(np.linalg.norm(np.subtract(_pose(ship, data, slot)[:3], piece.pose[:3])))
            for slot, piece in enumerate(board.pieces)
            if slot in window.on_board
        ),
        default=0.0,
    )
    now = tilt_degrees(tuple(data.qpos[ship.joint_qpos].tolist()))
    before = tilt_degrees(board.joints)
    tilted = max(abs(now[0] - before[0]), abs(now[1] - before[1]))
    return Drift(fallen, moved, tilted)


# --- pictures ---------------------------------------------------------------------------------
def render_rgb(board: Board, width: int = 640, height: int = 480) -> NDArray[np.uint8]:
    """An offscreen picture of the ship holding `board`, as rows of RGB pixels.

    Needs an OpenGL backend for MuJoCo: set MUJOCO_GL=egl or MUJOCO_GL=osmesa (Debian:
    libosmesa6) when there is no display.
    """
    ship = ship_model(tuple(piece_type(p.body) for p in board.pieces))
    data = _load(ship, board)
    camera = mujoco.MjvCamera()
    camera.lookat[:] = (0.0, 0.0, SHIP.pivot_height + 0.18)
    camera.distance, camera.azimuth, camera.elevation = 1.25, 60.0, -12.0
    with mujoco.Renderer(ship.model, height, width) as renderer:
        renderer.update_scene(data, camera)
        pixels: NDArray[np.uint8] = renderer.render().copy()
    return pixels
