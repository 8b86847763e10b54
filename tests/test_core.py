"""The foundation: exact chance sampling, option readers and the registry."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from spieltisch.core import IllegalAction, game_class, game_names, sample_exact
from spieltisch.core.options import describe_options, int_between, read_int, start_seat_value
from spieltisch.games.pickomino import ROLL, Phase, Pickomino, PickominoOptions
from spieltisch.games.pickomino.state import dice_outcomes


class Tickets(random.Random):
    """A generator whose `randrange` returns the given tickets in turn."""

    def __init__(self, *tickets: int) -> None:
        super().__init__(0)
        self.tickets = list(tickets)
        self.asked: list[int] = []

    def randrange(self, stop: int, *args: object, **kwargs: object) -> int:  # type: ignore[override]
        self.asked.append(stop)
        return self.tickets.pop(0)


# --- chance ------------------------------------------------------------------------------
def test_sample_exact_maps_integer_tickets_to_outcomes() -> None:
    outcomes = [("a", Fraction(1, 4)), ("b", Fraction(1, 6)), ("c", Fraction(7, 12))]
    rng = Tickets(0, 2, 3, 4, 5, 11)
    assert [sample_exact(outcomes, rng) for _ in range(6)] == ["a", "a", "b", "b", "c", "c"]
    assert set(rng.asked) == {12}


def test_sample_exact_with_a_certain_outcome() -> None:
    assert sample_exact([("only", Fraction(1))], random.Random(3)) == "only"


def test_sample_exact_refuses_nothing_to_sample() -> None:
    with pytest.raises(ValueError, match="no chance outcomes"):
        sample_exact([], random.Random(0))


def test_sample_exact_refuses_probabilities_below_one() -> None:
    with pytest.raises(ValueError, match="sum to less than 1"):
        sample_exact([("a", Fraction(1, 2))], Tickets(1))


def test_sample_exact_is_reproducible_with_a_seed() -> None:
    outcomes = list(dice_outcomes(3))
    first = [sample_exact(outcomes, random.Random(5)) for _ in range(3)]
    again = [sample_exact(outcomes, random.Random(5)) for _ in range(3)]
    assert first == again


def test_pickomino_dice_follow_the_exact_distribution() -> None:
    game = Pickomino()
    state = game.new_state()
    state = state.__class__(state.grill, state.stacks, 0, Phase.ROLL, kept=(1, 1, 1, 1, 1, 1))
    rng = random.Random(2024)
    draws = Counter(game.sample_chance(state, rng) for _ in range(3600))
    expected = dict(game.chance_outcomes(state))
    assert set(draws) <= set(expected)
    chi2 = sum((draws[o] - 3600 * p) ** 2 / (3600 * p) for o, p in expected.items())
    assert chi2 < 60  # 20 degrees of freedom; fixed seed, so this never flickers


def test_sample_chance_outside_a_chance_node_is_illegal() -> None:
    game = Pickomino()
    state = game.apply(game.new_state(), game.parse_action(game.new_state(), "=12345w12"))
    with pytest.raises(IllegalAction, match="not a chance node"):
        game.sample_chance(state, random.Random(0))


# --- option readers ----------------------------------------------------------------------
@pytest.mark.parametrize(("value", "number"), [(3, 3), ("3", 3), ("-2", -2), (" 7 ", 7)])
def test_read_int_accepts_whole_numbers(value: object, number: int) -> None:
    assert read_int(value) == number


@pytest.mark.parametrize("value", [True, 2.0, "2.5", "", "x", None, "²", "--5", "-"])
def test_read_int_rejects_everything_else(value: object) -> None:
    with pytest.raises(ValueError, match="expected a whole number"):
        read_int(value)


def test_int_between_names_the_range() -> None:
    read = int_between(2, 4, "seats")
    assert read("4") == 4
    with pytest.raises(ValueError, match="seats must be from 2 to 4"):
        read(5)


@pytest.mark.parametrize(("value", "seat"), [("random", "random"), ("Random", "random"), ("1", 1)])
def test_start_seat_value(value: object, seat: object) -> None:
    assert start_seat_value(value) == seat


def test_start_seat_value_rejects_words() -> None:
    with pytest.raises(ValueError, match="a seat number or 'random'"):
        start_seat_value("youngest")


def test_describe_options_lists_every_option_with_its_default() -> None:
    described = {name: (default, doc) for name, default, doc in describe_options(PickominoOptions)}
    assert set(described) == {"players", "flip_when_nothing_returned", "short_game", "start_seat"}
    assert described["players"][0] == 2
    assert described["flip_when_nothing_returned"][0] is True
    assert described["short_game"][0] is False
    assert described["start_seat"][0] == 0
    assert all(doc for _, doc in described.values())


# --- registry ----------------------------------------------------------------------------
def test_the_registry_finds_games_by_name() -> None:
    for name in game_names():
        assert game_class(name).name == name
    assert game_class("pickomino") is Pickomino


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match=r"unknown game 'go'; the games are: .*pickomino"):
        game_class("go")


# --- protocol helpers --------------------------------------------------------------------
def test_check_legal_names_the_allowed_actions() -> None:
    game = Pickomino()
    state = game.apply(game.new_state(), game.parse_action(game.new_state(), "=44445www"))
    game.check_legal(state, game.parse_action(state, "w"))
    with pytest.raises(IllegalAction, match="'roll' is not legal now; allowed: take 4, take 5"):
        game.check_legal(state, ROLL)


def test_apply_all_is_a_fold_of_apply() -> None:
    game = Pickomino()
    start = game.new_state()
    first = game.parse_action(start, "=44445www")
    after_roll = game.apply(start, first)
    second = game.parse_action(after_roll, "take w")
    assert game.apply_all(start, [first, second]) == game.apply(after_roll, second)
    assert game.apply_all(start, []) == start
