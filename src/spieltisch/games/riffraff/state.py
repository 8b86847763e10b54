"""Riff Raff's positions, actions and options: small immutable values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from spieltisch.core.options import int_between, option, start_seat_value
from spieltisch.games.riffraff.board import REST, Board, Fall, PiecePose, Placement
from spieltisch.games.riffraff.data import CARD_NUMBERS, PIECES, sets_per_player

__all__ = [
    "CATCH_MODES",
    "Action",
    "Announce",
    "Captain",
    "Card",
    "Catch",
    "FirstCaptain",
    "Next",
    "Phase",
    "Place",
    "RiffRaffOptions",
    "RiffRaffState",
    "Settled",
    "read_steadiness",
]

CATCH_MODES = ("model", "choose")


# --- actions -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FirstCaptain:
    """Chance outcome when the first captain is drawn by lot."""

    seat: int


@dataclass(frozen=True, slots=True)
class Card:
    """Lay card `number` face down for this round."""

    number: int


@dataclass(frozen=True, slots=True)
class Captain:
    """The previous captain names the new one among the seats tied for the highest card."""

    seat: int


@dataclass(frozen=True, slots=True)
class Next:
    """The captain names which of the seats with equal cards plays next."""

    seat: int


@dataclass(frozen=True, slots=True)
class Announce:
    """Load one or two pieces this turn (two only onto a yard area with cargo on it)."""

    count: int


@dataclass(frozen=True, slots=True)
class Place:
    """Put a piece on the ship (see `board.Placement`)."""

    placement: Placement


@dataclass(frozen=True, slots=True)
class Settled:
    """Chance outcome of a placement, from the physics: the piece number used, the ship at
    rest afterwards, the pieces that fell and the ship's remaining motion (rad/s)."""

    body: int
    board: Board
    fallen: tuple[Fall, ...]
    motion: float


@dataclass(frozen=True, slots=True)
class Catch:
    """The pieces the active player caught (at most two of those that fell this turn); a
    chance outcome of the catch model, or the player's own action when catching is 'choose'."""

    bodies: tuple[int, ...]


Action = FirstCaptain | Card | Captain | Next | Announce | Place | Settled | Catch


# --- options -------------------------------------------------------------------------------
def read_steadiness(value: Any) -> str:
    """One factor for every seat or one per seat, comma-separated: '1', '1,0.5,1.5'."""
    text = str(value).strip()
    try:
        numbers = [float(part) for part in text.split(",")]
    except ValueError:
        raise ValueError("expected a number or comma-separated numbers, e.g. 1 or 1,0.5") from None
    if not all(0 <= n <= 10 for n in numbers):
        raise ValueError("steadiness factors must be from 0 (a perfect hand) to 10")
    return ",".join(repr(n) for n in numbers)


def _read_catching(value: Any) -> str:
    text = str(value).strip().lower()
    if text not in CATCH_MODES:
        raise ValueError(f"expected one of {', '.join(CATCH_MODES)}")
    return text


@dataclass(frozen=True, slots=True)
class RiffRaffOptions:
    players: int = option(2, "number of seats, 2 to 4", int_between(2, 4, "players"))
    start_seat: int | str = option(
        "random", "the first captain (a seat number), or 'random'", start_seat_value
    )
    catching: str = option(
        "model",
        "'model': catches are drawn from the catch model; 'choose': the player sends the "
        "pieces caught (an interface with a real-time catching game)",
        _read_catching,
    )
    steadiness: str = option(
        "1.0",
        "execution noise factor, one for all seats or one per seat (0 = a perfect hand)",
        read_steadiness,
    )
    card_history: bool = option(
        False, "assist: views show every card played, not only each player's latest"
    )

    def __post_init__(self) -> None:
        if isinstance(self.start_seat, int) and not 0 <= self.start_seat < self.players:
            raise ValueError(f"start_seat must be 'random' or a seat from 0 to {self.players - 1}")
        factors = self.steadiness.split(",")
        if len(factors) not in (1, self.players):
            raise ValueError(f"steadiness needs one factor or {self.players}, one per seat")

    def steadiness_of(self, seat: int) -> float:
        factors = [float(f) for f in self.steadiness.split(",")]
        return factors[seat] if len(factors) > 1 else factors[0]

    @property
    def rounds(self) -> int:
        """The last round: 10, or 20 in the 2-player game (the cards go round twice)."""
        return len(CARD_NUMBERS) * (2 if self.players == 2 else 1)

    @property
    def cargo_count(self) -> int:
        """Cargo pieces in the game, numbered set by set."""
        return self.players * sets_per_player(self.players) * len(PIECES)


# --- the position --------------------------------------------------------------------------
class Phase(StrEnum):
    START = "start"  # chance: the first captain is drawn
    CARDS = "cards"  # each seat lays a card face down, one seat after another
    CAPTAIN = "captain"  # the previous captain names the new one among a tie
    NEXT = "next"  # the captain orders seats with equal cards
    ANNOUNCE = "announce"  # the active seat announces one or two pieces
    PLACE = "place"  # the active seat places a piece
    SETTLE = "settle"  # chance: the physics of the placement
    CATCH = "catch"  # the active seat catches falling pieces (chance or its choice)
    OVER = "over"


@dataclass(frozen=True, slots=True)
class RiffRaffState:
    phase: Phase
    hands: tuple[tuple[int, ...], ...]  # each seat's cards in hand, ascending
    played: tuple[tuple[int, ...], ...]  # each seat's revealed cards, oldest first
    chosen: tuple[int | None, ...]  # this round's face-down cards (hidden until all are down)
    supplies: tuple[tuple[int, ...], ...]  # each seat's pieces, a count per piece type
    captain: int = 0
    round: int = 0  # the current round, 1 to 10 (20); 0 before the first
    to_play: tuple[int, ...] = ()  # seats still to take their turn this round
    active: int | None = None  # the seat taking its turn
    announced: int = 0  # pieces announced this turn
    loaded: int = 0  # placements made this turn
    placed: tuple[int, ...] = ()  # pieces placed this turn (by number)
    pending: Placement | None = None  # the placement waiting for the physics
    falling: tuple[Fall, ...] = ()  # pieces that fell this turn, waiting for the catch
    board: Board = REST
    motion: float = 0.0  # the ship's motion at the end of the last settle window
    caught: tuple[int, ...] = ()  # pieces each seat caught (out of the game)
    winners: tuple[int, ...] = ()

    def counted_catch(self, bodies: tuple[int, ...]) -> set[int]:
        """The caught pieces that leave the game: none when the only pieces caught are the
        player's own of this turn (then they go back to the supply like uncaught ones)."""
        kept = set(bodies)
        return set() if kept <= set(self.placed) else kept

    def supply_size(self, seat: int) -> int:
        return sum(self.supplies[seat])

    def card(self, seat: int) -> int | None:
        """The seat's latest revealed card."""
        return self.played[seat][-1] if self.played[seat] else None

    def on_board(self) -> tuple[PiecePose, ...]:
        return self.board.pieces
