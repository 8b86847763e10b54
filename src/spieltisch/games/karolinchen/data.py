"""Karolinchen's components: the fruit table and the colour dice.

The table is data: each worm owns one fruit card per row, and the dice show the row's colour.
Fruits are referred to by their index in `FRUITS` (0 = the first row).
"""

from __future__ import annotations

from typing import Final, NamedTuple

__all__ = [
    "COUNTS",
    "DICE",
    "FRUITS",
    "LETTERS",
    "NUM_FRUITS",
    "TOTAL_FRUITS",
    "Fruit",
    "fruit_from_word",
]


class Fruit(NamedTuple):
    """One row of the fruit table."""

    name: str  # English, plural as printed on the card
    german: str
    colour: str  # the die face of this fruit
    letter: str  # one letter per colour, shown on dice for colour-blind players
    size: int  # fruits on the card


FRUITS: Final = (
    Fruit("cherries", "Kirschen", "red", "r", 6),
    Fruit("gooseberries", "Stachelbeeren", "green", "g", 5),
    Fruit("mirabelles", "Mirabellen", "yellow", "y", 4),
    Fruit("plums", "Pflaumen", "purple", "p", 3),
    Fruit("apricots", "Aprikosen", "orange", "o", 2),
    Fruit("blueberry", "Heidelbeere", "blue", "b", 1),
)
NUM_FRUITS: Final = len(FRUITS)
COUNTS: Final = tuple(fruit.size for fruit in FRUITS)
LETTERS: Final = tuple(fruit.letter for fruit in FRUITS)
TOTAL_FRUITS: Final = sum(COUNTS)
"""Fruits on one worm's cards: covering the last of them wins."""
DICE: Final = 6
"""Colour dice; each face is one colour of the table."""

_WORDS: Final = {
    word: index
    for index, fruit in enumerate(FRUITS)
    for word in (fruit.name, fruit.german.lower(), fruit.colour, fruit.letter)
}
_WORDS.update({"cherry": 0, "gooseberry": 1, "mirabelle": 2, "plum": 3, "apricot": 4})
_WORDS.update({"blueberries": 5, "violet": 3, "lila": 3})


def fruit_from_word(word: str) -> int | None:
    """The fruit of a name, colour or letter ('plums', 'purple', 'p'), or None."""
    return _WORDS.get(word.strip().lower())
