"""Encoders: fixed vocabularies, masks that match the rules, observations in [0, 1]."""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from spieltisch.adapters.encoding import VectorBuilder, encoder_for, resolve_chance
from spieltisch.core import CHANCE, Game, IllegalAction, InvalidOptions, game_names, make_game
from spieltisch.games.karolinchen.state import KarolinchenState
from spieltisch.games.karolinchen.state import Phase as KarolinchenPhase
from spieltisch.games.pickomino.data import TILES
from spieltisch.games.pickomino.state import Phase as PickominoPhase
from spieltisch.games.pickomino.state import PickominoState

CASES = [
    ("pickomino", {"players": 3}),
    ("karolinchen", {"players": 3, "auto_take": False, "tail_fruits": "random"}),
    ("riffraff", {"players": 2}),
]


@pytest.mark.parametrize(("name", "options"), CASES)
def test_every_legal_action_has_its_own_integer_and_back(
    name: str, options: dict[str, Any]
) -> None:
    game = make_game(name, options)
    encoder = encoder_for(game)
    rng = random.Random(5)
    state = resolve_chance(game, game.new_state(), rng)
    for _ in range(25 if name == "riffraff" else 80):
        if game.is_over(state):
            break
        legal = game.legal_actions(state)
        indices = [encoder.index_of(state, action) for action in legal]
        assert len(set(indices)) == len(legal)
        assert sorted(indices) == encoder.legal_indices(state)
        assert [encoder.action_for(state, i) for i in indices] == legal
        for seat in range(game.num_players):
            vector = encoder.observe(state, seat)
            assert len(vector) == encoder.observation_size
            assert all(0.0 <= value <= 1.0 for value in vector)
        state = resolve_chance(game, game.apply(state, rng.choice(legal)), rng)


def test_an_illegal_integer_is_refused_with_the_legal_ones() -> None:
    game = make_game("pickomino")
    encoder = encoder_for(game)
    state = resolve_chance(game, game.new_state(), random.Random(1))
    with pytest.raises(IllegalAction, match="not legal now; legal: "):
        encoder.action_for(state, 6)  # roll: the player must first set dice aside
    with pytest.raises(IllegalAction, match=r"outside the action space 0\.\.9"):
        encoder.action_for(state, 10)


def test_chance_vocabulary_covers_every_outcome() -> None:
    game = make_game("karolinchen", {"tail_fruits": "random", "start_seat": "random"})
    encoder = encoder_for(game)
    state = game.new_state()
    rng = random.Random(2)
    for _ in range(300):
        if game.is_over(state):
            break
        if game.to_move(state) == CHANCE:
            for outcome, _ in game.chance_outcomes(state):
                assert encoder.chance_outcome(encoder.chance_index(outcome)) == outcome
            state = game.apply(state, game.sample_chance(state, rng))
        else:
            state = game.apply(state, rng.choice(game.legal_actions(state)))


def test_riff_raff_environments_need_the_catch_model() -> None:
    with pytest.raises(InvalidOptions, match="catching at 'model'"):
        encoder_for(make_game("riffraff", {"catching": "choose"}))


def test_riff_raff_observation_hides_the_other_face_down_card() -> None:
    game = make_game("riffraff", {"players": 2, "start_seat": 0})
    encoder = encoder_for(game)
    first = game.apply(game.new_state(), game.legal_actions(game.new_state())[3])
    other = game.apply(game.new_state(), game.legal_actions(game.new_state())[7])
    assert encoder.observe(first, 1) == encoder.observe(other, 1)
    assert encoder.observe(first, 0) != encoder.observe(other, 0)


