"""Pickomino's text notation, error messages, rendering, views and options."""

from __future__ import annotations

import contextlib
import json

import pytest

from spieltisch.core import IllegalAction, InvalidOptions, game_names, make_game
from spieltisch.games.pickomino import (
    ROLL,
    Action,
    FirstSeat,
    Phase,
    Pickomino,
    PickominoOptions,
    PickominoState,
    Take,
    notation,
)
from spieltisch.games.pickomino.data import WORM
from tests.pickomino.helpers import (
    STEAL,
    STOP_FAIL,
    TAKE_GRILL,
    game_for,
    grill_without,
    position,
    roll,
    take,
)

GAME = game_for(2)
NO_WORM = position(kept="444")
STEAL_OR_GRILL = position(stacks=((22,), (27,)), grill=grill_without(22, 27, 36), kept="444www")
GRILL_ONLY = position(kept="4444www")
CHOOSE = position(phase=Phase.CHOOSE, rolled="44445www")
CHOOSE_4S_KEPT = position(phase=Phase.CHOOSE, kept="44", rolled="4www12")
ROLL_8 = GAME.new_state()
START = game_for(2, start_seat="random").new_state()
MUST_END = position(stacks=((), (30,)), kept="12345www")
OVER = position(stacks=(tuple(range(21, 29)), tuple(range(29, 37))), grill=(), phase=Phase.OVER)


# --- reading actions ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("state", "text", "expected"),
    [
        (NO_WORM, "roll", ROLL),
        (NO_WORM, "r", ROLL),
        (NO_WORM, "  ROLL ", ROLL),
        (NO_WORM, "stop", STOP_FAIL),
        (NO_WORM, "s", STOP_FAIL),
        (STEAL_OR_GRILL, "stop", STEAL),
        (STEAL_OR_GRILL, "s", STEAL),
        (STEAL_OR_GRILL, "steal", STEAL),
        (STEAL_OR_GRILL, "grill", TAKE_GRILL),
        (STEAL_OR_GRILL, "g", TAKE_GRILL),
        (GRILL_ONLY, "stop", TAKE_GRILL),
        (GRILL_ONLY, "grill", TAKE_GRILL),
        (CHOOSE, "4", take("4")),
        (CHOOSE, "take 4", take("4")),
        (CHOOSE, "t 4", take("4")),
        (CHOOSE, "5", take("5")),
        (CHOOSE, "w", take("w")),
        (CHOOSE, "W", take("w")),
        (CHOOSE, "take w", take("w")),
        (CHOOSE, "worm", take("w")),
        (CHOOSE, "take worm", take("w")),
        (CHOOSE, "6", take("w")),
        (ROLL_8, "=1144555w", roll("1144555w")),
        (ROLL_8, "= 1 1 4 4 5 5 5 W", roll("1144555w")),
        (ROLL_8, "=1,1,4,4,5,5,5,w", roll("1144555w")),
        (ROLL_8, "=wwwwwwww", roll("wwwwwwww")),
        (START, "first 1", FirstSeat(1)),
    ],
)
def test_parse_action_accepts(state: PickominoState, text: str, expected: Action) -> None:
    assert GAME.parse_action(state, text) == expected


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (ROLL, "roll"),
        (Take(3), "take 4"),
        (Take(WORM), "take w"),
        (Take(0), "take 1"),
        (STEAL, "steal"),
        (TAKE_GRILL, "grill"),
        (STOP_FAIL, "stop"),
        (roll("1144555w"), "=1144555w"),
        (roll("w1"), "=1w"),
        (FirstSeat(2), "first 2"),
    ],
)
def test_format_action(action: Action, text: str) -> None:
    assert GAME.format_action(action) == text
    assert GAME.action_to_json(action) == text


@pytest.mark.parametrize(
    "state",
    [NO_WORM, STEAL_OR_GRILL, GRILL_ONLY, CHOOSE, CHOOSE_4S_KEPT, ROLL_8, MUST_END],
    ids=["no-worm", "steal-or-grill", "grill-only", "choose", "choose-4s-kept", "roll", "end"],
)
def test_every_legal_action_round_trips_through_text(state: PickominoState) -> None:
    for action in GAME.legal_actions(state):
        text = GAME.format_action(action)
        assert GAME.parse_action(state, text) == action
        assert GAME.action_from_json(state, json.loads(json.dumps(text))) == action


def test_first_seat_round_trips_through_text() -> None:
    game = game_for(5, start_seat="random")
    for action in game.legal_actions(game.new_state()):
        assert game.parse_action(game.new_state(), game.format_action(action)) == action


