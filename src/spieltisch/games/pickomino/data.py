"""Pickomino's components: dice faces and grill tiles."""

from __future__ import annotations

from typing import Final

__all__ = [
    "DICE",
    "FACE_SYMBOLS",
    "FACE_VALUES",
    "NUM_FACES",
    "TILES",
    "WORM",
    "face_from_symbol",
    "tile_worms",
]

DICE: Final = 8
NUM_FACES: Final = 6
WORM: Final = 5
"""Index of the worm face; faces 0..4 show 1..5 pips."""
FACE_VALUES: Final = (1, 2, 3, 4, 5, 5)
FACE_SYMBOLS: Final = ("1", "2", "3", "4", "5", "w")
TILES: Final = tuple(range(21, 37))


def tile_worms(tile: int) -> int:
    """21-24 carry one worm, 25-28 two, 29-32 three, 33-36 four."""
    return (tile - 17) // 4


def face_from_symbol(symbol: str) -> int | None:
    """The face index of '1'..'5' or 'w' (also 'W', '6', 'worm'), or None."""
    text = symbol.strip().lower()
    if text in ("w", "6", "worm", "worms"):
        return WORM
    if text in FACE_SYMBOLS:
        return FACE_SYMBOLS.index(text)
    return None
