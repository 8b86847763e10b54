"""Nothing falls between turns: a settle window leaves a resting board."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from spieltisch.games.riffraff.board import REST, Board, PiecePose, Placement
from spieltisch.games.riffraff.data import TUNING, piece_index
from spieltisch.games.riffraff.physics import (
    ShipModel,
    _load,
    _Window,
    drift,
    free_body,
    generator,
    simulate_placement,
    tilt_degrees,
)

BOX = piece_index("box")
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