@pytest.mark.parametrize(
    ("state", "text", "message"),
    [
        (CHOOSE, "3", "the roll shows no 3s; choose one of 4, 5, w"),
        (CHOOSE, "take 1", "the roll shows no 1s; choose one of 4, 5, w"),
        (CHOOSE_4S_KEPT, "4", "you already set aside 4s this turn; choose one of 1, 2, w"),
        (CHOOSE_4S_KEPT, "take w", None),  # legal: checked below not to raise
        (CHOOSE, "7", "'7' is not an action; you can play: take 4, take 5, take w"),
        (CHOOSE, "take", "'take' is not an action"),
        (CHOOSE, "take 4 5", "is not an action"),
        (CHOOSE, "", "type an action"),
        (CHOOSE, "   ", "type an action"),
        (CHOOSE, "roll", "'roll' is not possible now: choose a face of the roll to set aside"),
        (CHOOSE, "stop", "is not possible now"),
        (NO_WORM, "steal", "no worm is set aside yet"),
        (NO_WORM, "grill", "no worm is set aside yet"),
        (NO_WORM, "4", "'take 4' is not possible now: stop or roll again"),
        (GRILL_ONLY, "steal", "no other player's top tile is exactly 31"),
        (position(kept="55ww"), "grill", "no tile on the grill is 20 or lower"),
        (MUST_END, "roll", "the turn is over: steal or take from the grill"),
        (ROLL_8, "stop", "the dice are being rolled"),
        (ROLL_8, "=1144555", "a roll must show exactly 8 dice"),
        (ROLL_8, "=11445557w", "'7' is not a die face; faces are 1 2 3 4 5 w"),
        (ROLL_8, "=1144555x", "'x' is not a die face"),
        (START, "first 9", "there is no seat 9"),
        (START, "first ²", "is not an action"),
        (START, "first -1", "is not an action"),
        (START, "roll", "the start seat is being drawn"),
        (OVER, "roll", "the game is over"),
        (OVER, "=12345w12", "the game is over"),
    ],
)
def test_typing_mistakes_explain_what_is_allowed(
    state: PickominoState, text: str, message: str | None
) -> None:
    if message is None:
        GAME.parse_action(state, text)
        return
    with pytest.raises(IllegalAction) as caught:
        GAME.parse_action(state, text)
    assert message in str(caught.value)


@pytest.mark.parametrize("data", [5, None, ["roll"], {"action": "roll"}, True])
def test_action_from_json_needs_a_string(data: object) -> None:
    with pytest.raises(IllegalAction, match="must be a string"):
        GAME.action_from_json(NO_WORM, data)


def test_parsing_never_changes_the_state() -> None:
    before = GAME.state_to_json(CHOOSE)
    for text in ("4", "3", "roll", "", "=12"):
        with contextlib.suppress(IllegalAction):
            GAME.parse_action(CHOOSE, text)
    assert GAME.state_to_json(CHOOSE) == before


# --- rendering ---------------------------------------------------------------------------
def test_render_shows_grill_stacks_dice_and_the_stop_preview() -> None:
    text = GAME.render(STEAL_OR_GRILL)
    lines = text.splitlines()
    assert lines[0].startswith("Grill")
    assert "21 ·· 23 24 25 26 ·· 28" in lines[0]
    assert lines[0].endswith("35 ##")
    assert "seat 0" in text
    assert "top 22 (1w)" in text
    assert "top 27 (2w)" in text
    assert "Set aside  4 4 4 w w w   sum 27, worm ✓, 2 dice left" in text
    assert "Stop now   steal 27 from seat 1 or take 26 from the grill" in text


def test_render_marks_the_player_to_move() -> None:
    marked = [line for line in GAME.render(STEAL_OR_GRILL).splitlines() if "▶" in line]
    assert len(marked) == 1
    assert "seat 0" in marked[0]


def test_render_uses_player_names() -> None:
    text = notation.render(GAME, STEAL_OR_GRILL, ["Ann", "Bob"])
    assert "steal 27 from Bob" in text
    assert "Ann" in text


def test_render_shows_the_roll_and_the_choosable_faces() -> None:
    text = GAME.render(CHOOSE_4S_KEPT)
    assert "Roll       1 2 4 w w w" in text
    assert "Choose     1, 2, w" in text


@pytest.mark.parametrize(
    ("state", "reason"),
    [(NO_WORM, "fails (no worm yet)"), (position(kept="55ww"), "fails (no tile for 20)")],
)
def test_render_warns_when_a_stop_fails(state: PickominoState, reason: str) -> None:
    assert f"Stop now   {reason}" in GAME.render(state)


def test_render_at_the_end_names_the_winners() -> None:
    assert GAME.render(OVER).endswith("Game over: seat 1 won")
    shared = position(stacks=((), ()), grill=(), phase=Phase.OVER)
    assert GAME.render(shared).endswith("Game over: seat 0 and seat 1 won")


