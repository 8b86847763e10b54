"""Karolinchen's notation, JSON forms, views, rendering, and random games under every option."""

from __future__ import annotations

import json
import random

import pytest

from spieltisch.core import CHANCE, GameRecord, IllegalAction, replay
from spieltisch.games.karolinchen import LEAVE, TAKE, Dice, FirstSeat, Lay, Phase, Tails
from spieltisch.games.karolinchen.data import fruit_from_word
from tests.karolinchen.helpers import counts, fruits, game_for, position

GAME = game_for(2)


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Lay(2), "lay y"),
        (TAKE, "take"),
        (LEAVE, "leave"),
        (Dice(counts("gggbby")), "=gggybb"),
        (Tails(fruits("bor")), "tails bor"),
        (FirstSeat(3), "first 3"),
    ],
)
def test_actions_have_a_short_text(action: object, text: str) -> None:
    assert GAME.format_action(action) == text  # type: ignore[arg-type]


@pytest.mark.parametrize("word", ["y", "lay y", "mirabelles", "Yellow", "lay mirabelle", "Y"])
def test_a_card_can_be_named_by_letter_colour_or_fruit(word: str) -> None:
    state = position(["o", "r"], middle="ggyyb", seat=0)
    assert GAME.parse_action(state, word) == Lay(2)


def test_fruit_words_in_german_and_english() -> None:
    assert fruit_from_word("Kirschen") == 0
    assert fruit_from_word("plum") == 3
    assert fruit_from_word("lila") == 3
    assert fruit_from_word("banana") is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "type the fruit of the card to lay"),
        ("banana", "'banana' is not an action; you can play: lay r, lay g"),
        ("lay o", "apricots card is already laid out; lay one of: cherries"),
        ("lay kiwi", "'kiwi' is not a fruit; fruits are r g y p o b"),
        ("take", "'take' is not possible now: choose the next card"),
        ("=rr", "not possible now"),
    ],
)
def test_typing_mistakes_are_explained(text: str, message: str) -> None:
    state = position(["o", "r"], middle="ggyyb", covered=(1, 0), seat=0)
    with pytest.raises(IllegalAction, match=message):
        GAME.parse_action(state, text)


def test_state_json_round_trip_and_checks() -> None:
    state = position(["bo", "r"], middle="gyb", eaten=(1, 0), covered=(2, 1), seat=0)
    data = json.loads(json.dumps(GAME.state_to_json(state)))
    assert data["cards"] == [[5, 4], [0]]
    assert GAME.state_from_json(data) == state
    bad = [
        {**data, "phase": "lunch"},
        {**data, "seat": 2},
        {**data, "cards": [[5, 5], [0]]},
        {**data, "cards": [[5, 9], [0]]},
        {**data, "cards": [[], [0]]},
        {**data, "eaten": [9, 0]},
        {**data, "middle": [0, 1, 2, 0, 0, 1]},
        {**data, "middle": [0, 1, 1, 0, 0]},
        {**data, "covered": [4, 4]},
        {**data, "covered": [1, 1]},
        {**data, "turn": -1},
        {**data, "phase": "roll"},
        {**data, "seat": 1},
        [],
    ]
    for item in bad:
        with pytest.raises(ValueError):
            GAME.state_from_json(item)  # type: ignore[arg-type]


def test_views_show_every_worm_and_only_the_mover_gets_actions() -> None:
    state = position(["bo", "r"], middle="gyb", eaten=(1, 0), covered=(2, 1), seat=0)
    view = GAME.view(state, 0)
    assert view["worms"][0] == {
        "eaten": 1,
        "covered": 2,
        "progress": 3,
        "current": "o",
        "free": 0,
        "hand": ["r", "g", "y", "p"],
        "fruits": "boo",  # the fruit of each place on the laid cards, tail first
    }
    assert view["middle"] == "gyb"
    assert view["legal_actions"] == ["lay r", "lay g", "lay y", "lay p"]
    assert GAME.view(state, 1)["legal_actions"] == []
    assert GAME.view(state, None)["legal_actions"] == []
    assert GAME.view(state, None)["winners"] is None


def test_render_shows_the_middle_and_a_row_per_worm() -> None:
    state = position(["og", "r"], middle="gyyb", eaten=(1, 0), covered=(2, 1), seat=0)
    picture = GAME.render(state)
    assert "Middle   [G] [Y] [Y] [B]" in picture
    assert "gooseberries G○○○○" in picture  # one green die covers the 1st gooseberry
    assert "hand r y p b" in picture
    assert "cherries     R○○○○○" in picture


# --- random games under every option ------------------------------------------------------
@pytest.mark.parametrize(
    "options",
    [
        {"players": 3, "tail_fruits": "random", "start_seat": "random"},
        {"players": 2, "auto_take": False},
        {"players": 6, "tail_fruits": "random", "auto_take": False},
    ],
)
@pytest.mark.parametrize("seed", [0, 1])
def test_random_games_under_the_options_end_and_replay(
    options: dict[str, object], seed: int
) -> None:
    game = game_for(**options)  # type: ignore[arg-type]
    rng = random.Random(seed)
    state, texts = game.new_state(), []
    while not game.is_over(state):
        legal = game.legal_actions(state)
        if game.to_move(state) == CHANCE:
            action = game.sample_chance(state, rng)
            probabilities = dict(game.chance_outcomes(state))
            assert sum(probabilities.values()) == 1
            assert action in probabilities
        else:
            action = rng.choice(legal)
        assert action in legal
        texts.append(game.format_action(action))
        assert game.parse_action(state, texts[-1]) == action
        state = game.apply(state, action)
        assert game.state_from_json(json.loads(json.dumps(game.state_to_json(state)))) == state
    assert len(game.winners(state)) == 1
    assert max(game.scores(state)) == 21
    record = GameRecord(game.name, game.options_json(), game.rules_version, tuple(texts))
    assert replay(record) == state
    assert state.phase is Phase.OVER
