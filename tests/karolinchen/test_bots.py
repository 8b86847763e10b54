"""Karolinchen bots: the greedy rule, the expert's search, and both against each other."""

from __future__ import annotations

import itertools

import pytest

from spieltisch.bots import make_bot, play_match
from spieltisch.bots.karolinchen import ExpertBot, _greedy_lay, greedy_fruit, roll_gain
from spieltisch.games.karolinchen import TAKE, Lay, Phase
from spieltisch.games.karolinchen.data import COUNTS, DICE, NUM_FRUITS
from tests.karolinchen.helpers import fruit, game_for, position

GAME = game_for(2)


def test_the_bots_of_karolinchen() -> None:
    from spieltisch.bots import bot_names

    assert {"random", "greedy", "expert"} <= set(bot_names("karolinchen"))


@pytest.mark.parametrize(
    ("middle", "choice"),
    [
        ("gggyyb", "g"),  # three green dice: the most at once
        ("oooyyy", "y"),  # three of each, but the apricots card takes only two
        ("oo", "o"),  # ties with nothing else to take: fewest fruits among equals
        ("", "b"),  # nothing to take anywhere: the card with the fewest fruits
        ("ppyy", "p"),  # two each: plums (3) has fewer fruits than mirabelles (4)
    ],
)
def test_greedy_takes_the_most_dice_then_the_smallest_card(middle: str, choice: str) -> None:
    state = position(["r", "g"], middle=middle, covered=(6 - len(middle), 0), seat=0)
    assert greedy_fruit(state) == fruit(choice)
    assert make_bot(GAME, "greedy").choose(state) == Lay(fruit(choice))


def test_greedy_lays_for_every_middle_and_hand_what_its_rule_says() -> None:
    """The remembered order of the cards for each middle gives, whatever was laid, the card
    of the hand that takes the most dice now, on ties the one with the fewest fruits."""
    middles = [m for m in itertools.product(range(DICE + 1), repeat=NUM_FRUITS) if sum(m) <= DICE]
    for middle in middles:
        for size in range(1, NUM_FRUITS):
            for cards in itertools.combinations(range(NUM_FRUITS), size):
                hand = [f for f in range(NUM_FRUITS) if f not in cards]
                best = Lay(max(hand, key=lambda f: (min(middle[f], COUNTS[f]), -COUNTS[f])))
                for laid in (cards, cards[::-1]):  # the order they were laid in
                    assert _greedy_lay(middle, laid) == best, (middle, laid)


def test_greedy_always_takes_when_taking_is_a_choice() -> None:
    game = game_for(2, auto_take=False)
    state = position(["og", "r"], middle="gg", covered=(3, 1), phase=Phase.TAKE, seat=0)
    assert make_bot(game, "greedy").choose(state) == TAKE


def test_roll_gain_is_the_exact_expected_take() -> None:
    assert roll_gain(1, 3) == pytest.approx(1 / 6)
    assert roll_gain(6, 6) == pytest.approx(1.0)
    assert roll_gain(2, 1) == pytest.approx(11 / 36)  # at least one of two dice matches


def test_expert_sees_a_chain_greedy_misses() -> None:
    # Blueberry takes one die and fills at once; then gooseberries take the two green dice.
    # Greedy lays the gooseberries (two dice) and stops there.
    state = position(["o", "p"], middle="ggby", covered=(2, 0), seat=0)
    assert greedy_fruit(state) == fruit("g")
    assert make_bot(GAME, "expert").choose(state) == Lay(fruit("b"))


def test_expert_plays_to_the_win() -> None:
    state = position(["rgyp", "r"], middle="oobrrr", eaten=(17, 0), covered=(1, 0), seat=0)
    expert = make_bot(GAME, "expert")
    while not GAME.is_over(state):
        state = GAME.apply(state, expert.choose(state))
    assert GAME.winners(state) == (0,)


def test_expert_is_deterministic_and_plays_legal_moves_with_more_players() -> None:
    game = game_for(3)
    bots = [make_bot(game, "expert", 1), make_bot(game, "greedy", 2), make_bot(game, "random", 3)]
    first = play_match(game, bots, seed=4)
    again = play_match(
        game,
        [make_bot(game, name, s) for name, s in (("expert", 1), ("greedy", 2), ("random", 3))],
        seed=4,
    )
    assert first.record.actions == again.record.actions
    assert game.is_over(first.state)


def test_expert_parameters() -> None:
    bot = make_bot(GAME, "expert:depth=1:win=4")
    assert isinstance(bot, ExpertBot)
    assert (bot.rolls_ahead, bot.win) == (1, 4.0)
    assert make_bot(game_for(4), "expert").rolls_ahead == 1  # type: ignore[attr-defined]
