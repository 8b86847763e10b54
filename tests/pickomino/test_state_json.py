"""Pickomino states in JSON: round trips, and malformed data rejected with ValueError."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from spieltisch.games.pickomino import Phase, PickominoState
from tests.pickomino.helpers import game_for, grill_without, position

GAME = game_for(2)
GAME3 = game_for(3, start_seat="random")

STATES = [
    GAME.new_state(),
    position(stacks=((22, 25), (31,)), grill=grill_without(22, 25, 31, 36), kept="444ww", turn=9),
    position(phase=Phase.CHOOSE, kept="44", rolled="4www12", seat=1),
    position(phase=Phase.ROLL, kept="12345"),
    position(stacks=(tuple(range(21, 29)), tuple(range(29, 37))), grill=(), phase=Phase.OVER),
]


@pytest.mark.parametrize("state", STATES)
def test_state_round_trips_through_json(state: PickominoState) -> None:
    data = json.loads(json.dumps(GAME.state_to_json(state)))
    assert GAME.state_from_json(data) == state
    assert GAME.state_to_json(GAME.state_from_json(data)) == data


def test_start_state_round_trips_through_json() -> None:
    state = GAME3.new_state()
    assert GAME3.state_from_json(json.loads(json.dumps(GAME3.state_to_json(state)))) == state


def test_state_json_has_the_documented_fields() -> None:
    data = GAME.state_to_json(STATES[1])
    assert data == {
        "grill": list(grill_without(22, 25, 31, 36)),
        "stacks": [[22, 25], [31]],
        "seat": 0,
        "phase": "decide",
        "kept": [0, 0, 0, 3, 0, 2],
        "rolled": [0, 0, 0, 0, 0, 0],
        "turn": 9,
    }


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data[key] = value

    return change


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        del data[key]

    return change


MALFORMED = {
    "no grill": _drop("grill"),
    "grill not a list": _set("grill", "21 22"),
    "grill of strings": _set("grill", ["21", "22"]),
    "grill of booleans": _set("grill", [True]),
    "grill of floats": _set("grill", [21.0]),
    "duplicate tile on the grill": _set("grill", [21, 21, 22]),
    "grill descending": _set("grill", [23, 22, 21]),
    "tile below 21": _set("grill", [20, 21]),
    "tile above 36": _set("grill", [36, 37]),
    "tile in a stack and on the grill": _set("stacks", [[21], []]),
    "tile in two stacks": _set("stacks", [[36], [36]]),
    "no stacks": _drop("stacks"),
    "stacks not a list": _set("stacks", {"0": []}),
    "too few stacks": _set("stacks", [[]]),
    "too many stacks": _set("stacks", [[], [], []]),
    "stack not a list": _set("stacks", [[], 22]),
    "stack of strings": _set("stacks", [[], ["x"]]),
    "kept too short": _set("kept", [0, 0, 0]),
    "kept negative": _set("kept", [0, 0, 0, 0, -1, 0]),
    "kept more than 8 dice": _set("kept", [0, 0, 0, 5, 0, 4]),
    "kept not a list": _set("kept", 0),
    "rolled too long": _set("rolled", [0] * 7),
    "rolled outside the choose phase": _set("rolled", [1, 0, 0, 0, 0, 0]),
    "seat out of range": _set("seat", 2),
    "seat negative": _set("seat", -1),
    "seat a string": _set("seat", "0"),
    "seat a boolean": _set("seat", False),
    "no seat": _drop("seat"),
    "turn negative": _set("turn", -1),
    "turn a float": _set("turn", 1.5),
    "turn a boolean": _set("turn", True),
    "turn a string": _set("turn", "3"),
    "unknown phase": _set("phase", "dance"),
    "phase a list": _set("phase", ["roll"]),
    "phase a number": _set("phase", 2),
    "no phase": _drop("phase"),
}


@pytest.mark.parametrize("change", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_state_is_rejected(change: Callable[[dict[str, Any]], None]) -> None:
    data = GAME.state_to_json(GAME.new_state())
    change(data)
    with pytest.raises(ValueError):  # the contract: a ValueError
        GAME.state_from_json(data)


CHOOSE_JSON = GAME.state_to_json(position(phase=Phase.CHOOSE, kept="44", rolled="4www12"))

INCONSISTENT_ROLLS = {
    "more rolled than left": [0, 1, 0, 1, 0, 5],
    "fewer rolled than left": [0, 1, 0, 1, 0, 1],
    "only set-aside faces rolled": [0, 0, 0, 6, 0, 0],
    "nothing rolled": [0, 0, 0, 0, 0, 0],
}


@pytest.mark.parametrize("rolled", INCONSISTENT_ROLLS.values(), ids=INCONSISTENT_ROLLS.keys())
def test_a_roll_waiting_for_a_choice_must_fit_the_dice_left(rolled: list[int]) -> None:
    with pytest.raises(ValueError, match="'rolled'"):
        GAME.state_from_json({**CHOOSE_JSON, "rolled": rolled})


@pytest.mark.parametrize("data", [[], "state", None, 5])
def test_state_must_be_an_object(data: Any) -> None:
    with pytest.raises(ValueError, match="JSON object"):
        GAME.state_from_json(data)


def test_stacks_must_match_the_player_count() -> None:
    data = GAME3.state_to_json(GAME3.new_state())
    with pytest.raises(ValueError, match="'stacks' must list 2 stacks"):
        GAME.state_from_json(data)
