"""Building Pickomino positions and actions for tests, in the game's own symbols."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spieltisch.games.pickomino import Dice, Phase, Pickomino, PickominoState, Stop, Take
from spieltisch.games.pickomino.data import NUM_FACES, TILES, face_from_symbol

__all__ = [
    "STEAL",
    "STOP_FAIL",
    "TAKE_GRILL",
    "counts",
    "face",
    "game_for",
    "grill_without",
    "position",
    "roll",
    "take",
]

STEAL = Stop("steal")
TAKE_GRILL = Stop("grill")
STOP_FAIL = Stop("none")


def face(symbol: str) -> int:
    """The face index of '1'..'5' or 'w'."""
    index = face_from_symbol(symbol)
    assert index is not None, symbol
    return index


def counts(symbols: str) -> tuple[int, ...]:
    """Dice as counts per face: '4444w' -> (0, 0, 0, 4, 0, 1)."""
    result = [0] * NUM_FACES
    for symbol in symbols:
        result[face(symbol)] += 1
    return tuple(result)


def roll(symbols: str) -> Dice:
    return Dice(counts(symbols))


def take(symbol: str) -> Take:
    return Take(face(symbol))


def grill_without(*tiles: int) -> tuple[int, ...]:
    return tuple(t for t in TILES if t not in tiles)


def game_for(players: int = 2, **options: object) -> Pickomino:
    return Pickomino({"players": players, **options})


def position(
    *,
    stacks: Sequence[Iterable[int]] = ((), ()),
    grill: Iterable[int] | None = None,
    seat: int = 0,
    phase: Phase = Phase.DECIDE,
    kept: str = "",
    rolled: str = "",
    turn: int = 0,
) -> PickominoState:
    """A position; by default the grill holds every tile not in a stack."""
    stacks_t = tuple(tuple(stack) for stack in stacks)
    held = {tile for stack in stacks_t for tile in stack}
    grill_t = tuple(grill) if grill is not None else tuple(t for t in TILES if t not in held)
    return PickominoState(grill_t, stacks_t, seat, phase, counts(kept), counts(rolled), turn)
