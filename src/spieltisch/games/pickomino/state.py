"""Pickomino's positions, actions and options: small immutable values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from typing import Literal, get_args

from spieltisch.core.chance import multinomial_outcomes
from spieltisch.core.options import int_between, option, start_seat_value
from spieltisch.games.pickomino.data import DICE, FACE_VALUES, NUM_FACES, TILES, WORM

__all__ = [
    "NO_DICE",
    "ROLL",
    "STOPS",
    "TAKES",
    "Action",
    "Claim",
    "Dice",
    "FirstSeat",
    "Phase",
    "PickominoOptions",
    "PickominoState",
    "Roll",
    "Stop",
    "Take",
    "dice_outcomes",
]

NO_DICE: tuple[int, ...] = (0,) * NUM_FACES
Claim = Literal["steal", "grill", "none"]


# --- actions -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the dice that are left."""


@dataclass(frozen=True, slots=True)
class Take:
    """Set aside every rolled die showing `face` (0..4 for 1..5 pips, 5 for the worm)."""

    face: int


@dataclass(frozen=True, slots=True)
class Stop:
    """End the turn: steal the exact top tile, take from the grill, or ("none") fail."""

    claim: Claim


@dataclass(frozen=True, slots=True)
class Dice:
    """Chance outcome: how many of the rolled dice show each face."""

    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FirstSeat:
    """Chance outcome when the start seat is random."""

    seat: int


Action = Roll | Take | Stop | Dice | FirstSeat
ROLL = Roll()
TAKES = tuple(Take(face) for face in range(NUM_FACES))
STOPS: dict[Claim, Stop] = {claim: Stop(claim) for claim in get_args(Claim)}
"""`TAKES[face]` and `STOPS[claim]`, made once: the legal moves share them (equal actions, which
tables keyed by action find faster when they are the same object)."""


# --- options and state ---------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PickominoOptions:
    players: int = option(2, "number of seats, 2 to 7", int_between(2, 7, "players"))
    flip_when_nothing_returned: bool = option(
        True, "a failing player without tiles still turns the highest grill tile down"
    )
    short_game: bool = option(
        False, "official variant: a failed turn always turns the highest grill tile down"
    )
    start_seat: int | str = option(0, "the seat that plays first, or 'random'", start_seat_value)

    def __post_init__(self) -> None:
        if isinstance(self.start_seat, int) and not 0 <= self.start_seat < self.players:
            raise ValueError(f"start_seat must be 'random' or a seat from 0 to {self.players - 1}")


class Phase(StrEnum):
    START = "start"  # chance: the random start seat
    ROLL = "roll"  # chance: the dice that are left are rolled
    CHOOSE = "choose"  # the player sets aside one face of the roll
    DECIDE = "decide"  # the player rolls on or stops
    OVER = "over"


@dataclass(frozen=True, slots=True)
class PickominoState:
    grill: tuple[int, ...]  # face-up tiles on the grill, ascending
    stacks: tuple[tuple[int, ...], ...]  # each seat's tiles, bottom first
    seat: int  # whose turn it is
    phase: Phase
    kept: tuple[int, ...] = NO_DICE  # dice set aside this turn, per face
    rolled: tuple[int, ...] = NO_DICE  # the roll waiting for a choice, per face
    turn: int = 0  # turns completed so far

    @property
    def dice_left(self) -> int:
        return DICE - sum(self.kept)

    @property
    def total(self) -> int:
        """The sum of the set-aside dice (a worm counts 5)."""
        return sum(count * value for count, value in zip(self.kept, FACE_VALUES, strict=True))

    @property
    def has_worm(self) -> bool:
        return self.kept[WORM] > 0

    @property
    def turn_must_end(self) -> bool:
        """All 8 dice or all 6 faces are set aside: the turn ends by itself."""
        return self.dice_left == 0 or all(self.kept)

    def in_turn(
        self, phase: Phase, kept: tuple[int, ...], rolled: tuple[int, ...]
    ) -> PickominoState:
        """The next position of this turn: `replace` of the phase and the dice, made directly
        (twice as fast, and every step of a turn makes one)."""
        return PickominoState(self.grill, self.stacks, self.seat, phase, kept, rolled, self.turn)

    def top(self, seat: int) -> int | None:
        stack = self.stacks[seat]
        return stack[-1] if stack else None

    @property
    def out_of_game(self) -> tuple[int, ...]:
        """Tiles turned face down on the grill."""
        seen = set(self.grill).union(*self.stacks)
        return tuple(t for t in TILES if t not in seen)


# --- dice ----------------------------------------------------------------------------------
@cache
def dice_outcomes(dice: int) -> tuple[tuple[Dice, Fraction], ...]:
    """Every roll of `dice` dice as face counts, with its exact multinomial probability."""
    return tuple((Dice(counts), p) for counts, p in multinomial_outcomes(dice, NUM_FACES))
