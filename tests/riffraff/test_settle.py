"""Nothing falls between turns: a settle window leaves a resting board."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import mujoco  # type: ignore[import-untyped]
import numpy as np
import pytest
from numpy.typing import NDArray

from spieltisch.games.riffraff import physics
from spieltisch.games.riffraff.board import REST, Board, PiecePose, Placement, piece_type
from spieltisch.games.riffraff.data import PIECE_NAMES, TUNING, Tuning
from spieltisch.games.riffraff.physics import (
    PlacementResult,
    ShipModel,
    _cargo_fixed_to_ship,
    _load,
    _park,
    _pose,
    _Sleepers,
    _unpark,
    _Window,
    drift,
    free_body,
    generator,
    ship_model,
    simulate_placement,
    tilt_degrees,
)

BOX = PIECE_NAMES.index("box")
assert BOX is not None

# (piece type, area, u, yaw) in mirrored pairs, as two careful players would load the ship
PLAYS = (
    (3, 1, 0.35, 0.0),  # box
    (3, 2, 0.35, 0.0),
    (7, 5, 0.35, 0.0),  # chest
    (7, 6, 0.35, 0.0),
    (2, 3, 0.6, 0.0),  # flacon
    (2, 4, 0.6, 0.0),
    (1, 7, 0.45, 0.0),  # barrel
    (1, 8, 0.45, 0.0),
)


def _played_boards() -> list[Board]:
    seeds = np.random.default_rng(7)
    board, boards = REST, []
    for piece, area, u, yaw in PLAYS:
        seed = int(seeds.integers(2**63))
        placement = Placement(piece, area, u, 0.0, yaw)
        body = free_body(board, piece, 64)
        result = simulate_placement(board, placement, body, generator(seed), 0.5, frames=False)
        assert result.seconds < TUNING.settle_cap  # it came to rest
        board = result.board
        boards.append(board)
    return boards


def test_a_board_left_by_a_settle_window_stays_put() -> None:
    for board in _played_boards():
        left_alone = drift(board, 2.0)
        assert left_alone.fallen == ()
        assert left_alone.moved < 0.003  # metres
        assert left_alone.tilted < 0.5  # degrees


def test_the_empty_ship_left_alone_does_not_move() -> None:
    assert drift(REST, 1.0) == drift(REST, 1.0)
    assert drift(REST, 1.0).tilted < 1e-6


def test_the_benchmark_board_is_nearly_upright() -> None:
    path = Path(__file__).parents[2] / "benchmarks" / "riffraff_bench.py"
    spec = importlib.util.spec_from_file_location("riffraff_bench", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("riffraff_bench", bench)  # its dataclass looks itself up there
    spec.loader.exec_module(bench)
    board = bench.played_board(8)
    assert len(board.pieces) == 8
    roll, pitch = tilt_degrees(board.joints)
    assert abs(roll) < 5 and abs(pitch) < 5


def test_a_window_that_hits_its_cap_is_calmed_to_rest() -> None:
    hurried = replace(TUNING, settle_min=0.05, settle_max=0.1, settle_cap=0.2, calm_time=0.5)
    ship = ShipModel((BOX,), hurried)
    board = Board(pieces=(_box_on_deck(),))
    data = _load(ship, board)
    data.qvel[ship.joint_dof[0]] = 1.0  # a hard push: still swinging at the cap
    window = _Window(ship, data, board.bodies(), frames=False)
    window.run()
    assert window.time > hurried.settle_cap  # it went on past the cap, calming
    assert window.motion() < hurried.rest_turn
    assert window.on_board == [0]


def _box_on_deck() -> PiecePose:
    """A box resting on deck area 1 of the upright ship."""
    board = simulate_placement(REST, Placement(BOX, 1, 0.5), body=BOX, frames=False).board
    return board.pieces[0]


def test_carrying_the_resting_cargo_changes_neither_falls_nor_the_ship_at_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    board = _played_boards()[-1]
    carries: list[float] = []
    carry = _Window._carry

    def counted(window: _Window, max_steps: int) -> None:
        carries.append(window.time)
        carry(window, max_steps)

    monkeypatch.setattr(_Window, "_carry", counted)
    carried = [_box_on_yard(board, seed) for seed in range(3)]
    assert carries  # the lever is in use
    _assert_the_same_without(monkeypatch, board, carried, replace(TUNING, carry=False))


def _assert_the_same_without(
    monkeypatch: pytest.MonkeyPatch, board: Board, results: list[PlacementResult], plain: Tuning
) -> None:
    """`results` of `_box_on_yard` lose the same pieces and leave the ship at the same tilt
    (within 0.5°) as the same placements with `plain`, the tuning without a lever."""
    monkeypatch.setattr(physics, "ship_model", lambda types: ShipModel(types, plain))
    for seed, with_lever in enumerate(results):
        without = _box_on_yard(board, seed)
        assert with_lever.fallen == without.fallen
        assert abs(with_lever.roll - without.roll) < 0.5
        assert abs(with_lever.pitch - without.pitch) < 0.5


def _box_on_yard(board: Board, seed: int) -> PlacementResult:
    body = free_body(board, BOX, 64)
    placement = Placement(BOX, 9, 0.6)
    return simulate_placement(board, placement, body, generator(seed), 1.0, frames=False)


class _Loaded(NamedTuple):
    """A ship holding a played board, its mass arrays as compiled, and the mass and centre of
    mass of ship and cargo together."""

    ship: ShipModel
    data: mujoco.MjData
    slots: list[int]
    before: list[NDArray[np.float64]]
    mass: float
    centre: NDArray[np.float64]


def _loaded_ship() -> _Loaded:
    board = _played_boards()[3]  # boxes on the deck, chests on the lowest yard
    ship = ShipModel(tuple(piece_type(p.body) for p in board.pieces))
    data = _load(ship, board)
    m = ship.model
    before = [a.copy() for a in (m.body_mass, m.body_ipos, m.body_iquat, m.body_inertia)]
    parts = [ship.ship_body, *ship.yard_bodies, *ship.cargo_body.tolist()]
    mass = float(m.body_mass[parts].sum())
    centre = m.body_mass[parts] @ data.xipos[parts] / mass
    return _Loaded(ship, data, list(range(len(board.pieces))), before, mass, centre)


def test_a_ship_carrying_its_cargo_has_their_mass_and_centre_and_is_given_back() -> None:
    ship, data, slots, before, mass, centre = _loaded_ship()
    m = ship.model
    parts = [ship.ship_body, *ship.yard_bodies, *ship.cargo_body.tolist()]
    roll_inertia = _inertia_about_roll_axis(ship, data, parts)
    with _cargo_fixed_to_ship(ship, data, slots):
        for slot in slots:
            _park(ship, data, slot)
        mujoco.mj_forward(m, data)
        carried = [ship.ship_body, *ship.yard_bodies, *ship.ballast.values()]
        assert m.body_mass[carried].sum() == pytest.approx(mass, rel=1e-12)
        assert data.subtree_com[ship.ship_body] == pytest.approx(centre, abs=1e-12)
        assert _roll_inertia(ship, data) == pytest.approx(roll_inertia, rel=1e-9)
    after = (m.body_mass, m.body_ipos, m.body_iquat, m.body_inertia)
    assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))


def _inertia_about_roll_axis(ship: ShipModel, data: mujoco.MjData, parts: list[int]) -> float:
    """The moment of inertia of `parts` about the ship's roll axis, body by body."""
    roll = ship.model.jnt_bodyid[ship.model.dof_jntid[ship.joint_dof[0]]]
    axis, pivot = data.xaxis[ship.model.dof_jntid[ship.joint_dof[0]]], data.xpos[roll]
    total = 0.0
    for part in parts:
        axes = data.ximat[part].reshape(3, 3)
        own = axis @ axes @ np.diag(ship.model.body_inertia[part]) @ axes.T @ axis
        arm = np.cross(data.xipos[part] - pivot, axis)
        total += own + ship.model.body_mass[part] * (arm @ arm)
    return float(total)


