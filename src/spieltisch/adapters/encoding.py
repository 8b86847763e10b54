"""Actions as integers and positions as vectors: the contract every adapter builds on.

An `Encoder` fixes, for one game with its options, a finite *action vocabulary*: a list of
keys, one per integer. A legal action maps to the index of its key (`index_of`); an integer
maps back to the legal action with that key (`action_for`). The vocabulary depends only on the
game and its options, never on the position, so an action space has a fixed size.

Chance outcomes have their own vocabulary (`chance_vocabulary`, keyed by the outcome itself)
for adapters that expose chance nodes (OpenSpiel); environments resolve chance themselves.

The observation of a seat is a flat vector of floats in [0, 1], described field by field by
`fields()`: the fields are concatenated in that order. Observations are always from the
observing seat's point of view: "seat-relative" lists start with the observer and go on in
turn order. They hold only what that seat may see (the game's `view` contract).

`observe` builds the vector plainly; `observe_array` gives the same values as a float32 numpy
vector, which encoders may assemble faster from parts they remember (tests compare the two).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from spieltisch.core.errors import IllegalAction
from spieltisch.core.protocol import Game

__all__ = [
    "ActionKey",
    "Encoder",
    "Field",
    "FloatVector",
    "LegalPairs",
    "VectorBuilder",
    "as_vector",
    "encoder_for",
    "relative_seats",
    "resolve_chance",
    "win_shares",
]

ActionKey = tuple[Any, ...]
"""A vocabulary entry: a tuple whose first item names the kind of action."""
FloatVector = npt.NDArray[np.float32]
LegalPairs = tuple[tuple[int, ...], tuple[Any, ...]]
"""The legal integers of a position, ascending, and the actions they stand for."""
LEGAL_PAIRS_LIMIT = 50_000
"""Remembered legal pairs per encoder; more and they are forgotten and worked out again."""


@dataclass(frozen=True)
class Field:
    """One part of the observation vector: its name, length and meaning."""

    name: str
    size: int
    meaning: str


class VectorBuilder:
    """Collects the fields of an observation in order, each value clipped into [0, 1]."""

    def __init__(self) -> None:
        self.values: list[float] = []

    def one_hot(self, index: int | None, size: int) -> None:
        """`size` zeros with a one at `index` (none when `index` is None or out of range)."""
        part = [0.0] * size
        if index is not None and 0 <= index < size:
            part[index] = 1.0
        self.values.extend(part)

    def flags(self, values: Iterable[bool]) -> None:
        self.values += [1.0 if value else 0.0 for value in values]

    def scaled(self, values: Iterable[float], maximum: float) -> None:
        """Each value divided by `maximum`, clipped into [0, 1]."""
        part = [value / maximum for value in values]
        if part and (min(part) < 0.0 or max(part) > 1.0):  # clip only if needed: it is slow
            part = [min(1.0, max(0.0, value)) for value in part]
        self.values += part


def as_vector(values: list[float]) -> FloatVector:
    """Observation values as a float32 vector."""
    return np.asarray(values, dtype=np.float32)


def relative_seats(seat: int, players: int) -> list[int]:
    """The seats from `seat`'s point of view: itself first, then the others in turn order."""
    return [(seat + offset) % players for offset in range(players)]


