"""Physical sanity of the ship model: a few short simulations."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from math import radians

import numpy as np

from spieltisch.games.riffraff.board import REST, Board, Placement
from spieltisch.games.riffraff.data import PIECE_NAMES
from spieltisch.games.riffraff.physics import simulate_placement, swing

BOX = PIECE_NAMES.index("box")
assert BOX is not None


def test_the_empty_ship_rights_itself_after_a_push() -> None:
    angles = swing(REST, roll_speed=1.0, seconds=6.0)
    assert max(abs(a) for a in angles[:240]) > 5  # it swings out
    assert abs(angles[-1]) < 1.0  # and comes back upright
    crossings = sum(1 for a, b in itertools.pairwise(angles) if a * b < 0)
    assert crossings >= 2  # like a pendulum, not a creep


def test_a_heavy_piece_at_the_tip_of_a_tilted_upper_yard_slides_off() -> None:
    tilted = Board(joints=(radians(-30), *REST.joints[1:]))
    result = simulate_placement(tilted, Placement(BOX, 9, 0.95), body=BOX, frames=False)
    assert [fall.body for fall in result.fallen] == [BOX]
    assert result.board.pieces == ()
    assert result.fallen[0].time < result.seconds


def _noisy_drop(seed: int) -> dict[str, object]:
    first = simulate_placement(
        REST, Placement(BOX, 7, 0.7), body=BOX, generator=np.random.default_rng(seed)
    )
    second = simulate_placement(
        first.board, Placement(0, 8, 0.5), body=0, generator=np.random.default_rng(seed + 1)
    )
    return {
        "board": repr(second.board),
        "fallen": repr(second.fallen),
        "frames": repr(second.trajectory[-1]),
    }


def test_the_same_seed_and_inputs_give_identical_results() -> None:
    assert _noisy_drop(3) == _noisy_drop(3)
    assert _noisy_drop(3) != _noisy_drop(4)


def test_the_same_seed_gives_identical_results_in_another_process() -> None:
    code = (
        "import json; from tests.riffraff.test_physics import _noisy_drop; "
        "print(json.dumps(_noisy_drop(3)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == _noisy_drop(3)


def test_a_hurried_window_ends_early_with_the_falls_so_far() -> None:
    tilted = Board(joints=(radians(-30), *REST.joints[1:]))
    hurried = simulate_placement(tilted, Placement(BOX, 9, 0.95), body=BOX, frames=False, hurry=0.1)
    assert hurried.seconds <= 0.1 + 1e-9
    full = simulate_placement(tilted, Placement(BOX, 9, 0.95), body=BOX, frames=False)
    assert full.seconds > hurried.seconds
