"""The rulebook's example round, replayed in the game's text notation."""

from __future__ import annotations

from spieltisch.games.karolinchen import Phase, Step
from spieltisch.games.karolinchen.data import DICE
from tests.karolinchen.helpers import counts, fruit, fruits, game_for, play, position

LINO, HEIDI, NICK, SOPHIA = range(4)
GAME = game_for(4)
ROUND = ("=gggbby", "lay y", "=r")
"""Lino rolls after an eating phase; Heidi lays the mirabelles; Nick rolls the last die."""


def test_the_example_round_replays_exactly() -> None:
    # Lino gooseberries (none covered), Heidi blueberry (1 free, mirabelles in hand), Nick
    # apricots, Sophia cherries. The worms just ate, so Lino rolls all six dice.
    start = position(["g", "b", "o", "r"], phase=Phase.ROLL, seat=LINO)
    assert start.dice_in_middle == DICE
    heidi_full, heidi_laid, eaten = play(GAME, start, *ROUND)

    # 1. Lino takes the three green dice; his turn ends.  2. Heidi takes one blue die: her
    # blueberry card is full and she chooses the next card.
    assert heidi_full.covered == (3, 1, 0, 0)
    assert heidi_full.seat == HEIDI and heidi_full.phase is Phase.CHOOSE
    assert heidi_full.middle == counts("by")
    # She lays the mirabelles and takes the yellow die; the middle holds one blue die.
    assert heidi_laid.cards[HEIDI] == fruits("by")
    assert heidi_laid.covered == (3, 2, 0, 0)
    # 3. Nick's apricots match no die: he rolls the one blue die.
    assert heidi_laid.seat == NICK and heidi_laid.phase is Phase.ROLL
    assert heidi_laid.dice_in_middle == 1
    # 4. He rolls red: no match. Sophia takes it: the middle is empty and the worms eat.
    # 5.-8. Lino's worm moves 3 fruits, Heidi's 2, Nick's 0, Sophia's 1.
    assert eaten.eaten == (3, 2, 0, 1)
    assert eaten.covered == (0, 0, 0, 0)
    # 9. Now Lino rolls all six dice.
    assert eaten.seat == LINO and eaten.phase is Phase.ROLL
    assert eaten.dice_in_middle == DICE


def test_the_example_round_step_by_step() -> None:
    start = position(["g", "b", "o", "r"], phase=Phase.ROLL, seat=LINO)
    heidi_full, heidi_laid, _ = play(GAME, start, *ROUND)
    g, b, y, o, r = (fruit(letter) for letter in "gbyor")
    assert GAME.trace(start, GAME.parse_action(start, ROUND[0])) == [
        Step("take", LINO, g, 3),
        Step("turn", HEIDI, b),
        Step("take", HEIDI, b, 1),
        Step("full", HEIDI, b),
    ]
    assert GAME.trace(heidi_full, GAME.parse_action(heidi_full, ROUND[1])) == [
        Step("take", HEIDI, y, 1),
        Step("turn", NICK, o),
        Step("miss", NICK, o, 1),
        Step("roll", NICK, number=1),
    ]
    assert GAME.trace(heidi_laid, GAME.parse_action(heidi_laid, ROUND[2])) == [
        Step("none", NICK, o, 0),
        Step("turn", SOPHIA, r),
        Step("take", SOPHIA, r, 1),
        Step("eat", LINO, number=3),
        Step("eat", HEIDI, number=2),
        Step("eat", NICK, number=0),
        Step("eat", SOPHIA, number=1),
        Step("grow", HEIDI, b),  # the blueberry card turns over behind Heidi's head
        Step("turn", LINO, g),
        Step("roll", LINO, number=DICE),
    ]
