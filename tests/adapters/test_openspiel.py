"""OpenSpiel: the registered games pass random_sim_test; the MCTS example runs."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from spieltisch.adapters.openspiel import RANDOM_SEAT, SHORT_NAMES  # noqa: E402
from spieltisch.core import make_game  # noqa: E402
from spieltisch.games.pickomino.data import TILES  # noqa: E402
from spieltisch.games.pickomino.state import Phase, PickominoState  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "openspiel_mcts.py"


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("pickomino", {"players": 3}),
        ("pickomino", {"players": 2, "short_game": True}),
        ("karolinchen", {"players": 2, "auto_take": False}),
        ("karolinchen", {"players": 4, "tail_fruits": "random"}),
        # Not flip_when_nothing_returned=False: random play then takes thousands of moves.
        ("pickomino", {"players": 4, "start_seat": RANDOM_SEAT, "short_game": True}),
        ("karolinchen", {"players": 3, "start_seat": 2}),
        ("karolinchen", {"players": 2, "start_seat": RANDOM_SEAT, "tail_fruits": "random"}),
    ],
)
def test_random_sim_test(name: str, params: dict[str, Any]) -> None:
    game = pyspiel.load_game(SHORT_NAMES[name], params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", sorted(SHORT_NAMES))
def test_every_game_option_is_a_parameter(name: str) -> None:
    parameters = pyspiel.load_game(SHORT_NAMES[name]).get_parameters()
    assert set(parameters) == set(make_game(name).options_json())


def test_start_seat_parameter_chooses_or_draws_the_first_player() -> None:
    game = pyspiel.load_game("spieltisch_pickomino(players=3,start_seat=2)")
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])  # the first roll
    assert state.current_player() == 2
    drawn = pyspiel.load_game(SHORT_NAMES["karolinchen"], {"players": 3, "start_seat": RANDOM_SEAT})
    assert drawn.rules.options.start_seat == "random"
    outcomes = drawn.new_initial_state().chance_outcomes()
    assert [p for _, p in outcomes] == pytest.approx([1 / 3] * 3)


def test_observation_string_holds_the_order_of_each_stack() -> None:
    game = pyspiel.load_game(SHORT_NAMES["pickomino"])
    grill = tuple(tile for tile in TILES if tile not in (21, 25, 30))
    strings = []
    for stack in [(21, 25, 30), (25, 21, 30)]:
        state = game.new_initial_state()
        state.position = PickominoState(grill, (stack, ()), 1, Phase.ROLL)
        strings.append(state.observation_string(0))
    assert strings[0] != strings[1]
    assert strings[0].startswith("Grill")


def test_chance_outcomes_are_exact_and_sum_to_one() -> None:
    game = pyspiel.load_game(SHORT_NAMES["pickomino"])
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 1287  # 8 dice, counts per face
    assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
    assert max(p for _, p in outcomes) == pytest.approx(10080 / 6**8)  # two pairs, four singles


def test_mcts_example_plays_against_spieltisch_bots() -> None:
    spec = importlib.util.spec_from_file_location("openspiel_mcts", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    args = ["--game", "karolinchen", "--games", "2", "--simulations", "8", "--seed", "3"]
    totals = module.main(args)
    assert sum(totals) == pytest.approx(2.0)
    assert module.main(args) == totals
