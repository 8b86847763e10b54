"""The game protocol: what every game offers to bots, interfaces and analysis.

A `Game` holds the rules and options of one game; a state is an immutable value and
`apply` returns a new one. Chance is explicit: when `to_move` returns `CHANCE`, the next
action is a chance outcome, listed with exact probabilities by `chance_outcomes`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Final, Generic, TypeVar

from spieltisch.core.chance import sample_exact
from spieltisch.core.errors import IllegalAction

__all__ = ["CHANCE", "Game", "JsonValue", "Mover"]

CHANCE: Final = -1
"""`to_move` returns this when the next action is a chance outcome (a dice roll, ...)."""

Mover = int | None
"""A seat (0-based), `CHANCE`, or None when the game is over."""

JsonValue = Any
"""A value that `json.dumps` accepts."""

S = TypeVar("S")
A = TypeVar("A")


class Game(ABC, Generic[S, A]):
    """The rules of one game with its options fixed."""

    name: ClassVar[str]
    title: ClassVar[str]
    rules_version: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    @abstractmethod
    def __init__(self, options: Mapping[str, JsonValue] | None = None) -> None:
        """Read and check `options` (missing ones take defaults); raises `InvalidOptions`."""

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many seats the game has."""

    @abstractmethod
    def options_json(self) -> dict[str, JsonValue]:
        """The options, such that `type(self)(options)` rebuilds this game."""

    # --- positions and moves -------------------------------------------------------------
    @abstractmethod
    def new_state(self) -> S:
        """The position before the first action."""

    @abstractmethod
    def to_move(self, state: S) -> Mover:
        """The seat to act, `CHANCE`, or None when the game is over."""

    @abstractmethod
    def legal_actions(self, state: S) -> list[A]:
        """The legal actions (or chance outcomes) in a deterministic order."""

    @abstractmethod
    def apply(self, state: S, action: A) -> S:
        """The position after `action`; raises `IllegalAction` and leaves `state` as it was."""

    @abstractmethod
    def chance_outcomes(self, state: S) -> list[tuple[A, Fraction]]:
        """At a chance node, every outcome with its exact probability (they sum to 1)."""

    def sample_chance(self, state: S, rng: random.Random) -> A:
        """One chance outcome drawn with `rng`; games may override with a faster equivalent."""
        return sample_exact(self.chance_outcomes(state), rng)

    def resolve_chance(self, state: S, rng: random.Random) -> S:
        """Chance outcomes drawn with `rng` (`sample_chance`) applied until a seat is to move
        or the game is over; games may override with a faster equivalent."""
        while self.to_move(state) == CHANCE:
            state = self.apply(state, self.sample_chance(state, rng))
        return state

    def is_over(self, state: S) -> bool:
        return self.to_move(state) is None

    # --- results ------------------------------------------------------------------------
    @abstractmethod
    def scores(self, state: S) -> tuple[int, ...]:
        """Each seat's score so far."""

    @abstractmethod
    def winners(self, state: S) -> tuple[int, ...]:
        """The winning seats of a finished game (more than one on a shared win)."""

    # --- what crosses a boundary --------------------------------------------------------
    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, JsonValue]:
        """What `seat` (None: a spectator) may see, including its legal actions as text."""

    @abstractmethod
    def state_to_json(self, state: S) -> dict[str, JsonValue]: ...

    @abstractmethod
    def state_from_json(self, data: Mapping[str, JsonValue]) -> S:
        """Rebuild a state; raises `ValueError` on malformed data."""

    @abstractmethod
    def format_action(self, action: A) -> str:
        """The action in the game's text notation (also its JSON form)."""

    @abstractmethod
    def read_action(self, state: S, text: str) -> A:
        """Read the text notation of an action for `state`; raises `IllegalAction` when the
        text is no action at all (whether it is legal is `parse_action`'s question)."""

    def parse_action(self, state: S, text: str) -> A:
        """Read a typed action and check it is legal; `IllegalAction` explains what is allowed."""
        action = self.read_action(state, text)
        self.apply(state, action)  # pure: raises an explaining IllegalAction, result discarded
        return action

    @abstractmethod
    def render(self, state: S) -> str:
        """A readable one-screen picture of the position."""

    # --- telling what happened (logs of tables and terminals) --------------------------------
    def public_to(self, actor: Mover, action: str, viewer: int | None) -> bool:
        """Whether `viewer` (a seat; None: a spectator) may see the action `action` (text
        notation) that `actor` (a seat or `CHANCE`) made. Games without hidden moves say yes."""
        return True

    def story(self, before: S, action: A, after: S) -> dict[str, JsonValue]:
        """What a log tells of `action` besides its notation: public facts that take the
        position to work out (which tile was taken, what fell). Empty when the text says it."""
        return {}

    # --- helpers built on the above -----------------------------------------------------
    def action_to_json(self, action: A) -> JsonValue:
        return self.format_action(action)

    def action_from_json(self, state: S, data: JsonValue) -> A:
        if not isinstance(data, str):
            raise IllegalAction(f"an action must be a string, not {type(data).__name__}")
        return self.parse_action(state, data)

    def check_legal(self, state: S, action: A) -> None:
        """Raise `IllegalAction` unless `action` is legal in `state`."""
        legal = self.legal_actions(state)
        if action not in legal:
            allowed = ", ".join(self.format_action(a) for a in legal) or "nothing (game over)"
            raise IllegalAction(
                f"'{self.format_action(action)}' is not legal now; allowed: {allowed}"
            )

    def apply_all(self, state: S, actions: Sequence[A]) -> S:
        for action in actions:
            state = self.apply(state, action)
        return state