class Encoder(ABC):
    """The integer actions and observation vectors of one game with fixed options."""

    keys_ignore_position: ClassVar[bool] = False
    """True when an action's key never depends on the position: each action's integer is then
    worked out once and remembered."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self.players = game.num_players
        self._keys: list[ActionKey] = self.vocabulary()
        self._index = {key: index for index, key in enumerate(self._keys)}
        if len(self._index) != len(self._keys):
            raise ValueError(f"the action vocabulary of {game.title} repeats a key")
        self._chance_keys = self.chance_vocabulary()
        self._chance_index = {key: index for index, key in enumerate(self._chance_keys)}
        self._known_indices: dict[Any, int] = {}
        self._chance_pairs: dict[Hashable, tuple[tuple[int, float], ...]] = {}
        self._legal_pairs: dict[Hashable, LegalPairs] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> Encoder:
        """An encoder never changes once built, so copies of a position share it."""
        return self

    # --- what each game defines ----------------------------------------------------------
    @abstractmethod
    def vocabulary(self) -> list[ActionKey]:
        """Every action key, in index order."""

    @abstractmethod
    def action_key(self, state: Any, action: Any) -> ActionKey:
        """The vocabulary key of a legal player action in `state`."""

    @abstractmethod
    def action_label(self, key: ActionKey) -> str:
        """A short readable name of a vocabulary key."""

    @abstractmethod
    def fields(self) -> list[Field]:
        """The observation's fields, in vector order."""

    @abstractmethod
    def observe(self, state: Any, seat: int) -> list[float]:
        """The observation vector of `seat` in `state`."""

    def chance_vocabulary(self) -> list[Hashable]:
        """Every chance outcome that can occur, in index order (empty: not enumerable)."""
        return []

    def chance_key(self, state: Any) -> Hashable | None:
        """What the chance outcomes of `state` depend on, so that adapters can convert them
        once per key; None: not known, convert them each time."""
        return None

    def legal_key(self, state: Any) -> Hashable | None:
        """What the legal actions of `state` depend on (and nothing more), so that adapters
        can convert them to integers once per key; None: not known, convert them each time."""
        return None

    def observe_array(self, state: Any, seat: int) -> FloatVector:
        """`observe` as a new float32 vector; encoders may build it faster from remembered
        parts, with the same values."""
        return as_vector(self.observe(state, seat))

    # --- built on the above ---------------------------------------------------------------
    @property
    def num_actions(self) -> int:
        return len(self._keys)

    @property
    def num_chance_outcomes(self) -> int:
        return len(self._chance_keys)

    @property
    def observation_size(self) -> int:
        return sum(field.size for field in self.fields())

    def action_labels(self) -> list[str]:
        return [self.action_label(key) for key in self._keys]

    def label_of(self, index: int) -> str:
        """The readable name of integer action `index`."""
        return self.action_label(self._keys[index])

    def index_of(self, state: Any, action: Any) -> int:
        """The integer of a legal player action."""
        if not self.keys_ignore_position:
            return self._index[self.action_key(state, action)]
        index = self._known_indices.get(action)
        if index is None:
            index = self._index[self.action_key(state, action)]
            self._known_indices[action] = index
        return index

    def legal_indices(self, state: Any) -> list[int]:
        """The integers of the legal player actions, ascending (empty at chance or the end)."""
        return list(self.legal_pairs(state)[0])

    def legal_pairs(self, state: Any) -> LegalPairs:
        """The legal integers of `state`, ascending, and their actions (both empty at chance or
        the end); converted once per `legal_key`."""
        key = self.legal_key(state)
        pairs = self._legal_pairs.get(key) if key is not None else None
        if pairs is None:
            pairs = self._convert_legal(state)
            if key is not None:
                if len(self._legal_pairs) >= LEGAL_PAIRS_LIMIT:
                    self._legal_pairs.clear()
                self._legal_pairs[key] = pairs
        return pairs

    def _convert_legal(self, state: Any) -> LegalPairs:
        if not self.to_move_is_player(state):
            return (), ()
        actions = self.game.legal_actions(state)
        indices = [self.index_of(state, action) for action in actions]
        if indices != sorted(indices):  # many games list their actions in order already
            order = sorted(range(len(actions)), key=indices.__getitem__)
            indices, actions = [indices[i] for i in order], [actions[i] for i in order]
        return tuple(indices), tuple(actions)

    def action_mask(self, state: Any) -> list[int]:
        """1 for each legal integer action, 0 for the others."""
        mask = [0] * self.num_actions
        for index in self.legal_indices(state):
            mask[index] = 1
        return mask

    def action_for(self, state: Any, index: int) -> Any:
        """The legal action that integer `index` stands for; raises `IllegalAction`."""
        if not 0 <= index < self.num_actions:
            raise IllegalAction(
                f"action {index} is outside the action space 0..{self.num_actions - 1}"
            )
        indices, actions = self.legal_pairs(state)
        if index in indices:
            return actions[indices.index(index)]
        legal = ", ".join(str(i) for i in indices) or "none (game over)"
        raise IllegalAction(
            f"action {index} ({self.label_of(index)}) is not legal now; legal: {legal}"
        )

    def to_move_is_player(self, state: Any) -> bool:
        mover = self.game.to_move(state)
        return mover is not None and mover >= 0

    def chance_pairs(self, state: Any) -> tuple[tuple[int, float], ...]:
        """The chance outcomes of `state` as (integer, probability as a float), ascending by
        integer; converted once per `chance_key`."""
        key = self.chance_key(state)
        pairs = self._chance_pairs.get(key) if key is not None else None
        if pairs is None:
            outcomes = self.game.chance_outcomes(state)
            pairs = tuple(sorted((self.chance_index(o), float(p)) for o, p in outcomes))
            if key is not None:
                self._chance_pairs[key] = pairs
        return pairs

    def chance_index(self, outcome: Any) -> int:
        return self._chance_index[outcome]

    def chance_outcome(self, index: int) -> Any:
        return self._chance_keys[index]

    def describe(self) -> str:
        """The action vocabulary and the observation fields as readable text."""
        lines = [f"{self.game.title}: {self.num_actions} actions"]
        lines += [f"  {index:3d}  {label}" for index, label in enumerate(self.action_labels())]
        lines.append(f"observation: {self.observation_size} floats in [0, 1]")
        lines += [f"  {field.name} ({field.size}): {field.meaning}" for field in self.fields()]
        return "\n".join(lines)


def encoder_for(game: Game[Any, Any]) -> Encoder:
    """The encoder of a registered game with its options."""
    from spieltisch.adapters.encoders import ENCODERS

    try:
        cls = ENCODERS[game.name]
    except KeyError:
        raise KeyError(
            f"no encoder for '{game.name}'; games with one: {', '.join(sorted(ENCODERS))}"
        ) from None
    return cls(game)


def resolve_chance(game: Game[Any, Any], state: Any, rng: random.Random) -> Any:
    """Apply chance outcomes drawn with `rng` until a seat is to move or the game is over."""
    return game.resolve_chance(state, rng)


def win_shares(game: Game[Any, Any], state: Any) -> list[float]:
    """Each seat's share of the win of a finished game: 1/k to each of k winners, else 0."""
    winners = game.winners(state)
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(game.num_players)]
