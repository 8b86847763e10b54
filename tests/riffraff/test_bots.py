"""The careful bot's decisions (a few tiny simulations)."""

from __future__ import annotations

from dataclasses import replace

from spieltisch.bots import make_bot
from spieltisch.games.riffraff import Card, Catch, Fall, Phase, Place, RiffRaff


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
        bot = make_bot(game, "careful:samples=1:candidates=2", seed=7)
        choices.append(bot.choose(state))
    assert choices[0] == choices[1]
    assert isinstance(choices[0], Place)
    assert game.apply(state, choices[0]).phase is Phase.SETTLE


def test_careful_never_catches_only_its_own_piece() -> None:
    game = RiffRaff({"players": 2, "start_seat": 0, "catching": "choose"})
    state = game.apply(game.apply(game.new_state(), Card(5)), Card(2))
    falling = replace(state, phase=Phase.CATCH, placed=(3,), falling=(Fall(3, 0.5, 0.4),))
    bot = make_bot(game, "careful", seed=1)
    assert bot.choose(falling) == Catch(())
    both = replace(falling, falling=(Fall(3, 0.5, 0.4), Fall(11, 0.5, 0.4)))
    assert bot.choose(both) == Catch((3, 11))