def test_the_core_package_loads_no_optional_extra() -> None:
    code = (
        "import sys, spieltisch.core, spieltisch.bots, spieltisch.analysis, "
        "spieltisch.adapters.encoding, spieltisch.adapters.encoders\n"
        "from spieltisch.cli.main import build_parser\n"
        "build_parser()\n"
        "extras = ('pettingzoo', 'gymnasium', 'pyspiel', 'open_spiel', 'ray', 'matplotlib')\n"
        "print(sorted(m for m in extras if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_every_registered_game_has_an_encoder() -> None:
    for name in game_names():
        encoder = encoder_for(make_game(name))
        assert encoder.num_actions > 0 and encoder.observation_size > 0
        assert len(encoder.describe().splitlines()) == 2 + encoder.num_actions + len(
            encoder.fields()
        )


def visited_states(game: Game[Any, Any], games: int, seed: int) -> Iterator[Any]:
    """Every state of `games` seeded random games, chance nodes included."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_state()
        yield state
        while not game.is_over(state):
            if game.to_move(state) == CHANCE:
                state = game.apply(state, game.sample_chance(state, rng))
            else:
                state = game.apply(state, rng.choice(game.legal_actions(state)))
            yield state


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("pickomino", {"players": 3, "start_seat": "random"}),
        ("pickomino", {"players": 2, "short_game": True}),
        ("karolinchen", {"players": 3, "tail_fruits": "random", "start_seat": "random"}),
        ("karolinchen", {"players": 2, "auto_take": False}),
    ],
)
def test_perfect_information_observations_tell_every_position_apart(
    name: str, options: dict[str, Any]
) -> None:
    game = make_game(name, options)
    encoder = encoder_for(game)
    # The count of turns played is the one thing left out: the rules never read it.
    positions = {replace(state, turn=0) for state in visited_states(game, 25, seed=8)}
    for seat in range(game.num_players):
        observations = {tuple(encoder.observe(position, seat)) for position in positions}
        assert len(observations) == len(positions)


def test_pickomino_observation_holds_the_order_of_each_stack() -> None:
    encoder = encoder_for(make_game("pickomino"))
    grill = tuple(tile for tile in TILES if tile not in (21, 25, 30))
    first = PickominoState(grill, ((21, 25, 30), ()), 1, PickominoPhase.ROLL)
    second = PickominoState(grill, ((25, 21, 30), ()), 1, PickominoPhase.ROLL)
    for seat in (0, 1):
        assert encoder.observe(first, seat) != encoder.observe(second, seat)


def test_karolinchen_observation_holds_the_order_of_each_row() -> None:
    encoder = encoder_for(make_game("karolinchen"))
    zeros = (0, 0)
    first = KarolinchenState(KarolinchenPhase.ROLL, 1, (0,) * 6, ((0, 2, 4, 3), (1,)), zeros, zeros)
    second = replace(first, cards=((0, 4, 2, 3), (1,)))
    for seat in (0, 1):
        assert encoder.observe(first, seat) != encoder.observe(second, seat)


def test_vector_builder_scales_and_clips_into_the_unit_interval() -> None:
    vector = VectorBuilder()
    vector.scaled([0, 2, 4], 4)
    vector.scaled([-1, 9], 4)
    assert vector.values == [0.0, 0.5, 1.0, 0.0, 1.0]


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("pickomino", {"players": 3, "start_seat": "random"}),
        ("pickomino", {"players": 2, "short_game": True}),
        ("karolinchen", {"players": 3, "tail_fruits": "random", "start_seat": "random"}),
        ("karolinchen", {"players": 2, "auto_take": False}),
    ],
)
def test_fast_observations_equal_the_plain_ones(name: str, options: dict[str, Any]) -> None:
    game = make_game(name, options)
    encoder = encoder_for(game)
    for state in visited_states(game, 12, seed=3):
        for seat in range(game.num_players):
            fast = encoder.observe_array(state, seat)
            assert fast.dtype == np.float32
            assert fast.tolist() == np.asarray(encoder.observe(state, seat), np.float32).tolist()
            fast[:] = 2.0  # a caller's change must not reach the remembered parts
    assert encoder.observe_array(state, 0).max() <= 1.0


@pytest.mark.parametrize("name", ["pickomino", "karolinchen"])
def test_remembered_chance_pairs_equal_the_rules_outcomes(name: str) -> None:
    game = make_game(name, {"players": 3, "start_seat": "random"})
    encoder = encoder_for(game)
    for state in visited_states(game, 4, seed=6):
        if game.to_move(state) != CHANCE:
            continue
        exact = sorted(
            (encoder.chance_index(outcome), float(p)) for outcome, p in game.chance_outcomes(state)
        )
        assert list(encoder.chance_pairs(state)) == exact


def test_fast_pickomino_observation_sees_a_steal_that_leaves_the_grill_alone() -> None:
    encoder = encoder_for(make_game("pickomino"))
    grill = tuple(tile for tile in TILES if tile not in (25, 30))
    before = PickominoState(grill, ((25,), (30,)), 0, PickominoPhase.ROLL)
    after = replace(before, stacks=((25, 30), ()), seat=1)  # the same grill object
    for state in (before, after):
        plain = np.asarray(encoder.observe(state, 0), np.float32)
        assert encoder.observe_array(state, 0).tolist() == plain.tolist()


@pytest.mark.parametrize("name", ["pickomino", "karolinchen"])
def test_remembered_legal_pairs_equal_the_rules_actions(name: str) -> None:
    game = make_game(name, {"players": 3})
    encoder = encoder_for(game)
    for state in visited_states(game, 6, seed=4):
        indices, actions = encoder.legal_pairs(state)
        exact = game.legal_actions(state) if game.to_move(state) not in (None, CHANCE) else []
        assert sorted(actions, key=lambda action: encoder.index_of(state, action)) == list(actions)
        assert set(actions) == set(exact)
        assert list(indices) == [encoder.index_of(state, action) for action in actions]


def test_pickomino_observation_fields_say_what_they_name() -> None:
    game = make_game("pickomino", {"players": 3})
    encoder = encoder_for(game)
    max_worms = sum((tile - 17) // 4 for tile in TILES)
    for state in visited_states(game, 3, seed=2):
        vector = encoder.observe_array(state, 1)
        parts, at = {}, 0
        for field in encoder.fields():
            parts[field.name], at = vector[at : at + field.size].tolist(), at + field.size
        order = (1, 2, 0)  # the observer first
        assert parts["grill"] == [float(tile in state.grill) for tile in TILES]
        assert parts["out"] == [float(tile in state.out_of_game) for tile in TILES]
        scores = game.scores(state)
        assert parts["scores"] == pytest.approx([scores[seat] / max_worms for seat in order])
        tops = [float(tile == state.top(seat)) for seat in order for tile in TILES]
        assert parts["tops"] == tops
