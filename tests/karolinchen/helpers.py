"""Building Karolinchen positions for tests, in the game's own letters (r g y p o b)."""

from __future__ import annotations

from collections.abc import Sequence

from spieltisch.games.karolinchen import Karolinchen, KarolinchenState, Phase
from spieltisch.games.karolinchen.data import LETTERS, NUM_FRUITS

__all__ = ["counts", "fruit", "fruits", "game_for", "play", "position"]


def fruit(letter: str) -> int:
    return LETTERS.index(letter)


def fruits(letters: str) -> tuple[int, ...]:
    return tuple(fruit(letter) for letter in letters)


def counts(letters: str) -> tuple[int, ...]:
    """Dice as counts per colour: 'ggb' -> (0, 2, 0, 0, 0, 1)."""
    result = [0] * NUM_FRUITS
    for letter in letters:
        result[fruit(letter)] += 1
    return tuple(result)


def game_for(players: int = 2, **options: object) -> Karolinchen:
    return Karolinchen({"players": players, **options})


def position(
    cards: Sequence[str],
    *,
    middle: str = "",
    eaten: Sequence[int] | None = None,
    covered: Sequence[int] | None = None,
    seat: int = 0,
    phase: Phase = Phase.CHOOSE,
    turn: int = 0,
) -> KarolinchenState:
    """A position: each seat's laid cards as letters, tail first ('gb': gooseberries, then
    blueberry as the current card); by default nothing eaten or covered."""
    zeros = (0,) * len(cards)
    return KarolinchenState(
        phase,
        seat,
        counts(middle),
        tuple(fruits(letters) for letters in cards),
        tuple(eaten) if eaten is not None else zeros,
        tuple(covered) if covered is not None else zeros,
        turn,
    )


def play(game: Karolinchen, state: KarolinchenState, *texts: str) -> list[KarolinchenState]:
    """The states after each action, typed in the game's notation."""
    states = [state]
    for text in texts:
        states.append(game.apply(states[-1], game.parse_action(states[-1], text)))
    return states[1:]
