"""One test per rule of the Pickomino spec, the rulebook scenarios and the seed differences."""

from __future__ import annotations

from fractions import Fraction
from math import comb, factorial

import pytest

from spieltisch.core import CHANCE, IllegalAction
from spieltisch.games.pickomino import ROLL, Dice, FirstSeat, Phase, PickominoState
from spieltisch.games.pickomino.data import (
    DICE,
    FACE_SYMBOLS,
    FACE_VALUES,
    NUM_FACES,
    TILES,
    WORM,
    tile_worms,
)
from spieltisch.games.pickomino.state import dice_outcomes
from tests.pickomino.helpers import (
    STEAL,
    STOP_FAIL,
    TAKE_GRILL,
    counts,
    game_for,
    grill_without,
    position,
    roll,
    take,
)

GAME = game_for(2)
GAME3 = game_for(3)


def after_turn(state: PickominoState) -> None:
    """Common checks for a position right after a turn ended (taken or failed)."""
    assert state.phase in (Phase.ROLL, Phase.OVER)
    assert state.kept == counts("")
    assert state.rolled == counts("")


# --- components --------------------------------------------------------------------------
def test_eight_dice_with_faces_one_to_five_and_a_worm_worth_five() -> None:
    assert DICE == 8
    assert NUM_FACES == 6
    assert FACE_SYMBOLS == ("1", "2", "3", "4", "5", "w")
    assert FACE_VALUES == (1, 2, 3, 4, 5, 5)
    assert FACE_VALUES[WORM] == 5


def test_worm_and_five_are_different_symbols() -> None:
    fives_kept = position(phase=Phase.CHOOSE, kept="55", rolled="55www4")
    assert GAME.legal_actions(fives_kept) == [take("4"), take("w")]
    worms_kept = position(phase=Phase.CHOOSE, kept="ww", rolled="55www4")
    assert GAME.legal_actions(worms_kept) == [take("4"), take("5")]


def test_sixteen_tiles_numbered_21_to_36() -> None:
    assert tuple(range(21, 37)) == TILES
    assert len(TILES) == 16


@pytest.mark.parametrize(
    ("tile", "worms"),
    [(t, 1) for t in range(21, 25)]
    + [(t, 2) for t in range(25, 29)]
    + [(t, 3) for t in range(29, 33)]
    + [(t, 4) for t in range(33, 37)],
)
def test_worms_on_each_tile(tile: int, worms: int) -> None:
    assert tile_worms(tile) == worms


def test_all_tiles_carry_forty_worms() -> None:
    assert sum(tile_worms(t) for t in TILES) == 40


# --- players and setup -------------------------------------------------------------------
@pytest.mark.parametrize("players", range(2, 8))
def test_setup_all_tiles_face_up_in_ascending_order(players: int) -> None:
    game = game_for(players)
    state = game.new_state()
    assert state.grill == TILES
    assert state.stacks == ((),) * players
    assert state.out_of_game == ()
    assert state.seat == 0
    assert state.turn == 0
    assert state.kept == counts("")
    assert game.scores(state) == (0,) * players
    assert game.winners(state) == ()


def test_start_seat_is_configurable() -> None:
    game = game_for(4, start_seat=3)
    state = game.new_state()
    assert state.seat == 3
    assert state.phase is Phase.ROLL
    assert game.to_move(state) == CHANCE


def test_random_start_seat_is_a_chance_node() -> None:
    game = game_for(4, start_seat="random")
    state = game.new_state()
    assert state.phase is Phase.START
    assert game.to_move(state) == CHANCE
    assert game.chance_outcomes(state) == [(FirstSeat(s), Fraction(1, 4)) for s in range(4)]
    chosen = game.apply(state, FirstSeat(2))
    assert (chosen.seat, chosen.phase) == (2, Phase.ROLL)
    assert game.to_move(chosen) == CHANCE
    with pytest.raises(IllegalAction, match="no seat 4"):
        game.apply(state, FirstSeat(4))
    with pytest.raises(IllegalAction):
        game.apply(state, roll("11112222"))


