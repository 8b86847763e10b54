"""Nothing falls between turns: a settle window leaves a resting board."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

from spieltisch.games.riffraff.board import REST, Board, Placement
from spieltisch.games.riffraff.data import TUNING
from spieltisch.games.riffraff.physics import (
    drift,
    free_body,
    generator,
    simulate_placement,
    tilt_degrees,
)

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
    spec.loader.exec_module(bench)
    board = bench.played_board(8)
    assert len(board.pieces) == 8
    roll, pitch = tilt_degrees(board.joints)
    assert abs(roll) < 5 and abs(pitch) < 5
