"""Karolinchen's positions, actions, options and dice: small immutable values."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from math import perm
from typing import Any, NamedTuple

from spieltisch.core.chance import multinomial_outcomes
from spieltisch.core.options import int_between, option, start_seat_value
from spieltisch.games.karolinchen.data import COUNTS, DICE, NUM_FRUITS

__all__ = [
    "LEAVE",
    "NO_DICE",
    "TAKE",
    "Action",
    "Dice",
    "FirstSeat",
    "KarolinchenOptions",
    "KarolinchenState",
    "Lay",
    "Leave",
    "Phase",
    "Step",
    "Tails",
    "Take",
    "dice_outcomes",
    "dice_sampler",
    "laid_fruits",
    "roll_counts",
    "tail_outcomes",
]

NO_DICE: tuple[int, ...] = (0,) * NUM_FRUITS


# --- actions -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Lay:
    """Lay the hand card of `fruit` as the new current card."""

    fruit: int


@dataclass(frozen=True, slots=True)
class Take:
    """Take the matching dice for the card just laid (only when taking is a choice)."""


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the matching dice in the middle and end the turn (only when taking is a choice)."""


@dataclass(frozen=True, slots=True)
class Dice:
    """Chance outcome: how many of the rolled dice show each fruit's colour."""

    counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Tails:
    """Chance outcome when tail fruits are random: each seat's tail fruit, all different."""

    fruits: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FirstSeat:
    """Chance outcome when the start seat is random."""

    seat: int


Action = Lay | Take | Leave | Dice | Tails | FirstSeat
TAKE = Take()
LEAVE = Leave()


# --- options -------------------------------------------------------------------------------
def _tail_mode(value: Any) -> str:
    if isinstance(value, str) and value.lower() in ("fixed", "random"):
        return value.lower()
    raise ValueError("expected 'fixed' or 'random'")


@dataclass(frozen=True, slots=True)
class KarolinchenOptions:
    players: int = option(2, "number of seats, 2 to 6", int_between(2, 6, "players"))
    tail_fruits: str = option(
        "fixed",
        "'fixed': seat k's tail card is the k-th fruit of the table; 'random': all different",
        _tail_mode,
    )
    start_seat: int | str = option(0, "the seat that plays first, or 'random'", start_seat_value)
    auto_take: bool = option(
        True, "matching dice for a newly laid card are taken at once; false: the player decides"
    )

    def __post_init__(self) -> None:
        if isinstance(self.start_seat, int) and not 0 <= self.start_seat < self.players:
            raise ValueError(f"start_seat must be 'random' or a seat from 0 to {self.players - 1}")


# --- positions -----------------------------------------------------------------------------
class Phase(StrEnum):
    TAILS = "tails"  # chance: the random tail fruits
    START = "start"  # chance: the random start seat
    DEAL = "deal"  # chance: all six dice are rolled into the middle before the first turn
    ROLL = "roll"  # chance: the seat to move rolls the dice in the middle
    CHOOSE = "choose"  # the seat to move lays a card from its hand
    TAKE = "take"  # the seat to move takes or leaves the dice for its new card (an option)
    OVER = "over"


@dataclass(frozen=True, slots=True)
class KarolinchenState:
    phase: Phase
    seat: int  # whose turn it is (the start seat before the first turn)
    middle: tuple[int, ...]  # dice in the middle per colour; all zero while they are rolled
    cards: tuple[tuple[int, ...], ...]  # each seat's fruit cards laid out, tail first
    eaten: tuple[int, ...]  # each seat's eaten fruits (where its worm figure stands)
    covered: tuple[int, ...]  # each seat's dice lying on its cards, after the eaten fruits
    turn: int = 0  # turns completed so far

    def current(self, seat: int) -> int:
        """The fruit of the seat's current card (the last one laid)."""
        return self.cards[seat][-1]

    def laid_fruits(self, seat: int) -> int:
        return laid_fruits(self.cards[seat])

    def free(self, seat: int) -> int:
        """Uncovered fruits on the seat's current card."""
        return self.laid_fruits(seat) - self.eaten[seat] - self.covered[seat]

    def hand(self, seat: int) -> tuple[int, ...]:
        """The fruits the seat has not laid out yet, in table order."""
        laid = self.cards[seat]
        return tuple(fruit for fruit in range(NUM_FRUITS) if fruit not in laid)

    def progress(self, seat: int) -> int:
        """Fruits eaten or covered: the seat wins when this reaches all of its fruits."""
        return self.eaten[seat] + self.covered[seat]

    @property
    def dice_in_middle(self) -> int:
        return DICE - sum(self.covered)


class Step(NamedTuple):
    """One thing that happened inside an action, for commentary (see `Karolinchen.trace`).

    kinds: 'turn' (the seat's turn begins; its current card is `fruit`), 'take' (the seat
    puts `number` dice on its `fruit` card), 'none' (no die for its `fruit` card after a roll
    or a new card), 'full' (its `fruit` card is full), 'miss' (no die in the middle matches its
    `fruit`), 'roll' (the seat must roll `number` dice), 'eat' (the seat's worm eats `number`
    fruits), 'grow' (its `fruit` card is all eaten and joins the worm), 'win'.
    """

    kind: str
    seat: int
    fruit: int = -1
    number: int = 0


@cache
def laid_fruits(cards: tuple[int, ...]) -> int:
    """The fruits on these cards."""
    return sum(COUNTS[fruit] for fruit in cards)


# --- chance ----------------------------------------------------------------------------------
@cache
def dice_outcomes(dice: int) -> tuple[tuple[Dice, Fraction], ...]:
    """Every roll of `dice` dice as colour counts, with its exact multinomial probability."""
    return tuple((Dice(counts), p) for counts, p in multinomial_outcomes(dice, NUM_FRUITS))


@cache
def roll_counts(dice: int) -> frozenset[tuple[int, ...]]:
    """Every roll of `dice` dice as colour counts (for checking a roll at a glance)."""
    return frozenset(outcome.counts for outcome, _ in dice_outcomes(dice))


@cache
def dice_sampler(dice: int) -> tuple[Dice, ...]:
    """The roll of each of the 6**dice equally likely face sequences, for one-draw sampling."""
    canonical = {outcome.counts: outcome for outcome, _ in dice_outcomes(dice)}
    table = []
    for faces in itertools.product(range(NUM_FRUITS), repeat=dice):
        counts = [0] * NUM_FRUITS
        for face in faces:
            counts[face] += 1
        table.append(canonical[tuple(counts)])
    return tuple(table)


@cache
def tail_outcomes(players: int) -> tuple[tuple[Tails, Fraction], ...]:
    """Every assignment of distinct tail fruits to the seats, all equally likely."""
    share = Fraction(1, perm(NUM_FRUITS, players))
    return tuple(
        (Tails(fruits), share) for fruits in itertools.permutations(range(NUM_FRUITS), players)
    )