def test_play_goes_clockwise_and_wraps_around() -> None:
    last_seat = GAME3.apply(position(stacks=((), (), ()), seat=2, kept="5555w"), TAKE_GRILL)
    assert (last_seat.seat, last_seat.turn) == (0, 1)
    failed = GAME3.apply(position(stacks=((), (), ()), seat=1, kept="55", turn=4), STOP_FAIL)
    assert (failed.seat, failed.turn) == (2, 5)


# --- a turn ------------------------------------------------------------------------------
def test_turn_starts_with_a_roll_of_all_eight_dice() -> None:
    state = GAME.new_state()
    assert GAME.to_move(state) == CHANCE
    outcomes = GAME.chance_outcomes(state)
    assert len(outcomes) == comb(DICE + NUM_FACES - 1, NUM_FACES - 1)  # 1287 face counts
    assert all(isinstance(dice, Dice) and sum(dice.counts) == 8 for dice, _ in outcomes)
    assert sum(p for _, p in outcomes) == 1
    assert dict(outcomes)[roll("wwwwwwww")] == Fraction(1, 6**8)
    assert dict(outcomes)[roll("12345w12")] == Fraction(factorial(8) // (2 * 2), 6**8)
    assert GAME.legal_actions(state) == [dice for dice, _ in outcomes]


@pytest.mark.parametrize("action", [TAKE_GRILL, STOP_FAIL, STEAL, ROLL, take("w")])
def test_no_stop_or_choice_before_the_first_roll(action: object) -> None:
    state = GAME.new_state()
    with pytest.raises(IllegalAction, match="dice are being rolled"):
        GAME.apply(state, action)  # type: ignore[arg-type]


@pytest.mark.parametrize("dice", [roll("1111111"), roll("111111111"), Dice((8, 0, 0, 0, 0))])
def test_a_roll_must_show_exactly_the_dice_left(dice: Dice) -> None:
    with pytest.raises(IllegalAction, match="exactly 8 dice"):
        GAME.apply(GAME.new_state(), dice)


@pytest.mark.parametrize("dice_left", range(DICE + 1))
def test_roll_outcomes_are_exact_multinomial_probabilities(dice_left: int) -> None:
    outcomes = dice_outcomes(dice_left)
    assert len(outcomes) == comb(dice_left + 5, 5)
    assert sum(p for _, p in outcomes) == 1
    assert all(p == Fraction(1, 6**dice_left) for d, p in outcomes if d.counts[WORM] == dice_left)


def test_the_player_sets_aside_all_dice_of_the_chosen_symbol() -> None:
    state = GAME.apply(position(phase=Phase.ROLL), roll("44445www"))
    assert state.phase is Phase.CHOOSE
    after = GAME.apply(state, take("4"))
    assert after.kept == counts("4444")
    assert after.dice_left == 4
    assert after.total == 16
    assert after.rolled == counts("")
    assert after.phase is Phase.DECIDE


def test_only_a_symbol_shown_by_the_roll_can_be_chosen() -> None:
    state = position(phase=Phase.CHOOSE, rolled="44445www")
    with pytest.raises(IllegalAction, match="the roll shows no 1s; choose one of 4, 5, w"):
        GAME.apply(state, take("1"))
    with pytest.raises(IllegalAction, match="no such face"):
        GAME.apply(state, take("1").__class__(6))


def test_a_symbol_cannot_be_set_aside_twice_in_a_turn() -> None:
    state = position(phase=Phase.CHOOSE, kept="44", rolled="4www12")
    assert GAME.legal_actions(state) == [take("1"), take("2"), take("w")]
    with pytest.raises(IllegalAction, match="already set aside 4s"):
        GAME.apply(state, take("4"))


def test_a_roll_with_only_set_aside_symbols_fails_at_once() -> None:
    state = position(stacks=((25,), ()), phase=Phase.ROLL, kept="444ww")
    after = GAME.apply(state, roll("44w"))
    after_turn(after)
    assert (after.seat, after.turn) == (1, 1)
    assert after.stacks == ((), ())
    assert after.grill == grill_without(36)
    assert after.out_of_game == (36,)


def test_a_stop_is_allowed_after_any_set_aside() -> None:
    no_worm = GAME.apply(position(phase=Phase.CHOOSE, rolled="11111234"), take("1"))
    assert GAME.legal_actions(no_worm) == [ROLL, STOP_FAIL]
    with_tile = GAME.apply(position(phase=Phase.CHOOSE, kept="5555", rolled="ww11"), take("w"))
    assert with_tile.total == 30
    assert GAME.legal_actions(with_tile) == [ROLL, TAKE_GRILL]
    worm_early = GAME.apply(position(phase=Phase.CHOOSE, rolled="wwww1234"), take("w"))
    assert GAME.legal_actions(worm_early) == [ROLL, STOP_FAIL]  # 20 takes no tile yet


def test_a_failing_stop_is_accepted_by_the_engine() -> None:
    state = position(stacks=((30,), ()), kept="5555")
    assert GAME.claims(state) == ["none"]
    after = GAME.apply(state, STOP_FAIL)
    after_turn(after)
    assert after.seat == 1
    assert after.stacks == ((), ())
    assert after.out_of_game == (36,)


def test_a_stop_that_can_take_a_tile_cannot_be_a_deliberate_failure() -> None:
    state = position(kept="5555w")
    with pytest.raises(IllegalAction, match="choose 'steal' or 'grill'"):
        GAME.apply(state, STOP_FAIL)


def test_rolling_on_rolls_only_the_dice_left() -> None:
    state = GAME.apply(position(kept="444"), ROLL)
    assert state.phase is Phase.ROLL
    assert GAME.to_move(state) == CHANCE
    outcomes = GAME.chance_outcomes(state)
    dice = [d for d, _ in outcomes if isinstance(d, Dice)]
    assert len(dice) == len(outcomes) and {sum(d.counts) for d in dice} == {5}
    with pytest.raises(IllegalAction, match="exactly 5 dice"):
        GAME.apply(state, roll("12345w12"))


def test_the_turn_ends_by_itself_when_all_eight_dice_are_set_aside() -> None:
    state = position(phase=Phase.CHOOSE, kept="55555", rolled="www")
    after = GAME.apply(state, take("w"))
    after_turn(after)
    assert after.stacks == ((36,), ())
    assert (after.seat, after.turn) == (1, 1)


def test_the_turn_ends_by_itself_when_all_six_symbols_are_set_aside() -> None:
    state = position(phase=Phase.CHOOSE, kept="12345", rolled="www")
    after = GAME.apply(state, take("w"))
    after_turn(after)
    assert after.stacks == ((30,), ())


def test_six_symbols_with_dice_left_and_no_tile_fail_by_themselves() -> None:
    state = position(stacks=((22,), ()), phase=Phase.CHOOSE, kept="12345", rolled="w11")
    after = GAME.apply(state, take("w"))  # 20 with a worm, 2 dice left, nothing to take
    after_turn(after)
    assert after.seat == 1
    assert after.stacks == ((), ())
    assert after.out_of_game == (36,)


def test_an_automatic_end_with_steal_and_grill_leaves_the_choice() -> None:
    state = position(stacks=((), (30,)), phase=Phase.CHOOSE, kept="12345", rolled="www")
    after = GAME.apply(state, take("w"))
    assert after.phase is Phase.DECIDE
    assert after.turn_must_end
    assert GAME.legal_actions(after) == [STEAL, TAKE_GRILL]
    with pytest.raises(IllegalAction, match="steal or take from the grill"):
        GAME.apply(after, ROLL)


# --- taking a tile -----------------------------------------------------------------------
def test_taking_a_tile_needs_a_worm() -> None:
    state = position(kept="55555")  # 25 without a worm
    assert GAME.legal_actions(state) == [ROLL, STOP_FAIL]
    with pytest.raises(IllegalAction, match="no worm"):
        GAME.apply(state, TAKE_GRILL)


def test_steal_takes_the_exact_top_tile_of_another_player() -> None:
    state = position(stacks=((), (22, 27), (24,)), kept="444www")  # 27
    assert GAME3.claims(state) == ["steal", "grill"]
    after = GAME3.apply(state, STEAL)
    after_turn(after)
    assert after.stacks == ((27,), (22,), (24,))
    assert after.grill == state.grill
    assert after.seat == 1


def test_steal_needs_no_grill_tile_at_or_below_the_sum() -> None:
    state = position(stacks=((), (21, 22, 23, 24, 25, 26, 27)), kept="444www")
    assert GAME.grill_tile(state) is None
    assert GAME.legal_actions(state) == [ROLL, STEAL]
    assert GAME.apply(state, STEAL).stacks == ((27,), (21, 22, 23, 24, 25, 26))


def test_steal_needs_an_exact_sum() -> None:
    state = position(stacks=((), (27,)), kept="4444www")  # 31
    assert GAME.claims(state) == ["grill"]


def test_steal_needs_a_worm() -> None:
    state = position(stacks=((), (25,)), kept="55555")
    assert GAME.claims(state) == ["none"]
    with pytest.raises(IllegalAction, match="no worm"):
        GAME.apply(state, STEAL)


def test_only_the_top_tile_of_a_stack_can_be_stolen() -> None:
    state = position(stacks=((), (27, 22)), kept="444www")  # 27 is covered by 22
    assert GAME.claims(state) == ["grill"]
    with pytest.raises(IllegalAction, match="no other player's top tile is exactly 27"):
        GAME.apply(state, STEAL)
    assert GAME.apply(state, TAKE_GRILL).stacks == ((26,), (27, 22))


def test_grill_take_is_the_highest_face_up_tile_not_above_the_sum() -> None:
    assert GAME.apply(position(kept="4444www"), TAKE_GRILL).stacks[0] == (31,)
    assert GAME.apply(position(kept="55555www"), TAKE_GRILL).stacks[0] == (36,)  # 40
    gap = position(grill=grill_without(31), kept="4444www")
    assert GAME.apply(gap, TAKE_GRILL).stacks[0] == (30,)


def test_there_is_no_free_choice_of_a_lower_grill_tile() -> None:
    state = position(kept="4444www")  # 31
    assert GAME.legal_actions(state) == [ROLL, TAKE_GRILL]
    after = GAME.apply(state, TAKE_GRILL)
    assert after.grill == grill_without(31)


def test_a_sum_below_every_grill_tile_takes_nothing() -> None:
    state = position(kept="55ww")  # 20
    assert GAME.claims(state) == ["none"]
    with pytest.raises(IllegalAction, match="no tile on the grill is 20 or lower"):
        GAME.apply(state, TAKE_GRILL)


def test_an_exact_hit_on_the_own_top_tile_is_no_steal() -> None:
    state = position(stacks=((23,), ()), kept="44www")  # 23
    assert GAME.steal_victim(state) is None
    assert GAME.claims(state) == ["grill"]
    assert GAME.apply(state, TAKE_GRILL).stacks == ((23, 22), ())


def test_a_possible_steal_may_be_declined_for_the_grill_tile() -> None:
    state = position(stacks=((), (27,)), kept="444www")
    after = GAME.apply(state, TAKE_GRILL)
    assert after.stacks == ((26,), (27,))
    assert 26 not in after.grill


def test_the_new_tile_goes_on_top_of_the_own_stack() -> None:
    state = position(stacks=((33, 21), ()), kept="4444www")
    after = GAME.apply(state, TAKE_GRILL)
    assert after.stacks[0] == (33, 21, 31)
    assert after.top(0) == 31


# --- failed turn -------------------------------------------------------------------------
def test_a_failed_turn_returns_the_top_tile_and_turns_the_highest_down() -> None:
    state = position(stacks=((22, 26), ()), kept="55")
    after = GAME.apply(state, STOP_FAIL)
    assert after.stacks == ((22,), ())
    assert 26 in after.grill
    assert after.grill == tuple(sorted(after.grill))
    assert after.out_of_game == (36,)


def test_a_returned_tile_that_is_the_highest_is_not_turned_down() -> None:
    state = position(stacks=((35,), ()), grill=grill_without(35, 36), kept="55")
    after = GAME.apply(state, STOP_FAIL)
    assert after.stacks == ((), ())
    assert after.grill == grill_without(36)
    assert after.out_of_game == (36,)  # was already out before the turn


def test_a_failed_turn_without_tiles_turns_the_highest_down_by_default() -> None:
    assert GAME.options.flip_when_nothing_returned is True
    after = GAME.apply(position(kept="55"), STOP_FAIL)
    assert after.out_of_game == (36,)


def test_flip_when_nothing_returned_off_leaves_the_grill_alone() -> None:
    game = game_for(2, flip_when_nothing_returned=False)
    after = game.apply(position(kept="55"), STOP_FAIL)
    assert after.grill == TILES
    assert (after.seat, after.turn) == (1, 1)


def test_flip_when_nothing_returned_off_still_flips_after_a_returned_tile() -> None:
    game = game_for(2, flip_when_nothing_returned=False)
    after = game.apply(position(stacks=((24,), ()), kept="55"), STOP_FAIL)
    assert after.out_of_game == (36,)


def test_short_game_turns_down_the_returned_tile_when_it_is_highest() -> None:
    game = game_for(2, short_game=True)
    state = position(stacks=((36,), ()), kept="55")
    after = game.apply(state, STOP_FAIL)
    assert after.stacks == ((), ())
    assert after.out_of_game == (36,)
    assert 36 not in after.grill


def test_short_game_turns_down_the_highest_when_a_lower_tile_returns() -> None:
    game = game_for(2, short_game=True)
    after = game.apply(position(stacks=((26,), ()), kept="55"), STOP_FAIL)
    assert after.out_of_game == (36,)
    assert 26 in after.grill


def test_short_game_without_a_returned_tile_follows_flip_when_nothing_returned() -> None:
    on = game_for(2, short_game=True).apply(position(kept="55"), STOP_FAIL)
    assert on.out_of_game == (36,)
    off = game_for(2, short_game=True, flip_when_nothing_returned=False)
    assert off.apply(position(kept="55"), STOP_FAIL).out_of_game == ()


def test_a_failed_turn_with_a_worm_but_no_tile() -> None:
    state = position(stacks=((), (30,)), kept="44ww")  # 18 with a worm
    after = GAME.apply(state, STOP_FAIL)
    assert after.stacks == ((), (30,))
    assert after.out_of_game == (36,)


# --- end and scoring ---------------------------------------------------------------------
def test_the_game_ends_when_the_last_grill_tile_is_taken() -> None:
    stacks = (tuple(range(22, 30)), tuple(range(30, 37)))
    state = position(stacks=stacks, grill=(21,), kept="55555w", seat=1)  # 30
    over = GAME.apply(state, TAKE_GRILL)
    assert over.phase is Phase.OVER
    assert over.grill == ()
    assert GAME.to_move(over) is None
    assert GAME.is_over(over)
    assert GAME.legal_actions(over) == []
    assert GAME.chance_outcomes(over) == []
    assert over.stacks[1][-1] == 21


def test_the_game_ends_when_the_last_grill_tile_is_turned_down() -> None:
    state = position(stacks=((), tuple(range(21, 36))), grill=(36,), kept="55")
    over = GAME.apply(state, STOP_FAIL)
    assert over.phase is Phase.OVER
    assert over.out_of_game == (36,)
    with pytest.raises(IllegalAction, match="game is over"):
        GAME.apply(over, roll("12345w12"))


def test_the_game_goes_on_while_a_tile_is_face_up() -> None:
    state = position(stacks=((), (27,)), grill=(36,), kept="444www")
    assert GAME.apply(state, STEAL).phase is Phase.ROLL


def test_a_returned_last_tile_keeps_the_game_going_except_in_the_short_game() -> None:
    state = position(stacks=((30,), ()), grill=(), kept="55")
    normal = GAME.apply(state, STOP_FAIL)
    assert (normal.grill, normal.phase) == ((30,), Phase.ROLL)
    short = game_for(2, short_game=True).apply(state, STOP_FAIL)
    assert (short.grill, short.phase) == ((), Phase.OVER)


def test_each_player_scores_the_worms_of_their_whole_stack() -> None:
    state = position(stacks=((21, 36), (25, 29, 33)))
    assert GAME.scores(state) == (5, 9)


def test_most_worms_wins() -> None:
    state = position(stacks=((21, 36), (25, 29, 33)), grill=(), phase=Phase.OVER)
    assert GAME.winners(state) == (1,)


def test_a_tie_is_won_by_the_highest_tile_held() -> None:
    state = position(stacks=((36, 21, 22), (33, 25), (29,)), grill=(), phase=Phase.OVER)
    assert GAME3.scores(state) == (6, 6, 3)
    assert GAME3.winners(state) == (0,)  # 36 is lowest in its stack, but held


def test_tied_players_without_tiles_share_the_win() -> None:
    state = position(stacks=((), (), ()), grill=(), phase=Phase.OVER)
    assert GAME3.winners(state) == (0, 1, 2)


def test_no_winners_before_the_end() -> None:
    assert GAME.winners(position(stacks=((36,), ()))) == ()


# --- the scenarios of the official rulebook ----------------------------------------------
def test_scenario_sum_23_own_top_23_and_22_gone_takes_21() -> None:
    state = position(stacks=((23,), ()), grill=grill_without(22, 23), kept="44www")
    assert state.total == 23
    assert GAME.legal_actions(state) == [ROLL, TAKE_GRILL]
    assert GAME.apply(state, TAKE_GRILL).stacks == ((23, 21), ())


def test_scenario_sum_31_with_31_30_29_gone_takes_28() -> None:
    state = position(grill=grill_without(29, 30, 31), kept="4444www")
    assert state.total == 31
    assert GAME.apply(state, TAKE_GRILL).stacks == ((28,), ())


def test_scenario_failing_player_returns_26_while_36_is_highest() -> None:
    state = position(stacks=((26,), ()), kept="55")
    after = GAME.apply(state, STOP_FAIL)
    assert 26 in after.grill
    assert 36 not in after.grill
    assert after.out_of_game == (36,)


def test_scenario_failing_player_returns_36_and_it_is_the_highest() -> None:
    state = position(stacks=((36,), ()), kept="55")
    after = GAME.apply(state, STOP_FAIL)
    assert after.grill == TILES
    assert after.out_of_game == ()


def test_scenario_roll_44445www_then_only_4s_and_worms_fails() -> None:
    state = GAME.apply(GAME.new_state(), roll("44445www"))
    assert GAME.legal_actions(state) == [take("4"), take("5"), take("w")]
    state = GAME.apply(GAME.apply(state, take("4")), ROLL)
    state = GAME.apply(GAME.apply(state, roll("23ww")), take("w"))
    assert (state.kept, state.total) == (counts("4444ww"), 26)
    state = GAME.apply(state, ROLL)
    failed = GAME.apply(state, roll("4w"))
    after_turn(failed)
    assert (failed.seat, failed.turn) == (1, 1)
    assert failed.out_of_game == (36,)


# --- where the seed and the official rules differ ----------------------------------------
def test_official_only_set_aside_dice_count_not_the_thrown_ones() -> None:
    state = position(phase=Phase.CHOOSE, kept="ww", rolled="5555w1")
    assert state.total == 10
    assert GAME.view(state, 0)["sum"] == 10
    after = GAME.apply(state, take("5"))
    assert after.total == 30  # the worm and the 1 still rolled do not count
    assert GAME.view(after, 0)["stop"]["grill"] == 30


def test_official_turn_ends_automatically_at_eight_dice_or_six_symbols() -> None:
    eight = GAME.apply(position(phase=Phase.CHOOSE, kept="5555", rolled="wwww"), take("w"))
    assert (eight.phase, eight.stacks, eight.seat) == (Phase.ROLL, ((36,), ()), 1)
    six = GAME.apply(position(phase=Phase.CHOOSE, kept="12345", rolled="w"), take("w"))
    assert (six.phase, six.seat, six.turn) == (Phase.ROLL, 1, 1)


def test_official_tile_taken_is_the_highest_grill_tile_not_above_the_sum() -> None:
    state = position(grill=(21, 24, 29, 33), kept="4444www")  # 31
    assert GAME.apply(state, TAKE_GRILL).stacks[0] == (29,)


def test_official_steal_only_top_tile_exact_sum_with_a_worm() -> None:
    stacks = ((), (27, 25), (30,))
    assert GAME3.claims(position(stacks=stacks, kept="444www")) == ["grill"]  # 27 covered
    assert GAME3.claims(position(stacks=stacks, kept="4444www")) == ["grill"]  # 31 is no 30
    assert GAME3.claims(position(stacks=stacks, kept="55555")) == ["none"]  # 25, no worm
    assert GAME3.claims(position(stacks=stacks, kept="5555w")) == ["steal", "grill"]


def test_official_own_top_tile_hit_takes_the_next_lower_grill_tile() -> None:
    state = position(stacks=((29,), ()), kept="444www2")  # 12 + 15 + 2 = 29
    assert state.total == 29
    assert GAME.apply(state, TAKE_GRILL).stacks[0] == (29, 28)


def test_official_declining_a_steal_is_allowed() -> None:
    state = position(stacks=((), (29,)), kept="444www2")
    assert STEAL in GAME.legal_actions(state)
    assert TAKE_GRILL in GAME.legal_actions(state)
    assert GAME.apply(state, TAKE_GRILL).stacks == ((28,), (29,))


def test_official_tie_break_by_highest_single_tile() -> None:
    state = position(stacks=((24, 23, 22, 21), (35,)), grill=(), phase=Phase.OVER)
    assert GAME.scores(state) == (4, 4)
    assert GAME.winners(state) == (1,)


def test_official_short_game_is_an_optional_rule() -> None:
    assert GAME.options.short_game is False
    state = position(stacks=((36,), ()), kept="55")
    assert GAME.apply(state, STOP_FAIL).out_of_game == ()
    assert game_for(2, short_game=True).apply(state, STOP_FAIL).out_of_game == (36,)


def test_official_there_is_no_hidden_information() -> None:
    state = position(stacks=((22, 25), (31,), ()), phase=Phase.CHOOSE, kept="ww", rolled="12344w")
    views = [GAME3.view(state, seat) for seat in (None, 0, 1, 2)]
    public = [
        {k: v for k, v in view.items() if k not in ("viewer", "legal_actions")} for view in views
    ]
    assert all(view == public[0] for view in public)
    assert public[0]["state"]["stacks"] == [[22, 25], [31], []]
    assert public[0]["state"]["rolled"] == list(counts("12344w"))
    assert public[0]["state"]["kept"] == list(counts("ww"))


# --- what the log tells ------------------------------------------------------------------------
def test_the_log_tells_which_tile_was_taken_stolen_returned_or_turned_down() -> None:
    steal = position(stacks=((), (22, 27), (24,)), kept="444www")  # 27
    assert GAME3.story(steal, STEAL, GAME3.apply(steal, STEAL)) == {
        "seat": 0,
        "tile": 27,
        "from": 1,
    }
    grill = GAME3.story(steal, TAKE_GRILL, GAME3.apply(steal, TAKE_GRILL))
    assert grill == {"seat": 0, "tile": 26, "from": None}  # 27 is on a stack
    fail = position(stacks=((25,), ()), kept="55")
    assert GAME.story(fail, STOP_FAIL, GAME.apply(fail, STOP_FAIL)) == {
        "seat": 0,
        "returned": 25,
        "turned_down": 36,
    }
    assert GAME.story(fail, ROLL, GAME.apply(fail, ROLL)) == {}