def test_render_of_the_first_position() -> None:
    text = GAME.render(GAME.new_state())
    assert "21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36" in text
    assert "no tiles" in text
    assert "Set aside  -   sum 0, no worm yet, 8 dice left" in text


# --- views -------------------------------------------------------------------------------
def test_view_shows_the_stop_preview_and_legal_actions_to_the_mover() -> None:
    view = GAME.view(STEAL_OR_GRILL, 0)
    assert view["stop"] == {"steal": {"tile": 27, "from": 1}, "grill": 26, "fails": False}
    assert view["legal_actions"] == ["roll", "steal", "grill"]
    assert view["sum"] == 27
    assert view["tops"] == [22, 27]
    assert view["out"] == [36]
    assert view["to_move"] == 0
    assert view["winners"] is None
    assert GAME.view(STEAL_OR_GRILL, 1)["legal_actions"] == []
    assert GAME.view(STEAL_OR_GRILL, None)["legal_actions"] == []
    json.dumps(view)


def test_view_of_a_failing_stop_and_outside_the_decision() -> None:
    assert GAME.view(NO_WORM, 0)["stop"] == {"steal": None, "grill": None, "fails": True}
    assert GAME.view(CHOOSE, 0)["stop"] is None


def test_view_at_the_end_names_the_winners() -> None:
    view = GAME.view(OVER, None)
    assert view["winners"] == [1]
    assert view["to_move"] is None
    assert view["scores"] == [12, 28]


# --- options -----------------------------------------------------------------------------
def test_pickomino_is_in_the_registry() -> None:
    assert "pickomino" in game_names()
    assert isinstance(make_game("pickomino"), Pickomino)
    with pytest.raises(KeyError, match="unknown game 'pickomino2'"):
        make_game("pickomino2")


def test_default_options() -> None:
    assert Pickomino().options == PickominoOptions(2, True, False, 0)
    assert Pickomino(None).num_players == 2


@pytest.mark.parametrize("players", [0, 1, 8, -2, 100])
def test_player_count_outside_2_to_7_is_rejected(players: int) -> None:
    with pytest.raises(InvalidOptions, match="players must be from 2 to 7"):
        Pickomino({"players": players})


@pytest.mark.parametrize("players", [2, 7, "3", " 4"])
def test_player_count_inside_the_range_is_accepted(players: object) -> None:
    assert Pickomino({"players": players}).num_players == int(str(players))


@pytest.mark.parametrize("players", [True, 2.5, "two", None, [2]])
def test_player_count_of_the_wrong_type_is_rejected(players: object) -> None:
    with pytest.raises(InvalidOptions, match="expected a whole number"):
        Pickomino({"players": players})


def test_unknown_option_is_rejected_naming_the_known_ones() -> None:
    with pytest.raises(InvalidOptions) as caught:
        Pickomino({"colour": "red"})
    message = str(caught.value)
    assert "unknown option colour" in message
    assert "flip_when_nothing_returned, players, short_game, start_seat" in message


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("true", True),
        ("True", True),
        ("yes", True),
        ("on", True),
        ("1", True),
        ("false", False),
        ("no", False),
        ("OFF", False),
        ("0", False),
        (True, True),
    ],
)
def test_boolean_options_accept_words(text: object, value: bool) -> None:
    game = Pickomino({"short_game": text, "flip_when_nothing_returned": text})
    assert game.options.short_game is value
    assert game.options.flip_when_nothing_returned is value


@pytest.mark.parametrize("text", ["maybe", 2, None, ""])
def test_boolean_options_reject_other_values(text: object) -> None:
    with pytest.raises(InvalidOptions, match=r"short_game.*expected true or false"):
        Pickomino({"short_game": text})


@pytest.mark.parametrize(("value", "seat"), [("random", "random"), ("RANDOM", "random"), (2, 2)])
def test_start_seat_accepts_a_seat_or_random(value: object, seat: object) -> None:
    assert Pickomino({"players": 3, "start_seat": value}).options.start_seat == seat


@pytest.mark.parametrize("value", [3, -1, "first", None])
def test_start_seat_outside_the_seats_is_rejected(value: object) -> None:
    with pytest.raises(InvalidOptions, match="start_seat"):
        Pickomino({"players": 3, "start_seat": value})


def test_invalid_options_is_a_value_error() -> None:
    assert issubclass(InvalidOptions, ValueError)
    assert issubclass(IllegalAction, ValueError)


@pytest.mark.parametrize(
    "options",
    [{}, {"players": "5", "short_game": "true"}, {"start_seat": "random", "players": 7}],
)
def test_options_json_rebuilds_the_same_game(options: dict[str, object]) -> None:
    game = Pickomino(options)
    data = json.loads(json.dumps(game.options_json()))
    assert Pickomino(data).options == game.options
    assert make_game("pickomino", data).options_json() == data