def _roll_inertia(ship: ShipModel, data: mujoco.MjData) -> float:
    """The ship's roll inertia as the engine sees it, without the roll body's own."""
    m = ship.model
    full = np.zeros((m.nv, m.nv))
    mujoco.mj_fullM(m, full, data.qM)
    roll_body = m.jnt_bodyid[m.dof_jntid[ship.joint_dof[0]]]
    own = _inertia_about_roll_axis(ship, data, [roll_body])
    dof = ship.joint_dof[0]
    return float(full[dof, dof] - own - m.dof_armature[dof])


def test_a_carried_piece_is_drawn_riding_on_the_ship() -> None:
    board = _played_boards()[-1]
    body = free_body(board, BOX, 64)
    result = simulate_placement(board, Placement(BOX, 9, 0.6), body, generator(0), 1.0)
    assert not result.fallen
    heights = np.array([[pose[2] for pose in frame.poses] for frame in result.trajectory])
    assert heights.max() < 1.0  # never drawn where carried pieces are parked
    steps = np.abs(np.diff(heights, axis=0)).max()
    assert steps < 0.01  # metres between frames: no jump when the contacts take over again


def test_sleeping_pieces_change_neither_falls_nor_the_ship_at_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    board = _played_boards()[-1]
    slept: list[int] = []
    sleep = _Sleepers._sleep

    def counted(sleepers: _Sleepers, slot: int, joints: NDArray[np.float64]) -> None:
        slept.append(slot)
        sleep(sleepers, slot, joints)

    monkeypatch.setattr(_Sleepers, "_sleep", counted)
    asleep = [_box_on_yard(board, seed) for seed in range(3)]
    assert len(set(slept)) > len(board.pieces) / 2  # the lever is in use
    _assert_the_same_without(monkeypatch, board, asleep, replace(TUNING, sleep=False))


