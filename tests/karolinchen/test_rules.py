"""One test per rule of the Karolinchen spec (docs/rules/karolinchen.md)."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from math import factorial

import pytest

from spieltisch.core import CHANCE, IllegalAction, InvalidOptions
from spieltisch.games.karolinchen import (
    LEAVE,
    TAKE,
    Dice,
    FirstSeat,
    Lay,
    Phase,
    Step,
    Tails,
)
from spieltisch.games.karolinchen.data import COUNTS, DICE, FRUITS, NUM_FRUITS, TOTAL_FRUITS
from spieltisch.games.karolinchen.state import dice_outcomes, dice_sampler, tail_outcomes
from tests.karolinchen.helpers import counts, fruit, fruits, game_for, play, position

GAME = game_for(2)
GAME3 = game_for(3)


# --- components --------------------------------------------------------------------------
def test_the_fruit_table() -> None:
    table = [(f.name, f.colour, f.size) for f in FRUITS]
    assert table == [
        ("cherries", "red", 6),
        ("gooseberries", "green", 5),
        ("mirabelles", "yellow", 4),
        ("plums", "purple", 3),
        ("apricots", "orange", 2),
        ("blueberry", "blue", 1),
    ]
    assert TOTAL_FRUITS == 21
    assert len({f.letter for f in FRUITS}) == NUM_FRUITS


def test_six_dice_each_face_one_colour_with_exact_odds() -> None:
    outcomes = dict(dice_outcomes(DICE))
    assert DICE == 6
    assert len(outcomes) == 462  # multisets of 6 dice over 6 colours
    assert sum(outcomes.values()) == 1
    assert outcomes[Dice(counts("rrrrrr"))] == Fraction(1, 6**6)
    assert outcomes[Dice(counts("gggbby"))] == Fraction(factorial(6), 3 * 2 * 6**6 * 2)
    assert dict(dice_outcomes(1)) == {Dice(counts(c)): Fraction(1, 6) for c in "rgypob"}


@pytest.mark.parametrize("dice", range(1, DICE + 1))
def test_the_fast_sampler_has_exactly_the_odds(dice: int) -> None:
    table = dice_sampler(dice)
    assert len(table) == 6**dice
    counted = Counter(table)
    odds = dict(dice_outcomes(dice))
    assert counted.keys() == odds.keys()
    for outcome, probability in odds.items():
        assert Fraction(counted[outcome], len(table)) == probability


# --- options, players and setup ------------------------------------------------------------
@pytest.mark.parametrize("players", range(2, 7))
def test_setup_tail_card_out_hand_of_five_and_all_dice_rolled(players: int) -> None:
    game = game_for(players)
    state = game.new_state()
    assert state.phase is Phase.DEAL
    assert game.to_move(state) == CHANCE
    for seat in range(players):
        assert state.cards[seat] == (seat,)  # worm k's tail: the k-th fruit of the table
        assert state.free(seat) == COUNTS[seat]
        assert len(state.hand(seat)) == NUM_FRUITS - 1
        assert state.progress(seat) == 0
    assert state.dice_in_middle == DICE
    assert game.chance_outcomes(state) == list(dice_outcomes(DICE))


@pytest.mark.parametrize("players", [1, 7])
def test_two_to_six_players(players: int) -> None:
    with pytest.raises(InvalidOptions, match="players must be from 2 to 6"):
        game_for(players)


def test_options_reject_unknown_values() -> None:
    with pytest.raises(InvalidOptions, match="'fixed' or 'random'"):
        game_for(2, tail_fruits="sometimes")
    with pytest.raises(InvalidOptions, match="start_seat"):
        game_for(2, start_seat=2)


def test_random_tail_fruits_are_a_chance_node_of_distinct_fruits() -> None:
    game = game_for(3, tail_fruits="random")
    state = game.new_state()
    assert state.phase is Phase.TAILS
    assert game.to_move(state) == CHANCE
    outcomes = game.chance_outcomes(state)
    assert len(outcomes) == 6 * 5 * 4
    assert all(p == Fraction(1, 120) for _, p in outcomes)
    assert all(len(set(t.fruits)) == 3 for t, _ in outcomes)  # type: ignore[union-attr]
    drawn = game.apply(state, Tails(fruits("bor")))
    assert drawn.cards == ((5,), (4,), (0,))
    assert drawn.phase is Phase.DEAL
    for bad in ("bbo", "bo", "borg"):
        with pytest.raises(IllegalAction, match="3 different fruits"):
            game.apply(state, Tails(fruits(bad)))
    assert tail_outcomes(3) == tuple(outcomes)


def test_random_start_seat_is_a_chance_node() -> None:
    game = game_for(4, start_seat="random")
    state = game.new_state()
    assert state.phase is Phase.START
    assert game.chance_outcomes(state) == [(FirstSeat(s), Fraction(1, 4)) for s in range(4)]
    chosen = game.apply(state, FirstSeat(2))
    assert (chosen.seat, chosen.phase) == (2, Phase.DEAL)
    with pytest.raises(IllegalAction, match="no seat 4"):
        game.apply(state, FirstSeat(4))


def test_random_tails_come_before_the_random_start_seat() -> None:
    game = game_for(2, tail_fruits="random", start_seat="random")
    tails, start, deal = play(game, game.new_state(), "tails yp", "first 1", "=rrggyy")
    assert tails.phase is Phase.START
    assert start.phase is Phase.DEAL
    assert deal.cards == ((2,), (3,))
    assert deal.seat == 1  # seat 1 starts: its plums find no purple die, so it rolls
    assert deal.phase is Phase.ROLL


def test_fixed_start_seat() -> None:
    state = game_for(3, start_seat=2).new_state()
    assert state.seat == 2


def test_the_first_player_looks_at_the_dealt_dice() -> None:
    (state,) = play(GAME, GAME.new_state(), "=rrrggb")
    assert state.progress(0) == 3  # seat 0 (cherries) took the three red dice without rolling
    assert state.progress(1) == 2  # seat 1 (gooseberries) took both green dice
    assert state.seat == 0
    assert state.phase is Phase.ROLL  # seat 0 again: the blue die does not match, it rolls
    assert state.dice_in_middle == 1


# --- a turn ----------------------------------------------------------------------------------
def test_look_a_matching_die_is_taken_without_rolling() -> None:
    # Scenario 1: Sophia (cherries) takes exactly the 3 red dice; the others stay.
    before = position(["p", "r"], phase=Phase.ROLL, seat=0)
    roll = Dice(counts("rrrgyb"))  # seat 0 (plums) rolls no purple
    (after,) = play(GAME, before, "=rrrgyb")
    assert after.covered == (0, 3)  # seat 1 looked and took the three red dice
    assert after.seat == 0 and after.phase is Phase.ROLL  # seat 0 rolls the other three
    assert after.dice_in_middle == 3
    steps = GAME.trace(before, roll)
    assert Step("take", 1, fruit("r"), 3) in steps
    assert [s for s in steps if s.kind == "roll"] == [Step("roll", 0, number=3)]


def test_roll_only_the_dice_in_the_middle() -> None:
    state = position(["r", "g"], middle="", covered=(2, 1), phase=Phase.ROLL, seat=0)
    assert state.dice_in_middle == 3
    assert len(GAME.chance_outcomes(state)) == 56
    with pytest.raises(IllegalAction, match="exactly 3 dice"):
        GAME.apply(state, Dice(counts("rrrrrr")))


def test_place_at_most_the_free_fruits_surplus_stays() -> None:
    state = position(["g", "r"], eaten=(3, 0), phase=Phase.ROLL, seat=0)
    (after,) = play(GAME, state, "=gggggb")
    assert after.covered[0] == 2  # two free gooseberries: two of the five green dice
    assert after.phase is Phase.CHOOSE  # the card is full: choose the next one
    assert after.middle == counts("gggb")


def test_no_match_after_the_roll_ends_the_turn() -> None:
    state = position(["o", "p"], phase=Phase.ROLL, seat=0)
    (after,) = play(GAME, state, "=rrgyyb")
    assert after.progress(0) == 0
    assert after.seat == 1
    assert after.phase is Phase.ROLL  # seat 1 (plums) has no purple die either
    assert after.turn == 1


def test_next_card_free_choice_from_the_hand() -> None:
    state = position(["o", "r"], eaten=(1, 0), phase=Phase.ROLL, seat=0)
    (full,) = play(GAME, state, "=oggyyb")
    assert full.phase is Phase.CHOOSE
    assert full.seat == 0
    assert GAME.to_move(full) == 0
    assert GAME.legal_actions(full) == [Lay(f) for f in fruits("rgypb")]
    with pytest.raises(IllegalAction, match="apricots card is already laid out"):
        GAME.apply(full, Lay(fruit("o")))


def test_nick_chains_into_gooseberries_and_takes_both_green_dice() -> None:
    # Scenario 2: apricots with 1 free; an orange die and two green dice in the middle.
    state = position(["o", "r"], eaten=(1, 0), phase=Phase.ROLL, seat=0)
    full, chained = play(GAME, state, "=oggyyb", "lay g")
    assert full.covered[0] == 1
    assert chained.cards[0] == fruits("og")
    assert chained.covered[0] == 3  # the orange die and both green dice in the same turn
    assert chained.free(0) == 3
    assert chained.seat == 1


def test_the_chain_goes_on_through_several_cards() -> None:
    state = position(["o", "r"], eaten=(1, 0), phase=Phase.ROLL, seat=0)
    *_, after = play(GAME, state, "=obpppy", "lay b", "lay p", "lay y")
    assert after.cards[0] == fruits("obpy")
    assert after.eaten[0] == 1 + 1 + 1 + 3 + 1  # every die taken: the worms ate
    assert after.seat == 1


def test_one_roll_per_turn_even_when_the_new_card_matches_nothing() -> None:
    state = position(["b", "r"], phase=Phase.ROLL, seat=0)
    full, laid = play(GAME, state, "=bggyyo", "lay p")
    assert full.phase is Phase.CHOOSE
    assert laid.progress(0) == 1  # no purple die: seat 0 does not roll again
    assert laid.seat == 1


def test_a_player_who_took_dice_on_looking_never_rolls_that_turn() -> None:
    look = position(["b", "r"], covered=(0, 1), seat=1, phase=Phase.ROLL)
    (after,) = play(GAME, look, "=bggyy")  # seat 1 misses; seat 0 looks: the blue die
    assert after.phase is Phase.CHOOSE and after.seat == 0
    (laid,) = play(GAME, after, "lay p")  # no purple die: the turn ends without a roll
    assert laid.seat == 1
    assert laid.phase is Phase.ROLL
    assert laid.turn == after.turn + 1


def test_surplus_of_a_filled_colour_never_goes_on_the_next_card() -> None:
    state = position(["b", "r"], phase=Phase.ROLL, seat=0)
    (full,) = play(GAME, state, "=bbbrrr")
    assert fruit("b") not in full.hand(0)
    assert Lay(fruit("b")) not in GAME.legal_actions(full)
    assert full.middle == counts("bbrrr")


def test_taking_for_a_new_card_can_be_a_choice() -> None:
    game = game_for(2, auto_take=False)
    state = position(["o", "r"], eaten=(1, 0), phase=Phase.ROLL, seat=0)
    full, laid = play(game, state, "=oggyyb", "lay g")
    assert laid.phase is Phase.TAKE
    assert game.to_move(laid) == 0
    assert game.legal_actions(laid) == [TAKE, LEAVE]
    taken = game.apply(laid, TAKE)
    assert taken.covered[0] == 3 and taken.seat == 1
    left = game.apply(laid, LEAVE)
    assert left.covered[0] == 1 and left.seat == 1
    assert left.phase is Phase.ROLL and left.dice_in_middle == 5  # the green dice stayed
    (no_match,) = play(game, full, "lay p")  # nothing to take: no question asked
    assert no_match.seat == 1


# --- eating ----------------------------------------------------------------------------------
def test_eating_when_the_middle_is_empty_after_the_turn() -> None:
    state = position(["r", "g"], covered=(2, 3), phase=Phase.ROLL, seat=0)
    (after,) = play(GAME, state, "=r")
    assert after.eaten == (3, 3)
    assert after.covered == (0, 0)
    assert after.phase is Phase.ROLL
    assert after.seat == 1  # the next player after the one who took the last die
    assert after.dice_in_middle == DICE  # rolls all six: unrolled dice match nobody


def test_eating_waits_for_the_end_of_the_chain() -> None:
    state = position(["b", "r"], covered=(0, 5), phase=Phase.ROLL, seat=0)
    (full,) = play(GAME, state, "=b")
    assert full.phase is Phase.CHOOSE  # the middle is empty, but the turn is not over
    assert full.eaten == (0, 0)
    (after,) = play(GAME, full, "lay g")
    assert after.eaten == (1, 5)
    assert after.seat == 1 and after.phase is Phase.ROLL


def test_eaten_progress_is_kept_across_cards() -> None:
    state = position(["bg", "r"], covered=(2, 3), phase=Phase.ROLL, seat=0)
    (after,) = play(GAME, state, "=g")
    assert after.eaten == (3, 3)
    assert after.free(0) == 3  # blueberry eaten, 2 of the 5 gooseberries eaten
    assert after.progress(0) == 3


# --- the end -------------------------------------------------------------------------------
def test_the_last_fruit_wins_at_once_mid_chain_with_dice_left() -> None:
    # Scenario 4: the 21st fruit mid-chain wins although dice remain in the middle.
    state = position(["rgypo", "r"], eaten=(18, 0), phase=Phase.ROLL, seat=0)
    full, won = play(GAME, state, "=oobrrr", "lay b")
    assert full.phase is Phase.CHOOSE
    assert won.phase is Phase.OVER
    assert GAME.to_move(won) is None
    assert GAME.winners(won) == (0,)
    assert GAME.scores(won) == (TOTAL_FRUITS, 0)
    assert won.middle == counts("rrr")  # dice remain; no eating phase follows
    assert won.eaten == (18, 0)
    assert GAME.legal_actions(won) == []


def test_the_last_fruit_wins_when_taken_on_looking() -> None:
    state = position(["r", "gyporb"], eaten=(0, 20), covered=(1, 0), seat=0, phase=Phase.ROLL)
    (won,) = play(GAME, state, "=bgggg")
    assert GAME.winners(won) == (1,)
    assert won.phase is Phase.OVER


def test_there_are_no_ties_and_scores_are_fruits() -> None:
    state = position(["r", "g"], eaten=(3, 1), covered=(1, 2), phase=Phase.ROLL)
    assert GAME.scores(state) == (4, 3)
    assert GAME.winners(state) == ()


# --- errors ----------------------------------------------------------------------------------
def test_illegal_actions_explain_and_change_nothing() -> None:
    state = position(["o", "r"], covered=(2, 0), middle="ggyyb", seat=0)
    copy = GAME.state_to_json(state)
    with pytest.raises(IllegalAction, match="choose the next card"):
        GAME.apply(state, Dice(counts("ggyyb")))
    with pytest.raises(IllegalAction, match="no such fruit"):
        GAME.apply(state, Lay(9))
    with pytest.raises(IllegalAction, match="'take' the matching dice"):
        GAME.apply(position(["o", "r"], middle="g", phase=Phase.TAKE), Lay(1))
    with pytest.raises(IllegalAction, match="not a chance node"):
        GAME.sample_chance(state, random.Random(1))
    assert GAME.state_to_json(state) == copy
    assert issubclass(IllegalAction, ValueError)


def test_three_players_play_clockwise() -> None:
    state = position(["r", "g", "y"], phase=Phase.ROLL, seat=2)
    (after,) = play(GAME3, state, "=pppppp")
    assert after.seat == 0  # seat 2 missed; seat 0 misses too and rolls
    assert after.phase is Phase.ROLL
