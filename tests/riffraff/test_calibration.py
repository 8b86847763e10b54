"""The stiffer ship's calibration targets (issue 14), with tolerances."""

from __future__ import annotations

import itertools

import pytest

from spieltisch.games.riffraff.board import REST, Placement, footprint_problem
from spieltisch.games.riffraff.data import DECK_AREAS, PIECE_NAMES, TUNING, YARD_AREAS
from spieltisch.games.riffraff.physics import PlacementResult, simulate_placement, swing

BOX = PIECE_NAMES.index("box")
YAWS = (0.0, 90.0)


def _placed(piece: int, area: int, u: float, yaw: float = 0.0) -> PlacementResult | None:
    """The empty ship after `piece` is let go at rest (no noise), or None if not allowed."""
    placement = Placement(piece, area, u, 0.0, yaw)
    if footprint_problem(placement) is not None:
        return None
    return simulate_placement(REST, placement, body=piece, frames=False)


def test_a_box_at_the_tip_of_the_lower_yard_heels_the_ship_3_to_6_degrees() -> None:
    result = _placed(BOX, 5, 0.9)
    assert result is not None and not result.fallen
    assert -6 <= result.roll <= -3  # area 5 is the port half: port side down
    assert abs(result.pitch) < 0.5
    assert [piece.area for piece in result.board.pieces] == [5]


def test_a_box_at_the_tip_of_the_upper_yard_stays_on_board() -> None:
    result = _placed(BOX, 9, 0.9)
    assert result is not None and not result.fallen
    assert [piece.area for piece in result.board.pieces] == [9]


def test_the_empty_ship_swings_with_a_period_of_1_4_to_2_2_seconds() -> None:
    angles = swing(REST, roll_speed=1.0, seconds=4.0)
    crossings = [i for i, (a, b) in enumerate(itertools.pairwise(angles)) if a * b < 0]
    assert len(crossings) >= 2
    period = 2 * (crossings[1] - crossings[0]) * TUNING.timestep
    assert 1.4 <= period <= 2.2


@pytest.mark.parametrize("area", DECK_AREAS)
def test_a_piece_placed_at_rest_on_a_level_deck_area_never_slides_off(area: int) -> None:
    for piece, u, yaw in itertools.product(range(len(PIECE_NAMES)), (0.5, 0.8, 0.95), YAWS):
        result = _placed(piece, area, u, yaw)
        assert result is None or not result.fallen, (PIECE_NAMES[piece], u, yaw)


@pytest.mark.parametrize("area", YARD_AREAS)
def test_a_single_piece_near_the_mast_stays_on_an_empty_yard_half(area: int) -> None:
    for piece, u, yaw in itertools.product(range(len(PIECE_NAMES)), (0.2, 0.4, 0.6), YAWS):
        result = _placed(piece, area, u, yaw)
        assert result is None or not result.fallen, (PIECE_NAMES[piece], u, yaw)