def test_every_piece_has_its_contacts_back_after_a_window() -> None:
    board = _played_boards()[-1]
    result = _box_on_yard(board, 0)
    ship = ship_model(tuple(piece_type(body) for body in result.bodies))
    cargo = np.concatenate(ship.cargo_geoms)
    assert set(ship.model.geom_contype[cargo].tolist()) == {2}
    assert set(ship.model.geom_conaffinity[cargo].tolist()) == {3}


def test_a_sleeping_piece_wakes_when_touched_by_a_moving_piece_or_when_the_ship_turns() -> None:
    ship = ShipModel((BOX, BOX))
    data = _load(ship, Board(pieces=(_box_on_deck(),)))
    _park(ship, data, 1)
    sleepers = _Sleepers(ship, data)
    _check_until_asleep(ship, data, sleepers)
    assert ship.model.geom_contype[ship.cargo_geoms[0]].tolist() == [8]
    above = list(_pose(ship, data, 0))
    above[2] += 0.04  # a second box dropped onto the sleeping one
    _unpark(ship, data, 1, (above[0], above[1], above[2], above[3], above[4], above[5], above[6]))
    data.qvel[ship.cargo_dof[1] + 2] = -0.5
    for _ in range(20):
        mujoco.mj_step(ship.model, data, TUNING.check_every)
        sleepers.check([0, 1])
        if 0 not in sleepers.since:
            break
    assert 0 not in sleepers.since
    _check_until_asleep(ship, data, sleepers)
    data.qpos[ship.joint_qpos[0]] += 1.5 * TUNING.sleep_turn
    mujoco.mj_forward(ship.model, data)
    sleepers.check([0, 1])
    assert 0 not in sleepers.since


def _check_until_asleep(ship: ShipModel, data: mujoco.MjData, sleepers: _Sleepers) -> None:
    for _ in range(40):
        mujoco.mj_step(ship.model, data, TUNING.check_every)
        sleepers.check([0])
        if 0 in sleepers.since:
            return
    raise AssertionError("the resting box never fell asleep")


def test_a_sleeping_piece_weighs_on_its_part_and_rides_with_it() -> None:
    ship, data, slots, before, mass, centre = _loaded_ship()
    m = ship.model
    sleepers = _Sleepers(ship, data)
    sleepers.sleep_all(slots)
    mujoco.mj_forward(m, data)
    carriers = [ship.ship_body, *ship.yard_bodies, *ship.ballast.values()]
    assert m.body_mass[carriers].sum() == pytest.approx(mass, rel=1e-12)
    assert data.subtree_com[ship.ship_body] == pytest.approx(centre, abs=1e-12)
    assert {sleepers.riders[slot].part for slot in slots} == {ship.ship_body, ship.yard_bodies[0]}
    seen_on_parts = [_rider_pose(ship, data, sleepers, slot) for slot in slots]
    data.qpos[ship.joint_qpos[:2]] += 0.5 * TUNING.sleep_turn  # the ship turns a little
    data.qpos[ship.yard_qpos[0]] += 0.01  # and the lowest yard on its peg
    mujoco.mj_step(m, data, TUNING.check_every)
    sleepers.check([])
    mujoco.mj_forward(m, data)
    for slot, seen in zip(slots, seen_on_parts, strict=True):
        assert _rider_pose(ship, data, sleepers, slot) == pytest.approx(seen, abs=1e-4)
    sleepers.wake_all()
    after = (m.body_mass, m.body_ipos, m.body_iquat, m.body_inertia)
    assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))
    assert not data.xfrc_applied.any()


def _rider_pose(
    ship: ShipModel, data: mujoco.MjData, sleepers: _Sleepers, slot: int
) -> NDArray[np.float64]:
    """Where the piece in `slot` lies in the frame of the part that carries it."""
    part = sleepers.riders[slot].part
    return np.array(physics._in_frame(data, part, _pose(ship, data, slot)))


def test_the_pieces_of_a_resting_board_start_a_window_asleep(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    board = _played_boards()[-1]
    asleep_at_first_check: list[set[int]] = []
    check = _Sleepers.check

    def first(sleepers: _Sleepers, on_board: list[int]) -> None:
        if not asleep_at_first_check:
            asleep_at_first_check.append(set(sleepers.since))
        check(sleepers, on_board)

    monkeypatch.setattr(_Sleepers, "check", first)
    _box_on_yard(board, 0)
    assert asleep_at_first_check == [set(range(len(board.pieces)))]


def test_a_drift_gives_the_shared_model_back_as_it_was() -> None:
    board = _played_boards()[-1]
    ship = ship_model(tuple(piece_type(p.body) for p in board.pieces))
    m = ship.model
    fields = ("geom_contype", "geom_conaffinity", "body_mass", "body_ipos", "body_inertia")
    before = [getattr(m, name).copy() for name in fields]
    drift(board, 0.5)  # long enough for every piece to fall asleep
    after = [getattr(m, name) for name in fields]
    assert all(np.array_equal(a, b) for a, b in zip(before, after, strict=True))
