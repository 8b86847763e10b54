"""The careful bot's decisions (a few tiny simulations)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from spieltisch.bots import make_bot
from spieltisch.games.riffraff import Card, Catch, Fall, Phase, Place, RiffRaff
from spieltisch.games.riffraff.board import Board


def test_careful_plays_low_cards_while_its_supply_is_large_and_high_to_finish() -> None:
    game = RiffRaff({"players": 2, "start_seat": 0})
    bot = make_bot(game, "careful", seed=1)
    state = game.new_state()
    assert bot.choose(state) == Card(1)
    nearly_done = replace(state, supplies=((0, 0, 0, 1, 0, 0, 0, 1), state.supplies[1]))
    assert bot.choose(nearly_done) == Card(10)


def test_careful_chooses_an_allowed_placement_the_same_way_for_the_same_seed() -> None:
    game = RiffRaff({"players": 2, "start_seat": 0})
    state = game.apply(game.apply(game.new_state(), Card(5)), Card(2))
    assert state.phase is Phase.PLACE
    choices = []
    for _ in range(2):
        bot = make_bot(game, "careful:samples=1:candidates=2:wider=0", seed=7)
        choices.append(bot.choose(state))
    assert choices[0] == choices[1]
    assert isinstance(choices[0], Place)
    assert game.apply(state, choices[0]).phase is Phase.SETTLE


def test_careful_never_catches_only_its_own_piece() -> None:
    game = RiffRaff({"players": 2, "start_seat": 0, "catching": "choose"})
    state = game.apply(game.apply(game.new_state(), Card(5)), Card(2))
    falling = replace(state, phase=Phase.CATCH, placed=(3,), falling=(Fall(3, 0.5, 0.4),))
    bot = make_bot(game, "careful", seed=1)
    assert all(bot.choose(falling) == Catch(()) for _ in range(50))
    both = replace(falling, falling=(Fall(3, 0.5, 0.4), Fall(11, 0.5, 0.4)))
    caught = [bot.choose(both).bodies for _ in range(400)]
    assert (3,) not in caught  # only its own piece would not count
    assert {(), (11,), (3, 11)} == set(caught)


def test_careful_catches_no_better_than_the_catch_model() -> None:
    """Each of two pieces 0.4 s in the air is caught with 56% x 3/4 = 42% by the model."""
    game = RiffRaff({"players": 2, "start_seat": 0, "catching": "choose"})
    state = game.apply(game.apply(game.new_state(), Card(5)), Card(2))
    falls = (Fall(20, 0.5, 0.4), Fall(11, 0.5, 0.4))
    both = replace(state, phase=Phase.CATCH, placed=(3,), falling=falls)
    bot = make_bot(game, "careful", seed=2)
    caught = [bot.choose(both).bodies for _ in range(2000)]
    share = sum(11 in c for c in caught) / len(caught)
    assert abs(share - 0.42) < 0.04  # 4 standard errors
    too_quick = replace(both, falling=(Fall(20, 0.2, 0.1),))
    assert bot.choose(too_quick) == Catch(())  # 0.1 s is too short for any hand


def test_careful_refuses_parameters_beyond_its_limits() -> None:
    game = RiffRaff({"players": 2})
    assert make_bot(game, "careful:samples=3:candidates=6").candidates == 6  # type: ignore[attr-defined]
    assert make_bot(game, "careful:wider=0").wider == 0  # type: ignore[attr-defined]
    for spec in ("careful:samples=0", "careful:samples=4", "careful:candidates=7"):
        with pytest.raises(KeyError, match="a whole number from 1 to"):
            make_bot(game, spec)
    for spec in ("careful:wider=-1", "careful:wider=13"):
        with pytest.raises(KeyError, match="a whole number from 0 to 12"):
            make_bot(game, spec)


def test_careful_loads_the_side_the_ship_leans_away_from() -> None:
    game = RiffRaff({"players": 2, "start_seat": 0})
    bot = make_bot(game, "careful", seed=1)
    state = game.new_state()
    to_port = replace(state, board=Board(joints=(-0.05, 0.0, *state.board.joints[2:])))
    assert bot.choose(to_port) == Card(2)  # heeling to port: load starboard
    and_bow_up = replace(state, board=Board(joints=(-0.05, -0.05, *state.board.joints[2:])))
    assert bot.choose(and_bow_up) == Card(2)  # the bow is raised too: fore starboard
    stern_up = replace(state, board=Board(joints=(0.05, 0.05, *state.board.joints[2:])))
    assert bot.choose(stern_up) == Card(3)  # heeling to starboard, bow down: aft port


def test_careful_tries_other_pieces_when_its_first_candidates_all_drop_something(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from spieltisch.bots import riffraff as careful_module
    from spieltisch.games.riffraff.board import Placement

    game = RiffRaff({"players": 2, "start_seat": 0})
    state = game.apply(game.apply(game.new_state(), Card(9)), Card(2))
    box = 3  # the heaviest piece held: the first six candidates are boxes

    def trial(
        bot: object, state: object, placement: Placement, seeds: list[int], bound: object = None
    ) -> tuple[object, float]:
        falls = 1.0 if placement.piece == box else 0.0  # every box would drop something
        return careful_module._Trial(placement, falls), 1.0

    monkeypatch.setattr(careful_module.CarefulBot, "trial", trial)
    wide = make_bot(game, "careful:budget=1000", seed=1).choose(state)
    narrow = make_bot(game, "careful:wider=0", seed=1).choose(state)
    assert isinstance(wide, Place) and isinstance(narrow, Place)
    assert narrow.placement.piece == box
    assert wide.placement.piece != box


def _every_trial_drops_one(
    monkeypatch: pytest.MonkeyPatch, seconds: float, tried: list[object]
) -> None:
    from spieltisch.bots import riffraff as careful_module
    from spieltisch.games.riffraff.board import Placement

    def trial(
        bot: object, state: object, placement: Placement, seeds: list[int], bound: object = None
    ) -> tuple[object, float]:
        tried.append(placement)
        return careful_module._Trial(placement, 1.0), seconds

    monkeypatch.setattr(careful_module.CarefulBot, "trial", trial)


def test_careful_keeps_its_best_so_far_once_its_budget_of_simulated_seconds_is_spent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = RiffRaff({"players": 2, "start_seat": 0})
    state = game.apply(game.apply(game.new_state(), Card(9)), Card(2))
    tried: list[object] = []
    _every_trial_drops_one(monkeypatch, 3.0, tried)
    make_bot(game, "careful:budget=1000", seed=1).choose(state)
    everything = len(tried)
    assert everything == 18  # six first candidates and twelve wider ones
    tried.clear()
    make_bot(game, "careful:budget=10", seed=1).choose(state)
    assert len(tried) == 4  # 3 + 3 + 3 < 10 <= 12 simulated seconds


def test_careful_keeps_its_best_so_far_once_its_deadline_has_passed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = RiffRaff({"players": 2, "start_seat": 0})
    state = game.apply(game.apply(game.new_state(), Card(9)), Card(2))
    tried: list[object] = []
    _every_trial_drops_one(monkeypatch, 0.1, tried)
    bot = make_bot(game, "careful", seed=1)
    bot.think_within(-1.0)  # the deadline has passed before the decision begins
    assert isinstance(bot.choose(state), Place)
    assert len(tried) == 1  # one candidate is always tried
    tried.clear()
    make_bot(game, "careful", seed=1).choose(state)
    assert len(tried) == 18  # without a deadline: within its budget (0.1 s a trial)


def test_a_look_ahead_window_ends_once_enough_pieces_have_fallen() -> None:
    from spieltisch.games.riffraff.board import Placement

    game = RiffRaff({"players": 2, "start_seat": 0})
    state = game.apply(game.apply(game.new_state(), Card(9)), Card(2))
    barrel_on_the_tip = game.apply(state, Place(Placement(1, 9, 1.0)))  # it rolls off
    full = game.placement_result(barrel_on_the_tip, 1, frames=False, hurry=3.5)
    cut = game.placement_result(barrel_on_the_tip, 1, frames=False, hurry=3.5, enough_falls=1)
    assert [f.body for f in cut.fallen] == [f.body for f in full.fallen] == [1]
    assert cut.seconds < full.seconds


def test_past_its_deadline_careful_keeps_one_draw_of_its_first_candidate(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = RiffRaff({"players": 2, "start_seat": 0})
    state = game.apply(game.apply(game.new_state(), Card(5)), Card(2))
    draws: list[int | None] = []
    simulate = game.placement_result

    def counted(pending: object, seed: int | None, *args: object, **kwargs: object) -> object:
        draws.append(seed)
        return simulate(pending, seed, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(game, "placement_result", counted)
    bot = make_bot(game, "careful", seed=1)
    bot.think_within(-1.0)
    assert isinstance(bot.choose(state), Place)
    assert len(draws) == 1
    make_bot(game, "careful", seed=1).choose(state)
    assert len(draws) == 1 + 3  # without the deadline: three draws, nothing falls


def test_a_trial_stops_at_its_first_fall(monkeypatch: pytest.MonkeyPatch) -> None:
    from spieltisch.bots.riffraff import CarefulBot
    from spieltisch.games.riffraff.board import Placement

    game = RiffRaff({"players": 2, "start_seat": 0})
    state = game.apply(game.apply(game.new_state(), Card(9)), Card(2))
    draws: list[int | None] = []
    simulate = game.placement_result

    def counted(pending: object, seed: int | None, *args: object, **kwargs: object) -> object:
        draws.append(seed)
        return simulate(pending, seed, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(game, "placement_result", counted)
    bot = make_bot(game, "careful", seed=1)
    assert isinstance(bot, CarefulBot)
    off_the_tip, seconds = bot.trial(state, Placement(1, 9, 1.0), [1, 2, 3], 1)
    assert draws == [1] and off_the_tip.clean == 0 and 0 < seconds < 3.5
    inner, _ = bot.trial(state, Placement(1, 9, 0.5), [1, 2, 3], 1)
    assert draws == [1, 1, 2, 3] and inner.clean == 2  # it rolls off in the third draw only
    assert inner.rank < off_the_tip.rank
